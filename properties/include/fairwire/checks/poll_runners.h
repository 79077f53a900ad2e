// Templates that build each composite over ScriptedChild children for a
// script and drive it (poll_harness.h). Select needs its child count at
// compile time, so RunSelect instantiates Select for 1..kMaxN children and
// picks the instantiation by the script's child count.
//
// To keep the build small, scripts of more than kTypedSelectMax children run
// through Select<BoxedPolicy, ...>, where BoxedPolicy forwards to the core's
// policy object of the script's kind (the same Select code, one
// instantiation per size for all policies); smaller scripts run through
// Select<Sticky, ...>, Select<RoundRobin, ...>, ... themselves.
#ifndef FAIRWIRE_CHECKS_POLL_RUNNERS_H_
#define FAIRWIRE_CHECKS_POLL_RUNNERS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fairwire/checks/poll_harness.h"
#include "fairwire/poll/internal/dispatch.h"
#include "fairwire/poll/nested.h"
#include "fairwire/poll/policy.h"
#include "fairwire/poll/select.h"
#include "fairwire/poll/select_all.h"

namespace fairwire::poll {
namespace internal {

template <std::size_t>
using ScriptedChildAt = ScriptedChild;

template <class P, std::size_t... I>
ObservedRun RunSelectOf(const PollScript& s, P policy, const std::string& name,
                        std::index_sequence<I...>) {
  Recorder recorder;
  Select<P, ScriptedChildAt<I>...> select(
      std::move(policy), ScriptedChild(I, &s.children[I], &recorder)...);
  return Drive(s, select, recorder, name, [](const auto& event) {
    return TagAndEvent{event.index(),
                       std::visit([](std::uint8_t e) { return e; }, event)};
  });
}

// Select<P, ScriptedChild x n> for the script's n children, n <= kMaxN;
// make_policy() gives the policy object.
template <class P, std::size_t kMaxN = kMaxScriptChildren, class MakePolicy>
ObservedRun RunSelect(const PollScript& s, MakePolicy make_policy,
                      const std::string& name) {
  return Dispatch<kMaxN>(s.children.size() - 1, [&](auto k) {
    return RunSelectOf<P>(s, make_policy(), name,
                          std::make_index_sequence<decltype(k)::value + 1>());
  });
}

// SelectAll<P, ScriptedChild> with the script's children added in order.
template <class P, class MakePolicy>
ObservedRun RunSelectAll(const PollScript& s, MakePolicy make_policy,
                         const std::string& name) {
  Recorder recorder;
  SelectAll<P, ScriptedChild> all(make_policy());
  for (std::size_t i = 0; i < s.children.size(); ++i) {
    all.Add(ScriptedChild(i, &s.children[i], &recorder));
  }
  return Drive(s, all, recorder, name, [](const auto& event) {
    return TagAndEvent{event.index, event.event};
  });
}

// Scripts with at most this many children run through Select<P, ...> with
// the policy type P itself.
inline constexpr std::size_t kTypedSelectMax = 6;

// Any of the core's policies, chosen at run time; forwards each call.
class BoxedPolicy {
 public:
  using Box = std::variant<Priority, Sticky, RoundRobin, Budgeted<2>,
                           Budgeted<3>, RandomStart<ScriptedRng>>;
  explicit BoxedPolicy(Box box) : box_(std::move(box)) {}
  std::size_t Start(std::size_t n) {
    return std::visit([&](auto& p) -> std::size_t { return p.Start(n); }, box_);
  }
  void OnReady(std::size_t child, std::size_t n) {
    std::visit([&](auto& p) { p.OnReady(child, n); }, box_);
  }
  void OnRemove(std::size_t child, std::size_t n_after) {
    std::visit([&](auto& p) { p.OnRemove(child, n_after); }, box_);
  }

 private:
  Box box_;
};

// The core policy object for `policy` (not kNested); RandomStart draws
// from `draws`.
BoxedPolicy::Box MakePolicy(PolicyKind policy,
                            const std::vector<std::uint8_t>* draws);

// Select<BoxedPolicy, ScriptedChild x n>: any script, any policy.
ObservedRun RunSelectBoxed(const PollScript& s, PolicyKind policy);
// Select<P, ScriptedChild x n> for n <= kTypedSelectMax, or
// SelectAll<P, ScriptedChild>, with P the policy's own type.
ObservedRun RunTyped(const PollScript& s, PolicyKind policy,
                     CompositeKind kind);
// The nested baseline over the script's children: RunNestedChain<NestedPairs,
// n> for the script's n children.
ObservedRun RunNested(const PollScript& s);

// The shape of the nested baseline over a script's first N children (N >= 1):
// Pair<C0, Pair<C1, ... Pair<Cn-2, Cn-1>>>, the last child on the right of
// the innermost pair, so that each side's "a Done side is never polled
// again" guards a scripted child somewhere in the chain (with a
// FinishedHandler at the right end, the right-hand guard would only ever
// guard a pair or the FinishedHandler, and dropping it would go unseen).
// N == 1 is Pair<C0, FinishedHandler>. Pairs::Of<A, B> names the pair type:
// NestedPairs below, or a Nested-like composite a test builds.
struct NestedPairs {
  template <class A, class B>
  using Of = Nested<A, B>;
};

template <class Pairs, std::size_t N>
struct NestedChain {
  using Type =
      typename Pairs::template Of<ScriptedChild,
                                  typename NestedChain<Pairs, N - 1>::Type>;
  static Type Make(const PollScript& s, Recorder& recorder, std::size_t id) {
    return Type(ScriptedChild(id, &s.children[id], &recorder),
                NestedChain<Pairs, N - 1>::Make(s, recorder, id + 1));
  }
};

// The right end: the last child itself.
template <class Pairs>
struct NestedChain<Pairs, 1> {
  using Type = ScriptedChild;
  static Type Make(const PollScript& s, Recorder& recorder, std::size_t id) {
    return ScriptedChild(id, &s.children[id], &recorder);
  }
};

// The flat child index of a nested event: alternative 0 is this level's
// child, alternative 1 the next level (the last child itself at the end).
inline TagAndEvent FlattenNested(std::uint8_t event) { return {0, event}; }

template <class Rest>
TagAndEvent FlattenNested(const std::variant<std::uint8_t, Rest>& event) {
  if (event.index() == 0) return {0, std::get<0>(event)};
  TagAndEvent inner = FlattenNested(std::get<1>(event));
  inner.tag += 1;
  return inner;
}

// Plays `s` (N children) through the nested shape above built of Pairs.
template <class Pairs, std::size_t N>
ObservedRun RunNestedChain(const PollScript& s, std::string name) {
  static_assert(N >= 1);
  Recorder recorder;
  auto drive = [&](auto& composite) {
    return Drive(s, composite, recorder, std::move(name),
                 [](const auto& event) { return FlattenNested(event); });
  };
  if constexpr (N == 1) {
    typename Pairs::template Of<ScriptedChild, FinishedHandler> one(
        ScriptedChild(0, &s.children[0], &recorder), FinishedHandler());
    return drive(one);
  } else {
    auto chain = NestedChain<Pairs, N>::Make(s, recorder, 0);
    return drive(chain);
  }
}

}  // namespace internal
}  // namespace fairwire::poll

#endif  // FAIRWIRE_CHECKS_POLL_RUNNERS_H_
