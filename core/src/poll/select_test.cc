// Unit tests of Select<Policy, H...>: cursor rules per policy, Pending and
// Done, wakers, and exception safety.
#include "fairwire/poll/select.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "fairwire/poll/countdown_handler.h"
#include "fairwire/poll/policy.h"
#include "test_handlers.h"

namespace fairwire::poll {
namespace {

using testing::AlwaysReady;
using testing::D;
using testing::P;
using testing::R;
using testing::Scripted;
using testing::T;

// The tags (child indexes) of the next `calls` results; -1 for Pending,
// -2 for Done.
template <class S>
std::vector<int> Tags(S& select, int calls) {
  return testing::PollAndRecord(select, calls, testing::TagOf());
}

TEST(Select, PriorityAlwaysStartsAtChildZero) {
  Select<Priority, Scripted, Scripted> s(AlwaysReady(0), AlwaysReady(1));
  EXPECT_EQ(Tags(s, 4), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(s.child<1>().polls(), 0);
}

TEST(Select, StickyStaysOnTheChildThatWasReady) {
  Select<Sticky, Scripted, Scripted> s(Scripted({P(), R(1), R(2), P()}),
                                       AlwaysReady(9));
  // Call 1: child 0 Pending, child 1 Ready; then child 1 forever.
  EXPECT_EQ(Tags(s, 3), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(s.child<0>().polls(), 1);
}

TEST(Select, RoundRobinMovesPastTheReadyChild) {
  Select<RoundRobin, Scripted, Scripted, Scripted> s(
      AlwaysReady(0), AlwaysReady(1), AlwaysReady(2));
  EXPECT_EQ(Tags(s, 5), (std::vector<int>{0, 1, 2, 0, 1}));
}

TEST(Select, BudgetedServesKEventsThenMovesOn) {
  Select<Budgeted<2>, Scripted, Scripted> s(AlwaysReady(0), AlwaysReady(1));
  EXPECT_EQ(Tags(s, 6), (std::vector<int>{0, 0, 1, 1, 0, 0}));
}

TEST(Select, RandomStartDrawsOnePerCall) {
  struct Fixed {
    unsigned operator()() { return draws[next++ % 3]; }
    unsigned draws[3] = {2, 4, 0};
    unsigned next = 0;
  };
  Select<RandomStart<Fixed>, Scripted, Scripted, Scripted> s(
      RandomStart<Fixed>(Fixed{}), AlwaysReady(0), AlwaysReady(1),
      AlwaysReady(2));
  EXPECT_EQ(Tags(s, 3), (std::vector<int>{2, 1, 0}));
}

TEST(Select, PendingOnlyWhenEveryLiveChildWasPolled) {
  Select<RoundRobin, Scripted, Scripted, Scripted> s(
      Scripted({P(), P()}), Scripted({D()}), Scripted({P(), R(5)}));
  EXPECT_EQ(Tags(s, 1), (std::vector<int>{-1}));
  EXPECT_EQ(s.child<0>().polls(), 1);
  EXPECT_EQ(s.child<1>().polls(), 1);
  EXPECT_EQ(s.child<2>().polls(), 1);
  EXPECT_EQ(s.live(), 2u);
  EXPECT_EQ(Tags(s, 1), (std::vector<int>{2}));
  // The done child is never polled again.
  EXPECT_EQ(s.child<1>().polls(), 1);
}

TEST(Select, DoneExactlyWhenAllChildrenAreDone) {
  Select<Sticky, Scripted, Scripted> s(Scripted({D()}), Scripted({R(1), D()}));
  EXPECT_EQ(Tags(s, 1), (std::vector<int>{1}));
  EXPECT_FALSE(s.IsDone());
  EXPECT_EQ(Tags(s, 2), (std::vector<int>{-2, -2}));
  EXPECT_TRUE(s.IsDone());
  EXPECT_EQ(s.child<0>().polls(), 1);
  EXPECT_EQ(s.child<1>().polls(), 2);
}

TEST(Select, PendingChildrenSawThisCallsWaker) {
  Select<RoundRobin, Scripted, Scripted> s(Scripted({P()}), Scripted({P()}));
  WakeCounter first;
  WakeCounter second;
  Context cx1(first.waker());
  EXPECT_TRUE(s.Poll(cx1).IsPending());
  Context cx2(second.waker());
  EXPECT_TRUE(s.Poll(cx2).IsPending());
  EXPECT_EQ(s.child<0>().last_waker(), second.waker());
  EXPECT_EQ(s.child<1>().last_waker(), second.waker());
  s.child<1>().last_waker().Wake();
  EXPECT_EQ(second.count(), 1u);
  EXPECT_EQ(first.count(), 0u);
}

TEST(Select, ThrowingChildLeavesTheCursorAsBeforeTheCall) {
  Select<RoundRobin, Scripted, Scripted, Scripted> s(
      Scripted({R(0), D()}), Scripted({T(), R(1)}), Scripted({R(2), R(3)}));
  WakeCounter counter;
  Context cx(counter.waker());
  auto first = s.Poll(cx);
  ASSERT_TRUE(first.IsReady());
  EXPECT_EQ(first.value().index(), 0u);
  EXPECT_THROW((void)s.Poll(cx), std::runtime_error);
  // The cursor is still at child 1, which is now Ready.
  auto after = s.Poll(cx);
  ASSERT_TRUE(after.IsReady());
  EXPECT_EQ(after.value().index(), 1u);
  EXPECT_EQ(std::get<1>(after.value()), 1);
  EXPECT_EQ(Tags(s, 3), (std::vector<int>{2, 2, -1}));
}

TEST(Select, CountdownHandlerIsReadyAfterItsPendingPolls) {
  Select<RoundRobin, CountdownHandler, CountdownHandler> s(
      CountdownHandler(2, 7), CountdownHandler(2, 8));
  WakeCounter counter;
  Context cx(counter.waker());
  EXPECT_TRUE(s.Poll(cx).IsPending());
  EXPECT_TRUE(s.Poll(cx).IsPending());
  EXPECT_EQ(counter.count(), 4u);
  auto ready = s.Poll(cx);
  ASSERT_TRUE(ready.IsReady());
  EXPECT_EQ(std::get<0>(ready.value()), 7u);
  auto next = s.Poll(cx);
  ASSERT_TRUE(next.IsReady());
  EXPECT_EQ(std::get<1>(next.value()), 8u);
}

// Every waker of a counter bumps the same count; Reset starts it again.
TEST(WakeCounter, CountsEveryWakeOfItsWakersAndResets) {
  WakeCounter counter;
  const Waker a = counter.waker();
  const Waker b = counter.waker();
  EXPECT_TRUE(a == b);
  a.Wake();
  b.Wake();
  a.Wake();
  EXPECT_EQ(counter.count(), 3u);
  counter.Reset();
  EXPECT_EQ(counter.count(), 0u);
  b.Wake();
  EXPECT_EQ(counter.count(), 1u);
}

// RandomStart's default generator is SplitMix64 (Steele, Lea and Flood,
// 2014): seeded with 0, its first outputs are the published ones.
TEST(SplitMix64, GivesThePublishedSequenceFromSeedZero) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng(), 0xe220a8397b1dcdafu);
  EXPECT_EQ(rng(), 0x6e789e6aa1b965f4u);
  EXPECT_EQ(rng(), 0x06c45d188009454fu);
}

// The handler alone, over several cycles: `pending` self-waking Pendings,
// then Ready(event), again and again, and events() counts the Readys.
TEST(CountdownHandler, RepeatsItsCycleAndCountsItsEvents) {
  for (std::uint32_t pending : {0u, 1u, 3u}) {
    CountdownHandler h(pending, 5);
    WakeCounter counter;
    Context cx(counter.waker());
    for (std::uint64_t cycle = 0; cycle < 3; ++cycle) {
      for (std::uint32_t k = 0; k < pending; ++k) {
        EXPECT_TRUE(h.Poll(cx).IsPending()) << pending << " " << cycle;
      }
      auto ready = h.Poll(cx);
      ASSERT_TRUE(ready.IsReady()) << pending << " " << cycle;
      EXPECT_EQ(ready.value(), 5u);
      EXPECT_EQ(h.events(), cycle + 1);
    }
    EXPECT_EQ(counter.count(), 3u * pending);
  }
}

}  // namespace
}  // namespace fairwire::poll
