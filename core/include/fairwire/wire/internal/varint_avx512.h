// The AVX-512 (VBMI2) kernel for packed varints: eight elements per step.
// The payload is read in 64-byte blocks; a block's terminator bitmap (bytes
// below 0x80) gives, by vpcompressb, the end of every element that ends in
// it, and so every start. For each group of eight elements, vpermi2b places
// each element's bytes in its own 64-bit lane, reading from the previous and
// the current block (an element may start up to nine bytes before the
// block); vpmaddubsw/vpmaddwd then gather the 7-bit groups. Nothing in a
// block depends on decoding the one before (only on its bitmap), so the
// loop has no long dependency chain, unlike the one-element-at-a-time scalar
// kernels (about 5 cycles per element there).
// Dispatched once per process on __builtin_cpu_supports; the BMI2 and
// portable kernels stay for other CPUs.
#ifndef FAIRWIRE_WIRE_INTERNAL_VARINT_AVX512_H_
#define FAIRWIRE_WIRE_INTERNAL_VARINT_AVX512_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "fairwire/wire/internal/kinds.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FAIRWIRE_WIRE_HAVE_AVX512_PATH 1
// Every function of the kernel carries this target (the build has no -march).
#define FAIRWIRE_AVX512_TARGET                                     \
  gnu::target(                                                     \
      "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2," \
      "popcnt,lzcnt")
#endif

// Around the code of every AVX-512 header: g++ 12 warns inside its own
// intrinsics (their `__m512i __Y = __Y;` placeholder for don't-care lanes)
// once they are inlined into ours.
#if defined(__GNUC__) && !defined(__clang__)
#define FAIRWIRE_AVX512_WARNINGS_PUSH \
  _Pragma("GCC diagnostic push")      \
      _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#define FAIRWIRE_AVX512_WARNINGS_POP _Pragma("GCC diagnostic pop")
#else
#define FAIRWIRE_AVX512_WARNINGS_PUSH
#define FAIRWIRE_AVX512_WARNINGS_POP
#endif

FAIRWIRE_AVX512_WARNINGS_PUSH

namespace fairwire::wire::internal {

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH

// True if the CPU (and OS) support everything the kernel uses (checked once).
inline bool CpuHasAvx512Varint() {
  static const bool has = __builtin_cpu_supports("avx512f") != 0 &&
                          __builtin_cpu_supports("avx512bw") != 0 &&
                          __builtin_cpu_supports("avx512vl") != 0 &&
                          __builtin_cpu_supports("avx512vbmi") != 0 &&
                          __builtin_cpu_supports("avx512vbmi2") != 0 &&
                          __builtin_cpu_supports("bmi2") != 0 &&
                          __builtin_cpu_supports("popcnt") != 0;
  return has;
}

namespace avx512 {

// The terminator bitmap of 64 bytes: bit i set where byte i is below 0x80.
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline std::uint64_t
TerminatorMask(__m512i bytes) {
  return ~static_cast<std::uint64_t>(_mm512_movepi8_mask(bytes));
}

// The number of bytes below 0x80 in [p, end), 64 at a time (a masked load
// for the last block: nothing past `end` is read).
[[FAIRWIRE_AVX512_TARGET]] inline std::size_t CountTerminators(
    const std::uint8_t* p, const std::uint8_t* end) {
  std::size_t count = 0;
  for (; end - p >= 64; p += 64) {
    count += static_cast<std::size_t>(
        _mm_popcnt_u64(TerminatorMask(_mm512_loadu_si512(p))));
  }
  if (p != end) {
    const std::uint64_t valid =
        _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(end - p));
    const __m512i bytes = _mm512_maskz_loadu_epi8(valid, p);
    count +=
        static_cast<std::size_t>(_mm_popcnt_u64(TerminatorMask(bytes) & valid));
  }
  return count;
}

// 8 x 64-bit lanes of bytes (continuation bits included, bytes past each
// element zero) to the values of their 7-bit groups, low byte first (the
// low 56 bits of each lane).
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline __m512i GatherGroups(
    __m512i bytes) {
  bytes = _mm512_and_si512(bytes, _mm512_set1_epi8(0x7F));
  // Byte pairs to 14 bits: b0 * 1 + b1 * 128. vpmaddubsw multiplies unsigned
  // by signed bytes: the multipliers (1, 128) are the unsigned side, the
  // data (0..127) the signed one. 0x8001 as int16 is -32767.
  const __m512i pairs = _mm512_maddubs_epi16(_mm512_set1_epi16(-32767), bytes);
  // 14-bit pairs to 28 bits: p0 + p1 * 2^14.
  const __m512i quads = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x40000001));
  // 28-bit halves to 56 bits: the low half where the mask is set, the high
  // half shifted down by 4 (to bit 28) elsewhere.
  return _mm512_ternarylogic_epi64(quads, _mm512_srli_epi64(quads, 4),
                                   _mm512_set1_epi64(0x0FFFFFFF), 0xE4);
}

