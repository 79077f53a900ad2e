// The avx2 level's kernel for runs of unpacked records of one repeated
// VARINT field with a one-byte tag: [tag][varint][tag][varint]... It takes
// up to four records per step, with one table lookup, one byte shuffle and
// two multiply-adds, instead of one bit scan, one pext and one store per
// record (run_blocks.h).
//
// The shapes (varint_shapes.h): the terminator bits of the next twelve
// bytes. A run's bytes alternate value, tag, value, tag, and a one-byte tag
// is itself a terminator, so a shape says how many (value, tag) records of
// values of at most four bytes start the twelve bytes, how many bytes they
// take and which bytes are their tags, which are checked all at once against
// the tag byte (vpcmpeqb). A record whose value is longer than four bytes
// (up to ten) is taken alone, by the scalar block step.
//
// As DecodeRunBlocks, the kernel always stops at a value's start, and takes
// a record only while its tag is the run's and more than 64 bytes of the run
// remain from the window holding it; the record loop of ParseVarintRun does
// the rest, and finds every error at the same offset as before.
#ifndef FAIRWIRE_WIRE_INTERNAL_RUN_SHAPES_H_
#define FAIRWIRE_WIRE_INTERNAL_RUN_SHAPES_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/enum_bitmap_avx2.h"
#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/run_blocks.h"
#include "fairwire/wire/internal/varint_shapes.h"

