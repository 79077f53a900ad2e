// Select<Policy, H...>: a fixed set of handlers of possibly different types
// composed into one handler. Each call polls the live children in the
// policy's order, each at most once, and returns the first Ready event
// tagged with the child's index (its std::variant alternative index).
//   Select<RoundRobin, Ping, Identify> both(Ping(), Identify());
//   Poll<decltype(both)::Event> p = both.Poll(cx);  // p.value().index()
#ifndef FAIRWIRE_POLL_SELECT_H_
#define FAIRWIRE_POLL_SELECT_H_

#include <array>
#include <cstddef>
#include <optional>
#include <tuple>
#include <utility>
#include <variant>

#include "fairwire/poll/handler.h"
#include "fairwire/poll/internal/dispatch.h"
#include "fairwire/poll/policy.h"
#include "fairwire/poll/poll.h"
#include "fairwire/poll/protocols.h"
#include "fairwire/poll/waker.h"

namespace fairwire::poll {

// See the file comment. A call is two inlined folds over the children in
// scan order (no per-child indirect jump), with the children's Poll inlined
// into it in optimizing builds (FAIRWIRE_POLL_FLATTEN); it allocates nothing.
// If a child's Poll throws, the exception reaches the caller and the composite
// stays valid: children that returned Done earlier in the call stay done, and
// the cursor is as before the call.
template <Policy P, Handler... H>
class Select {
  static constexpr std::size_t kSize = sizeof...(H);
  static_assert(kSize >= 1 && kSize <= kMaxChildren,
                "Select takes 1 to kMaxChildren children");

 public:
  // The event: alternative i is child i's event.
  using Event = std::variant<typename H::Event...>;
  // What Poll returns.
  using Result = ::fairwire::poll::Poll<Event>;

  // Composes `children` (in index order) under a default-constructed policy.
  explicit Select(H... children) : children_(std::move(children)...) {}
  // Composes `children` under `policy` (e.g. a seeded RandomStart).
  explicit Select(P policy, H... children)
      : children_(std::move(children)...), policy_(std::move(policy)) {}

  // Polls the live children from the policy's start, wrapping, each at most
  // once. Ready: the first Ready child's event, tagged with its index.
  // Pending: every live child was polled and returned Pending. Done: no
  // child is live.
  FAIRWIRE_POLL_FLATTEN Result Poll(Context& cx) {
    if (live_ == 0) return Result::Done();
    const std::size_t start = policy_.Start(kSize);
    // The scan order start, ..., kSize - 1, 0, ..., start - 1 as two inlined
    // folds over the children in index order, each testing one bound per
    // child (no per-child jump, no per-child aggregate return, two call
    // sites per child); a Ready event is built straight into `ready`.
    std::optional<Event> ready;
    constexpr auto kAll = std::make_index_sequence<kSize>();
    if (ScanFrom(start, cx, ready, kAll) ||
        ScanBefore(start, cx, ready, kAll)) {
      return Result::Ready(std::move(*ready));
    }
    return live_ == 0 ? Result::Done() : Result::Pending();
  }

  // True when every child is done.
  bool IsDone() const { return live_ == 0; }
  // How many children are not done.
  std::size_t live() const { return live_; }
  // The number of children.
  static constexpr std::size_t size() { return kSize; }
  // Whether child i is done. Requires i < size().
  bool IsChildDone(std::size_t i) const { return done_[i]; }

  // Child I.
  template <std::size_t I>
  auto& child() {
    return std::get<I>(children_);
  }
  // Child I.
  template <std::size_t I>
  const auto& child() const {
    return std::get<I>(children_);
  }
  // The policy (its cursor, its RNG).
  const P& policy() const { return policy_; }

  // Every child's protocols, concatenated in child order (ProtocolChain).
  // The returned range must outlive its iterators.
  auto Protocols() const requires(ProtocolHandler<H>&&...) {
    return std::apply(
        [](const H&... child) {
          return ProtocolChain<ProtocolsOf<H>...>(child.Protocols()...);
        },
        children_);
  }

 private:
  // Polls the live children I >= start in index order; true at the first
  // Ready one.
  template <std::size_t... I>
  [[gnu::always_inline]] bool ScanFrom(std::size_t start, Context& cx,
                                       std::optional<Event>& ready,
                                       std::index_sequence<I...> /*all*/) {
    return ((I >= start && TryChild<I>(cx, ready)) || ...);
  }
  // Polls the live children I < start in index order; true at the first
  // Ready one.
  template <std::size_t... I>
  [[gnu::always_inline]] bool ScanBefore(std::size_t start, Context& cx,
                                         std::optional<Event>& ready,
                                         std::index_sequence<I...> /*all*/) {
    return ((I < start && TryChild<I>(cx, ready)) || ...);
  }
  // Polls child I if it is live. Ready: its event goes into `ready`, the
  // policy hears of it, and the result is true. Done: child I is marked done.
  template <std::size_t I>
  [[gnu::always_inline]] bool TryChild(Context& cx,
                                       std::optional<Event>& ready) {
    if (done_[I]) return false;
    auto polled = std::get<I>(children_).Poll(cx);
    switch (polled.state()) {
      case PollState::kPending:
        return false;
      case PollState::kReady:
        ready.emplace(std::in_place_index<I>, std::move(polled).value());
        policy_.OnReady(I, kSize);
        return true;
      case PollState::kDone:
        done_[I] = true;
        --live_;
        return false;
    }
    return false;
  }

  std::tuple<H...> children_;
  std::array<bool, kSize> done_{};
  std::size_t live_ = kSize;
  P policy_{};
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_SELECT_H_
