// The harness's runner for Select<BoxedPolicy, ScriptedChild x n>, n from 1
// to 32: one instantiation per size serves every policy.
#include <string>

#include "fairwire/checks/poll_runners.h"

namespace fairwire::poll::internal {

ObservedRun RunSelectBoxed(const PollScript& s, PolicyKind policy) {
  return RunSelect<BoxedPolicy>(
      s, [&] { return BoxedPolicy(MakePolicy(policy, &s.draws)); },
      "Select<" + std::string(PolicyName(policy)) + ">");
}

}  // namespace fairwire::poll::internal
