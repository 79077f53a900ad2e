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
// A window whose records all have the length L of the last one taken (a
// regular window: a run of counters, ids or one enum value) skips the bitmap.
// Its bytes follow a pattern of period L + 1 (continuation bits, terminator,
// tag), checked eight bytes at a time; then each record's value is gathered
// for its known length, with no branch per record, and a keep with Accepts is
// asked only about values other than the last it accepted. A window that
// breaks the pattern goes to the bitmap. That is the portable level's fast
// path (without it a record costs two bit scans, a table lookup and a full
// 7-bit gather); for int32, uint32 and enum values of up to three bytes it
// takes two records per 8-byte load, checking their bytes and joining their
// values on that one word (GatherPairedRegularWindow). At the avx2 level (runs
// that open with a regular window, and keeps that make calls) a regular window
// of values of up to four bytes is gathered four values per shuffle
// (GatherRegularWindowAvx2), and a closed enum's values are compared with the
// last accepted one in the vector lanes. In a window that is not regular,
// the portable level takes int32 and uint32 records of values of up to four
// bytes two at a time from the bitmap (TakeRecordPairs), one branch and one
// join a pair.
//
// A value is taken only with the run's tag right after it, so the kernel
// always stops at the start of a value (whose tag it read): the record loop
// of ParseVarintRun reads that value one record at a time, and finds there
// the run's end, an overlong varint, or the input's.
#ifndef FAIRWIRE_WIRE_INTERNAL_RUN_BLOCKS_H_
#define FAIRWIRE_WIRE_INTERNAL_RUN_BLOCKS_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/varint_shapes.h"

namespace fairwire::wire::internal {

// Values buffered on the stack between appends to the output vector (no
// zero-fill of the output, one append per few blocks).
inline constexpr std::size_t kRunBlocksBuffer = 256;

// The longest value a regular window takes: the value and the run's tag
// after it fit in one 8-byte load.
inline constexpr std::size_t kMaxRegularLength = 7;

// The value of the L-byte varint at the low bytes of `word`. At the
// portable level a value of up to 3 bytes takes one shift and mask per byte;
// a longer one Ops::Gather's steps, on its L bytes.
template <typename Ops, std::size_t L>
[[gnu::always_inline]] inline std::uint64_t GatherLength(std::uint64_t word) {
  if constexpr (std::is_same_v<Ops, PortableBlockOps> && L <= 3) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < L; ++i) {
      value |= (word >> i) & (std::uint64_t{0x7F} << (7 * i));
    }
    return value;
  } else {
    return Ops::Gather(word & ((std::uint64_t{1} << (8 * L)) - 1));
  }
}

// How a regular window ended.
enum class RegularWindow {
  kWhole,      // every record of the window taken
  kIrregular,  // not a regular window: nothing taken
  kRefused,    // Accepts refused the value at p (the records before it taken)
};

// The 8-byte words of a window of records of L-byte values (L + 1 bytes
// each with the tag), word by word: the bits compared (the high bits of the
// value bytes and the whole tag byte, nothing past the last whole record),
// the continuation bits expected among them (set but in a value's last
// byte), and the tag bytes.
template <std::size_t L>
struct RegularPattern {
  static constexpr std::size_t kRecord = L + 1;
  static constexpr std::size_t kRecords = 64 / kRecord;
  std::uint64_t compared[8] = {};
  std::uint64_t continuations[8] = {};
  std::uint64_t tags[8] = {};

  static constexpr RegularPattern Make() {
    RegularPattern pattern;
    for (std::size_t b = 0; b < kRecords * kRecord; ++b) {
      const std::size_t at = b % kRecord;
      const int shift = static_cast<int>(8 * (b % 8));
      if (at == L) {
        pattern.compared[b / 8] |= std::uint64_t{0xFF} << shift;
        pattern.tags[b / 8] |= std::uint64_t{0xFF} << shift;
      } else {
        pattern.compared[b / 8] |= std::uint64_t{0x80} << shift;
        if (at + 1 < L) {
          pattern.continuations[b / 8] |= std::uint64_t{0x80} << shift;
        }
      }
    }
    return pattern;
  }
};

