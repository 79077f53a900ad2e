// The decoder's kernel levels: which code path its hot loops (packed varints,
// runs of unpacked varints, packed fixed-width copies, closed-enum checks)
// take. The best level the CPU supports is chosen once per process; any level
// it supports can be forced, for the process by the environment variable
// FAIRWIRE_WIRE_KERNEL, for one call by DecodeOptions::kernel (decoder.h),
// or for a scope of the calling thread by ScopedKernelLevel. Every level
// decodes the same bytes to the same result; only speed differs.
//
//   FAIRWIRE_WIRE_KERNEL=portable ./my_program     # the scalar code only
//   { ScopedKernelLevel level(KernelLevel::kAvx2); ... Decode(...) ... }
#ifndef FAIRWIRE_WIRE_KERNEL_LEVEL_H_
#define FAIRWIRE_WIRE_KERNEL_LEVEL_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace fairwire::wire {

// The levels, lowest first; a CPU that supports a level supports those below.
enum class KernelLevel : std::uint8_t {
  kPortable,  // plain C++ (every CPU, ARM64 included)
  kAvx2,      // x86-64 with BMI2 and AVX2 (pext gathers, 32-byte copies)
  kAvx512,    // x86-64 with AVX-512 F, BW, VL, VBMI and VBMI2 (and BMI2)
};

inline constexpr std::array<KernelLevel, 3> kKernelLevels = {
    KernelLevel::kPortable, KernelLevel::kAvx2, KernelLevel::kAvx512};

// "portable", "avx2" or "avx512": the level's name in FAIRWIRE_WIRE_KERNEL,
// in benchmark names (wire/<workload>/fairwire@<name>) and in reports.
std::string_view KernelLevelName(KernelLevel level);

// The level named `name` (as KernelLevelName spells it), or nullopt.
std::optional<KernelLevel> ParseKernelLevel(std::string_view name);

// True if this build has the level's code and this CPU (and OS) can run it.
bool CpuSupports(KernelLevel level);

// The highest level CpuSupports (checked once).
KernelLevel BestKernelLevel();

// `level` if CpuSupports it, else the highest supported level below it.
KernelLevel SupportedLevelAtMost(KernelLevel level);

// The process's level: FAIRWIRE_WIRE_KERNEL's (lowered by
// SupportedLevelAtMost when the CPU lacks it) if the variable is set, else
// BestKernelLevel(). Read once; an unknown name or an unsupported level is
// reported once on stderr, naming the level used instead.
KernelLevel DefaultKernelLevel();

namespace internal {
// The calling thread's forced level (ScopedKernelLevel), or kNoForcedLevel.
inline constexpr std::uint8_t kNoForcedLevel = 0xff;
inline thread_local std::uint8_t forced_kernel_level = kNoForcedLevel;
}  // namespace internal

// The level the calling thread's decoding uses now: the innermost
// ScopedKernelLevel's, else DefaultKernelLevel().
inline KernelLevel ActiveKernelLevel() {
  const std::uint8_t forced = internal::forced_kernel_level;
  if (forced != internal::kNoForcedLevel) {
    return static_cast<KernelLevel>(forced);
  }
  return DefaultKernelLevel();
}

// Forces SupportedLevelAtMost(level) on the calling thread while it lives
// (scopes nest; the previous level comes back when it ends).
class ScopedKernelLevel {
 public:
  explicit ScopedKernelLevel(KernelLevel level)
      : previous_(internal::forced_kernel_level) {
    internal::forced_kernel_level =
        static_cast<std::uint8_t>(SupportedLevelAtMost(level));
  }
  ~ScopedKernelLevel() { internal::forced_kernel_level = previous_; }
  ScopedKernelLevel(const ScopedKernelLevel&) = delete;
  ScopedKernelLevel& operator=(const ScopedKernelLevel&) = delete;

 private:
  std::uint8_t previous_;
};

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_KERNEL_LEVEL_H_
