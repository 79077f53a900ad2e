// Differential properties of the run kernel of the portable and avx2 levels
// (run_blocks.h), on runs of [tag][varint] records with values of every
// length 1..11, foreign one- and two-byte tags, values a closed enum rejects
// and cut tails: alone it takes a prefix of the records, each value right;
// within ParseVarintRun it gives what the record-at-a-time loop gives.
#include "fairwire/wire/internal/run_blocks.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fairwire/wire/internal/varint_run.h"
#include "fairwire/wire/kernel_level.h"
#include "simd_test_gen.h"

namespace fairwire::wire::internal {
namespace {

using testgen::GenRunBytes;

// Refuses values whose low bits are 3 (a closed enum's unknown values), and
// 0 (as a closed enum without a zero member does: a value the kernels must
// not take for the last one accepted before they have one), when
// `refusing`.
template <typename T>
bool Rejected(T value, bool refusing = true) {
  return refusing && ((value & 7) == 3 || value == 0);
}

// A keep with Accepts, as closed enums' runs have (ClosedEnumKeep): the
// kernel stops at a value Accepts refuses, and the record loop asks keep.
template <typename T>
struct KeepWithAccepts {
  std::vector<T>* refused;
  bool refusing = true;
  bool operator()(T value) const {
    if (!Rejected(value, refusing)) return true;
    refused->push_back(value);
    return false;
  }
  bool Accepts(T value) const { return !Rejected(value, refusing); }
};

// The kernel alone at `level` on the run [begin, end) (input to limit),
// with `keep`: a prefix of the records, ending at a value's start, each
// value right and the values keep dealt with otherwise (`refused`) in order;
// and every record before record `may_stop_at` (a keep with Accepts: the
// first it refuses) followed by the run's tag, with 80 bytes of input after
// it, is taken (it does not stop early).
template <FieldKind K, typename Keep>
void CheckKernelAlone(
    KernelLevel level, const std::uint8_t* begin, const std::uint8_t* end,
    const std::uint8_t* limit, std::uint8_t tag_byte,
    const testgen::RunOutcome<typename KindTraits<K>::Type>& expected,
    const std::vector<std::ptrdiff_t>& starts, const Keep& keep,
    const std::vector<typename KindTraits<K>::Type>& refused,
    std::size_t may_stop_at, const char* keep_name) {
  using T = typename KindTraits<K>::Type;
  const std::vector<T> before = {T{7}, T{9}};
  std::vector<T> kept = before;
  const std::uint8_t* p =
      DecodeRunBlocksAt<K>(level, begin, end, limit, tag_byte, kept, keep);
  RC_LOG() << "the kernel alone, " << keep_name << "\n";
  const std::size_t taken = kept.size() - before.size() + refused.size();
  RC_ASSERT(taken < starts.size());
  RC_ASSERT(p - begin == starts[taken]);
  RC_ASSERT(std::equal(kept.begin() + 2, kept.end(), expected.kept.begin()));
  RC_ASSERT(
      std::equal(refused.begin(), refused.end(), expected.refused.begin()));
  for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
    if (static_cast<std::size_t>(starts[i + 1]) + 64 + 16 + 12 >
        static_cast<std::size_t>(end - begin)) {
      break;
    }
    if (i == taken && i < may_stop_at)
      RC_FAIL("the kernel stopped early, at record " + std::to_string(i));
  }
}

// The run `bytes` of kind K at `level`, then `after` bytes of its tag (as
// after a nested message's run), in an exact-size buffer (a read past it is
// an ASan failure): the kernel alone, and ParseVarintRun against the record
// loop, each with a keep without Accepts, one with Accepts (as closed enums'
// runs have) and KeepAll (as every other field's). The first two refuse
// some values below avx512. At avx512 they keep all: ParseVarintRun's
// AVX-512 kernel is given kAcceptAll, a check that must accept what the keep
// does (its closed-enum checks are run_kernel_simd_test.cc's).
template <FieldKind K>
void CheckRunBytes(KernelLevel level, const std::vector<std::uint8_t>& bytes,
                   std::uint8_t tag_byte, std::size_t after) {
  using T = typename KindTraits<K>::Type;
  using Outcome = testgen::RunOutcome<T>;
  const bool refusing = level != KernelLevel::kAvx512;
  std::vector<std::ptrdiff_t> starts;
  // The record a keep with Accepts stops the kernel at: the first refused.
  std::size_t first_refused = SIZE_MAX;
  std::size_t records = 0;
  const Outcome expected = testgen::ReferenceRun<K>(
      bytes, tag_byte,
      [&](T value) {
        const bool kept = !Rejected(value, refusing);
        if (!kept && first_refused == SIZE_MAX) first_refused = records;
        ++records;
        return kept;
      },
      &starts);
  std::vector<std::ptrdiff_t> starts_all;
  const Outcome expected_all = testgen::ReferenceRun<K>(
      bytes, tag_byte, [](T) { return true; }, &starts_all);
  RC_TAG(expected.kept.size() / 64 * 64);
  if (bytes.size() >= 64) {
    // At the avx512 level, which kernel ParseVarintRun gives the run.
    RC_TAG(OpensRegularWindow(bytes.data(), tag_byte) ? "opens regular"
                                                      : "opens irregular");
  }
  std::vector<std::uint8_t> input = bytes;
  input.resize(bytes.size() + after, tag_byte);
  const std::uint8_t* const begin = input.data();
  const std::uint8_t* const end = begin + bytes.size();
  const std::uint8_t* const limit = begin + input.size();

  std::vector<T> refused;
  const auto keep_alone = [&](T value) {
    if (!Rejected(value, refusing)) return true;
    refused.push_back(value);
    return false;
  };
  CheckKernelAlone<K>(level, begin, end, limit, tag_byte, expected, starts,
                      keep_alone, refused, SIZE_MAX, "a keep without Accepts");
  std::vector<T> refused_by_accepts;
  CheckKernelAlone<K>(level, begin, end, limit, tag_byte, expected, starts,
                      KeepWithAccepts<T>{&refused_by_accepts, refusing},
                      refused_by_accepts, first_refused, "a keep with Accepts");
  CheckKernelAlone<K>(level, begin, end, limit, tag_byte, expected_all,
                      starts_all, KeepAll<T>{}, {}, SIZE_MAX, "KeepAll");

  // Within ParseVarintRun: what the record loop gives.
  const ScopedKernelLevel forced(level);
  const std::vector<T> before = {T{7}, T{9}};
  const auto run = [&](const auto& keep, std::vector<T>* kept) {
    Outcome got;
    got.kept = before;
    ParseContext ctx{begin, limit, kMaxDepth, {}};
    static constexpr AcceptAllRunCheck kAcceptAll{};
    const std::uint8_t* q = ParseVarintRun<K>(ctx, begin, end, tag_byte,
                                              got.kept, keep, &kAcceptAll);
    got.stopped = q == nullptr ? -1 : q - begin;
    got.error = ctx.status.error;
    got.offset = ctx.status.offset;
    if (kept != nullptr) got.refused = *kept;
    return got;
  };
  const auto with_before = [&](Outcome want) {
    want.kept.insert(want.kept.begin(), before.begin(), before.end());
    return want;
  };
  const Outcome want = with_before(expected);
  std::vector<T> refused_in_run;
  const auto keep = [&](T value) {
    if (!Rejected(value, refusing)) return true;
    refused_in_run.push_back(value);
    return false;
  };
  RC_ASSERT(run(keep, &refused_in_run) == want);
  std::vector<T> refused_in_run_by_accepts;
  RC_ASSERT(run(KeepWithAccepts<T>{&refused_in_run_by_accepts, refusing},
                &refused_in_run_by_accepts) == want);
  RC_ASSERT(run(KeepAll<T>{}, nullptr) == with_before(expected_all));
}

// A random run (GenRunBytes: values of every length 1..11, foreign one- and
// two-byte tags, cut tails) of kind K at `level`.
template <FieldKind K>
void CheckRunAt(KernelLevel level) {
  const auto tag_byte =
      static_cast<std::uint8_t>(*rc::gen::inRange(1, 16) << 3);
  const std::vector<std::uint8_t> bytes = GenRunBytes(tag_byte);
  if (bytes.empty()) return;
  const auto after = *rc::gen::element<std::size_t>(0, 0, 1, 15, 16, 80, 100);
  CheckRunBytes<K>(level, bytes, tag_byte, after);
}

// A run whose values all have 1 to kPairedElementBytes bytes, of varying
// lengths (so that no window is regular: with KeepAll the portable level
// takes int32 and enum records two at a time, TakeRecordPairs), but at one
// record among the first
// hundred: there another field's tag (one or two bytes) follows the value,
// or the value is longer (5 to 10 bytes), or both. Values a keep refuses
// come anywhere; the run may end in a regular stretch of zeros (which the
// keeps but KeepAll refuse below avx512), after the paired records.
template <FieldKind K>
void CheckPairedRunAt(KernelLevel level) {
  const auto tag_byte =
      static_cast<std::uint8_t>(*rc::gen::inRange(1, 16) << 3);
  const auto records = *rc::gen::inRange<std::size_t>(30, 160);
  const auto odd = *rc::gen::inRange<std::size_t>(0, 100);
  const auto odd_tag = *rc::gen::element<int>(0, 1, 2);  // run's, one, two
  const auto odd_length = *rc::gen::element<std::size_t>(0, 5, 10);
  std::vector<std::uint8_t> bytes;
  for (std::size_t r = 0; r < records; ++r) {
    const std::size_t length =
        r == odd && odd_length != 0
            ? odd_length
            : *rc::gen::inRange<std::size_t>(1, kPairedElementBytes + 1);
    for (std::size_t i = 0; i + 1 < length; ++i) {
      bytes.push_back(
          static_cast<std::uint8_t>(0x80 | *rc::gen::inRange(0, 128)));
    }
    bytes.push_back(static_cast<std::uint8_t>(*rc::gen::inRange(0, 128)));
    if (r == odd && odd_tag == 1) {
      bytes.push_back(static_cast<std::uint8_t>(tag_byte ^ 0x08));
    } else if (r == odd && odd_tag == 2) {
      bytes.push_back(static_cast<std::uint8_t>(tag_byte | 0x80));
      bytes.push_back(0x01);
    } else {
      bytes.push_back(tag_byte);
    }
  }
  const auto zeros = *rc::gen::element<std::size_t>(0, 0, 80);
  for (std::size_t r = 0; r < zeros; ++r) {
    bytes.push_back(0x00);
    bytes.push_back(tag_byte);
  }
  bytes.pop_back();  // the run ends at a value
  const auto after = *rc::gen::element<std::size_t>(0, 16, 80);
  CheckRunBytes<K>(level, bytes, tag_byte, after);
}

// Every kind the kernels treat apart: int64, and the kinds whose lanes are
// values (int32, enum).
void CheckRunOfEachKindAt(KernelLevel level) {
  CheckRunAt<FieldKind::kInt64>(level);
  CheckRunAt<FieldKind::kInt32>(level);
  CheckRunAt<FieldKind::kEnum>(level);
}

void CheckPairedRunOfEachKindAt(KernelLevel level) {
  CheckPairedRunAt<FieldKind::kInt32>(level);
  CheckPairedRunAt<FieldKind::kEnum>(level);
  CheckPairedRunAt<FieldKind::kInt64>(level);
}

// A run whose last byte is its tag, with the input going on past the run
// (as in a nested message): the record loop stops at that tag, so the kernel
// must not take the record before it (it would return the run's end as a
// value's start). Every run length from 20 to 90 records of values of 1, 2
// or 3 bytes (or a mix), so that the last tag falls at every position of
// the kernel's last window.
TEST(RunBlocks, ARunEndingInItsTagStopsAtTheTagAtEveryLevel) {
  constexpr std::uint8_t kTag = 0x08;
  for (int width : {1, 2, 3, 0}) {
    for (std::size_t records = 20; records <= 90; ++records) {
      std::vector<std::uint8_t> bytes;
      for (std::size_t i = 0; i < records; ++i) {
        const int w = width != 0 ? width : static_cast<int>(i % 3) + 1;
        for (int b = 1; b < w; ++b) bytes.push_back(0x81);
        bytes.push_back(0x01);  // the value's last byte
        bytes.push_back(kTag);
      }
      const std::size_t run = bytes.size();
      bytes.resize(run + 80, 0x01);  // what follows the run in the input
      for (const KernelLevel level : kKernelLevels) {
        if (!CpuSupports(level)) continue;
        const ScopedKernelLevel forced(level);
        const std::uint8_t* begin = bytes.data();
        ParseContext ctx{begin, begin + bytes.size(), kMaxDepth, {}};
        std::vector<std::int64_t> out;
        static constexpr AcceptAllRunCheck kAcceptAll{};
        const std::uint8_t* q = ParseVarintRun<FieldKind::kInt64>(
            ctx, begin, begin + run, kTag, out,
            [](std::int64_t) { return true; }, &kAcceptAll);
        ASSERT_NE(q, nullptr)
            << KernelLevelName(level) << ", width " << width << ", " << records
            << " records: " << ToString(ctx.status);
        ASSERT_EQ(q - begin, static_cast<std::ptrdiff_t>(run - 1))
            << KernelLevelName(level) << ", width " << width << ", " << records
            << " records";
        ASSERT_EQ(out.size(), records) << KernelLevelName(level);
      }
    }
  }
}

// A keep that keeps every value and counts the values the record loop asks
// it about (the kernels ask Accepts, or at avx512 nothing).
struct CountingKeep {
  std::size_t* asked;
  bool operator()(std::int64_t) const {
    ++*asked;
    return true;
  }
  bool Accepts(std::int64_t) const { return true; }
};

// ParseVarintRun<kInt64> over the whole of `bytes` (a run of `tag`'s
// records) at `level`: what it decoded, whether it stopped at the end (else
// its status), and how many records its record loop read one at a time.
struct CountedRun {
  bool reached_end = false;
  std::string status;
  std::vector<std::int64_t> values;
  std::size_t record_loop_reads = 0;
};
CountedRun ParseRunCountingRecordLoop(const std::vector<std::uint8_t>& bytes,
                                      std::uint8_t tag, KernelLevel level) {
  const ScopedKernelLevel forced(level);
  const std::uint8_t* begin = bytes.data();
  const std::uint8_t* end = begin + bytes.size();
  ParseContext ctx{begin, end, kMaxDepth, {}};
  CountedRun run;
  static constexpr AcceptAllRunCheck kAcceptAll{};
  const std::uint8_t* q = ParseVarintRun<FieldKind::kInt64>(
      ctx, begin, end, tag, run.values, CountingKeep{&run.record_loop_reads},
      &kAcceptAll);
  run.reached_end = q == end;
  run.status = ToString(ctx.status);
  return run;
}

// A long regular run is the kernels' work at every level, not the record
// loop's: of 2000 records, the record loop reads fewer than a tenth (those
// near the run's end, and one wherever a kernel stopped to make room in its
// output). A level whose kernel is never called, or only near the run's
// end, reads them all one at a time, with the same result.
TEST(RunBlocks, TheKernelTakesALongRunAtEveryLevel) {
  constexpr std::uint8_t kTag = 0x08;
  constexpr std::size_t kRecords = 2000;
  for (int width : {1, 2, 3, 0}) {
    std::vector<std::uint8_t> bytes;
    std::vector<std::int64_t> want;
    for (std::size_t i = 0; i < kRecords; ++i) {
      if (i != 0) bytes.push_back(kTag);
      const int w = width != 0 ? width : static_cast<int>(i % 3) + 1;
      for (int b = 1; b < w; ++b) bytes.push_back(0x80);
      bytes.push_back(static_cast<std::uint8_t>(i % 100 + 1));
      want.push_back(static_cast<std::int64_t>(i % 100 + 1) << (7 * (w - 1)));
    }
    for (const KernelLevel level : kKernelLevels) {
      if (!CpuSupports(level)) continue;
      const CountedRun run = ParseRunCountingRecordLoop(bytes, kTag, level);
      ASSERT_TRUE(run.reached_end) << KernelLevelName(level) << ", width "
                                   << width << ": " << run.status;
      ASSERT_EQ(run.values, want)
          << KernelLevelName(level) << ", width " << width;
      EXPECT_LT(run.record_loop_reads * 10, kRecords)
          << KernelLevelName(level) << ", width " << width
          << ": the record loop read " << run.record_loop_reads << " records";
    }
  }
}

// The kernel's bounds, exactly: it takes a window of records while more
// than 64 bytes of the run and at least 64 + 16 of the input remain from
// it (what it may read), not a byte more. Runs of one-byte values, so that
// every window takes 32 records: the last window has 71 bytes of the run
// and 79 or 80 of the input from its start.
TEST(RunBlocks, KernelTakesAWindowWhileEightyBytesOfInputRemain) {
  constexpr std::uint8_t kTag = 0x08;
  for (const KernelLevel level : {KernelLevel::kPortable, KernelLevel::kAvx2}) {
    if (!CpuSupports(level)) continue;
    for (std::size_t windows = 0; windows <= 3; ++windows) {
      for (const std::size_t after : {std::size_t{8}, std::size_t{9}}) {
        // The run: 64 * windows + 71 bytes, a value at every even offset.
        const std::size_t run = 64 * windows + 71;
        std::vector<std::uint8_t> input;
        for (std::size_t i = 0; i < run; ++i) {
          input.push_back(i % 2 == 0 ? static_cast<std::uint8_t>(i % 100 + 1)
                                     : kTag);
        }
        input.resize(run + after, kTag);  // exact size: ASan sees past it
        const std::uint8_t* begin = input.data();
        std::vector<std::int64_t> out;
        const std::uint8_t* p = DecodeRunBlocksAt<FieldKind::kInt64>(
            level, begin, begin + run, begin + input.size(), kTag, out,
            [](std::int64_t) { return true; });
        // With 80 bytes of input from the last window, it is taken too.
        const std::size_t taken = 64 * windows + (after == 9 ? 64 : 0);
        ASSERT_EQ(p - begin, static_cast<std::ptrdiff_t>(taken))
            << KernelLevelName(level) << ", " << windows << " windows, "
            << after << " bytes after the run";
        ASSERT_EQ(out.size(), taken / 2);
        for (std::size_t r = 0; r < out.size(); ++r) {
          ASSERT_EQ(out[r], static_cast<std::int64_t>(2 * r % 100 + 1));
        }
      }
    }
  }
}

// ParseVarintRun hands a run to the kernel while 64 + 16 bytes of it remain:
// of a run of exactly 80 bytes (40 records, the last value two bytes), the
// kernel takes most of the first window's 32 records (the avx2 shapes kernel
// stops a step short of the window's end), and the record loop reads fewer
// than half of the 40.
TEST(RunBlocks, ARunOfEightyBytesGoesToTheKernel) {
  constexpr std::uint8_t kTag = 0x08;
  std::vector<std::uint8_t> bytes;
  std::vector<std::int64_t> want;
  for (std::int64_t i = 0; i < 39; ++i) {
    bytes.push_back(static_cast<std::uint8_t>(i + 1));
    bytes.push_back(kTag);
    want.push_back(i + 1);
  }
  bytes.push_back(0x80);
  bytes.push_back(0x01);
  want.push_back(128);
  ASSERT_EQ(bytes.size(), 80u);
  for (const KernelLevel level : {KernelLevel::kPortable, KernelLevel::kAvx2}) {
    if (!CpuSupports(level)) continue;
    const CountedRun run = ParseRunCountingRecordLoop(bytes, kTag, level);
    ASSERT_TRUE(run.reached_end)
        << KernelLevelName(level) << ": " << run.status;
    EXPECT_EQ(run.values, want) << KernelLevelName(level);
    EXPECT_LT(run.record_loop_reads, 20u) << KernelLevelName(level);
  }
}

// A regular window (records of one value length) asks Accepts only about a
// value other than the last one it accepted: what it remembers must be a
// value Accepts accepted, never a default. Runs of one value of each length
// 1..7 with one zero, which Accepts refuses, at every record of the first
// three windows (the first regular window starts after the first window's
// records): the kernel stops at the zero's record, with every value before
// it.
TEST(RunBlocks, ARegularWindowStopsAtAValueAcceptsRefuses) {
  constexpr std::uint8_t kTag = 0x08;
  constexpr std::size_t kRecords = 200;
  struct RefusesZero {
    bool operator()(std::int64_t value) const { return value != 0; }
    bool Accepts(std::int64_t value) const { return value != 0; }
  };
  for (const KernelLevel level : {KernelLevel::kPortable, KernelLevel::kAvx2}) {
    if (!CpuSupports(level)) continue;
    for (std::size_t width = 1; width <= kMaxRegularLength; ++width) {
      const auto value = std::int64_t{1} << (7 * (width - 1));
      for (std::size_t zero = 0; zero < 3 * 64 / (width + 1); ++zero) {
        std::vector<std::uint8_t> input;
        for (std::size_t r = 0; r < kRecords; ++r) {
          if (r != 0) input.push_back(kTag);
          input.insert(input.end(), width - 1, 0x80);
          input.push_back(r == zero ? 0x00 : 0x01);
        }
        const std::uint8_t* begin = input.data();
        const std::uint8_t* end = begin + input.size();
        std::vector<std::int64_t> out;
        const std::uint8_t* p = DecodeRunBlocksAt<FieldKind::kInt64>(
            level, begin, end, end, kTag, out, RefusesZero{});
        ASSERT_EQ(p - begin, static_cast<std::ptrdiff_t>(zero * (width + 1)))
            << KernelLevelName(level) << ", width " << width << ", zero at "
            << zero;
        ASSERT_EQ(out, std::vector<std::int64_t>(zero, value))
            << KernelLevelName(level) << ", width " << width << ", zero at "
            << zero;
      }
    }
  }
}

// A keep that keeps every value and counts the questions Accepts is asked.
template <typename T>
struct CountsAccepts {
  std::size_t* asked;
  bool operator()(T) const { return true; }
  bool Accepts(T) const {
    ++*asked;
    return true;
  }
};

// DecodeRunBlocksAt at `level` over a run of `records` records of tag 0x08
// and `width`-byte values (0x80 bytes, then last_byte(r)) of kind K, with
// CountsAccepts; values as int64.
struct CountedKernelRun {
  std::ptrdiff_t stopped = 0;      // where the kernel stopped, from the run
  std::vector<std::int64_t> out;   // what it took
  std::vector<std::int64_t> want;  // every record's value
  std::size_t asked = 0;           // questions to Accepts
};
template <FieldKind K, typename LastByte>
CountedKernelRun RunCountingAccepts(KernelLevel level, std::size_t width,
                                    std::size_t records,
                                    const LastByte& last_byte) {
  using T = typename KindTraits<K>::Type;
  constexpr std::uint8_t kTag = 0x08;
  std::vector<std::uint8_t> input;
  CountedKernelRun run;
  for (std::size_t r = 0; r < records; ++r) {
    if (r != 0) input.push_back(kTag);
    input.insert(input.end(), width - 1, 0x80);
    const auto last = static_cast<std::uint8_t>(last_byte(r));
    input.push_back(last);
    run.want.push_back(static_cast<std::int64_t>(static_cast<T>(
        KindTraits<K>::Convert(std::uint64_t{last} << (7 * (width - 1))))));
  }
  const std::uint8_t* begin = input.data();
  const std::uint8_t* end = begin + input.size();
  std::vector<T> out;
  const std::uint8_t* p = DecodeRunBlocksAt<K>(
      level, begin, end, end, kTag, out, CountsAccepts<T>{&run.asked});
  run.out.assign(out.begin(), out.end());
  run.stopped = p - begin;
  return run;
}

// The regular windows are used: over a run of one value of each length
// 1..7, Accepts is asked about every record of the first window (the bitmap
// path) and never again. A kernel that never finds a window regular asks
// about every record. And a regular run whose values change (two of one
// length, alternating) is taken window after window, past the kernel's
// buffer of 256 values, each value right, with Accepts asked about every
// value, since each differs from the last it accepted. For int64 and for
// enum values, whose avx2 gather (values up to 4 bytes) compares them with
// the last accepted value in its lanes; an enum up to 5 bytes, past which
// the values here (1 and 2 shifted by 35 bits or more) are both 0 in 32
// bits.
template <FieldKind K>
void CheckRegularWindowsAskAboutNewValuesOnly() {
  constexpr std::size_t kMaxWidth =
      sizeof(typename KindTraits<K>::Type) == 4 ? 5 : kMaxRegularLength;
  for (const KernelLevel level : {KernelLevel::kPortable, KernelLevel::kAvx2}) {
    if (!CpuSupports(level)) continue;
    for (std::size_t width = 1; width <= kMaxWidth; ++width) {
      const std::string where = std::string(KernelLevelName(level)) +
                                ", width " + std::to_string(width) + ", kind " +
                                std::to_string(static_cast<int>(K));
      // Taken while more than 64 bytes of the run remain: all but the
      // records of its last 80 bytes, at most.
      const std::size_t tail = 80 / (width + 1) + 1;
      const CountedKernelRun one = RunCountingAccepts<K>(
          level, width, 200, [](std::size_t) { return 1; });
      ASSERT_GT(one.out.size(), 200 - tail) << where;
      EXPECT_EQ(one.stopped,
                static_cast<std::ptrdiff_t>(one.out.size() * (width + 1)))
          << where;
      EXPECT_EQ(one.asked, 64 / (width + 1))
          << where << ": asked about " << one.asked << " of " << one.out.size()
          << " records";

      const CountedKernelRun two = RunCountingAccepts<K>(
          level, width, 600, [](std::size_t r) { return 1 + r % 2; });
      ASSERT_GT(two.out.size(), 600 - tail) << where;
      EXPECT_EQ(two.stopped,
                static_cast<std::ptrdiff_t>(two.out.size() * (width + 1)))
          << where;
      EXPECT_TRUE(std::equal(two.out.begin(), two.out.end(), two.want.begin()))
          << where;
      EXPECT_EQ(two.asked, two.out.size()) << where;
    }
  }
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
// GatherRegularWindowAvx2 over a window of L-byte enum values, all `value`
// but record `odd` (none if past the window), followed by records of
// another value up to 80 bytes (what the last loads read past the window):
// every value stored right, and true exactly when each value of the window
// is `value`.
template <std::size_t L>
void CheckRegularGather(std::int32_t value, std::size_t odd) {
  using Gather = RegularGather<L>;
  static constexpr std::uint8_t kTag = 0x08;
  const auto append = [](std::vector<std::uint8_t>& bytes, std::int32_t v) {
    for (std::size_t i = 0; i < L; ++i) {
      const auto group = static_cast<std::uint8_t>((v >> (7 * i)) & 0x7F);
      bytes.push_back(i + 1 < L ? (group | 0x80) : group);
    }
    bytes.push_back(kTag);
  };
  const std::int32_t other = value ^ 1;
  std::vector<std::uint8_t> bytes;
  std::vector<std::int32_t> want;
  for (std::size_t r = 0; bytes.size() < 80; ++r) {
    const std::int32_t v = r == odd || r >= Gather::kRecords ? other : value;
    append(bytes, v);
    if (r < Gather::kRecords) want.push_back(v);
  }
  std::int32_t got[Gather::kRecords + kShapeLanes];
  const bool same =
      GatherRegularWindowAvx2<FieldKind::kEnum, L>(bytes.data(), got, value);
  const std::string where =
      "width " + std::to_string(L) + ", odd record " + std::to_string(odd);
  EXPECT_EQ(same, odd >= Gather::kRecords) << where;
  for (std::size_t r = 0; r < Gather::kRecords; ++r) {
    ASSERT_EQ(got[r], want[r]) << where << ", record " << r;
  }
}

template <std::size_t L>
void CheckRegularGatherEveryOddRecord() {
  for (std::size_t odd = 0; odd <= RegularGather<L>::kRecords; ++odd) {
    CheckRegularGather<L>(std::int32_t{1} << (7 * (L - 1)), odd);
    CheckRegularGather<L>((std::int32_t{1} << (7 * L)) - 2, odd);
  }
}

// The avx2 gather of regular windows (values of 1 to 4 bytes): each value
// right, and the comparison with the last accepted value true only if every
// value of the window is it, whatever the bytes its loads read past the
// window or the lanes a load leaves empty (three values per load at 4
// bytes).
TEST(RunBlocks, RegularGatherComparesTheWindowsValuesOnly) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  CheckRegularGatherEveryOddRecord<1>();
  CheckRegularGatherEveryOddRecord<2>();
  CheckRegularGatherEveryOddRecord<3>();
  CheckRegularGatherEveryOddRecord<4>();
}
#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

// The portable level's paired gather (GatherPairedRegularWindow) over a
// window of L-byte enum values, all `value` but record `odd` (none if past
// the window), followed by bytes that are no record at all up to 80 bytes
// (what its loads read past the window): with `change` kNone, every value
// stored right, the window regular, and `same` exactly when each value of
// the window is `value`; with a record's tag, or its value's length,
// changed at record `odd`, the window irregular.
enum class PairedChange { kNone, kTag, kLength };
template <std::size_t L>
void CheckPairedGather(std::int32_t value, std::size_t odd,
                       PairedChange change) {
  using Pattern = PairedRegularPattern<L>;
  static constexpr std::uint8_t kTag = 0x08;
  const std::int32_t other = value ^ 1;
  std::vector<std::uint8_t> bytes;
  std::vector<std::int32_t> want;
  for (std::size_t r = 0; r < Pattern::kRecords; ++r) {
    const std::int32_t v = r == odd ? other : value;
    for (std::size_t i = 0; i < L; ++i) {
      auto group = static_cast<std::uint8_t>((v >> (7 * i)) & 0x7F);
      if (i + 1 < L || (r == odd && change == PairedChange::kLength)) {
        group |= 0x80;
      }
      bytes.push_back(group);
    }
    bytes.push_back(r == odd && change == PairedChange::kTag ? kTag ^ 0x10
                                                             : kTag);
    want.push_back(v);
  }
  bytes.resize(80, 0xFF);  // past the window: continuation bytes, no tag
  std::int32_t got[Pattern::kRecords];
  bool same = false;
  const bool regular = GatherPairedRegularWindow<FieldKind::kEnum, L>(
      bytes.data(), kTag, got, value, &same);
  const bool changed = odd < Pattern::kRecords;
  const std::string where = "width " + std::to_string(L) + ", record " +
                            std::to_string(odd) + ", change " +
                            std::to_string(static_cast<int>(change));
  if (change != PairedChange::kNone && changed) {
    EXPECT_FALSE(regular) << where;
    return;
  }
  ASSERT_TRUE(regular) << where;
  EXPECT_EQ(same, !changed) << where;
  for (std::size_t r = 0; r < Pattern::kRecords; ++r) {
    ASSERT_EQ(got[r], want[r]) << where << ", record " << r;
  }
}

template <std::size_t L>
void CheckPairedGatherEveryRecord() {
  for (std::size_t odd = 0; odd <= PairedRegularPattern<L>::kRecords; ++odd) {
    for (const PairedChange change :
         {PairedChange::kNone, PairedChange::kTag, PairedChange::kLength}) {
      CheckPairedGather<L>(std::int32_t{1} << (7 * (L - 1)), odd, change);
      CheckPairedGather<L>((std::int32_t{1} << (7 * L)) - 2, odd, change);
    }
  }
}

// The portable level's regular windows of values of 1 to 3 bytes (two
// records per load, an odd last record alone at 2 bytes): each value right
// in either half of its word, every record's tag and value length checked,
// and the comparison with the last accepted value true only if every
// value of the window is it, whatever the bytes past the window.
TEST(RunBlocks, PairedGatherChecksAndComparesEveryRecord) {
  CheckPairedGatherEveryRecord<1>();
  CheckPairedGatherEveryRecord<2>();
  CheckPairedGatherEveryRecord<3>();
}

TEST(RunBlocks, RegularWindowsTakeRunsAndAskAboutNewValuesOnly) {
  CheckRegularWindowsAskAboutNewValuesOnly<FieldKind::kInt64>();
  CheckRegularWindowsAskAboutNewValuesOnly<FieldKind::kEnum>();
  CheckRegularWindowsAskAboutNewValuesOnly<FieldKind::kUint32>();
}

// A regular window checks every byte of its records: a run of one value
// length 1..7 whose tag after record `foreign` is another field's (another
// field number, or only another wire type: one bit apart), at every record of
// the first three windows; the values' last byte is 0x01, or the tag byte
// itself (so that the run's bytes would pass a check in the wrong phase).
// The kernel stops at that record's value, having taken the ones before it;
// a window taken as regular with any byte unchecked takes the foreign record
// too.
TEST(RunBlocks, ARegularWindowStopsBeforeAForeignTagAtEveryByte) {
  constexpr std::uint8_t kTag = 0x08;
  constexpr std::size_t kRecords = 200;
  for (const KernelLevel level : {KernelLevel::kPortable, KernelLevel::kAvx2}) {
    if (!CpuSupports(level)) continue;
    for (const std::uint8_t foreign_tag :
         {std::uint8_t{0x10}, std::uint8_t{kTag | 1}}) {
      for (const std::uint8_t last : {std::uint8_t{0x01}, kTag}) {
        for (std::size_t width = 1; width <= kMaxRegularLength; ++width) {
          const auto value = std::int64_t{last} << (7 * (width - 1));
          for (std::size_t foreign = 0; foreign < 3 * 64 / (width + 1);
               ++foreign) {
            std::vector<std::uint8_t> input;
            for (std::size_t r = 0; r < kRecords; ++r) {
              if (r != 0)
                input.push_back(r == foreign + 1 ? foreign_tag : kTag);
              input.insert(input.end(), width - 1, 0x80);
              input.push_back(last);
            }
            const std::uint8_t* begin = input.data();
            const std::uint8_t* end = begin + input.size();
            std::vector<std::int64_t> out;
            const std::uint8_t* p = DecodeRunBlocksAt<FieldKind::kInt64>(
                level, begin, end, end, kTag, out,
                [](std::int64_t) { return true; });
            const std::string where =
                std::string(KernelLevelName(level)) + ", width " +
                std::to_string(width) + ", value byte " + std::to_string(last) +
                ", tag " + std::to_string(foreign_tag) + " after record " +
                std::to_string(foreign);
            ASSERT_EQ(p - begin,
                      static_cast<std::ptrdiff_t>(foreign * (width + 1)))
                << where;
            ASSERT_EQ(out, std::vector<std::int64_t>(foreign, value)) << where;
          }
        }
      }
    }
  }
}

// A keep that keeps every value, with Accepts (as closed enums' runs have)
// or without: then it is KeepAll, as every other field's runs have.
template <typename T, bool kWithAccepts>
struct KeepsEveryValue : KeepAll<T> {};
template <typename T>
struct KeepsEveryValue<T, true> {
  bool operator()(T) const { return true; }
  bool Accepts(T) const { return true; }
};

// The kernel over a regular run of `width`-byte values whose 7-bit groups
// are all different and none zero (a group gathered to the wrong place, or
// from the wrong record, changes a value; the other tests' values have zero
// groups below their last byte), for kind K and keep: it takes all but the
// records of the last 80 bytes, each value as its bytes say, converted to K
// (zigzag for sint32).
template <FieldKind K, bool kWithAccepts>
void CheckRegularRunOfDistinctGroups(KernelLevel level, std::size_t width) {
  using T = typename KindTraits<K>::Type;
  constexpr std::uint8_t kTag = 0x08;
  constexpr std::size_t kRecords = 300;
  std::vector<std::uint8_t> input;
  std::vector<T> want;
  for (std::size_t r = 0; r < kRecords; ++r) {
    if (r != 0) input.push_back(kTag);
    std::uint64_t raw = 0;
    for (std::size_t i = 0; i < width; ++i) {
      const auto group = static_cast<std::uint8_t>(1 + (r * 7 + i * 45) % 127);
      raw |= std::uint64_t{group} << (7 * i);
      input.push_back(i + 1 < width ? (group | 0x80) : group);
    }
    want.push_back(static_cast<T>(KindTraits<K>::Convert(raw)));
  }
  const std::uint8_t* begin = input.data();
  const std::uint8_t* end = begin + input.size();
  std::vector<T> out;
  const std::uint8_t* p = DecodeRunBlocksAt<K>(
      level, begin, end, end, kTag, out, KeepsEveryValue<T, kWithAccepts>{});
  const std::string where = std::string(KernelLevelName(level)) + ", width " +
                            std::to_string(width) + ", kind " +
                            std::to_string(static_cast<int>(K)) +
                            (kWithAccepts ? ", with Accepts" : "");
  ASSERT_GT(out.size(), kRecords - (80 / (width + 1) + 1)) << where;
  EXPECT_EQ(p - begin, static_cast<std::ptrdiff_t>(out.size() * (width + 1)))
      << where;
  for (std::size_t r = 0; r < out.size(); ++r) {
    ASSERT_EQ(out[r], want[r]) << where << ", record " << r;
  }
}

// Regular windows decode every 7-bit group of every record, at each length
// 1..7, for 64-bit, zigzag and enum kinds, with and without Accepts.
TEST(RunBlocks, RegularWindowsDecodeEveryGroupOfEveryRecord) {
  for (const KernelLevel level : {KernelLevel::kPortable, KernelLevel::kAvx2}) {
    if (!CpuSupports(level)) continue;
    for (std::size_t width = 1; width <= kMaxRegularLength; ++width) {
      CheckRegularRunOfDistinctGroups<FieldKind::kInt64, false>(level, width);
      CheckRegularRunOfDistinctGroups<FieldKind::kInt64, true>(level, width);
      CheckRegularRunOfDistinctGroups<FieldKind::kSint32, false>(level, width);
      CheckRegularRunOfDistinctGroups<FieldKind::kEnum, true>(level, width);
      CheckRegularRunOfDistinctGroups<FieldKind::kUint32, true>(level, width);
      CheckRegularRunOfDistinctGroups<FieldKind::kInt32, false>(level, width);
    }
  }
}

// OpensRegularWindow, which sends a run at the avx512 level to the avx2
// kernel: true for 64 bytes of records of one value length of 1 to 7 bytes,
// each value followed by the run's tag, whatever the values and whatever
// follows; false if any whole record in the 64 bytes has another length or
// another tag, or if the first value is longer than 7 bytes.
TEST(RunBlocks, OpensRegularWindowTellsOneLengthRunsFromOthers) {
  static constexpr std::uint8_t kTag = 0x08;
  static constexpr std::size_t kRecords = 100;
  // Records of `width`-byte values, record `odd` `odd_width` bytes long
  // instead; the first value's tag is not in the bytes (p is at a value).
  const auto run = [](std::size_t width, std::size_t odd,
                      std::size_t odd_width) {
    std::vector<std::uint8_t> bytes;
    for (std::size_t i = 0; i < kRecords; ++i) {
      if (i != 0) bytes.push_back(kTag);
      const std::size_t w = i == odd ? odd_width : width;
      for (std::size_t b = 1; b < w; ++b) {
        bytes.push_back(static_cast<std::uint8_t>(0x80 | (i + b)));
      }
      bytes.push_back(static_cast<std::uint8_t>(i % 128));
    }
    return bytes;
  };
  for (std::size_t width = 1; width <= kMaxRegularLength; ++width) {
    const std::size_t whole = 64 / (width + 1);  // records the pattern covers
    EXPECT_TRUE(OpensRegularWindow(run(width, kRecords, 0).data(), kTag))
        << "width " << width;
    // A record past the 64 bytes changes nothing.
    EXPECT_TRUE(OpensRegularWindow(run(width, whole + 1, 10).data(), kTag))
        << "width " << width;
    for (std::size_t odd = 0; odd < whole; ++odd) {
      EXPECT_FALSE(OpensRegularWindow(run(width, odd, width + 1).data(), kTag))
          << "width " << width << ", record " << odd << " one byte longer";
      if (width > 1) {
        EXPECT_FALSE(
            OpensRegularWindow(run(width, odd, width - 1).data(), kTag))
            << "width " << width << ", record " << odd << " one byte shorter";
      }
      std::vector<std::uint8_t> foreign = run(width, kRecords, 0);
      foreign[odd * (width + 1) + width] = kTag ^ 0x10;
      EXPECT_FALSE(OpensRegularWindow(foreign.data(), kTag))
          << "width " << width << ", another tag after record " << odd;
    }
  }
  for (std::size_t width = kMaxRegularLength + 1; width <= 10; ++width) {
    EXPECT_FALSE(OpensRegularWindow(run(width, kRecords, 0).data(), kTag))
        << "width " << width;
  }
}

// A first window that ends right after a pair of records (13 pairs of
// values of 2 and 1, then 1 and 1 bytes), then a regular window of zeros,
// which the keeps but KeepAll refuse: with KeepAll the portable level takes
// the first window by pairs only (TakeRecordPairs), and the regular window
// after it by the last pair's length; with Accepts, the regular window
// compares its values with the last value accepted (none yet reads as 0)
// and must ask about the zeros. Every keep, every level: what the record
// loop gives.
TEST(RunBlocks, ARegularWindowAfterPairedRecordsAsksAboutItsValues) {
  constexpr std::uint8_t kTag = 0x08;
  std::vector<std::uint8_t> bytes;
  for (int pair = 0; pair < 12; ++pair) {
    bytes.insert(bytes.end(), {0x81, 0x01, kTag, 0x05, kTag});
  }
  bytes.insert(bytes.end(), {0x05, kTag, 0x06, kTag});
  ASSERT_EQ(bytes.size(), 64u);
  for (int zero = 0; zero < 60; ++zero) bytes.insert(bytes.end(), {0, kTag});
  bytes.pop_back();
  for (const KernelLevel level : {KernelLevel::kPortable, KernelLevel::kAvx2}) {
    if (!CpuSupports(level)) continue;
    EXPECT_TRUE(
        rc::check(std::string("paired, then zeros, ") +
                      std::string(KernelLevelName(level)),
                  [&] {
                    CheckRunBytes<FieldKind::kInt32>(level, bytes, kTag, 16);
                    CheckRunBytes<FieldKind::kEnum>(level, bytes, kTag, 16);
                  }));
  }
}

TEST(RunBlocks, PortableKernelTakesAPrefixAndTheRunMatchesTheRecordLoop) {
  EXPECT_TRUE(rc::check("RunBlocks portable",
                        [] { CheckRunOfEachKindAt(KernelLevel::kPortable); }));
}

TEST(RunBlocks, PortableKernelTakesRunsOfShortValuesTwoRecordsAtATime) {
  EXPECT_TRUE(rc::check("RunBlocks portable, short values", [] {
    CheckPairedRunOfEachKindAt(KernelLevel::kPortable);
  }));
}

FAIRWIRE_LEVEL_PROP(RunBlocks, Avx2KernelTakesRunsOfShortValues,
                    KernelLevel::kAvx2,
                    { CheckPairedRunOfEachKindAt(KernelLevel::kAvx2); })

FAIRWIRE_LEVEL_PROP(RunBlocks,
                    Avx2KernelTakesAPrefixAndTheRunMatchesTheRecordLoop,
                    KernelLevel::kAvx2,
                    { CheckRunOfEachKindAt(KernelLevel::kAvx2); })

// At the avx512 level ParseVarintRun gives a run that opens with a regular
// window to the avx2 kernel and any other to the AVX-512 kernel: both give
// what the record loop gives (the runs' tags say how many opened each way).
FAIRWIRE_LEVEL_PROP(RunBlocks, Avx512RunsOfEitherOpeningMatchTheRecordLoop,
                    KernelLevel::kAvx512,
                    { CheckRunOfEachKindAt(KernelLevel::kAvx512); })

}  // namespace
}  // namespace fairwire::wire::internal
