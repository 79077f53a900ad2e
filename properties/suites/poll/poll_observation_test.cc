// The observation, the poll kit's interface: its byte codec on real runs
// and on bytes from nowhere, its shape check, and the digest's wake facts
// on hand-written event lists (the wake-driven forms read them; fairwire's
// own composites never produce most of them).
#include "fairwire/checks/poll_observation.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fairwire/checks/poll_harness.h"
#include "fairwire/checks/poll_kit.h"
#include "fairwire/checks/poll_observed_run.h"
#include "fairwire/generators/poll_generators.h"
#include "fairwire/poll/policy.h"
#include "fairwire/poll/select_all.h"

namespace fairwire::poll {
namespace {

// The observation of `script` through SelectAll<RoundRobin>.
Observation ObserveSelectAll(const PollScript& script) {
  Recorder recorder;
  SelectAll<RoundRobin, ScriptedChild> all{RoundRobin()};
  for (std::size_t i = 0; i < script.children.size(); ++i) {
    all.Add(ScriptedChild(i, &script.children[i], &recorder));
  }
  return Observe(script, all, recorder, "SelectAll<RoundRobin>",
                 [](const auto& e) {
                   return TagAndEvent{e.index, e.event};
                 });
}

RC_GTEST_PROP(PollObservation, RealRunsHaveAShapeAndRoundTripThroughBytes,
              (const PollScript& script)) {
  const Observation o = ObserveSelectAll(script);
  if (const auto bad = CheckObservationShape(o)) {
    RC_FAIL("shape: " + bad->reason + " at event " +
            std::to_string(bad->offset) + "\n" + DescribeObservation(o));
  }
  const std::vector<std::uint8_t> bytes = EncodeObservation(o);
  const DecodedObservation back = DecodeObservation(bytes);
  RC_ASSERT(back.observation.has_value());
  RC_ASSERT(*back.observation == o);
  // Every proper prefix is an error inside the bytes, never a crash.
  const std::size_t cut = *rc::gen::inRange<std::size_t>(0, bytes.size());
  const DecodedObservation prefix =
      DecodeObservation(std::span<const std::uint8_t>(bytes.data(), cut));
  RC_ASSERT(!prefix.observation.has_value());
  RC_ASSERT(prefix.error.offset <= cut);
  RC_ASSERT(!prefix.error.reason.empty());
}

RC_GTEST_PROP(PollObservation, AnyBytesDecodeOrGiveAReasonAndAnOffset,
              (std::vector<std::uint8_t> bytes)) {
  // Half the cases start with a valid header, so the events get read.
  if (*rc::gen::arbitrary<bool>()) {
    const std::vector<std::uint8_t> header = {'F', 'W', 'O', 'B', 1,
                                              1,   'x', 2,   0,   3};
    bytes.insert(bytes.begin(), header.begin(), header.end());
  }
  const DecodedObservation d = DecodeObservation(bytes);
  if (d.observation) {
    RC_ASSERT(EncodeObservation(*d.observation) == bytes);
    // A decoded observation of any shape digests without a crash when
    // its shape holds.
    if (!CheckObservationShape(*d.observation)) {
      (void)DigestObservation(*d.observation);
    }
  } else {
    RC_ASSERT(!d.error.reason.empty());
    RC_ASSERT(d.error.offset <= bytes.size());
  }
}

// An observation from bytes, checked against its script: the round trip of
// a real run keeps every property and RoundRobin's model; the same bytes
// claimed as Priority's, or for another script, are not.
RC_GTEST_PROP(PollObservation, DecodedBytesCheckAsTheRunItself,
              (const PollScript& script)) {
  const Observation o = ObserveSelectAll(script);
  const DecodedObservation back = DecodeObservation(EncodeObservation(o));
  RC_ASSERT(back.observation.has_value());
  if (const auto v =
          kit::CheckObservation(script, *back.observation, RoundRobinModel())) {
    RC_FAIL(*v);
  }
  PollScript other = script;
  other.children.push_back(ChildScript{});
  if (other.children.size() <= kMaxScriptChildren) {
    RC_ASSERT(kit::CheckObservation(other, *back.observation, std::nullopt)
                  .has_value());
  }
}

TEST(PollObservation, AnotherModelIsCaught) {
  PollScript s;
  s.calls = 3;
  s.children = {ChildScript{{Outcome{OutcomeKind::kReady, 1}}, true, {}},
                ChildScript{{Outcome{OutcomeKind::kReady, 2}}, true, {}}};
  const Observation o = ObserveSelectAll(s);
  EXPECT_FALSE(kit::CheckObservation(s, o, RoundRobinModel()).has_value());
  const auto v = kit::CheckObservation(s, o, PriorityModel());
  ASSERT_TRUE(v.has_value());
  EXPECT_TRUE(v->starts_with("cursor-exactness: SelectAll<RoundRobin> call 1"))
      << *v;
}

// The callers' wakers live in blocks of kCallersPerBlock that the recorder
// keeps: past the first blocks, each call still has a waker of its own, and
// a child that wakes itself wakes the call that polled it.
TEST(PollObservation, EveryCallHasItsOwnWakerPastTheFirstBlocks) {
  const ChildScript wakes_itself{
      {Outcome{OutcomeKind::kPendingSelfWake, 0}}, true, {}};
  Recorder recorder;
  SelectAll<RoundRobin, ScriptedChild> all{RoundRobin()};
  all.Add(ScriptedChild(0, &wakes_itself, &recorder));
  Observer observer(all, recorder, "SelectAll<RoundRobin>", 1,
                    [](const auto& e) {
                      return TagAndEvent{e.index, e.event};
                    });
  constexpr std::size_t kCalls = 3 * kCallersPerBlock + 1;
  for (std::size_t t = 0; t < kCalls; ++t) observer.Call();
  const Observation& o = observer.observation();
  EXPECT_FALSE(CheckObservationShape(o).has_value()) << DescribeObservation(o);
  std::size_t calls = 0;
  std::size_t woken = 0;
  std::uint32_t caller = 0;
  for (const ObservedEvent& e : o.events) {
    if (e.kind == ObservedEventKind::kCallBegin) {
      ++calls;
      caller = e.waker;
    } else if (e.kind == ObservedEventKind::kCallerWoken) {
      ++woken;
      EXPECT_EQ(e.waker, caller) << "in call " << calls - 1;
    }
  }
  EXPECT_EQ(calls, kCalls);
  // The self-wake during each call, and the probe after it.
  EXPECT_EQ(woken, 2 * kCalls);
}

TEST(PollObservation, DecodeNamesTheReasonAndTheOffset) {
  Observation o;
  o.composite = "c";
  o.children = 1;
  std::vector<std::uint8_t> bytes = EncodeObservation(o);
  EXPECT_TRUE(DecodeObservation(bytes).observation.has_value());

  std::vector<std::uint8_t> wrong_version = bytes;
  wrong_version[4] = 2;
  const DecodedObservation v = DecodeObservation(wrong_version);
  ASSERT_FALSE(v.observation.has_value());
  EXPECT_EQ(v.error.reason, "observation version 2, this reader knows 1");
  EXPECT_EQ(v.error.offset, 4u);

  std::vector<std::uint8_t> no_children = bytes;
  no_children[7] = 0;  // magic 4, version 1, name length 1, name 1
  const DecodedObservation c = DecodeObservation(no_children);
  ASSERT_FALSE(c.observation.has_value());
  EXPECT_EQ(c.error.reason, "0 children");
  EXPECT_EQ(c.error.offset, 7u);

  std::vector<std::uint8_t> trailing = bytes;
  trailing.push_back(0);
  const DecodedObservation t = DecodeObservation(trailing);
  ASSERT_FALSE(t.observation.has_value());
  EXPECT_EQ(t.error.reason, "trailing bytes");
  EXPECT_EQ(t.error.offset, bytes.size());

  std::vector<std::uint8_t> bad_kind = bytes;
  bad_kind.back() = 1;  // one event
  bad_kind.push_back(9);
  const DecodedObservation k = DecodeObservation(bad_kind);
  ASSERT_FALSE(k.observation.has_value());
  EXPECT_EQ(k.error.reason, "event kind 9");
  EXPECT_EQ(k.error.offset, bytes.size());
}

// --- Hand-written event lists --------------------------------------------

// Builds an observation event by event.
class Events {
 public:
  explicit Events(std::uint32_t children) { o_.children = children; }
  Events& Begin(std::uint32_t call, std::uint32_t waker) {
    ObservedEvent e;
    e.kind = ObservedEventKind::kCallBegin;
    e.call = call;
    e.waker = waker;
    return Add(e);
  }
  Events& Poll(std::uint32_t child, std::uint32_t waker, OutcomeKind outcome) {
    ObservedEvent e;
    e.kind = ObservedEventKind::kPoll;
    e.child = child;
    e.waker = waker;
    e.outcome = outcome;
    return Add(e);
  }
  Events& End(CallResult result) {
    ObservedEvent e;
    e.kind = ObservedEventKind::kCallEnd;
    e.result = result;
    return Add(e);
  }
  // A wake of `child`'s waker `waker` that reached the callers' wakers
  // `reached`.
  Events& Wake(std::uint32_t child, std::uint32_t waker, WakeCause cause,
               std::vector<std::uint32_t> reached) {
    ObservedEvent b;
    b.kind = ObservedEventKind::kWakeBegin;
    b.child = child;
    b.waker = waker;
    b.cause = cause;
    Add(b);
    for (std::uint32_t r : reached) {
      ObservedEvent w;
      w.kind = ObservedEventKind::kCallerWoken;
      w.waker = r;
      Add(w);
    }
    ObservedEvent e;
    e.kind = ObservedEventKind::kWakeEnd;
    return Add(e);
  }
  const Observation& observation() const { return o_; }

