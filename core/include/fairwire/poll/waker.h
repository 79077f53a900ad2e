// Waker and Context: how a Pending handler asks to be polled again.
// A Waker is two words (a function and its argument): cheap to copy, no
// allocation, no virtual call, and comparable, so tests can tell which
// waker a handler saw.
#ifndef FAIRWIRE_POLL_WAKER_H_
#define FAIRWIRE_POLL_WAKER_H_

#include <cstdint>

namespace fairwire::poll {

// A handle that, when woken, tells an executor to poll its task again.
// The default-constructed Waker is a no-op.
class Waker {
 public:
  // The function Wake() calls with the waker's data pointer.
  using WakeFn = void (*)(void* data);

  // A no-op waker.
  constexpr Waker() = default;
  // A waker that calls fn(data) on Wake(). `data` must outlive every copy.
  constexpr Waker(WakeFn fn, void* data) : fn_(fn), data_(data) {}

  // Wakes the task this waker belongs to. Safe to call any number of times.
  void Wake() const {
    if (fn_ != nullptr) fn_(data_);
  }

  // Two wakers are equal when they wake the same target the same way.
  friend bool operator==(const Waker&, const Waker&) = default;

 private:
  WakeFn fn_ = nullptr;
  void* data_ = nullptr;
};

// A wake target that counts its wake-ups: the simplest executor stand-in.
//   WakeCounter counter;
//   Context cx(counter.waker());
class WakeCounter {
 public:
  // A waker that increments this counter. The counter must outlive it.
  Waker waker() { return Waker(&WakeCounter::Bump, this); }
  // How many times a waker of this counter was woken.
  std::uint64_t count() const { return count_; }
  // Sets the count back to zero.
  void Reset() { count_ = 0; }

 private:
  static void Bump(void* self) { ++static_cast<WakeCounter*>(self)->count_; }

  std::uint64_t count_ = 0;
};

// What a poll receives: the waker of the task doing the polling.
class Context {
 public:
  // A context handing out `waker`.
  explicit Context(Waker waker) : waker_(waker) {}
  // The waker a handler returning Pending must arrange to wake.
  const Waker& waker() const { return waker_; }

 private:
  Waker waker_;
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_WAKER_H_
