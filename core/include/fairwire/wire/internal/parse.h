// The decoding primitives shared by the dynamic decoder (decoder.cc) and the
// typed bindings (binding.h): the parse context with its error slot and depth
// budget, record readers, packed loops, unknown-field skipping, UTF-8.
// Every function returns the position past what it consumed, or nullptr after
// recording the first error in the context.
#ifndef FAIRWIRE_WIRE_INTERNAL_PARSE_H_
#define FAIRWIRE_WIRE_INTERNAL_PARSE_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "fairwire/wire/decoder.h"
#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/varint_avx512.h"
#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/status.h"
#include "fairwire/wire/varint.h"

namespace fairwire::wire::internal {

// State of one Decode call.
struct ParseContext {
  const std::uint8_t* base;   // start of the outermost input (for offsets)
  const std::uint8_t* limit;  // end of the outermost input (safe reads)
  int depth = kMaxDepth;      // nesting levels left
  DecodeStatus status;

  // Records `error` at `at` and returns nullptr.
  const std::uint8_t* Fail(DecodeError error, const std::uint8_t* at) {
    status.error = error;
    status.offset = static_cast<std::size_t>(at - base);
    return nullptr;
  }
};

// True if [data, data + size) is valid UTF-8 (no overlongs, no surrogates,
// nothing above U+10FFFF), as libprotobuf checks proto3 strings.
bool IsValidUtf8(const std::uint8_t* data, std::size_t size);

// The tag prologue of every record loop (message fields, typed bindings,
// skipped groups): reads the tag at p into *tag and checks it (CheckTag).
// Returns past the tag, or nullptr after recording ReadTag's or CheckTag's
// error at p.
[[gnu::always_inline]] inline const std::uint8_t* ReadRecordTag(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    Tag* tag) {
  DecodeError error;
  const std::uint8_t* q = ReadTag(p, end, tag, &error);
  if (q == nullptr) return ctx.Fail(error, p);
  error = CheckTag(*tag);
  if (error != DecodeError::kOk) return ctx.Fail(error, p);
  return q;
}

// ReadRecordTag for a field of a message (not within a group): an
// end-group tag is kUnexpectedEndGroup, at p.
[[gnu::always_inline]] inline const std::uint8_t* ReadFieldTag(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    Tag* tag) {
  const std::uint8_t* q = ReadRecordTag(ctx, p, end, tag);
  if (q != nullptr &&
      tag->wire_type == static_cast<std::uint32_t>(WireType::kEndGroup)) {
    return ctx.Fail(DecodeError::kUnexpectedEndGroup, p);
  }
  return q;
}

// Reads the payload bounds of a LEN record whose length varint starts at p.
// On success *payload_end is set and the payload start returned. Errors:
// kTruncated, kLengthTooLong, kLengthTooLarge, kLengthPastEnd (all at p).
// Always inlined: it is on the path of every string and nested message.
[[gnu::always_inline]] inline const std::uint8_t* ReadLenRecord(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    const std::uint8_t** payload_end) {
  std::uint32_t length;
  DecodeError error;
  const std::uint8_t* q = ReadLength(p, end, &length, &error);
  if (q == nullptr) return ctx.Fail(error, p);
  if (length > static_cast<std::size_t>(end - q)) {
    return ctx.Fail(DecodeError::kLengthPastEnd, p);
  }
  *payload_end = q + length;
  return q;
}

// Reads one value of wire type VARINT, I32 or I64 at p into *raw.
template <WireType W>
[[gnu::always_inline]] inline const std::uint8_t* ReadRaw(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::uint64_t* raw) {
  if constexpr (W == WireType::kVarint) {
    DecodeError error;
    const std::uint8_t* q = ReadVarint(p, end, raw, &error);
    return q != nullptr ? q : ctx.Fail(error, p);
  } else {
    constexpr std::size_t kWidth = W == WireType::kI32 ? 4 : 8;
    if (static_cast<std::size_t>(end - p) < kWidth) {
      return ctx.Fail(DecodeError::kTruncated, p);
    }
    if constexpr (kWidth == 4) {
      *raw = LoadFixed32(p);
    } else {
      *raw = LoadFixed64(p);
    }
    return p + kWidth;
  }
}

// True if the record at p (before `end`) starts with the same tag bytes as
// the one at tag_start (tag_length bytes), with at least one byte after
// them: the record-run loops stay on their field while this holds.
[[gnu::always_inline]] inline bool NextRecordHasTag(
    const std::uint8_t* p, const std::uint8_t* end,
    const std::uint8_t* tag_start, std::size_t tag_length) {
  return static_cast<std::size_t>(end - p) > tag_length && *p == *tag_start &&
         (tag_length == 1 ||
          std::memcmp(p + 1, tag_start + 1, tag_length - 1) == 0);
}

// Skips the value of an unknown field whose tag (already checked with
// CheckTag, not an end-group) started at tag_start and ended at p. Groups are
// parsed to their matching end-group (depth counted). Appends the exact
// record bytes to *unknown when non-null.
const std::uint8_t* SkipField(ParseContext& ctx, const std::uint8_t* tag_start,
                              const std::uint8_t* p, const std::uint8_t* end,
                              const Tag& tag, std::string* unknown);

// Appends a canonical VARINT record (field, value) to *unknown.
void AppendVarintRecord(std::uint32_t field_number, std::uint64_t value,
                        std::string* unknown);

// The number of bytes below 0x80 (varint terminators) in [p, end), eight
// bytes at a time.
inline std::size_t CountTerminators(const std::uint8_t* p,
                                    const std::uint8_t* end) {
  std::size_t count = 0;
  for (; end - p >= 8; p += 8) {
    // One bit per terminator byte, summed by a multiply (no popcount
    // instruction in baseline x86-64).
    const std::uint64_t ones = (~LoadFixed64(p) & 0x8080808080808080ull) >> 7;
    count += static_cast<std::size_t>((ones * 0x0101010101010101ull) >> 56);
  }
  for (; p != end; ++p) count += *p < 0x80 ? 1u : 0u;
  return count;
}

// The slow, sequential path for a packed varint record that failed the fast
// checks: finds and records the first bad element.
const std::uint8_t* FailPackedVarint(ParseContext& ctx, const std::uint8_t* p,
                                     const std::uint8_t* end);

// Reads one varint from a packed record known to end with a terminator
// byte (so a terminator is always found before the record's end). `limit`
// bounds the word reads. nullptr if the element is longer than 10 bytes.
// Branch-light: one 8-byte load decodes any varint of up to 8 bytes.
inline const std::uint8_t* ReadPackedElement(const std::uint8_t* p,
                                             const std::uint8_t* limit,
                                             std::uint64_t* value) {
  if (limit - p >= 10) {
    const std::uint64_t word = LoadFixed64(p);
    const std::uint64_t stops = ~word & 0x8080808080808080ull;
    if (stops != 0) {
      *value = CompactVarintWord(word, stops);
      return p + (std::countr_zero(stops) >> 3) + 1;
    }
    const std::uint64_t low = CompactVarintWord(word, std::uint64_t{1} << 63);
    const std::uint64_t b8 = p[8];
    if (b8 < 0x80) {
      *value = low | (b8 << 56);
      return p + 9;
    }
    const std::uint64_t b9 = p[9];
    if (b9 < 0x80) {
      *value = low | ((b8 & 0x7Fu) << 56) | (b9 << 63);
      return p + 10;
    }
    return nullptr;
  }
  std::uint64_t result = 0;
  for (int i = 0; i < kMaxVarintBytes; ++i) {
    const std::uint64_t byte = p[i];
    result |= (byte & 0x7Fu) << (7 * i);
    if (byte < 0x80) {
      *value = result;
      return p + i + 1;
    }
  }
  return nullptr;
}

// Gathers the 7-bit groups of `word`'s bytes into one value (the bytes past
// a value masked off by the caller; their continuation bits cleared here).
inline std::uint64_t GatherSevenBitGroups(std::uint64_t word) {
  return JoinSevenBitGroups(word & 0x7F7F7F7F7F7F7F7Full);
}

// One bit per byte of the 64 bytes at p: set where the byte is below 0x80.
inline std::uint64_t TerminatorMask64(const std::uint8_t* p) {
  std::uint64_t mask = 0;
  for (int i = 0; i < 8; ++i) {
    const std::uint64_t stops =
        (~LoadFixed64(p + 8 * i) & 0x8080808080808080ull) >> 7;
    mask |= ((stops * 0x0102040810204080ull) >> 56) << (8 * i);
  }
  return mask;
}

// The block operations of the portable level: 7-bit groups gathered by
// shifts and masks, terminator bitmaps from 8-byte words. Gather clears the
// continuation bits; GatherClear takes a word whose bits are already clear
// (a table mask that keeps a value's bytes can clear them too).
struct PortableBlockOps {
  static std::uint64_t Gather(std::uint64_t word) {
    return GatherSevenBitGroups(word);
  }
  static std::uint64_t GatherClear(std::uint64_t word) {
    return JoinSevenBitGroups(word);
  }
  static std::uint64_t Terminators(const std::uint8_t* p) {
    return TerminatorMask64(p);
  }
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FAIRWIRE_WIRE_HAVE_AVX2_PATH 1
#define FAIRWIRE_AVX2_TARGET gnu::target("avx2,bmi,bmi2,popcnt,lzcnt")
// The block operations of the avx2 level: one pext gathers the 7-bit
// groups; two vpmovmskb give a block's terminator bitmap.
struct Avx2BlockOps {
  [[FAIRWIRE_AVX2_TARGET]] static inline std::uint64_t Gather(
      std::uint64_t word) {
    return _pext_u64(word, 0x7F7F7F7F7F7F7F7Full);
  }
  [[FAIRWIRE_AVX2_TARGET]] static inline std::uint64_t GatherClear(
      std::uint64_t word) {
    return Gather(word);
  }
  [[FAIRWIRE_AVX2_TARGET]] static inline std::uint64_t Terminators(
      const std::uint8_t* p) {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const auto lo_bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(lo));
    const auto hi_bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(hi));
    return ~((std::uint64_t{hi_bits} << 32) | lo_bits);
  }
};
#endif

