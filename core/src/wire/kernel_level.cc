#include "fairwire/wire/kernel_level.h"

#include <cstdio>
#include <cstdlib>

#include "fairwire/wire/internal/varint_avx512.h"

namespace fairwire::wire {

std::string_view KernelLevelName(KernelLevel level) {
  switch (level) {
    case KernelLevel::kPortable:
      return "portable";
    case KernelLevel::kAvx2:
      return "avx2";
    case KernelLevel::kAvx512:
      return "avx512";
  }
  return "unknown";
}

std::optional<KernelLevel> ParseKernelLevel(std::string_view name) {
  for (const KernelLevel level : kKernelLevels) {
    if (KernelLevelName(level) == name) return level;
  }
  return std::nullopt;
}

bool CpuSupports(KernelLevel level) {
  switch (level) {
    case KernelLevel::kPortable:
      return true;
    case KernelLevel::kAvx2: {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
      static const bool has = __builtin_cpu_supports("avx2") != 0 &&
                              __builtin_cpu_supports("bmi2") != 0;
      return has;
#else
      return false;
#endif
    }
    case KernelLevel::kAvx512:
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
      return internal::CpuHasAvx512Varint() && CpuSupports(KernelLevel::kAvx2);
#else
      return false;
#endif
  }
  return false;
}

KernelLevel SupportedLevelAtMost(KernelLevel level) {
  if (level > KernelLevel::kAvx512) level = KernelLevel::kAvx512;
  while (level != KernelLevel::kPortable && !CpuSupports(level)) {
    level = static_cast<KernelLevel>(static_cast<std::uint8_t>(level) - 1);
  }
  return level;
}

KernelLevel BestKernelLevel() {
  static const KernelLevel best = SupportedLevelAtMost(KernelLevel::kAvx512);
  return best;
}

namespace {

KernelLevel LevelFromEnvironment() {
  const char* value = std::getenv("FAIRWIRE_WIRE_KERNEL");
  if (value == nullptr || *value == '\0') return BestKernelLevel();
  const std::optional<KernelLevel> named = ParseKernelLevel(value);
  if (!named) {
    std::fprintf(stderr,
                 "fairwire: FAIRWIRE_WIRE_KERNEL=%s names no kernel level "
                 "(portable, avx2, avx512); using %s\n",
                 value, KernelLevelName(BestKernelLevel()).data());
    return BestKernelLevel();
  }
  const KernelLevel used = SupportedLevelAtMost(*named);
  if (used != *named) {
    std::fprintf(stderr,
                 "fairwire: FAIRWIRE_WIRE_KERNEL=%s: this CPU cannot run that "
                 "level; using %s\n",
                 value, KernelLevelName(used).data());
  }
  return used;
}

}  // namespace

KernelLevel DefaultKernelLevel() {
  static const KernelLevel level = LevelFromEnvironment();
  return level;
}

}  // namespace fairwire::wire
