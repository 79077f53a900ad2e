// The poll harness's runner for the Priority policy.
#include "poll_runners.h"

namespace fairwire::poll::internal {

Observation RunPriority(const PollScript& s, CompositeKind kind) {
  return RunPolicy<Priority>(
      s, kind, [] { return Priority{}; }, "Priority");
}

}  // namespace fairwire::poll::internal
