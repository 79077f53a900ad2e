// The kernel level a wire fuzz input decodes at. fairwire::wire picks the
// best level the CPU has (kernel_level.h), so a fuzzer on an AVX-512 machine
// (OSS-Fuzz's, ours) would only ever run the AVX-512 kernels, and the avx2
// and portable ones, which most users' machines take, would get no fuzzing
// at all. So bits 6-7 of byte 0 of every wire fuzz target's input choose the
// level of fairwire's decodes in that input's check:
//
//   0  the process's level (DefaultKernelLevel: the best, or
//      FAIRWIRE_WIRE_KERNEL's)          1  portable
//   2  avx2                             3  avx512
//
// A level the CPU lacks is lowered to the best one below it, as
// ScopedKernelLevel does. No wire input format reads these two bits (the
// fixed subject is bits 0-1, the comparison bits 2-3 or 5, a WireCase's
// variant bits 1-5, a SchemaCase's header bits 0-4), so the kit's targets,
// which take the same inputs, read them alike and ignore the level. A replay
// runs every level the CPU has (AtEveryOtherKernelLevel after the fuzzing
// check).
#ifndef FAIRWIRE_CHECKS_WIRE_KERNEL_CHOICE_H_
#define FAIRWIRE_CHECKS_WIRE_KERNEL_CHOICE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "fairwire/scenarios/bytes.h"
#include "fairwire/wire/kernel_level.h"

namespace fairwire::wire::oracle {

// The bits of byte 0 that hold the choice.
inline constexpr std::uint8_t kKernelChoiceBits = 0xC0;
inline constexpr int kKernelChoiceShift = 6;

// The choice (0 to 3) `input` holds in byte 0; 0 for an empty input. A
// shrinker keeps it with WithKernelChoice(candidate,
// KernelChoiceNumber(input)).
unsigned KernelChoiceNumber(ByteSpan input);

// The level `input` chooses; nullopt for choice 0 (the process's level) and
// for an empty input.
std::optional<KernelLevel> KernelChoiceOf(ByteSpan input);

// `input` with choice `choice` (0 to 3) in byte 0 (unchanged if empty).
Bytes WithKernelChoice(ByteSpan input, unsigned choice);

// "kernel level avx2 (chosen by byte 0)" or "kernel level avx512 (the
// process's)": the level the fuzzing check decodes at, on this CPU.
std::string DescribeKernelChoice(ByteSpan input);

// Runs check() with the level `input` chooses in force on this thread.
template <typename Check>
auto AtKernelChoice(ByteSpan input, Check&& check) {
  const std::optional<KernelLevel> level = KernelChoiceOf(input);
  if (!level) return check();
  const ScopedKernelLevel scope(*level);
  return check();
}

// Runs check() (which returns an optional violation) under every level the
// CPU supports other than the process's, lowest first, and returns the first
// violation, prefixed with "at kernel level <name>: ".
template <typename Check>
std::optional<std::string> AtEveryOtherKernelLevel(Check&& check) {
  for (KernelLevel level : kKernelLevels) {
    if (!CpuSupports(level) || level == DefaultKernelLevel()) continue;
    const ScopedKernelLevel scope(level);
    if (std::optional<std::string> violation = check()) {
      return "at kernel level " + std::string(KernelLevelName(level)) + ": " +
             *violation;
    }
  }
  return std::nullopt;
}

}  // namespace fairwire::wire::oracle

#endif  // FAIRWIRE_CHECKS_WIRE_KERNEL_CHOICE_H_
