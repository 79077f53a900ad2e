// The one definition a fuzz target provides. From it the build makes the
// engine binary (libFuzzer, AFL++ or OSS-Fuzz's $LIB_FUZZING_ENGINE, via
// entry.cc) and the standalone replay driver (replay_main.cc).
//
// A target's source defines fairwire::fuzz::Target():
//
//   const fairwire::fuzz::TargetSpec& fairwire::fuzz::Target() {
//     static const TargetSpec spec{"poll_schedule", "...", &Check, &Describe,
//                                  &ShrinkCandidates};
//     return spec;
//   }
#ifndef FAIRWIRE_FUZZ_TARGET_H_
#define FAIRWIRE_FUZZ_TARGET_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/scenarios/bytes.h"

namespace fairwire::fuzz {

using fairwire::Bytes;
using fairwire::ByteSpan;

struct TargetSpec {
  // The target's name, as in corpus/<name>/ and the binary's name.
  std::string_view name;
  // One line: what the target checks.
  std::string_view summary;
  // Decodes the input into the target's scenario (every byte string is some
  // valid scenario) and runs its checks: all of them, or the part of them
  // the input chooses (see check_all). Returns the first violation,
  // readably, or nullopt when all checks pass. Must not throw. This is what
  // the fuzzing engines run.
  std::optional<std::string> (*check)(ByteSpan input);
  // The input's scenario, printed for a person (a poll schedule, annotated
  // wire records, ...). Ends with a newline.
  std::string (*describe)(ByteSpan input);
  // Encodings of scenarios one step simpler than the input's (fewer children,
  // shorter scripts, fewer records, ...), simplest first. May be empty.
  std::vector<Bytes> (*shrink_candidates)(ByteSpan input);
  // Every check the input's scenario has, for a target whose `check` runs
  // only the part the input chooses (one comparison of several, one
  // encoding variant, ...: a bit of byte 0, say), so that an execution under
  // a fuzzing engine stays cheap while each part stays reachable. Must
  // report every violation `check` reports on the same input. The replay
  // driver runs it (corpus tests, reproducing and shrinking a finding); its
  // --repeat timing runs `check`, the fuzzing cost. nullptr: `check` runs
  // every check already.
  std::optional<std::string> (*check_all)(ByteSpan input) = nullptr;
};

// Defined once per target, in the target's own source.
const TargetSpec& Target();

}  // namespace fairwire::fuzz

#endif  // FAIRWIRE_FUZZ_TARGET_H_