// True if the 64 bytes at p follow RegularPattern<L> with the tag
// `tag_byte`: a regular window of L-byte values. Compared eight bytes at a
// time.
template <std::size_t L>
[[gnu::always_inline]] inline bool MatchesRegularPattern(
    const std::uint8_t* p, std::uint8_t tag_byte) {
  static constexpr RegularPattern<L> kPattern = RegularPattern<L>::Make();
  const std::uint64_t tags = std::uint64_t{tag_byte} * 0x0101010101010101ull;
  std::uint64_t differ = 0;
  for (std::size_t w = 0; w < 8; ++w) {
    const std::uint64_t expected =
        kPattern.continuations[w] | (tags & kPattern.tags[w]);
    differ |= (LoadFixed64(p + 8 * w) ^ expected) & kPattern.compared[w];
  }
  return differ == 0;
}

// The longest value the portable level takes two records per load in a
// regular window (GatherPairedRegularWindow): two records of up to 3-byte
// values and their tags fit one 8-byte word.
inline constexpr std::size_t kMaxPairedRegularLength = 3;

// The portable level's regular window of two records per word (L at most
// kMaxPairedRegularLength): the first record's bytes at the word's start,
// the second's value moved to byte 4, both values' 7-bit groups kept.
template <std::size_t L>
struct PairedRegularPattern {
  static constexpr std::size_t kRecord = L + 1;
  static constexpr std::size_t kRecords = 64 / kRecord;
  static constexpr std::size_t kPairs = kRecords / 2;
  // The bytes of two records compared (the high bits of the values' bytes,
  // the whole tags), and the continuation bits expected among them; the
  // tags' bytes, which take the run's tag byte.
  static constexpr std::uint64_t kTwoRecords =
      2 * kRecord == 8 ? ~std::uint64_t{0}
                       : (std::uint64_t{1} << (16 * kRecord)) - 1;
  static constexpr std::uint64_t kCompared =
      RegularPattern<L>::Make().compared[0] & kTwoRecords;
  static constexpr std::uint64_t kContinuations =
      RegularPattern<L>::Make().continuations[0] & kCompared;
  static constexpr std::uint64_t kTags =
      RegularPattern<L>::Make().tags[0] & kCompared;
  // The first value's groups, and the second's once moved to byte 4.
  static constexpr std::uint64_t kFirst = kGroupsOfLength[L];
  static constexpr std::uint64_t kSecond = kGroupsOfLength[L] << 32;
  static constexpr int kSecondShift = 8 * (4 - static_cast<int>(kRecord));
};

// The two values of `word`, which starts with two records of L-byte values
// (PairedRegularPattern), joined: the first in the low 32 bits, the second
// in the high.
template <std::size_t L>
[[gnu::always_inline]] inline std::uint64_t JoinRecordPair(std::uint64_t word) {
  using Pattern = PairedRegularPattern<L>;
  const std::uint64_t groups =
      (word & Pattern::kFirst) |
      ((word << Pattern::kSecondShift) & Pattern::kSecond);
  if constexpr (L == 1) {
    return groups;
  } else if constexpr (L == 2) {
    return JoinSevenBitGroupsPerQuarter(groups);  // the halves' high bytes: 0
  } else {
    return JoinSevenBitGroupsPerHalf(groups);
  }
}

