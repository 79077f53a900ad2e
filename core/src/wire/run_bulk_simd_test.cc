// Differential properties of the run kernel's bulk-checked path
// (avx512::DecodeRunBulk through ParseVarintRun, the closed-enum checks'
// AllKnown, the typed bindings' AllValid) and of its per-kind group stores:
// against the record-at-a-time loop, on long runs (several bulk chunks and
// output windows) with unknown enum values planted at every position of a
// chunk, at chunk ends and in the tail, and on runs of every varint kind.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "fairwire/wire/internal/access.h"
#include "fairwire/wire/internal/bound_run.h"
#include "fairwire/wire/internal/enum_avx512.h"
#include "fairwire/wire/internal/run_avx512.h"
#include "fairwire/wire/internal/varint_run.h"
#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/schema.h"
#include "simd_test_gen.h"

namespace fairwire::wire::internal {
namespace {

using testgen::AppendVarint;
using testgen::GenEnum;

// A closed enum's predicate for the typed path, with values inside the
// cached bitmap, at its edges and past it.
bool TestLevel(std::int32_t v) {
  switch (v) {
    case -1:
    case 0:
    case 1:
    case 7:
    case 100:
    case 999:
    case 1023:
    case 1024:
    case 70000:
      return true;
    default:
      return false;
  }
}
const std::vector<std::int32_t> kTestLevels = {-1,  0,    1,    7,    100,
                                               999, 1023, 1024, 70000};

// The positions (record indexes) where a long run gets an unknown value:
// none, one or a few, each at a chunk or group edge or anywhere, or every
// k-th record.
std::set<int> GenUnknownPositions(int records) {
  std::set<int> at;
  if (records == 0) return at;
  const auto how = *rc::gen::inRange(0, 6);
  if (how == 0) return at;
  if (how == 5) {
    const auto every = *rc::gen::inRange(1, 40);
    for (int i = *rc::gen::inRange(0, every); i < records; i += every) {
      at.insert(i);
    }
    return at;
  }
  for (int k = 0; k < how; ++k) {
    const int edge = *rc::gen::element(0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 65,
                                       990, 991, 992, 1023, 1024, 1025, 2047,
                                       2048, records - 2, records - 1);
    const int pos =
        *rc::gen::oneOf(rc::gen::just(edge), rc::gen::inRange(0, records));
    if (pos >= 0 && pos < records) at.insert(pos);
  }
  return at;
}

// A long run [value][tag][value]... of `records` values from `members`, an
// unknown one (not a member) at each of `unknown_at`; maybe a foreign tag,
// maybe cut inside the last record.
std::vector<std::uint8_t> GenLongRun(std::uint8_t tag_byte,
                                     const std::vector<std::int32_t>& members,
                                     const auto& is_member) {
  const int records =
      *rc::gen::oneOf(rc::gen::inRange(0, 100), rc::gen::inRange(900, 1200),
                      rc::gen::inRange(1900, 2600));
  const std::set<int> unknown_at = GenUnknownPositions(records);
  RC_TAG(unknown_at.empty() ? "no unknown" : "unknowns");
  std::vector<std::uint8_t> out;
  for (int i = 0; i < records; ++i) {
    if (i != 0) out.push_back(tag_byte);
    std::int32_t value = *rc::gen::elementOf(members);
    if (unknown_at.count(i) != 0) {
      // A member's neighbour or anything, moved past members (no generator
      // captures is_member: shrinking runs after this frame is gone).
      value = *rc::gen::oneOf(rc::gen::just(value),
                              rc::gen::arbitrary<std::int32_t>());
      do {
        value =
            static_cast<std::int32_t>(static_cast<std::uint32_t>(value) + 1u);
      } while (is_member(value));
    }
    auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
    do {
      out.push_back(
          static_cast<std::uint8_t>((v & 0x7F) | (v > 0x7F ? 0x80 : 0)));
      v >>= 7;
    } while (v != 0);
  }
  const auto ending = *rc::gen::inRange(0, 4);
  if (ending == 1 && !out.empty()) {
    out.push_back(static_cast<std::uint8_t>(tag_byte ^ 0x10));
    out.push_back(0x01);
  } else if (ending == 2 && !out.empty()) {
    out.resize(*rc::gen::inRange<std::size_t>(0, out.size()));
  }
  return out;
}

// What ParseVarintRun (or the record loop) made of a run.
struct LongRunOutcome {
  std::vector<std::int32_t> values;
  std::vector<std::int32_t> unknown;
  std::ptrdiff_t stopped = -1;  // -1: error
  DecodeError error = DecodeError::kOk;
  std::size_t error_offset = 0;
  bool operator==(const LongRunOutcome&) const = default;
};

// ParseVarintRun<kEnum> with `check` (maybe null: no run check) against the
// record-at-a-time loop: same values, same unknowns in the same order, same
// end or error.
template <typename Check, typename Member>
void CheckLongRun(const Check* check, const Member& is_member,
                  const std::vector<std::int32_t>& members) {
  const auto tag_byte =
      static_cast<std::uint8_t>(*rc::gen::inRange(1, 16) << 3);
  const std::vector<std::uint8_t> bytes =
      GenLongRun(tag_byte, members, is_member);
  if (bytes.empty()) return;
  const std::uint8_t* const begin = bytes.data();
  const std::uint8_t* const end = begin + bytes.size();
  const std::vector<std::int32_t> before =
      *rc::gen::container<std::vector<std::int32_t>>(
          *rc::gen::inRange<std::size_t>(0, 4),
          rc::gen::arbitrary<std::int32_t>());

  LongRunOutcome expected;
  expected.values = before;
  {
    ParseContext ctx{begin, end, kMaxDepth, {}};
    const std::uint8_t* p = begin;
    for (;;) {
      std::uint64_t raw;
      const std::uint8_t* q = ReadRaw<WireType::kVarint>(ctx, p, end, &raw);
      if (q == nullptr) break;
      const auto value = static_cast<std::int32_t>(raw);
      (is_member(value) ? expected.values : expected.unknown).push_back(value);
      if (end - q < 2 || *q != tag_byte) {
        expected.stopped = q - begin;
        break;
      }
      p = q + 1;
    }
    expected.error = ctx.status.error;
    expected.error_offset = ctx.status.offset;
  }

  LongRunOutcome got;
  got.values = before;
  ParseContext ctx{begin, end, kMaxDepth, {}};
  const auto keep = [&](std::int32_t value) {
    if (is_member(value)) return true;
    got.unknown.push_back(value);
    return false;
  };
  const std::uint8_t* q = ParseVarintRun<FieldKind::kEnum>(
      ctx, begin, end, tag_byte, got.values, keep, check);
  got.stopped = q != nullptr ? q - begin : -1;
  got.error = ctx.status.error;
  got.error_offset = ctx.status.offset;
  RC_TAG(expected.values.size() / 1024 * 1024);
  RC_ASSERT(got == expected);
}

// Closed-enum runs through the schema's bitmap check.
RC_GTEST_PROP(RunBulk, ClosedEnumRunMatchesTheRecordLoop, ()) {
  EnumDef def = GenEnum();
  const Schema schema = testgen::SchemaOfEnum(def);
  const EnumBitmap& bitmap = SchemaAccess::Bitmap(schema, 0);
  RC_PRE(FitsEnumAvx512(bitmap));
  const auto is_member = [&](std::int32_t v) {
    return std::binary_search(def.values.begin(), def.values.end(), v);
  };
  RC_TAG(CpuSupports(KernelLevel::kAvx512) ? "AVX-512" : "scalar only");
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  const EnumRunCheckAvx512 check{&bitmap};
  CheckLongRun(&check, is_member, def.values);
#else
  static constexpr AcceptAllRunCheck kAcceptAll{};
  CheckLongRun(&kAcceptAll, is_member, def.values);
#endif
}

// Typed closed-enum runs through IsValid (its cached bitmap and the values
// past it).
RC_GTEST_PROP(RunBulk, PredicateRunMatchesTheRecordLoop, ()) {
  const std::vector<std::int32_t>& members = kTestLevels;
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  static constexpr PredicateRunCheck<&TestLevel> kCheck{};
  CheckLongRun(&kCheck, &TestLevel, members);
#else
  static constexpr AcceptAllRunCheck kAcceptAll{};
  CheckLongRun(&kAcceptAll, &TestLevel, members);
#endif
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// Closed-enum runs without a run check, as the dynamic decoder passes for an
// enum too large for the AVX-512 table (RunCheck() null): at the avx512
// level, the avx2 level's record run, with the same result.
FAIRWIRE_LEVEL_PROP(RunBulk, ClosedEnumRunWithoutARunCheckMatchesTheRecordLoop,
                    KernelLevel::kAvx512, {
                      const ScopedKernelLevel forced(KernelLevel::kAvx512);
                      const EnumRunCheckAvx512* const no_check = nullptr;
                      CheckLongRun(no_check, &TestLevel, kTestLevels);
                    })

// TestLevel's run check, logging how the kernel asks it: 'b' for a bulk
// check of stored values (AllKnown), 'g' for a group of eight (Accept).
struct LoggingRunCheck {
  using Inner = PredicateRunCheck<&TestLevel>;
  static constexpr bool kChecks = true;
  using State = Inner::State;
  std::string* log;
  State Start() const { return Inner{}.Start(); }
  [[FAIRWIRE_AVX512_TARGET]] unsigned Accept(const State& state, __m512i raw,
                                             unsigned lanes) const {
    *log += 'g';
    return Inner{}.Accept(state, raw, lanes);
  }
  bool AllKnown(const std::int32_t* values, std::size_t count) const {
    *log += 'b';
    return Inner{}.AllKnown(values, count);
  }
};

// Where unknown values are rare, the kernel checks a closed-enum run in
// bulk: a long run without an unknown value is checked in bulk only, never
// per group of eight; after an unknown value (which the record loop gives
// keep, 'u' in the log) it is checked per group for a stretch, then in bulk
// again. Either way the kernel decodes all but a few of the records. The
// first value is padded to two bytes, so that the run does not open with a
// regular window, which ParseVarintRun would give to the avx2 kernel.
TEST(RunBulk, KnownStretchesOfALongClosedEnumRunAreCheckedInBulk) {
  if (!CpuSupports(KernelLevel::kAvx512)) {
    GTEST_SKIP() << "avx512 level untested: this CPU cannot run it";
  }
  const ScopedKernelLevel forced(KernelLevel::kAvx512);
  constexpr std::uint8_t kTag = 0x08;
  constexpr int kRecords = 3000;
  for (const int unknown_at : {-1, 3}) {
    std::vector<std::uint8_t> bytes;
    std::vector<std::int32_t> want;
    for (int i = 0; i < kRecords; ++i) {
      if (i != 0) bytes.push_back(kTag);
      // One-byte values: members 0, 1, 7, 100 and the unknown 2.
      const std::int32_t value =
          i == unknown_at ? 2
                          : kTestLevels[static_cast<std::size_t>(i % 4 + 1)];
      if (i == 0) bytes.push_back(static_cast<std::uint8_t>(0x80 | value));
      bytes.push_back(static_cast<std::uint8_t>(i == 0 ? 0 : value));
      if (i != unknown_at) want.push_back(value);
    }
    std::string log;
    std::size_t asked = 0;
    const auto keep = [&](std::int32_t value) {
      ++asked;
      if (TestLevel(value)) return true;
      log += 'u';
      return false;
    };
    const std::uint8_t* const begin = bytes.data();
    const std::uint8_t* const end = begin + bytes.size();
    ParseContext ctx{begin, end, kMaxDepth, {}};
    std::vector<std::int32_t> got;
    const LoggingRunCheck check{&log};
    const std::uint8_t* q = ParseVarintRun<FieldKind::kEnum>(
        ctx, begin, end, kTag, got, keep, &check);
    ASSERT_EQ(q, end) << ToString(ctx.status);
    ASSERT_EQ(got, want);
    EXPECT_LT(asked * 10, static_cast<std::size_t>(kRecords))
        << "the record loop read " << asked << " records";
    const std::size_t unknown = log.find('u');
    if (unknown_at < 0) {
      EXPECT_EQ(unknown, std::string::npos);
      EXPECT_NE(log.find('b'), std::string::npos) << log;
      EXPECT_EQ(log.find('g'), std::string::npos) << log;
    } else {
      ASSERT_NE(unknown, std::string::npos) << log;
      EXPECT_NE(log.find('g', unknown), std::string::npos) << log;
      EXPECT_NE(log.find('b', unknown), std::string::npos) << log;
    }
  }
}
#endif  // FAIRWIRE_WIRE_HAVE_AVX512_PATH

// AllValid (typed packed closed enums) against IsValid on every value, for
// every prefix length.
RC_GTEST_PROP(RunBulk, AllValidMatchesIsValid, ()) {
  const auto values = *rc::gen::container<std::vector<std::int32_t>>(
      *rc::gen::inRange<std::size_t>(0, 200),
      rc::gen::weightedOneOf<std::int32_t>(
          {{20, rc::gen::elementOf(kTestLevels)},
           {1, rc::gen::inRange<std::int32_t>(-3, 1100)},
           {1, rc::gen::arbitrary<std::int32_t>()}}));
  for (std::size_t n = 0; n <= values.size(); ++n) {
    const std::vector<std::int32_t> prefix(
        values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
    RC_ASSERT(AllValid<&TestLevel>(prefix.data(), n) ==
              std::all_of(prefix.begin(), prefix.end(), &TestLevel));
  }
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// DecodeRun<K> with AcceptAll (each kind's group store) against the record
// loop with the kind's conversion.
template <FieldKind K>
void CheckKindRun() {
  using T = typename KindTraits<K>::Type;
  const auto tag_byte =
      static_cast<std::uint8_t>(*rc::gen::inRange(1, 16) << 3);
  std::vector<std::uint8_t> bytes;
  const auto records = *rc::gen::inRange(0, 200);
  for (int i = 0; i < records; ++i) {
    if (i != 0) bytes.push_back(tag_byte);
    AppendVarint(bytes, *rc::gen::weightedElement<int>(
                            {{6, 1}, {6, 2}, {3, 3}, {2, 5}, {2, 10}}));
  }
  if (bytes.empty()) return;
  const std::uint8_t* const begin = bytes.data();
  const std::uint8_t* const end = begin + bytes.size();
  std::vector<T> expected;
  std::vector<std::ptrdiff_t> starts;
  for (const std::uint8_t* p = begin;;) {
    starts.push_back(p - begin);
    std::uint64_t raw;
    DecodeError error;
    const std::uint8_t* q =
        ReadVarintSlow(p, end, kMaxVarintBytes, &raw, &error);
    if (q == nullptr || end - q < 2 || *q != tag_byte) break;
    expected.push_back(KindTraits<K>::Convert(raw));
    p = q + 1;
  }
  std::vector<T> out(bytes.size() + avx512::kRunBlockSlots, T{0x5A});
  const std::uint8_t* p = begin;
  T* dst = out.data();
  avx512::DecodeRun<K>(&p, end, tag_byte, &dst, out.data() + out.size(),
                       avx512::AcceptAll{});
  const std::vector<T> got(out.data(), dst);
  RC_ASSERT(got == expected);
  RC_ASSERT(p - begin == starts[got.size()]);
}

FAIRWIRE_LEVEL_PROP(RunBulk, EveryKindsGroupStoreMatchesTheRecordLoop,
                    KernelLevel::kAvx512, {
                      CheckKindRun<FieldKind::kInt32>();
                      CheckKindRun<FieldKind::kInt64>();
                      CheckKindRun<FieldKind::kUint32>();
                      CheckKindRun<FieldKind::kUint64>();
                      CheckKindRun<FieldKind::kSint32>();
                      CheckKindRun<FieldKind::kSint64>();
                      CheckKindRun<FieldKind::kBool>();
                      CheckKindRun<FieldKind::kEnum>();
                    })
#endif  // FAIRWIRE_WIRE_HAVE_AVX512_PATH

}  // namespace
}  // namespace fairwire::wire::internal
