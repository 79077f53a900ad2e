// Composed protocol iteration: one forward range over every child's
// protocol list, in child order. The iterator keeps its place as (child
// index, position in that child's list), skips children whose list is
// exhausted or empty, and never walks an earlier child again.
//   for (std::string_view p : select.Protocols()) Advertise(p);
#ifndef FAIRWIRE_POLL_PROTOCOLS_H_
#define FAIRWIRE_POLL_PROTOCOLS_H_

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
      return internal::Dispatch<kSize>(child_, [&](auto i) -> std::string_view {
        return *std::get<i>(positions_);
      });
    }
    // The index of the child whose protocol this points at (kSize at end).
    std::size_t child() const { return child_; }

    // Same child and same position within it.
    friend bool operator==(const Iterator& a, const Iterator& b) {
      if (a.child_ != b.child_) return false;
      if (a.child_ == kSize) return true;
      return internal::Dispatch<kSize>(a.child_, [&](auto i) {
        return std::get<i>(a.positions_) == std::get<i>(b.positions_);
      });
    }

   private:
    friend class ProtocolChain;
    friend class internal::ProtocolCursor<Iterator>;
    explicit Iterator(const ProtocolChain* chain)
        : chain_(chain), positions_(BeginsOf(chain->ranges_)) {
      SkipExhausted();
    }
    static auto BeginsOf(const std::tuple<R...>& ranges) {
      return std::apply(
          [](const auto&... r) { return std::tuple(std::ranges::begin(r)...); },
          ranges);
    }
    bool AtEnd() const { return child_ == kSize; }
    bool Exhausted(std::size_t c) const {
      return internal::Dispatch<kSize>(c, [&](auto i) {
        return std::get<i>(positions_) ==
               std::ranges::end(std::get<i>(chain_->ranges_));
      });
    }
    void StepInList() {
      internal::Dispatch<kSize>(child_,
                                [&](auto i) { ++std::get<i>(positions_); });
    }
    void SkipExhausted() {
      while (child_ < kSize && Exhausted(child_)) ++child_;
    }

    const ProtocolChain* chain_ = nullptr;
    std::size_t child_ = 0;
    std::tuple<std::ranges::iterator_t<const R>...> positions_{};
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