// Zigzag decoding of 64-bit lanes: (v >> 1) ^ -(v & 1).
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline __m512i ZigZagDecode(
    __m512i v) {
  return _mm512_xor_si512(
      _mm512_srli_epi64(v, 1),
      _mm512_sub_epi64(_mm512_setzero_si512(),
                       _mm512_and_si512(v, _mm512_set1_epi64(1))));
}

// Converts 8 raw values to kind K and stores the first `lanes` (mask) at dst.
template <FieldKind K, typename T>
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline void Store(T* dst,
                                                                 __mmask8 lanes,
                                                                 __m512i raw) {
  static_assert(std::is_same_v<T, typename KindTraits<K>::Type>);
  if constexpr (K == FieldKind::kBool) {
    const __mmask8 nonzero = _mm512_test_epi64_mask(raw, raw);
    _mm_mask_storeu_epi8(dst, lanes, _mm_maskz_set1_epi8(nonzero, 1));
  } else if constexpr (sizeof(T) == 4) {
    if constexpr (K == FieldKind::kSint32) {
      // sint32 truncates to 32 bits first; the zigzag of the zero-extended
      // value has the right low 32 bits.
      raw = ZigZagDecode(_mm512_and_si512(raw, _mm512_set1_epi64(0xFFFFFFFF)));
    }
    _mm256_mask_storeu_epi32(dst, lanes, _mm512_cvtepi64_epi32(raw));
  } else {
    if constexpr (K == FieldKind::kSint64) raw = ZigZagDecode(raw);
    _mm512_mask_storeu_epi64(dst, lanes, raw);
  }
}

// Constant position tables: lane j's eight bytes equal to j, and bytes
// first, first + 1, ... in order.
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline __m512i Broadcast8() {
  return _mm512_set_epi64(0x0707070707070707, 0x0606060606060606,
                          0x0505050505050505, 0x0404040404040404,
                          0x0303030303030303, 0x0202020202020202,
                          0x0101010101010101, 0x0000000000000000);
}
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline __m512i Iota64(
    char first) {
  alignas(64) char bytes[64];
  for (int i = 0; i < 64; ++i) bytes[i] = static_cast<char>(first + i);
  return _mm512_load_si512(bytes);
}

// The elements that end in a block, as positions in the 128-byte window
// prev|cur (cur at 64..127): ends[k] is element k's last byte (from the
// terminator bitmap), starts[k] its first (`carry` for k = 0, the byte
// after ends[k - 1] for the others).
struct Bounds {
  __m512i starts;
  __m512i ends;
};
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline Bounds FindBounds(
    std::uint64_t ends_mask, unsigned carry) {
  const __m512i ends = _mm512_maskz_compress_epi8(ends_mask, Iota64(64));
  const __m512i shifted = _mm512_permutexvar_epi8(Iota64(-1), ends);
  const __m512i starts =
      _mm512_mask_set1_epi8(_mm512_add_epi8(shifted, _mm512_set1_epi8(1)), 1,
                            static_cast<char>(carry));
  return {starts, ends};
}

// Decodes elements first .. first + 7 of `b` (positions in prev|cur, each
// at most ten bytes) into 64-bit lanes. `long_ones`: some of them are
// longer than eight bytes (the ninth and tenth bytes are then read too;
// kinds that keep only 32 bits never need them).
template <FieldKind K>
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline __m512i DecodeGroup(
    __m512i prev, __m512i cur, const Bounds& b, unsigned first,
    bool long_ones) {
  const __m512i select =
      _mm512_add_epi8(Broadcast8(), _mm512_set1_epi8(static_cast<char>(first)));
  const __m512i lane_start = _mm512_permutexvar_epi8(select, b.starts);
  const __m512i lane_end = _mm512_permutexvar_epi8(select, b.ends);
  const __m512i at =
      _mm512_add_epi8(lane_start, _mm512_set1_epi64(0x0706050403020100));
  const __mmask64 keep = _mm512_cmple_epu8_mask(at, lane_end);
  __m512i value =
      GatherGroups(_mm512_maskz_permutex2var_epi8(keep, prev, at, cur));
  // Bytes 9 and 10 (the tenth: only its low bit counts).
  if constexpr (sizeof(typename KindTraits<K>::Type) == 8 ||
                K == FieldKind::kBool) {
    if (long_ones) {
      const __m512i at_high = _mm512_add_epi8(at, _mm512_set1_epi8(8));
      const __mmask64 keep_high =
          _mm512_cmple_epu8_mask(at_high, lane_end) & 0x0303030303030303ull;
      const __m512i high = _mm512_and_si512(
          _mm512_maskz_permutex2var_epi8(keep_high, prev, at_high, cur),
          _mm512_set1_epi8(0x7F));
      const __m512i pair =
          _mm512_maddubs_epi16(_mm512_set1_epi16(-32767), high);
      value = _mm512_or_si512(value, _mm512_slli_epi64(pair, 56));
    }
  }
  return value;
}

