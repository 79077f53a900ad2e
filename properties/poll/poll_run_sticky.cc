// The poll harness's runner for the Sticky policy.
#include "poll_runners.h"

namespace fairwire::poll::internal {

Observation RunSticky(const PollScript& s, CompositeKind kind) {
  return RunPolicy<Sticky>(
      s, kind, [] { return Sticky{}; }, "Sticky");
}

}  // namespace fairwire::poll::internal
