// Unknown fields in text format, as libprotobuf 3.21's TextFormat::Printer
// prints an UnknownFieldSet: varints in decimal, fixed32/fixed64 as
// 0x%08x / 0x%016x, groups as nested blocks, and a length-delimited record as
// a nested block when it parses as a message (within a depth budget), else as
// an escaped string.
#ifndef FAIRWIRE_TEXT_FORMAT_UNKNOWN_FIELDS_H_
#define FAIRWIRE_TEXT_FORMAT_UNKNOWN_FIELDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fairwire::wire {

// How many levels of length-delimited records text format tries to print as
// nested messages (protobuf's kUnknownFieldRecursionLimit).
inline constexpr int kUnknownFieldRecursionLimit = 10;

// Appends the text format of `records` (the exact bytes of unknown-field
// records, as Message::unknown_fields() holds them), each line indented by
// `indent` levels of two spaces. Returns false, appending nothing, if
// `records` is not a sequence of whole, well-formed records.
bool AppendUnknownFieldsText(std::string_view records, int indent,
                             std::string* out);

// The field numbers of the records of `records` (not inside groups), in
// wire order. Returns false if `records` is not a sequence of whole records.
bool UnknownFieldNumbers(std::string_view records,
                         std::vector<std::uint32_t>* numbers);

namespace internal {

// True if `bytes` parses as protobuf's UnknownFieldSet::ParseFromString does
// on a CodedInputStream whose recursion limit is `group_budget`. Exposed for
// tests.
bool ParsesAsUnknownFieldSet(std::string_view bytes, int group_budget);

}  // namespace internal
}  // namespace fairwire::wire

#endif  // FAIRWIRE_TEXT_FORMAT_UNKNOWN_FIELDS_H_
