// Text format of a decoded fairwire::wire::Message, byte-for-byte what
// `protoc --decode` (libprotobuf 3.21's TextFormat::Printer over a
// DynamicMessage) prints for the same bytes and schema.
#ifndef FAIRWIRE_FUZZ_CLI_TEXT_FORMAT_H_
#define FAIRWIRE_FUZZ_CLI_TEXT_FORMAT_H_

#include <string>

#include "fairwire/wire/message.h"

namespace fairwire::wire {

// Appends the text format of `message` to `*out`: set fields in field-number
// order ("name: value", repeated fields one line per element, messages as
// "name {" blocks indented by two spaces; implicit-presence fields only when
// non-zero), then the unknown fields (see unknown_fields.h). Returns false if
// an unknown-field buffer is not a sequence of whole records (which Decode
// never produces); `*out` is then incomplete.
bool AppendTextFormat(const Message& message, int indent, std::string* out);

// The text format of `message`, or the empty string if AppendTextFormat
// fails.
std::string ToTextFormat(const Message& message);

}  // namespace fairwire::wire

#endif  // FAIRWIRE_FUZZ_CLI_TEXT_FORMAT_H_
