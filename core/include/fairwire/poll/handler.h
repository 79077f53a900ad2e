// The handler concept the composites accept, and the protocol-range concept
// for handlers that list the protocols they speak.
#ifndef FAIRWIRE_POLL_HANDLER_H_
#define FAIRWIRE_POLL_HANDLER_H_

#include <concepts>
#include <ranges>
#include <string_view>

#include "fairwire/poll/poll.h"
#include "fairwire/poll/waker.h"

namespace fairwire::poll {

// A handler has an Event type and `Poll(Context&)` returning
// Poll<Event>: Ready(event), Pending (after arranging a wake of
// cx.waker()), or Done (finished: it is never polled again).
template <class H>
concept Handler = requires(H& handler, Context& cx) {
  typename H::Event;
  { handler.Poll(cx) } -> std::same_as<Poll<typename H::Event>>;
};

// A forward range of protocol names (anything convertible to string_view).
template <class R>
concept ProtocolRange = std::ranges::forward_range<const R> &&
    std::convertible_to<std::ranges::range_reference_t<const R>,
                        std::string_view>;

// A handler that lists its protocols: `Protocols() const` returns a
// ProtocolRange (a std::span<const std::string_view>, or any view).
template <class H>
concept ProtocolHandler = requires(const H& handler) {
  { handler.Protocols() } -> ProtocolRange;
};

// The range type H::Protocols() returns.
template <ProtocolHandler H>
using ProtocolsOf = decltype(std::declval<const H&>().Protocols());

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_HANDLER_H_
