// Properties of the avx2 level's shape kernels (varint_shapes.h).
// Runs of [tag][varint] records (run_shapes.h): for every VARINT kind it
// decodes, and for each keep it takes (all values, Accepts, a closed enum's
// bitmap held in registers or gathered), alone the kernel takes a prefix of
// the records with each value right, and within ParseVarintRun it gives what
// the record-at-a-time rule gives. Packed payloads (packed_shapes.h): alone
// and within ParsePackedVarint, every kind's values are the element-at-a-
// time rule's. For each kernel, one test walks every shape of its table.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/packed_shapes.h"
#include "fairwire/wire/internal/packed_varint.h"
#include "fairwire/wire/internal/run_shapes.h"
#include "fairwire/wire/internal/varint_run.h"
#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/status.h"
#include "simd_test_gen.h"

namespace fairwire::wire::internal {
namespace {

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH

using testgen::AppendVarint;
using testgen::GenRunBytes;
using testgen::ReferenceRun;
using testgen::RunOutcome;

// A closed enum's membership as a bitmap (EnumBitmap's meaning, written
// here again: value v is a member when bit v - base is set, or when it is
// one of the far values).
bool InBitmap(const EnumBitmap& bitmap, std::int64_t value) {
  const std::int64_t offset = value - bitmap.base;
  if (std::find(bitmap.far_values.begin(), bitmap.far_values.end(), value) !=
      bitmap.far_values.end()) {
    return true;
  }
  return offset >= 0 &&
         offset < static_cast<std::int64_t>(bitmap.bits.size() * 64) &&
         ((bitmap.bits[static_cast<std::size_t>(offset / 64)] >>
           (offset % 64)) &
          1u) != 0;
}

// The keeps the shape kernel takes, each with the membership rule it
// stands for (Member), and a record of what it refused.
template <typename T>
struct KeepAccepting {  // Accepts, asked value by value
  std::vector<T>* refused;
  static bool Member(T value) { return (value & 7) != 3; }
  bool operator()(T value) const {
    if (Member(value)) return true;
    refused->push_back(value);
    return false;
  }
  bool Accepts(T value) const { return Member(value); }
};

struct KeepInBitmap {  // a closed enum's bitmap, checked in registers
  const EnumBitmap* bitmap;
  std::vector<std::int32_t>* refused;
  bool Member(std::int32_t value) const { return InBitmap(*bitmap, value); }
  bool operator()(std::int32_t value) const {
    if (Member(value)) return true;
    refused->push_back(value);
    return false;
  }
  bool Accepts(std::int32_t value) const { return Member(value); }
  EnumBitmapView Bitmap() const { return ViewOf(*bitmap); }
};

// A bitmap of 64 to 4096 bits (held in registers up to 1024, gathered
// past that) from a base near zero, its members dense near the small values
// that runs carry, and maybe far values just past it.
EnumBitmap GenBitmap() {
  EnumBitmap bitmap;
  bitmap.base = *rc::gen::inRange<std::int32_t>(-3, 40);
  const auto words = *rc::gen::element<std::size_t>(1, 2, 15, 16, 17, 64);
  const auto density = *rc::gen::inRange(1, 9);
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t word = 0;
    for (int b = 0; b < 64; ++b) {
      if (*rc::gen::inRange(0, 10) < density) word |= std::uint64_t{1} << b;
    }
    bitmap.bits.push_back(word);
  }
  // Far values past the bitmap: none, up to the four held in registers, or
  // more (the rest left to the record loop).
  const auto far = *rc::gen::element<int>(0, 0, 1, 4, 6);
  const std::int64_t past = bitmap.base + static_cast<std::int64_t>(words * 64);
  for (int i = 0; i < far; ++i) {
    bitmap.far_values.push_back(
        static_cast<std::int32_t>(past + *rc::gen::inRange(0, 300)));
  }
  std::sort(bitmap.far_values.begin(), bitmap.far_values.end());
  return bitmap;
}

std::string Hex(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (const std::uint8_t b : bytes) {
    hex += kDigits[b >> 4];
    hex += kDigits[b & 15];
  }
  return hex;
}

// The run of `bytes` (from a value) through the shape kernel alone and
// through ParseVarintRun at the avx2 level, with the keep `make_keep(refused)`
// makes, against the reference. `after` bytes of the tag follow the run in
// the input (as after a nested message's run), in an exact-size buffer: a
// read past it is an ASan failure.
template <FieldKind K, typename MakeKeep>
void CheckRun(const std::vector<std::uint8_t>& bytes, std::uint8_t tag_byte,
              std::size_t after, const MakeKeep& make_keep) {
  using T = typename KindTraits<K>::Type;
  std::vector<T> ignored;
  const auto member = [&](T value) {
    const auto keep = make_keep(&ignored);
    if constexpr (requires { keep.Accepts(value); }) {
      return keep.Accepts(value);
    } else {
      return true;
    }
  };
  std::vector<std::ptrdiff_t> starts;
  const RunOutcome<T> expected =
      ReferenceRun<K>(bytes, tag_byte, member, &starts);
  std::vector<std::uint8_t> input = bytes;
  input.resize(bytes.size() + after, tag_byte);
  const std::uint8_t* const begin = input.data();
  const std::uint8_t* const end = begin + bytes.size();
  const std::uint8_t* const limit = begin + input.size();
  const std::vector<T> before = {T{7}, T{5}};

  // Alone: a prefix of the records, ending at a value's start, each value
  // right. With a keep that keeps all, every record followed by the run's
  // tag with 80 bytes of input after it is taken (it does not stop early).
  std::vector<T> alone = before;
  std::vector<T> refused_alone;
  const std::uint8_t* p = DecodeRunShapesAvx2<K>(
      begin, end, limit, tag_byte, alone, make_keep(&refused_alone));
  const std::size_t taken = alone.size() - before.size();
  RC_ASSERT(refused_alone.empty());
  RC_ASSERT(taken < starts.size());
  RC_ASSERT(p - begin == starts[taken]);
  RC_ASSERT(taken <= expected.kept.size());
  RC_ASSERT(
      std::equal(alone.begin() + static_cast<std::ptrdiff_t>(before.size()),
                 alone.end(), expected.kept.begin()));
  if (expected.refused.empty()) {
    for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
      if (static_cast<std::size_t>(starts[i + 1]) + 64 + 16 + 12 >
          bytes.size()) {
        break;
      }
      if (i == taken) {
        RC_LOG() << "kind " << static_cast<int>(K) << ", " << bytes.size()
                 << " bytes, " << after << " after: " << Hex(bytes) << "\n";
        RC_FAIL("the kernel stopped early, at record " + std::to_string(i));
      }
    }
  }