 private:
  Events& Add(const ObservedEvent& e) {
    o_.events.push_back(e);
    return *this;
  }
  Observation o_;
};

constexpr OutcomeKind kP = OutcomeKind::kPending;
constexpr OutcomeKind kW = OutcomeKind::kPendingSelfWake;

TEST(PollObservationDigest, AWrappedWakerReachingTheCallerIsHeard) {
  // A composite that gives each child its own waker (ids 1 and 2) and
  // forwards their wakes to the caller (id 0): not stale by effect, stale
  // by identity (property 4's form).
  const Observation o = Events(2)
                            .Begin(0, 0)
                            .Poll(0, 1, kP)
                            .Poll(1, 2, kP)
                            .End(CallResult::kPending)
                            .Wake(0, 1, WakeCause::kExternal, {0})
                            .observation();
  ASSERT_FALSE(CheckObservationShape(o).has_value());
  const ObservedRun run = DigestObservation(o);
  ASSERT_EQ(run.calls.size(), 1u);
  EXPECT_TRUE(run.calls[0].unheard_wakes.empty());
  EXPECT_TRUE(run.calls[0].woken_unpolled.empty());
  EXPECT_EQ(run.calls[0].stale_registrations, (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(run.calls[0].missed_external_wakes.empty());
}

TEST(PollObservationDigest, AWakeThatReachesNoCallerIsUnheard) {
  const Observation o = Events(2)
                            .Begin(0, 0)
                            .Poll(0, 1, kP)
                            .Poll(1, 2, kP)
                            .End(CallResult::kPending)
                            .Wake(1, 2, WakeCause::kExternal, {})
                            .Wake(0, 1, WakeCause::kProbe, {0, 0})
                            .observation();
  ASSERT_FALSE(CheckObservationShape(o).has_value());
  const ObservedRun run = DigestObservation(o);
  EXPECT_EQ(run.calls[0].unheard_wakes, (std::vector<std::size_t>{1}));
  EXPECT_EQ(run.calls[0].missed_external_wakes, (std::vector<std::size_t>{1}));
  // Reached twice: heard (12's form), but not exactly once (4's form).
  EXPECT_EQ(run.calls[0].lost_wakes, (std::vector<std::size_t>{0}));
}

TEST(PollObservationDigest, AWakeOfACallerAlreadyWokenIsNotUnheard) {
  // Call 0 woke its own waker (a yield); the child's wake after it reaches
  // nobody (the composite had it queued already): the caller polls again
  // anyway. A second call that was not woken must hear the wake.
  const Observation o = Events(1)
                            .Begin(0, 0)
                            .Poll(0, 1, kW)
                            .Wake(0, 1, WakeCause::kSelf, {0})
                            .End(CallResult::kPending)
                            .Wake(0, 1, WakeCause::kExternal, {})
                            .Begin(1, 2)
                            .Poll(0, 3, kP)
                            .End(CallResult::kPending)
                            .Wake(0, 3, WakeCause::kExternal, {})
                            .observation();
  ASSERT_FALSE(CheckObservationShape(o).has_value());
  const ObservedRun run = DigestObservation(o);
  EXPECT_TRUE(run.calls[0].unheard_wakes.empty());
  EXPECT_EQ(run.calls[1].unheard_wakes, (std::vector<std::size_t>{0}));
}

TEST(PollObservationDigest, WokenChildrenLeftUnpolledAreNamed) {
  // Call 0 polls child 0 only (child 1 never polled: woken) and returns
  // Pending without waking its caller; call 1 polls child 0, which wakes
  // itself, then returns Pending with its waker woken: nothing is named.
  const Observation o = Events(2)
                            .Begin(0, 0)
                            .Poll(0, 0, kP)
                            .End(CallResult::kPending)
                            .Begin(1, 1)
                            .Poll(0, 1, kW)
                            .Wake(0, 1, WakeCause::kSelf, {1})
                            .End(CallResult::kPending)
                            .observation();
  ASSERT_FALSE(CheckObservationShape(o).has_value());
  const ObservedRun run = DigestObservation(o);
  EXPECT_EQ(run.calls[0].woken_unpolled, (std::vector<std::size_t>{1}));
  EXPECT_TRUE(run.calls[1].woken_unpolled.empty());
  EXPECT_EQ(run.calls[1].wakes_during_call, 1u);
}

TEST(PollObservationDigest, AFutureChildIsFinishedByItsReady) {
  Observation o = Events(1)
                      .Begin(0, 0)
                      .Poll(0, 0, OutcomeKind::kReady)
                      .End(CallResult::kReady)
                      .Begin(1, 1)
                      .End(CallResult::kPending)
                      .observation();
  o.child_kind = ChildKind::kFuture;
  ASSERT_FALSE(CheckObservationShape(o).has_value());
  const ObservedRun as_future = DigestObservation(o);
  EXPECT_TRUE(as_future.calls[1].stale_registrations.empty());
  EXPECT_TRUE(as_future.calls[1].woken_unpolled.empty());
  o.child_kind = ChildKind::kStream;
  const ObservedRun as_stream = DigestObservation(o);
  EXPECT_EQ(as_stream.calls[1].stale_registrations,
            (std::vector<std::size_t>{0}));
}

// The first field in which two digests differ, or nothing.
std::optional<std::string> FirstDifference(const ObservedRun& a,
                                           const ObservedRun& b) {
  if (a.composite != b.composite) return "composite";
  if (a.child_kind != b.child_kind) return "child_kind";
  if (a.calls.size() != b.calls.size()) return "the number of calls";
  for (std::size_t t = 0; t < a.calls.size(); ++t) {
    const ObservedCall& x = a.calls[t];
    const ObservedCall& y = b.calls[t];
    const std::string at = " of call " + std::to_string(t);
    if (x.first_poll != y.first_poll || x.poll_count != y.poll_count) {
      return "the polls" + at;
    }
    if (x.result != y.result || x.tag != y.tag || x.event != y.event ||
        x.composite_done != y.composite_done) {
      return "the result" + at;
    }
    if (x.waker != y.waker || x.wakes_during_call != y.wakes_during_call) {
      return "the waker" + at;
    }
    if (x.stale_registrations != y.stale_registrations) {
      return "stale_registrations" + at;
    }
    if (x.lost_wakes != y.lost_wakes) return "lost_wakes" + at;
    if (x.missed_external_wakes != y.missed_external_wakes) {
      return "missed_external_wakes" + at;
    }
    if (x.woken_unpolled != y.woken_unpolled) return "woken_unpolled" + at;
    if (x.unheard_wakes != y.unheard_wakes) return "unheard_wakes" + at;
  }
  if (a.polls.size() != b.polls.size()) return "the number of polls";
  for (std::size_t i = 0; i < a.polls.size(); ++i) {
    const PollRecord& x = a.polls[i];
    const PollRecord& y = b.polls[i];
    if (x.child != y.child || x.waker != y.waker || x.returned != y.returned ||
        x.event != y.event) {
      return "poll " + std::to_string(i);
    }
  }
  if (a.protocols != b.protocols) return "protocols";
  if (a.protocol_steps != b.protocol_steps) return "protocol_steps";
  if (a.protocol_resume_failure != b.protocol_resume_failure) {
    return "protocol_resume_failure";
  }
  return std::nullopt;
}

// A run with every wake fact the digest records: stale registrations,
// unheard wakes, woken children left unpolled.
Observation WakeFacts() {
  return Events(3)
      .Begin(0, 0)
      .Poll(0, 1, kP)
      .Poll(1, 2, kW)
      .Poll(2, 2, kP)
      .End(CallResult::kPending)
      .Wake(1, 2, WakeCause::kExternal, {})
      .Wake(0, 1, WakeCause::kProbe, {0, 0})
      .Begin(1, 3)
      .Poll(2, 3, kP)
      .End(CallResult::kPending)
      .observation();
}

// A run whose calls have the wakers that WakeFacts gives its children (1
// and 2, besides 0), and the protocol walk a C++ composite's run adds to its
// digest.
ObservedRun CallersWithTheChildrensWakers() {
  const Observation o = Events(1)
                            .Begin(0, 0)
                            .Poll(0, 0, kP)
                            .End(CallResult::kPending)
                            .Begin(1, 1)
                            .Poll(0, 1, kP)
                            .End(CallResult::kPending)
                            .Begin(2, 2)
                            .Poll(0, 2, kP)
                            .End(CallResult::kPending)
                            .observation();
  const auto bad = CheckObservationShape(o);
  EXPECT_FALSE(bad.has_value()) << bad->reason << " at " << bad->offset;
  ObservedRun run = DigestObservation(o);
  run.protocols = {"a", "b"};
  run.protocol_steps = 7;
  run.protocol_resume_failure = 1;
  return run;
}

// The digest into the storage of an earlier run, as CheckRun and the fuzz
// target digest run after run on one thread (DigestObservation(o, run)),
// equals a fresh digest of the same observation: nothing of the run before
// is left (its calls' wakers, its protocol walk), and a run with wake facts
// leaves none behind.
RC_GTEST_PROP(PollObservationDigest, DigestIntoAnEarlierRunEqualsAFreshOne,
              (const PollScript& first, const PollScript& second)) {
  const Observation facts = WakeFacts();
  RC_ASSERT(!CheckObservationShape(facts).has_value());
  const Observation a = ObserveSelectAll(first);
  const Observation b = ObserveSelectAll(second);
  ObservedRun run = CallersWithTheChildrensWakers();
  DigestObservation(facts, run);
  if (const auto d = FirstDifference(run, DigestObservation(facts))) {
    RC_FAIL("the wake facts after another run differ in " + *d);
  }
  DigestObservation(a, run);
  DigestObservation(b, run);
  if (const auto d = FirstDifference(run, DigestObservation(b))) {
    RC_FAIL("after two runs, the digest differs in " + *d);
  }
  DigestObservation(facts, run);
  if (const auto d = FirstDifference(run, DigestObservation(facts))) {
    RC_FAIL("the wake facts after a run differ in " + *d);
  }
}

TEST(PollObservationShape, NamesTheFirstEventOutOfPlace) {
  const auto shape = [](const Observation& o) {
    const auto bad = CheckObservationShape(o);
    return bad ? bad->reason + " @" + std::to_string(bad->offset)
               : std::string("ok");
  };
  EXPECT_EQ(shape(Events(1).Poll(0, 0, kP).observation()),
            "a poll outside a call @0");
  EXPECT_EQ(
      shape(Events(1).Begin(1, 0).End(CallResult::kPending).observation()),
      "call numbered out of order @0");
  EXPECT_EQ(shape(Events(1).Begin(0, 0).Poll(1, 0, kP).observation()),
            "no such child @1");
  EXPECT_EQ(shape(Events(1).Begin(0, 0).Poll(0, 5, kP).observation()),
            "waker id out of order @1");
  EXPECT_EQ(shape(Events(1).Begin(0, 0).observation()),
            "the run ends inside a call or a wake @1");
  EXPECT_EQ(shape(Events(1)
                      .Begin(0, 0)
                      .End(CallResult::kPending)
                      .Wake(0, 0, WakeCause::kSelf, {})
                      .observation()),
            "a self-wake outside a call, or another inside one @2");
  EXPECT_EQ(shape(Events(1)
                      .Begin(0, 0)
                      .Poll(0, 0, kP)
                      .End(CallResult::kPending)
                      .Wake(0, 0, WakeCause::kExternal, {0})
                      .observation()),
            "ok");
}

}  // namespace
}  // namespace fairwire::poll
