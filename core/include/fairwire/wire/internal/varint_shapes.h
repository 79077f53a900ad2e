// What the avx2 level's shape kernels share (run_shapes.h for unpacked
// runs, packed_shapes.h for packed payloads). Their design is Masked
// VByte's (Plaisance, Kurz and Lemire, "Vectorized VByte Decoding", 2015):
// the terminator bits (bytes below 0x80) of the next kShapeBytes bytes index
// a table of shapes, built at compile time; a shape's pshufb control puts
// each of up to four short values' bytes in a 32-bit lane, whose 7-bit
// groups vpmaddubsw and vpmaddwd then join (14 bits, then 28).
#ifndef FAIRWIRE_WIRE_INTERNAL_VARINT_SHAPES_H_
#define FAIRWIRE_WIRE_INTERNAL_VARINT_SHAPES_H_

#include <array>
#include <cstdint>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire::internal {

// The bytes a shape looks at (its index has one bit per byte), the most
// values it decodes (one 32-bit lane each), and the longest value it
// decodes (four 7-bit groups: 28 bits, a non-negative 32-bit lane).
inline constexpr int kShapeBytes = 12;
inline constexpr int kShapeLanes = 4;
inline constexpr int kShapeValueBytes = 4;

// The kinds the shape kernel decodes: every VARINT kind but bool, whose
// one-byte elements it does not pack.
template <FieldKind K>
inline constexpr bool kShapeKind = (KindWireType(K) == WireType::kVarint) &&
                                   (K != FieldKind::kBool);

// A shape's pshufb control: lane r's bytes are value r's, 0x80 (zero) past
// its length. Aligned, for an aligned load.
struct alignas(16) ShapeControl {
  std::array<std::uint8_t, 16> bytes{};
};

// An all-0x80 control, to fill.
constexpr ShapeControl EmptyShapeControl() {
  ShapeControl control;
  for (auto& b : control.bytes) b = 0x80;
  return control;
}

// The shapes of every terminator pattern of kShapeBytes bytes, and for each
// the pshufb control that moves value v's bytes to bytes 4v..4v+3.
template <typename Shape>
struct ShapeTable {
  std::array<Shape, 1u << kShapeBytes> shapes{};
  std::array<ShapeControl, 1u << kShapeBytes> gather{};
};

// Builds a table of shapes, each with `values` (how many values it takes)
// and `consumed` (how many bytes): for each pattern, from byte 0, takes
// values of at most kShapeValueBytes bytes that end within the pattern, up
// to kShapeLanes, while take(shape, last, terminator) allows: given the
// value's last byte and the pattern's test of a byte, it returns where the
// next value starts, or -1 to stop before this one.
template <typename Shape, typename Take>
constexpr ShapeTable<Shape> MakeShapeTable(const Take& take) {
  ShapeTable<Shape> table;
  for (unsigned index = 0; index < (1u << kShapeBytes); ++index) {
    const auto terminator = [index](int i) {
      return i < kShapeBytes && ((index >> i) & 1u) != 0;
    };
    Shape shape;
    ShapeControl gather = EmptyShapeControl();
    int start = 0;
    while (shape.values < kShapeLanes) {
      int last = start;
      while (last < kShapeBytes && !terminator(last)) ++last;
      const int length = last - start + 1;
      if (last >= kShapeBytes || length > kShapeValueBytes) break;
      const int next = take(shape, last, terminator);
      if (next < 0) break;
      for (int j = 0; j < length; ++j) {
        gather.bytes[static_cast<std::size_t>(shape.values * 4 + j)] =
            static_cast<std::uint8_t>(start + j);
      }
      ++shape.values;
      start = next;
    }
    shape.consumed = static_cast<std::uint8_t>(start);
    table.shapes[index] = shape;
    table.gather[index] = gather;
  }
  return table;
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH

// A shape's pshufb control, loaded.
[[FAIRWIRE_AVX2_TARGET, gnu::always_inline]] inline __m128i LoadShapeControl(
    const ShapeControl& control) {
  return _mm_load_si128(reinterpret_cast<const __m128i*>(control.bytes.data()));
}

// The values whose bytes `control` picks from `bytes`, one per 32-bit lane.
[[FAIRWIRE_AVX2_TARGET, gnu::always_inline]] inline __m128i ShapeLanesAvx2(
    __m128i bytes, __m128i control) {
  const __m128i groups =
      _mm_and_si128(_mm_shuffle_epi8(bytes, control), _mm_set1_epi8(0x7F));
  // Byte pairs (1, 128) to 14 bits, then word pairs (1, 16384) to 28.
  return _mm_madd_epi16(_mm_maddubs_epi16(_mm_set1_epi16(-32767), groups),
                        _mm_set1_epi32(0x40000001));
}

// The values of one shape, converted to kind K, stored at dst: all
// four lanes, whatever number of values the shape took (the caller leaves
// room for four).
template <FieldKind K, typename T>
[[FAIRWIRE_AVX2_TARGET, gnu::always_inline]] inline void StoreShapeValues(
    T* dst, __m128i lanes) {
  if constexpr (sizeof(T) == 8) {
    __m256i wide = _mm256_cvtepu32_epi64(lanes);
    if constexpr (K == FieldKind::kSint64) {
      wide = _mm256_xor_si256(
          _mm256_srli_epi64(wide, 1),
          _mm256_sub_epi64(_mm256_setzero_si256(),
                           _mm256_and_si256(wide, _mm256_set1_epi64x(1))));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), wide);
  } else {
    static_assert(sizeof(T) == 4);
    if constexpr (K == FieldKind::kSint32) {
      lanes =
          _mm_xor_si128(_mm_srli_epi32(lanes, 1),
                        _mm_sub_epi32(_mm_setzero_si128(),
                                      _mm_and_si128(lanes, _mm_set1_epi32(1))));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), lanes);
  }
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_VARINT_SHAPES_H_