  // Within ParseVarintRun: what the record loop gives.
  const ScopedKernelLevel forced(KernelLevel::kAvx2);
  RunOutcome<T> got;
  got.kept = before;
  ParseContext ctx{begin, limit, kMaxDepth, {}};
  static constexpr AcceptAllRunCheck kAcceptAll{};
  const std::uint8_t* q =
      ParseVarintRun<K>(ctx, begin, end, tag_byte, got.kept,
                        make_keep(&got.refused), &kAcceptAll);
  got.stopped = q == nullptr ? -1 : q - begin;
  got.error = ctx.status.error;
  got.offset = ctx.status.offset;
  RunOutcome<T> want = expected;
  want.kept = before;
  want.kept.insert(want.kept.end(), expected.kept.begin(), expected.kept.end());
  RC_ASSERT(got == want);
}

// A random run of kind K, with a keep that keeps all and one with Accepts.
template <FieldKind K>
void CheckKind() {
  using T = typename KindTraits<K>::Type;
  const auto tag_byte =
      static_cast<std::uint8_t>(*rc::gen::inRange(1, 16) << 3);
  const std::vector<std::uint8_t> bytes = GenRunBytes(tag_byte);
  if (bytes.empty()) return;
  const auto after = *rc::gen::element<std::size_t>(0, 0, 1, 15, 16, 80, 100);
  CheckRun<K>(bytes, tag_byte, after,
              [](std::vector<T>*) { return KeepAll<T>{}; });
  CheckRun<K>(bytes, tag_byte, after, [](std::vector<T>* refused) {
    return KeepAccepting<T>{refused};
  });
}

FAIRWIRE_LEVEL_PROP(RunShapes, EveryKindMatchesTheRecordLoop,
                    KernelLevel::kAvx2, {
                      CheckKind<FieldKind::kInt32>();
                      CheckKind<FieldKind::kInt64>();
                      CheckKind<FieldKind::kUint32>();
                      CheckKind<FieldKind::kUint64>();
                      CheckKind<FieldKind::kSint32>();
                      CheckKind<FieldKind::kSint64>();
                      CheckKind<FieldKind::kEnum>();
                    })

// A closed enum's run with its bitmap as the kernel's check: held in
// registers (up to 1024 bits) or gathered, values in and out of it.
FAIRWIRE_LEVEL_PROP(
    RunShapes, ClosedEnumBitmapMatchesTheRecordLoop, KernelLevel::kAvx2, {
      const auto tag_byte =
          static_cast<std::uint8_t>(*rc::gen::inRange(1, 16) << 3);
      const std::vector<std::uint8_t> bytes = GenRunBytes(tag_byte);
      if (bytes.empty()) return;
      const auto after = *rc::gen::element<std::size_t>(0, 1, 16, 80, 100);
      for (int i = 0; i < 3; ++i) {
        const EnumBitmap bitmap = GenBitmap();
        RC_TAG(bitmap.bits.size() * 64 <= EnumBitmapAvx2::kHeldBits
                   ? "held"
                   : "gathered");
        CheckRun<FieldKind::kEnum>(bytes, tag_byte, after,
                                   [&](std::vector<std::int32_t>* refused) {
                                     return KeepInBitmap{&bitmap, refused};
                                   });
      }
    })

