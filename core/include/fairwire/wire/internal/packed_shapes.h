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

// One position in a packed payload, decoded a shape step at a time (Step):
// 64-byte windows from p while a window's 64 bytes are payload (before
// `end`), 64 + 16 are readable (before `limit`) and dst_end leaves room for a
// window's elements and a shape's spare lanes. Stores element values
// converted to kind K at dst. Two cursors over two halves of a payload run
// interleaved: each step waits on its own table load only, so the two
// chains overlap.
template <FieldKind K, typename T>
struct PackedShapeCursor {
  const std::uint8_t* p;  // the next element (the window's start + at)
  const std::uint8_t* end;
  const std::uint8_t* limit;
  T* dst;
  T* dst_end;
  const std::uint8_t* window = nullptr;
  std::uint64_t terminators = 0;
  unsigned at = 64;  // no window yet
  bool active = true;
  bool ok = true;  // false: an element longer than 10 bytes, at Position()

  // Starts the window at the next element, or stops the cursor (active
  // false) when the conditions above fail or the last window made no
  // progress (no terminator in 64 bytes: the block loop reports that
  // element).
  [[FAIRWIRE_AVX2_TARGET, gnu::always_inline]] void NextWindow() {
    if (window != nullptr) {
      if (at == 0) {
        active = false;
        return;
      }
      p = window + at;
    }
    if (end - p < 64 || limit - p < 64 + 16 ||
        dst_end - dst < 64 + kShapeLanes) {
      active = false;
      return;
    }
    window = p;
    terminators = Avx2BlockOps::Terminators(window);
    at = 0;
  }

  // Up to kShapeLanes short elements by the shape at `at`, then the next
  // element of any length. A shape reads 16 bytes from `at` and looks at 12
  // of the window's bits, the element after it at most 16 bytes.
  [[FAIRWIRE_AVX2_TARGET, gnu::always_inline]] void Step() {
    if (at > 64 - kShapeBytes) {
      NextWindow();
      return;
    }
    const auto index =
        static_cast<unsigned>(terminators >> at) & ((1u << kShapeBytes) - 1);
    const PackedShape shape = kPackedShapes.shapes[index];
    const __m128i bytes =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(window + at));
    StoreShapeValues<K>(
        dst,
        ShapeLanesAvx2(bytes, LoadShapeControl(kPackedShapes.gather[index])));
    const unsigned next = at + shape.consumed;
    // The element after the short ones, whatever its length: its last byte
    // is the next terminator in the window.
    const std::uint64_t ahead = next < 64 ? terminators >> next : 0;
    const auto length = static_cast<unsigned>(std::countr_zero(ahead)) + 1;
    if (ahead == 0 || length > static_cast<unsigned>(kMaxVarintBytes))
        [[unlikely]] {
      // It ends past the window (the next window takes it), or it is too
      // long (the block loop reports it).
      dst += shape.values;
      at = next;
      if (ahead != 0) {
        ok = false;
        active = false;
      } else {
        NextWindow();
      }
      return;
    }
    dst[shape.values] = static_cast<T>(KindTraits<K>::Convert(
        DecodeKnownLength<Avx2BlockOps, kLow32Kind<K>>(window + next, length)));
    dst += shape.values + 1;
    at = next + length;
  }

  // Where the cursor stopped: the start of the first element not decoded.
  const std::uint8_t* Position() const {
    return window == nullptr ? p : window + at;
  }
};

// Decodes the packed payload from *p (at an element) with one cursor while
// it runs; then returns (true) for DecodeVarintBlocks and the element loop
// to finish. Advances *p and *dst; false if an element is longer than 10
// bytes (left at its start).
template <FieldKind K, typename T>
[[FAIRWIRE_AVX2_TARGET, gnu::flatten]] bool DecodePackedShapesAvx2(
    const std::uint8_t** p, const std::uint8_t* end, const std::uint8_t* limit,
    T** dst, T* dst_end) {
  static_assert(kShapeKind<K> &&
                sizeof(T) == sizeof(typename KindTraits<K>::Type));
  PackedShapeCursor<K, T> cursor{*p, end, limit, *dst, dst_end};
  cursor.NextWindow();
  while (cursor.active) cursor.Step();
  *p = cursor.Position();
  *dst = cursor.dst;
  return cursor.ok;
}

// The same over two parts of one payload at once ([a->p, a->end) into
// a->dst.., [b->p, b->end) into b->dst..), the two cursors' steps
// interleaved. The caller then finishes each part (DecodeVarintBlocks and
// the element loop), the first one first.
template <FieldKind K, typename T>
[[FAIRWIRE_AVX2_TARGET, gnu::flatten]] void DecodePackedShapesTwiceAvx2(
    PackedShapeCursor<K, T>* a, PackedShapeCursor<K, T>* b) {
  static_assert(kShapeKind<K> &&
                sizeof(T) == sizeof(typename KindTraits<K>::Type));
  PackedShapeCursor<K, T> x = *a;
  PackedShapeCursor<K, T> y = *b;
  x.NextWindow();
  y.NextWindow();
  while (x.active && y.active) {
    x.Step();
    y.Step();
  }
  while (x.active) x.Step();
  while (y.active) y.Step();
  *a = x;
  *b = y;
}

// The number of bytes below 0x80 (varint terminators) in [p, end), 32 bytes
// at a time by vpmovmskb and popcnt.
[[FAIRWIRE_AVX2_TARGET]] inline std::size_t CountTerminatorsAvx2(
    const std::uint8_t* p, const std::uint8_t* end) {
  std::size_t count = 0;
  for (; end - p >= 32; p += 32) {
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
    count += 32 - static_cast<std::size_t>(std::popcount(high));
  }
  for (; p != end; ++p) count += *p < 0x80 ? 1u : 0u;
  return count;
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_PACKED_SHAPES_H_
