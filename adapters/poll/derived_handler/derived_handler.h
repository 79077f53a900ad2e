// The seed's macro-generated poll, transcribed into C++ as its author wrote
// it: the ConnectionHandler::poll that rust-libp2p PR #5486 ("rewrite
// NetworkBehaviour macro for more optimal code gen", swarm-derive,
// src/experimental.rs; https://github.com/libp2p/rust-libp2p/pull/5486,
// not merged) generates for a struct of handler fields. Written here from
// the generated code's description, independently of fairwire::poll::Select.
//
// State between calls: one saved index, `field_index`, from 0. A call polls
// field `field_index`; a Ready field's event is returned at once with the
// index kept (the next call starts at the same field); a Pending field moves
// the index on. An index past the last field wraps to 0.
//
// Two loops, as the PR's history has them:
// - kFuel (the PR's head, commit 83351d6): a fuel counter of N that only a
//   polled field spends, so the wrap is free and a call that finds every
//   field Pending polls each exactly once;
// - kForLoop (its first commit, c7c5c87): `for _ in 0..N`, where the wrap
//   spends one of the N turns, so a call starting past field 0 polls one
//   field fewer and returns Pending without having polled the last of them.
//
// A ConnectionHandler has no Done: a field's poll is Ready or Pending, and
// the composite never finishes (so its verdict runs scripts without Done).
#ifndef FAIRWIRE_ADAPTERS_POLL_DERIVED_HANDLER_H_
#define FAIRWIRE_ADAPTERS_POLL_DERIVED_HANDLER_H_

#include <cstddef>
#include <optional>
#include <tuple>
#include <utility>
#include <variant>

#include "fairwire/poll/poll.h"
#include "fairwire/poll/waker.h"

namespace fairwire::poll::derived {

// Which of the PR's loops the generated poll has.
enum class Loop { kFuel, kForLoop };

// The generated handler of a struct whose fields are `Fields...`.
template <Loop kLoop, class... Fields>
class DerivedHandler {
 public:
  // The generated event enum: one variant per field, in field order.
  using Event = std::variant<typename Fields::Event...>;

  explicit DerivedHandler(Fields... fields) : fields_(std::move(fields)...) {}

  ::fairwire::poll::Poll<Event> Poll(Context& cx) {
    constexpr std::size_t n = sizeof...(Fields);
    if constexpr (kLoop == Loop::kFuel) {
      std::size_t fuel = n;
      while (fuel > 0) {
        if (field_index_ >= n) {  // the match's `_` arm: wrap, no fuel spent
          field_index_ = 0;
          continue;
        }
        if (auto event = PollField(cx, std::index_sequence_for<Fields...>())) {
          return ::fairwire::poll::Poll<Event>::Ready(std::move(*event));
        }
        field_index_ += 1;
        fuel -= 1;
      }
    } else {
      for (std::size_t turn = 0; turn < n; ++turn) {
        if (field_index_ >= n) {  // the wrap takes this turn
          field_index_ = 0;
          continue;
        }
        if (auto event = PollField(cx, std::index_sequence_for<Fields...>())) {
          return ::fairwire::poll::Poll<Event>::Ready(std::move(*event));
        }
        field_index_ += 1;
      }
    }
    return ::fairwire::poll::Poll<Event>::Pending();
  }

  // A ConnectionHandler does not finish.
  bool IsDone() const { return false; }

 private:
  // The generated `match field_index { 0 => ..., 1 => ..., }`: polls the
  // field at field_index_; its event if it was Ready (a field's Pending, or
  // anything else, falls through).
  template <std::size_t... I>
  std::optional<Event> PollField(Context& cx, std::index_sequence<I...>) {
    std::optional<Event> out;
    static_cast<void>(
        ((field_index_ == I ? (out = PollOne<I>(cx), true) : false) || ...));
    return out;
  }
  template <std::size_t I>
  std::optional<Event> PollOne(Context& cx) {
    auto polled = std::get<I>(fields_).Poll(cx);
    if (!polled.IsReady()) return std::nullopt;
    return Event(std::in_place_index<I>, std::move(polled).value());
  }

  std::tuple<Fields...> fields_;
  std::size_t field_index_ = 0;
};

}  // namespace fairwire::poll::derived

#endif  // FAIRWIRE_ADAPTERS_POLL_DERIVED_HANDLER_H_
