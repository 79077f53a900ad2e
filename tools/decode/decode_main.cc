// fairwire-decode: `protoc --decode` with the fairwire decoder.
//
//   fairwire-decode --proto F.proto [-I DIR]... --type pkg.Msg < in.bin
//
// Loads F.proto with libprotobuf's compiler::Importer (search path as
// protoc's: the -I / --proto_path directories, else the current directory,
// then the protobuf installation's include directory),
// decodes stdin with fairwire::wire::Decode and prints the message in text
// format, byte-for-byte as protoc --decode would. Exit status: 0 printed,
// 1 input rejected (reason and byte offset on stderr), 2 usage or schema
// error (including group fields, which fairwire::wire has no kind for),
// 3 input that fairwire cannot print as protoc would (several members of one
// oneof set; a value of an extension defined in the .proto files).
#include <google/protobuf/compiler/importer.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/protobuf/schema_from_descriptor.h"
#include "fairwire/text_format/descriptor_text_format.h"
#include "fairwire/text_format/text_format.h"
#include "fairwire/wire/decoder.h"

namespace fairwire::wire {
namespace {

namespace gpb = google::protobuf;

constexpr int kExitRejected = 1;
constexpr int kExitUsage = 2;
constexpr int kExitUnsupported = 3;

constexpr const char* kUsage =
    "usage: fairwire-decode --proto F.proto [-I DIR]... --type pkg.Msg "
    "< in.bin\n"
    "Decodes stdin with the fairwire decoder and prints it as protoc "
    "--decode=pkg.Msg F.proto does.\n";

struct Options {
  std::string proto;
  std::string type;
  std::vector<std::string> include_dirs;
};

// If args[*i] is `flag` followed by a value, or `flag=value`, stores the
// value, advances *i past it and returns true.
bool TakeFlag(const std::vector<std::string>& args, std::size_t* i,
              const std::string& flag, std::string* value) {
  const std::string& arg = args[*i];
  if (arg == flag && *i + 1 < args.size()) {
    *value = args[++*i];
    return true;
  }
  if (arg.size() > flag.size() + 1 && arg.rfind(flag + "=", 0) == 0) {
    *value = arg.substr(flag.size() + 1);
    return true;
  }
  return false;
}

// Parses argv; nullopt (after printing why) on a usage error.
std::optional<Options> ParseArgs(int argc, char** argv) {
  Options options;
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string dir;
    if (args[i] == "-h" || args[i] == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (TakeFlag(args, &i, "--proto", &options.proto) ||
               TakeFlag(args, &i, "--type", &options.type)) {
      continue;
    } else if (TakeFlag(args, &i, "-I", &dir) ||
               TakeFlag(args, &i, "--proto_path", &dir)) {
      options.include_dirs.push_back(dir);
    } else if (args[i].size() > 2 && args[i].rfind("-I", 0) == 0) {
      options.include_dirs.push_back(args[i].substr(2));
    } else {
      std::cerr << "fairwire-decode: unexpected argument " << args[i] << "\n"
                << kUsage;
      return std::nullopt;
    }
  }
  if (options.proto.empty() || options.type.empty()) {
    std::cerr << "fairwire-decode: --proto and --type are required\n" << kUsage;
    return std::nullopt;
  }
  if (options.include_dirs.empty()) options.include_dirs.push_back(".");
  return options;
}

// Prints .proto errors as protoc does ("file:line:col: message").
class ErrorPrinter : public gpb::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& filename, int line, int column,
                const std::string& message) override {
    Print(filename, line, column, message, "");
  }
  void AddWarning(const std::string& filename, int line, int column,
                  const std::string& message) override {
    Print(filename, line, column, message, "warning: ");
  }

 private:
  static void Print(const std::string& filename, int line, int column,
                    const std::string& message, const char* prefix) {
    std::cerr << filename;
    if (line >= 0) std::cerr << ":" << line + 1 << ":" << column + 1;
    std::cerr << ": " << prefix << message << "\n";
  }
};

