// CountdownHandler: the simplest real handler, for benchmarks and examples.
// It returns Pending (waking its waker at once, like a task that yields)
// `pending_per_event` times, then Ready(event) once, and repeats.
//   Select<RoundRobin, CountdownHandler, CountdownHandler> s(
//       CountdownHandler(3, 0), CountdownHandler(0, 1));
#ifndef FAIRWIRE_POLL_COUNTDOWN_HANDLER_H_
#define FAIRWIRE_POLL_COUNTDOWN_HANDLER_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "fairwire/poll/poll.h"
#include "fairwire/poll/waker.h"

namespace fairwire::poll {

// See the file comment. Never Done.
class CountdownHandler {
 public:
  // The event: the id given at construction.
  using Event = std::uint32_t;

  // Pending `pending_per_event` times, then Ready(event), repeating.
  // `protocols` (which must outlive the handler) is what Protocols() lists.
  explicit CountdownHandler(std::uint32_t pending_per_event, Event event = 0,
                            std::span<const std::string_view> protocols = {})
      : period_(pending_per_event),
        remaining_(pending_per_event),
        event_(event),
        protocols_(protocols) {}

  // Pending with a self-wake while counting down; then Ready(event).
  ::fairwire::poll::Poll<Event> Poll(Context& cx) {
    if (remaining_ > 0) {
      --remaining_;
      cx.waker().Wake();
      return ::fairwire::poll::Poll<Event>::Pending();
    }
    remaining_ = period_;
    ++events_;
    return ::fairwire::poll::Poll<Event>::Ready(event_);
  }

  // The protocols given at construction.
  std::span<const std::string_view> Protocols() const { return protocols_; }
  // How many events this handler has returned.
  std::uint64_t events() const { return events_; }

 private:
  std::uint32_t period_;
  std::uint32_t remaining_;
  Event event_;
  std::span<const std::string_view> protocols_;
  std::uint64_t events_ = 0;
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_COUNTDOWN_HANDLER_H_