// A closed enum's run longer than the kernel's buffer (it checks its
// buffered values in bulk, before it hands them on), with one unknown value
// or none: the kernel stops at the step holding the first unknown value
// (at most kShapeLanes - 1 known records before it), and the run gives what
// the record loop gives.
FAIRWIRE_LEVEL_PROP(
    RunShapes, ALongClosedEnumRunStopsAtTheStepOfItsUnknownValue,
    KernelLevel::kAvx2, {
      const auto tag_byte =
          static_cast<std::uint8_t>(*rc::gen::inRange(1, 16) << 3);
      const EnumBitmap bitmap = GenBitmap();
      std::vector<std::int32_t> members;
      for (std::int64_t v = bitmap.base;
           v < bitmap.base + static_cast<std::int64_t>(bitmap.bits.size() * 64);
           ++v) {
        if (InBitmap(bitmap, v))
          members.push_back(static_cast<std::int32_t>(v));
      }
      RC_PRE(!members.empty());
      std::int32_t unknown = *rc::gen::element<std::int32_t>(
          -1, bitmap.base - 1, 1 << 20, INT32_MAX);
      while (InBitmap(bitmap, unknown)) --unknown;
      const auto records =
          static_cast<std::size_t>(*rc::gen::inRange(230, 800));
      const auto at = static_cast<std::size_t>(
          *rc::gen::inRange<std::size_t>(0, records + 1));  // records: none
      std::vector<std::uint8_t> bytes;
      std::vector<std::size_t> starts;
      for (std::size_t i = 0; i < records; ++i) {
        if (i != 0) bytes.push_back(tag_byte);
        starts.push_back(bytes.size());
        const std::int32_t value =
            i == at
                ? unknown
                : members[*rc::gen::inRange<std::size_t>(0, members.size())];
        // An enum value is written as its int64 varint.
        auto raw = static_cast<std::uint64_t>(std::int64_t{value});
        while (raw >= 0x80) {
          bytes.push_back(static_cast<std::uint8_t>(raw | 0x80));
          raw >>= 7;
        }
        bytes.push_back(static_cast<std::uint8_t>(raw));
      }
      RC_TAG(bitmap.bits.size() * 64 <= EnumBitmapAvx2::kHeldBits ? "held"
                                                                  : "gathered");
      CheckRun<FieldKind::kEnum>(bytes, tag_byte, 100,
                                 [&](std::vector<std::int32_t>* refused) {
                                   return KeepInBitmap{&bitmap, refused};
                                 });
      if (at < records && starts[at] + 64 + 16 + kShapeBytes <= bytes.size()) {
        std::vector<std::int32_t> alone, refused;
        std::vector<std::uint8_t> input = bytes;
        input.resize(bytes.size() + 100, tag_byte);
        DecodeRunShapesAvx2<FieldKind::kEnum>(
            input.data(), input.data() + bytes.size(),
            input.data() + input.size(), tag_byte, alone,
            KeepInBitmap{&bitmap, &refused});
        RC_ASSERT(alone.size() <= at);
        RC_ASSERT(alone.size() + kShapeLanes > at);
      }
    })

// Every terminator pattern of a shape's twelve bytes, as the run's first
// bytes (terminators are the tag byte, which is also a valid last byte of a
// value; the others 0x81), followed by regular records: the kernel and the
// run give what the record-at-a-time rule gives, for a 64-bit and a 32-bit
// kind.
TEST(RunShapes, EveryShapeOfTheTableDecodesAsTheRecordLoop) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  constexpr std::uint8_t kTag = 0x08;
  for (unsigned pattern = 0; pattern < (1u << kShapeBytes); ++pattern) {
    std::vector<std::uint8_t> bytes;
    for (int i = 0; i < kShapeBytes; ++i) {
      bytes.push_back(((pattern >> i) & 1u) != 0 ? kTag : 0x81);
    }
    // Then a terminator (ending any value left open) and regular records.
    bytes.push_back(0x01);
    for (int r = 0; r < 60; ++r) {
      bytes.push_back(kTag);
      bytes.push_back(static_cast<std::uint8_t>(r % 3 == 0 ? 0x85 : 0x05));
      if (r % 3 == 0) bytes.push_back(0x02);
    }
    const RunShape shape = kRunShapes.shapes[pattern];
    ASSERT_LE(shape.values, kShapeLanes) << pattern;
    ASSERT_LE(shape.consumed, kShapeBytes) << pattern;
    const auto check = [&](auto kind) {
      constexpr FieldKind K = decltype(kind)::value;
      using T = typename KindTraits<K>::Type;
      std::vector<std::ptrdiff_t> starts;
      const auto expected = ReferenceRun<K>(
          bytes, kTag, [](T) { return true; }, &starts);
      std::vector<std::uint8_t> input = bytes;
      input.resize(bytes.size() + 16, kTag);
      const std::uint8_t* begin = input.data();
      std::vector<T> alone;
      const std::uint8_t* p = DecodeRunShapesAvx2<K>(
          begin, begin + bytes.size(), begin + input.size(), kTag, alone,
          KeepAll<T>{});
      ASSERT_LT(alone.size(), starts.size()) << pattern;
      ASSERT_EQ(p - begin, starts[alone.size()]) << pattern;
      ASSERT_TRUE(std::equal(alone.begin(), alone.end(), expected.kept.begin()))
          << "pattern " << pattern;
      const ScopedKernelLevel forced(KernelLevel::kAvx2);
      ParseContext ctx{begin, begin + input.size(), kMaxDepth, {}};
      std::vector<T> got;
      const std::uint8_t* q = ParseVarintRun<K>(
          ctx, begin, begin + bytes.size(), kTag, got, KeepAll<T>{},
          static_cast<const AcceptAllRunCheck*>(nullptr));
      ASSERT_EQ(q == nullptr ? -1 : q - begin, expected.stopped) << pattern;
      ASSERT_EQ(got, expected.kept) << "pattern " << pattern;
    };
    check(std::integral_constant<FieldKind, FieldKind::kInt64>{});
    check(std::integral_constant<FieldKind, FieldKind::kSint32>{});
  }
}

