// The kernel-level switch: names, the CPU's levels, forcing a level for a
// scope or a call, and the same decode at every level the CPU runs.
#include "fairwire/wire/kernel_level.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/wire/decoder.h"
#include "fairwire/wire/serialize.h"
#include "fairwire/wire/writer.h"
#include "test_schema.h"

namespace fairwire::wire {
namespace {

TEST(KernelLevel, NamesRoundTripAndUnknownNamesAreRejected) {
  for (const KernelLevel level : kKernelLevels) {
    EXPECT_EQ(ParseKernelLevel(KernelLevelName(level)), level);
  }
  EXPECT_EQ(KernelLevelName(KernelLevel::kAvx2), "avx2");
  EXPECT_FALSE(ParseKernelLevel("AVX2").has_value());
  EXPECT_FALSE(ParseKernelLevel("").has_value());
  EXPECT_FALSE(ParseKernelLevel("neon").has_value());
}

TEST(KernelLevel, LevelsAreNestedAndTheBestIsTheHighestSupported) {
  EXPECT_TRUE(CpuSupports(KernelLevel::kPortable));
  if (CpuSupports(KernelLevel::kAvx512)) {
    EXPECT_TRUE(CpuSupports(KernelLevel::kAvx2));
  }
  KernelLevel highest = KernelLevel::kPortable;
  for (const KernelLevel level : kKernelLevels) {
    if (CpuSupports(level)) highest = level;
  }
  EXPECT_EQ(BestKernelLevel(), highest);
  EXPECT_EQ(SupportedLevelAtMost(KernelLevel::kAvx512), highest);
  EXPECT_EQ(SupportedLevelAtMost(KernelLevel::kPortable),
            KernelLevel::kPortable);
  // What this machine's tests exercise, in the test log.
  std::string levels;
  for (const KernelLevel level : kKernelLevels) {
    if (!levels.empty()) levels += ", ";
    levels += std::string(KernelLevelName(level)) +
              (CpuSupports(level) ? " tested" : " UNTESTED");
  }
  std::printf("kernel levels on this CPU: %s\n", levels.c_str());
}

TEST(KernelLevel, ScopesForceALevelAndRestoreThePreviousOne) {
  const KernelLevel before = ActiveKernelLevel();
  {
    const ScopedKernelLevel portable(KernelLevel::kPortable);
    EXPECT_EQ(ActiveKernelLevel(), KernelLevel::kPortable);
    {
      const ScopedKernelLevel top(KernelLevel::kAvx512);
      EXPECT_EQ(ActiveKernelLevel(), BestKernelLevel());
    }
    EXPECT_EQ(ActiveKernelLevel(), KernelLevel::kPortable);
  }
  EXPECT_EQ(ActiveKernelLevel(), before);
}

// FAIRWIRE_WIRE_KERNEL sets the process's level (ctest runs this test once
// more with FAIRWIRE_WIRE_KERNEL=portable, and ci/check the wire tests once
// per level).
TEST(KernelLevel, EnvironmentVariableSetsTheProcessLevel) {
  const char* value = std::getenv("FAIRWIRE_WIRE_KERNEL");
  const std::optional<KernelLevel> named =
      value == nullptr ? std::nullopt : ParseKernelLevel(value);
  const KernelLevel want =
      named ? SupportedLevelAtMost(*named) : BestKernelLevel();
  EXPECT_EQ(DefaultKernelLevel(), want)
      << "FAIRWIRE_WIRE_KERNEL=" << (value == nullptr ? "(unset)" : value);
  EXPECT_EQ(ActiveKernelLevel(), want);
  std::printf("decoding at kernel level %s\n",
              KernelLevelName(ActiveKernelLevel()).data());
}

// A message whose decode takes every kernel: long packed varint and fixed
// records, a long unpacked varint run and closed-enum values (known and not).
std::vector<std::uint8_t> EveryKernelsInput() {
  Writer w;
  std::vector<std::int64_t> varints;
  std::vector<std::uint64_t> fixed;
  for (int i = 0; i < 3000; ++i) {
    varints.push_back((i % 7 == 0 ? -1 : 1) * (std::int64_t{1} << (i % 63)));
    fixed.push_back(0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i));
  }
  w.WritePacked(testing::kPackedInt64, FieldKind::kInt64, varints);
  w.WritePacked(testing::kFar, FieldKind::kFixed64, fixed);
  for (int i = 0; i < 3000; ++i) {
    w.WriteInt64(testing::kPackedInt64, std::int64_t{i} * 977);
  }
  // Color's values -1, 0, 1, 2 and 1000000, and 3 (unknown) every 50th.
  for (int i = 0; i < 3000; ++i) {
    w.WriteEnum(testing::kColors, i % 50 == 49 ? 3 : i % 4 - 1);
  }
  const std::string bytes = std::move(w).Take();
  return {bytes.begin(), bytes.end()};
}

TEST(KernelLevel, EveryLevelDecodesTheSameMessage) {
  const Schema schema = testing::MakeTestSchema();
  const std::vector<std::uint8_t> input = EveryKernelsInput();
  Message expected(schema, testing::kRoot);
  ASSERT_TRUE(
      Decode(input, expected, DecodeOptions{.kernel = KernelLevel::kPortable})
          .ok());
  ASSERT_EQ(expected.unknown_fields().size(), 60u * 2);  // the 3s
  for (const KernelLevel level : kKernelLevels) {
    if (!CpuSupports(level)) continue;
    Message got(schema, testing::kRoot);
    ASSERT_TRUE(Decode(input, got, DecodeOptions{.kernel = level}).ok())
        << KernelLevelName(level);
    EXPECT_EQ(Serialize(got), Serialize(expected)) << KernelLevelName(level);
  }
}

}  // namespace
}  // namespace fairwire::wire
