// Poll<T>: the result of polling a handler once. Ready carries a value,
// Pending means "not now; the context's waker will be woken", Done means the
// handler has finished and must never be polled again.
#ifndef FAIRWIRE_POLL_POLL_H_
#define FAIRWIRE_POLL_POLL_H_

#include <cstdint>
#include <optional>
#include <utility>

namespace fairwire::poll {

// The three states of a Poll<T>.
enum class PollState : std::uint8_t { kPending, kReady, kDone };

// Ready(value), Pending or Done. Cheap to move; never allocates.
//   Poll<int> p = Poll<int>::Ready(7);
//   if (p.IsReady()) Use(std::move(p).value());
template <class T>
class [[nodiscard]] Poll {
 public:
  // The event type a Ready poll carries.
  using Value = T;

  // A Ready poll carrying `value`.
  static Poll Ready(T value) { return Poll(std::move(value)); }
  // A Pending poll: the handler arranged for the context's waker to be woken.
  static Poll Pending() { return Poll(PollState::kPending); }
  // A Done poll: the handler finished and must not be polled again.
  static Poll Done() { return Poll(PollState::kDone); }

  // The state: kReady, kPending or kDone.
  PollState state() const { return state_; }
  // True when the poll carries a value.
  bool IsReady() const { return state_ == PollState::kReady; }
  // True when the handler is waiting for a wake-up.
  bool IsPending() const { return state_ == PollState::kPending; }
  // True when the handler has finished.
  bool IsDone() const { return state_ == PollState::kDone; }

  // The value of a Ready poll. Requires IsReady().
  T& value() & { return *value_; }
  // The value of a Ready poll. Requires IsReady().
  const T& value() const& { return *value_; }
  // The value of a Ready poll, moved out. Requires IsReady().
  T&& value() && { return std::move(*value_); }

 private:
  explicit Poll(PollState state) : state_(state) {}
  explicit Poll(T value)
      : state_(PollState::kReady), value_(std::move(value)) {}

  PollState state_;
  std::optional<T> value_;
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_POLL_H_
