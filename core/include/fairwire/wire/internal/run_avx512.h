// The AVX-512 kernel for runs of unpacked records of one repeated VARINT
// field with a one-byte tag: [tag][varint][tag][varint]... A one-byte tag
// is itself a varint terminator, so the run is a varint stream whose odd
// elements (counting from a value) must all be that byte: the packed
// kernel's block machinery (varint_avx512.h) finds every element in a
// 64-byte block, compresses the values' and the tags' positions apart,
// checks all the block's tags at once, and decodes the values eight per
// step (sixteen for 32-bit kinds when nothing is checked per group: the
// first pass of DecodeRunBulk, and every run of an int32, uint32 or sint32
// field).
// It accepts a prefix of the run and leaves the rest (another field, a
// value too long or truncated, a closed-enum value the check rejects) to
// the scalar loop, which reports errors exactly as before.
#ifndef FAIRWIRE_WIRE_INTERNAL_RUN_AVX512_H_
#define FAIRWIRE_WIRE_INTERNAL_RUN_AVX512_H_

#include <cstddef>
#include <cstdint>

#include "fairwire/wire/internal/varint_avx512.h"

FAIRWIRE_AVX512_WARNINGS_PUSH

namespace fairwire::wire::internal {

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
namespace avx512 {

// A run check that accepts every value (kinds other than closed enums).
// A check has a State made once per run (Start) and Accept(state, raw,
// lanes): how many of the first `lanes` raw values (64-bit lanes, before
// conversion) lead before the first rejected one. It works on the register:
// reading back the values just stored (a masked store) would stall on
// store forwarding.
struct AcceptAll {
  static constexpr bool kChecks = false;
  struct State {};
  State Start() const { return {}; }
  [[FAIRWIRE_AVX512_TARGET]] unsigned Accept(const State&, __m512i,
                                             unsigned lanes) const {
    return lanes;
  }
};

// The window position of the last byte of the element that ends at the
// k-th (from 0) set bit of a block's terminator bitmap.
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline unsigned EndOf(
    std::uint64_t ends_mask, unsigned k) {
  return 64 + static_cast<unsigned>(
                  _tzcnt_u64(_pdep_u64(std::uint64_t{1} << k, ends_mask)));
}

// The slots DecodeRun needs free at dst per block (32 records of 2 bytes).
inline constexpr std::ptrdiff_t kRunBlockSlots = 32;

// Converts 8 raw values to kind K and stores all eight at dst, whatever
// number of them are values: a group starts at most 24 slots into a block's
// kRunBlockSlots, so the slots past the values are free ones, overwritten
// later or trimmed. (Store's masked down-converting store, vpmovqd to
// memory, is slow on AMD Zen 4; a lane permute and a plain store are not.)
template <FieldKind K, typename T>
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline void StoreGroup(
    T* dst, __m512i raw) {
  if constexpr (K == FieldKind::kBool) {
    Store<K>(dst, 0xFF, raw);
  } else if constexpr (sizeof(T) == 4) {
    if constexpr (K == FieldKind::kSint32) {
      raw = ZigZagDecode(_mm512_and_si512(raw, _mm512_set1_epi64(0xFFFFFFFF)));
    }
    const __m512i low_dwords = _mm512_permutexvar_epi32(
        _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 14, 12, 10, 8, 6, 4, 2, 0),
        raw);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst),
                        _mm512_castsi512_si256(low_dwords));
  } else {
    if constexpr (K == FieldKind::kSint64) raw = ZigZagDecode(raw);
    _mm512_storeu_si512(dst, raw);
  }
}

