// The poll properties (DESIGN.md "Poll core", items 1 to 10, and the two
// wake-driven forms, 11 and 12), each a check of one observed run against
// the reference model. A check
// returns nullopt, or the violation as "property-name: details" (the text
// before the first ':' names the property, as the fuzz shrinker expects).
#ifndef FAIRWIRE_CHECKS_POLL_CHECKS_H_
#define FAIRWIRE_CHECKS_POLL_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/checks/poll_harness.h"
#include "fairwire/models/poll_model.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll {

// The properties, numbered as in DESIGN.md; 11 and 12 are the forms of 3
// and 4 for composites that poll only the children that were woken
// (docs/design.md "The wake-driven forms").
enum class PollProperty : std::uint8_t {
  kAtMostOnce = 1,
  kProvenance,
  kPendingCompleteness,
  kWakeRegistration,
  kNoLoss,
  kCursorExactness,
  kBoundedWaiting,
  kFiniteBurstLiveness,
  kTermination,
  kProtocolIteration,
  kWokenPendingCompleteness,
  kWakeReachesCaller,
};
// All twelve, in order.
inline constexpr PollProperty kAllProperties[] = {
    PollProperty::kAtMostOnce,
    PollProperty::kProvenance,
    PollProperty::kPendingCompleteness,
    PollProperty::kWakeRegistration,
    PollProperty::kNoLoss,
    PollProperty::kCursorExactness,
    PollProperty::kBoundedWaiting,
    PollProperty::kFiniteBurstLiveness,
    PollProperty::kTermination,
    PollProperty::kProtocolIteration,
    PollProperty::kWokenPendingCompleteness,
    PollProperty::kWakeReachesCaller};

// "at-most-once", "provenance", ..., "protocol-iteration",
// "pending-completeness-woken", "wake-reaches-caller".
std::string_view PropertyName(PollProperty property);

// The model's run of a script: its prediction per call, and before each
// call which children were ready (live, next outcome Ready) and how many
// were live. Flat tables, not a vector per call: the fuzz target builds
// seven of these per input.
struct ModelRun {
  std::size_t children = 0;  // the script's child count
  std::vector<ModelResult> calls;
  // The children call t polls: polled[polled_begin[t], polled_begin[t + 1]).
  std::vector<std::size_t> polled;
  std::vector<std::size_t> polled_begin;
  // ready_before[t * children + i]: child i was ready before call t.
  std::vector<std::uint8_t> ready_before;
  std::vector<std::size_t> live_before;

  // Whether child i was ready before call t (t < calls.size()).
  bool ReadyBefore(std::size_t t, std::size_t i) const {
    return ready_before[t * children + i] != 0;
  }
  // The children call t polls, in order (t < calls.size()).
  std::span<const std::size_t> PolledOf(std::size_t t) const {
    return std::span<const std::size_t>(polled).subspan(
        polled_begin[t], polled_begin[t + 1] - polled_begin[t]);
  }
};

// Runs the model over `script` under `policy`.
ModelRun RunModel(const PollScript& script, PolicyKind policy);
// The same under any policy's model (a user's, or BudgetedModel(k) for any
// k).
ModelRun RunModel(const PollScript& script, const PolicyModel& policy);
// The same into `run`, whose contents they replace, keeping the capacity of
// its tables (the fuzz target's runs allocate nothing for them).
void RunModel(const PollScript& script, PolicyKind policy, ModelRun& run);
void RunModel(const PollScript& script, const PolicyModel& policy,
              ModelRun& run);

// The bound of property 7 for n live children: n for RoundRobin,
// (n-1)*K+1 for Budgeted<K>; nullopt for policies without one (Priority,
// Sticky, Nested, RandomStart).
std::optional<std::size_t> WaitingBound(PolicyKind policy, std::size_t n);

// The longest burst (consecutive Ready outcomes) any child can produce;
// nullopt when some child is Ready forever (a looping all-Ready script).
std::optional<std::size_t> LongestBurst(const PollScript& script);

// Checks one property of one observed run against the model's run.
std::optional<std::string> CheckProperty(PollProperty property,
                                         const PollScript& script,
                                         PolicyKind policy,
                                         const ModelRun& model,
                                         const ObservedRun& observed);

// The properties a run can be checked for without a policy's model: what
// any composite owes its caller. No-loss in this form: each child's events
// reach the caller as it emitted them, in order, none lost or duplicated.
inline constexpr PollProperty kPolicyFreeProperties[] = {
    PollProperty::kAtMostOnce,
    PollProperty::kProvenance,
    PollProperty::kPendingCompleteness,
    PollProperty::kWakeRegistration,
    PollProperty::kNoLoss,
    PollProperty::kTermination,
    PollProperty::kWokenPendingCompleteness,
    PollProperty::kWakeReachesCaller};

// Whether `observed` is what `model` (RunModel of the same script under
// some policy's model) predicts: property 6 (cursor exactness) and
// property 5 with the model's order. nullopt, or the first violation.
std::optional<std::string> CheckModelMatch(const PollScript& script,
                                           const ModelRun& model,
                                           const ObservedRun& observed);

// Checks one of kPolicyFreeProperties (nullopt for the others).
std::optional<std::string> CheckPolicyFree(PollProperty property,
                                           const PollScript& script,
                                           const ObservedRun& observed);

// Runs `script` under `policy` through `kind` and checks `property`.
std::optional<std::string> CheckOne(PollProperty property,
                                    const PollScript& script, PolicyKind policy,
                                    CompositeKind kind);

// Runs `script` under `policy` through `kind` and checks every property.
std::optional<std::string> CheckRun(const PollScript& script, PolicyKind policy,
                                    CompositeKind kind);

// As CheckRun, against `model` (which must be RunModel(script, policy)):
// one model run serves every composite of a policy.
std::optional<std::string> CheckRunAgainst(const PollScript& script,
                                           PolicyKind policy,
                                           CompositeKind kind,
                                           const ModelRun& model);

// Every property for every policy, through Select, SelectAll and the
// nested baseline: what the poll_schedule replay checks (the fuzz target
// runs the one policy and composite its input names).
std::optional<std::string> CheckAllPolicies(const PollScript& script);

// Demands RoundRobin's fairness (every ready child served within n calls,
// n live children) of any policy: finds the starvation of Priority, Sticky
// and Nested. Returns the "bounded-waiting: ..." violation, or nullopt.
std::optional<std::string> FindStarvation(const PollScript& script,
                                          PolicyKind policy,
                                          CompositeKind kind);

}  // namespace fairwire::poll

#endif  // FAIRWIRE_CHECKS_POLL_CHECKS_H_
