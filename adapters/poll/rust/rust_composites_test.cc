// Each Rust composite's verdict (JudgeComposite over 2000 scripts and the
// always-ready runs), asserted: which properties it keeps, which models it
// matches, whether an always-ready child starves. A change of behaviour
// upstream (a new Debian crate) fails its test, which prints the verdict
// with a shrunk counterexample per violation. The table in README "Poll
// composites that no one here wrote" is these verdicts.
#include "rust_composites.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace fairwire::poll::rust {
namespace {

using P = PollProperty;

struct Expected {
  std::string composite;
  // The properties of kPolicyFreeProperties it breaks; it keeps the rest.
  std::vector<P> violated;
  std::vector<std::string> models;
  bool starves = false;  // an always-ready child of two is never served
  // The worst wait of two always-ready children, where it is not random.
  std::optional<std::size_t> worst_wait_of_two;
};

// The composites that poll only the children that were woken break the
// strict forms of 3 and 4 and keep their wake-driven forms, 11 and 12;
// FuturesUnordered polls a child that woke itself again within one call.
const std::vector<P> kWakeDriven = {P::kAtMostOnce, P::kPendingCompleteness,
                                    P::kWakeRegistration};

// A model of our own, as a user states their composite's rule: the start
// alternates on every call, whoever was served (futures' select flips its
// PollNext state on each poll_next). Not RoundRobin, which moves past the
// child it served.
PolicyModel Alternating() {
  return {"Alternating",
          [](PolicyState& s, std::size_t n, const DrawFn&) {
            const std::size_t start = s.cursor % n;
            s.cursor = start + 1;
            return start;
          },
          nullptr};
}

VerdictOptions Options() {
  VerdictOptions opts;
  opts.models.push_back(Alternating());
  return opts;
}

std::vector<Expected> Expectations() {
  return {
      {"futures::stream::select",
       {},
       {"Alternating", kAnyStartModel},
       false,
       2},
      {"futures::stream::select_with_strategy(alternate)",
       {},
       {"Alternating", kAnyStartModel},
       false,
       2},
      {"futures::stream::select_with_strategy(always_left)",
       {},
       {"Priority", kAnyStartModel},
       true,
       std::nullopt},
      // Re-pushes a stream that yielded to the back of its queue.
      {"futures::stream::select_all", kWakeDriven, {}, false, 2},
      {"futures::stream::FuturesUnordered", kWakeDriven, {}, false, 2},
      // A random start per call from tokio's thread-local generator.
      {"tokio::select!", {}, {kAnyStartModel}, false, std::nullopt},
      {"tokio::select!(biased)",
       {},
       {"Priority", kAnyStartModel},
       true,
       std::nullopt},
      // A random start, and swap_remove of a finished stream reorders the
      // rest: not even any start.
      {"tokio_stream::StreamMap", {}, {}, false, std::nullopt},
  };
}

void PrintTo(const Expected& e, std::ostream* os) { *os << e.composite; }

std::string TestName(const testing::TestParamInfo<Expected>& info) {
  std::string out;
  for (char c : info.param.composite) {
    out += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  }
  return out;
}

class RustComposite : public testing::TestWithParam<Expected> {};

TEST_P(RustComposite, KeepsTheVerdictOnRecord) {
  const Expected& want = GetParam();
  const std::vector<CompositeUnderTest> all = RustComposites();
  const auto it = std::find_if(
      all.begin(), all.end(),
      [&](const CompositeUnderTest& c) { return c.name == want.composite; });
  ASSERT_NE(it, all.end()) << want.composite << " is not in the crate's list";
  const CompositeVerdict v = JudgeComposite(*it, Options());
  std::cout << DescribeVerdict(v);
  ASSERT_FALSE(v.run_error.has_value());
  ASSERT_EQ(v.scripts, VerdictOptions().scripts);
  for (const PropertyVerdict& pv : v.properties) {
    const bool expect_violated =
        std::find(want.violated.begin(), want.violated.end(), pv.property) !=
        want.violated.end();
    EXPECT_EQ(!pv.holds(), expect_violated) << PropertyName(pv.property);
    // A violation comes with its shrunk counterexample, which still breaks
    // the property.
    if (!pv.holds()) {
      ASSERT_TRUE(pv.counterexample.has_value());
      EXPECT_TRUE(pv.violation.starts_with(PropertyName(pv.property)))
          << pv.violation;
    }
  }
  EXPECT_EQ(v.matched_models, want.models);
  ASSERT_FALSE(v.waiting.empty());
  EXPECT_EQ(v.waiting[0].children, 2u);
  EXPECT_EQ(v.waiting[0].starved, want.starves);
  if (want.worst_wait_of_two) {
    EXPECT_EQ(v.waiting[0].worst_wait, *want.worst_wait_of_two);
  }
}

INSTANTIATE_TEST_SUITE_P(Verdicts, RustComposite,
                         testing::ValuesIn(Expectations()), TestName);

// Every composite the crate lists has a verdict on record above: a new one
// must get its expectations before it passes.
TEST(RustComposites, EveryListedCompositeHasAnExpectation) {
  const std::vector<Expected> expected = Expectations();
  const std::vector<CompositeUnderTest> all = RustComposites();
  EXPECT_EQ(all.size(), expected.size());
  for (const CompositeUnderTest& c : all) {
    EXPECT_TRUE(
        std::any_of(expected.begin(), expected.end(),
                    [&](const Expected& e) { return e.composite == c.name; }))
        << c.name;
  }
}

}  // namespace
}  // namespace fairwire::poll::rust
