// SelectAll<Policy, H>: a run-time list of handlers of one type composed
// into one handler, with children added and removed between polls. The same
// scheduling as Select; an event is tagged with the child's current index.
//   SelectAll<RoundRobin, Connection> conns;
//   conns.Add(Connection(socket));
//   Poll<Tagged<Connection::Event>> p = conns.Poll(cx);
#ifndef FAIRWIRE_POLL_SELECT_ALL_H_
#define FAIRWIRE_POLL_SELECT_ALL_H_

#include <cstddef>
#include <utility>
#include <vector>

#include "fairwire/poll/handler.h"
#include "fairwire/poll/internal/dispatch.h"
#include "fairwire/poll/policy.h"
#include "fairwire/poll/poll.h"
#include "fairwire/poll/protocols.h"
#include "fairwire/poll/waker.h"

namespace fairwire::poll {

// An event and the index of the child that produced it.
template <class E>
struct Tagged {
  // The child's index at the time of the poll.
  std::size_t index;
  // The child's event.
  E event;
};

// See the file comment. A call allocates nothing; Add may grow the list.
// If a child's Poll throws, the exception reaches the caller and the
// composite stays valid (as for Select).
template <Policy P, Handler H>
class SelectAll {
  struct Entry {
    H handler;
    bool done;
  };
  struct GetHandler {
    const H& operator()(const Entry& entry) const { return entry.handler; }
  };

 public:
  // The event: the child's event and its index.
  using Event = Tagged<typename H::Event>;
  // What Poll returns.
  using Result = ::fairwire::poll::Poll<Event>;

  // An empty composite under a default-constructed policy.
  SelectAll() = default;
  // An empty composite under `policy`.
  explicit SelectAll(P policy) : policy_(std::move(policy)) {}

  // Appends a live child; returns its index. The cursor does not move.
  std::size_t Add(H handler) {
    children_.push_back(Entry{std::move(handler), false});
    ++live_;
    return children_.size() - 1;
  }

  // Removes child i (live or done) and returns it; later children move down
  // one index. A cursor on child i moves to its successor. Requires
  // i < size().
  H Remove(std::size_t i) {
    H removed = std::move(children_[i].handler);
    if (!children_[i].done) --live_;
    children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(i));
    policy_.OnRemove(i, children_.size());
    return removed;
  }

  // Polls the live children from the policy's start, wrapping, each at most
  // once. Ready: the first Ready child's event and index. Pending: every
  // live child was polled and returned Pending. Done: no child is live
  // (also when there are no children).
  FAIRWIRE_POLL_FLATTEN Result Poll(Context& cx) {
    if (live_ == 0) return Result::Done();
    const std::size_t n = children_.size();
    std::size_t i = policy_.Start(n);
    for (std::size_t fuel = live_; fuel > 0; i = (i + 1 == n ? 0 : i + 1)) {
      Entry& entry = children_[i];
      if (entry.done) continue;
      --fuel;
      auto polled = entry.handler.Poll(cx);
      if (polled.IsReady()) {
        policy_.OnReady(i, n);
        return Result::Ready(Event{i, std::move(polled).value()});
      }
      if (polled.IsDone()) {
        entry.done = true;
        --live_;
      }
    }
    return live_ == 0 ? Result::Done() : Result::Pending();
  }

  // True when no child is live.
  bool IsDone() const { return live_ == 0; }
  // How many children are not done.
  std::size_t live() const { return live_; }
  // The number of children, live or done.
  std::size_t size() const { return children_.size(); }
  // Whether child i is done. Requires i < size().
  bool IsChildDone(std::size_t i) const { return children_[i].done; }
  // Child i. Requires i < size().
  H& child(std::size_t i) { return children_[i].handler; }
  // Child i. Requires i < size().
  const H& child(std::size_t i) const { return children_[i].handler; }
  // The policy (its cursor, its RNG).
  const P& policy() const { return policy_; }

  // Every child's protocols, concatenated in index order. The composite
  // must outlive the range and not change while iterating.
  auto Protocols() const requires ProtocolHandler<H> {
    return ProtocolList<std::vector<Entry>, GetHandler>(&children_,
                                                        GetHandler{});
  }

 private:
  std::vector<Entry> children_;
  std::size_t live_ = 0;
  P policy_{};
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_SELECT_ALL_H_