namespace fairwire::wire::internal {

// What a run's next kShapeBytes bytes hold, from their terminator bits,
// starting at a value: `values` whole (value, tag) records, each value at
// most kShapeValueBytes bytes and its tag the byte after it, taking
// `consumed` bytes; bit i of `tags` is set where byte i is one of their
// tags. values == 0: the first value is longer, or ends past the shape's
// bytes.
struct RunShape {
  std::uint8_t values = 0;
  std::uint8_t consumed = 0;
  std::uint16_t tags = 0;
};

// Built at compile time: nothing runs before main, nothing is locked.
inline constexpr ShapeTable<RunShape> kRunShapes =
    MakeShapeTable<RunShape>([](RunShape& shape, int last, auto terminator) {
      const int tag = last + 1;  // a one-byte tag is a terminator
      if (!terminator(tag)) return -1;
      shape.tags = static_cast<std::uint16_t>(shape.tags | (1u << tag));
      return tag + 1;
    });

// A keep that keeps every value (the run of any field but a closed enum):
// the shape kernel then checks nothing per value.
template <typename T>
struct KeepAll {
  static constexpr bool kKeepsAll = true;
  constexpr bool operator()(T) const { return true; }
};

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH

// The bitmap a keep offers the shape kernel (none: an empty view).
template <typename Keep>
EnumBitmapView BitmapOf(const Keep& keep) {
  if constexpr (requires { keep.Bitmap(); }) {
    return keep.Bitmap();
  } else {
    return {};
  }
}

// The run kernel's bitmap check for a keep without Bitmap(): nothing held.
struct NoRunBitmap {
  explicit NoRunBitmap(EnumBitmapView) {}
};

// Takes the records of the run from the value at p (its tag read), as
// DecodeRunBlocks does and with the same conditions (more than 64 bytes of
// the run from each window, 64 + 16 of the input), appending their values
// to out. `keep` either keeps all (kKeepsAll) or has Accepts(value), a test
// without calls: a value it refuses stops the kernel before its record.
// Returns the start of the first value not taken.
template <FieldKind K, typename Keep>
[[FAIRWIRE_AVX2_TARGET, gnu::flatten]] const std::uint8_t* DecodeRunShapesAvx2(
    const std::uint8_t* p, const std::uint8_t* end, const std::uint8_t* limit,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& out,
    const Keep& keep) {
  static_assert(kShapeKind<K>);
  using T = typename KindTraits<K>::Type;
  // Room for a window's records (at most 32) and one shape's spare lanes.
  constexpr std::size_t kSpare = kShapeLanes;
  T buffer[kRunBlocksBuffer + kSpare];
  std::size_t buffered = 0;
  const __m128i tags = _mm_set1_epi8(static_cast<char>(tag_byte));
  // Held in registers only for a keep that offers its bitmap.
  constexpr bool kBitmapKeep = requires { keep.Bitmap(); };
  [[maybe_unused]] const std::conditional_t<kBitmapKeep, EnumBitmapAvx2,
                                            NoRunBitmap>
      bitmap(BitmapOf(keep));
  bool regular = true;
  // The last shape looked up, by its index: while a run's records keep one
  // shape (a run of values of one length, the common case), a step takes it
  // from here, and the branch on the index is predicted, so the next step's
  // position does not wait on this step's table load.
  unsigned cached_index = 1u << kShapeBytes;  // no index: looked up first
  RunShape cached_shape;
  __m128i cached_gather = _mm_setzero_si128();
  // With a bitmap, the buffered values are checked eight at a time before
  // they are handed on (not at each step: loading what the last steps have
  // just stored would wait on their stores). For each buffered value, where
  // its step started, to go back to the step of an unknown value.
  [[maybe_unused]] const std::uint8_t* step_of[kRunBlocksBuffer + kSpare];
  // True if the bitmap holds every buffered value; otherwise goes back to
  // the start of the step of the first value it does not hold (p and
  // buffered), where the record loop asks keep.
  const auto all_buffered_known = [&] {
    if constexpr (kBitmapKeep) {
      static_assert(std::is_same_v<T, std::int32_t>);
      std::size_t known = bitmap.MembersBefore(buffer, buffered);
      if (known != buffered) {
        p = step_of[known];
        while (known > 0 && step_of[known - 1] == p) --known;
        buffered = known;
        return false;
      }
    }
    return true;
  };
  while (regular && end - p > 64 && limit - p >= 64 + 16) {
    if (buffered > kRunBlocksBuffer - 32) {
      if (!all_buffered_known()) {
        regular = false;
        break;
      }
      out.insert(out.end(), buffer, buffer + buffered);
      buffered = 0;
    }
    const std::uint8_t* const window = p;
    const std::uint64_t terminators = Avx2BlockOps::Terminators(window);
    // The window offset of the next value; a shape reads 16 bytes from it
    // (within the 64 + 16 readable) and looks at 12 of the window's bits.
    unsigned at = 0;
    while (at <= 64 - kShapeBytes) {
      const auto index =
          static_cast<unsigned>(terminators >> at) & ((1u << kShapeBytes) - 1);
      if (index != cached_index) [[unlikely]] {
        cached_index = index;
        cached_shape = kRunShapes.shapes[index];
        cached_gather = LoadShapeControl(kRunShapes.gather[index]);
      }
      const RunShape shape = cached_shape;
      if (shape.values != 0) {
        const __m128i bytes =
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(window + at));
        const auto is_tag = static_cast<unsigned>(
            _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, tags)));
        unsigned records = shape.values;
        unsigned consumed = shape.consumed;
        if (const unsigned other = shape.tags & ~is_tag; other != 0) {
          // Another field's tag: the records before it are the run's last
          // ones here, the record loop reads on from there.
          const unsigned own = shape.tags & ((other & (0u - other)) - 1);
          records = static_cast<unsigned>(std::popcount(own));
          consumed = static_cast<unsigned>(std::bit_width(own));
          regular = false;
        }
        const __m128i lanes = ShapeLanesAvx2(bytes, cached_gather);
        T* const dst = buffer + buffered;
        StoreShapeValues<K>(dst, lanes);
        if constexpr (kBitmapKeep) {
          // Its four lanes (the buffer has room for them).
          _mm256_storeu_si256(
              reinterpret_cast<__m256i*>(step_of + buffered),
              _mm256_set1_epi64x(reinterpret_cast<std::intptr_t>(window + at)));
        }
        if constexpr (!kBitmapKeep && !requires { Keep::kKeepsAll; }) {
          bool accepted = true;
          for (unsigned r = 0; r < records; ++r) {
            accepted &= keep.Accepts(dst[r]);
          }
          if (!accepted) {
            regular = false;  // the record loop asks keep, record by record
            break;
          }
        }
        buffered += records;
        at += consumed;
        if (!regular) break;
        continue;
      }
      // One record with a longer value (or ending past the shape's bytes):
      // the block step of DecodeRunBlocks.
      const std::uint64_t ahead = terminators >> at;
      const std::uint64_t after_value = ahead & (ahead - 1);
      if (after_value == 0) break;  // no whole record left in the window
      const auto length = static_cast<unsigned>(std::countr_zero(ahead)) + 1;
      const auto tag = static_cast<unsigned>(std::countr_zero(after_value));
      if (length > static_cast<unsigned>(kMaxVarintBytes) || tag != length ||
          window[at + tag] != tag_byte) {
        regular = false;
        break;
      }
      const T value = static_cast<T>(KindTraits<K>::Convert(
          DecodeKnownLength<Avx2BlockOps, kLow32Kind<K>>(window + at, length)));
      if constexpr (!kBitmapKeep && !requires { Keep::kKeepsAll; }) {
        if (!keep.Accepts(value)) {
          regular = false;
          break;
        }
      }
      if constexpr (kBitmapKeep) step_of[buffered] = window + at;
      buffer[buffered++] = value;
      at += tag + 1;
    }
    p = window + at;
    if (at == 0) break;
  }
  all_buffered_known();
  out.insert(out.end(), buffer, buffer + buffered);
  return p;
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_RUN_SHAPES_H_
