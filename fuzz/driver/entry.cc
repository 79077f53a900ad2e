// LLVMFuzzerTestOneInput over the target's check. A violated property aborts,
// so every engine (libFuzzer, AFL++, honggfuzz, centipede) records the input as
// a crash; the message and the readable scenario go to stderr first.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fairwire/fuzz/target.h"

namespace {

// With FAIRWIRE_INPUT_COUNT=<file> in the environment, the entry point
// writes to <file> at exit how often the engine called it ("calls N") and
// how many of those calls repeated the input of the call just before
// ("repeats N"). libFuzzer runs an input a second time when its first run
// allocated more than it freed (a leak check), and counts both runs in
// stat::number_of_executed_units; `fairwire fuzz bench` reads this file so
// that its rates count inputs, not calls. Off (one branch per call) without
// the variable.
class InputCount {
 public:
  // The count the environment asks for, or nullptr.
  static InputCount* Get() {
    static InputCount* const count = [] {
      const char* path = std::getenv("FAIRWIRE_INPUT_COUNT");
      if (path == nullptr || *path == '\0')
        return static_cast<InputCount*>(nullptr);
      // Never destroyed: it is written by the atexit handler.
      auto* made = new InputCount(path);
      std::atexit([] { Get()->Write(); });
      return made;
    }();
    return count;
  }

  void Record(fairwire::fuzz::ByteSpan input) {
    if (calls_++ > 0 &&
        std::equal(input.begin(), input.end(), last_.begin(), last_.end())) {
      ++repeats_;
      return;
    }
    // The kept copy only grows, so that after the first calls it neither
    // allocates nor frees (a leak check counts both).
    if (input.size() > last_.capacity()) last_.reserve(2 * input.size());
    last_.assign(input.begin(), input.end());
  }

 private:
  explicit InputCount(const char* path) : path_(path) { last_.reserve(4096); }

  void Write() const {
    if (std::FILE* out = std::fopen(path_, "w")) {
      std::fprintf(out, "calls %llu\nrepeats %llu\n", calls_, repeats_);
      std::fclose(out);
    }
  }

  const char* path_;
  unsigned long long calls_ = 0;
  unsigned long long repeats_ = 0;
  std::vector<std::uint8_t> last_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const fairwire::fuzz::TargetSpec& target = fairwire::fuzz::Target();
  const fairwire::fuzz::ByteSpan input(data, size);
  if (InputCount* count = InputCount::Get()) count->Record(input);
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
