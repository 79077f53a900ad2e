// Differential properties of the closed-enum membership check and of the
// kernel for runs of unpacked records (AVX-512): against the enum's value
// list, and against the record-at-a-time run rule of the scalar loop, on
// runs with foreign tags, values of every length 1..11, unknown enum values
// and cut tails.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/wire/internal/access.h"
#include "fairwire/wire/internal/enum_avx512.h"
#include "fairwire/wire/internal/run_avx512.h"
#include "fairwire/wire/schema.h"
#include "simd_test_gen.h"

namespace fairwire::wire::internal {
namespace {

using testgen::AppendVarint;
using testgen::GenEnum;

RC_GTEST_PROP(EnumKernels, MembershipMatchesTheValueList, ()) {
  const EnumDef def = GenEnum();
  SchemaBuilder builder;
  builder.AddEnum(def);
  const std::optional<Schema> schema = std::move(builder).Build();
  RC_ASSERT(schema.has_value());
  // Candidates: members, their neighbours, anything.
  const auto values = *rc::gen::container<std::vector<std::int32_t>>(
      rc::gen::oneOf(rc::gen::elementOf(def.values),
                     rc::gen::map(rc::gen::elementOf(def.values),
                                  [](std::int32_t v) {
                                    return v == INT32_MAX ? v : v + 1;
                                  }),
                     rc::gen::arbitrary<std::int32_t>()));
  bool all = true;
  for (std::int32_t v : values) {
    const bool member =
        std::binary_search(def.values.begin(), def.values.end(), v);
    RC_ASSERT(schema->EnumContains(0, v) == member);
    all &= member;
  }
  const EnumBitmap& bitmap = SchemaAccess::Bitmap(*schema, 0);
  RC_TAG(FitsEnumAvx512(bitmap) ? "fits the AVX-512 check" : "too big");
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  if (CpuHasAvx512Varint() && FitsEnumAvx512(bitmap)) {
    // Every prefix length, so that every tail mask is used.
    for (std::size_t n = 0; n <= values.size(); ++n) {
      const bool expected = std::all_of(
          values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n),
          [&](std::int32_t v) {
            return std::binary_search(def.values.begin(), def.values.end(), v);
          });
      // An exact-size copy: a read past the values is an ASan failure.
      const std::vector<std::int32_t> prefix(
          values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
      RC_ASSERT(AllInEnumAvx512(prefix.data(), n, bitmap) == expected);
      // The bulk check of the run kernel (sixty-four values per step, then
      // sixteen), alone and with an exact predicate for the table's misses.
      RC_ASSERT(EnumRunCheckAvx512{&bitmap}.AllKnown(prefix.data(), n) ==
                expected);
      const auto odd = [](std::int32_t v) { return (v & 1) != 0; };
      const bool expected_or_odd =
          std::all_of(prefix.begin(), prefix.end(), [&](std::int32_t v) {
            return odd(v) ||
                   std::binary_search(def.values.begin(), def.values.end(), v);
          });
      RC_ASSERT(AllKnownAvx512(MakeEnumTableAvx512(bitmap), prefix.data(), n,
                               odd) == expected_or_odd);
    }
  }
#endif
  RC_TAG(all ? "all members" : "some unknown");
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// What a run kernel accepted: the values and where it stopped.
struct RunOutcome {
  std::vector<std::int32_t> values;
  std::ptrdiff_t stopped = 0;
  bool operator==(const RunOutcome&) const = default;
};

// The run rule, one record at a time (decoder.cc's scalar loop): a value of
// at most ten bytes, known to `member`, then the tag byte with a byte after
// it.
// `starts` gets each record's value offset.
template <typename Member>
RunOutcome ReferenceRun(const std::uint8_t* p, const std::uint8_t* end,
                        std::uint8_t tag_byte, const Member& member,
                        std::vector<std::ptrdiff_t>* starts) {
  RunOutcome o;
  const std::uint8_t* const begin = p;
  for (;;) {
    o.stopped = p - begin;
    starts->push_back(o.stopped);
    std::uint64_t raw;
    DecodeError error;
    const std::uint8_t* q =
        ReadVarintSlow(p, end, kMaxVarintBytes, &raw, &error);
    if (q == nullptr) return o;
    const auto value = static_cast<std::int32_t>(raw);
    if (!member(value) || end - q < 2 || *q != tag_byte) return o;
    o.values.push_back(value);
    p = q + 1;
  }
}

// Records [tag][varint] of one field: the run's tag, except maybe one other
// one-byte or two-byte tag; values of every length 1..10 (mostly short),
// maybe one of 11 bytes; values from `pool` when it is not empty; the
// payload starts at a value and maybe ends inside a record.
std::vector<std::uint8_t> GenRun(std::uint8_t tag_byte,
                                 const std::vector<std::int32_t>& pool) {
  std::vector<std::uint8_t> out;
  // Sized at 100: at small sizes, inRange favours small values.
  const auto records = *rc::gen::resize(100, rc::gen::inRange<int>(0, 90));
  const auto foreign_at = *rc::gen::resize(100, rc::gen::inRange<int>(1, 130));
  const bool foreign_long = *rc::gen::arbitrary<bool>();
  const auto too_long_at = *rc::gen::resize(100, rc::gen::inRange<int>(0, 200));
  for (int i = 0; i < records; ++i) {
    if (i == foreign_at && foreign_long) {
      out.push_back(0x80 | tag_byte);
      out.push_back(0x01);
    } else if (i == foreign_at) {
      out.push_back(static_cast<std::uint8_t>(tag_byte ^ 0x10));
    } else if (i != 0) {
      out.push_back(tag_byte);
    }
    if (!pool.empty()) {
      auto v = static_cast<std::uint64_t>(
          static_cast<std::int64_t>(*rc::gen::elementOf(pool)));
      do {
        out.push_back(
            static_cast<std::uint8_t>((v & 0x7F) | (v > 0x7F ? 0x80 : 0)));
        v >>= 7;
      } while (v != 0);
    } else if (i == too_long_at) {
      AppendVarint(out, 11);
    } else {
      AppendVarint(out, *rc::gen::weightedElement<int>(
                            {{6, 1}, {6, 2}, {4, 3}, {1, 5}, {1, 9}, {1, 10}}));
    }
  }
  if (!out.empty() && *rc::gen::inRange(0, 4) == 0) {
    out.resize(*rc::gen::inRange<std::size_t>(0, out.size()));
  }
  return out;
}

// Runs DecodeRun<K> on a generated run (room for everything, or a little).
template <FieldKind K, typename Check, typename Member>
void CheckRun(const Check& check, const Member& member,
              const std::vector<std::int32_t>& pool) {
  const auto tag_byte =
      static_cast<std::uint8_t>(*rc::gen::inRange(1, 16) << 3);
  const std::vector<std::uint8_t> bytes = GenRun(tag_byte, pool);
  if (bytes.empty()) return;
  const std::uint8_t* begin = bytes.data();
  const std::uint8_t* end = begin + bytes.size();
  std::vector<std::ptrdiff_t> starts;
  const RunOutcome expected =
      ReferenceRun(begin, end, tag_byte, member, &starts);
  const bool roomy = *rc::gen::inRange(0, 4) != 0;
  std::vector<typename KindTraits<K>::Type> out(
      roomy ? bytes.size() + avx512::kRunBlockSlots
            : *rc::gen::inRange<std::size_t>(0, 80));
  const std::uint8_t* p = begin;
  auto* dst = out.data();
  avx512::DecodeRun<K>(&p, end, tag_byte, &dst, out.data() + out.size(), check);
  RunOutcome got;
  got.stopped = p - begin;
  for (auto* v = out.data(); v != dst; ++v) {
    got.values.push_back(static_cast<std::int32_t>(*v));
  }
  RC_TAG(expected.values.size() / 16 * 16);
  if (roomy) {
    RC_ASSERT(got == expected);
  } else {
    // A prefix of the records, stopping at a record boundary.
    RC_ASSERT(got.values.size() <= expected.values.size());
    RC_ASSERT(std::equal(got.values.begin(), got.values.end(),
                         expected.values.begin()));
    RC_ASSERT(got.stopped == starts[got.values.size()]);
  }
}

FAIRWIRE_LEVEL_PROP(RunKernels, Int32RunMatchesTheRecordLoop,
                    KernelLevel::kAvx512, {
                      CheckRun<FieldKind::kInt32>(
                          avx512::AcceptAll{},
                          [](std::int32_t) { return true; }, {});
                    })

FAIRWIRE_LEVEL_PROP(
    RunKernels, ClosedEnumRunStopsAtTheFirstUnknownValue, KernelLevel::kAvx512,
    {
      EnumDef def = GenEnum();
      const Schema schema = testgen::SchemaOfEnum(def);
      const EnumBitmap& bitmap = SchemaAccess::Bitmap(schema, 0);
      RC_PRE(FitsEnumAvx512(bitmap));
      // Values: members, and maybe one neighbour of a member (often unknown).
      std::vector<std::int32_t> pool = def.values;
      if (*rc::gen::arbitrary<bool>()) {
        pool.push_back(static_cast<std::int32_t>(
            static_cast<std::uint32_t>(*rc::gen::elementOf(def.values)) + 1u));
      }
      CheckRun<FieldKind::kEnum>(
          EnumRunCheckAvx512{&bitmap},
          [&](std::int32_t v) {
            return std::binary_search(def.values.begin(), def.values.end(), v);
          },
          pool);
    })
#endif  // FAIRWIRE_WIRE_HAVE_AVX512_PATH

}  // namespace
}  // namespace fairwire::wire::internal
