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

}  // namespace
}  // namespace fairwire::poll