// Bytes of `count` records of the run of tag kTag from its first value: the
// value of record i has width(i) bytes (0x81 ... 0x01, so the value is 1 mod
// 8, which KeepAccepting keeps), each value but the last followed by kTag.
template <typename Width>
std::vector<std::uint8_t> RegularRunBytes(std::size_t count, std::uint8_t tag,
                                          const Width& width) {
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 0; i < count; ++i) {
    if (i != 0) bytes.push_back(tag);
    for (int b = 1; b < width(i); ++b) bytes.push_back(0x81);
    bytes.push_back(0x01);
  }
  return bytes;
}

// The value widths the run tests sweep: one width throughout, or mixes of
// short (shape) and long (block step) values, so that records start at
// every offset of the kernel's windows.
int RunWidth(int pattern, std::size_t i) {
  const auto n = static_cast<int>(i % 1000);
  switch (pattern) {
    case 0:
      return 1;
    case 1:
      return 2;
    case 2:
      return 3;
    case 3:
      return 4;
    case 4:
      return n % 3 + 1;
    case 5:
      return n % 4 + 1;
    case 6:
      return (n * 5) % 7 + 1;
    default:
      return n % 5 == 4 ? 10 : 1;
  }
}
constexpr int kRunWidthPatterns = 8;

// The shape kernel alone on the run `bytes` (then `after` bytes of input):
// it takes a prefix of the records, each value right, none from a window
// with 64 bytes of the run or fewer than 80 of the input, and stops at a
// value's start only where a regular run leaves it no window: 64 bytes of
// the run or fewer than 80 of the input from there.
template <typename Keep>
void CheckRegularRunAlone(const std::vector<std::uint8_t>& bytes,
                          std::uint8_t tag, std::size_t after, const Keep& keep,
                          const std::string& what) {
  std::vector<std::ptrdiff_t> starts;
  const auto expected = ReferenceRun<FieldKind::kInt64>(
      bytes, tag, [](std::int64_t) { return true; }, &starts);
  std::vector<std::uint8_t> input = bytes;
  input.resize(bytes.size() + after, tag);
  const std::uint8_t* const begin = input.data();
  const std::uint8_t* const end = begin + bytes.size();
  const std::uint8_t* const limit = begin + input.size();
  std::vector<std::int64_t> alone;
  const std::uint8_t* p = DecodeRunShapesAvx2<FieldKind::kInt64>(
      begin, end, limit, tag, alone, keep);
  ASSERT_LT(alone.size(), starts.size()) << what;
  ASSERT_EQ(p - begin, starts[alone.size()]) << what;
  ASSERT_TRUE(std::equal(alone.begin(), alone.end(), expected.kept.begin()))
      << what;
  if (end - begin <= 64 || limit - begin < 64 + 16) {
    ASSERT_TRUE(alone.empty()) << what << ": a record taken from a window "
                               << "with 64 bytes of the run or fewer than 80 "
                               << "of the input";
  }
  ASSERT_TRUE(end - p <= 64 || limit - p < 64 + 16)
      << what << ": the kernel stopped early, " << (end - p)
      << " bytes of the run and " << (limit - p) << " of the input left";
}

