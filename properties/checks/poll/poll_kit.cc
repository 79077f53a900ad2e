// CheckKitScript: one run of a kit's composite, every check it owes.
#include "fairwire/checks/poll_kit.h"

#include "fairwire/checks/poll_observed_run.h"

namespace fairwire::poll::kit {

std::optional<std::string> CheckKitScript(const PollKitSpec& kit,
                                          const PollScript& script) {
  CompositeRun run = kit.composite.run(script);
  if (!run.observation) return "no-observation: " + run.error;
  if (const auto bad = CheckObservationShape(*run.observation)) {
    return "malformed-observation: " + bad->reason + " at event " +
           std::to_string(bad->offset);
  }
  const ObservedRun observed = DigestObservation(*run.observation);
  for (PollProperty p : kPolicyFreeProperties) {
    if (auto v = CheckPolicyFree(p, script, observed)) return v;
  }
  if (kit.claims) {
    return CheckModelMatch(script, RunModel(script, *kit.claims), observed);
  }
  return std::nullopt;
}

}  // namespace fairwire::poll::kit
