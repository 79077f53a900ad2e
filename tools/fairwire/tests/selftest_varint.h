// Varint and zigzag for the runner's self-test: a correct copy, and a
// deliberately broken one (an off-by-one that rejects 10-byte varints). The
// self-test builds one fuzz target against each and checks that the campaign
// runner finds, saves and shrinks the bug. Not part of the core.
#ifndef FAIRWIRE_CI_TESTS_RUNNER_SELFTEST_VARINT_H_
#define FAIRWIRE_CI_TESTS_RUNNER_SELFTEST_VARINT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace fairwire::selftest {

// A decoded varint and the number of bytes it took.
struct Varint {
  std::uint64_t value = 0;
  std::size_t length = 0;
};

// Appends `value` as a protobuf varint (1 to 10 bytes).
inline void EncodeVarint(std::uint64_t value, std::vector<std::uint8_t>& out) {
  while (value >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(value));
}

// Zigzag: small magnitudes, positive or negative, to small unsigned values.
inline std::uint64_t ZigZagEncode64(std::int64_t value) {
  return (static_cast<std::uint64_t>(value) << 1) ^
         static_cast<std::uint64_t>(value >> 63);
}

// The inverse of ZigZagEncode64.
inline std::int64_t ZigZagDecode64(std::uint64_t value) {
  return static_cast<std::int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

// Decodes one varint from the front of `input`: 1 to 10 bytes, bits past 64
// dropped. nullopt when the input ends inside the varint or it is longer.
// FAIRWIRE_SELFTEST_BROKEN selects the broken copy, which stops one byte
// early and so rejects every value of 2^63 or more.
inline std::optional<Varint> DecodeVarint(std::span<const std::uint8_t> input) {
#ifdef FAIRWIRE_SELFTEST_BROKEN
  constexpr std::size_t kMaxBytes = 9;  // the bug: should be 10
#else
  constexpr std::size_t kMaxBytes = 10;
#endif
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < input.size() && i < kMaxBytes; ++i) {
    value |= static_cast<std::uint64_t>(input[i] & 0x7f) << (7 * i);
    if ((input[i] & 0x80) == 0) return Varint{value, i + 1};
  }
  return std::nullopt;
}

}  // namespace fairwire::selftest

#endif  // FAIRWIRE_CI_TESTS_RUNNER_SELFTEST_VARINT_H_