// True if a varint of kind K means only its low 32 bits (Convert truncates
// first): bytes 8 and 9 of such a varint never matter.
template <FieldKind K>
inline constexpr bool kLow32Kind =
    K == FieldKind::kInt32 || K == FieldKind::kUint32 ||
    K == FieldKind::kSint32 || K == FieldKind::kEnum;

// The 7-bit groups of the first min(length, 8) bytes of a varint of
// `length` bytes (0..10), as a mask of an 8-byte little-endian word.
inline constexpr std::uint64_t kGroupsOfLength[11] = {0,
                                                      0x7Full,
                                                      0x7F7Full,
                                                      0x7F7F7Full,
                                                      0x7F7F7F7Full,
                                                      0x7F7F7F7F7Full,
                                                      0x7F7F7F7F7F7Full,
                                                      0x7F7F7F7F7F7F7Full,
                                                      0x7F7F7F7F7F7F7F7Full,
                                                      0x7F7F7F7F7F7F7F7Full,
                                                      0x7F7F7F7F7F7F7F7Full};

// Decodes the varint of known length 1..10 at p (16 bytes readable), without
// branches: the length selects the bytes by table. With kLow32, only the low
// 32 bits of the result are right (bytes 8 and 9 are not read).
template <typename Ops, bool kLow32 = false>
inline std::uint64_t DecodeKnownLength(const std::uint8_t* p,
                                       std::size_t length) {
  static constexpr std::uint64_t kHigh[11] = {
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7Full << 56, ~std::uint64_t{0}};
  const std::uint64_t low =
      Ops::GatherClear(LoadFixed64(p) & kGroupsOfLength[length]);
  if constexpr (kLow32) return low;
  const std::uint64_t b8 = p[8];
  const std::uint64_t b9 = p[9];
  const std::uint64_t high = ((b8 & 0x7Fu) << 56) | (b9 << 63);
  return low | (high & kHigh[length]);
}

