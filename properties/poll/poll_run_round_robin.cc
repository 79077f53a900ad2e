// The poll harness's runner for the RoundRobin policy.
#include "poll_runners.h"

namespace fairwire::poll::internal {

Observation RunRoundRobin(const PollScript& s, CompositeKind kind) {
  return RunPolicy<RoundRobin>(
      s, kind, [] { return RoundRobin{}; }, "RoundRobin");
}

}  // namespace fairwire::poll::internal
