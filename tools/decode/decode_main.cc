// fairwire-decode: `protoc --decode` with the fairwire decoder.
//
//   fairwire-decode --proto F.proto [-I DIR]... --type pkg.Msg < in.bin
//   fairwire-decode --batch LIST
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
//
// --batch decodes many inputs in one process, for test suites that compare
// thousands of files with protoc (one process each would cost more than the
// decoding). Each line of LIST is four tab-separated fields:
//   DIR  F.proto  pkg.Msg  INPUT_FILE
// (DIR the only -I directory, as in `cd DIR && protoc -I . --decode=pkg.Msg
// F.proto < INPUT_FILE`). For each line, stdout gets the header
//   fairwire-decode-batch LINE_NUMBER EXIT_STATUS STDOUT_BYTES STDERR_BYTES
// and a newline, then exactly what the single-input form would have written
// to stdout and to stderr. Each .proto file is loaded once. The batch itself
// exits 0 when every line was read and answered, 2 otherwise.
#include <google/protobuf/compiler/importer.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fairwire/protobuf/schema_from_descriptor.h"
#include "fairwire/text_format/descriptor_text_format.h"
#include "fairwire/text_format/text_format.h"
#include "fairwire/wire/decoder.h"

namespace fairwire::wire {
namespace {

namespace gpb = google::protobuf;

constexpr int kExitPrinted = 0;
constexpr int kExitRejected = 1;
constexpr int kExitUsage = 2;
constexpr int kExitUnsupported = 3;

constexpr const char* kUsage =
    "usage: fairwire-decode --proto F.proto [-I DIR]... --type pkg.Msg "
    "< in.bin\n"
    "       fairwire-decode --batch LIST\n"
    "Decodes stdin with the fairwire decoder and prints it as protoc "
    "--decode=pkg.Msg F.proto does.\n";

struct Options {
  std::string proto;
  std::string type;
  std::vector<std::string> include_dirs;
  std::string batch;
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
               TakeFlag(args, &i, "--type", &options.type) ||
               TakeFlag(args, &i, "--batch", &options.batch)) {
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
  const bool single = !options.proto.empty() || !options.type.empty() ||
                      !options.include_dirs.empty();
  if (!options.batch.empty() && single) {
    std::cerr << "fairwire-decode: --batch takes no other option\n" << kUsage;
    return std::nullopt;
  }
  if (options.batch.empty() &&
      (options.proto.empty() || options.type.empty())) {
    std::cerr << "fairwire-decode: --proto and --type are required\n" << kUsage;
    return std::nullopt;
  }
  if (options.include_dirs.empty()) options.include_dirs.push_back(".");
  return options;
}

// Prints .proto errors as protoc does ("file:line:col: message").
class ErrorPrinter : public gpb::compiler::MultiFileErrorCollector {
 public:
  explicit ErrorPrinter(std::ostream& err) : err_(err) {}

  void AddError(const std::string& filename, int line, int column,
                const std::string& message) override {
    Print(filename, line, column, message, "");
  }
  void AddWarning(const std::string& filename, int line, int column,
                  const std::string& message) override {
    Print(filename, line, column, message, "warning: ");
  }
  // Where the messages go from now on (the batch form reuses one importer).
  void RedirectTo(std::ostream& err) { err_ = std::ref(err); }

 private:
  void Print(const std::string& filename, int line, int column,
             const std::string& message, const char* prefix) {
    std::ostream& err = err_.get();
    err << filename;
    if (line >= 0) err << ":" << line + 1 << ":" << column + 1;
    err << ": " << prefix << message << "\n";
  }

