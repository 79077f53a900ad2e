// The negative side: the checks must be able to fail. RapidCheck must find
// the starvation of Priority, Sticky and Nested and shrink it to two
// children (one Ready every call, one waiting), and the model must catch a
// composite whose cursor is off by one (built here, not in the core).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <optional>
#include <string>

#include "fairwire/checks/poll_checks.h"
#include "fairwire/checks/poll_runners.h"
#include "fairwire/generators/poll_generators.h"
#include "fairwire/poll/policy.h"

namespace fairwire::poll {
namespace {

struct Found {
  bool failed = false;
  std::string message;
  std::optional<PollScript> shrunk;  // the last failing script: the shrunk one
};

// Runs RapidCheck on "no starvation under `policy`" with a fixed seed and
// returns what it found, shrinking included.
Found SearchStarvation(PolicyKind policy) {
  Found found;
  rc::detail::TestParams params;
  params.seed = 20261129;
  params.maxSuccess = 1000;
  const auto result = rc::detail::checkTestable(
      [&](PollScript s) {
        s.policy = policy;
        const auto violation =
            FindStarvation(s, policy, CompositeKind::kSelect);
        if (violation) {
          found.shrunk = s;
          found.message = *violation;
        }
        RC_ASSERT(!violation);
      },
      rc::detail::TestMetadata{}, params);
  found.failed = result.template is<rc::detail::FailureResult>();
  return found;
}

// The shrunk counterexample is two children: one served by every call, and
// one that was ready and never served.
void ExpectTwoChildStarvation(PolicyKind policy) {
  const Found found = SearchStarvation(policy);
  ASSERT_TRUE(found.failed) << PolicyName(policy) << ": no starvation found";
  ASSERT_TRUE(found.shrunk.has_value());
  const PollScript& s = *found.shrunk;
  std::printf("%s starvation, shrunk counterexample:\n%s%s\n",
              std::string(PolicyName(policy)).c_str(),
              DescribePollScript(s).c_str(), found.message.c_str());
  ASSERT_EQ(s.children.size(), 2u) << DescribePollScript(s);
  const ObservedRun run = RunScript(s, policy, CompositeKind::kSelect);
  const ModelRun model = RunModel(s, policy);
  std::size_t served[2] = {0, 0};
  for (const ObservedCall& c : run.calls) {
    ASSERT_EQ(c.result, CallResult::kReady);
    ++served[c.tag];
  }
  const std::size_t hog = served[0] > 0 ? 0 : 1;
  EXPECT_EQ(served[hog], run.calls.size()) << "one child served every call";
  EXPECT_EQ(served[1 - hog], 0u) << "the other never served";
  EXPECT_TRUE(model.ReadyBefore(0, 1 - hog)) << "the other was waiting";
}

TEST(PollStarvation, PriorityStarvesAWaitingChildFoundAndShrunkToTwo) {
  ExpectTwoChildStarvation(PolicyKind::kPriority);
}

TEST(PollStarvation, StickyStarvesAWaitingChildFoundAndShrunkToTwo) {
  ExpectTwoChildStarvation(PolicyKind::kSticky);
}

TEST(PollStarvation, NestedStarvesAWaitingChildFoundAndShrunkToTwo) {
  ExpectTwoChildStarvation(PolicyKind::kNested);
}

TEST(PollStarvation, RoundRobinHasNoStarvationToFind) {
  EXPECT_FALSE(SearchStarvation(PolicyKind::kRoundRobin).failed);
}

// RoundRobin with the cursor one too far: the bug the model must catch.
class OffByOneRoundRobin {
 public:
  std::size_t Start(std::size_t /*n*/) const { return cursor_; }
  void OnReady(std::size_t child, std::size_t n) {
    cursor_ = (child + 2) % n;  // should be child + 1
  }
  void OnRemove(std::size_t child, std::size_t n_after) {
    cursor_ = internal::CursorAfterRemove(cursor_, child, n_after);
  }

 private:
  std::size_t cursor_ = 0;
};

// Select<OffByOneRoundRobin, ...> over the script's first (up to) 8
// children.
ObservedRun RunOffByOne(PollScript& s) {
  if (s.children.size() > 8) s.children.resize(8);
  std::erase_if(s.wakes, [&](const ExternalWake& w) {
    return w.child >= s.children.size();
  });
  return internal::RunSelect<OffByOneRoundRobin, 8>(
      s, [] { return OffByOneRoundRobin(); }, "Select<OffByOneRoundRobin>");
}

PollScript ThreeAlwaysReady() {
  PollScript s;
  s.policy = PolicyKind::kRoundRobin;
  s.calls = 3;
  s.children.assign(3, ChildScript{{{OutcomeKind::kReady, 0}}, true, {}});
  return s;
}

TEST(PollOffByOne, ModelCatchesACursorOneTooFar) {
  PollScript s = ThreeAlwaysReady();
  const ModelRun model = RunModel(s, PolicyKind::kRoundRobin);
  // The real RoundRobin passes ...
  EXPECT_FALSE(CheckProperty(
      PollProperty::kCursorExactness, s, PolicyKind::kRoundRobin, model,
      RunScript(s, PolicyKind::kRoundRobin, CompositeKind::kSelect)));
  // ... the off-by-one variant does not.
  const auto violation =
      CheckProperty(PollProperty::kCursorExactness, s, PolicyKind::kRoundRobin,
                    model, RunOffByOne(s));
  ASSERT_TRUE(violation.has_value());
  EXPECT_EQ(violation->rfind("cursor-exactness: ", 0), 0u) << *violation;
  EXPECT_NE(violation->find("call 1: polled [2]"), std::string::npos)
      << *violation;
}

TEST(PollOffByOne, RapidCheckFindsTheOffByOneCursor) {
  rc::detail::TestParams params;
  params.seed = 7;
  params.maxSuccess = 1000;
  const auto result = rc::detail::checkTestable(
      [](PollScript s) {
        const ObservedRun observed = RunOffByOne(s);
        const ModelRun model = RunModel(s, PolicyKind::kRoundRobin);
        RC_ASSERT(!CheckProperty(PollProperty::kCursorExactness, s,
                                 PolicyKind::kRoundRobin, model, observed));
      },
      rc::detail::TestMetadata{}, params);
  EXPECT_TRUE(result.is<rc::detail::FailureResult>());
}

}  // namespace
}  // namespace fairwire::poll
