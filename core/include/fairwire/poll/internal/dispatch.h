// Dispatch<N>(i, f): calls f(std::integral_constant<size_t, i>) for a
// run-time index i < N through one switch statement, which compilers lower to
// a jump table. This is how the composites reach child i of a tuple without
// recursion over nested pairs and without an indirect call.
#ifndef FAIRWIRE_POLL_INTERNAL_DISPATCH_H_
#define FAIRWIRE_POLL_INTERNAL_DISPATCH_H_

#include <cstddef>
#include <type_traits>
#include <utility>

// Marks a composite's Poll so that optimizing builds inline every child's
// Poll into it (and what those inline), the way a derive macro writes one
// function for the whole composite: no call per child, and a child's result
// never leaves registers. Debug builds keep their ordinary calls.
#if defined(__OPTIMIZE__) && (defined(__GNUC__) || defined(__clang__))
#define FAIRWIRE_POLL_FLATTEN [[gnu::flatten]]
#else
#define FAIRWIRE_POLL_FLATTEN
#endif

namespace fairwire::poll {

// The most children a compile-time composite (Select, ProtocolChain) takes.
inline constexpr std::size_t kMaxChildren = 64;

namespace internal {

// Calls f(std::integral_constant<std::size_t, i>{}) and returns its result.
// Requires 1 <= N <= kMaxChildren and i < N; every instantiation of f must
// return the same type.
template <std::size_t N, class F>
constexpr decltype(auto) Dispatch(std::size_t i, F&& f) {
  static_assert(N >= 1 && N <= kMaxChildren,
                "fairwire::poll composites take 1 to kMaxChildren children");
  switch (i) {
// One case per index; indexes at or past N are never taken.
#define FAIRWIRE_POLL_DISPATCH_CASE(k)                                       \
  case k:                                                                    \
    if constexpr ((k) < N) {                                                 \
      return std::forward<F>(f)(std::integral_constant<std::size_t, (k)>{}); \
    }                                                                        \
    break;
    FAIRWIRE_POLL_DISPATCH_CASE(0)
    FAIRWIRE_POLL_DISPATCH_CASE(1)
    FAIRWIRE_POLL_DISPATCH_CASE(2)
    FAIRWIRE_POLL_DISPATCH_CASE(3)
    FAIRWIRE_POLL_DISPATCH_CASE(4)
    FAIRWIRE_POLL_DISPATCH_CASE(5)
    FAIRWIRE_POLL_DISPATCH_CASE(6)
    FAIRWIRE_POLL_DISPATCH_CASE(7)
    FAIRWIRE_POLL_DISPATCH_CASE(8)
    FAIRWIRE_POLL_DISPATCH_CASE(9)
    FAIRWIRE_POLL_DISPATCH_CASE(10)
    FAIRWIRE_POLL_DISPATCH_CASE(11)
    FAIRWIRE_POLL_DISPATCH_CASE(12)
    FAIRWIRE_POLL_DISPATCH_CASE(13)
    FAIRWIRE_POLL_DISPATCH_CASE(14)
    FAIRWIRE_POLL_DISPATCH_CASE(15)
    FAIRWIRE_POLL_DISPATCH_CASE(16)
    FAIRWIRE_POLL_DISPATCH_CASE(17)
    FAIRWIRE_POLL_DISPATCH_CASE(18)
    FAIRWIRE_POLL_DISPATCH_CASE(19)
    FAIRWIRE_POLL_DISPATCH_CASE(20)
    FAIRWIRE_POLL_DISPATCH_CASE(21)
    FAIRWIRE_POLL_DISPATCH_CASE(22)
    FAIRWIRE_POLL_DISPATCH_CASE(23)
    FAIRWIRE_POLL_DISPATCH_CASE(24)
    FAIRWIRE_POLL_DISPATCH_CASE(25)
    FAIRWIRE_POLL_DISPATCH_CASE(26)
    FAIRWIRE_POLL_DISPATCH_CASE(27)
    FAIRWIRE_POLL_DISPATCH_CASE(28)
    FAIRWIRE_POLL_DISPATCH_CASE(29)
    FAIRWIRE_POLL_DISPATCH_CASE(30)
    FAIRWIRE_POLL_DISPATCH_CASE(31)
    FAIRWIRE_POLL_DISPATCH_CASE(32)
    FAIRWIRE_POLL_DISPATCH_CASE(33)
    FAIRWIRE_POLL_DISPATCH_CASE(34)
    FAIRWIRE_POLL_DISPATCH_CASE(35)
    FAIRWIRE_POLL_DISPATCH_CASE(36)
    FAIRWIRE_POLL_DISPATCH_CASE(37)
    FAIRWIRE_POLL_DISPATCH_CASE(38)
    FAIRWIRE_POLL_DISPATCH_CASE(39)
    FAIRWIRE_POLL_DISPATCH_CASE(40)
    FAIRWIRE_POLL_DISPATCH_CASE(41)
    FAIRWIRE_POLL_DISPATCH_CASE(42)
    FAIRWIRE_POLL_DISPATCH_CASE(43)
    FAIRWIRE_POLL_DISPATCH_CASE(44)
    FAIRWIRE_POLL_DISPATCH_CASE(45)
    FAIRWIRE_POLL_DISPATCH_CASE(46)
    FAIRWIRE_POLL_DISPATCH_CASE(47)
    FAIRWIRE_POLL_DISPATCH_CASE(48)
    FAIRWIRE_POLL_DISPATCH_CASE(49)
    FAIRWIRE_POLL_DISPATCH_CASE(50)
    FAIRWIRE_POLL_DISPATCH_CASE(51)
    FAIRWIRE_POLL_DISPATCH_CASE(52)
    FAIRWIRE_POLL_DISPATCH_CASE(53)
    FAIRWIRE_POLL_DISPATCH_CASE(54)
    FAIRWIRE_POLL_DISPATCH_CASE(55)
    FAIRWIRE_POLL_DISPATCH_CASE(56)
    FAIRWIRE_POLL_DISPATCH_CASE(57)
    FAIRWIRE_POLL_DISPATCH_CASE(58)
    FAIRWIRE_POLL_DISPATCH_CASE(59)
    FAIRWIRE_POLL_DISPATCH_CASE(60)
    FAIRWIRE_POLL_DISPATCH_CASE(61)
    FAIRWIRE_POLL_DISPATCH_CASE(62)
    FAIRWIRE_POLL_DISPATCH_CASE(63)
#undef FAIRWIRE_POLL_DISPATCH_CASE
    default:
      break;
  }
  __builtin_unreachable();
}

}  // namespace internal
}  // namespace fairwire::poll

#endif  // FAIRWIRE_POLL_INTERNAL_DISPATCH_H_
