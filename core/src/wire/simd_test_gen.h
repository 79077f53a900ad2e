// Test-only generators shared by the kernel properties: raw varints of a
// given length and closed enums near the AVX-512 membership check's limits.
#ifndef FAIRWIRE_CORE_SRC_WIRE_SIMD_TEST_GEN_H_
#define FAIRWIRE_CORE_SRC_WIRE_SIMD_TEST_GEN_H_

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
