// Which wire rules an input touches: a walker over the bytes, by the model's
// schema, that names every rule of docs/design.md "Decoding rules" where
// decoders are known to part ways (an overlong varint, a wrong wire type on
// a known field, a closed-enum value outside its enum, a tag above 2^29, a
// length of 2^31 or more, nesting depth, invalid UTF-8, ...).
//
// The wire kit classifies a divergence by the rules its minimised input
// touches (wire_adapter_compare.h), and masks the rules a decoder declares
// it does not follow. The walker decides nothing about accept or reject: it
// reads as far as the bytes can be read and reports what it saw.
#ifndef FAIRWIRE_CHECKS_WIRE_RULES_H_
#define FAIRWIRE_CHECKS_WIRE_RULES_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "fairwire/models/wire_model_schema.h"

namespace fairwire::wire::rules {

// One rule an input can touch. The order is the order of class names.
enum class Rule : std::uint8_t {
  kTruncated,              // the input ends inside a tag, value or length
  kVarintOverlong,         // a varint of more than 10 bytes
  kVarintHighBits,         // a 10-byte varint whose last byte is above 1
  kTagNonMinimal,          // a tag written with more bytes than it needs
  kVarintNonMinimal,       // a value or length varint longer than it needs
  kTagOver5Bytes,          // a tag varint of more than 5 bytes
  kFieldNumberZero,        // field number 0
  kFieldNumberAboveMax,    // above 2^29 - 1: a 5-byte tag beyond 32 bits,
                           // which libprotobuf takes modulo 2^32
  kWireTypeInvalid,        // wire type 6 or 7
  kWireTypeMismatch,       // a known field with a wire type its kind lacks
  kLengthOver5Bytes,       // a length varint of more than 5 bytes
  kLengthAbove2To31,       // a length of 2^31 or more
  kLengthPastEnd,          // a length past the end of its message
  kGroup,                  // a group (start-group ... end-group)
  kGroupUnmatched,         // an end-group with no start, or another number
  kUnknownField,           // a field number the message does not declare
  kSingularRepeated,       // a singular field that arrives more than once
  kValueAbove32Bits,       // a varint above 32 bits on a 32-bit field
  kBoolAbove1,             // a bool varint other than 0 or 1
  kClosedEnumUnknown,      // a closed-enum value outside its enum
  kPackedOnUnpackedField,  // packed record of a field declared unpacked
  kUnpackedOnPackedField,  // unpacked record of a field declared packed
  kPackedEmpty,            // a packed record of length 0
  kPackedFixedMisaligned,  // packed fixed-width bytes not a multiple of it
  kPackedVarintTruncated,  // a packed varint run ending inside a varint
  kUtf8InvalidChecked,     // a proto3 string that is not valid UTF-8
  kUtf8InvalidUnchecked,   // a proto2 string that is not valid UTF-8
  kStringWithNul,          // a string holding a NUL byte (bytes do not count)
  kDepthAboveLibprotobuf,  // nesting deeper than libprotobuf's limit (100)
  kFieldNumberAbove2To28,  // 2^28 or more: the tag's top bit set, negative
                           // as a signed 32-bit value
  kNegativeZeroImplicit,   // -0.0 in a float or double without presence,
                           // which libprotobuf keeps (its bits are not 0)
};
inline constexpr int kRuleCount = 31;

// "varint-over-10-bytes", "closed-enum-value-outside-enum", ...
std::string_view RuleName(Rule rule);

// A set of rules.
class RuleSet {
 public:
  void Add(Rule rule) { bits_ |= Bit(rule); }
  bool Has(Rule rule) const { return (bits_ & Bit(rule)) != 0; }
  bool empty() const { return bits_ == 0; }
  // This set without the rules of `other`.
  RuleSet Without(RuleSet other) const {
    RuleSet out;
    out.bits_ = bits_ & ~other.bits_;
    return out;
  }
  bool Intersects(RuleSet other) const { return (bits_ & other.bits_) != 0; }
  // The names in Rule order, joined by '+'; "plain" when empty.
  std::string Name() const;
  friend bool operator==(RuleSet, RuleSet) = default;

 private:
  static std::uint32_t Bit(Rule rule) {
    return std::uint32_t{1} << static_cast<int>(rule);
  }
  std::uint32_t bits_ = 0;
};

// What the walker saw: the rules, and the measures a decoder's fixed limits
// are compared with.
struct InputFacts {
  RuleSet rules;
  int depth = 0;  // deepest nesting of messages and groups (root: 0)
  std::size_t max_count = 0;   // most values of one repeated field
  std::size_t max_length = 0;  // longest string or bytes value
  // Where the walk stopped on a malformation: -1 nowhere; 0 in a top-level
  // record's own tag, length or value (a decoder that skips the record must
  // read those too); else the number of the top-level field inside whose
  // payload it stopped (a nested message, a packed run, a group), which a
  // decoder that skips that field never reads.
  std::int64_t fatal_field = -1;
};

// Walks `input` as a message of `schema.messages[type]`.
InputFacts Walk(const model::Schema& schema, int type,
                std::span<const std::uint8_t> input);

}  // namespace fairwire::wire::rules

#endif  // FAIRWIRE_CHECKS_WIRE_RULES_H_
