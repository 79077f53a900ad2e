// The poll harness's runner for the Budgeted<3> policy.
#include "poll_runners.h"

namespace fairwire::poll::internal {

Observation RunBudgeted3(const PollScript& s, CompositeKind kind) {
  return RunPolicy<Budgeted<3>>(
      s, kind, [] { return Budgeted<3>{}; }, "Budgeted<3>");
}

}  // namespace fairwire::poll::internal
