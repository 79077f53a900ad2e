// Scheduling policies for Select and SelectAll: where a call starts its scan
// and how the cursor moves after a child is Ready (docs/design.md, "Poll
// core").
//
// A policy P has, for n >= 1 children (live or done):
//   std::size_t Start(std::size_t n);          the scan's first index, < n
//   void OnReady(std::size_t child, std::size_t n);   child was Ready
//   void OnRemove(std::size_t child, std::size_t n_after);  SelectAll only
// A call scans from Start() forward, wrapping, polling each live child at
// most once, and stops at the first Ready child.
#ifndef FAIRWIRE_POLL_POLICY_H_
#define FAIRWIRE_POLL_POLICY_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace fairwire::poll {

// What a composite needs from a policy.
template <class P>
concept Policy = requires(P& policy, std::size_t i) {
  { policy.Start(i) } -> std::convertible_to<std::size_t>;
  policy.OnReady(i, i);
  policy.OnRemove(i, i);
};

namespace internal {

// The cursor after removing `removed` from a list that now has n_after
// entries: entries behind the removed one shift down; a cursor on the
// removed entry moves to its successor (wrapping).
constexpr std::size_t CursorAfterRemove(std::size_t cursor, std::size_t removed,
                                        std::size_t n_after) {
  if (n_after == 0) return 0;
  if (cursor > removed) return cursor - 1;
  return cursor >= n_after ? 0 : cursor;
}

}  // namespace internal

// Every call starts at child 0. No fairness: an always-Ready child 0 starves
// the rest. The nested baseline behaves like this.
class Priority {
 public:
  // Always 0.
  std::size_t Start(std::size_t /*n*/) const { return 0; }
  // No state to update.
  void OnReady(std::size_t /*child*/, std::size_t /*n*/) {}
  // No state to update.
  void OnRemove(std::size_t /*child*/, std::size_t /*n_after*/) {}
};

// Drain first: the next call starts at the child that was last Ready. No
// fairness for an always-Ready child; with bursts of at most B events every
// ready child is served within (N-1)*B+1 calls.
class Sticky {
 public:
  // The child that was Ready last (0 at first).
  std::size_t Start(std::size_t /*n*/) const { return cursor_; }
  // Stays on `child`.
  void OnReady(std::size_t child, std::size_t /*n*/) { cursor_ = child; }
  // Keeps the cursor on the same child, or its successor if it was removed.
  void OnRemove(std::size_t child, std::size_t n_after) {
    cursor_ = internal::CursorAfterRemove(cursor_, child, n_after);
  }
  // The current cursor.
  std::size_t cursor() const { return cursor_; }

 private:
  std::size_t cursor_ = 0;
};

// The next call starts after the child that was Ready: an always-Ready child
// is served within N calls.
class RoundRobin {
 public:
  // The child after the one that was Ready last (0 at first).
  std::size_t Start(std::size_t /*n*/) const { return cursor_; }
  // Moves past `child`, wrapping.
  void OnReady(std::size_t child, std::size_t n) {
    cursor_ = child + 1 == n ? 0 : child + 1;
  }
  // Keeps the cursor on the same child, or its successor if it was removed.
  void OnRemove(std::size_t child, std::size_t n_after) {
    cursor_ = internal::CursorAfterRemove(cursor_, child, n_after);
  }
  // The current cursor.
  std::size_t cursor() const { return cursor_; }

 private:
  std::size_t cursor_ = 0;
};

// Stays on a child for at most K consecutive events, then moves on: an
// always-Ready child is served within (N-1)*K+1 calls. Budgeted<1> is
// RoundRobin.
template <std::size_t K>
class Budgeted {
  static_assert(K >= 1, "Budgeted<K> needs a budget of at least one event");

 public:
  // The budget.
  static constexpr std::size_t kBudget = K;

  // The cursor child (0 at first).
  std::size_t Start(std::size_t /*n*/) const { return cursor_; }
  // Counts the event against `child`'s budget; moves on when it is spent.
  void OnReady(std::size_t child, std::size_t n) {
    if (child != cursor_) {
      cursor_ = child;
      used_ = 0;
    }
    if (++used_ == K) {
      cursor_ = child + 1 == n ? 0 : child + 1;
      used_ = 0;
    }
  }
  // Keeps the cursor on the same child; a removed cursor child's successor
  // starts with a fresh budget.
  void OnRemove(std::size_t child, std::size_t n_after) {
    if (child == cursor_) used_ = 0;
    cursor_ = internal::CursorAfterRemove(cursor_, child, n_after);
  }
  // The current cursor.
  std::size_t cursor() const { return cursor_; }

 private:
  std::size_t cursor_ = 0;
  std::size_t used_ = 0;
};

// A small seedable generator (SplitMix64) for RandomStart.
class SplitMix64 {
 public:
  // The type of the numbers it returns.
  using result_type = std::uint64_t;
  // Seeds the generator.
  explicit SplitMix64(std::uint64_t seed = 0) : state_(seed) {}
  // The smallest value returned.
  static constexpr result_type min() { return 0; }
  // The largest value returned.
  static constexpr result_type max() { return ~result_type{0}; }
  // The next pseudo-random number.
  result_type operator()() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// Each call (with at least one live child) draws its start index as
// rng() % n from an injected generator; the cursor keeps no state.
// Fairness is probabilistic.
template <class Rng = SplitMix64>
class RandomStart {
 public:
  // Uses `rng` for the start draws.
  explicit RandomStart(Rng rng = Rng()) : rng_(std::move(rng)) {}
  // rng() % n: exactly one draw per call.
  std::size_t Start(std::size_t n) {
    return static_cast<std::size_t>(static_cast<std::uint64_t>(rng_()) % n);
  }
  // No state to update.
  void OnReady(std::size_t /*child*/, std::size_t /*n*/) {}
  // No state to update.
  void OnRemove(std::size_t /*child*/, std::size_t /*n_after*/) {}
  // The generator.
  Rng& rng() { return rng_; }

 private:
  Rng rng_;
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_POLICY_H_
