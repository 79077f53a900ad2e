// fairwire-export-schema-case: a wire_schema_diff corpus file as a .proto file
// and a payload, so that the decode test can run protoc --decode and
// fairwire-decode on it.
//
//   fairwire-export-schema-case IN OUT_DIR [IN OUT_DIR]...
//
// For each pair, writes OUT_DIR/fairwire_sd.proto (the case's schema, as the
// fuzz target builds it into a DescriptorPool, printed as .proto source) and
// OUT_DIR/payload.bin, and prints one line: the root type's full name, or
// nothing when the case cannot be exported (why goes to stderr). Exit 2 when
// any case could not be exported.
#include <google/protobuf/descriptor.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fairwire/checks/wire_schema_build.h"
#include "fairwire/scenarios/wire_schema_case.h"

namespace {

// Exports one case; prints its root type, or returns false after saying why.
bool Export(const char* in_path, const std::string& dir) {
  std::ifstream in(in_path, std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << in_path << "\n";
    return false;
  }
  const std::vector<std::uint8_t> input((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  const fairwire::wire::scenario::SchemaCase schema_case =
      fairwire::wire::scenario::DecodeSchemaCase(input);
  google::protobuf::DescriptorPool pool;
  std::string error;
  const google::protobuf::FileDescriptor* file =
      fairwire::wire::oracle::BuildSchemaCase(schema_case, pool, &error);
  if (file == nullptr || file->message_type_count() == 0) {
    std::cerr << in_path << ": schema does not build: " << error << "\n";
    return false;
  }
  std::ofstream proto(dir + "/" + file->name(), std::ios::binary);
  proto << file->DebugString();
  std::ofstream payload(dir + "/payload.bin", std::ios::binary);
  payload.write(reinterpret_cast<const char*>(schema_case.payload.data()),
                static_cast<std::streamsize>(schema_case.payload.size()));
  if (!proto || !payload) {
    std::cerr << "cannot write to " << dir << "\n";
    return false;
  }
  std::cout << file->message_type(0)->full_name();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc % 2 == 0) {
    std::cerr << "usage: fairwire-export-schema-case IN OUT_DIR "
                 "[IN OUT_DIR]...\n";
    return 2;
  }
  bool all = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    all = Export(argv[i], argv[i + 1]) && all;
    std::cout << "\n";
  }
  std::cout.flush();
  return all && std::cout ? 0 : 2;
}
