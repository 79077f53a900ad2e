// The poll harness's runner for the Budgeted<2> policy.
#include "poll_runners.h"

namespace fairwire::poll::internal {

Observation RunBudgeted2(const PollScript& s, CompositeKind kind) {
  return RunPolicy<Budgeted<2>>(
      s, kind, [] { return Budgeted<2>{}; }, "Budgeted<2>");
}

}  // namespace fairwire::poll::internal
