// The kernel-level bits of a wire fuzz input (wire_kernel_choice.h).
#include "fairwire/checks/wire_kernel_choice.h"

namespace fairwire::wire::oracle {

unsigned KernelChoiceNumber(ByteSpan input) {
  if (input.empty()) return 0;
  return static_cast<unsigned>((input[0] & kKernelChoiceBits) >>
                               kKernelChoiceShift);
}

std::optional<KernelLevel> KernelChoiceOf(ByteSpan input) {
  switch (KernelChoiceNumber(input)) {
    case 1:
      return KernelLevel::kPortable;
    case 2:
      return KernelLevel::kAvx2;
    case 3:
      return KernelLevel::kAvx512;
    default:
      return std::nullopt;
  }
}

Bytes WithKernelChoice(ByteSpan input, unsigned choice) {
  Bytes out(input.begin(), input.end());
  if (!out.empty()) {
    out[0] = static_cast<std::uint8_t>(
        (out[0] & ~kKernelChoiceBits) |
        ((choice << kKernelChoiceShift) & kKernelChoiceBits));
  }
  return out;
}

std::string DescribeKernelChoice(ByteSpan input) {
  const std::optional<KernelLevel> chosen = KernelChoiceOf(input);
  const KernelLevel level =
      chosen ? SupportedLevelAtMost(*chosen) : DefaultKernelLevel();
  std::string out = "kernel level ";
  out += KernelLevelName(level);
  if (!chosen) return out + " (the process's)";
  out += " (chosen by byte 0";
  if (level != *chosen) {
    out += ": ";
    out += KernelLevelName(*chosen);
    out += " lowered to what this CPU has";
  }
  return out + ")";
}

}  // namespace fairwire::wire::oracle
