// CheckKitScript: one run of a kit's composite, every check it owes.
#include "fairwire/checks/poll_kit.h"

#include "fairwire/checks/poll_observed_run.h"

namespace fairwire::poll::kit {

std::optional<std::string> CheckObservation(
    const PollScript& script, const Observation& observation,
    const std::optional<PolicyModel>& model) {
  if (const auto bad = CheckObservationShape(observation)) {
    return "malformed-observation: " + bad->reason + " at event " +
           std::to_string(bad->offset);
  }
  if (observation.children != script.children.size()) {
    return "malformed-observation: " + std::to_string(observation.children) +
           " children for a script of " +
           std::to_string(script.children.size());
  }
  const ObservedRun observed = DigestObservation(observation);
  for (PollProperty p : kPolicyFreeProperties) {
    if (auto v = CheckPolicyFree(p, script, observed)) return v;
  }
  if (model) return CheckModelMatch(script, RunModel(script, *model), observed);
  return std::nullopt;
}

std::optional<std::string> CheckKitScript(const PollKitSpec& kit,
                                          const PollScript& script) {
  CompositeRun run = kit.composite.run(script);
  if (!run.observation) return "no-observation: " + run.error;
  return CheckObservation(script, *run.observation, kit.claims);
}

}  // namespace fairwire::poll::kit