// Regular runs of 60 to 230 bytes, ending after a value or after the run's
// tag (as a nested message's run may), with 0 to 16 or 80 bytes of input
// after them: the kernel alone, with a keep that keeps all and one with
// Accepts, takes the run up to its bounds and no further (never the record
// whose tag ends the run: the record loop stops at that tag); within
// ParseVarintRun the run gives the record loop's values and stop.
TEST(RunShapes, KernelTakesARegularRunUpToItsBoundsAndNoFurther) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  constexpr std::uint8_t kTag = 0x08;
  const ScopedKernelLevel forced(KernelLevel::kAvx2);
  for (int pattern = 0; pattern < kRunWidthPatterns; ++pattern) {
    const auto width = [pattern](std::size_t i) {
      return RunWidth(pattern, i);
    };
    for (std::size_t count = 1;; ++count) {
      std::vector<std::uint8_t> bytes = RegularRunBytes(count, kTag, width);
      if (bytes.size() > 230) break;
      if (bytes.size() < 60) continue;
      for (const bool tag_last : {false, true}) {
        if (tag_last) bytes.push_back(kTag);
        std::vector<std::ptrdiff_t> starts;
        const auto expected = ReferenceRun<FieldKind::kInt64>(
            bytes, kTag, [](std::int64_t) { return true; }, &starts);
        for (std::size_t after = 0; after <= 17; ++after) {
          const std::size_t tail = after == 17 ? 80 : after;
          const std::string what = "widths " + std::to_string(pattern) + ", " +
                                   std::to_string(bytes.size()) + " bytes" +
                                   (tag_last ? " ending in the tag" : "") +
                                   ", " + std::to_string(tail) + " after";
          std::vector<std::int64_t> ignored;
          CheckRegularRunAlone(bytes, kTag, tail, KeepAll<std::int64_t>{},
                               what + ", keeping all");
          CheckRegularRunAlone(bytes, kTag, tail,
                               KeepAccepting<std::int64_t>{&ignored},
                               what + ", with Accepts");
          if (::testing::Test::HasFatalFailure()) return;
          std::vector<std::uint8_t> input = bytes;
          input.resize(bytes.size() + tail, kTag);
          const std::uint8_t* const begin = input.data();
          ParseContext ctx{begin, begin + input.size(), kMaxDepth, {}};
          std::vector<std::int64_t> got;
          const std::uint8_t* q = ParseVarintRun<FieldKind::kInt64>(
              ctx, begin, begin + bytes.size(), kTag, got,
              KeepAll<std::int64_t>{},
              static_cast<const AcceptAllRunCheck*>(nullptr));
          ASSERT_EQ(q == nullptr ? -1 : q - begin, expected.stopped)
              << what << ": " << ToString(ctx.status);
          ASSERT_EQ(got, expected.kept) << what;
        }
      }
    }
  }
}

