// fairwire-export-schema-case: a wire_schema_diff corpus file as a .proto file
// and a payload, so that the decode test can run protoc --decode and
// fairwire-decode on it.
//
//   fairwire-export-schema-case IN OUT_DIR
//
// Writes OUT_DIR/fairwire_sd.proto (the case's schema, as the fuzz target
// builds it into a DescriptorPool, printed as .proto source) and
// OUT_DIR/payload.bin, and prints the root type's full name. Exit 2 on error.
#include <google/protobuf/descriptor.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fairwire/checks/wire_schema_build.h"
#include "fairwire/scenarios/wire_schema_case.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: fairwire-export-schema-case IN OUT_DIR\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 2;
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
    std::cerr << "schema does not build: " << error << "\n";
    return 2;
  }
  const std::string dir = argv[2];
  std::ofstream proto(dir + "/" + file->name(), std::ios::binary);
  proto << file->DebugString();
  std::ofstream payload(dir + "/payload.bin", std::ios::binary);
  payload.write(reinterpret_cast<const char*>(schema_case.payload.data()),
                static_cast<std::streamsize>(schema_case.payload.size()));
  if (!proto || !payload) {
    std::cerr << "cannot write to " << dir << "\n";
    return 2;
  }
  std::cout << file->message_type(0)->full_name() << "\n";
  return 0;
}
