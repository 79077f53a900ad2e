// Closed-enum membership of decoded values, sixteen at a time (AVX-512 VBMI).
// A packed closed-enum record is decoded in bulk first, then checked here;
// only a record holding an unknown value is decoded again one element at a
// time (decoder.cc). The enum's bitmap (at most 1024 bits: two 64-byte
// tables for vpermi2b) gives each lane's byte; a variable shift picks the
// bit. Values past the bitmap (at most four) are compared directly.
#ifndef FAIRWIRE_WIRE_INTERNAL_ENUM_AVX512_H_
#define FAIRWIRE_WIRE_INTERNAL_ENUM_AVX512_H_

#include <cstddef>
#include <cstdint>

#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/varint_avx512.h"

FAIRWIRE_AVX512_WARNINGS_PUSH

namespace fairwire::wire::internal {

// The most values past the bitmap AllInEnumAvx512 compares directly.
inline constexpr std::size_t kMaxFarValuesAvx512 = 4;

// True if AllInEnumAvx512 can check this enum: a bitmap of at most 1024
// bits and at most kMaxFarValuesAvx512 values past it.
inline bool FitsEnumAvx512(const EnumBitmap& bitmap) {
  return bitmap.bits.size() <= 16 &&
         bitmap.far_values.size() <= kMaxFarValuesAvx512;
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH

// An enum's membership test in registers (bitmap with FitsEnumAvx512).
struct EnumTableAvx512 {
  __m512i table_low;   // bitmap bytes 0..63
  __m512i table_high;  // bitmap bytes 64..127 (zero past the bitmap)
  __m512i base;
  __m512i span;  // bits in the bitmap
  // The far values (far_count of them, at most kMaxFarValuesAvx512).
  __m512i far[kMaxFarValuesAvx512];
  std::size_t far_count;
};

// Loads `bitmap` (with FitsEnumAvx512) into registers.
[[FAIRWIRE_AVX512_TARGET]] inline EnumTableAvx512 MakeEnumTableAvx512(
    const EnumBitmap& bitmap) {
  // Masked loads straight from the bitmap (a copy through the stack would
  // be read back before its stores retire).
  const auto words = static_cast<unsigned>(bitmap.bits.size());
  const std::uint64_t* const bits = bitmap.bits.data();
  EnumTableAvx512 t;
  t.table_low = _mm512_maskz_loadu_epi64(
      static_cast<__mmask8>(_bzhi_u32(0xFFu, words)), bits);
  t.table_high = _mm512_maskz_loadu_epi64(
      static_cast<__mmask8>(_bzhi_u32(0xFFu, words > 8 ? words - 8 : 0)),
      bits + 8);
  t.base = _mm512_set1_epi32(bitmap.base);
  t.span = _mm512_set1_epi32(static_cast<int>(bitmap.bits.size() * 64));
  t.far_count = bitmap.far_values.size();
  for (std::size_t i = 0; i < kMaxFarValuesAvx512; ++i) {
    t.far[i] = _mm512_set1_epi32(i < t.far_count ? bitmap.far_values[i] : 0);
  }
  return t;
}

// One bit per 32-bit lane of `v`: set where the value is in the enum.
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline __mmask16 KnownLanes(
    const EnumTableAvx512& t, __m512i v) {
  const __m512i offset = _mm512_sub_epi32(v, t.base);  // unsigned wrap
  const __mmask16 in_range = _mm512_cmplt_epu32_mask(offset, t.span);
  // Each lane's bitmap byte (index offset / 8 in its low byte), then bit.
  const __m512i byte = _mm512_and_si512(
      _mm512_permutex2var_epi8(t.table_low, _mm512_srli_epi32(offset, 3),
                               t.table_high),
      _mm512_set1_epi32(0xFF));
  const __m512i bit =
      _mm512_srlv_epi32(byte, _mm512_and_si512(offset, _mm512_set1_epi32(7)));
  __mmask16 known =
      _mm512_mask_test_epi32_mask(in_range, bit, _mm512_set1_epi32(1));
  // (Mask-register ors: moving each compare's mask out costs more.)
  for (std::size_t i = 0; i < t.far_count; ++i) {
    known = _kor_mask16(known, _mm512_cmpeq_epi32_mask(v, t.far[i]));
  }
  return known;
}

// True if every one of values[0, count) is a value of the enum (bitmap
// with FitsEnumAvx512). Reads nothing past values + count.
[[FAIRWIRE_AVX512_TARGET]] inline bool AllInEnumAvx512(
    const std::int32_t* values, std::size_t count, const EnumBitmap& bitmap) {
  const EnumTableAvx512 table = MakeEnumTableAvx512(bitmap);
  for (std::size_t i = 0; i < count; i += 16) {
    const auto lanes = static_cast<__mmask16>(
        count - i >= 16 ? 0xFFFFu
                        : _bzhi_u32(0xFFFFu, static_cast<unsigned>(count - i)));
    const __m512i v = _mm512_maskz_loadu_epi32(lanes, values + i);
    if ((KnownLanes(table, v) & lanes) != lanes) return false;
  }
  return true;
}

// True if every one of values[0, count) is in the enum of `table` or, for
// those that are not, `exact` accepts it (exact is called only for values
// the table misses, in order, until one is rejected). Reads nothing past
// values + count.
template <typename Exact>
[[FAIRWIRE_AVX512_TARGET]] inline bool AllKnownAvx512(
    const EnumTableAvx512& table, const std::int32_t* values, std::size_t count,
    const Exact& exact) {
  std::size_t i = 0;
  // Sixty-four values per branch while all are in the table; the first
  // block with a miss goes to the loop below, which asks `exact`.
  for (; count - i >= 64; i += 64) {
    const __mmask16 known =
        KnownLanes(table, _mm512_loadu_si512(values + i)) &
        KnownLanes(table, _mm512_loadu_si512(values + i + 16)) &
        KnownLanes(table, _mm512_loadu_si512(values + i + 32)) &
        KnownLanes(table, _mm512_loadu_si512(values + i + 48));
    if (known != 0xFFFF) [[unlikely]] {
      break;
    }
  }
  for (; i < count; i += 16) {
    const auto lanes = static_cast<__mmask16>(
        count - i >= 16 ? 0xFFFFu
                        : _bzhi_u32(0xFFFFu, static_cast<unsigned>(count - i)));
    const __m512i v = _mm512_maskz_loadu_epi32(lanes, values + i);
    unsigned missed = ~static_cast<unsigned>(KnownLanes(table, v)) & lanes;
    while (missed != 0) [[unlikely]] {
        if (!exact(values[i + _tzcnt_u32(missed)])) return false;
        missed = _blsr_u32(missed);
      }
  }
  return true;
}

// The closed-enum check of avx512::DecodeRun (bitmap with FitsEnumAvx512):
// how many of the first `lanes` raw values lead before the first unknown
// one (the check uses the int32-truncated value).
struct EnumRunCheckAvx512 {
  static constexpr bool kChecks = true;
  using State = EnumTableAvx512;
  const EnumBitmap* bitmap;

  [[FAIRWIRE_AVX512_TARGET]] State Start() const {
    return MakeEnumTableAvx512(*bitmap);
  }
  [[FAIRWIRE_AVX512_TARGET]] unsigned Accept(const State& table, __m512i raw,
                                             unsigned lanes) const {
    const __m512i v = _mm512_zextsi256_si512(_mm512_cvtepi64_epi32(raw));
    const unsigned unknown =
        ~static_cast<unsigned>(KnownLanes(table, v)) & _bzhi_u32(0xFFu, lanes);
    return unknown != 0 ? static_cast<unsigned>(_tzcnt_u32(unknown)) : lanes;
  }
  // True if all of values[0, count) are in the enum (avx512::DecodeRunBulk).
  [[FAIRWIRE_AVX512_TARGET]] bool AllKnown(const std::int32_t* values,
                                           std::size_t count) const {
    return AllKnownAvx512(MakeEnumTableAvx512(*bitmap), values, count,
                          [](std::int32_t) { return false; });
  }
};

#endif  // FAIRWIRE_WIRE_HAVE_AVX512_PATH

}  // namespace fairwire::wire::internal

FAIRWIRE_AVX512_WARNINGS_POP

#endif  // FAIRWIRE_WIRE_INTERNAL_ENUM_AVX512_H_
