// LLVMFuzzerTestOneInput over the target's check. A violated property aborts,
// so every engine (libFuzzer, AFL++, honggfuzz, centipede) records the input as
// a crash; the message and the readable scenario go to stderr first.
#include <cstdio>
#include <cstdlib>

#include "fairwire/fuzz/target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const fairwire::fuzz::TargetSpec& target = fairwire::fuzz::Target();
  const fairwire::fuzz::ByteSpan input(data, size);
  if (std::optional<std::string> violation = target.check(input)) {
    std::fprintf(stderr, "fairwire: %.*s: check failed: %s\n",
                 static_cast<int>(target.name.size()), target.name.data(),
                 violation->c_str());
    std::fprintf(stderr, "fairwire: scenario:\n%s",
                 target.describe(input).c_str());
    std::fflush(stderr);
    std::abort();
  }
  return 0;
}
