// An enum's membership bitmap: what the decoder's closed-enum checks read
// (Schema keeps one per enum; the typed bindings build one from a user's
// IsValid predicate). Internal: not part of the public API.
#ifndef FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_H_
#define FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fairwire::wire::internal {

// Membership bitmap of an enum's values in [base, base + 64 * bits.size());
// values outside it are looked up by binary search when `outliers` is set.
struct EnumBitmap {
  std::int32_t base = 0;
  std::vector<std::uint64_t> bits;
  bool outliers = false;
  std::vector<std::int32_t> far_values;  // the values past the bitmap, sorted
};

// What a vector check reads of a bitmap: value v is a member when
// v - base < span and bit (v - base) of `bits` is set, or v is one of the
// `far_count` values at `far`.
struct EnumBitmapView {
  std::int32_t base = 0;
  const std::uint64_t* bits = nullptr;
  std::uint64_t span = 0;  // bits
  const std::int32_t* far = nullptr;
  std::size_t far_count = 0;
};

inline EnumBitmapView ViewOf(const EnumBitmap& bitmap) {
  return {bitmap.base, bitmap.bits.data(), bitmap.bits.size() * 64,
          bitmap.far_values.data(), bitmap.far_values.size()};
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_ENUM_BITMAP_H_
