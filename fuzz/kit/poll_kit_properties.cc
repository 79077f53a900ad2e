// The poll kit's properties, compiled with a user's kit source
// (fairwire_add_poll_kit):
// - every policy-free property, and the claimed model, on RapidCheck's
//   scripts (shrunk on failure; RapidCheck prints how to replay);
// - the rc::state model test: polls, external wakes and new outcomes for
//   the children, interleaved; after each poll the run so far keeps every
//   policy-free property and, when the kit claims a model, the children
//   polled and the result are the model's;
// - the verdict over 2000 scripts, printed, with the standard models and
//   the claimed one: every property holds and the claimed model matches.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include <algorithm>
#include <deque>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fairwire/checks/poll_kit.h"
#include "fairwire/checks/poll_observed_run.h"
#include "fairwire/generators/poll_generators.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll::kit {
namespace {

const PollKitSpec& TheKit() { return Kit(); }

RC_GTEST_PROP(PollKit, EveryRunKeepsThePropertiesAndTheClaimedModel,
              (const PollScript& generated)) {
  const PollScript s = FitScript(TheKit().composite, generated);
  if (const auto v = CheckKitScript(TheKit(), s)) {
    RC_FAIL(*v + "\n" + DescribePollScript(s));
  }
}

// --- The model-based test ---------------------------------------------

struct StateModel {
  std::optional<PollModel> model;  // the claimed policy's, if any
  std::size_t children;
};

struct Sut {
  std::deque<ChildScript> scripts;  // the children read them as they grow
  std::unique_ptr<KitSession> session;
  PollScript shape;  // the child count the policy-free checks read
};

using Command = rc::state::Command<StateModel, Sut>;

std::size_t PickChild(const StateModel& m) {
  return *rc::gen::inRange<std::size_t>(0, m.children);
}

struct ChildGetsOutcomes : Command {
  std::size_t child;
  std::vector<Outcome> outcomes;
  explicit ChildGetsOutcomes(const StateModel& m)
      : child(PickChild(m)),
        outcomes(*rc::gen::resize(
            4, rc::gen::container<std::vector<Outcome>>(GenOutcome()))) {
    const CompositeUnderTest& c = TheKit().composite;
    std::erase_if(outcomes, [&c](const Outcome& o) {
      return (o.kind == OutcomeKind::kDone && !c.children_finish) ||
             (o.kind == OutcomeKind::kThrow && !c.children_throw);
    });
  }
  void apply(StateModel& m) const override {
    if (!m.model) return;
    for (const Outcome& o : outcomes) m.model->Append(child, o);
  }
  void run(const StateModel&, Sut& sut) const override {
    for (const Outcome& o : outcomes) {
      sut.scripts[child].outcomes.push_back(o);
    }
  }
  void show(std::ostream& os) const override {
    ChildScript c;
    c.outcomes = outcomes;
    os << "ChildGetsOutcomes " << child << " " << DescribeOutcomes(c);
  }
};

struct ExternalWakeOf : Command {
  std::size_t child;
  explicit ExternalWakeOf(const StateModel& m) : child(PickChild(m)) {}
  void run(const StateModel&, Sut& sut) const override {
    sut.session->WakeExternally(child);
  }
  void show(std::ostream& os) const override { os << "ExternalWake " << child; }
};

struct PollOnce : Command {
  void apply(StateModel& m) const override {
    if (m.model) (void)m.model->Call();
  }
  void run(const StateModel& m, Sut& sut) const override {
    const std::size_t first = sut.session->observation().events.size();
    const ObservedEvent end = sut.session->Call();
    std::vector<std::size_t> polled;
    const auto& events = sut.session->observation().events;
    for (std::size_t k = first; k < events.size(); ++k) {
      if (events[k].kind == ObservedEventKind::kPoll) {
        polled.push_back(events[k].child);
      }
    }
    if (m.model) {
      PollModel model = *m.model;
      const ModelCall want = model.Call();
      RC_ASSERT(polled == want.polled);
      RC_ASSERT(end.result == want.result);
      if (end.result == CallResult::kReady) {
        RC_ASSERT(end.tag == want.tag);
        RC_ASSERT(end.event == want.event);
      }
    }
    const ObservedRun so_far = DigestObservation(sut.session->observation());
    for (PollProperty p : kPolicyFreeProperties) {
      if (const auto v = CheckPolicyFree(p, sut.shape, so_far)) RC_FAIL(*v);
    }
  }
  void show(std::ostream& os) const override { os << "Poll"; }
};

RC_GTEST_PROP(PollKit, KeepsThePropertiesAndClaimUnderPollsWakesAndNewOutcomes,
              ()) {
  const PollKitSpec& kit = TheKit();
  const CompositeUnderTest& c = kit.composite;
  const std::size_t n = *rc::gen::inRange<std::size_t>(
      c.min_children, std::min<std::size_t>(c.max_children, 6) + 1);
  Sut sut;
  sut.scripts.resize(n);
  sut.shape.children.resize(n);
  sut.session = kit.open(sut.scripts);
  StateModel initial{std::nullopt, n};
  if (kit.claims) {
    initial.model.emplace(*kit.claims, std::vector<ChildScript>(n),
                          std::vector<std::uint8_t>());
  }
  rc::state::check(
      initial, sut,
      rc::state::gen::execOneOfWithArgs<ChildGetsOutcomes, ExternalWakeOf,
                                        PollOnce, PollOnce>());
}

// --- The verdict -------------------------------------------------------

TEST(PollKit, VerdictKeepsEveryPropertyAndMatchesTheClaim) {
  const PollKitSpec& kit = TheKit();
  VerdictOptions opts;
  if (kit.claims && std::none_of(opts.models.begin(), opts.models.end(),
                                 [&](const PolicyModel& m) {
                                   return m.name == kit.claims->name;
                                 })) {
    opts.models.push_back(*kit.claims);
  }
  const CompositeVerdict v = JudgeComposite(kit.composite, opts);
  std::cout << DescribeVerdict(v);
  ASSERT_FALSE(v.run_error.has_value()) << *v.run_error;
  EXPECT_EQ(v.scripts, opts.scripts);
  for (const PropertyVerdict& pv : v.properties) {
    EXPECT_TRUE(pv.holds()) << pv.violation;
  }
  if (kit.claims) {
    EXPECT_NE(std::find(v.matched_models.begin(), v.matched_models.end(),
                        kit.claims->name),
              v.matched_models.end())
        << kit.composite.name << " does not follow the model it claims, "
        << kit.claims->name;
  }
}

}  // namespace
}  // namespace fairwire::poll::kit
