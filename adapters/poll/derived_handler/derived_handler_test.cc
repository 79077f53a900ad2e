// The seed's generated handler poll (derived_handler.h) through the poll
// kit: its verdict, as for any composite that claims no policy. The fuel
// loop keeps every property and schedules exactly as Sticky; the first
// commit's for loop is caught returning Pending with a field it never
// polled, the bug the fuel counter fixed.
#include "derived_handler.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "fairwire/checks/poll_harness.h"
#include "fairwire/checks/poll_verdict.h"
#include "fairwire/poll/internal/dispatch.h"

namespace fairwire::poll::derived {
namespace {

template <std::size_t>
using Field = ScriptedChild;

// The most fields a generated handler gets in these runs.
constexpr std::size_t kMaxFields = 6;

template <Loop kLoop, std::size_t... I>
Observation ObserveFields(const PollScript& s, const std::string& name,
                          std::index_sequence<I...>) {
  Recorder recorder;
  DerivedHandler<kLoop, Field<I>...> handler(
      ScriptedChild(I, &s.children[I], &recorder)...);
  return Observe(s, handler, recorder, name, [](const auto& event) {
    return TagAndEvent{event.index(),
                       std::visit([](std::uint8_t e) { return e; }, event)};
  });
}

template <Loop kLoop>
CompositeUnderTest Derived(std::string name) {
  CompositeUnderTest c;
  c.name = name;
  c.max_children = kMaxFields;
  // A ConnectionHandler field has no Done, and its poll does not throw (a
  // panic ends the connection's task, not one call).
  c.children_finish = false;
  c.children_throw = false;
  c.run = [name](const PollScript& s) {
    return CompositeRun{
        internal::Dispatch<kMaxFields>(
            s.children.size() - 1,
            [&](auto k) {
              return ObserveFields<kLoop>(
                  s, name, std::make_index_sequence<decltype(k)::value + 1>());
            }),
        {}};
  };
  return c;
}

bool Holds(const CompositeVerdict& v, PollProperty p) {
  for (const PropertyVerdict& pv : v.properties) {
    if (pv.property == p) return pv.holds();
  }
  return false;
}

TEST(DerivedHandler, TheFuelLoopKeepsEveryPropertyAndIsSticky) {
  const CompositeVerdict v =
      JudgeComposite(Derived<Loop::kFuel>("derive(NetworkBehaviour) fuel"));
  std::cout << DescribeVerdict(v);
  ASSERT_FALSE(v.run_error.has_value());
  for (const PropertyVerdict& pv : v.properties) {
    EXPECT_TRUE(pv.holds()) << PropertyName(pv.property);
  }
  EXPECT_EQ(v.matched_models,
            (std::vector<std::string>{"Sticky", kAnyStartModel}));
  // An always-ready field drains: the one after it is never served.
  ASSERT_FALSE(v.waiting.empty());
  EXPECT_TRUE(v.waiting[0].starved);
}

TEST(DerivedHandler, TheFirstCommitsForLoopReturnsPendingWithAFieldUnpolled) {
  const CompositeVerdict v = JudgeComposite(
      Derived<Loop::kForLoop>("derive(NetworkBehaviour) for loop"));
  std::cout << DescribeVerdict(v);
  ASSERT_FALSE(v.run_error.has_value());
  EXPECT_FALSE(Holds(v, PollProperty::kPendingCompleteness));
  EXPECT_FALSE(Holds(v, PollProperty::kWokenPendingCompleteness));
  EXPECT_TRUE(Holds(v, PollProperty::kAtMostOnce));
  EXPECT_TRUE(Holds(v, PollProperty::kProvenance));
  EXPECT_TRUE(Holds(v, PollProperty::kNoLoss));
  // The wrap spends the only turn of a one-field handler: the shrunk
  // counterexample is one field, Pending, polled in call 0 and not in
  // call 1, which returns Pending.
  for (const PropertyVerdict& pv : v.properties) {
    if (pv.property != PollProperty::kPendingCompleteness) continue;
    ASSERT_TRUE(pv.counterexample.has_value());
    EXPECT_EQ(pv.counterexample->children.size(), 1u);
    EXPECT_EQ(pv.counterexample->calls, 2u);
    EXPECT_EQ(pv.violation,
              "pending-completeness: derive(NetworkBehaviour) for loop call "
              "1: returned Pending after polling [] (not every live child "
              "was polled and Pending)");
  }
  EXPECT_TRUE(v.matched_models.empty());
}

}  // namespace
}  // namespace fairwire::poll::derived