// Decodes elements first .. first + 15 of `b` (positions in prev|cur) of a
// 32-bit kind K into 32-bit lanes: the low 32 bits of each value, which
// come from its first five bytes (four 7-bit groups, then four bits of the
// fifth), converted to K. Twice the lanes of DecodeGroup per shuffle.
template <FieldKind K>
[[FAIRWIRE_AVX512_TARGET, gnu::always_inline]] inline __m512i DecodeGroup32(
    __m512i prev, __m512i cur, const Bounds& b, unsigned first) {
  // Lane j's four bytes select element first + j.
  const __m512i select = _mm512_add_epi8(
      _mm512_set_epi32(0x0F0F0F0F, 0x0E0E0E0E, 0x0D0D0D0D, 0x0C0C0C0C,
                       0x0B0B0B0B, 0x0A0A0A0A, 0x09090909, 0x08080808,
                       0x07070707, 0x06060606, 0x05050505, 0x04040404,
                       0x03030303, 0x02020202, 0x01010101, 0x00000000),
      _mm512_set1_epi8(static_cast<char>(first)));
  const __m512i lane_start = _mm512_permutexvar_epi8(select, b.starts);
  const __m512i lane_end = _mm512_permutexvar_epi8(select, b.ends);
  const __m512i at = _mm512_add_epi8(lane_start, _mm512_set1_epi32(0x03020100));
  const __mmask64 keep = _mm512_cmple_epu8_mask(at, lane_end);
  const __m512i bytes =
      _mm512_and_si512(_mm512_maskz_permutex2var_epi8(keep, prev, at, cur),
                       _mm512_set1_epi8(0x7F));
  // Byte pairs to 14 bits, then to 28 (as in GatherGroups).
  const __m512i pairs = _mm512_maddubs_epi16(_mm512_set1_epi16(-32767), bytes);
  __m512i value = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x40000001));
  // The fifth byte (in each lane's low byte) gives bits 28..31.
  const __m512i at_fifth = _mm512_add_epi8(lane_start, _mm512_set1_epi8(4));
  const __mmask64 keep_fifth =
      _mm512_cmple_epu8_mask(at_fifth, lane_end) & 0x1111111111111111ull;
  const __m512i fifth =
      _mm512_maskz_permutex2var_epi8(keep_fifth, prev, at_fifth, cur);
  value = _mm512_or_si512(value, _mm512_slli_epi32(fifth, 28));
  if constexpr (K == FieldKind::kSint32) {
    value = _mm512_xor_si512(
        _mm512_srli_epi32(value, 1),
        _mm512_sub_epi32(_mm512_setzero_si512(),
                         _mm512_and_si512(value, _mm512_set1_epi32(1))));
  }
  return value;
}

// Decodes a run of records [tag_byte][varint] of kind K, *p at a value
// (its tag already read). Accepts a record pair (a value, then the next
// record's tag) when the value is at most ten bytes, `check` accepts it
// (see AcceptAll) and the next tag is the one byte tag_byte with a byte after
// it. Stops before the first pair it does not accept, or when fewer than
// kRunBlockSlots slots are left before dst_end. Advances *p (to the value
// of the next record) and *dst. Reads nothing outside [*p, end).
template <FieldKind K, typename T, typename Check>
[[FAIRWIRE_AVX512_TARGET, gnu::flatten]] void DecodeRun(const std::uint8_t** p,
                                                        const std::uint8_t* end,
                                                        std::uint8_t tag_byte,
                                                        T** dst, T* dst_end,
                                                        const Check& check) {
  const std::uint8_t* block = *p;
  __m512i prev = _mm512_setzero_si512();
  // Window positions (prev|cur) of the next value's first byte, and, when
  // that value ended in the previous block, of its last byte.
  unsigned carry = 64;
  bool pending = false;
  unsigned pending_end = 0;
  const __m512i tag = _mm512_set1_epi8(static_cast<char>(tag_byte));
  T* out = *dst;
  const typename Check::State check_state = check.Start();
  while (block < end && dst_end - out >= kRunBlockSlots) {
    const auto readable = static_cast<std::size_t>(end - block);
    const std::uint64_t valid =
        readable >= 64
            ? ~std::uint64_t{0}
            : _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(readable));
    const __m512i cur = readable >= 64 ? _mm512_loadu_si512(block)
                                       : _mm512_maskz_loadu_epi8(valid, block);
    const std::uint64_t ends_mask = TerminatorMask(cur) & valid;
    const unsigned count =
        static_cast<unsigned>(_mm_popcnt_u64(ends_mask)) + (pending ? 1 : 0);
    const unsigned pairs = count / 2;
    if (pairs == 0) break;
    // Element 0 is a value; with `pending` it ended in prev.
    Bounds all = FindBounds(ends_mask, carry);
    if (pending) {
      const __m512i up = Iota64(-1);
      all.ends = _mm512_mask_set1_epi8(_mm512_permutexvar_epi8(up, all.ends), 1,
                                       static_cast<char>(pending_end));
      all.starts = _mm512_mask_set1_epi8(
          _mm512_add_epi8(_mm512_permutexvar_epi8(up, all.ends),
                          _mm512_set1_epi8(1)),
          1, static_cast<char>(carry));
    }
    const std::uint64_t live = _bzhi_u64(~std::uint64_t{0}, 2 * pairs);
    const std::uint64_t evens = 0x5555555555555555ull & live;
    const std::uint64_t odds = 0xAAAAAAAAAAAAAAAAull & live;
    const Bounds values = {_mm512_maskz_compress_epi8(evens, all.starts),
                           _mm512_maskz_compress_epi8(evens, all.ends)};
    const __m512i tag_starts = _mm512_maskz_compress_epi8(odds, all.starts);
    const __m512i tag_ends = _mm512_maskz_compress_epi8(odds, all.ends);
    const __m512i tag_bytes = _mm512_permutex2var_epi8(prev, tag_starts, cur);
    // A tag needs a byte after it (the scalar loop's rule): its window
    // position at most that of end - 2.
    const std::size_t window_end = readable + 64;  // end's window position
    const auto last_tag =
        static_cast<char>(window_end - 2 < 255 ? window_end - 2 : 255);
    const __m512i spans = _mm512_sub_epi8(values.ends, values.starts);
    const std::uint64_t pair_ok =
        _mm512_cmpeq_epi8_mask(tag_starts, tag_ends) &
        _mm512_cmpeq_epi8_mask(tag_bytes, tag) &
        _mm512_cmple_epu8_mask(tag_ends, _mm512_set1_epi8(last_tag)) &
        _mm512_cmple_epu8_mask(spans, _mm512_set1_epi8(9));
    const std::uint64_t pair_live = _bzhi_u64(~std::uint64_t{0}, pairs);
    const std::uint64_t bad = ~pair_ok & pair_live;
    unsigned good = bad != 0 ? static_cast<unsigned>(_tzcnt_u64(bad)) : pairs;
    const std::uint64_t over_eight =
        _mm512_cmpgt_epu8_mask(spans, _mm512_set1_epi8(7));
    // Without a check, 32-bit kinds decode sixteen values per group (a
    // group starts at most 16 slots into the block's kRunBlockSlots).
    constexpr bool kSixteen =
        !Check::kChecks && sizeof(T) == 4 && K != FieldKind::kBool;
    for (unsigned first = 0; kSixteen && first < good; first += 16) {
      _mm512_storeu_si512(out, DecodeGroup32<K>(prev, cur, values, first));
      out += good - first < 16 ? good - first : 16;
    }
    for (unsigned first = 0; !kSixteen && first < good; first += 8) {
      const __m512i value = DecodeGroup<K>(prev, cur, values, first,
                                           ((over_eight >> first) & 0xFF) != 0);
      unsigned lanes = good - first < 8 ? good - first : 8;
      if constexpr (Check::kChecks) {
        const unsigned accepted = check.Accept(check_state, value, lanes);
        if (accepted != lanes) {
          good = first + accepted;
          lanes = accepted;
        }
      }
      StoreGroup<K>(out, value);
      out += lanes;
    }
    const unsigned skip = pending ? 1 : 0;  // elements before ends_mask's
    if (good != pairs) {
      // Stop before value `good` (element 2 * good).
      if (good != 0) carry = EndOf(ends_mask, 2 * good - 1 - skip) + 1;
      *p = block - 64 + carry;
      *dst = out;
      return;
    }
    // The next value: element 2 * pairs, maybe already ended (odd count).
    carry = EndOf(ends_mask, 2 * pairs - 1 - skip) + 1 - 64;
    pending = (count & 1) != 0;
    if (pending) pending_end = EndOf(ends_mask, 2 * pairs - skip) - 64;
    prev = cur;
    block += 64;
  }
  *p = block - 64 + carry;
  *dst = out;
}