// The portable level's regular window of L-byte values (L at most
// kMaxPairedRegularLength) of a kind with kLaneIsValue: each 8-byte load
// holds two records, whose bytes are checked against the pattern and whose
// values are joined (JoinRecordPair), stored and compared with last_kept on
// that one word; an odd last record alone. The window is taken, refused or
// found irregular exactly as TakeRegularWindow's pattern test and gather
// would (the same bytes checked: every whole record's), in about 6
// operations a record instead of 11. Values are stored at buffer +
// buffered whether or not the window is taken (the caller leaves room);
// *same is false if any differs from last_kept. The first two records are
// checked before anything is gathered.
template <FieldKind K, std::size_t L, typename T>
[[gnu::always_inline]] inline bool GatherPairedRegularWindow(
    const std::uint8_t* p, std::uint8_t tag_byte, T* values, T last_kept,
    bool* same) {
  static_assert(kLaneIsValue<K> && L <= kMaxPairedRegularLength);
  using Pattern = PairedRegularPattern<L>;
  const std::uint64_t tags = std::uint64_t{tag_byte} * 0x0101010101010101ull;
  const std::uint64_t expected =
      Pattern::kContinuations | (tags & Pattern::kTags);
  const std::uint64_t last = static_cast<std::uint32_t>(last_kept);
  const std::uint64_t last_pair = last | last << 32;
  // The first two records first: a window of a run whose lengths vary
  // mostly breaks the pattern there, before any value is gathered.
  if (((LoadFixed64(p) ^ expected) & Pattern::kCompared) != 0) return false;
  std::uint64_t differ = 0;
  std::uint64_t others = 0;
#pragma GCC unroll 16
  for (std::size_t j = 0; j < Pattern::kPairs; ++j) {
    const std::uint64_t word = LoadFixed64(p + 2 * j * Pattern::kRecord);
    differ |= (word ^ expected) & Pattern::kCompared;
    const std::uint64_t pair = JoinRecordPair<L>(word);
    others |= pair ^ last_pair;
    StorePair(values + 2 * j, pair);
  }
  if constexpr (Pattern::kRecords % 2 != 0) {
    // The last record, alone in its word's low half.
    constexpr std::uint64_t kOne =
        (std::uint64_t{1} << (8 * Pattern::kRecord)) - 1;
    const std::uint64_t word =
        LoadFixed64(p + (Pattern::kRecords - 1) * Pattern::kRecord);
    differ |= (word ^ expected) & Pattern::kCompared & kOne;
    const std::uint64_t value = JoinRecordPair<L>(word & kOne) & 0xFFFFFFFFu;
    others |= value ^ last;
    values[Pattern::kRecords - 1] = static_cast<T>(value);
  }
  *same = others == 0;
  return differ == 0;
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
// The avx2 gather of a regular window of L-byte values (L at most
// kShapeValueBytes): a 16-byte load at every kPerLoad-th record, whose
// values one fixed byte shuffle puts in 32-bit lanes and the shape kernels'
// multiply-adds join (ShapeLanesAvx2). Four records per load (three for
// L = 4, whose four would take 20 bytes); no bit scan, no table lookup, no
// branch. The last load ends at most 16 bytes past the window.
template <std::size_t L>
struct RegularGather {
  static constexpr std::size_t kRecord = L + 1;
  static constexpr std::size_t kRecords = 64 / kRecord;
  static constexpr std::size_t kPerLoad =
      std::min(16 / kRecord, static_cast<std::size_t>(kShapeLanes));
  static constexpr std::size_t kLoads = (kRecords + kPerLoad - 1) / kPerLoad;
  ShapeControl control = EmptyShapeControl();

  static constexpr RegularGather Make() {
    RegularGather gather;
    for (std::size_t r = 0; r < kPerLoad; ++r) {
      for (std::size_t j = 0; j < L; ++j) {
        gather.control.bytes[4 * r + j] =
            static_cast<std::uint8_t>(r * kRecord + j);
      }
    }
    return gather;
  }
};

// Stores the values of the regular window at p (kind K, L-byte values) at
// dst, RegularGather<L>::kRecords of them and up to kShapeLanes - 1 lanes
// past them (the caller leaves room). True if every value equals `last`,
// which only kinds with kLaneIsValue tell (false for the others). Not
// always_inline: its caller TakeRegularWindow has no target of its own (GCC
// refuses that inline); DecodeRunBlocksAvx2 flattens both in.
template <FieldKind K, std::size_t L, typename T>
[[FAIRWIRE_AVX2_TARGET]] inline bool GatherRegularWindowAvx2(
    const std::uint8_t* p, T* dst, T last) {
  using Gather = RegularGather<L>;
  static constexpr Gather kGather = Gather::Make();
  const __m128i control = LoadShapeControl(kGather.control);
  const __m128i last_lanes = _mm_set1_epi32(static_cast<int>(last));
  const __m128i lane_index = _mm_setr_epi32(0, 1, 2, 3);
  __m128i differ = _mm_setzero_si128();
#pragma GCC unroll 8
  for (std::size_t g = 0; g < Gather::kLoads; ++g) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(
        p + g * Gather::kPerLoad * Gather::kRecord));
    const __m128i lanes = ShapeLanesAvx2(bytes, control);
    StoreShapeValues<K>(dst + g * Gather::kPerLoad, lanes);
    if constexpr (kLaneIsValue<K>) {
      const std::size_t valid =
          std::min(Gather::kPerLoad, Gather::kRecords - g * Gather::kPerLoad);
      const __m128i in_window =
          _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(valid)), lane_index);
      differ = _mm_or_si128(
          differ, _mm_and_si128(_mm_xor_si128(lanes, last_lanes), in_window));
    }
  }
  if constexpr (kLaneIsValue<K>) {
    return _mm_testz_si128(differ, differ) != 0;
  } else {
    return false;
  }
}
#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

