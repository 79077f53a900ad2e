// The poll_schedule fuzz target: the input is a PollScript's bytes (every
// byte string is some script); the check runs the script under every policy
// through Select, SelectAll and the Nested baseline and compares each run
// with the reference model (properties 1 to 10 of docs/design.md "The ten poll
// properties").
#include <string>
#include <vector>

#include "fairwire/checks/poll_checks.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::fuzz {
namespace {

std::optional<std::string> Check(ByteSpan input) {
  try {
    return poll::CheckAllPolicies(poll::DecodePollScript(input));
  } catch (...) {
    // A scripted child's throw is caught by the harness; anything else
    // escaping is an exception-safety failure of the composite.
    return std::string("exception-escaped: an exception left the harness");
  }
}

std::string Describe(ByteSpan input) {
  return poll::DescribePollScript(poll::DecodePollScript(input));
}

std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  std::vector<Bytes> out;
  for (const poll::PollScript& s :
       poll::ShrinkPollScript(poll::DecodePollScript(input))) {
    out.push_back(poll::EncodePollScript(s));
  }
  return out;
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "poll_schedule",
      "a poll schedule under every policy through Select, SelectAll and "
      "Nested, against the reference model (poll properties 1-10)",
      &Check, &Describe, &ShrinkCandidates};
  return spec;
}

}  // namespace fairwire::fuzz
