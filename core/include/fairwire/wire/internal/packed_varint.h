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

// Decodes the packed payload [p, end) of a varint kind K, appending to out.
// Reserves once (one element per terminator byte), then decodes with
// `kernel` (which the CPU must support; tests pass each): AVX-512 eight
// elements at a time; avx2 by shapes (DecodePackedShapesAvx2), then in
// 64-byte blocks (DecodeVarintBlocks); portable in blocks; then the tail one
// by one.
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
  const std::size_t count =
      avx512 ? avx512::CountTerminators(p, end) : CountTerminators(p, end);
#else
  const std::size_t count = CountTerminators(p, end);
#endif
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
      ok = DecodePackedShapesAvx2<K, T>(&p, end, limit, &dst, dst_end);
    }
    ok = ok && DecodeVarintBlocksAvx2<K, T>(&p, end, limit, &dst);
  } else {
    ok = DecodeVarintBlocksPortable<K, T>(&p, end, limit, &dst);
  }
#else
  ok = DecodeVarintBlocksPortable<K, T>(&p, end, limit, &dst);
#endif
  for (; ok && dst != dst_end; ++dst) {
    std::uint64_t raw;
    const std::uint8_t* q = ReadPackedElement(p, limit, &raw);
    if (q == nullptr) {
      ok = false;
      break;
    }
    *dst = static_cast<T>(KindTraits<K>::Convert(raw));
    p = q;
  }
  if (!ok) {
    out.resize(old_size);
    return FailPackedVarint(ctx, p, end);
  }
  return p;
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_PACKED_VARINT_H_
