// Poll<T>: the result of polling a handler once. Ready carries a value,
// Pending means "not now; the context's waker will be woken", Done means the
// handler has finished and must never be polled again.
#ifndef FAIRWIRE_POLL_POLL_H_
#define FAIRWIRE_POLL_POLL_H_

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace fairwire::poll {

// The three states of a Poll<T>.
enum class PollState : std::uint8_t { kPending, kReady, kDone };

// Ready(value), Pending or Done. Cheap to move; never allocates. A
// trivially copyable T (a std::variant of trivially copyable events, as
// Select returns, included) is held in place beside a word-wide state, with
// its bytes zeroed as whole words when not Ready: a Poll returned from a call
// that is not inlined travels in registers, and one that is copied through
// the stack is read back with loads as wide as the stores that wrote it (no
// store-forwarding stall). Any other T is held in a std::optional.
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
  PollState state() const { return static_cast<PollState>(state_); }
  // True when the poll carries a value.
  bool IsReady() const { return state() == PollState::kReady; }
  // True when the handler is waiting for a wake-up.
  bool IsPending() const { return state() == PollState::kPending; }
  // True when the handler has finished.
  bool IsDone() const { return state() == PollState::kDone; }

  // The value of a Ready poll. Requires IsReady().
  T& value() & {
    if constexpr (kInPlace) {
      return storage_.value;
    } else {
      return *storage_;
    }
  }
  // The value of a Ready poll. Requires IsReady().
  const T& value() const& {
    if constexpr (kInPlace) {
      return storage_.value;
    } else {
      return *storage_;
    }
  }
  // The value of a Ready poll, moved out. Requires IsReady().
  T&& value() && { return std::move(value()); }

 private:
  static constexpr bool kInPlace = std::is_trivially_copyable_v<T>;
  // The state in a word as wide as the value's alignment (no padding to
  // leave unwritten in small Polls).
  using StateWord =
      std::conditional_t<(alignof(T) >= 8), std::uint64_t, std::uint32_t>;

  // In-place storage: zero bytes (not Ready) or the value (Ready). Trivially
  // copyable because T is.
  union InPlace {
    InPlace() : zero{} {}
    explicit InPlace(T v) : value(std::move(v)) {}
    unsigned char zero[sizeof(T)];
    T value;
  };

  explicit Poll(PollState state)
      : storage_(), state_(static_cast<StateWord>(state)) {}
  explicit Poll(T value)
      : storage_(std::move(value)),
        state_(static_cast<StateWord>(PollState::kReady)) {}

  std::conditional_t<kInPlace, InPlace, std::optional<T>> storage_;
  StateWord state_;
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_POLL_H_
