// The portable level's bulk closed-enum check of a packed record's values
// (AllKnownPortable): an enum's bitmap (enum_bitmap.h) and its first few far
// values read in scalar code, without a call or a branch per value.
#ifndef FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_PORTABLE_H_
#define FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_PORTABLE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "fairwire/wire/internal/enum_bitmap.h"

namespace fairwire::wire::internal {

// The far values AllKnownPortable compares in registers; more are left to
// the caller's own check.
inline constexpr std::size_t kHeldFarPortable = 4;

// A view's bitmap and its first kFar far values, as locals (stores of the
// values checked cannot alias them): Holds(v) without a branch.
template <std::size_t kFar>
class PortableEnumBitmap {
 public:
  explicit PortableEnumBitmap(EnumBitmapView view)
      : base_(view.base),
        span_(view.span),
        // An empty bitmap reads one zero word instead (no bit is set).
        words_(view.span != 0 ? view.bits : &kNoWord) {
    for (std::size_t k = 0; k < kFar; ++k) far_[k] = view.far[k];
  }

  // True if v is in the bitmap or is one of the held far values.
  [[gnu::always_inline]] bool Holds(std::int32_t v) const {
    const auto offset =
        static_cast<std::uint64_t>(std::int64_t{v} - std::int64_t{base_});
    const bool in_span = offset < span_;
    // Word 0 for a value outside the span: a mask, not a branch.
    const std::uint64_t at = offset & (0 - std::uint64_t{in_span});
    bool held = in_span & (((words_[at >> 6] >> (at & 63)) & 1) != 0);
    for (std::size_t k = 0; k < kFar; ++k) held |= v == far_[k];
    return held;
  }

 private:
  static constexpr std::uint64_t kNoWord = 0;
  std::int32_t base_;
  std::uint64_t span_;
  const std::uint64_t* words_;
  std::int32_t far_[kFar > 0 ? kFar : 1] = {};
};

// Values checked together before one branch on the result.
inline constexpr std::size_t kPortableCheckGroup = 8;

template <std::size_t kFar, typename Contains>
bool AllHeldOrContained(EnumBitmapView view, const std::int32_t* values,
                        std::size_t count, const Contains& contains) {
  const PortableEnumBitmap<kFar> bitmap(view);
  const auto each_known = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      if (!bitmap.Holds(values[i]) && !contains(values[i])) return false;
    }
    return true;
  };
  std::size_t i = 0;
  for (; count - i >= kPortableCheckGroup; i += kPortableCheckGroup) {
    bool held = true;
    for (std::size_t j = 0; j < kPortableCheckGroup; ++j) {
      held &= bitmap.Holds(values[i + j]);
    }
    // A group with an outlier member or an unknown value, value by value.
    if (!held && !each_known(i, i + kPortableCheckGroup)) return false;
  }
  return each_known(i, count);
}

// True if `contains` holds for every one of values[0, count): eight at a
// time by the bitmap `view` (whose members `contains` must hold for) and
// its first kHeldFarPortable far values, asking `contains` only about the
// values of a group these do not hold (a member further out, or an unknown
// value).
template <typename Contains>
bool AllKnownPortable(EnumBitmapView view, const std::int32_t* values,
                      std::size_t count, const Contains& contains) {
  const std::size_t far = std::min(view.far_count, kHeldFarPortable);
  return [&]<std::size_t... kFar>(std::index_sequence<kFar...>) {
    bool all_known = false;
    // The instance that holds `far` far values (a fold that stops there).
    static_cast<void>(((far == kFar && (all_known = AllHeldOrContained<kFar>(
                                            view, values, count, contains),
                                        true)) ||
                       ...));
    return all_known;
  }
  (std::make_index_sequence<kHeldFarPortable + 1>());
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_PORTABLE_H_
