// Wire schemas from libprotobuf descriptors: the adapter between a .proto
// file (as libprotobuf 3.21 understands it) and fairwire::wire::Schema. The
// core decoder never links libprotobuf; this library does.
#ifndef FAIRWIRE_PROTOBUF_SCHEMA_FROM_DESCRIPTOR_H_
#define FAIRWIRE_PROTOBUF_SCHEMA_FROM_DESCRIPTOR_H_

#include <google/protobuf/descriptor.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/wire/schema.h"

namespace fairwire::protobuf {

// A schema built from a root descriptor, with the descriptors it came from.
// The root message is always index 0 of schema.messages().
struct DescriptorSchema {
  wire::Schema schema;
  // Parallel to schema.messages(): the descriptor of each message type.
  std::vector<const google::protobuf::Descriptor*> messages;
  // Parallel to schema.enums(): the descriptor of each enum type. One enum
  // type appears twice when fields of both proto2 (closed) and proto3 (open)
  // files use it.
  std::vector<const google::protobuf::EnumDescriptor*> enums;
};

// Builds the schema of `root` and every message and enum type reachable from
// it through its fields, deciding each property as libprotobuf 3.21 does:
//   - kind from FieldDescriptor::type(); repeated from is_repeated();
//   - packed from FieldDescriptor::is_packed() (how Serialize writes it);
//   - validate_utf8 for string fields of proto3 files;
//   - has_presence from FieldDescriptor::has_presence() (repeated: true);
//   - an enum is closed for fields declared in proto2 files, open in proto3
//     ones (the field's file decides, as libprotobuf's parser does);
//   - names: full names for types, field names and, for each enum number,
//     the first value declared with it (as text format prints them).
// Fails (nullopt, `*error` set when non-null) on group fields, which
// fairwire::wire has no kind for, and on schemas SchemaBuilder refuses.
// Extensions are not included.
std::optional<DescriptorSchema> BuildDescriptorSchema(
    const google::protobuf::Descriptor& root, std::string* error = nullptr);

// As BuildDescriptorSchema, returning only the schema; `*root_index` (when
// non-null) receives the root message's index (always 0).
std::optional<wire::Schema> SchemaFromDescriptor(
    const google::protobuf::Descriptor& root, std::int32_t* root_index,
    std::string* error = nullptr);

}  // namespace fairwire::protobuf

#endif  // FAIRWIRE_PROTOBUF_SCHEMA_FROM_DESCRIPTOR_H_