// The kinds whose converted value is a 32-bit lane of at most 28 bits as it
// is (a shape lane, a half of JoinSevenBitGroupsPerHalf's word), so that the
// lanes can be stored and compared as values: int32, uint32 and enum.
template <FieldKind K>
inline constexpr bool kLaneIsValue =
    K == FieldKind::kInt32 || K == FieldKind::kUint32 || K == FieldKind::kEnum;

// Stores the two 32-bit values of `pair` (low half first) at dst.
template <typename T>
[[gnu::always_inline]] inline void StorePair(T* dst, std::uint64_t pair) {
  static_assert(sizeof(T) == 4);
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(dst, &pair, sizeof(pair));
  } else {
    dst[0] = static_cast<T>(pair & 0xFFFFFFFFu);
    dst[1] = static_cast<T>(pair >> 32);
  }
}

// The longest element the portable level decodes two at a time: two
// elements of up to four bytes are one word's two halves for
// JoinSevenBitGroupsPerHalf.
inline constexpr std::size_t kPairedElementBytes = 4;

// The values of two varints of 1..kPairedElementBytes bytes, the first of
// first_length bytes at `first`, the second of second_length at `second`
// (8 bytes readable at each), joined at once: the first in the low 32 bits,
// the second in the high.
[[gnu::always_inline]] inline std::uint64_t JoinShortPair(
    const std::uint8_t* first, std::size_t first_length,
    const std::uint8_t* second, std::size_t second_length) {
  const std::uint64_t low = LoadFixed64(first) & kGroupsOfLength[first_length];
  const std::uint64_t high =
      LoadFixed64(second) & kGroupsOfLength[second_length];
  return JoinSevenBitGroupsPerHalf(low | high << 32);
}

