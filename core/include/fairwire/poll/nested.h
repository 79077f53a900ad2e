// Nested<A, B>: the binary composition (a type-level list of pairs, as in
// Nested<A, Nested<B, C>>) that always polls its left side first. Kept as the
// baseline for the benchmarks and for the property suite to show its
// starvation: it behaves like Select<Priority, ...> with recursive dispatch.
#ifndef FAIRWIRE_POLL_NESTED_H_
#define FAIRWIRE_POLL_NESTED_H_

#include <cstddef>
#include <iterator>
#include <ranges>
#include <string_view>
#include <utility>
#include <variant>

#include "fairwire/poll/handler.h"
#include "fairwire/poll/internal/protocol_cursor.h"
#include "fairwire/poll/poll.h"
#include "fairwire/poll/waker.h"

namespace fairwire::poll {

// The nested protocol baseline: A's protocols, then B's, with an iterator
// that is either in A or in B (recursively for nested B).
template <ProtocolRange RA, ProtocolRange RB>
class NestedProtocols {
 public:
  // Takes both ranges by value; iterators point into this object.
  NestedProtocols(RA a, RB b) : a_(std::move(a)), b_(std::move(b)) {}

  // Forward iterator; equal to std::default_sentinel at the end.
  class Iterator : public internal::ProtocolCursor<Iterator> {
   public:
    // A singular iterator.
    Iterator() = default;
    // The current name.
    std::string_view operator*() const { return in_b_ ? *b_pos_ : *a_pos_; }
    // Same side and position.
    friend bool operator==(const Iterator& x, const Iterator& y) {
      return x.in_b_ == y.in_b_ &&
             (x.in_b_ ? x.b_pos_ == y.b_pos_ : x.a_pos_ == y.a_pos_);
    }

   private:
    friend class NestedProtocols;
    friend class internal::ProtocolCursor<Iterator>;
    explicit Iterator(const NestedProtocols* outer)
        : outer_(outer),
          a_pos_(std::ranges::begin(outer->a_)),
          b_pos_(std::ranges::begin(outer->b_)) {
      SkipExhausted();
    }
    // At the end of B.
    bool AtEnd() const {
      return in_b_ && b_pos_ == std::ranges::end(outer_->b_);
    }
    // Steps in A, or in B once A is exhausted.
    void StepInList() {
      if (in_b_) {
        ++b_pos_;
      } else {
        ++a_pos_;
      }
    }
    // Moves to B once A is exhausted.
    void SkipExhausted() {
      if (!in_b_ && a_pos_ == std::ranges::end(outer_->a_)) in_b_ = true;
    }

    const NestedProtocols* outer_ = nullptr;
    bool in_b_ = false;
    std::ranges::iterator_t<const RA> a_pos_{};
    std::ranges::iterator_t<const RB> b_pos_{};
  };

  // The first name.
  Iterator begin() const { return Iterator(this); }
  // The end.
  std::default_sentinel_t end() const { return std::default_sentinel; }

 private:
  RA a_;
  RB b_;
};

// See the file comment. Event alternative 0 is A's event, 1 is B's (itself
// a variant when B is nested).
template <Handler A, Handler B>
class Nested {
 public:
  // A's event or B's event.
  using Event = std::variant<typename A::Event, typename B::Event>;
  // What Poll returns.
  using Result = ::fairwire::poll::Poll<Event>;

  // Composes a (polled first) and b.
  Nested(A a, B b) : a_(std::move(a)), b_(std::move(b)) {}

  // Polls A, then B if A was not Ready. Pending when the live sides both
  // returned Pending; Done when both are done.
  Result Poll(Context& cx) {
    if (!a_done_) {
      auto polled = a_.Poll(cx);
      if (polled.IsReady()) {
        return Result::Ready(
            Event(std::in_place_index<0>, std::move(polled).value()));
      }
      a_done_ = polled.IsDone();
    }
    if (!b_done_) {
      auto polled = b_.Poll(cx);
      if (polled.IsReady()) {
        return Result::Ready(
            Event(std::in_place_index<1>, std::move(polled).value()));
      }
      b_done_ = polled.IsDone();
    }
    return IsDone() ? Result::Done() : Result::Pending();
  }

  // True when both sides are done.
  bool IsDone() const { return a_done_ && b_done_; }
  // The left side.
  A& left() { return a_; }
  // The right side.
  B& right() { return b_; }

  // A's protocols, then B's (the nested iterator baseline).
  auto Protocols() const requires ProtocolHandler<A> && ProtocolHandler<B> {
    return NestedProtocols<ProtocolsOf<A>, ProtocolsOf<B>>(a_.Protocols(),
                                                           b_.Protocols());
  }

 private:
  A a_;
  B b_;
  bool a_done_ = false;
  bool b_done_ = false;
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_NESTED_H_