// A regular window's values at `values` (buffer + buffered) that differ
// from last_kept, asked of keep.Accepts in order: the records before the
// first it refuses are taken (kRefused, p at that record's value), or all
// of them (kWhole). last_kept follows the values it accepts.
template <std::size_t L, typename Keep, typename T>
RegularWindow AskAboutNewValues(const Keep& keep, const T* values,
                                const std::uint8_t*& p, std::size_t& buffered,
                                T& last_kept) {
  using Pattern = RegularPattern<L>;
  for (std::size_t i = 0; i < Pattern::kRecords; ++i) {
    if (values[i] == last_kept) continue;
    if (!keep.Accepts(values[i])) {
      buffered += i;
      p += i * Pattern::kRecord;
      return RegularWindow::kRefused;
    }
    last_kept = values[i];
  }
  buffered += Pattern::kRecords;
  p += Pattern::kRecords * Pattern::kRecord;
  return RegularWindow::kWhole;
}

// Takes the 64 / (L + 1) records of the window at p (those whose bytes lie
// in it, as the bitmap would) if each is an L-byte value and the run's tag:
// the window's bytes are checked against the pattern eight at a time, then
// every value is decoded, with no branch per record. A keep with Accepts is
// asked only about values other than `last_kept` (a value it accepted; a
// closed enum's run mostly repeats its values), which follows the last value
// it accepted. A window that breaks the pattern anywhere is left whole to the
// bitmap (kIrregular).
template <FieldKind K, typename Ops, std::size_t L, typename Keep>
[[gnu::always_inline]] inline RegularWindow TakeRegularWindow(
    const std::uint8_t*& p, std::uint8_t tag_byte,
    typename KindTraits<K>::Type* buffer, std::size_t& buffered,
    typename KindTraits<K>::Type& last_kept, const Keep& keep) {
  using T = typename KindTraits<K>::Type;
  using Pattern = RegularPattern<L>;
  constexpr bool kAccepts = requires(T value) { keep.Accepts(value); };
  constexpr bool kKeepsAll = requires { Keep::kKeepsAll; };
  // Every record of the window taken, its values at buffer + buffered.
  const auto take_whole = [&] {
    buffered += Pattern::kRecords;
    p += Pattern::kRecords * Pattern::kRecord;
    return RegularWindow::kWhole;
  };
  if constexpr (std::is_same_v<Ops, PortableBlockOps> && kLaneIsValue<K> &&
                L <= kMaxPairedRegularLength && (kAccepts || kKeepsAll)) {
    T* const values = buffer + buffered;
    bool same = false;
    if (!GatherPairedRegularWindow<K, L>(p, tag_byte, values, last_kept,
                                         &same)) {
      return RegularWindow::kIrregular;
    }
    if constexpr (kAccepts) {
      if (!same) {
        return AskAboutNewValues<L>(keep, values, p, buffered, last_kept);
      }
    }
    return take_whole();
  }
  if (!MatchesRegularPattern<L>(p, tag_byte)) return RegularWindow::kIrregular;
  const auto value_at = [&](std::size_t i) {
    return static_cast<T>(KindTraits<K>::Convert(
        GatherLength<Ops, L>(LoadFixed64(p + i * Pattern::kRecord))));
  };
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
  if constexpr (std::is_same_v<Ops, Avx2BlockOps> && kShapeKind<K> &&
                L <= static_cast<std::size_t>(kShapeValueBytes) &&
                (kAccepts || kKeepsAll)) {
    T* const values = buffer + buffered;
    const bool same = GatherRegularWindowAvx2<K, L>(p, values, last_kept);
    if constexpr (kAccepts) {
      if (!same) {
        return AskAboutNewValues<L>(keep, values, p, buffered, last_kept);
      }
    }
    return take_whole();
  }
#endif
  if constexpr (kAccepts) {
    T* const values = buffer + buffered;
    T others = 0;
#pragma GCC unroll 32
    for (std::size_t i = 0; i < Pattern::kRecords; ++i) {
      values[i] = value_at(i);
      others |= values[i] ^ last_kept;
    }
    if (others != 0) {
      return AskAboutNewValues<L>(keep, values, p, buffered, last_kept);
    }
    return take_whole();
  } else {
#pragma GCC unroll 32
    for (std::size_t i = 0; i < Pattern::kRecords; ++i) {
      const T value = value_at(i);
      if (keep(value)) buffer[buffered++] = value;
    }
    p += Pattern::kRecords * Pattern::kRecord;
    return RegularWindow::kWhole;
  }
}

