// Model-based test of SelectAll with rc::state commands: a child gets
// outcomes, a child finishes, an external wake, a poll, a child is added, a
// child is removed. After each poll the children polled and the result must
// be what the reference model predicts; each wake must reach the waker the
// child was last polled with.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include <deque>
#include <memory>
#include <ostream>
#include <vector>

#include "fairwire/checks/poll_harness.h"
#include "fairwire/generators/poll_generators.h"
#include "fairwire/models/poll_model.h"
#include "fairwire/poll/policy.h"
#include "fairwire/poll/select_all.h"

namespace fairwire::poll {
namespace {

// The model: the reference model and the policy it follows.
struct StateModel {
  PollModel model;
};

// The system under test: a SelectAll of scripted children.
template <class P>
struct Sut {
  explicit Sut(P policy) : all(std::move(policy)) {}
  Recorder recorder;
  SelectAll<P, ScriptedChild> all;
  std::size_t next_id = 0;
  std::deque<WakeCounter> counters;    // one per poll, stable addresses
  std::vector<std::size_t> last_poll;  // by id: index into counters
  bool last_pending = false;

  // The current index of the child with id `id`.
  std::size_t IndexOf(std::size_t id) const {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all.child(i).id() == id) return i;
    }
    return all.size();
  }
};

template <class P>
using Command = rc::state::Command<StateModel, Sut<P>>;

// A child index of the model, or 0 when there are none (then the command's
// precondition discards it).
std::size_t PickChild(const StateModel& m) {
  return m.model.size() == 0
             ? 0
             : *rc::gen::inRange<std::size_t>(0, m.model.size());
}

template <class P>
struct AddChild : Command<P> {
  ChildScript script = *GenChild();
  void apply(StateModel& m) const override { m.model.Add(script); }
  void run(const StateModel&, Sut<P>& sut) const override {
    const std::size_t id = sut.next_id++;
    sut.recorder.TrackChildren(id + 1);
    sut.last_poll.resize(id + 1, 0);
    sut.all.Add(ScriptedChild(id, script, &sut.recorder));
  }
  void show(std::ostream& os) const override {
    os << "AddChild " << DescribeOutcomes(script);
  }
};

template <class P>
struct RemoveChild : Command<P> {
  std::size_t index;
  explicit RemoveChild(const StateModel& m) : index(PickChild(m)) {}
  void checkPreconditions(const StateModel& m) const override {
    RC_PRE(index < m.model.size());
  }
  void apply(StateModel& m) const override { m.model.Remove(index); }
  void run(const StateModel&, Sut<P>& sut) const override {
    sut.all.Remove(index);
  }
  void show(std::ostream& os) const override { os << "RemoveChild " << index; }
};

template <class P>
struct ChildGetsOutcomes : Command<P> {
  std::size_t index;
  std::vector<Outcome> outcomes;
  explicit ChildGetsOutcomes(const StateModel& m)
      : index(PickChild(m)),
        outcomes(*rc::gen::resize(
            4, rc::gen::container<std::vector<Outcome>>(GenOutcome()))) {}
  void checkPreconditions(const StateModel& m) const override {
    RC_PRE(index < m.model.size());
  }
  void apply(StateModel& m) const override {
    for (const Outcome& o : outcomes) m.model.Append(index, o);
  }
  void run(const StateModel&, Sut<P>& sut) const override {
    for (const Outcome& o : outcomes) sut.all.child(index).Append(o);
  }
  void show(std::ostream& os) const override {
    ChildScript c;
    c.outcomes = outcomes;
    os << "ChildGetsOutcomes " << index << " " << DescribeOutcomes(c);
  }
};

template <class P>
struct ChildFinishes : Command<P> {
  std::size_t index;
  explicit ChildFinishes(const StateModel& m) : index(PickChild(m)) {}
  void checkPreconditions(const StateModel& m) const override {
    RC_PRE(index < m.model.size());
  }
  void apply(StateModel& m) const override {
    m.model.Append(index, Outcome{OutcomeKind::kDone, 0});
  }
  void run(const StateModel&, Sut<P>& sut) const override {
    sut.all.child(index).Append(Outcome{OutcomeKind::kDone, 0});
  }
  void show(std::ostream& os) const override {
    os << "ChildFinishes " << index;
  }
};

