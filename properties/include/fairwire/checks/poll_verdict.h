// The verdict on a composite that is not fairwire's and may claim no
// policy: over many scripts, which properties it keeps (each violation with
// a shrunk counterexample), which policies' models its every run matches,
// and how long an always-ready child waits. The composite is anything that
// plays a script and hands back an observation (poll_observation.h): a C++
// composite through Observe, or one in another language over bytes.
#ifndef FAIRWIRE_CHECKS_POLL_VERDICT_H_
#define FAIRWIRE_CHECKS_POLL_VERDICT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/checks/poll_checks.h"
#include "fairwire/checks/poll_observation.h"
#include "fairwire/models/poll_script.h"

namespace fairwire::poll {

// What one run of a composite gave: its observation, or why there is none.
struct CompositeRun {
  std::optional<Observation> observation;
  std::string error;  // when !observation
};

// A composite under test and what its children may do.
struct CompositeUnderTest {
  std::string name;
  std::size_t min_children = 1;
  std::size_t max_children = kMaxScriptChildren;
  bool children_finish = true;  // scripts may hold Done
  bool children_throw = true;   // scripts may hold Throw
  // Plays a script within the limits above.
  std::function<CompositeRun(const PollScript&)> run;
};

// The models a composite is matched against unless told otherwise:
// Priority, Sticky, RoundRobin, Budgeted<2>, Budgeted<3>, Budgeted<4>.
// Not RandomStart: a composite's generator is its own, so its draws are
// not the script's ("any start" stands for it).
std::vector<PolicyModel> StandardModels();

// How a verdict is reached.
struct VerdictOptions {
  std::vector<PolicyModel> models = StandardModels();
  std::size_t scripts = 2000;       // random scripts per composite
  std::uint64_t seed = 2026;        // of the scripts
  std::size_t max_children = 6;     // of a random script (within the limits)
  std::size_t shrink_steps = 4000;  // candidate runs per counterexample
  std::size_t waiting_calls = 64;   // calls of each always-ready run
};

// One property over every script.
struct PropertyVerdict {
  PollProperty property = PollProperty::kAtMostOnce;
  std::size_t failures = 0;  // scripts that broke it
  // The first failing script, shrunk, and the check's message on it.
  std::optional<PollScript> counterexample;
  std::string violation;
  bool holds() const { return failures == 0; }
};

// n children, each Ready whenever polled, for `calls` calls: the longest
// any of them waited, in calls, from the start or from its last event to
// its next (a child never served counts the whole run and is starved).
struct WaitingMeasure {
  std::size_t children = 0;
  std::size_t calls = 0;
  std::size_t worst_wait = 0;
  bool starved = false;
};

// See the file comment.
struct CompositeVerdict {
  std::string composite;
  std::size_t scripts = 0;                  // scripts run
  std::vector<PropertyVerdict> properties;  // kPolicyFreeProperties' order
  // The models every run matched (cursor exactness and no-loss against
  // the model): their names, in the options' order, and "any start" when every
  // call polled the live children in index order from some child, wrapping, up
  // to the first Ready (RandomStart with draws the harness cannot see).
  std::vector<std::string> matched_models;
  // When "any start" did not match: a script, shrunk, and the call.
  std::optional<PollScript> any_start_counterexample;
  std::string any_start_violation;
  std::vector<WaitingMeasure> waiting;
  // A run that gave no observation, or one of the wrong shape: the
  // composite's driver is broken, and no verdict above can be trusted.
  std::optional<std::string> run_error;
};

// The scripts a composite gets: valid, within its limits.
bool Admissible(const CompositeUnderTest& composite, const PollScript& script);

// `script` made admissible: a child count outside [min_children,
// min(max_children, max_children_here)] folded into it, the outcomes the
// children cannot play dropped, the wakes of dropped children dropped, and
// the policy, draws and protocol lists cleared (a composite under test
// claims no PolicyKind, and its generator, if any, is its own). Fitting a
// fitted script changes nothing.
PollScript FitScript(const CompositeUnderTest& composite, PollScript script,
                     std::size_t max_children_here = kMaxScriptChildren);

// Runs `composite` over opts.scripts random admissible scripts and the
// always-ready runs, and judges it.
CompositeVerdict JudgeComposite(const CompositeUnderTest& composite,
                                const VerdictOptions& opts = {});

// The verdict for a person: a line per property, the models, the waiting,
// and every counterexample with its script and message.
std::string DescribeVerdict(const CompositeVerdict& verdict);

// The name of the rotation model: "any start".
inline constexpr const char* kAnyStartModel = "any start";

}  // namespace fairwire::poll

#endif  // FAIRWIRE_CHECKS_POLL_VERDICT_H_
