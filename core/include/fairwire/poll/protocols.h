// Composed protocol iteration: one forward range over every child's
// protocol list, in child order. The iterator keeps its place as (child
// index, position in that child's list), skips children whose list is
// exhausted or empty, and never walks an earlier child again.
//   for (std::string_view p : select.Protocols()) Advertise(p);
#ifndef FAIRWIRE_POLL_PROTOCOLS_H_
#define FAIRWIRE_POLL_PROTOCOLS_H_

#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <optional>
#include <ranges>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "fairwire/poll/handler.h"
#include "fairwire/poll/internal/dispatch.h"
#include "fairwire/poll/internal/protocol_cursor.h"

namespace fairwire::poll {

// The concatenation of N protocol ranges of possibly different types.
// The ranges are held by value; iterators point into this object, so it
// must outlive them.
template <ProtocolRange... R>
class ProtocolChain {
  static constexpr std::size_t kSize = sizeof...(R);
  // True when every list is a contiguous range of std::string_view (a span,
  // a vector, an array): the iterator then walks a pointer through the
  // current list and switches on the child only when a list ends.
  static constexpr bool kContiguous =
      ((std::ranges::contiguous_range<const R> &&
        std::same_as<std::ranges::range_value_t<const R>,
                     std::string_view>)&&...);

 public:
  // Takes the children's ranges, in child order.
  explicit ProtocolChain(R... ranges) : ranges_(std::move(ranges)...) {}

  // Forward iterator over the names; compares equal to std::default_sentinel
  // at the end.
  class Iterator : public internal::ProtocolCursor<Iterator> {
   public:
    // A singular iterator.
    Iterator() = default;

    // The current protocol name.
    std::string_view operator*() const {
      if constexpr (kContiguous) {
        return *cursor_.at;
      } else {
        return internal::Dispatch<kSize>(
            child_,
            [&](auto i) -> std::string_view { return *std::get<i>(cursor_); });
      }
    }
    // The index of the child whose protocol this points at (kSize at end).
    std::size_t child() const { return child_; }

    // Same child and same position within it.
    friend bool operator==(const Iterator& a, const Iterator& b) {
      if (a.child_ != b.child_) return false;
      if (a.child_ == kSize) return true;
      if constexpr (kContiguous) {
        return a.cursor_.at == b.cursor_.at;
      } else {
        return internal::Dispatch<kSize>(a.child_, [&](auto i) {
          return std::get<i>(a.cursor_) == std::get<i>(b.cursor_);
        });
      }
    }

   private:
    friend class ProtocolChain;
    friend class internal::ProtocolCursor<Iterator>;

    // Where a contiguous chain is: a pointer into the current list.
    struct Pointer {
      const std::string_view* at = nullptr;
      const std::string_view* end = nullptr;
    };
    // Where a general chain is: one position per list.
    using Positions = std::tuple<std::ranges::iterator_t<const R>...>;

    explicit Iterator(const ProtocolChain* chain) : chain_(chain) {
      if constexpr (kContiguous) {
        Enter();
      } else {
        cursor_ = std::apply(
            [](const auto&... r) {
              return Positions(std::ranges::begin(r)...);
            },
            chain->ranges_);
      }
      SkipExhausted();
    }
    // Points the contiguous cursor at the start of list child_.
    void Enter() {
      internal::Dispatch<kSize>(child_, [&](auto i) {
        const auto& list = std::get<i>(chain_->ranges_);
        cursor_.at = std::ranges::data(list);
        cursor_.end = cursor_.at + std::ranges::size(list);
      });
    }
    bool AtEnd() const { return child_ == kSize; }
    void StepInList() {
      if constexpr (kContiguous) {
        ++cursor_.at;
      } else {
        internal::Dispatch<kSize>(child_,
                                  [&](auto i) { ++std::get<i>(cursor_); });
      }
    }
    void SkipExhausted() {
      if constexpr (kContiguous) {
        while (cursor_.at == cursor_.end) {
          if (++child_ == kSize) return;
          Enter();
        }
      } else {
        while (child_ < kSize && Exhausted(child_)) ++child_;
      }
    }
    bool Exhausted(std::size_t c) const {
      return internal::Dispatch<kSize>(c, [&](auto i) {
        return std::get<i>(cursor_) ==
               std::ranges::end(std::get<i>(chain_->ranges_));
      });
    }

    const ProtocolChain* chain_ = nullptr;
    std::size_t child_ = 0;
    std::conditional_t<kContiguous, Pointer, Positions> cursor_{};
  };

  // The first name (or the end when every list is empty).
  Iterator begin() const { return Iterator(this); }
  // The end.
  std::default_sentinel_t end() const { return std::default_sentinel; }

 private:
  std::tuple<R...> ranges_;
};

// The concatenation of the protocol lists of a run-time list of handlers of
// one type (SelectAll). `Children` is a random-access container of entries;
// `get` maps an entry to its handler. The handler's range must be a
// borrowed range (a span or a view), since the iterator holds a copy.
template <class Children, class Get>
class ProtocolList {
  using Handler = std::remove_cvref_t<
      std::invoke_result_t<Get, const typename Children::value_type&>>;
  using Range = ProtocolsOf<Handler>;
  static_assert(std::ranges::borrowed_range<Range>,
                "SelectAll::Protocols() needs Protocols() to return a span "
                "or another borrowed range");

 public:
  // Iterates over `children` (which must outlive the iterators).
  ProtocolList(const Children* children, Get get)
      : children_(children), get_(get) {}

  // Forward iterator over the names; equal to std::default_sentinel at end.
  class Iterator : public internal::ProtocolCursor<Iterator> {
   public:
    // A singular iterator.
    Iterator() = default;
    // The current protocol name.
    std::string_view operator*() const { return *position_; }
    // The index of the child whose protocol this points at (size at end).
    std::size_t child() const { return child_; }

    // Same child and same position within it.
    friend bool operator==(const Iterator& a, const Iterator& b) {
      if (a.child_ != b.child_) return false;
      return a.AtEnd() || a.position_ == b.position_;
    }

   private:
    friend class ProtocolList;
    friend class internal::ProtocolCursor<Iterator>;
    explicit Iterator(const ProtocolList* list) : list_(list) {
      if (!AtEnd()) Enter();
    }
    bool AtEnd() const {
      return list_ == nullptr || child_ >= list_->children_->size();
    }
    // Loads the current child's range and starts at its beginning.
    void Enter() {
      range_.emplace(list_->get_((*list_->children_)[child_]).Protocols());
      position_ = std::ranges::begin(*range_);
      SkipExhausted();
    }
    void StepInList() { ++position_; }
    void SkipExhausted() {
      while (position_ == std::ranges::end(*range_)) {
        ++child_;
        if (AtEnd()) return;
        range_.emplace(list_->get_((*list_->children_)[child_]).Protocols());
        position_ = std::ranges::begin(*range_);
      }
    }

    const ProtocolList* list_ = nullptr;
    std::size_t child_ = 0;
    std::optional<Range> range_;
    std::ranges::iterator_t<const Range> position_{};
  };

  // The first name (or the end when every list is empty).
  Iterator begin() const { return Iterator(this); }
  // The end.
  std::default_sentinel_t end() const { return std::default_sentinel; }

 private:
  const Children* children_;
  Get get_;
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_PROTOCOLS_H_