// The most slots DecodeRunBulk decodes before checking them.
inline constexpr std::ptrdiff_t kRunBulkSlots = 1024;

// DecodeRun for a check with kChecks that also checks stored values in bulk
// (check.AllKnown(values, count)): decodes up to min(dst_end, *dst +
// kRunBulkSlots) accepting every value, then checks what it stored, sixteen
// values at a time; if some value is unknown, decodes the same records again
// with the check per group of eight, so the result is exactly DecodeRun's
// with `check`. Returns false if it had to decode again.
template <FieldKind K, typename T, typename Check>
[[FAIRWIRE_AVX512_TARGET]] bool DecodeRunBulk(const std::uint8_t** p,
                                              const std::uint8_t* end,
                                              std::uint8_t tag_byte, T** dst,
                                              T* dst_end, const Check& check) {
  const std::uint8_t* const first = *p;
  T* const out = *dst;
  T* const limit =
      dst_end - out > kRunBulkSlots ? out + kRunBulkSlots : dst_end;
  DecodeRun<K>(p, end, tag_byte, dst, limit, AcceptAll{});
  if (check.AllKnown(out, static_cast<std::size_t>(*dst - out))) return true;
  *p = first;
  *dst = out;
  DecodeRun<K>(p, end, tag_byte, dst, limit, check);
  return false;
}

}  // namespace avx512
#endif  // FAIRWIRE_WIRE_HAVE_AVX512_PATH

}  // namespace fairwire::wire::internal

FAIRWIRE_AVX512_WARNINGS_POP

#endif  // FAIRWIRE_WIRE_INTERNAL_RUN_AVX512_H_
