// Test-only generators shared by the kernel properties: raw varints of a
// given length and closed enums near the AVX-512 membership check's limits.
#ifndef FAIRWIRE_CORE_SRC_WIRE_SIMD_TEST_GEN_H_
#define FAIRWIRE_CORE_SRC_WIRE_SIMD_TEST_GEN_H_

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/schema.h"
#include "fairwire/wire/varint.h"

// A RapidCheck property of code that only one kernel level runs: on a CPU
// without that level the test is reported SKIPPED, naming the level as
// untested, never passed silently. Failures print RapidCheck's reproduce
// string, as RC_GTEST_PROP's do.
#define FAIRWIRE_LEVEL_PROP(Suite, Name, level, ...)             \
  TEST(Suite, Name) {                                            \
    if (!::fairwire::wire::CpuSupports(level)) {                 \
      GTEST_SKIP() << ::fairwire::wire::KernelLevelName(level)   \
                   << " level untested: this CPU cannot run it"; \
    }                                                            \
    EXPECT_TRUE(rc::check(#Suite "." #Name, [] __VA_ARGS__));    \
  }

namespace fairwire::wire::internal::testgen {

// One varint of `length` bytes (11: no terminator in ten bytes), random
// bits, possibly padded (non-canonical) since every byte is random.
inline void AppendVarint(std::vector<std::uint8_t>& out, int length) {
  for (int i = 0; i < length; ++i) {
    const auto bits = *rc::gen::inRange<int>(0, 128);
    const bool last = i == length - 1 && length <= kMaxVarintBytes;
    out.push_back(static_cast<std::uint8_t>(last ? bits : bits | 0x80));
  }
}

// A run's bytes from its first value: mostly the run's tag between values,
// maybe a foreign tag (one or two bytes) at one record, maybe an 11-byte
// varint, maybe cut anywhere. Value lengths are drawn per record, or kept
// for stretches (a length changes at one record in `stretch`), so that
// whole windows of one length occur, as in real runs.
inline std::vector<std::uint8_t> GenRunBytes(std::uint8_t tag_byte) {
  std::vector<std::uint8_t> out;
  const auto records = *rc::gen::resize(100, rc::gen::inRange<int>(0, 200));
  const auto foreign_at = *rc::gen::resize(100, rc::gen::inRange<int>(1, 600));
  const bool foreign_long = *rc::gen::arbitrary<bool>();
  const auto too_long_at = *rc::gen::resize(100, rc::gen::inRange<int>(0, 800));
  const auto stretch = *rc::gen::element<int>(1, 1, 10, 60);
  int length = 0;
  for (int i = 0; i < records; ++i) {
    if (i == foreign_at && foreign_long) {
      // A two-byte tag, maybe ending in the run's tag byte.
      out.push_back(0x80 | tag_byte);
      out.push_back(*rc::gen::element<std::uint8_t>(0x01, tag_byte));
    } else if (i == foreign_at) {
      out.push_back(static_cast<std::uint8_t>(tag_byte ^ 0x10));
    } else if (i != 0) {
      out.push_back(tag_byte);
    }
    if (length == 0 || *rc::gen::inRange(0, stretch) == 0) {
      length = *rc::gen::weightedElement<int>({{6, 1},
                                               {6, 2},
                                               {4, 3},
                                               {1, 4},
                                               {1, 5},
                                               {1, 7},
                                               {1, 8},
                                               {1, 9},
                                               {2, 10}});
    }
    AppendVarint(out, i == too_long_at ? 11 : length);
  }
  if (!out.empty() && *rc::gen::inRange(0, 4) == 0) {
    out.resize(*rc::gen::inRange<std::size_t>(0, out.size()));
  }
  return out;
}

// What a run gave: the kept values, the refused ones, where it stopped (-1:
// an error, with its reason and offset).
template <typename T>
struct RunOutcome {
  std::vector<T> kept;
  std::vector<T> refused;
  std::ptrdiff_t stopped = -1;
  DecodeError error = DecodeError::kOk;
  std::size_t offset = 0;
  bool operator==(const RunOutcome&) const = default;
};

// The record-at-a-time rule (ReadVarintSlow, then the kind's conversion),
// and each record's value start.
template <FieldKind K, typename Member>
RunOutcome<typename KindTraits<K>::Type> ReferenceRun(
    const std::vector<std::uint8_t>& bytes, std::uint8_t tag_byte,
    const Member& member, std::vector<std::ptrdiff_t>* starts) {
  RunOutcome<typename KindTraits<K>::Type> o;
  const std::uint8_t* const begin = bytes.data();
  const std::uint8_t* const end = begin + bytes.size();
  const std::uint8_t* p = begin;
  for (;;) {
    starts->push_back(p - begin);
    std::uint64_t raw;
    DecodeError error;
    const std::uint8_t* q =
        ReadVarintSlow(p, end, kMaxVarintBytes, &raw, &error);
    if (q == nullptr) {
      o.error = error;
      o.offset = static_cast<std::size_t>(p - begin);
      return o;
    }
    const auto value = KindTraits<K>::Convert(raw);
    (member(value) ? o.kept : o.refused).push_back(value);
    if (end - q < 2 || *q != tag_byte) {
      o.stopped = q - begin;
      return o;
    }
    p = q + 1;
  }
}

// A closed enum: values near a random base (within the bitmap's reach or
// just past it), and sometimes a few far ones.
inline EnumDef GenEnum() {
  EnumDef def;
  def.name = "t.E";
  def.closed = true;
  const auto base = *rc::gen::oneOf(
      rc::gen::inRange<std::int32_t>(-2000, 2000),
      rc::gen::element<std::int32_t>(INT32_MIN, INT32_MAX - 5000));
  const auto reach = *rc::gen::element<std::int64_t>(8, 64, 1000, 1024, 4200);
  const auto count = *rc::gen::inRange<int>(1, 40);
  for (int i = 0; i < count; ++i) {
    def.values.push_back(static_cast<std::int32_t>(
        base + *rc::gen::inRange<std::int64_t>(0, reach)));
  }
  const auto far = *rc::gen::inRange<int>(0, 7);
  for (int i = 0; i < far; ++i) {
    def.values.push_back(*rc::gen::arbitrary<std::int32_t>());
  }
  std::sort(def.values.begin(), def.values.end());
  def.values.erase(std::unique(def.values.begin(), def.values.end()),
                   def.values.end());
  for (std::int32_t v : def.values)
    def.value_names.push_back("V" + std::to_string(v));
  return def;
}

// A schema holding only `def` (enum index 0).
inline Schema SchemaOfEnum(const EnumDef& def) {
  SchemaBuilder builder;
  builder.AddEnum(def);
  std::optional<Schema> schema = std::move(builder).Build();
  RC_ASSERT(schema.has_value());
  return std::move(*schema);
}

}  // namespace fairwire::wire::internal::testgen

#endif  // FAIRWIRE_CORE_SRC_WIRE_SIMD_TEST_GEN_H_
