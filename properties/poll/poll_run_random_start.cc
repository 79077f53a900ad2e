// The poll harness's runner for RandomStart, fed the script's draws.
#include "poll_runners.h"

namespace fairwire::poll::internal {

Observation RunRandomStart(const PollScript& s, CompositeKind kind) {
  return RunPolicy<RandomStart<ScriptedRng>>(
      s, kind, [&] { return RandomStart<ScriptedRng>(ScriptedRng(&s.draws)); },
      "RandomStart");
}

}  // namespace fairwire::poll::internal
