// The wire reference model: a byte-at-a-time protobuf decoder written from the
// rules of docs/design.md ("Decoding rules") alone, as plain as possible,
// sharing no code with fairwire::wire. It has its own canonical serialization
// (the rules of fairwire::wire::Serialize and libprotobuf's SerializeToString),
// so that the fast decoder, the model and libprotobuf are compared as bytes.
#ifndef FAIRWIRE_MODELS_WIRE_MODEL_H_
#define FAIRWIRE_MODELS_WIRE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fairwire/models/wire_model_schema.h"

namespace fairwire::wire::model {

// One record of the unknown fields, as libprotobuf's UnknownFieldSet keeps it:
// a varint (value), i64 or i32 (value, raw bits), len (bytes) or a group.
struct UnknownRecord {
  std::uint32_t number = 0;
  int wire_type = 0;
  std::uint64_t value = 0;
  std::string bytes;
  std::vector<UnknownRecord> group;

  friend bool operator==(const UnknownRecord&, const UnknownRecord&) = default;
};

struct Message;

// The values of one field. Scalars are kept as the value the canonical
// encoding writes: for varint kinds the varint (int32 and enum sign-extended
// to 64 bits, sint32/sint64 zigzag-encoded, bool 0 or 1), for fixed kinds the
// raw bits. A singular field holds at most one value.
struct FieldValues {
  std::vector<std::uint64_t> scalars;
  std::vector<std::string> strings;  // string, bytes
  std::vector<Message> messages;     // message

  friend bool operator==(const FieldValues&, const FieldValues&) = default;
};

// A decoded message of type `type` (an index into Schema::messages).
struct Message {
  int type = 0;
  std::vector<FieldValues> fields;  // parallel to the type's fields
  std::vector<UnknownRecord> unknown;

  friend bool operator==(const Message&, const Message&) = default;
};

// Well-formed UTF-8 (Unicode table 3-7): no overlongs, no surrogates,
// nothing above U+10FFFF; what a proto3 string must be.
bool ValidUtf8(std::span<const std::uint8_t> bytes);

// An empty message of type `type`.
Message EmptyMessage(const Schema& schema, int type);

// Makes `message` an empty message of type `type`, keeping the memory its
// vectors hold: decoding into one message again and again allocates only
// for what outgrows it (under ASan, a fresh message per decode was a seventh
// of wire_packed_unpacked's check; issue 12).
void Clear(const Schema& schema, int type, Message& message);

// Why the model rejected an input, and where.
struct Status {
  bool ok = true;
  std::string reason;      // "truncated", "varint too long", ...
  std::size_t offset = 0;  // from the start of the outermost input
};

// Nesting limit, as libprotobuf's default recursion limit.
inline constexpr int kDepthLimit = 100;

// Decodes `input` as a message of type `type` into `out` (cleared first,
// with Clear).
// On failure `out` means nothing.
Status Decode(const Schema& schema, int type,
              std::span<const std::uint8_t> input, Message& out);

// The canonical encoding: known fields by ascending number (packed exactly
// when declared; empty packed fields and zero implicit-presence values
// omitted), then the unknown records in order, each written canonically.
std::string Serialize(const Schema& schema, const Message& message);

// Writes one unknown record canonically (shortest tag and varints).
void SerializeUnknown(const UnknownRecord& record, std::string& out);

// Rewrites every unknown varint record whose number is a closed-enum field of
// its message to the int32-truncated value, sign-extended. libprotobuf keeps
// such a value with all 64 bits when it arrived packed (DynamicMessage and
// generated code) or unpacked (generated code), and sign-extended from 32 bits
// when it arrived unpacked (DynamicMessage); after this rewrite on both sides
// the two agree.
void TruncateClosedEnumUnknowns(const Schema& schema, Message& message);

}  // namespace fairwire::wire::model

#endif  // FAIRWIRE_MODELS_WIRE_MODEL_H_