template <class P>
struct ExternalWakeOf : Command<P> {
  std::size_t index;
  explicit ExternalWakeOf(const StateModel& m) : index(PickChild(m)) {}
  void checkPreconditions(const StateModel& m) const override {
    RC_PRE(index < m.model.size());
  }
  void run(const StateModel& m, Sut<P>& sut) const override {
    const std::size_t id = sut.all.child(index).id();
    const Waker waker = sut.recorder.latest_waker[id];
    if (waker == Waker()) return;  // never polled yet
    WakeCounter& target = sut.counters[sut.last_poll[id]];
    const std::uint64_t before = target.count();
    waker.Wake();
    RC_ASSERT(target.count() == before + 1);
    // After a Pending composite every live child holds the latest waker.
    if (sut.last_pending && !m.model.IsDone(index)) {
      RC_ASSERT(waker == sut.counters.back().waker());
    }
  }
  void show(std::ostream& os) const override { os << "ExternalWake " << index; }
};

template <class P>
struct PollOnce : Command<P> {
  void apply(StateModel& m) const override { (void)m.model.Call(); }
  void run(const StateModel& m, Sut<P>& sut) const override {
    PollModel model = m.model;
    const ModelCall want = model.Call();
    sut.counters.emplace_back();
    const Waker waker = sut.counters.back().waker();
    Context cx(waker);
    const std::size_t first_event = sut.recorder.log.events.size();
    CallResult result = CallResult::kPending;
    std::size_t tag = 0;
    std::uint8_t event = 0;
    try {
      auto polled = sut.all.Poll(cx);
      if (polled.IsReady()) {
        result = CallResult::kReady;
        tag = polled.value().index;
        event = polled.value().event;
      } else {
        result = polled.IsDone() ? CallResult::kDone : CallResult::kPending;
      }
    } catch (const ScriptedThrow&) {
      result = CallResult::kThrew;
    }
    std::vector<std::size_t> polled_indexes;
    const std::uint32_t waker_id = sut.recorder.WakerId(waker);
    for (std::size_t k = first_event; k < sut.recorder.log.events.size(); ++k) {
      const ObservedEvent& e = sut.recorder.log.events[k];
      if (e.kind != ObservedEventKind::kPoll) continue;
      RC_ASSERT(e.waker == waker_id);
      polled_indexes.push_back(sut.IndexOf(e.child));
      sut.last_poll[e.child] = sut.counters.size() - 1;
    }
    sut.last_pending = result == CallResult::kPending;
    RC_ASSERT(polled_indexes == want.polled);
    RC_ASSERT(result == want.result);
    if (result == CallResult::kReady) {
      RC_ASSERT(tag == want.tag);
      RC_ASSERT(event == want.event);
    }
    RC_ASSERT(sut.all.IsDone() == (model.live() == 0));
  }
  void show(std::ostream& os) const override { os << "Poll"; }
};

template <class P, class MakePolicy>
void RunCommands(PolicyKind kind, MakePolicy make_policy,
                 const std::vector<std::uint8_t>& draws) {
  StateModel initial{PollModel(kind, {}, draws)};
  Sut<P> sut(make_policy());
  rc::state::check(
      initial, sut,
      rc::state::gen::execOneOfWithArgs<
          AddChild<P>, RemoveChild<P>, ChildGetsOutcomes<P>, ChildFinishes<P>,
          ExternalWakeOf<P>, PollOnce<P>, PollOnce<P>>());
}

RC_GTEST_PROP(PollStateful, PriorityMatchesModelUnderAddRemoveAndWakes, ()) {
  RunCommands<Priority>(PolicyKind::kPriority, [] { return Priority(); }, {});
}
RC_GTEST_PROP(PollStateful, StickyMatchesModelUnderAddRemoveAndWakes, ()) {
  RunCommands<Sticky>(PolicyKind::kSticky, [] { return Sticky(); }, {});
}
RC_GTEST_PROP(PollStateful, RoundRobinMatchesModelUnderAddRemoveAndWakes, ()) {
  RunCommands<RoundRobin>(PolicyKind::kRoundRobin, [] { return RoundRobin(); },
                          {});
}
RC_GTEST_PROP(PollStateful, Budgeted2MatchesModelUnderAddRemoveAndWakes, ()) {
  RunCommands<Budgeted<2>>(PolicyKind::kBudgeted2, [] { return Budgeted<2>(); },
                           {});
}
RC_GTEST_PROP(PollStateful, Budgeted3MatchesModelUnderAddRemoveAndWakes, ()) {
  RunCommands<Budgeted<3>>(PolicyKind::kBudgeted3, [] { return Budgeted<3>(); },
                           {});
}
RC_GTEST_PROP(PollStateful, RandomStartMatchesModelUnderAddRemoveAndWakes, ()) {
  const auto draws = std::make_shared<std::vector<std::uint8_t>>(
      *rc::gen::nonEmpty<std::vector<std::uint8_t>>());
  RunCommands<RandomStart<ScriptedRng>>(
      PolicyKind::kRandomStart,
      [&] { return RandomStart<ScriptedRng>(ScriptedRng(draws.get())); },
      *draws);
}

}  // namespace
}  // namespace fairwire::poll
