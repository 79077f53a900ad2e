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
#include <cstring>

#include "fairwire/wire/internal/varint_avx512.h"
#include "fairwire/wire/schema.h"

#if defined(__GNUC__) && !defined(__clang__)
// See varint_avx512.h: g++ 12 warns inside its own intrinsics.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

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

// True if every one of values[0, count) is a value of the enum (bitmap
// with FitsEnumAvx512). Reads nothing past values + count.
[[FAIRWIRE_AVX512_TARGET]] inline bool AllInEnumAvx512(
    const std::int32_t* values, std::size_t count, const EnumBitmap& bitmap) {
  alignas(64) std::uint8_t table[128] = {};
  std::memcpy(table, bitmap.bits.data(), bitmap.bits.size() * 8);
  const __m512i table_low = _mm512_load_si512(table);
  const __m512i table_high = _mm512_load_si512(table + 64);
  const __m512i base = _mm512_set1_epi32(bitmap.base);
  const __m512i span =
      _mm512_set1_epi32(static_cast<int>(bitmap.bits.size() * 64));
  // Far values, the first repeated to fill four (no far value: the base,
  // which is in range, so it never matches an out-of-range lane).
  __m512i far[kMaxFarValuesAvx512];
  for (std::size_t i = 0; i < kMaxFarValuesAvx512; ++i) {
    far[i] = _mm512_set1_epi32(
        bitmap.far_values.empty()
            ? bitmap.base
            : bitmap.far_values[i < bitmap.far_values.size() ? i : 0]);
  }
  const __m512i seven = _mm512_set1_epi32(7);
  const __m512i low_byte = _mm512_set1_epi32(0xFF);
  for (std::size_t i = 0; i < count; i += 16) {
    const auto lanes = static_cast<__mmask16>(
        count - i >= 16 ? 0xFFFFu
                        : _bzhi_u32(0xFFFFu, static_cast<unsigned>(count - i)));
    const __m512i v = _mm512_maskz_loadu_epi32(lanes, values + i);
    const __m512i offset = _mm512_sub_epi32(v, base);  // unsigned wrap
    const __mmask16 in_range = _mm512_cmplt_epu32_mask(offset, span);
    // Each lane's bitmap byte (index offset / 8 in its low byte), then bit.
    const __m512i byte = _mm512_and_si512(
        _mm512_permutex2var_epi8(table_low, _mm512_srli_epi32(offset, 3),
                                 table_high),
        low_byte);
    const __m512i bit =
        _mm512_srlv_epi32(byte, _mm512_and_si512(offset, seven));
    __mmask16 known =
        _mm512_mask_test_epi32_mask(in_range, bit, _mm512_set1_epi32(1));
    for (const __m512i& f : far) known |= _mm512_cmpeq_epi32_mask(v, f);
    if ((known & lanes) != lanes) return false;
  }
  return true;
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX512_PATH

}  // namespace fairwire::wire::internal

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // FAIRWIRE_WIRE_INTERNAL_ENUM_AVX512_H_