// Another field's one-byte tag after record k of a run, for every k of the
// first windows: the kernel alone takes every record before the one that
// tag ends and stops at its value (the run's last, which the record loop
// reads), whether its keep keeps all or asks Accepts. That value is one
// Accepts refuses: the kernel asks only about the records it takes, so it
// does not stop early for it.
TEST(RunShapes, KernelTakesEveryRecordBeforeAnotherFieldsTag) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  constexpr std::uint8_t kTag = 0x08;
  constexpr std::uint8_t kOther = kTag ^ 0x10;
  for (int pattern = 0; pattern < kRunWidthPatterns; ++pattern) {
    const auto width = [pattern](std::size_t i) {
      return RunWidth(pattern, i);
    };
    for (std::size_t k = 1; k <= 40; ++k) {
      std::vector<std::uint8_t> bytes = RegularRunBytes(k - 1, kTag, width);
      if (k > 1) bytes.push_back(kTag);
      bytes.push_back(0x03);  // the run's last value: KeepAccepting refuses it
      bytes.push_back(kOther);
      for (int r = 0; r < 60; ++r) {
        bytes.push_back(static_cast<std::uint8_t>(r % 2 == 0 ? 0x03 : 0x01));
        bytes.push_back(kTag);
      }
      bytes.push_back(0x01);
      std::vector<std::ptrdiff_t> starts;
      const auto expected = ReferenceRun<FieldKind::kInt64>(
          bytes, kTag, [](std::int64_t) { return true; }, &starts);
      ASSERT_EQ(expected.kept.size(), k);
      std::vector<std::uint8_t> input = bytes;
      input.resize(bytes.size() + 80, kTag);
      const std::uint8_t* const begin = input.data();
      const std::uint8_t* const end = begin + bytes.size();
      const auto check = [&](const auto& keep, const char* name) {
        std::vector<std::int64_t> alone;
        const std::uint8_t* p = DecodeRunShapesAvx2<FieldKind::kInt64>(
            begin, end, begin + input.size(), kTag, alone, keep);
        ASSERT_EQ(p - begin, starts.back())
            << name << ", widths " << pattern << ", " << k << " records";
        ASSERT_EQ(alone.size(), k - 1) << name;
        ASSERT_TRUE(
            std::equal(alone.begin(), alone.end(), expected.kept.begin()))
            << name;
      };
      std::vector<std::int64_t> refused;
      check(KeepAll<std::int64_t>{}, "keeping all");
      check(KeepAccepting<std::int64_t>{&refused}, "with Accepts");
      ASSERT_TRUE(refused.empty());
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// A value with no end in the 64 bytes from its start (an overlong varint)
// after k regular records: the kernel takes the k records and stops at it,
// and ParseVarintRun reports it there, as the record loop does.
TEST(RunShapes, AValueWithNoEndInItsWindowStopsTheKernel) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  constexpr std::uint8_t kTag = 0x08;
  const ScopedKernelLevel forced(KernelLevel::kAvx2);
  for (std::size_t k = 0; k <= 24; ++k) {
    std::vector<std::uint8_t> bytes =
        RegularRunBytes(k, kTag, [](std::size_t i) { return RunWidth(5, i); });
    if (k != 0) bytes.push_back(kTag);
    const auto overlong = static_cast<std::ptrdiff_t>(bytes.size());
    bytes.resize(bytes.size() + 70, 0x80);
    bytes.push_back(0x01);
    std::vector<std::ptrdiff_t> starts;
    const auto expected = ReferenceRun<FieldKind::kInt64>(
        bytes, kTag, [](std::int64_t) { return true; }, &starts);
    std::vector<std::uint8_t> input = bytes;
    input.resize(bytes.size() + 80, kTag);
    const std::uint8_t* const begin = input.data();
    const std::uint8_t* const end = begin + bytes.size();
    std::vector<std::int64_t> alone;
    const std::uint8_t* p = DecodeRunShapesAvx2<FieldKind::kInt64>(
        begin, end, begin + input.size(), kTag, alone, KeepAll<std::int64_t>{});
    ASSERT_EQ(p - begin, overlong) << k << " records";
    ASSERT_EQ(alone, expected.kept) << k << " records";
    ParseContext ctx{begin, begin + input.size(), kMaxDepth, {}};
    std::vector<std::int64_t> got;
    ASSERT_EQ(ParseVarintRun<FieldKind::kInt64>(
                  ctx, begin, end, kTag, got, KeepAll<std::int64_t>{},
                  static_cast<const AcceptAllRunCheck*>(nullptr)),
              nullptr);
    ASSERT_EQ(ctx.status.error, expected.error) << k << " records";
    ASSERT_EQ(static_cast<std::ptrdiff_t>(ctx.status.offset), overlong);
    ASSERT_EQ(got, expected.kept);
  }
}

// A packed payload of `count` valid elements (1 to 10 bytes, random bits),
// its lengths mostly short, or mixed with ten-byte ones as negative int64s
// are, or all short.
std::vector<std::uint8_t> GenPackedBytes() {
  std::vector<std::uint8_t> out;
  const auto count = *rc::gen::resize(100, rc::gen::inRange<int>(0, 600));
  const auto style = *rc::gen::inRange(0, 3);
  for (int i = 0; i < count; ++i) {
    int length;
    if (style == 0) {
      length = *rc::gen::weightedElement<int>(
          {{8, 1}, {4, 2}, {3, 3}, {1, 4}, {1, 5}, {2, 9}, {2, 10}});
    } else if (style == 1) {
      length = *rc::gen::inRange(1, 11);
    } else {
      length = *rc::gen::inRange(1, 5);
    }
    AppendVarint(out, length);
  }
  return out;
}

// The element-at-a-time rule (ReadVarintSlow, then the kind's conversion)
// over a valid payload.
template <FieldKind K>
std::vector<typename KindTraits<K>::Type> ReferencePacked(
    const std::vector<std::uint8_t>& bytes) {
  std::vector<typename KindTraits<K>::Type> values;
  const std::uint8_t* p = bytes.data();
  const std::uint8_t* const end = p + bytes.size();
  while (p != end) {
    std::uint64_t raw;
    DecodeError error;
    p = ReadVarintSlow(p, end, kMaxVarintBytes, &raw, &error);
    RC_ASSERT(p != nullptr);
    values.push_back(KindTraits<K>::Convert(raw));
  }
  return values;
}

// The payload `bytes`, with `after` bytes after it in an exact-size buffer
// (a read past it is an ASan failure), through the packed shape kernel
// alone (a prefix of the elements, ending at an element's start) and
// through ParsePackedVarint at the avx2 level (all of them, after what the
// vector held), against the reference.
template <FieldKind K>
void CheckPacked(const std::vector<std::uint8_t>& bytes, std::size_t after) {
  using T = typename KindTraits<K>::Type;
  const std::vector<T> expected = ReferencePacked<K>(bytes);
  std::vector<std::uint8_t> input = bytes;
  input.resize(bytes.size() + after, 0x01);
  const std::uint8_t* const begin = input.data();
  const std::uint8_t* const end = begin + bytes.size();
  const std::uint8_t* const limit = begin + input.size();

  std::vector<T> alone(expected.size() + kShapeLanes + 1);
  const std::uint8_t* p = begin;
  T* dst = alone.data();
  const bool ok = DecodePackedShapesAvx2<K, T>(&p, end, limit, &dst,
                                               alone.data() + alone.size());
  RC_ASSERT(ok);
  const auto taken = static_cast<std::size_t>(dst - alone.data());
  RC_ASSERT(taken <= expected.size());
  // It stops only where its conditions say (a valid payload has a
  // terminator in every 64 bytes): at an element where fewer than 64 bytes
  // of payload or 80 readable bytes are left, or the output has no room for
  // a window's elements and a shape's spare lanes. (A kernel that stopped
  // at once would leave everything to the block loop: right, but slow.)
  // (Offsets, not pointers, in the message: RapidCheck would print a
  // byte pointer as a string.)
  const std::ptrdiff_t left = end - p, readable = limit - p,
                       room = alone.data() + alone.size() - dst;
  if (!(left < 64 || readable < 64 + 16 ||
        room < static_cast<std::ptrdiff_t>(64 + kShapeLanes))) {
    RC_FAIL("the kernel stopped early: " + std::to_string(left) +
            " payload bytes and " + std::to_string(readable) +
            " readable left, room for " + std::to_string(room) + " values");
  }
  RC_ASSERT(std::equal(alone.begin(),
                       alone.begin() + static_cast<std::ptrdiff_t>(taken),
                       expected.begin()));
  const std::vector<T> rest(
      expected.begin() + static_cast<std::ptrdiff_t>(taken), expected.end());
  RC_ASSERT(ReferencePacked<K>(std::vector<std::uint8_t>(p, end)) == rest);

  // Two cursors over the two halves (split at an element's start), their
  // steps interleaved: each decodes a prefix of its half by the same rule,
  // and the first is written back before the second.
  if (!expected.empty()) {
    std::size_t mid = bytes.size() / 2;
    while (mid > 0 && bytes[mid - 1] >= 0x80) --mid;
    const auto first_count =
        ReferencePacked<K>(std::vector<std::uint8_t>(begin, begin + mid))
            .size();
    std::vector<T> both(expected.size() + 2 * (kShapeLanes + 1));
    T* const second_dst = both.data() + first_count + kShapeLanes + 1;
    PackedShapeCursor<K, T> first{begin, begin + mid, limit, both.data(),
                                  second_dst};
    PackedShapeCursor<K, T> second{begin + mid, end, limit, second_dst,
                                   both.data() + both.size()};
    DecodePackedShapesTwiceAvx2(&first, &second);
    for (const auto* c : {&first, &second}) {
      RC_ASSERT(c->ok);
      const bool is_first = c == &first;
      const std::uint8_t* const from = is_first ? begin : begin + mid;
      const std::uint8_t* const to = is_first ? begin + mid : end;
      T* const out = is_first ? both.data() : second_dst;
      const std::vector<T> want =
          ReferencePacked<K>(std::vector<std::uint8_t>(from, c->Position()));
      RC_ASSERT(static_cast<std::size_t>(c->dst - out) == want.size());
      RC_ASSERT(std::equal(want.begin(), want.end(), out));
      const std::ptrdiff_t half_left = to - c->Position(),
                           half_readable = limit - c->Position(),
                           half_room = c->dst_end - c->dst;
      if (!(half_left < 64 || half_readable < 64 + 16 ||
            half_room < static_cast<std::ptrdiff_t>(64 + kShapeLanes))) {
        RC_FAIL(std::string(is_first ? "first" : "second") +
                " cursor stopped early: " + std::to_string(half_left) +
                " payload bytes and " + std::to_string(half_readable) +
                " readable left, room for " + std::to_string(half_room));
      }
    }
  }

  const std::vector<T> before = {T{1}, T{0}};
  std::vector<T> got = before;
  ParseContext ctx{begin, limit, kMaxDepth, {}};
  const std::uint8_t* q =
      ParsePackedVarint<K>(ctx, begin, end, got, KernelLevel::kAvx2);
  RC_ASSERT(q == end);
  std::vector<T> want = before;
  want.insert(want.end(), expected.begin(), expected.end());
  RC_ASSERT(got == want);
}

FAIRWIRE_LEVEL_PROP(
    PackedShapes, EveryKindMatchesTheElementLoop, KernelLevel::kAvx2, {
      const std::vector<std::uint8_t> bytes = GenPackedBytes();
      RC_TAG(bytes.size() < 80 ? "under 80 bytes"
             : static_cast<std::ptrdiff_t>(bytes.size()) < kTwoCursorBytes
                 ? "one cursor"
                 : "two cursors");
      const auto after = *rc::gen::element<std::size_t>(0, 1, 15, 16, 80);
      CheckPacked<FieldKind::kInt32>(bytes, after);
      CheckPacked<FieldKind::kInt64>(bytes, after);
      CheckPacked<FieldKind::kUint32>(bytes, after);
      CheckPacked<FieldKind::kUint64>(bytes, after);
      CheckPacked<FieldKind::kSint32>(bytes, after);
      CheckPacked<FieldKind::kSint64>(bytes, after);
      CheckPacked<FieldKind::kEnum>(bytes, after);
    })

// Payloads of one-byte elements (the most elements per window) that end
// the input, in an exact-size buffer: neither the kernel alone nor
// ParsePackedVarint reads past the input (an ASan failure in the asan
// preset), whatever the payload's length around the kernel's window limits.
TEST(PackedShapes, ShortElementsEndingTheInputReadNothingPastIt) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  for (std::size_t n = 60; n <= 200; ++n) {
    std::vector<std::uint8_t> bytes(n);
    for (std::size_t i = 0; i < n; ++i) {
      bytes[i] = static_cast<std::uint8_t>(i % 128);
    }
    const std::vector<std::uint8_t> input(bytes.begin(), bytes.end());
    const std::uint8_t* const begin = input.data();
    const std::uint8_t* const end = begin + n;
    std::vector<std::int64_t> alone(n + kShapeLanes + 1);
    const std::uint8_t* p = begin;
    std::int64_t* dst = alone.data();
    ASSERT_TRUE((DecodePackedShapesAvx2<FieldKind::kInt64, std::int64_t>(
        &p, end, end, &dst, alone.data() + alone.size())));
    for (std::int64_t* v = alone.data(); v != dst; ++v) {
      ASSERT_EQ(*v, (v - alone.data()) % 128) << n;
    }
    ParseContext ctx{begin, end, kMaxDepth, {}};
    std::vector<std::int64_t> got;
    ASSERT_EQ(ParsePackedVarint<FieldKind::kInt64>(ctx, begin, end, got,
                                                   KernelLevel::kAvx2),
              end)
        << n;
    ASSERT_EQ(got.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], static_cast<std::int64_t>(i % 128)) << n;
    }
  }
}

