// The poll kit's fuzz target, compiled with a user's kit source
// (fairwire_add_poll_kit): the input is a PollScript's bytes (every byte
// string is some script), fitted to the composite's limits (FitScript), run
// through the kit's composite, and checked: every policy-free property
// (fairwire/checks/poll_checks.h kPolicyFreeProperties), then the model of
// the policy the kit claims. The corpus is poll_schedule's.
#include <string>
#include <vector>

#include "fairwire/checks/poll_kit.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::fuzz {
namespace {

poll::PollScript ScriptOf(ByteSpan input) {
  return poll::FitScript(poll::kit::Kit().composite,
                         poll::DecodePollScript(input));
}

std::optional<std::string> Check(ByteSpan input) {
  try {
    return poll::kit::CheckKitScript(poll::kit::Kit(), ScriptOf(input));
  } catch (...) {
    // A scripted child's throw is caught by the harness; anything else
    // escaping is an exception-safety failure of the composite.
    return std::string("exception-escaped: an exception left the harness");
  }
}

std::string Describe(ByteSpan input) {
  return "through " + poll::kit::Kit().composite.name + "\n" +
         poll::DescribePollScript(ScriptOf(input));
}

std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  std::vector<Bytes> out;
  for (const poll::PollScript& s : poll::ShrinkPollScript(ScriptOf(input))) {
    if (poll::Admissible(poll::kit::Kit().composite, s)) {
      out.push_back(poll::EncodePollScript(s));
    }
  }
  return out;
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      FAIRWIRE_KIT_TARGET_NAME,
      "a poll script through the kit's composite: the policy-free poll "
      "properties, then the model of the policy it claims",
      &Check, &Describe, &ShrinkCandidates};
  return spec;
}

}  // namespace fairwire::fuzz
