// Unit tests of the nested baseline Nested<A, Nested<B, C>>: always left
// first, Done when both sides are, protocols in order.
#include "fairwire/poll/nested.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "test_handlers.h"

namespace fairwire::poll {
namespace {

using testing::AlwaysReady;
using testing::D;
using testing::P;
using testing::R;
using testing::Scripted;

using Three = Nested<Scripted, Nested<Scripted, Scripted>>;

TEST(Nested, AlwaysReadyLeftStarvesTheRight) {
  Three n(AlwaysReady(0),
          Nested<Scripted, Scripted>(AlwaysReady(1), AlwaysReady(2)));
  WakeCounter counter;
  Context cx(counter.waker());
  for (int c = 0; c < 5; ++c) {
    auto result = n.Poll(cx);
    ASSERT_TRUE(result.IsReady());
    EXPECT_EQ(result.value().index(), 0u);
  }
  EXPECT_EQ(n.right().left().polls(), 0);
}

TEST(Nested, PendingLeftFallsThroughToTheRight) {
  Three n(Scripted({P(), D()}),
          Nested<Scripted, Scripted>(Scripted({P(), D()}), Scripted({R(7)})));
  WakeCounter counter;
  Context cx(counter.waker());
  auto first = n.Poll(cx);
  ASSERT_TRUE(first.IsReady());
  ASSERT_EQ(first.value().index(), 1u);
  EXPECT_EQ(std::get<1>(std::get<1>(first.value())), 7);
  EXPECT_TRUE(n.Poll(cx).IsPending());  // left done, middle done, right idle
  EXPECT_FALSE(n.IsDone());
}

TEST(Nested, DoneWhenBothSidesAreDone) {
  Nested<Scripted, Scripted> n(Scripted({D()}), Scripted({P(), D()}));
  WakeCounter counter;
  Context cx(counter.waker());
  EXPECT_TRUE(n.Poll(cx).IsPending());
  EXPECT_TRUE(n.Poll(cx).IsDone());
  EXPECT_TRUE(n.IsDone());
}

TEST(Nested, ProtocolsAreTheConcatenationSkippingEmptySides) {
  static constexpr std::string_view kA[] = {"/a/1", "/a/2"};
  static constexpr std::string_view kC[] = {"/c/1"};
  Three n(Scripted({}, kA),
          Nested<Scripted, Scripted>(Scripted({}), Scripted({}, kC)));
  std::vector<std::string> names;
  for (std::string_view p : n.Protocols()) names.emplace_back(p);
  EXPECT_EQ(names, (std::vector<std::string>{"/a/1", "/a/2", "/c/1"}));
}

}  // namespace
}  // namespace fairwire::poll
