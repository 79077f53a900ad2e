// Reader primitives of the wire format: varints, zigzag, little-endian fixed
// loads, tags and lengths, with the limits libprotobuf 3.21 applies.
// Every reader takes [p, end) and returns the position past what it read, or
// nullptr with the reason in *error (the caller knows the offset: it is p).
#ifndef FAIRWIRE_WIRE_VARINT_H_
#define FAIRWIRE_WIRE_VARINT_H_

#include <bit>
#include <cstdint>
#include <cstring>

#include "fairwire/wire/schema.h"
#include "fairwire/wire/status.h"

namespace fairwire::wire {

// The longest varint: ten bytes (the tenth below 0x80; bits past 64 dropped).
inline constexpr int kMaxVarintBytes = 10;
// The longest tag and length varints libprotobuf reads.
inline constexpr int kMaxTagBytes = 5;
inline constexpr int kMaxLengthBytes = 5;
// The largest field number.
inline constexpr std::uint32_t kMaxFieldNumber = (1u << 29) - 1;

// Zigzag: maps signed to unsigned so that small magnitudes stay small.
constexpr std::uint32_t ZigZagEncode32(std::int32_t value) {
  return (static_cast<std::uint32_t>(value) << 1) ^
         (value < 0 ? 0xFFFFFFFFu : 0u);
}
constexpr std::uint64_t ZigZagEncode64(std::int64_t value) {
  return (static_cast<std::uint64_t>(value) << 1) ^
         (value < 0 ? ~std::uint64_t{0} : std::uint64_t{0});
}
constexpr std::int32_t ZigZagDecode32(std::uint32_t value) {
  return static_cast<std::int32_t>((value >> 1) ^ (0u - (value & 1u)));
}
constexpr std::int64_t ZigZagDecode64(std::uint64_t value) {
  return static_cast<std::int64_t>((value >> 1) ^
                                   (std::uint64_t{0} - (value & 1u)));
}

// The number of bytes of the shortest varint encoding of `value` (1..10).
constexpr int VarintSize(std::uint64_t value) {
  int size = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++size;
  }
  return size;
}

// Little-endian loads of 4 and 8 bytes at p (no bounds check).
inline std::uint32_t LoadFixed32(const std::uint8_t* p) {
  std::uint32_t value;
  std::memcpy(&value, p, sizeof(value));
  if constexpr (std::endian::native == std::endian::big) {
    value = ((value & 0xFFu) << 24) | ((value & 0xFF00u) << 8) |
            ((value >> 8) & 0xFF00u) | (value >> 24);
  }
  return value;
}
inline std::uint64_t LoadFixed64(const std::uint8_t* p) {
  if constexpr (std::endian::native == std::endian::big) {
    return std::uint64_t{LoadFixed32(p)} |
           (std::uint64_t{LoadFixed32(p + 4)} << 32);
  }
  std::uint64_t value;
  std::memcpy(&value, p, sizeof(value));
  return value;
}

namespace internal {

// Byte-at-a-time varint read of at most `max_bytes` bytes; nullptr with
// kTruncated (ran past end) or kVarintTooLong (no terminator in max_bytes).
inline const std::uint8_t* ReadVarintSlow(const std::uint8_t* p,
                                          const std::uint8_t* end,
                                          int max_bytes, std::uint64_t* value,
                                          DecodeError* error) {
  std::uint64_t result = 0;
  for (int i = 0; i < max_bytes; ++i) {
    if (p + i >= end) {
      *error = DecodeError::kTruncated;
      return nullptr;
    }
    const std::uint64_t byte = p[i];
    // Shifts of 63 keep only the lowest bit: bits past 64 are dropped.
    result |= (byte & 0x7Fu) << (7 * i);
    if (byte < 0x80) {
      *value = result;
      return p + i + 1;
    }
  }
  *error = DecodeError::kVarintTooLong;
  return nullptr;
}

// Joins the 7-bit groups of each 16-bit lane of `word` (two bytes, whose
// continuation bits are clear) into a 14-bit value in that lane: the high
// byte's group moved down onto the low one's end. Three operations, one
// constant (the subtraction needs no mask for the low byte).
inline std::uint64_t JoinSevenBitGroupsPerQuarter(std::uint64_t word) {
  return word - ((word & 0x7F007F007F007F00ull) >> 1);
}

// Joins the 7-bit groups of each 32-bit half of `word` (four bytes, whose
// continuation bits are clear) into a 28-bit value in that half: two
// varints of up to four bytes at once. Each step moves the high half of
// every lane down onto the low half's end: 14-bit values in 16-bit lanes,
// then 28 in 32. Six operations, two constants.
inline std::uint64_t JoinSevenBitGroupsPerHalf(std::uint64_t word) {
  word = JoinSevenBitGroupsPerQuarter(word);
  const std::uint64_t high = word & 0x3FFF00003FFF0000ull;
  return (word ^ high) + (high >> 2);
}

// Joins the 7-bit groups of the eight bytes of `word`, whose continuation
// bits are clear, into one value (byte i's group at bit 7i): the two halves'
// 28-bit values, then the high one moved down onto the low one's end. Nine
// operations, three constants.
inline std::uint64_t JoinSevenBitGroups(std::uint64_t word) {
  word = JoinSevenBitGroupsPerHalf(word);
  const std::uint64_t high = word & 0x0FFFFFFF00000000ull;
  return (word ^ high) + (high >> 4);
}

// Decodes a varint of 2..8 bytes from an 8-byte little-endian word whose
// terminator mask `stops` (bit 7 of each byte below 0x80) is non-zero.
inline std::uint64_t CompactVarintWord(std::uint64_t word,
                                       std::uint64_t stops) {
  // Keep the bytes up to and including the first terminator.
  return JoinSevenBitGroups(word & (stops ^ (stops - 1)) &
                            0x7F7F7F7F7F7F7F7Full);
}

}  // namespace internal

