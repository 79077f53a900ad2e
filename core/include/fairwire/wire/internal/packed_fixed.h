// Packed payloads of the fixed-width kinds (fixed32/64, sfixed32/64, float,
// double): appended in bulk, little-endian hosts copying the bytes as they
// are.
#ifndef FAIRWIRE_WIRE_INTERNAL_PACKED_FIXED_H_
#define FAIRWIRE_WIRE_INTERNAL_PACKED_FIXED_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>
#include <vector>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire::internal {

// A random-access iterator over unaligned little-endian T values in a byte
// buffer, so that vector::insert appends them in one pass, without
// zero-filling first (random access: insert sizes the range in O(1)).
template <typename T>
struct UnalignedIterator {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T*;
  using reference = T;

  const std::uint8_t* p = nullptr;

  T operator*() const {
    T value;
    std::memcpy(&value, p, sizeof(T));
    return value;
  }
  T operator[](difference_type i) const { return *(*this + i); }
  UnalignedIterator& operator++() {
    p += sizeof(T);
    return *this;
  }
  UnalignedIterator operator++(int) {
    UnalignedIterator old = *this;
    p += sizeof(T);
    return old;
  }
  UnalignedIterator& operator--() {
    p -= sizeof(T);
    return *this;
  }
  UnalignedIterator operator--(int) {
    UnalignedIterator old = *this;
    p -= sizeof(T);
    return old;
  }
  UnalignedIterator& operator+=(difference_type n) {
    p += n * static_cast<difference_type>(sizeof(T));
    return *this;
  }
  UnalignedIterator& operator-=(difference_type n) {
    p -= n * static_cast<difference_type>(sizeof(T));
    return *this;
  }
  friend UnalignedIterator operator+(UnalignedIterator it, difference_type n) {
    return it += n;
  }
  friend UnalignedIterator operator+(difference_type n, UnalignedIterator it) {
    return it += n;
  }
  friend UnalignedIterator operator-(UnalignedIterator it, difference_type n) {
    return it -= n;
  }
  friend difference_type operator-(const UnalignedIterator& a,
                                   const UnalignedIterator& b) {
    return (a.p - b.p) / static_cast<difference_type>(sizeof(T));
  }
  bool operator==(const UnalignedIterator&) const = default;
  auto operator<=>(const UnalignedIterator&) const = default;
};

// Payloads of at least this many bytes are appended by AppendByMemmove.
inline constexpr std::size_t kMemmoveAppendBytes = 1024;

// Appends the little-endian values of [p, end), at least two whole T, to
// out in one pass, by the C library's memmove, as libprotobuf's memcpy
// does: at every kernel level, since the C library picks its own copy for
// the CPU. (An element loop ran at 0.76x of libprotobuf's memcpy with
// 64-byte moves and 0.66x with 32-byte ones on an AMD Zen 5 class CPU;
// resize-and-memcpy, two passes, at 0.55x.) The range goes to insert as T
// pointers that may be misaligned: they are never read as T, only copied
// from by memmove (a range of two or more trivially copyable values).
template <typename T>
[[gnu::noinline]] void AppendByMemmove(std::vector<T>& out,
                                       const std::uint8_t* p,
                                       const std::uint8_t* end) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.insert(out.end(), static_cast<const T*>(static_cast<const void*>(p)),
             static_cast<const T*>(static_cast<const void*>(end)));
}

// Appends the values of kind K in [p, end) (a whole number of them) one at
// a time, read as little-endian words on any host: the path of a big-endian
// host, or of a T wider or narrower than the wire's (tested on every host,
// against the bulk append).
template <FieldKind K, typename T>
void AppendFixedElements(std::vector<T>& out, const std::uint8_t* p,
                         const std::uint8_t* end) {
  constexpr std::size_t kWidth = FixedWidth(K);
  const std::size_t count = static_cast<std::size_t>(end - p) / kWidth;
  out.reserve(out.size() + count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t raw =
        kWidth == 4 ? LoadFixed32(p + 4 * i) : LoadFixed64(p + 8 * i);
    out.push_back(static_cast<T>(KindTraits<K>::Convert(raw)));
  }
}

// Decodes the packed payload [p, end) of a fixed-width kind K into out.
// Errors: kPackedSizeNotMultiple at `length_at`.
// Kept out of line: inlined into the record loop, g++ 12 turns the append
// into a 16-byte SSE loop instead of a call to memmove (2x slower here).
template <FieldKind K, typename T>
[[gnu::noinline]] const std::uint8_t* ParsePackedFixed(
    ParseContext& ctx, const std::uint8_t* length_at, const std::uint8_t* p,
    const std::uint8_t* end, std::vector<T>& out) {
  constexpr std::size_t kWidth = FixedWidth(K);
  const auto size = static_cast<std::size_t>(end - p);
  if (size % kWidth != 0) {
    return ctx.Fail(DecodeError::kPackedSizeNotMultiple, length_at);
  }
  if constexpr (std::endian::native == std::endian::little &&
                sizeof(T) == kWidth) {
    if (size >= kMemmoveAppendBytes) {
      AppendByMemmove(out, p, end);
      return end;
    }
    // Appended without zero-filling first: one pass over the payload.
    out.insert(out.end(), UnalignedIterator<T>{p}, UnalignedIterator<T>{end});
  } else {
    AppendFixedElements<K>(out, p, end);
  }
  return end;
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_PACKED_FIXED_H_
