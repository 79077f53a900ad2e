// A bulk copy with 64-byte AVX-512 loads and stores, for packed fixed-width
// payloads. glibc's memmove takes `rep movsb` for copies of this size, which
// on this AMD CPU ran at half speed for some source/destination offsets
// (packed_fixed64 0.56x libprotobuf); plain vector stores do not depend on
// them.
#ifndef FAIRWIRE_WIRE_INTERNAL_COPY_AVX512_H_
#define FAIRWIRE_WIRE_INTERNAL_COPY_AVX512_H_

#include <cstddef>
#include <cstdint>

#include "fairwire/wire/internal/varint_avx512.h"

FAIRWIRE_AVX512_WARNINGS_PUSH

namespace fairwire::wire::internal {

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// Copies `size` bytes from src to dst (not overlapping); reads and writes
// nothing outside the two ranges (the tail by masked load and store).
[[FAIRWIRE_AVX512_TARGET]] inline void CopyBytesAvx512(void* dst,
                                                       const std::uint8_t* src,
                                                       std::size_t size) {
  auto* out = static_cast<std::uint8_t*>(dst);
  std::size_t i = 0;
  for (; size - i >= 256; i += 256) {
    const __m512i a = _mm512_loadu_si512(src + i);
    const __m512i b = _mm512_loadu_si512(src + i + 64);
    const __m512i c = _mm512_loadu_si512(src + i + 128);
    const __m512i d = _mm512_loadu_si512(src + i + 192);
    _mm512_storeu_si512(out + i, a);
    _mm512_storeu_si512(out + i + 64, b);
    _mm512_storeu_si512(out + i + 128, c);
    _mm512_storeu_si512(out + i + 192, d);
  }
  for (; size - i >= 64; i += 64) {
    _mm512_storeu_si512(out + i, _mm512_loadu_si512(src + i));
  }
  if (i != size) {
    const __mmask64 tail =
        _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(size - i));
    _mm512_mask_storeu_epi8(out + i, tail,
                            _mm512_maskz_loadu_epi8(tail, src + i));
  }
}
#endif

}  // namespace fairwire::wire::internal

FAIRWIRE_AVX512_WARNINGS_POP

#endif  // FAIRWIRE_WIRE_INTERNAL_COPY_AVX512_H_
