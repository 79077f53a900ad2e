// The avx2 level's kernel for packed varint payloads: up to five elements
// per step, the first up to four of them short ones by a shape
// (varint_shapes.h), the next of any length (up to ten bytes) by the scalar
// block step (DecodeKnownLength, one pext). Every step takes that last
// element, so the step has no branch on the elements' lengths: payloads
// mixing one-byte and ten-byte elements (negative int64s) run as fast as
// regular ones, where a branch per element would mispredict.
#ifndef FAIRWIRE_WIRE_INTERNAL_PACKED_SHAPES_H_
#define FAIRWIRE_WIRE_INTERNAL_PACKED_SHAPES_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/varint_shapes.h"

namespace fairwire::wire::internal {

// What a packed payload's next kShapeBytes bytes hold, from their
// terminator bits, starting at an element: `values` whole elements of at
// most kShapeValueBytes bytes (up to kShapeLanes), taking `consumed` bytes.
struct PackedShape {
  std::uint8_t values = 0;
  std::uint8_t consumed = 0;
};

// Built at compile time: nothing runs before main, nothing is locked.
inline constexpr ShapeTable<PackedShape> kPackedShapes =
    MakeShapeTable<PackedShape>(
        [](PackedShape&, int last, auto) { return last + 1; });

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH

// Decodes the packed payload from *p (at an element) 64 bytes at a time
// while a window's 64 bytes are payload, 64 + 16 are readable before
// `limit`, and dst_end leaves room for a window's elements and a shape's
// spare lanes; then returns (true) for DecodeVarintBlocks and the element
// loop to finish. Stores element values converted to kind K at *dst.
// Advances *p and *dst; false if an element is longer than 10 bytes (left
// at its start).
template <FieldKind K, typename T>
[[FAIRWIRE_AVX2_TARGET, gnu::flatten]] bool DecodePackedShapesAvx2(
    const std::uint8_t** p_in, const std::uint8_t* end,
    const std::uint8_t* limit, T** dst_in, T* dst_end) {
  static_assert(kShapeKind<K> &&
                sizeof(T) == sizeof(typename KindTraits<K>::Type));
  const std::uint8_t* p = *p_in;
  T* dst = *dst_in;
  bool ok = true;
  while (ok && end - p >= 64 && limit - p >= 64 + 16 &&
         dst_end - dst >= 64 + kShapeLanes) {
    const std::uint8_t* const window = p;
    const std::uint64_t terminators = Avx2BlockOps::Terminators(window);
    // The window offset of the next element; a shape reads 16 bytes from it
    // and looks at 12 of the window's bits, the element after it at most 16.
    unsigned at = 0;
    while (at <= 64 - kShapeBytes) {
      const auto index =
          static_cast<unsigned>(terminators >> at) & ((1u << kShapeBytes) - 1);
      const PackedShape shape = kPackedShapes.shapes[index];
      const __m128i bytes =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(window + at));
      StoreShapeValues<K>(dst,
                          ShapeLanesAvx2(bytes, kPackedShapes.gather[index]));
      const unsigned next = at + shape.consumed;
      // The element after the short ones, whatever its length: its last
      // byte is the next terminator in the window.
      const std::uint64_t ahead = next < 64 ? terminators >> next : 0;
      if (ahead == 0) {  // it ends past the window
        dst += shape.values;
        at = next;
        break;
      }
      const auto length = static_cast<unsigned>(std::countr_zero(ahead)) + 1;
      if (length > static_cast<unsigned>(kMaxVarintBytes)) {
        dst += shape.values;
        at = next;
        ok = false;
        break;
      }
      dst[shape.values] = static_cast<T>(
          KindTraits<K>::Convert(DecodeKnownLength<Avx2BlockOps, kLow32Kind<K>>(
              window + next, length)));
      dst += shape.values + 1;
      at = next + length;
    }
    p = window + at;
    if (at == 0) break;  // no terminator in 64 bytes: DecodeVarintBlocks fails
  }
  *p_in = p;
  *dst_in = dst;
  return ok;
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_PACKED_SHAPES_H_
