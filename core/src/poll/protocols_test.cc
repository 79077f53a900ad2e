// Unit tests of composed protocol iteration over Select and SelectAll:
// concatenation in order, empty children skipped, and an iterator that
// resumes where it stopped.
#include "fairwire/poll/protocols.h"

#include <gtest/gtest.h>

#include <array>
#include <iterator>
#include <list>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/poll/nested.h"
#include "fairwire/poll/select.h"
#include "fairwire/poll/select_all.h"
#include "test_handlers.h"

namespace fairwire::poll {
namespace {

using testing::Scripted;

constexpr std::string_view kA[] = {"/a/1", "/a/2"};
constexpr std::string_view kC[] = {"/c/1", "/c/2", "/c/3"};

template <class R>
std::vector<std::string> Collect(const R& range) {
  std::vector<std::string> names;
  for (std::string_view p : range) names.emplace_back(p);
  return names;
}

const std::vector<std::string> kExpected = {"/a/1", "/a/2", "/c/1", "/c/2",
                                            "/c/3"};

TEST(Protocols, SelectConcatenatesInChildOrderSkippingEmptyChildren) {
  Select<RoundRobin, Scripted, Scripted, Scripted, Scripted> s(
      Scripted({}), Scripted({}, kA), Scripted({}), Scripted({}, kC));
  static_assert(std::ranges::forward_range<decltype(s.Protocols())>);
  EXPECT_EQ(Collect(s.Protocols()), kExpected);
}

TEST(Protocols, SelectIteratorResumesWhereItStopped) {
  Select<RoundRobin, Scripted, Scripted, Scripted> s(
      Scripted({}, kA), Scripted({}), Scripted({}, kC));
  const auto protocols = s.Protocols();
  auto it = protocols.begin();
  ++it;
  ++it;
  EXPECT_EQ(it.child(), 2u);
  auto saved = it;
  std::vector<std::string> rest;
  for (; saved != protocols.end(); ++saved) rest.emplace_back(*saved);
  EXPECT_EQ(rest, (std::vector<std::string>{"/c/1", "/c/2", "/c/3"}));
  EXPECT_EQ(*it, "/c/1");
}

TEST(Protocols, AllEmptyChildrenGiveAnEmptyRange) {
  Select<Priority, Scripted, Scripted> s(Scripted({}), Scripted({}));
  const auto protocols = s.Protocols();
  EXPECT_TRUE(protocols.begin() == protocols.end());
}

// A chain of contiguous string_view lists walks a pointer; any other list
// (here a std::list, and std::string names) takes the general path. Both
// must give the same names and resume the same way.
TEST(Protocols, ContiguousAndGeneralChainsIterateAlike) {
  const std::array<std::string_view, 2> a = {"/a/1", "/a/2"};
  const std::vector<std::string_view> none;
  const std::vector<std::string_view> c = {"/c/1", "/c/2", "/c/3"};
  const ProtocolChain<std::span<const std::string_view>,
                      std::span<const std::string_view>,
                      std::span<const std::string_view>>
      contiguous(a, none, c);
  const std::list<std::string_view> a_list(a.begin(), a.end());
  const std::list<std::string_view> none_list;
  const std::vector<std::string> c_strings(c.begin(), c.end());
  const ProtocolChain<std::list<std::string_view>, std::list<std::string_view>,
                      std::vector<std::string>>
      general(a_list, none_list, c_strings);
  EXPECT_EQ(Collect(contiguous), kExpected);
  EXPECT_EQ(Collect(general), kExpected);
  auto x = std::ranges::next(contiguous.begin(), 3);
  auto y = std::ranges::next(general.begin(), 3);
  EXPECT_EQ(x.child(), 2u);
  EXPECT_EQ(y.child(), 2u);
  EXPECT_EQ(*x, "/c/2");
  EXPECT_EQ(*y, "/c/2");
  EXPECT_TRUE(x == std::ranges::next(contiguous.begin(), 3));
  EXPECT_FALSE(x == contiguous.begin());
  EXPECT_TRUE(std::ranges::next(x, 2) == contiguous.end());
  EXPECT_TRUE(std::ranges::next(y, 2) == general.end());
}

TEST(Protocols, SelectAllConcatenatesInIndexOrder) {
  SelectAll<RoundRobin, Scripted> s;
  s.Add(Scripted({}));
  s.Add(Scripted({}, kA));
  s.Add(Scripted({}));
  s.Add(Scripted({}, kC));
  s.Add(Scripted({}));
  static_assert(std::ranges::forward_range<decltype(s.Protocols())>);
  EXPECT_EQ(Collect(s.Protocols()), kExpected);
  const auto protocols = s.Protocols();
  auto it = std::ranges::next(protocols.begin(), 3);
  EXPECT_EQ(it.child(), 3u);
  EXPECT_EQ(*it, "/c/2");
}

// The forward-iterator laws every composed protocol iterator must keep
// (a saved iterator is how a caller resumes a walk): two iterators are
// equal exactly when they are at the same position, and only the last
// position equals the end; it++ returns the old position and moves on.
template <class R>
void ExpectForwardIteratorLaws(const R& range,
                               const std::vector<std::string>& names) {
  const std::size_t n = names.size();
  for (std::size_t i = 0; i <= n; ++i) {
    for (std::size_t j = 0; j <= n; ++j) {
      const auto x = std::ranges::next(range.begin(), i);
      const auto y = std::ranges::next(range.begin(), j);
      EXPECT_EQ(x == y, i == j) << "positions " << i << " and " << j;
      EXPECT_EQ(x != y, i != j) << "positions " << i << " and " << j;
    }
    EXPECT_EQ(std::ranges::next(range.begin(), i) == range.end(), i == n)
        << "position " << i;
  }
  auto it = range.begin();
  for (std::size_t i = 0; i < n; ++i) {
    const auto old = it++;
    EXPECT_EQ(std::string(*old), names[i]) << "it++ at " << i;
    EXPECT_TRUE(old == std::ranges::next(range.begin(), i));
    EXPECT_TRUE(it == std::ranges::next(range.begin(), i + 1));
  }
  EXPECT_TRUE(it == range.end());
}

TEST(Protocols, EveryComposedIteratorKeepsTheForwardIteratorLaws) {
  Select<RoundRobin, Scripted, Scripted, Scripted, Scripted> select(
      Scripted({}), Scripted({}, kA), Scripted({}), Scripted({}, kC));
  ExpectForwardIteratorLaws(select.Protocols(), kExpected);

  SelectAll<RoundRobin, Scripted> all;
  all.Add(Scripted({}, kA));
  all.Add(Scripted({}));
  all.Add(Scripted({}, kC));
  ExpectForwardIteratorLaws(all.Protocols(), kExpected);

  const std::list<std::string_view> a_list(std::begin(kA), std::end(kA));
  const std::list<std::string_view> none;
  const std::vector<std::string> c_strings(std::begin(kC), std::end(kC));
  const ProtocolChain<std::list<std::string_view>, std::list<std::string_view>,
                      std::vector<std::string>>
      general(a_list, none, c_strings);
  ExpectForwardIteratorLaws(general, kExpected);

  // Nested, with an empty side in the middle and names on both sides of it.
  Nested<Scripted, Nested<Scripted, Scripted>> nested(
      Scripted({}, kA),
      Nested<Scripted, Scripted>(Scripted({}), Scripted({}, kC)));
  ExpectForwardIteratorLaws(nested.Protocols(), kExpected);
  // One level, names on both sides (a nested B compares its positions with
  // the same code, so a fault there could cancel out over two levels).
  Nested<Scripted, Scripted> pair(Scripted({}, kA), Scripted({}, kC));
  ExpectForwardIteratorLaws(pair.Protocols(), kExpected);
  // Both sides at their first position are not the same position.
  Nested<Scripted, Scripted> two(Scripted({}, kA), Scripted({}, kA));
  const auto names = two.Protocols();
  EXPECT_FALSE(names.begin() == std::ranges::next(names.begin(), 2));
  EXPECT_EQ(*std::ranges::next(names.begin(), 2), "/a/1");
}

}  // namespace
}  // namespace fairwire::poll
