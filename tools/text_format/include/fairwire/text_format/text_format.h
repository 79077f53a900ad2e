// Text format of a decoded fairwire::wire::Message, byte-for-byte what
// `protoc --decode` (libprotobuf 3.21's TextFormat::Printer over a
// DynamicMessage) prints for the same bytes and schema.
#ifndef FAIRWIRE_TEXT_FORMAT_TEXT_FORMAT_H_
#define FAIRWIRE_TEXT_FORMAT_TEXT_FORMAT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fairwire/wire/message.h"

namespace fairwire::wire {

// What the schema alone does not tell the printer about map fields, per type
// (fairwire-decode fills it from the descriptors). Empty vectors: no maps.
struct TextFormatOptions {
  // Indexed by message index: true for a map entry type. A repeated field of
  // such a type prints its entries stably sorted by key, each with its key
  // and value even when absent (as protobuf's TextFormat::Printer does).
  std::vector<bool> map_entry;
  // Indexed by enum index: the enum's first declared value, printed for an
  // absent enum-valued map value.
  std::vector<std::int32_t> enum_default;
};

// Appends the text format of `message` to `*out`: set fields in field-number
// order ("name: value", repeated fields one line per element, messages as
// "name {" blocks indented by two spaces; implicit-presence fields only when
// non-zero), then the unknown fields (see unknown_fields.h). Returns false if
// an unknown-field buffer is not a sequence of whole records (which Decode
// never produces); `*out` is then incomplete.
bool AppendTextFormat(const Message& message, int indent, std::string* out,
                      const TextFormatOptions& options = {});

// The text format of `message`, or the empty string if AppendTextFormat
// fails.
std::string ToTextFormat(const Message& message,
                         const TextFormatOptions& options = {});

}  // namespace fairwire::wire

#endif  // FAIRWIRE_TEXT_FORMAT_TEXT_FORMAT_H_
