// The part every composed protocol iterator shares (ProtocolChain,
// ProtocolList, NestedProtocols): the forward-iterator types, advancing
// as "step within the current list, then skip exhausted lists", the
// post-increment, and the comparison with std::default_sentinel.
#ifndef FAIRWIRE_POLL_INTERNAL_PROTOCOL_CURSOR_H_
#define FAIRWIRE_POLL_INTERNAL_PROTOCOL_CURSOR_H_

#include <cstddef>
#include <iterator>
#include <string_view>

namespace fairwire::poll::internal {

// CRTP base of a protocol iterator `Derived`, which provides (and may keep
// private, befriending this base) StepInList() (advance within the current
// list), SkipExhausted() (move past lists at their end) and AtEnd().
template <class Derived>
class ProtocolCursor {
 public:
  using value_type = std::string_view;
  using difference_type = std::ptrdiff_t;
  using iterator_concept = std::forward_iterator_tag;
  using iterator_category = std::forward_iterator_tag;

  // Steps within the current list, then past exhausted lists.
  Derived& operator++() {
    Derived& self = static_cast<Derived&>(*this);
    self.StepInList();
    self.SkipExhausted();
    return self;
  }
  // Post-increment.
  Derived operator++(int) {
    Derived old = static_cast<const Derived&>(*this);
    ++*this;
    return old;
  }
  // At the end of the last list.
  friend bool operator==(const Derived& it, std::default_sentinel_t) {
    return ProtocolCursor::IsAtEnd(it);
  }

 private:
  // A member, so that Derived's friendship lets it reach a private AtEnd().
  static bool IsAtEnd(const Derived& it) { return it.AtEnd(); }
};

}  // namespace fairwire::poll::internal

#endif  // FAIRWIRE_POLL_INTERNAL_PROTOCOL_CURSOR_H_
