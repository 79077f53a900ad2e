// DecodeStatus: why a decode failed and at which byte. Errors are values:
// nothing in fairwire::wire throws or aborts on input.
#ifndef FAIRWIRE_WIRE_STATUS_H_
#define FAIRWIRE_WIRE_STATUS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fairwire::wire {

// The reasons a wire-format input is rejected (DESIGN.md, "Wire core").
enum class DecodeError : std::uint8_t {
  kOk = 0,
  kTruncated,                // a varint, fixed value or tag runs past the end
  kVarintTooLong,            // 11 or more varint bytes
  kLengthTooLong,            // a length varint longer than 5 bytes
  kLengthTooLarge,           // a length of 2^31 or more
  kLengthPastEnd,            // a length-delimited record runs past its end
  kFieldNumberZero,          // tag with field number 0
  kFieldNumberTooLarge,      // tag whose field number exceeds 2^29 - 1 (never
                             // returned: tags are taken modulo 2^32)
  kInvalidWireType,          // wire type 6 or 7
  kUnexpectedEndGroup,       // end-group tag without its start
  kMismatchedEndGroup,       // end-group tag for another field number
  kUnterminatedGroup,        // start-group without its end before the end
  kDepthExceeded,            // nesting deeper than 100 (messages and groups)
  kPackedSizeNotMultiple,    // packed fixed-width payload not a multiple
  kPackedElementPastRecord,  // a packed varint runs past its record
  kInvalidUtf8,              // proto3 string that is not valid UTF-8
};

// A stable, lower-case name for the error ("truncated", "varint too long").
std::string_view ToString(DecodeError error);

// The outcome of a decode: kOk, or the error and the byte offset (from the
// start of the outermost input) where it was detected.
struct DecodeStatus {
  DecodeError error = DecodeError::kOk;
  std::size_t offset = 0;

  bool ok() const { return error == DecodeError::kOk; }
  friend bool operator==(const DecodeStatus&, const DecodeStatus&) = default;
};

// "ok", or "<reason> at byte <offset>".
std::string ToString(const DecodeStatus& status);

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_STATUS_H_
