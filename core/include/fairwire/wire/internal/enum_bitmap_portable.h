// The portable level's bulk closed-enum check of a packed record's values
// (AllKnownPortable): an enum's members read from its direct-mapped slot
// table (enum_bitmap.h, FillEnumSlots) in scalar code, one load and one
// compare a value, without a call or a branch per value.
#ifndef FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_PORTABLE_H_
#define FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_PORTABLE_H_

#include <cstddef>
#include <cstdint>

#include "fairwire/wire/internal/enum_bitmap.h"

namespace fairwire::wire::internal {

// A view's slot table as locals (stores of the values checked cannot alias
// them): Holds(v) without a branch. A view without slots holds nothing.
class PortableEnumSlots {
 public:
  explicit PortableEnumSlots(EnumBitmapView view)
      : base_(view.slots != nullptr ? view.base : 0),
        mask_(view.slots != nullptr ? view.slot_mask : 1),
        slots_(view.slots != nullptr ? view.slots : kNoSlots) {}

  // True if v is in its slot: a bitmap member, or a far value that has its
  // slot to itself.
  [[gnu::always_inline]] bool Holds(std::int32_t v) const {
    return slots_[EnumSlotOf(v, base_, mask_)] == v;
  }

 private:
  // Two free slots from base 0 (FillEnumSlots): no value matches either.
  static constexpr std::int32_t kNoSlots[2] = {1, 2};
  std::int32_t base_;
  std::uint32_t mask_;
  const std::int32_t* slots_;
};

// Values checked together before one branch on the result.
inline constexpr std::size_t kPortableCheckGroup = 8;

// True if `contains` holds for every one of values[0, count): eight at a
// time by the slot table of `view` (whose members `contains` must hold
// for), asking `contains` only about the values of a group the table does
// not hold (a far value that shares its slot, or an unknown value).
template <typename Contains>
bool AllKnownPortable(EnumBitmapView view, const std::int32_t* values,
                      std::size_t count, const Contains& contains) {
  const PortableEnumSlots slots(view);
  const auto each_known = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      if (!slots.Holds(values[i]) && !contains(values[i])) return false;
    }
    return true;
  };
  std::size_t i = 0;
  for (; count - i >= kPortableCheckGroup; i += kPortableCheckGroup) {
    bool held = true;
    for (std::size_t j = 0; j < kPortableCheckGroup; ++j) {
      held &= slots.Holds(values[i + j]);
    }
    if (!held && !each_known(i, i + kPortableCheckGroup)) return false;
  }
  return each_known(i, count);
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_PORTABLE_H_
