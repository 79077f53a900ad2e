// Unit tests of the PollScript codec, printer and shrinker, and of the
// reference model and the checks on fixed scripts.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "fairwire/checks/poll_checks.h"
#include "fairwire/models/poll_model.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll {
namespace {

Outcome R(std::uint8_t e) { return {OutcomeKind::kReady, e}; }
Outcome P() { return {OutcomeKind::kPending, 0}; }
Outcome W() { return {OutcomeKind::kPendingSelfWake, 0}; }
Outcome D() { return {OutcomeKind::kDone, 0}; }
Outcome T() { return {OutcomeKind::kThrow, 0}; }

PollScript Example() {
  PollScript s;
  s.policy = PolicyKind::kSticky;
  s.calls = 6;
  s.children = {ChildScript{{R(1), R(2), P()}, true, {0, 1}},
                ChildScript{{W(), R(3), D()}, false, {}},
                ChildScript{{T(), R(4)}, false, {7}}};
  s.wakes = {ExternalWake{1, 2}};
  s.draws = {5, 9};
  return s;
}

TEST(PollScriptCodec, EncodedExampleDecodesToItself) {
  const PollScript s = Example();
  ASSERT_TRUE(IsValid(s));
  EXPECT_EQ(DecodePollScript(EncodePollScript(s)), s);
}

TEST(PollScriptCodec, EmptyInputIsOneIdleChildForOneCall) {
  const PollScript s = DecodePollScript({});
  EXPECT_TRUE(IsValid(s));
  EXPECT_EQ(s.children.size(), 1u);
  EXPECT_EQ(s.calls, 1);
}

// A child after the first is read only while bytes remain, so a short
// input's run stays small (the fuzz targets' cost per input); the encoding
// of any script still spells every child out.
TEST(PollScriptCodec, AChildAfterTheFirstNeedsBytesLeft) {
  const std::vector<std::uint8_t> asks_for_32 = {0, 0, 31};
  EXPECT_EQ(DecodePollScript(asks_for_32).children.size(), 1u);
  const std::vector<std::uint8_t> three_headers = {0, 0, 31, 0, 0, 0};
  EXPECT_EQ(DecodePollScript(three_headers).children.size(), 3u);
  PollScript idle;
  idle.children.resize(kMaxScriptChildren);
  ASSERT_TRUE(IsValid(idle));
  EXPECT_EQ(DecodePollScript(EncodePollScript(idle)), idle);
}

TEST(PollScriptCodec, EveryPrefixOfAnEncodingDecodesToAValidScript) {
  const std::vector<std::uint8_t> bytes = EncodePollScript(Example());
  for (std::size_t n = 0; n <= bytes.size(); ++n) {
    const PollScript s =
        DecodePollScript(std::span<const std::uint8_t>(bytes.data(), n));
    EXPECT_TRUE(IsValid(s)) << n;
  }
}

TEST(PollScriptCodec, CompositeBitIsFreeOfTheScript) {
  const std::vector<std::uint8_t> bytes = EncodePollScript(Example());
  EXPECT_EQ(CompositeBit(bytes), 0);
  EXPECT_EQ(CompositeBit({}), 0);
  const std::vector<std::uint8_t> with = WithCompositeBit(bytes, 1);
  EXPECT_EQ(CompositeBit(with), 1);
  EXPECT_EQ(DecodePollScript(with), Example());
  EXPECT_EQ(WithCompositeBit(with, 0), bytes);
  // Every byte 0 of a policy p: 2k * 7 + p has bit 0, (2k + 1) * 7 + p bit 1.
  for (int b = 0; b < 256; ++b) {
    const std::vector<std::uint8_t> one = {static_cast<std::uint8_t>(b)};
    EXPECT_EQ(CompositeBit(one), (b / 7) % 2) << b;
    EXPECT_EQ(static_cast<int>(DecodePollScript(one).policy), b % 7) << b;
  }
}

TEST(PollScriptCodec, DescribeShowsPolicyChildrenWakesAndDraws) {
  const std::string text = DescribePollScript(Example());
  EXPECT_NE(text.find("policy Sticky, 6 calls, 3 children"), std::string::npos)
      << text;
  EXPECT_NE(text.find("child 0: [R1 R2 P] loop  protocols /ipfs/ping/1.0.0"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("child 1: [W R3 D]"), std::string::npos) << text;
  EXPECT_NE(text.find("wake child 2 after call 1"), std::string::npos) << text;
  EXPECT_NE(text.find("draws 5 9"), std::string::npos) << text;
}

TEST(PollScriptShrink, CandidatesAreValidAndStartWithFewerChildren) {
  const std::vector<PollScript> candidates = ShrinkPollScript(Example());
  ASSERT_GE(candidates.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(candidates[i].children.size(), 2u);
  }
  for (const PollScript& c : candidates) {
    EXPECT_TRUE(IsValid(c)) << DescribePollScript(c);
    EXPECT_FALSE(c == Example());
  }
}

TEST(PollModel, StickyDrainsThenMovesToTheNextReadyChild) {
  PollModel m(PolicyKind::kSticky,
              {ChildScript{{R(1), R(2), P()}, false, {}},
               ChildScript{{R(3)}, false, {}}},
              {});
  EXPECT_EQ(m.Call().polled, (std::vector<std::size_t>{0}));
  EXPECT_EQ(m.Call().polled, (std::vector<std::size_t>{0}));
  const ModelCall third = m.Call();
  EXPECT_EQ(third.polled, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(third.tag, 1u);
  EXPECT_EQ(third.event, 3);
  const ModelCall fourth = m.Call();
  EXPECT_EQ(fourth.polled, (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(fourth.result, CallResult::kPending);
}

TEST(PollModel, RemovingTheCursorChildMovesToItsSuccessor) {
  PollModel m(PolicyKind::kRoundRobin,
              {ChildScript{{R(0)}, true, {}}, ChildScript{{R(1)}, true, {}},
               ChildScript{{R(2)}, true, {}}},
              {});
  EXPECT_EQ(m.Call().tag, 0u);  // cursor now on child 1
  m.Remove(1);                  // cursor on the old child 2, now index 1
  const ModelCall next = m.Call();
  EXPECT_EQ(next.tag, 1u);
  EXPECT_EQ(next.event, 2);
}

TEST(PollModel, ThrowLeavesTheCursorAndConsumesTheOutcome) {
  PollModel m(PolicyKind::kRoundRobin, {ChildScript{{T(), R(5)}, false, {}}},
              {});
  EXPECT_EQ(m.Call().result, CallResult::kThrew);
  const ModelCall next = m.Call();
  EXPECT_EQ(next.result, CallResult::kReady);
  EXPECT_EQ(next.event, 5);
}

TEST(PollChecks, ExampleScriptPassesEveryPolicy) {
  EXPECT_EQ(CheckAllPolicies(Example()), std::nullopt);
}

TEST(PollChecks, StickyStarvesAlwaysReadySibling) {
  PollScript s;
  s.calls = 2;
  s.children = {ChildScript{{R(0)}, true, {}}, ChildScript{{R(0)}, false, {}}};
  const auto violation =
      FindStarvation(s, PolicyKind::kSticky, CompositeKind::kSelect);
  ASSERT_TRUE(violation.has_value());
  EXPECT_EQ(
      violation->rfind("bounded-waiting: Select<Sticky> call 0: child 1", 0),
      0u)
      << *violation;
  EXPECT_FALSE(
      FindStarvation(s, PolicyKind::kRoundRobin, CompositeKind::kSelect));
}

TEST(PollChecks, LongestBurstIsUnboundedForALoopingReadyChild) {
  PollScript s;
  s.children = {ChildScript{{R(0), R(1), P(), R(2)}, true, {}}};
  EXPECT_EQ(LongestBurst(s), 3u);  // R2 wraps into R0 R1
  s.children.push_back(ChildScript{{R(0)}, true, {}});
  EXPECT_EQ(LongestBurst(s), std::nullopt);
}

}  // namespace
}  // namespace fairwire::poll
