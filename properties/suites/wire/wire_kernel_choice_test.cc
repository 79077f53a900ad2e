// The kernel-level bits of the wire fuzz targets' inputs
// (fairwire/checks/wire_kernel_choice.h): each choice puts its level (lowered
// to what the CPU has) in force for the check and takes it away after; a
// replay's pass over the other levels visits every level the CPU has except
// the process's, each once, and names the level of a violation; the bits
// leave the rest of byte 0 alone, and no wire input format reads them.
#include "fairwire/checks/wire_kernel_choice.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/checks/wire_checks.h"
#include "fairwire/scenarios/wire_case.h"
#include "fairwire/scenarios/wire_schema_case.h"
#include "fairwire/wire/kernel_level.h"

namespace fairwire::wire::oracle {
namespace {

TEST(KernelChoice, EachChoicePutsItsLevelInForceForTheCheckOnly) {
  const KernelLevel outside = ActiveKernelLevel();
  const Bytes input = {0x15, 1, 2, 3};
  const std::optional<KernelLevel> expected[] = {
      std::nullopt, KernelLevel::kPortable, KernelLevel::kAvx2,
      KernelLevel::kAvx512};
  for (unsigned choice = 0; choice < 4; ++choice) {
    SCOPED_TRACE("choice " + std::to_string(choice));
    const Bytes chosen = WithKernelChoice(input, choice);
    EXPECT_EQ(KernelChoiceNumber(chosen), choice);
    EXPECT_EQ(KernelChoiceOf(chosen), expected[choice]);
    const KernelLevel in_check =
        AtKernelChoice(chosen, [] { return ActiveKernelLevel(); });
    EXPECT_EQ(in_check, expected[choice]
                            ? SupportedLevelAtMost(*expected[choice])
                            : DefaultKernelLevel());
    EXPECT_EQ(ActiveKernelLevel(), outside);
    // Only bits 6-7 of byte 0 change; clearing them gives the input back.
    EXPECT_EQ(chosen[0] & 0x3F, 0x15);
    EXPECT_EQ(std::vector(chosen.begin() + 1, chosen.end()),
              std::vector(input.begin() + 1, input.end()));
    EXPECT_EQ(WithKernelChoice(chosen, 0), input);
  }
  EXPECT_EQ(KernelChoiceNumber(Bytes{}), 0u);
  EXPECT_EQ(KernelChoiceOf(Bytes{}), std::nullopt);
  EXPECT_TRUE(WithKernelChoice(Bytes{}, 2).empty());
}

TEST(KernelChoice, DescriptionNamesTheLevelTheCheckRunsAt) {
  const Bytes process = WithKernelChoice(Bytes{0x01}, 0);
  EXPECT_EQ(DescribeKernelChoice(process),
            "kernel level " +
                std::string(KernelLevelName(DefaultKernelLevel())) +
                " (the process's)");
  EXPECT_EQ(DescribeKernelChoice(WithKernelChoice(Bytes{0x01}, 1)),
            "kernel level portable (chosen by byte 0)");
  const std::string avx512 =
      DescribeKernelChoice(WithKernelChoice(Bytes{0x01}, 3));
  if (CpuSupports(KernelLevel::kAvx512)) {
    EXPECT_EQ(avx512, "kernel level avx512 (chosen by byte 0)");
  } else {
    EXPECT_NE(avx512.find("avx512 lowered to what this CPU has"),
              std::string::npos)
        << avx512;
  }
}

TEST(KernelChoice, EveryOtherLevelRunsOnceAndNamesAViolation) {
  std::vector<KernelLevel> expected;
  for (KernelLevel level : kKernelLevels) {
    if (CpuSupports(level) && level != DefaultKernelLevel()) {
      expected.push_back(level);
    }
  }
  std::vector<KernelLevel> seen;
  EXPECT_EQ(AtEveryOtherKernelLevel([&]() -> std::optional<std::string> {
              seen.push_back(ActiveKernelLevel());
              return std::nullopt;
            }),
            std::nullopt);
  EXPECT_EQ(seen, expected);
  // Portable is below every level, so a violation there is reported unless
  // portable is the process's level (then no other level is below it).
  const std::optional<std::string> violation =
      AtEveryOtherKernelLevel([]() -> std::optional<std::string> {
        if (ActiveKernelLevel() == KernelLevel::kPortable) {
          return "decoder-differs: planted";
        }
        return std::nullopt;
      });
  if (DefaultKernelLevel() == KernelLevel::kPortable) {
    EXPECT_EQ(violation, std::nullopt);
  } else {
    EXPECT_EQ(violation, "at kernel level portable: decoder-differs: planted");
  }
}

TEST(KernelChoice, NoWireInputFormatReadsTheChoiceBits) {
  // Every byte 0 under every choice: a WireCase (wire_packed_unpacked and
  // the kits' packed_unpacked targets) and a SchemaCase (wire_schema_diff)
  // decode as with the bits clear. (The fixed subject, bits 0-1, and the
  // comparison, bits 2-3 or bit 5, are below them by construction.)
  const Bytes payload = {0x08, 0x96, 0x01, 0x12, 0x02, 0x01, 0x02};
  for (unsigned byte0 = 0; byte0 < 0x40; ++byte0) {
    Bytes input = {static_cast<std::uint8_t>(byte0)};
    input.insert(input.end(), payload.begin(), payload.end());
    const scenario::WireCase plain = scenario::DecodeCase(CaseSchemas(), input);
    const scenario::SchemaCase schema = scenario::DecodeSchemaCase(input);
    for (unsigned choice = 1; choice < 4; ++choice) {
      SCOPED_TRACE("byte 0 " + std::to_string(byte0) + ", choice " +
                   std::to_string(choice));
      const Bytes chosen = WithKernelChoice(input, choice);
      const scenario::WireCase c = scenario::DecodeCase(CaseSchemas(), chosen);
      EXPECT_EQ(c.root, plain.root);
      EXPECT_EQ(c.variant, plain.variant);
      EXPECT_EQ(c.as_given, plain.as_given);
      EXPECT_EQ(c.message, plain.message);
      EXPECT_EQ(scenario::EncodeSchemaCase(scenario::DecodeSchemaCase(chosen)),
                scenario::EncodeSchemaCase(schema));
    }
  }
}

}  // namespace
}  // namespace fairwire::wire::oracle
