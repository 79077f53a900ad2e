// The replay driver's self-test of TargetSpec::check_all: a target whose
// `check` (what the engines run) finds "check-ran" on an input that starts
// with 'x', and whose `check_all` finds that too and also "check-all-ran" on
// an input that starts with 'y'. The ctests (fuzz/driver/CMakeLists.txt)
// replay one file of each and expect the replay to report both: the replay
// runs every check of a file, not only the part that fuzzing runs.
#include <optional>
#include <string>
#include <vector>

#include "fairwire/fuzz/target.h"

namespace fairwire::fuzz {
namespace {

std::optional<std::string> Check(ByteSpan input) {
  if (!input.empty() && input[0] == 'x') {
    return std::string("check-ran: the input starts with 'x'");
  }
  return std::nullopt;
}

std::optional<std::string> CheckAll(ByteSpan input) {
  if (auto violation = Check(input)) return violation;
  if (!input.empty() && input[0] == 'y') {
    return std::string("check-all-ran: the input starts with 'y'");
  }
  return std::nullopt;
}

std::string Describe(ByteSpan input) {
  return std::to_string(input.size()) + " bytes\n";
}

std::vector<Bytes> NoShrinks(ByteSpan) { return {}; }

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "replay_check_all_selftest",
      "the replay driver runs check_all (replay self-test)",
      &Check,
      &Describe,
      &NoShrinks,
      &CheckAll};
  return spec;
}

}  // namespace fairwire::fuzz
