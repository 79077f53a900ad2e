// The avx2 level's closed-enum membership check: an enum's bitmap
// (enum_bitmap.h) read eight values at a time, for the run shape kernel
// (run_shapes.h) and for the bulk check of packed records (AllKnownAvx2).
#ifndef FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_AVX2_H_
#define FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_AVX2_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire::internal {

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH

// A closed enum's bitmap (EnumBitmapView) in registers: the membership of
// eight values at once. A bitmap of up to 1024 bits
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
        base_(_mm256_set1_epi32(view.base)),
        last_(_mm256_set1_epi32(
            static_cast<int>(std::min(view.span, std::uint64_t{1} << 31) - 1))),
        held_(view.span <= kHeldBits),
        empty_(view.span == 0) {
    // Up to kHeldFar far values, each broadcast; more are left to the
    // caller's own check (not members here).
    far_count_ = std::min(view.far_count, kHeldFar);
    for (std::size_t k = 0; k < far_count_; ++k) {
      far_[k] = _mm256_set1_epi32(view.far[k]);
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

  // The lanes of `lanes` (eight int32 values, any) that are members: bit i
  // set where lane i is.
  [[FAIRWIRE_AVX2_TARGET, gnu::always_inline]] unsigned MemberLanes(
      __m256i lanes) const {
    // value - base as an unsigned 32-bit offset, which is below the span
    // exactly for the values in [base, base + span) (the bitmap's members
    // are int32 values, so that range does not wrap).
    const __m256i offset = _mm256_sub_epi32(lanes, base_);
    const __m256i inside =
        _mm256_cmpeq_epi32(_mm256_min_epu32(offset, last_), offset);
    const __m256i word_index = _mm256_srli_epi32(offset, 5);
    __m256i words;
    if (held_) {
      // Word w of the bitmap is word w % 8 of register w / 8: bit 3 and
      // bit 4 of w, moved to the sign bits, pick the register.
      const __m256 bit3 =
          _mm256_castsi256_ps(_mm256_slli_epi32(word_index, 28));
      const __m256 bit4 =
          _mm256_castsi256_ps(_mm256_slli_epi32(word_index, 27));
      const __m256 low =
          _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(
                               held_words_[0], word_index)),
                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(
                               held_words_[1], word_index)),
                           bit3);
      const __m256 high =
          _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(
                               held_words_[2], word_index)),
                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(
                               held_words_[3], word_index)),
                           bit3);
      words = _mm256_castps_si256(_mm256_blendv_ps(low, high, bit4));
    } else {
      words = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), words_,
                                          word_index, inside, 4);
    }
    // Bit `offset % 32` of the word, moved to the sign bit.
    const __m256i bit = _mm256_sllv_epi32(
        words,
        _mm256_sub_epi32(_mm256_set1_epi32(31),
                         _mm256_and_si256(offset, _mm256_set1_epi32(31))));
    __m256i member = _mm256_and_si256(inside, bit);
    if (empty_) member = _mm256_setzero_si256();
    for (std::size_t k = 0; k < kHeldFar; ++k) {
      if (k < far_count_) {
        member = _mm256_or_si256(member, _mm256_cmpeq_epi32(lanes, far_[k]));
      }
    }
    return static_cast<unsigned>(
        _mm256_movemask_ps(_mm256_castsi256_ps(member)));
  }

  // The number of values of [values, values + count) before the first that
  // is not a member (count if all are), eight at a time; nothing past
  // values + count is read.
  [[FAIRWIRE_AVX2_TARGET]] std::size_t MembersBefore(const std::int32_t* values,
                                                     std::size_t count) const {
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) {
      const unsigned members = MemberLanes(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i)));
      if (members != 0xFFu) {
        return i + static_cast<std::size_t>(std::countr_one(members));
      }
    }
    if (i == count) return count;
    // The last one to seven values, by a masked load.
    const __m256i load_mask =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count - i)),
                           _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const unsigned members = MemberLanes(_mm256_maskload_epi32(
        reinterpret_cast<const int*>(values + i), load_mask));
    return std::min(count,
                    i + static_cast<std::size_t>(std::countr_one(members)));
  }

 private:
  const int* words_ = nullptr;
  __m256i base_{};
  __m256i last_{};
  bool held_ = false;
  bool empty_ = true;
  std::size_t far_count_ = 0;
  __m256i far_[kHeldFar]{};
  __m256i held_words_[4]{};
};

// True if `contains` holds for every one of values[0, count): eight at a
// time by the bitmap `view` (whose members `contains` must hold for),
// asking `contains` only about the values the bitmap does not hold (an
// outlier member, or an unknown value).
template <typename Contains>
[[FAIRWIRE_AVX2_TARGET]] bool AllKnownAvx2(EnumBitmapView view,
                                           const std::int32_t* values,
                                           std::size_t count,
                                           const Contains& contains) {
  const EnumBitmapAvx2 bitmap(view);
  for (std::size_t i = 0;; ++i) {
    i += bitmap.MembersBefore(values + i, count - i);
    if (i == count) return true;
    if (!contains(values[i])) return false;
  }
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_AVX2_H_
