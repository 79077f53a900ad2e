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
#include <vector>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/varint_avx512.h"

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

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// Appends the values of [p, end) to out in one pass, with the element copy
// that vector::insert inlines here compiled to 64-byte loads and stores.
// (Zero-filling by resize() and then copying took two passes, and memmove,
// from a pointer cast, chose `rep movsb`, which ran at half speed on this
// AMD CPU for some source/destination offsets: packed_fixed64 0.56x.)
template <typename T>
[[FAIRWIRE_AVX512_TARGET, gnu::flatten, gnu::noinline]] void
AppendUnalignedAvx512(std::vector<T>& out, const std::uint8_t* p,
                      const std::uint8_t* end) {
  out.insert(out.end(), UnalignedIterator<T>{p}, UnalignedIterator<T>{end});
}
#endif

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
// The same append with 32-byte loads and stores, for the avx2 level.
template <typename T>
[[FAIRWIRE_AVX2_TARGET, gnu::flatten, gnu::noinline]] void AppendUnalignedAvx2(
    std::vector<T>& out, const std::uint8_t* p, const std::uint8_t* end) {
  out.insert(out.end(), UnalignedIterator<T>{p}, UnalignedIterator<T>{end});
}
#endif

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
    if (size >= 1024) {
      [[maybe_unused]] const KernelLevel level = ActiveKernelLevel();
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
      if (level == KernelLevel::kAvx512) {
        AppendUnalignedAvx512(out, p, end);
        return end;
      }
#endif
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
      if (level == KernelLevel::kAvx2) {
        AppendUnalignedAvx2(out, p, end);
        return end;
      }
#endif
    }
    // Appended without zero-filling first: one pass over the payload.
    out.insert(out.end(), UnalignedIterator<T>{p}, UnalignedIterator<T>{end});
  } else {
    const std::size_t count = size / kWidth;
    out.reserve(out.size() + count);
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t raw =
          kWidth == 4 ? LoadFixed32(p + 4 * i) : LoadFixed64(p + 8 * i);
      out.push_back(static_cast<T>(KindTraits<K>::Convert(raw)));
    }
  }
  return end;
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_PACKED_FIXED_H_
