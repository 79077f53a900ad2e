// An enum's membership bitmap: what the decoder's closed-enum checks read
// (Schema keeps one per enum; the typed bindings build one from a user's
// IsValid predicate). Internal: not part of the public API.
#ifndef FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_H_
#define FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fairwire::wire::internal {

// Membership bitmap of an enum's values in [base, base + 64 * bits.size());
// values outside it are looked up by binary search when `outliers` is set.
// `slots` holds the same members as a direct-mapped table, for the portable
// level's check (FillEnumSlots; empty until then).
struct EnumBitmap {
  std::int32_t base = 0;
  std::vector<std::uint64_t> bits;
  bool outliers = false;
  std::vector<std::int32_t> far_values;  // the values past the bitmap, sorted
  std::vector<std::int32_t> slots;
};

// The slot of value v in a table of mask + 1 slots (a power of two) from
// base: its offset from base, modulo the table's size. The bitmap's members
// have slots of their own (the table has at least as many slots as the
// bitmap has bits); a far value shares its slot with others.
inline std::size_t EnumSlotOf(std::int32_t v, std::int32_t base,
                              std::uint32_t mask) {
  return (static_cast<std::uint32_t>(v) - static_cast<std::uint32_t>(base)) &
         mask;
}

// Fills bitmap.slots: a table of bit_ceil(bits), at least 2, slots where
// value v is a member if slots[EnumSlotOf(v)] == v. Slot i holds base + i
// for a bitmap member, then each far value in its slot if that is still
// free; a free slot holds base + i + 1, whose own slot is i + 1, so that no
// value matches it. A far value that finds its slot taken is not in the
// table (a check then asks the enum itself).
inline void FillEnumSlots(EnumBitmap& bitmap) {
  const std::size_t span = bitmap.bits.size() * 64;
  const std::size_t size = std::bit_ceil(std::max<std::size_t>(span, 2));
  const auto mask = static_cast<std::uint32_t>(size - 1);
  const auto base = static_cast<std::uint32_t>(bitmap.base);
  const auto value_at = [base](std::size_t i, bool member) {
    return static_cast<std::int32_t>(base + static_cast<std::uint32_t>(i) +
                                     (member ? 0u : 1u));
  };
  bitmap.slots.resize(size);
  for (std::size_t i = 0; i < size; ++i) {
    const bool member =
        i < span && ((bitmap.bits[i / 64] >> (i % 64)) & 1) != 0;
    bitmap.slots[i] = value_at(i, member);
  }
  for (const std::int32_t v : bitmap.far_values) {
    const std::size_t i = EnumSlotOf(v, bitmap.base, mask);
    if (bitmap.slots[i] == value_at(i, false)) bitmap.slots[i] = v;
  }
}

// What a check reads of a bitmap: value v is a member when v - base < span
// and bit (v - base) of `bits` is set, or v is one of the `far_count` values
// at `far`; and, when `slots` is not null, when slots[EnumSlotOf(v, base,
// slot_mask)] == v (FillEnumSlots: every bitmap member, maybe not every far
// value).
struct EnumBitmapView {
  std::int32_t base = 0;
  const std::uint64_t* bits = nullptr;
  std::uint64_t span = 0;  // bits
  const std::int32_t* far = nullptr;
  std::size_t far_count = 0;
  const std::int32_t* slots = nullptr;
  std::uint32_t slot_mask = 0;
};

inline EnumBitmapView ViewOf(const EnumBitmap& bitmap) {
  return {bitmap.base,
          bitmap.bits.data(),
          bitmap.bits.size() * 64,
          bitmap.far_values.data(),
          bitmap.far_values.size(),
          bitmap.slots.empty() ? nullptr : bitmap.slots.data(),
          static_cast<std::uint32_t>(
              bitmap.slots.empty() ? 0 : bitmap.slots.size() - 1)};
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_H_
