// The poll harness's runner for the nested baseline
// Nested<C0, Nested<C1, ... Nested<Cn-2, Cn-1>>> (NestedChain in
// fairwire/checks/poll_runners.h).
#include "fairwire/checks/poll_runners.h"

namespace fairwire::poll::internal {

ObservedRun RunNested(const PollScript& s) {
  return Dispatch<kMaxScriptChildren>(s.children.size() - 1, [&](auto k) {
    return RunNestedChain<NestedPairs, decltype(k)::value + 1>(s, "Nested");
  });
}

}  // namespace fairwire::poll::internal