// Reads a varint of 1..10 bytes at p. A tenth byte below 0x80 is accepted
// and bits past 64 are dropped. Errors: kTruncated (runs past end),
// kVarintTooLong (no terminator within 10 bytes).
[[gnu::always_inline]] inline const std::uint8_t* ReadVarint(
    const std::uint8_t* p, const std::uint8_t* end, std::uint64_t* value,
    DecodeError* error) {
  if (p < end && p[0] < 0x80) {
    *value = p[0];
    return p + 1;
  }
  if (end - p >= 8) {
    // Two- and three-byte values by predictable branches: on regular data
    // the next position is known before the bytes arrive.
    const std::uint64_t b1 = p[1];
    if (b1 < 0x80) {
      *value = (p[0] & 0x7Fu) | (b1 << 7);
      return p + 2;
    }
    const std::uint64_t b2 = p[2];
    if (b2 < 0x80) {
      *value = (p[0] & 0x7Fu) | ((b1 & 0x7Fu) << 7) | (b2 << 14);
      return p + 3;
    }
    const std::uint64_t word = LoadFixed64(p);
    const std::uint64_t stops = ~word & 0x8080808080808080ull;
    if (stops != 0) {
      *value = internal::CompactVarintWord(word, stops);
      return p + (std::countr_zero(stops) >> 3) + 1;
    }
  }
  return internal::ReadVarintSlow(p, end, kMaxVarintBytes, value, error);
}

// A parsed tag: field number and raw wire type (0..7).
struct Tag {
  std::uint32_t field_number = 0;
  std::uint32_t wire_type = 0;
};

// Reads a tag as libprotobuf does: a varint of at most 5 bytes whose value is
// taken modulo 2^32 (so the field number is at most 2^29 - 1). Checks no
// field number or wire type: see CheckTag. Errors: kTruncated,
// kVarintTooLong (no terminator within 5 bytes).
inline const std::uint8_t* ReadTag(const std::uint8_t* p,
                                   const std::uint8_t* end, Tag* tag,
                                   DecodeError* error) {
  std::uint64_t raw;
  if (p < end && p[0] < 0x80) {
    raw = p[0];
    ++p;
  } else {
    p = internal::ReadVarintSlow(p, end, kMaxTagBytes, &raw, error);
    if (p == nullptr) return nullptr;
  }
  const auto value = static_cast<std::uint32_t>(raw);
  tag->field_number = value >> 3;
  tag->wire_type = value & 7u;
  return p;
}

// kOk, or why a tag is invalid anywhere: kFieldNumberZero, kInvalidWireType
// (6 or 7). End-group tags are the caller's business.
constexpr DecodeError CheckTag(const Tag& tag) {
  if (tag.field_number == 0) return DecodeError::kFieldNumberZero;
  if (tag.wire_type > 5) return DecodeError::kInvalidWireType;
  return DecodeError::kOk;
}

// Reads the length of a LEN record as libprotobuf does: at most 5 bytes, the
// value below 2^31. Errors: kTruncated, kLengthTooLong (no terminator within
// 5 bytes), kLengthTooLarge (2^31 or more). Does not check that the payload
// is present. Always inlined: it is on the path of every string and nested
// message, and its slow path is a call.
[[gnu::always_inline]] inline const std::uint8_t* ReadLength(
    const std::uint8_t* p, const std::uint8_t* end, std::uint32_t* length,
    DecodeError* error) {
  if (p < end && p[0] < 0x80) {
    *length = p[0];
    return p + 1;
  }
  std::uint64_t raw;
  p = internal::ReadVarintSlow(p, end, kMaxLengthBytes, &raw, error);
  if (p == nullptr) {
    if (*error == DecodeError::kVarintTooLong) {
      *error = DecodeError::kLengthTooLong;
    }
    return nullptr;
  }
  if (raw >= (std::uint64_t{1} << 31)) {
    *error = DecodeError::kLengthTooLarge;
    return nullptr;
  }
  *length = static_cast<std::uint32_t>(raw);
  return p;
}

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_VARINT_H_