// Every terminator pattern of a shape's twelve bytes, as the payload's
// first bytes (terminators 0x05, the others 0x81), then a terminator (ending
// any element left open) and one- and two-byte elements: the kernel alone and
// ParsePackedVarint give the element loop's values.
TEST(PackedShapes, EveryShapeOfTheTableDecodesAsTheElementLoop) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  for (unsigned pattern = 0; pattern < (1u << kShapeBytes); ++pattern) {
    std::vector<std::uint8_t> bytes;
    for (int i = 0; i < kShapeBytes; ++i) {
      bytes.push_back(((pattern >> i) & 1u) != 0 ? 0x05 : 0x81);
    }
    bytes.push_back(0x01);
    // (Patterns with an element of more than ten bytes are errors, which
    // the kernel leaves to the element loop: VarintKernels tests those.)
    int longest = 0;
    for (int i = 0, open = 0; i <= kShapeBytes; ++i) {
      open = i < kShapeBytes && ((pattern >> i) & 1u) == 0 ? open + 1 : 0;
      longest = std::max(longest, open + 1);
    }
    if (longest > kMaxVarintBytes) continue;
    for (int e = 0; e < 120; ++e) {
      if (e % 3 == 0) bytes.push_back(0x85);
      bytes.push_back(static_cast<std::uint8_t>(e % 128));
    }
    const PackedShape shape = kPackedShapes.shapes[pattern];
    ASSERT_LE(shape.values, kShapeLanes) << pattern;
    ASSERT_LE(shape.consumed, kShapeBytes) << pattern;
    const auto check = [&](auto kind) {
      constexpr FieldKind K = decltype(kind)::value;
      using T = typename KindTraits<K>::Type;
      std::vector<T> expected;
      const std::uint8_t* r = bytes.data();
      while (r != bytes.data() + bytes.size()) {
        std::uint64_t raw;
        DecodeError error;
        r = ReadVarintSlow(r, bytes.data() + bytes.size(), kMaxVarintBytes,
                           &raw, &error);
        ASSERT_NE(r, nullptr) << pattern;
        expected.push_back(KindTraits<K>::Convert(raw));
      }
      std::vector<std::uint8_t> input = bytes;
      input.resize(bytes.size() + 16, 0x01);
      const std::uint8_t* const begin = input.data();
      ParseContext ctx{begin, begin + input.size(), kMaxDepth, {}};
      std::vector<T> got;
      const std::uint8_t* q = ParsePackedVarint<K>(
          ctx, begin, begin + bytes.size(), got, KernelLevel::kAvx2);
      ASSERT_EQ(q, begin + bytes.size()) << "pattern " << pattern;
      ASSERT_EQ(got, expected) << "pattern " << pattern;
    };
    check(std::integral_constant<FieldKind, FieldKind::kInt64>{});
    check(std::integral_constant<FieldKind, FieldKind::kSint32>{});
  }
}

#else

TEST(VarintShapes, Avx2LevelOnly) {
  GTEST_SKIP() << "avx2 level untested: not an x86-64 build";
}

#endif  // FAIRWIRE_WIRE_HAVE_AVX2_PATH

}  // namespace
}  // namespace fairwire::wire::internal
