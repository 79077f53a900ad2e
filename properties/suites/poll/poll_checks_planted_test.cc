// The checks themselves under test: for each of the poll properties a
// small fixed script, the observation a real, correct composite (Select or
// SelectAll through RunScript, as CheckRun gets it) records for it, and one
// planted corruption of that observation that breaks the property. The
// untouched observation must pass every check (else the case proves
// nothing); the corrupted one must fail the property's own check, with the
// property's name first and the planted call or child in the text, and fail
// no check but the ones the case lists (a corruption the model would see,
// for instance, necessarily fails cursor exactness too).
//
// Then the nested baseline's "a Done side is never polled again": Nested-like
// composites built here that poll a side again after it returned Done, run
// through the harness's own nested shape (NestedChain), must fail property 9.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "fairwire/checks/poll_checks.h"
#include "fairwire/checks/poll_harness.h"
#include "fairwire/checks/poll_runners.h"
#include "fairwire/poll/handler.h"
#include "fairwire/poll/poll.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll {
namespace {

Outcome R(std::uint8_t e) { return {OutcomeKind::kReady, e}; }
Outcome P() { return {OutcomeKind::kPending, 0}; }
Outcome D() { return {OutcomeKind::kDone, 0}; }

ChildScript Once(std::vector<Outcome> outcomes,
                 std::vector<std::uint8_t> protocols = {}) {
  return ChildScript{std::move(outcomes), false, std::move(protocols)};
}
ChildScript Loop(std::vector<Outcome> outcomes) {
  return ChildScript{std::move(outcomes), true, {}};
}

PollScript Script(PolicyKind policy, std::uint8_t calls,
                  std::vector<ChildScript> children) {
  PollScript s;
  s.policy = policy;
  s.calls = calls;
  s.children = std::move(children);
  return s;
}

// --- Corruptions of an ObservedRun -------------------------------------

// One poll as a corruption writes it: the child, what it returned.
struct Polled {
  std::size_t child;
  Outcome outcome;
};

// Replaces call t's polls by `polls`, each given call t's waker (as a child
// polled in call t sees it); the later calls' slices move along.
void SetPolls(ObservedRun& o, std::size_t t, const std::vector<Polled>& polls) {
  ObservedCall& call = o.calls[t];
  std::vector<PollRecord> records;
  for (const Polled& p : polls) {
    records.push_back(
        PollRecord{p.child, call.waker, p.outcome.kind, p.outcome.event});
  }
  const auto first =
      o.polls.begin() + static_cast<std::ptrdiff_t>(call.first_poll);
  o.polls.erase(first, first + static_cast<std::ptrdiff_t>(call.poll_count));
  o.polls.insert(o.polls.begin() + static_cast<std::ptrdiff_t>(call.first_poll),
                 records.begin(), records.end());
  const std::ptrdiff_t shift = static_cast<std::ptrdiff_t>(records.size()) -
                               static_cast<std::ptrdiff_t>(call.poll_count);
  call.poll_count = records.size();
  for (std::size_t u = t + 1; u < o.calls.size(); ++u) {
    o.calls[u].first_poll = static_cast<std::size_t>(
        static_cast<std::ptrdiff_t>(o.calls[u].first_poll) + shift);
  }
}

// The k-th poll of call t.
PollRecord& PollAt(ObservedRun& o, std::size_t t, std::size_t k) {
  return o.polls[o.calls[t].first_poll + k];
}

void SetReady(ObservedCall& call, std::size_t tag, std::uint8_t event) {
  call.result = CallResult::kReady;
  call.tag = tag;
  call.event = event;
}

// --- The planted cases ---------------------------------------------------

struct PlantedCase {
  // "P4WakeRegistration": the test's name; starts with the property's
  // number.
  std::string name;
  PollProperty property;
  PollScript script;  // run under script.policy
  CompositeKind kind;
  // The corruption.
  std::function<void(ObservedRun&)> plant;
  // Text the violation must contain besides the property's name: the call
  // and the child or count the corruption touched.
  std::string expect_in_message;
  // Other properties the same corruption necessarily breaks.
  std::vector<PollProperty> also;
};

std::vector<PlantedCase> PlantedCases() {
  std::vector<PlantedCase> cases;

  // 1. A call that polls the same child twice. Select<Priority> polls
  // [0 1] -> Pending; planted: [0 0 1], still Pending. The model polls
  // [0 1], so cursor exactness fails too.
  cases.push_back({"P1AtMostOnce",
                   PollProperty::kAtMostOnce,
                   Script(PolicyKind::kPriority, 1, {Once({P()}), Once({P()})}),
                   CompositeKind::kSelect,
                   [](ObservedRun& o) {
                     SetPolls(o, 0, {{0, P()}, {0, P()}, {1, P()}});
                   },
                   "Select<Priority> call 0: polled [0 0 1]",
                   {PollProperty::kCursorExactness}});

  // 2. A Ready result that did not come from the call's last poll.
  // Select<Priority>: call 0 polls [0] -> Ready(0, 5); call 1 polls [0 1]
  // -> Ready(1, 7). Planted: child 0's Ready is recorded in call 1, ahead
  // of child 1, and call 0's poll of it as Pending, so call 0 returned an
  // event its only poll did not give. Each child still emitted what the
  // composite returned for it, and the children polled and the results are
  // the model's: only provenance sees it.
  cases.push_back(
      {"P2Provenance",
       PollProperty::kProvenance,
       Script(PolicyKind::kPriority, 2, {Once({R(5)}), Once({R(7)})}),
       CompositeKind::kSelect,
       [](ObservedRun& o) {
         PollAt(o, 0, 0).returned = OutcomeKind::kPending;
         PollAt(o, 0, 0).event = 0;
         PollAt(o, 1, 0).returned = OutcomeKind::kReady;
         PollAt(o, 1, 0).event = 5;
       },
       "Select<Priority> call 0: returned Ready(child 0, event 5) but the "
       "last child polled of [0] was not Ready",
       {}});

  // 3. Pending without polling every live child. SelectAll<RoundRobin>
  // polls [0 1 2] -> Pending; planted: child 2 is not polled. The model
  // polls all three, so cursor exactness fails too.
  cases.push_back(
      {"P3PendingCompleteness",
       PollProperty::kPendingCompleteness,
       Script(PolicyKind::kRoundRobin, 1,
              {Once({P()}), Once({P()}), Once({P()})}),
       CompositeKind::kSelectAll,
       [](ObservedRun& o) {
         SetPolls(o, 0, {{0, P()}, {1, P()}});
       },
       "SelectAll<RoundRobin> call 0: returned Pending after polling [0 1] "
       "(not every live child was polled and Pending)",
       {PollProperty::kCursorExactness}});

  // 4. A Pending child given a stale waker: in call 1 child 1 is polled
  // with call 0's waker, so its wake goes to a call that has returned (a
  // lost wake-up). Nothing but property 4 reads the wakers.
  cases.push_back(
      {"P4WakeRegistration",
       PollProperty::kWakeRegistration,
       Script(PolicyKind::kSticky, 2, {Once({P()}), Once({P()})}),
       CompositeKind::kSelect,
       [](ObservedRun& o) { PollAt(o, 1, 1).waker = o.calls[0].waker; },
       "Select<Sticky> call 1: child 1 was polled with a stale waker",
       {}});

  // 5. Events reordered: child 0 plays R5 R6; planted: it is delivered as
  // R6 then R5 (records and results alike, so provenance holds). The model
  // predicts Ready(0, 5) first, so cursor exactness fails too.
  cases.push_back(
      {"P5NoLoss",
       PollProperty::kNoLoss,
       Script(PolicyKind::kPriority, 3, {Once({R(5), R(6)})}),
       CompositeKind::kSelect,
       [](ObservedRun& o) {
         PollAt(o, 0, 0).event = 6;
         o.calls[0].event = 6;
         PollAt(o, 1, 0).event = 5;
         o.calls[1].event = 5;
       },
       "Select<Priority>: child 0 emitted 2 events, the composite returned 2 "
       "tagged with it, the model predicts 2 (or their order differs)",
       {PollProperty::kCursorExactness}});

  // 6. The children polled differ from the model's: Select<RoundRobin>
  // polls [0 1 2] -> Pending in both calls; planted: call 1 polls them as
  // [1 0 2]. Every live child is still polled once and Pending, so only
  // cursor exactness sees it.
  cases.push_back(
      {"P6CursorExactness",
       PollProperty::kCursorExactness,
       Script(PolicyKind::kRoundRobin, 2,
              {Once({P()}), Once({P()}), Once({P()})}),
       CompositeKind::kSelect,
       [](ObservedRun& o) {
         SetPolls(o, 1, {{1, P()}, {0, P()}, {2, P()}});
       },
       "Select<RoundRobin> call 1: polled [1 0 2] -> Pending, the model polls "
       "[0 1 2] -> Pending",
       {}});

  // 7. Under RoundRobin a ready child not served within N = 2 calls: two
  // always-Ready children served 0 1 0 1 0 1; planted: 0 0 1 1 0 1. Each
  // child still delivers its three events, in order; the model serves
  // child 1 in call 1, so cursor exactness fails too.
  cases.push_back(
      {"P7BoundedWaiting",
       PollProperty::kBoundedWaiting,
       Script(PolicyKind::kRoundRobin, 6, {Loop({R(0)}), Loop({R(0)})}),
       CompositeKind::kSelectAll,
       [](ObservedRun& o) {
         SetPolls(o, 1, {{0, R(0)}});
         SetReady(o.calls[1], 0, 0);
         SetPolls(o, 2, {{1, R(0)}});
         SetReady(o.calls[2], 1, 0);
       },
       "SelectAll<RoundRobin> call 0: child 1 was ready but not served within "
       "2 calls (RoundRobin's bound, 2 live children)",
       {PollProperty::kCursorExactness}});

  // 8. Under Sticky with bursts of at most B = 2 a ready child is served
  // within (N-1)*B+1 = 3 calls. Child 0 plays R1 R2, child 1 R3: served
  // 0 0 1, then Pending. Planted: child 1 is Pending in call 2 and served
  // in call 3, outside the bound. Sticky has no bound of property 7; the
  // model serves child 1 in call 2, so cursor exactness fails too.
  cases.push_back(
      {"P8FiniteBurstLiveness",
       PollProperty::kFiniteBurstLiveness,
       Script(PolicyKind::kSticky, 4, {Once({R(1), R(2)}), Once({R(3)})}),
       CompositeKind::kSelect,
       [](ObservedRun& o) {
         SetPolls(o, 2, {{0, P()}, {1, P()}});
         o.calls[2].result = CallResult::kPending;
         o.calls[2].tag = 0;
         o.calls[2].event = 0;
         SetPolls(o, 3, {{0, P()}, {1, R(3)}});
         SetReady(o.calls[3], 1, 3);
       },
       "Select<Sticky> call 0: child 1 was ready but not served within 3 "
       "calls (bursts of at most 2, (N-1)*B+1, 2 live children)",
       {PollProperty::kCursorExactness}});

  // 9. The composite not Done when all its children are: child 0 is Done
  // in call 0, child 1 in call 1; planted: IsDone() is false after call 1.
  // Only property 9 reads IsDone(). (A Done child polled again: the nested
  // tests below.)
  cases.push_back(
      {"P9Termination",
       PollProperty::kTermination,
       Script(PolicyKind::kPriority, 3, {Once({D()}), Once({R(4), D()})}),
       CompositeKind::kSelectAll,
       [](ObservedRun& o) { o.calls[1].composite_done = false; },
       "SelectAll<Priority> call 1: IsDone() is false with 0 children not "
       "done",
       {}});

  // 10. Protocol iteration that re-walks a child's list: the names come out
  // right, but the children's iterators were stepped once more for each of
  // child 0's two protocols.
  cases.push_back(
      {"P10ProtocolIteration",
       PollProperty::kProtocolIteration,
       Script(PolicyKind::kPriority, 1,
              {Once({P()}, {0, 1}), Once({P()}, {2})}),
       CompositeKind::kSelect,
       [](ObservedRun& o) { o.protocol_steps += 2; },
       "Select<Priority> stepped the children's lists 5 times for 3 protocols "
       "(re-walked a child)",
       {}});

  // 11. A Pending call that left a woken child unpolled without waking its
  // own waker: nobody would poll that child again. Read from the digest's
  // woken_unpolled (its computation from events: poll_observation_test).
  cases.push_back(
      {"P11WokenPendingCompleteness",
       PollProperty::kWokenPendingCompleteness,
       Script(PolicyKind::kRoundRobin, 2, {Once({P()}), Once({P()})}),
       CompositeKind::kSelectAll,
       [](ObservedRun& o) { o.calls[1].woken_unpolled = {1}; },
       "SelectAll<RoundRobin> call 1: Pending, but live children [1] were "
       "woken and not polled, and the call's waker was not woken",
       {}});

  // 12. A wake after a Pending call that did not reach the caller.
  cases.push_back(
      {"P12WakeReachesCaller",
       PollProperty::kWakeReachesCaller,
       Script(PolicyKind::kSticky, 2, {Once({P()}), Once({P()})}),
       CompositeKind::kSelect,
       [](ObservedRun& o) { o.calls[0].unheard_wakes = {0}; },
       "Select<Sticky> call 0: Pending, and a wake of live children [0] after "
       "it did not reach the call's waker",
       {}});

  return cases;
}

// The properties whose checks fail on `observed`.
std::vector<PollProperty> Failing(const PollScript& s, PolicyKind policy,
                                  const ModelRun& model,
                                  const ObservedRun& observed) {
  std::vector<PollProperty> out;
  for (PollProperty p : kAllProperties) {
    if (CheckProperty(p, s, policy, model, observed)) out.push_back(p);
  }
  return out;
}

std::string Names(const std::vector<PollProperty>& properties) {
  std::string out = "{";
  for (PollProperty p : properties) {
    if (out.size() > 1) out += ", ";
    out += PropertyName(p);
  }
  return out + "}";
}

// gtest prints a failing case's parameter by its name.
void PrintTo(const PlantedCase& c, std::ostream* os) { *os << c.name; }

class PollCheck : public testing::TestWithParam<PlantedCase> {};

TEST_P(PollCheck, ReportsItsPlantedViolationAndPassesTheRealRun) {
  const PlantedCase& c = GetParam();
  const PollScript& s = c.script;
  const PolicyKind policy = s.policy;
  ASSERT_TRUE(IsValid(s)) << DescribePollScript(s);
  const ModelRun model = RunModel(s, policy);
  ObservedRun observed = RunScript(s, policy, c.kind);

  // Not vacuous: the real composite's run passes every check, as CheckRun
  // sees it too.
  for (PollProperty p : kAllProperties) {
    const auto v = CheckProperty(p, s, policy, model, observed);
    EXPECT_FALSE(v.has_value()) << "untouched run: " << *v;
  }
  EXPECT_EQ(CheckRun(s, policy, c.kind), std::nullopt);

  c.plant(observed);
  const auto violation = CheckProperty(c.property, s, policy, model, observed);
  ASSERT_TRUE(violation.has_value())
      << PropertyName(c.property) << " missed the planted violation in\n"
      << DescribePollScript(s);
  const std::string prefix = std::string(PropertyName(c.property)) + ": ";
  EXPECT_EQ(violation->rfind(prefix, 0), 0u) << *violation;
  EXPECT_NE(violation->find(c.expect_in_message), std::string::npos)
      << "got:  " << *violation << "\nwant: " << c.expect_in_message;

  // Precise: no other check fails but the ones listed.
  std::vector<PollProperty> want = c.also;
  want.push_back(c.property);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(Names(Failing(s, policy, model, observed)), Names(want));
}

INSTANTIATE_TEST_SUITE_P(
    PlantedViolation, PollCheck, testing::ValuesIn(PlantedCases()),
    [](const testing::TestParamInfo<PlantedCase>& planted) {
      return planted.param.name;
    });

// An eleventh property without a planted case fails here.
TEST(PlantedViolationCoverage, EveryPropertyHasAPlantedCase) {
  const std::vector<PlantedCase> cases = PlantedCases();
  for (PollProperty p : kAllProperties) {
    const auto number = std::to_string(static_cast<int>(p));
    const auto it =
        std::find_if(cases.begin(), cases.end(),
                     [&](const PlantedCase& c) { return c.property == p; });
    ASSERT_NE(it, cases.end())
        << "no planted case for property " << number << " " << PropertyName(p);
    // The name says which property: "P<number>" and then not a digit.
    const std::string head = "P" + number;
    EXPECT_EQ(it->name.rfind(head, 0), 0u) << it->name;
    EXPECT_TRUE(
        it->name.size() > head.size() &&
        !std::isdigit(static_cast<unsigned char>(it->name[head.size()])))
        << it->name;
  }
  EXPECT_EQ(cases.size(), std::size(kAllProperties));
}

// --- Nested: a Done side polled again -----------------------------------

// Of<A, B>: a binary composite like Nested<A, B> (left first, Pending when
// both live sides are Pending, Done when both are done) that can be told to
// poll a side again after it returned Done.
template <bool kRepollLeft, bool kRepollRight>
struct RepollAfterDone {
  template <Handler A, Handler B>
  class Of {
   public:
    using Event = std::variant<typename A::Event, typename B::Event>;