  std::reference_wrapper<std::ostream> err_;
};

// The name `proto` has in the source tree, as protoc derives it: a file that
// exists on disk is mapped through the -I directories; otherwise it must be a
// name relative to one of them.
std::optional<std::string> VirtualName(gpb::compiler::DiskSourceTree& tree,
                                       const std::string& proto,
                                       std::ostream& err) {
  std::string virtual_file;
  std::string shadowing;
  if (access(proto.c_str(), F_OK) == 0) {
    switch (tree.DiskFileToVirtualFile(proto, &virtual_file, &shadowing)) {
      case gpb::compiler::DiskSourceTree::SUCCESS:
        return virtual_file;
      case gpb::compiler::DiskSourceTree::SHADOWED:
        err << proto << ": Input is shadowed in the -I path by \"" << shadowing
            << "\".\n";
        return std::nullopt;
      case gpb::compiler::DiskSourceTree::CANNOT_OPEN:
        err << "Could not map to virtual file: " << proto << "\n";
        return std::nullopt;
      case gpb::compiler::DiskSourceTree::NO_MAPPING:
        break;
    }
  }
  std::string disk_file;
  if (tree.VirtualFileToDiskFile(proto, &disk_file)) return proto;
  if (access(proto.c_str(), F_OK) != 0) {
    err << "Could not make proto path relative: " << proto
        << ": No such file or directory\n";
  } else {
    err << proto
        << ": File does not reside within any path specified using -I "
           "(the -I directory must be an exact prefix of the path).\n";
  }
  return std::nullopt;
}

// One .proto file loaded as protoc loads it, and the fairwire schemas of the
// types asked for so far (their descriptors live in the importer's pool).
class LoadedProto {
 public:
  // Loads `proto`; nullptr (after writing why to `err`) when it cannot.
  static std::unique_ptr<LoadedProto> Load(
      const std::vector<std::string>& include_dirs, const std::string& proto,
      std::ostream& err) {
    std::unique_ptr<LoadedProto> loaded(new LoadedProto(err));
    for (const std::string& dir : include_dirs) loaded->tree_.MapPath("", dir);
    // Like protoc, find the well-known types (google/protobuf/*.proto) in the
    // protobuf installation's include directory, after the user's paths.
    const std::string installed = FAIRWIRE_PROTOBUF_INCLUDE_DIR;
    if (!installed.empty() &&
        access((installed + "/google/protobuf/descriptor.proto").c_str(),
               R_OK) == 0) {
      loaded->tree_.MapPath("", installed);
    }
    std::optional<std::string> name = VirtualName(loaded->tree_, proto, err);
    if (!name || loaded->importer_.Import(*name) == nullptr) return nullptr;
    return loaded;
  }

  // The schema of `type`; nullptr (after writing why to `err`) when the type
  // is not defined or fairwire::wire cannot represent it.
  const protobuf::DescriptorSchema* Schema(const std::string& type,
                                           std::ostream& err) {
    auto found = schemas_.find(type);
    if (found != schemas_.end()) return &found->second;
    errors_.RedirectTo(err);
    const gpb::Descriptor* descriptor =
        importer_.pool()->FindMessageTypeByName(type);
    if (descriptor == nullptr) {
      err << "Type not defined: " << type << "\n";
      return nullptr;
    }
    std::string error;
    std::optional<protobuf::DescriptorSchema> built =
        protobuf::BuildDescriptorSchema(*descriptor, &error);
    if (!built) {
      err << "fairwire-decode: " << error << "\n";
      return nullptr;
    }
    return &schemas_.emplace(type, std::move(*built)).first->second;
  }

 private:
  explicit LoadedProto(std::ostream& err)
      : errors_(err), importer_(&tree_, &errors_) {}

