// Unit tests of SelectAll<Policy, H>: add and remove between polls, the
// cursor after a removal, Done, and exception safety.
#include "fairwire/poll/select_all.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

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

// The value of each Ready result (Pending -1, Done -2).
template <class S>
std::vector<int> Values(S& select, int calls) {
  return testing::PollAndRecord(select, calls, testing::EventOf());
}

TEST(SelectAll, EmptyIsDone) {
  SelectAll<RoundRobin, Scripted> s;
  EXPECT_EQ(Values(s, 1), (std::vector<int>{-2}));
  EXPECT_TRUE(s.IsDone());
}

// Add returns the index the new child's events are tagged with, and a
// removal shifts the later indices down (the caller's handle on a child).
TEST(SelectAll, AddReturnsTheNewChildsIndex) {
  SelectAll<RoundRobin, Scripted> s;
  EXPECT_EQ(s.Add(AlwaysReady(10)), 0u);
  EXPECT_EQ(s.Add(AlwaysReady(11)), 1u);
  EXPECT_EQ(s.Add(AlwaysReady(12)), 2u);
  s.Remove(0);
  EXPECT_EQ(s.Add(AlwaysReady(13)), 2u);
  EXPECT_EQ(s.size(), 3u);
}

TEST(SelectAll, RoundRobinTagsEventsWithTheChildIndex) {
  SelectAll<RoundRobin, Scripted> s;
  s.Add(AlwaysReady(10));
  s.Add(AlwaysReady(11));
  WakeCounter counter;
  Context cx(counter.waker());
  auto first = s.Poll(cx);
  ASSERT_TRUE(first.IsReady());
  EXPECT_EQ(first.value().index, 0u);
  auto second = s.Poll(cx);
  ASSERT_TRUE(second.IsReady());
  EXPECT_EQ(second.value().index, 1u);
  EXPECT_EQ(second.value().event, 11);
}

TEST(SelectAll, RemovingTheCursorChildMovesTheCursorToItsSuccessor) {
  SelectAll<Sticky, Scripted> s;
  s.Add(AlwaysReady(0));
  s.Add(AlwaysReady(1));
  s.Add(AlwaysReady(2));
  s.Remove(0);  // cursor 0 -> removed; now points at the old child 1.
  EXPECT_EQ(Values(s, 2), (std::vector<int>{1, 1}));
  s.Remove(1);  // the last child, under the cursor: the cursor wraps to 0.
  EXPECT_EQ(s.policy().cursor(), 0u);
  EXPECT_EQ(Values(s, 1), (std::vector<int>{1}));
}

TEST(SelectAll, RemovingAChildBeforeTheCursorKeepsItOnTheSameChild) {
  SelectAll<RoundRobin, Scripted> s;
  for (int v = 0; v < 4; ++v) s.Add(AlwaysReady(v));
  EXPECT_EQ(Values(s, 2), (std::vector<int>{0, 1}));  // cursor on child 2
  s.Remove(0);
  EXPECT_EQ(s.policy().cursor(), 1u);
  EXPECT_EQ(Values(s, 3), (std::vector<int>{2, 3, 1}));
}

TEST(SelectAll, AddedChildIsPolledInTheSameRound) {
  SelectAll<RoundRobin, Scripted> s;
  s.Add(Scripted({P()}));
  EXPECT_EQ(Values(s, 1), (std::vector<int>{-1}));
  s.Add(Scripted({R(4)}));
  EXPECT_EQ(Values(s, 2), (std::vector<int>{4, -1}));
}

TEST(SelectAll, DoneChildIsSkippedAndRemovable) {
  SelectAll<RoundRobin, Scripted> s;
  s.Add(Scripted({D()}));
  s.Add(Scripted({P()}));
  EXPECT_EQ(Values(s, 1), (std::vector<int>{-1}));
  EXPECT_TRUE(s.IsChildDone(0));
  EXPECT_EQ(s.live(), 1u);
  Scripted removed = s.Remove(0);
  EXPECT_EQ(removed.polls(), 1);
  EXPECT_EQ(s.live(), 1u);
  EXPECT_EQ(s.size(), 1u);
}

TEST(SelectAll, ThrowingChildPropagatesAndTheNextCallFollowsTheRules) {
  SelectAll<RoundRobin, Scripted> s;
  s.Add(Scripted({P(), R(0)}));
  s.Add(Scripted({T(), R(1)}));
  WakeCounter counter;
  Context cx(counter.waker());
  EXPECT_THROW((void)s.Poll(cx), std::runtime_error);
  EXPECT_EQ(Values(s, 2), (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace fairwire::poll