    Of(A a, B b) : a_(std::move(a)), b_(std::move(b)) {}

    ::fairwire::poll::Poll<Event> Poll(Context& cx) {
      using Result = ::fairwire::poll::Poll<Event>;
      if (kRepollLeft || !a_done_) {
        auto left = a_.Poll(cx);
        if (left.IsReady()) {
          return Result::Ready(
              Event(std::in_place_index<0>, std::move(left).value()));
        }
        if (left.IsDone()) a_done_ = true;
      }
      if (kRepollRight || !b_done_) {
        auto right = b_.Poll(cx);
        if (right.IsReady()) {
          return Result::Ready(
              Event(std::in_place_index<1>, std::move(right).value()));
        }
        if (right.IsDone()) b_done_ = true;
      }
      return IsDone() ? Result::Done() : Result::Pending();
    }
    bool IsDone() const { return a_done_ && b_done_; }
    auto Protocols() const {
      return NestedProtocols<ProtocolsOf<A>, ProtocolsOf<B>>(a_.Protocols(),
                                                             b_.Protocols());
    }

   private:
    A a_;
    B b_;
    bool a_done_ = false;
    bool b_done_ = false;
  };
};

using Faithful = RepollAfterDone<false, false>;
using RepollsLeft = RepollAfterDone<true, false>;
using RepollsRight = RepollAfterDone<false, true>;

// Three children that finish one after the other while the later ones are
// still Pending, then a call after all are Done: every child, the last one
// included, is Done while a later call still reaches it.
//   call 0: [0 D, 1 P, 2 P] -> Pending   call 2: [2 D] -> Done
//   call 1: [1 D, 2 P] -> Pending        call 3: [] -> Done
PollScript ChildrenFinishInTurn() {
  return Script(PolicyKind::kNested, 4,
                {Once({D()}), Once({P(), D()}), Once({P(), P(), D()})});
}

std::optional<std::string> Termination(const PollScript& s,
                                       const ObservedRun& observed) {
  return CheckProperty(PollProperty::kTermination, s, PolicyKind::kNested,
                       RunModel(s, PolicyKind::kNested), observed);
}

TEST(PlantedNested, RealAndFaithfulNestedPassEveryPropertyOnTheScript) {
  const PollScript s = ChildrenFinishInTurn();
  const ModelRun model = RunModel(s, PolicyKind::kNested);
  ASSERT_EQ(model.calls.size(), 4u);
  EXPECT_EQ(model.calls[2].result, CallResult::kDone);
  // The real nested baseline through the harness (what PollSelect.* runs).
  EXPECT_EQ(CheckRun(s, PolicyKind::kNested, CompositeKind::kSelect),
            std::nullopt);
  // The composite built here, unbroken, through the same shape.
  const ObservedRun faithful =
      internal::RunNestedChain<Faithful, 3>(s, "Faithful");
  EXPECT_EQ(Names(Failing(s, PolicyKind::kNested, model, faithful)), Names({}));
}

TEST(PlantedNested, LeftSidePolledAgainAfterDoneFailsTermination) {
  const PollScript s = ChildrenFinishInTurn();
  const auto v = Termination(
      s, internal::RunNestedChain<RepollsLeft, 3>(s, "RepollsLeft"));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v,
            "termination: RepollsLeft call 1: child 0 was polled after it "
            "returned Done");
}