// True if every element that ends in the 64-byte block at `block` (its
// terminator bitmap `mask`; the first one starting at p, at or before the
// block) has at most kPairedElementBytes bytes: no four continuation bytes
// in a row in the block, and the first element short too.
inline bool BlockHoldsPairedElements(std::uint64_t mask, const std::uint8_t* p,
                                     const std::uint8_t* block) {
  const std::uint64_t continuations = ~mask;
  const std::uint64_t four_in_a_row = continuations & (continuations >> 1) &
                                      (continuations >> 2) &
                                      (continuations >> 3);
  // countr_zero(0) is 64: a block with no terminator is not paired.
  const auto first =
      static_cast<std::size_t>(block - p) + std::countr_zero(mask) + 1;
  return four_in_a_row == 0 && first <= kPairedElementBytes;
}

// Decodes the elements of a block (BlockHoldsPairedElements) two at a time,
// each pair by one JoinSevenBitGroupsPerHalf, while two terminators remain
// in *mask (taken from it). Advances *p and *dst.
template <FieldKind K, typename T>
inline void DecodePairedElements(const std::uint8_t* block, std::uint64_t* mask,
                                 const std::uint8_t** p, T** dst) {
  std::uint64_t bits = *mask;
  const std::uint8_t* at = *p;
  T* out = *dst;
  while ((bits & (bits - 1)) != 0) {
    const std::uint8_t* first_end = block + std::countr_zero(bits);
    bits &= bits - 1;
    const std::uint8_t* second_end = block + std::countr_zero(bits);
    bits &= bits - 1;
    const std::uint64_t joined = JoinShortPair(
        at, static_cast<std::size_t>(first_end - at + 1), first_end + 1,
        static_cast<std::size_t>(second_end - first_end));
    if constexpr (kLaneIsValue<K> && sizeof(T) == 4) {
      StorePair(out, joined);  // the two halves are the two values
    } else {
      out[0] = static_cast<T>(KindTraits<K>::Convert(joined & 0xFFFFFFFFu));
      out[1] = static_cast<T>(KindTraits<K>::Convert(joined >> 32));
    }
    out += 2;
    at = second_end + 1;
  }
  *mask = bits;
  *p = at;
  *dst = out;
}

// The bulk of a packed varint record: 64 bytes at a time while 16 bytes past
// each block are readable. A terminator bitmap gives every element's length
// up front, so element decodes do not wait on each other. At the portable
// level a block of elements of up to four bytes is decoded two elements at a
// time (DecodePairedElements). Advances *p and *dst; false if an element is
// longer than 10 bytes (left at its start).
template <FieldKind K, typename T, typename Ops>
inline bool DecodeVarintBlocks(const std::uint8_t** p_in,
                               const std::uint8_t* end,
                               const std::uint8_t* limit, T** dst_in) {
  const std::uint8_t* p = *p_in;
  T* dst = *dst_in;
  const std::uint8_t* block = p;
  bool ok = true;
  while (ok && end - block >= 64 && limit - block >= 64 + 16) {
    std::uint64_t mask = Ops::Terminators(block);
    if constexpr (std::is_same_v<Ops, PortableBlockOps>) {
      if (BlockHoldsPairedElements(mask, p, block)) {
        DecodePairedElements<K>(block, &mask, &p, &dst);
      }
    }
    while (mask != 0) {
      const std::uint8_t* last = block + std::countr_zero(mask);
      mask &= mask - 1;
      const auto length = static_cast<std::size_t>(last - p) + 1;
      if (length > static_cast<std::size_t>(kMaxVarintBytes)) {
        ok = false;
        break;
      }
      *dst++ = static_cast<T>(KindTraits<K>::Convert(
          DecodeKnownLength<Ops, kLow32Kind<K>>(p, length)));
      p = last + 1;
    }
    block += 64;
  }
  *p_in = p;
  *dst_in = dst;
  return ok;
}

template <FieldKind K, typename T>
bool DecodeVarintBlocksPortable(const std::uint8_t** p, const std::uint8_t* end,
                                const std::uint8_t* limit, T** dst) {
  return DecodeVarintBlocks<K, T, PortableBlockOps>(p, end, limit, dst);
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
template <FieldKind K, typename T>
[[FAIRWIRE_AVX2_TARGET, gnu::flatten]] bool DecodeVarintBlocksAvx2(
    const std::uint8_t** p, const std::uint8_t* end, const std::uint8_t* limit,
    T** dst) {
  return DecodeVarintBlocks<K, T, Avx2BlockOps>(p, end, limit, dst);
}
#endif

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_PARSE_H_
