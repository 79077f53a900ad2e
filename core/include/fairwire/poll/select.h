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

// See the file comment. Dispatch to child i is one switch (a jump table);
// a call allocates nothing. If a child's Poll throws, the exception reaches
// the caller and the composite stays valid: children that returned Done
// earlier in the call stay done, and the cursor is as before the call.
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
  Result Poll(Context& cx) {
    if (live_ == 0) return Result::Done();
    std::size_t i = policy_.Start(kSize);
    for (std::size_t fuel = live_; fuel > 0; i = (i + 1 == kSize ? 0 : i + 1)) {
      if (done_[i]) continue;
      --fuel;
      Result result = PollChild(i, cx);
      if (result.IsReady()) {
        policy_.OnReady(i, kSize);
        return result;
      }
      if (result.IsDone()) {
        done_[i] = true;
        --live_;
      }
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
  Result PollChild(std::size_t i, Context& cx) {
    return internal::Dispatch<kSize>(i, [&](auto k) -> Result {
      auto polled = std::get<k>(children_).Poll(cx);
      if (polled.IsReady()) {
        return Result::Ready(
            Event(std::in_place_index<k>, std::move(polled).value()));
      }
      return polled.IsDone() ? Result::Done() : Result::Pending();
    });
  }

  std::tuple<H...> children_;
  std::array<bool, kSize> done_{};
  std::size_t live_ = kSize;
  P policy_{};
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_SELECT_H_