// The lengths a regular window takes, 1..kMaxRegularLength.
using RegularLengths = std::index_sequence<1, 2, 3, 4, 5, 6, 7>;
static_assert(RegularLengths::size() == kMaxRegularLength);

// True if the 64 bytes at p (a value's start; 64 readable) are a regular
// window: records of one value length L of at most kMaxRegularLength bytes,
// L being the first value's, each value followed by `tag_byte`. How a run
// of counters, ids or one enum value opens.
inline bool OpensRegularWindow(const std::uint8_t* p, std::uint8_t tag_byte) {
  std::size_t length = 1;
  while (length <= kMaxRegularLength && p[length - 1] >= 0x80) ++length;
  return [&]<std::size_t... L>(std::index_sequence<L...>) {
    return ((length == L && MatchesRegularPattern<L>(p, tag_byte)) || ...);
  }
  (RegularLengths());
}

// TakeRegularWindow for the run-time length (one instance per length L).
template <FieldKind K, typename Ops, typename Keep, std::size_t... L>
[[gnu::always_inline]] inline RegularWindow TakeRegularWindowOf(
    std::size_t length, const std::uint8_t*& p, std::uint8_t tag_byte,
    typename KindTraits<K>::Type* buffer, std::size_t& buffered,
    typename KindTraits<K>::Type& last_kept, const Keep& keep,
    std::index_sequence<L...>) {
  RegularWindow taken = RegularWindow::kIrregular;
  // The instance whose length it is, if any (a fold that stops there).
  static_cast<void>(
      ((length == L && (taken = TakeRegularWindow<K, Ops, L>(
                            p, tag_byte, buffer, buffered, last_kept, keep),
                        true)) ||
       ...));
  return taken;
}

