// The kernel-level switch: names, the CPU's levels, forcing a level for a
// scope or a call, and the same decode at every level the CPU runs.
#include "fairwire/wire/kernel_level.h"

#include <gtest/gtest.h>
#include <unistd.h>

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

// What a process whose FAIRWIRE_WIRE_KERNEL is `value` reports on stderr
// when it first reads its level: nothing for a level the CPU runs, else one
// line naming the value and the level used instead.
std::string ExpectedEnvironmentReport(const char* value) {
  const std::optional<KernelLevel> named = ParseKernelLevel(value);
  if (!named) {
    return "fairwire: FAIRWIRE_WIRE_KERNEL=" + std::string(value) +
           " names no kernel level (portable, avx2, avx512); using " +
           std::string(KernelLevelName(BestKernelLevel())) + "\n";
  }
  const KernelLevel used = SupportedLevelAtMost(*named);
  if (used == *named) return "";
  return "fairwire: FAIRWIRE_WIRE_KERNEL=" + std::string(value) +
         ": this CPU cannot run that level; using " +
         std::string(KernelLevelName(used)) + "\n";
}

// In a death test's child: sets FAIRWIRE_WIRE_KERNEL to `value`, reads the
// process's level for the first time with stderr captured, and exits with 0
// if both the level and the report are as the header says (else prints
// what differs and exits with 1).
[[noreturn]] void CheckLevelFromEnvironment(const char* value) {
  std::fflush(stderr);
  std::FILE* capture = std::tmpfile();
  const int saved_stderr = dup(2);
  if (capture == nullptr || saved_stderr < 0 || dup2(fileno(capture), 2) < 0) {
    std::exit(2);
  }
  setenv("FAIRWIRE_WIRE_KERNEL", value, 1);
  const KernelLevel level = DefaultKernelLevel();
  std::fflush(stderr);
  dup2(saved_stderr, 2);
  std::string report;
  std::rewind(capture);
  for (int c; (c = std::fgetc(capture)) != EOF;) {
    report.push_back(static_cast<char>(c));
  }
  const std::optional<KernelLevel> named = ParseKernelLevel(value);
  const KernelLevel want =
      named ? SupportedLevelAtMost(*named) : BestKernelLevel();
  const std::string want_report = ExpectedEnvironmentReport(value);
  if (level == want && report == want_report) std::exit(0);
  std::fprintf(stderr,
               "level %s, report \"%s\"; want level %s, report \"%s\"\n",
               KernelLevelName(level).data(), report.c_str(),
               KernelLevelName(want).data(), want_report.c_str());
  std::exit(1);
}

// A FAIRWIRE_WIRE_KERNEL naming no level, or a level this CPU lacks, is
// reported once on stderr with the value and the level used instead; a level
// the CPU runs is used silently. Each case runs in a death test's child,
// whose level is not yet read: death tests run before all other tests, so a
// forked child starts from a process that has not read it (and a re-executed
// one, with --gtest_death_test_style=threadsafe, is fresh). On the emulated
// CPUs of the on_Haswell and on_Nehalem runs, the "cannot run" report is
// checked too.
TEST(KernelLevelDeathTest, EnvironmentVariableProblemsAreReportedOnStderr) {
  EXPECT_EXIT(CheckLevelFromEnvironment("neon"), ::testing::ExitedWithCode(0),
              "");
  for (const KernelLevel level : kKernelLevels) {
    const std::string name(KernelLevelName(level));
    EXPECT_EXIT(CheckLevelFromEnvironment(name.c_str()),
                ::testing::ExitedWithCode(0), "")
        << name;
  }
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
