// The record-run kernel of the portable and avx2 levels: runs of unpacked
// [tag][varint] records of one repeated field with a one-byte tag, 64 bytes
// at a time. One terminator bitmap per block (bytes below 0x80; avx2: two
// vpmovmskb) marks where every tag and every value ends, since a one-byte
// tag is itself a terminator: the terminators alternate value end, tag, value
// end, tag... So a value's length comes from two bit scans instead of a
// branch per byte, and DecodeKnownLength decodes it without branches (avx2:
// one pext), as the packed block decoder does (DecodeVarintBlocks). The same
// bitmap design as the packed decoders, applied to the unpacked run.
//
// A value is taken only with the run's tag right after it, so the kernel
// always stops at the start of a value (whose tag it read): the record loop
// of ParseVarintRun reads that value one record at a time, and finds there
// the run's end, an overlong varint, or the input's.
#ifndef FAIRWIRE_WIRE_INTERNAL_RUN_BLOCKS_H_
#define FAIRWIRE_WIRE_INTERNAL_RUN_BLOCKS_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire::internal {

// Values buffered on the stack between appends to the output vector (no
// zero-fill of the output, one append per few blocks).
inline constexpr std::size_t kRunBlocksBuffer = 256;

// Takes the records of the run from the value at p (its tag read) while
// more than 64 bytes of the run's input remain from p and 80 of the whole input
// (`limit`); appends the values `keep` accepts to out (keep(value) false: a
// value it dealt with otherwise). A keep with Accepts(value) (a test without
// calls) is asked that instead, and a value it refuses stops the kernel. Each
// window of 64 bytes starts at a value: its bitmap's terminators pair up as
// (value end, tag), and a record is taken while its pair is whole, its value at
// most 10 bytes and its tag the run's at the byte after the value. Returns the
// start of the first value not taken.
template <FieldKind K, typename Ops, typename Keep>
inline const std::uint8_t* DecodeRunBlocks(
    const std::uint8_t* p, const std::uint8_t* end, const std::uint8_t* limit,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& out,
    const Keep& keep) {
  using T = typename KindTraits<K>::Type;
  T buffer[kRunBlocksBuffer];
  std::size_t buffered = 0;
  bool regular = true;
  // More than 64 bytes of the run from the window: a tag in the window has
  // a byte after it in the run (the record loop's condition to go on).
  while (regular && end - p > 64 && limit - p >= 64 + 16) {
    const std::uint8_t* const window = p;
    std::uint64_t mask = Ops::Terminators(window);
    // A window holds at most 32 whole records.
    if (buffered > kRunBlocksBuffer - 32) {
      out.insert(out.end(), buffer, buffer + buffered);
      buffered = 0;
    }
    for (;;) {
      const std::uint64_t after_value = mask & (mask - 1);
      if (after_value == 0) break;  // no whole record left in the window
      const std::uint8_t* value_end = window + std::countr_zero(mask);
      const std::uint8_t* tag = window + std::countr_zero(after_value);
      mask = after_value & (after_value - 1);
      const auto length = static_cast<std::size_t>(value_end - p) + 1;
      if (length > static_cast<std::size_t>(kMaxVarintBytes) ||
          tag != value_end + 1 || *tag != tag_byte) {
        regular = false;  // the record loop reads this one
        break;
      }
      const T value = static_cast<T>(KindTraits<K>::Convert(
          DecodeKnownLength<Ops, kLow32Kind<K>>(p, length)));
      if constexpr (requires { keep.Accepts(value); }) {
        if (!keep.Accepts(value)) {
          regular = false;  // the record loop asks keep about it
          break;
        }
        buffer[buffered++] = value;
      } else {
        if (keep(value)) buffer[buffered++] = value;
      }
      p = tag + 1;
    }
    if (p == window) break;
  }
  out.insert(out.end(), buffer, buffer + buffered);
  return p;
}

template <FieldKind K, typename Keep>
const std::uint8_t* DecodeRunBlocksPortable(
    const std::uint8_t* p, const std::uint8_t* end, const std::uint8_t* limit,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& out,
    const Keep& keep) {
  return DecodeRunBlocks<K, PortableBlockOps>(p, end, limit, tag_byte, out,
                                              keep);
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
template <FieldKind K, typename Keep>
[[FAIRWIRE_AVX2_TARGET, gnu::flatten]] const std::uint8_t* DecodeRunBlocksAvx2(
    const std::uint8_t* p, const std::uint8_t* end, const std::uint8_t* limit,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& out,
    const Keep& keep) {
  return DecodeRunBlocks<K, Avx2BlockOps>(p, end, limit, tag_byte, out, keep);
}
#endif

// DecodeRunBlocks at `level` (portable or avx2; the CPU must support it).
template <FieldKind K, typename Keep>
[[gnu::always_inline]] inline const std::uint8_t* DecodeRunBlocksAt(
    KernelLevel level, const std::uint8_t* p, const std::uint8_t* end,
    const std::uint8_t* limit, std::uint8_t tag_byte,
    std::vector<typename KindTraits<K>::Type>& out, const Keep& keep) {
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
  if (level != KernelLevel::kPortable) {
    return DecodeRunBlocksAvx2<K>(p, end, limit, tag_byte, out, keep);
  }
#endif
  (void)level;
  return DecodeRunBlocksPortable<K>(p, end, limit, tag_byte, out, keep);
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_RUN_BLOCKS_H_