// The portable level's irregular window, two records at a time, for kinds
// whose 32-bit lanes are values (kLaneIsValue) and keeps that keep all
// (KeepAll): while four terminators remain in *mask (value end, tag, value
// end, tag), the two records they end are taken if both values have at most
// kPairedElementBytes bytes and each is followed by the run's tag right
// after it, all of it tested with one branch; their values are joined by one
// JoinSevenBitGroupsPerHalf and stored by one StorePair. Stops at the first
// pair that is not so, at its first value, where the record loop of
// DecodeRunBlocks goes on. Advances *p, *mask and *buffered, and sets
// *last_length as that loop does. About 20 operations a record, where that
// loop takes about 30. (Closed enums' keeps, with Accepts, keep the record
// loop: with this path in their instance GCC allocated the regular windows'
// loop worse, and seed_enum at portable ran 12 to 19% slower.)
template <FieldKind K, typename T>
[[gnu::always_inline]] inline void TakeRecordPairs(
    const std::uint8_t* window, std::uint8_t tag_byte, std::uint64_t* mask,
    const std::uint8_t** p, T* buffer, std::size_t* buffered,
    std::size_t* last_length) {
  static_assert(kLaneIsValue<K> && sizeof(T) == 4);
  std::uint64_t bits = *mask;
  auto at = static_cast<std::size_t>(*p - window);
  T* out = buffer + *buffered;
  std::size_t length = *last_length;
  for (;;) {
    const std::uint64_t after_first = bits & (bits - 1);
    const std::uint64_t after_tag = after_first & (after_first - 1);
    const std::uint64_t after_second = after_tag & (after_tag - 1);
    if (after_second == 0) break;  // fewer than two whole records left
    const auto first_end = static_cast<std::size_t>(std::countr_zero(bits));
    const auto first_tag =
        static_cast<std::size_t>(std::countr_zero(after_first));
    const auto second_end =
        static_cast<std::size_t>(std::countr_zero(after_tag));
    const auto second_tag =
        static_cast<std::size_t>(std::countr_zero(after_second));
    const std::size_t first_length = first_end - at + 1;
    const std::size_t second_length = second_end - first_tag;
    // Zero only if both lengths are 1..kPairedElementBytes, each tag is the
    // byte after its value and both are the run's tag.
    const std::size_t wrong =
        (((first_length - 1) | (second_length - 1)) &
         ~(kPairedElementBytes - 1)) |
        (first_tag - first_end - 1) | (second_tag - second_end - 1) |
        static_cast<std::size_t>(window[first_tag] ^ tag_byte) |
        static_cast<std::size_t>(window[second_tag] ^ tag_byte);
    if (wrong != 0) break;
    StorePair(out, JoinShortPair(window + at, first_length,
                                 window + first_tag + 1, second_length));
    out += 2;
    at = second_tag + 1;
    bits = after_second & (after_second - 1);
    length = second_length;
  }
  *mask = bits;
  *p = window + at;
  *buffered = static_cast<std::size_t>(out - buffer);
  *last_length = length;
}

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
  // A window's records, and the spare lanes of GatherRegularWindowAvx2.
  T buffer[kRunBlocksBuffer + static_cast<std::size_t>(kShapeLanes)];
  std::size_t buffered = 0;
  bool regular = true;
  // The last record taken: its value length (0: none yet), and its value
  // if Accepts accepted it.
  std::size_t last_length = 0;
  T last_kept{};
  // More than 64 bytes of the run from the window: a tag in the window has
  // a byte after it in the run (the record loop's condition to go on).
  while (regular && end - p > 64 && limit - p >= 64 + 16) {
    const std::uint8_t* const window = p;
    // A window holds at most 32 whole records.
    if (buffered > kRunBlocksBuffer - 32) {
      out.insert(out.end(), buffer, buffer + buffered);
      buffered = 0;
    }
    if (last_length != 0) {
      const RegularWindow taken = TakeRegularWindowOf<K, Ops>(
          last_length, p, tag_byte, buffer, buffered, last_kept, keep,
          RegularLengths());
      if (taken == RegularWindow::kWhole) continue;
      if (taken == RegularWindow::kRefused) break;  // the record loop asks
    }
    std::uint64_t mask = Ops::Terminators(window);
    if constexpr (std::is_same_v<Ops, PortableBlockOps> && kLaneIsValue<K> &&
                  requires { Keep::kKeepsAll; }) {
      TakeRecordPairs<K>(window, tag_byte, &mask, &p, buffer, &buffered,
                         &last_length);
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
        last_kept = value;
      } else {
        if (keep(value)) buffer[buffered++] = value;
      }
      last_length = length <= kMaxRegularLength ? length : 0;
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
