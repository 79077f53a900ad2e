// Runs of unpacked records of one repeated VARINT-kind field with a one-byte
// tag ([tag][varint][tag][varint]...), shared by the dynamic decoder and the
// typed bindings: a kernel takes the run while it is regular (AVX-512:
// run_avx512.h; portable and avx2: run_blocks.h), and a record loop does the
// rest, record by record.
#ifndef FAIRWIRE_WIRE_INTERNAL_VARINT_RUN_H_
#define FAIRWIRE_WIRE_INTERNAL_VARINT_RUN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/run_avx512.h"
#include "fairwire/wire/internal/run_blocks.h"
#include "fairwire/wire/internal/run_shapes.h"

namespace fairwire::wire::internal {

// The run kernel's check for fields that keep every value.
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
using AcceptAllRunCheck = avx512::AcceptAll;
#else
struct AcceptAllRunCheck {};
#endif

// The most elements ParseVarintRun adds to its output window at a time.
inline constexpr std::size_t kMaxRunChunk = 4096;

// The run kernel of the portable and avx2 levels: at avx2, the shape kernel
// (run_shapes.h) for the kinds it decodes and the keeps it can ask without a
// call (KeepAll, or Accepts), unless the run opens with a regular window
// (OpensRegularWindow: counters, ids, one enum value), which DecodeRunBlocks
// takes window by window with no lookup (GatherRegularWindowAvx2);
// DecodeRunBlocks otherwise. p has 64 + 16 bytes readable.
template <FieldKind K, typename Keep>
[[gnu::always_inline]] inline const std::uint8_t* DecodeRunAt(
    KernelLevel level, const std::uint8_t* p, const std::uint8_t* end,
    const std::uint8_t* limit, std::uint8_t tag_byte,
    std::vector<typename KindTraits<K>::Type>& out, const Keep& keep) {
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
  using T = typename KindTraits<K>::Type;
  if constexpr (kShapeKind<K> &&
                (
                    requires { Keep::kKeepsAll; } ||
                    requires(const Keep& k, T v) { k.Accepts(v); })) {
    if (level != KernelLevel::kPortable && !OpensRegularWindow(p, tag_byte)) {
      return DecodeRunShapesAvx2<K>(p, end, limit, tag_byte, out, keep);
    }
  }
#endif
  return DecodeRunBlocksAt<K>(level, p, end, limit, tag_byte, out, keep);
}

// ParseVarintRun on the portable and avx2 levels: the level's run kernel
// (DecodeRunAt) while 64 + 16 bytes remain, the record loop for the rest.
// Appends with push_back and the kernel's buffered inserts (no zero-filled
// window).
template <FieldKind K, typename Keep>
const std::uint8_t* ParseVarintRunBlocks(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& out,
    const Keep& keep, KernelLevel level) {
  using T = typename KindTraits<K>::Type;
  for (;;) {
    if (end - p >= 64 + 16) {
      p = DecodeRunAt<K>(level, p, end, ctx.limit, tag_byte, out, keep);
    }
    std::uint64_t raw;
    p = ReadRaw<WireType::kVarint>(ctx, p, end, &raw);
    if (p == nullptr) return nullptr;
    const T value = KindTraits<K>::Convert(raw);
    if (keep(value)) out.push_back(value);
    if (end - p < 2 || *p != tag_byte) return p;
    ++p;
  }
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// ParseVarintRun on the avx512 level, with a run check: the AVX-512 kernel
// takes the run while it is regular, the record loop the rest. A check with
// kChecks also checks the values it stored in bulk (AllKnown, exactly
// Accept's verdict) and is used through avx512::DecodeRunBulk. Values are
// stored through a raw pointer into a window of `out` that grows
// geometrically within the run up to kMaxRunChunk elements at a time (so at
// most twice the run plus 32 elements are zero-filled), trimmed on the way
// out.
template <FieldKind K, typename Keep, typename Check>
const std::uint8_t* ParseVarintRunAvx512(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& out,
    const Keep& keep, const Check& check) {
  using T = typename KindTraits<K>::Type;
  std::size_t chunk = 8;
  std::size_t used = out.size();
  out.resize(used + chunk);
  T* dst = out.data() + used;
  T* dst_end = out.data() + out.size();
  const auto grow = [&] {
    used = static_cast<std::size_t>(dst - out.data());
    // At most kMaxRunChunk at a time: the kernel then stores into lines
    // the zero-fill just brought into the cache.
    if (chunk < kMaxRunChunk) chunk *= 2;
    out.resize(used + chunk);
    dst = out.data() + used;
    dst_end = out.data() + out.size();
  };
  // Values kept since the last unknown one: the bulk check (a decode wasted
  // when a chunk holds an unknown) only after a clean stretch of a chunk.
  std::ptrdiff_t clean = avx512::kRunBulkSlots;
  const std::uint8_t* result;
  for (;;) {
    if (end - p >= 64) {
      while (dst_end - dst < avx512::kRunBlockSlots) grow();
      if constexpr (Check::kChecks) {
        // Checked in bulk after decoding where unknowns are rare; per
        // group of eight within a chunk's length of the last one.
        if (clean >= avx512::kRunBulkSlots) {
          if (!avx512::DecodeRunBulk<K>(&p, end, tag_byte, &dst, dst_end,
                                        check)) {
            clean = 0;
          }
        } else {
          T* const before = dst;
          avx512::DecodeRun<K>(&p, end, tag_byte, &dst, dst_end, check);
          clean += dst - before;
        }
      } else {
        avx512::DecodeRun<K>(&p, end, tag_byte, &dst, dst_end, check);
      }
    }
    std::uint64_t raw;
    p = ReadRaw<WireType::kVarint>(ctx, p, end, &raw);
    if (p == nullptr) {
      result = nullptr;
      break;
    }
    const T value = KindTraits<K>::Convert(raw);
    if (!keep(value)) {
      clean = 0;
    } else {
      if (dst == dst_end) [[unlikely]] {
        grow();
      }
      *dst++ = value;
    }
    if (end - p < 2 || *p != tag_byte) {
      result = p;
      break;
    }
    ++p;
  }
  out.resize(static_cast<std::size_t>(dst - out.data()));
  return result;
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX512_PATH

// Parses the run of records [tag_byte][varint] of kind K that starts with
// the value at p (its tag read), appending the values `keep` accepts to
// `out` (keep(value) returns false for a value it dealt with otherwise: a
// closed-enum value outside its enum), at the thread's kernel level
// (ActiveKernelLevel). At the avx512 level, ParseVarintRunAvx512 when
// `check` is non-null (it must accept exactly what keep accepts, or a prefix
// of it) and the run's first 64 bytes are not a regular window
// (OpensRegularWindow); ParseVarintRunBlocks at avx2 otherwise. A run that
// opens regular (counters, ids, one enum value) mostly keeps one value
// length, and the avx2 level takes its windows whole, with no compress per
// block: faster than the AVX-512 kernel on seed_int64 and seed_enum
// (core/bench/RESULTS.md), which is faster where value lengths vary.
// Every other level: ParseVarintRunBlocks. Returns past the run (at the
// next record with another tag), or nullptr on error.
template <FieldKind K, typename Keep, typename Check>
const std::uint8_t* ParseVarintRun(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& out,
    const Keep& keep, [[maybe_unused]] const Check* check) {
  const KernelLevel level = ActiveKernelLevel();
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  if (level == KernelLevel::kAvx512) {
    if (check != nullptr &&
        !(end - p >= 64 && OpensRegularWindow(p, tag_byte))) {
      return ParseVarintRunAvx512<K>(ctx, p, end, tag_byte, out, keep, *check);
    }
    return ParseVarintRunBlocks<K>(ctx, p, end, tag_byte, out, keep,
                                   KernelLevel::kAvx2);
  }
#endif
  return ParseVarintRunBlocks<K>(ctx, p, end, tag_byte, out, keep, level);
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_VARINT_RUN_H_
