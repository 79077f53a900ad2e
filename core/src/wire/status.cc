#include "fairwire/wire/status.h"

namespace fairwire::wire {

std::string_view ToString(DecodeError error) {
  switch (error) {
    case DecodeError::kOk:
      return "ok";
    case DecodeError::kTruncated:
      return "truncated";
    case DecodeError::kVarintTooLong:
      return "varint too long";
    case DecodeError::kLengthTooLong:
      return "length varint too long";
    case DecodeError::kLengthTooLarge:
      return "length too large";
    case DecodeError::kLengthPastEnd:
      return "length past end";
    case DecodeError::kFieldNumberZero:
      return "field number zero";
    case DecodeError::kFieldNumberTooLarge:
      return "field number too large";
    case DecodeError::kInvalidWireType:
      return "invalid wire type";
    case DecodeError::kUnexpectedEndGroup:
      return "unexpected end group";
    case DecodeError::kMismatchedEndGroup:
      return "mismatched end group";
    case DecodeError::kUnterminatedGroup:
      return "unterminated group";
    case DecodeError::kDepthExceeded:
      return "depth exceeded";
    case DecodeError::kPackedSizeNotMultiple:
      return "packed size not a multiple of the element size";
    case DecodeError::kPackedElementPastRecord:
      return "packed element past its record";
    case DecodeError::kInvalidUtf8:
      return "invalid UTF-8";
  }
  return "unknown error";
}

std::string ToString(const DecodeStatus& status) {
  if (status.ok()) return "ok";
  return std::string(ToString(status.error)) + " at byte " +
         std::to_string(status.offset);
}

}  // namespace fairwire::wire