// The name `proto` has in the source tree, as protoc derives it: a file that
// exists on disk is mapped through the -I directories; otherwise it must be a
// name relative to one of them.
std::optional<std::string> VirtualName(gpb::compiler::DiskSourceTree& tree,
                                       const std::string& proto) {
  std::string virtual_file;
  std::string shadowing;
  if (access(proto.c_str(), F_OK) == 0) {
    switch (tree.DiskFileToVirtualFile(proto, &virtual_file, &shadowing)) {
      case gpb::compiler::DiskSourceTree::SUCCESS:
        return virtual_file;
      case gpb::compiler::DiskSourceTree::SHADOWED:
        std::cerr << proto << ": Input is shadowed in the -I path by \""
                  << shadowing << "\".\n";
        return std::nullopt;
      case gpb::compiler::DiskSourceTree::CANNOT_OPEN:
        std::cerr << "Could not map to virtual file: " << proto << "\n";
        return std::nullopt;
      case gpb::compiler::DiskSourceTree::NO_MAPPING:
        break;
    }
  }
  std::string disk_file;
  if (tree.VirtualFileToDiskFile(proto, &disk_file)) return proto;
  if (access(proto.c_str(), F_OK) != 0) {
    std::cerr << "Could not make proto path relative: " << proto
              << ": No such file or directory\n";
  } else {
    std::cerr << proto
              << ": File does not reside within any path specified using -I "
                 "(the -I directory must be an exact prefix of the path).\n";
  }
  return std::nullopt;
}

int Run(int argc, char** argv) {
  std::optional<Options> options = ParseArgs(argc, argv);
  if (!options) return kExitUsage;

  gpb::compiler::DiskSourceTree tree;
  for (const std::string& dir : options->include_dirs) tree.MapPath("", dir);
  // Like protoc, find the well-known types (google/protobuf/*.proto) in the
  // protobuf installation's include directory, after the user's paths.
  const std::string installed = FAIRWIRE_PROTOBUF_INCLUDE_DIR;
  if (!installed.empty() &&
      access((installed + "/google/protobuf/descriptor.proto").c_str(), R_OK) ==
          0) {
    tree.MapPath("", installed);
  }
  std::optional<std::string> name = VirtualName(tree, options->proto);
  if (!name) return kExitUsage;
  ErrorPrinter errors;
  gpb::compiler::Importer importer(&tree, &errors);
  if (importer.Import(*name) == nullptr) return kExitUsage;
  const gpb::Descriptor* type =
      importer.pool()->FindMessageTypeByName(options->type);
  if (type == nullptr) {
    std::cerr << "Type not defined: " << options->type << "\n";
    return kExitUsage;
  }
  std::string error;
  std::optional<protobuf::DescriptorSchema> built =
      protobuf::BuildDescriptorSchema(*type, &error);
  if (!built) {
    std::cerr << "fairwire-decode: " << error << "\n";
    return kExitUsage;
  }

  std::string input(std::istreambuf_iterator<char>(std::cin), {});
  Message message(built->schema, 0);
  const DecodeStatus status =
      Decode(std::span(reinterpret_cast<const std::uint8_t*>(input.data()),
                       input.size()),
             message);
  if (!status.ok()) {
    std::cerr << "Failed to parse input: " << ToString(status) << "\n";
    return kExitRejected;
  }
  const std::string oneof = OneofWithSeveralMembers(*built, message);
  if (!oneof.empty()) {
    std::cerr << "fairwire-decode: oneof " << oneof
              << " has several members set; fairwire::wire keeps them all, "
                 "protoc would print only the last (not supported)\n";
    return kExitUnsupported;
  }
  const std::string extended = TypeWithExtensionValue(*built, message);
  if (!extended.empty()) {
    std::cerr << "fairwire-decode: the input holds an extension of " << extended
              << "; fairwire::wire has no extensions, protoc would print "
                 "its value by name (not supported)\n";
    return kExitUnsupported;
  }
  std::string text;
  if (!AppendTextFormat(message, 0, &text, TextFormatOptionsFor(*built))) {
    std::cerr << "fairwire-decode: decoder kept malformed unknown fields\n";
    return kExitRejected;
  }
  std::cout << text;
  std::cout.flush();
  return std::cout ? 0 : kExitRejected;
}

}  // namespace
}  // namespace fairwire::wire

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return fairwire::wire::Run(argc, argv);
}
