// The poll_schedule fuzz target: the input is a PollScript's bytes (every
// byte string is some script). Each input runs once: under the script's own
// policy (byte 0 modulo 7), through Select or SelectAll as the composite bit
// of byte 0 says (Nested has one composite, the nested baseline), and the
// run is compared with the reference model (properties 1 to 12 of
// docs/design.md "The poll properties"). Every (policy, composite) pair
// is reachable from the input; running one per input under a fuzzing
// engine, not all thirteen, is what keeps this target fast (issue 12). The
// replay driver runs the script through all thirteen (check_all).
#include <string>
#include <vector>

#include "fairwire/checks/poll_checks.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::fuzz {
namespace {

poll::CompositeKind CompositeOf(ByteSpan input) {
  return poll::CompositeBit(input) == 0 ? poll::CompositeKind::kSelect
                                        : poll::CompositeKind::kSelectAll;
}

std::optional<std::string> Check(ByteSpan input) {
  try {
    // Kept for its memory (Check does not call itself).
    thread_local poll::PollScriptDecoder decoder;
    const poll::PollScript& script = decoder.Decode(input);
    return poll::CheckRun(script, script.policy, CompositeOf(input));
  } catch (...) {
    // A scripted child's throw is caught by the harness; anything else
    // escaping is an exception-safety failure of the composite.
    return std::string("exception-escaped: an exception left the harness");
  }
}

// The fuzzing check first, so that a finding reproduces with its own text,
// then every policy through every composite.
std::optional<std::string> CheckAll(ByteSpan input) {
  if (auto violation = Check(input)) return violation;
  try {
    return poll::CheckAllPolicies(poll::DecodePollScript(input));
  } catch (...) {
    return std::string("exception-escaped: an exception left the harness");
  }
}

std::string Describe(ByteSpan input) {
  const poll::PollScript script = poll::DecodePollScript(input);
  const char* composite = script.policy == poll::PolicyKind::kNested ? "Nested"
                          : CompositeOf(input) == poll::CompositeKind::kSelect
                              ? "Select"
                              : "SelectAll";
  return std::string("through ") + composite + "\n" +
         poll::DescribePollScript(script);
}

// The script's shrinks, each through the same composite.
std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  const std::uint8_t bit = poll::CompositeBit(input);
  std::vector<Bytes> out;
  for (const poll::PollScript& s :
       poll::ShrinkPollScript(poll::DecodePollScript(input))) {
    out.push_back(poll::WithCompositeBit(poll::EncodePollScript(s), bit));
  }
  return out;
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "poll_schedule",
      "a poll schedule under its policy through Select, SelectAll or Nested "
      "(chosen by byte 0), against the reference model (poll properties 1-12; "
      "replay: every policy through every composite)",
      &Check,
      &Describe,
      &ShrinkCandidates,
      &CheckAll};
  return spec;
}

}  // namespace fairwire::fuzz