// Decodes the elements that end in one 64-byte block `cur` (terminator
// bitmap `ends_mask`), `prev` being the 64 bytes before it (zero before the
// first block). *carry is the window position of the first element not yet
// decoded. Advances *dst. Returns false, with *carry at its start, before
// an element longer than ten bytes (or when the block has no terminator:
// the element is longer than 64 bytes).
template <FieldKind K, typename T>
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline bool DecodeBlock(
    __m512i prev, __m512i cur, std::uint64_t ends_mask, unsigned* carry,
    T** dst) {
  if (ends_mask == 0) return false;
  const auto count = static_cast<unsigned>(_mm_popcnt_u64(ends_mask));
  const Bounds b = FindBounds(ends_mask, *carry);
  const std::uint64_t live = _bzhi_u64(~std::uint64_t{0}, count);
  const __m512i spans = _mm512_sub_epi8(b.ends, b.starts);  // length - 1
  const std::uint64_t too_long =
      _mm512_cmpgt_epu8_mask(spans, _mm512_set1_epi8(9)) & live;
  const unsigned good =
      too_long != 0 ? static_cast<unsigned>(_tzcnt_u64(too_long)) : count;
  const std::uint64_t over_eight =
      _mm512_cmpgt_epu8_mask(spans, _mm512_set1_epi8(7)) & live;
  T* out = *dst;
  for (unsigned first = 0; first < good; first += 8) {
    const __m512i value = DecodeGroup<K>(prev, cur, b, first,
                                         ((over_eight >> first) & 0xFF) != 0);
    const unsigned lanes = good - first < 8 ? good - first : 8;
    Store<K>(out, static_cast<__mmask8>(_bzhi_u32(0xFF, lanes)), value);
    out += lanes;
  }
  *dst = out;
  if (good != count) {
    // The start of element `good`: one past the end of element good - 1.
    if (good != 0) {
      const std::uint64_t last =
          _pdep_u64(std::uint64_t{1} << (good - 1), ends_mask);
      *carry = 64 + static_cast<unsigned>(_tzcnt_u64(last)) + 1;
    }
    return false;
  }
  // The next block's window starts 64 bytes later.
  *carry = 64 - static_cast<unsigned>(_lzcnt_u64(ends_mask));
  return true;
}

// Decodes the packed varint payload [*p, end) of kind K (end[-1] below 0x80,
// *p at an element start) into *dst (room for every element), advancing
// both. Stops early only before an element longer than ten bytes, leaving
// it to the scalar kernels (which report it). Reads nothing outside
// [*p, end).
template <FieldKind K, typename T>
[[FAIRWIRE_AVX512_TARGET, gnu::flatten]] void DecodeVarints(
    const std::uint8_t** p, const std::uint8_t* end, T** dst) {
  const std::uint8_t* block = *p;
  __m512i prev = _mm512_setzero_si512();
  unsigned carry = 64;
  bool ok = true;
  for (; end - block >= 64; block += 64) {
    const __m512i cur = _mm512_loadu_si512(block);
    ok = DecodeBlock<K>(prev, cur, TerminatorMask(cur), &carry, dst);
    if (!ok) break;
    prev = cur;
  }
  if (ok && block != end) {
    const std::uint64_t valid =
        _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(end - block));
    const __m512i cur = _mm512_maskz_loadu_epi8(valid, block);
    ok = DecodeBlock<K>(prev, cur, TerminatorMask(cur) & valid, &carry, dst);
    if (ok) block += 64;
  }
  *p = block - 64 + carry;
}

}  // namespace avx512

#endif  // FAIRWIRE_WIRE_HAVE_AVX512_PATH

}  // namespace fairwire::wire::internal

FAIRWIRE_AVX512_WARNINGS_POP

#endif  // FAIRWIRE_WIRE_INTERNAL_VARINT_AVX512_H_
