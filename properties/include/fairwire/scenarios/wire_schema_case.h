// SchemaCase: the scenario of wire_schema_diff. A small .proto schema (one
// file, proto2 or proto3, up to 3 message types with up to 7 fields each, up
// to 2 enums, recursion allowed) and a payload, both from the input.
//
// Bytes: [header] then per enum [count][value]..., per message
// [field count][number kind flags]..., then the payload. Missing bytes read
// as zero, out-of-range choices wrap, duplicates are dropped: every byte
// string is a valid case, and EncodeSchemaCase writes it back.
#ifndef FAIRWIRE_SCENARIOS_WIRE_SCHEMA_CASE_H_
#define FAIRWIRE_SCENARIOS_WIRE_SCHEMA_CASE_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fairwire/models/wire_model_schema.h"

namespace fairwire::wire::scenario {

// One field of a SchemaCase message.
struct FieldSpec {
  std::uint32_t number = 1;
  model::Kind kind = model::Kind::kInt32;
  bool repeated = false;
  bool packed =
      false;           // an explicit [packed = ...] on packable repeated fields
  int type_index = 0;  // enum or message index for enum and message kinds
};

// A schema and a payload; message 0 is the root.
struct SchemaCase {
  bool proto3 = false;
  std::vector<std::vector<std::int32_t>> enums;  // values, declaration order
  std::vector<std::vector<FieldSpec>> messages;
  std::vector<std::uint8_t> payload;
};

// The case of `input` (total).
SchemaCase DecodeSchemaCase(std::span<const std::uint8_t> input);

// The bytes DecodeSchemaCase reads back as `c`.
std::vector<std::uint8_t> EncodeSchemaCase(const SchemaCase& c);

// The schema as .proto source text (package fairwire.sd, messages M0.., enums
// E0.., fields f<number>).
std::string SchemaText(const SchemaCase& c);

// Cases one step simpler: payload records removed or cut, fields removed,
// messages and enums removed, proto3 turned into proto2.
std::vector<SchemaCase> SimplerSchemaCases(const SchemaCase& c);

}  // namespace fairwire::wire::scenario

#endif  // FAIRWIRE_SCENARIOS_WIRE_SCHEMA_CASE_H_