// The mutant that survived PollSelect.*: with a FinishedHandler at the
// chain's right end every scripted child is a left side, and a right side
// polled again is a pair (which guards its own children) or the
// FinishedHandler: nothing to see. With the last child on the right of the
// innermost pair, call 3 polls child 2 again.
TEST(PlantedNested, RightSidePolledAgainAfterDoneFailsTermination) {
  const PollScript s = ChildrenFinishInTurn();
  const auto v = Termination(
      s, internal::RunNestedChain<RepollsRight, 3>(s, "RepollsRight"));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v,
            "termination: RepollsRight call 3: child 2 was polled after it "
            "returned Done");
}

// A single child: Pair<C0, FinishedHandler>; polling C0 again after Done is
// seen there too.
TEST(PlantedNested, OneChildPolledAgainAfterDoneFailsTermination) {
  const PollScript s = Script(PolicyKind::kNested, 2, {Once({D()})});
  EXPECT_EQ(CheckRun(s, PolicyKind::kNested, CompositeKind::kSelect),
            std::nullopt);
  const auto v = Termination(
      s, internal::RunNestedChain<RepollsLeft, 1>(s, "RepollsLeft"));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v,
            "termination: RepollsLeft call 1: child 0 was polled after it "
            "returned Done");
}

}  // namespace
}  // namespace fairwire::poll
