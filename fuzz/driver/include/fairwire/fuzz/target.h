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
  // valid scenario) and runs every check. Returns the first violation,
  // readably, or nullopt when all checks pass. Must not throw.
  std::optional<std::string> (*check)(ByteSpan input);
  // The input's scenario, printed for a person (a poll schedule, annotated
  // wire records, ...). Ends with a newline.
  std::string (*describe)(ByteSpan input);
  // Encodings of scenarios one step simpler than the input's (fewer children,
  // shorter scripts, fewer records, ...), simplest first. May be empty.
  std::vector<Bytes> (*shrink_candidates)(ByteSpan input);
};

// Defined once per target, in the target's own source.
const TargetSpec& Target();

}  // namespace fairwire::fuzz

#endif  // FAIRWIRE_FUZZ_TARGET_H_