  gpb::compiler::DiskSourceTree tree_;
  ErrorPrinter errors_;
  gpb::compiler::Importer importer_;
  std::map<std::string, protobuf::DescriptorSchema> schemas_;
};

// All of `in` (read through its buffer: g++ 12 at -O3 takes
// istreambuf_iterator for a null dereference).
std::string ReadAll(std::istream& in) {
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

// Decodes `input` as `built`'s root and prints it to `out` as protoc would;
// returns the exit status.
int DecodeAndPrint(const protobuf::DescriptorSchema& built,
                   const std::string& input, std::ostream& out,
                   std::ostream& err) {
  Message message(built.schema, 0);
  const DecodeStatus status =
      Decode(std::span(reinterpret_cast<const std::uint8_t*>(input.data()),
                       input.size()),
             message);
  if (!status.ok()) {
    err << "Failed to parse input: " << ToString(status) << "\n";
    return kExitRejected;
  }
  const std::string oneof = OneofWithSeveralMembers(built, message);
  if (!oneof.empty()) {
    err << "fairwire-decode: oneof " << oneof
        << " has several members set; fairwire::wire keeps them all, "
           "protoc would print only the last (not supported)\n";
    return kExitUnsupported;
  }
  const std::string extended = TypeWithExtensionValue(built, message);
  if (!extended.empty()) {
    err << "fairwire-decode: the input holds an extension of " << extended
        << "; fairwire::wire has no extensions, protoc would print "
           "its value by name (not supported)\n";
    return kExitUnsupported;
  }
  std::string text;
  if (!AppendTextFormat(message, 0, &text, TextFormatOptionsFor(built))) {
    err << "fairwire-decode: decoder kept malformed unknown fields\n";
    return kExitRejected;
  }
  out << text;
  return kExitPrinted;
}

int RunSingle(const Options& options) {
  std::unique_ptr<LoadedProto> loaded =
      LoadedProto::Load(options.include_dirs, options.proto, std::cerr);
  if (!loaded) return kExitUsage;
  const protobuf::DescriptorSchema* built =
      loaded->Schema(options.type, std::cerr);
  if (built == nullptr) return kExitUsage;
  const std::string input = ReadAll(std::cin);
  if (std::cin.bad()) {
    std::cerr << "fairwire-decode: cannot read stdin\n";
    return kExitUsage;
  }
  const int status = DecodeAndPrint(*built, input, std::cout, std::cerr);
  std::cout.flush();
  return std::cout ? status : kExitRejected;
}

// Splits a batch line into its tab-separated fields.
std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

// One batch line, answered as the single-input form would answer it.
int AnswerLine(const std::vector<std::string>& fields,
               std::map<std::pair<std::string, std::string>,
                        std::unique_ptr<LoadedProto>>& protos,
               std::ostream& out, std::ostream& err) {
  const std::string& dir = fields[0];
  const std::string& proto = fields[1];
  std::unique_ptr<LoadedProto>& loaded = protos[{dir, proto}];
  if (!loaded) {
    // protoc's -I DIR with a relative F.proto, as if run from DIR.
    loaded = LoadedProto::Load({dir}, dir + "/" + proto, err);
    if (!loaded) return kExitUsage;
  }
  const protobuf::DescriptorSchema* built = loaded->Schema(fields[2], err);
  if (built == nullptr) return kExitUsage;
  std::ifstream in(fields[3], std::ios::binary);
  const std::string input = in ? ReadAll(in) : std::string();
  if (!in.is_open() || in.bad()) {
    err << "fairwire-decode: cannot read " << fields[3] << "\n";
    return kExitUsage;
  }
  return DecodeAndPrint(*built, input, out, err);
}

int RunBatch(const Options& options) {
  std::ifstream list(options.batch);
  if (!list) {
    std::cerr << "fairwire-decode: cannot read " << options.batch << "\n";
    return kExitUsage;
  }
  std::map<std::pair<std::string, std::string>, std::unique_ptr<LoadedProto>>
      protos;
  std::string line;
  for (long number = 1; std::getline(list, line); ++number) {
    const std::vector<std::string> fields = Fields(line);
    if (fields.size() != 4) {
      std::cerr << options.batch << ":" << number
                << ": expected four tab-separated fields, got " << fields.size()
                << "\n";
      return kExitUsage;
    }
    std::ostringstream out;
    std::ostringstream err;
    const int status = AnswerLine(fields, protos, out, err);
    const std::string printed = out.str();
    const std::string said = err.str();
    std::cout << "fairwire-decode-batch " << number << " " << status << " "
              << printed.size() << " " << said.size() << "\n"
              << printed << said;
  }
  std::cout.flush();
  return std::cout && list.eof() ? 0 : kExitUsage;
}

int Run(int argc, char** argv) {
  const std::optional<Options> options = ParseArgs(argc, argv);
  if (!options) return kExitUsage;
  return options->batch.empty() ? RunSingle(*options) : RunBatch(*options);
}

}  // namespace
}  // namespace fairwire::wire

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return fairwire::wire::Run(argc, argv);
}
