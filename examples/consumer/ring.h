// The consumer's own poll composite: a ring of handlers of one type, added
// at construction, polled round-robin from a saved cursor. After a child's
// event the next call starts at the child after it; a child that finished
// is skipped; the ring is done when every child is. Checked with fairwire's
// poll kit (ring_kit.cc) as RoundRobin.
#ifndef FAIRWIRE_CONSUMER_RING_H_
#define FAIRWIRE_CONSUMER_RING_H_

#include <cstddef>
#include <utility>
#include <vector>

#include "fairwire/poll/poll.h"
#include "fairwire/poll/waker.h"

namespace consumer {

// An event of the ring: the child's index and its event.
template <class E>
struct RingEvent {
  std::size_t child;
  E event;
};

template <class H>
class Ring {
 public:
  using Event = RingEvent<typename H::Event>;

  explicit Ring(std::vector<H> children)
      : children_(std::move(children)), done_(children_.size(), false) {}

  fairwire::poll::Poll<Event> Poll(fairwire::poll::Context& cx) {
    const std::size_t n = children_.size();
    for (std::size_t step = 0; step < n; ++step) {
      const std::size_t i = (cursor_ + step) % n;
      if (done_[i]) continue;
      auto polled = children_[i].Poll(cx);
      if (polled.IsReady()) {
        cursor_ = (i + 1) % n;
        return fairwire::poll::Poll<Event>::Ready(
            Event{i, std::move(polled).value()});
      }
      if (polled.IsDone()) {
        done_[i] = true;
        ++finished_;
      }
    }
    return IsDone() ? fairwire::poll::Poll<Event>::Done()
                    : fairwire::poll::Poll<Event>::Pending();
  }

  bool IsDone() const { return finished_ == children_.size(); }

 private:
  std::vector<H> children_;
  std::vector<bool> done_;
  std::size_t finished_ = 0;
  std::size_t cursor_ = 0;
};

}  // namespace consumer

#endif  // FAIRWIRE_CONSUMER_RING_H_
