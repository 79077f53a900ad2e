// Packed payloads of the VARINT kinds: the entry point that picks the
// kernel of a level (AVX-512: varint_avx512.h; avx2: packed_shapes.h, then
// the blocks of parse.h; portable: the blocks) and finishes element by
// element, reporting the first bad element at its offset.
#ifndef FAIRWIRE_WIRE_INTERNAL_PACKED_VARINT_H_
#define FAIRWIRE_WIRE_INTERNAL_PACKED_VARINT_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/packed_shapes.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/varint_avx512.h"
#include "fairwire/wire/kernel_level.h"

namespace fairwire::wire::internal {

// Payloads of at least this many bytes are decoded by two cursors at once
// at the avx2 level (DecodePackedShapesTwiceAvx2).
inline constexpr std::ptrdiff_t kTwoCursorBytes = 1024;

// Decodes elements of kind K one at a time from *p into *dst until dst_end
// (the elements there end with a terminator before `limit`). Advances *p and
// *dst; false if an element is longer than 10 bytes (left at its start).
template <FieldKind K, typename T>
bool DecodePackedElements(const std::uint8_t** p, const std::uint8_t* limit,
                          T** dst, T* dst_end) {
  for (; *dst != dst_end; ++*dst) {
    std::uint64_t raw;
    const std::uint8_t* q = ReadPackedElement(*p, limit, &raw);
    if (q == nullptr) return false;
    **dst = static_cast<T>(KindTraits<K>::Convert(raw));
    *p = q;
  }
  return true;
}

// Decodes the packed payload [p, end) of a varint kind K, appending to out.
// Reserves once (one element per terminator byte), then decodes with
// `kernel` (which the CPU must support; tests pass each): AVX-512 eight
// elements at a time; avx2 by shapes (packed_shapes.h: two cursors over the
// two halves of a payload of kTwoCursorBytes or more), then in 64-byte
// blocks (DecodeVarintBlocks); portable in blocks; then the tail one by one.
template <FieldKind K, typename T>
const std::uint8_t* ParsePackedVarint(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::vector<T>& out,
    [[maybe_unused]] KernelLevel kernel = ActiveKernelLevel()) {
  if (p == end) return p;
  if (end[-1] >= 0x80) return FailPackedVarint(ctx, p, end);
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  constexpr bool kVectorType = std::is_same_v<T, typename KindTraits<K>::Type>;
  const bool avx512 = kVectorType && kernel == KernelLevel::kAvx512;
#endif
  const std::size_t count = [&] {
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
    if (avx512) return avx512::CountTerminators(p, end);
#endif
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
    if (kernel != KernelLevel::kPortable) return CountTerminatorsAvx2(p, end);
#endif
    return CountTerminators(p, end);
  }();
  const std::size_t old_size = out.size();
  out.resize(old_size + count);
  T* dst = out.data() + old_size;
  T* const dst_end = dst + count;
  const std::uint8_t* const limit = ctx.limit;
  bool ok;
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  if constexpr (kVectorType) {
    // Stops early only before an element too long, which the kernels
    // below then find and report.
    if (avx512) avx512::DecodeVarints<K>(&p, end, &dst);
  }
#endif
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
  if (kernel != KernelLevel::kPortable) {
    ok = true;
    if constexpr (kShapeKind<K> &&
                  sizeof(T) == sizeof(typename KindTraits<K>::Type)) {
      if (end - p >= kTwoCursorBytes) {
        // Two halves, split at an element's start, decoded at once; the
        // first is finished before the second goes on.
        const std::uint8_t* mid = p + (end - p) / 2;
        while (mid[-1] >= 0x80) ++mid;  // end[-1] < 0x80: mid <= end
        T* const dst_mid = dst + CountTerminatorsAvx2(p, mid);
        PackedShapeCursor<K, T> first{p, mid, limit, dst, dst_mid};
        PackedShapeCursor<K, T> second{mid, end, limit, dst_mid, dst_end};
        DecodePackedShapesTwiceAvx2(&first, &second);
        p = first.Position();
        dst = first.dst;
        ok = first.ok && DecodeVarintBlocksAvx2<K, T>(&p, mid, limit, &dst) &&
             DecodePackedElements<K>(&p, limit, &dst, dst_mid);
        if (ok) {
          p = second.Position();
          dst = second.dst;
          ok = second.ok;
        }
      } else {
        ok = DecodePackedShapesAvx2<K, T>(&p, end, limit, &dst, dst_end);
      }
    }
    ok = ok && DecodeVarintBlocksAvx2<K, T>(&p, end, limit, &dst);
  } else {
    ok = DecodeVarintBlocksPortable<K, T>(&p, end, limit, &dst);
  }
#else
  ok = DecodeVarintBlocksPortable<K, T>(&p, end, limit, &dst);
#endif
  ok = ok && DecodePackedElements<K>(&p, limit, &dst, dst_end);
  if (!ok) {
    out.resize(old_size);
    return FailPackedVarint(ctx, p, end);
  }
  return p;
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_PACKED_VARINT_H_
