// The avx2 level's closed-enum membership check: an enum's bitmap
// (enum_bitmap.h) read four values at a time, for the run shape kernel
// (run_shapes.h) and for the bulk check of packed records (AllKnownAvx2).
#ifndef FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_AVX2_H_
#define FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_AVX2_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire::internal {

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH

// A closed enum's bitmap (EnumBitmapView) in registers: the membership of
// four values at once. A bitmap of up to 1024 bits
// (every enum of a few hundred values, and the typed bindings' cache of
// IsValid) is held in four registers, its 32-bit words picked by vpermd and
// two blends; a longer one is read by a gather.
class EnumBitmapAvx2 {
 public:
  static constexpr std::uint64_t kHeldBits = 1024;
  static constexpr std::size_t kHeldFar = 4;

  // A bitmap of more than 2^31 bits is read as its first 2^31 (a member
  // past them goes to the record loop).
  [[FAIRWIRE_AVX2_TARGET]] explicit EnumBitmapAvx2(EnumBitmapView view)
      : words_(reinterpret_cast<const int*>(view.bits)),
        base_(_mm_set1_epi32(view.base)),
        last_(_mm_set1_epi32(
            static_cast<int>(std::min(view.span, std::uint64_t{1} << 31) - 1))),
        held_(view.span <= kHeldBits),
        empty_(view.span == 0) {
    // Up to kHeldFar far values, each broadcast; more are left to the
    // caller's own check (not members here).
    far_count_ = std::min(view.far_count, kHeldFar);
    for (std::size_t k = 0; k < far_count_; ++k) {
      far_[k] = _mm_set1_epi32(view.far[k]);
    }
    if (held_) {
      alignas(32) std::uint64_t copy[kHeldBits / 64] = {};
      for (std::uint64_t i = 0; i < view.span / 64; ++i) copy[i] = view.bits[i];
      for (std::size_t k = 0; k < 4; ++k) {
        held_words_[k] =
            _mm256_load_si256(reinterpret_cast<const __m256i*>(copy + 4 * k));
      }
    }
  }

  // True if the first `count` lanes (any int32 values) are all members.
  [[FAIRWIRE_AVX2_TARGET, gnu::always_inline]] bool AllMembers(
      __m128i lanes, unsigned count) const {
    // value - base as an unsigned 32-bit offset, which is below the span
    // exactly for the values in [base, base + span) (the bitmap's members
    // are int32 values, so that range does not wrap).
    const __m128i offset = _mm_sub_epi32(lanes, base_);
    const __m128i inside =
        _mm_cmpeq_epi32(_mm_min_epu32(offset, last_), offset);
    const __m128i word_index = _mm_srli_epi32(offset, 5);
    __m128i words;
    if (held_) {
      // Word w of the bitmap is word w % 8 of register w / 8: bit 3 and
      // bit 4 of w, moved to the sign bits, pick the register.
      const __m256i pick = _mm256_castsi128_si256(word_index);
      const __m256 bit3 = _mm256_castsi256_ps(_mm256_slli_epi32(pick, 28));
      const __m256 bit4 = _mm256_castsi256_ps(_mm256_slli_epi32(pick, 27));
      const __m256 low =
          _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(
                               held_words_[0], pick)),
                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(
                               held_words_[1], pick)),
                           bit3);
      const __m256 high =
          _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(
                               held_words_[2], pick)),
                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(
                               held_words_[3], pick)),
                           bit3);
      words = _mm256_castsi256_si128(
          _mm256_castps_si256(_mm256_blendv_ps(low, high, bit4)));
    } else {
      words = _mm_mask_i32gather_epi32(_mm_setzero_si128(), words_, word_index,
                                       inside, 4);
    }
    const __m128i bit =
        _mm_srlv_epi32(words, _mm_and_si128(offset, _mm_set1_epi32(31)));
    __m128i member = _mm_and_si128(
        inside, _mm_cmpeq_epi32(_mm_and_si128(bit, _mm_set1_epi32(1)),
                                _mm_set1_epi32(1)));
    if (empty_) member = _mm_setzero_si128();
    for (std::size_t k = 0; k < kHeldFar; ++k) {
      if (k < far_count_) {
        member = _mm_or_si128(member, _mm_cmpeq_epi32(lanes, far_[k]));
      }
    }
    const unsigned want = (1u << count) - 1;
    const auto got =
        static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(member)));
    return (got & want) == want;
  }

 private:
  const int* words_ = nullptr;
  __m128i base_{};
  __m128i last_{};
  bool held_ = false;
  bool empty_ = true;
  std::size_t far_count_ = 0;
  __m128i far_[kHeldFar]{};
  __m256i held_words_[4]{};
};

// True if `contains` holds for every one of values[0, count): four at a
// time by the bitmap `view` (whose members `contains` must hold for), and
// only the values of a group the bitmap does not hold all of by `contains`
// (an outlier member, or an unknown value).
template <typename Contains>
[[FAIRWIRE_AVX2_TARGET]] bool AllKnownAvx2(EnumBitmapView view,
                                           const std::int32_t* values,
                                           std::size_t count,
                                           const Contains& contains) {
  const EnumBitmapAvx2 bitmap(view);
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const __m128i lanes =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + i));
    if (!bitmap.AllMembers(lanes, 4)) [[unlikely]] {
      for (std::size_t j = i; j < i + 4; ++j) {
        if (!contains(values[j])) return false;
      }
    }
  }
  for (; i < count; ++i) {
    if (!contains(values[i])) return false;
  }
  return true;
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_AVX2_H_
