// The runner self-test's fuzz target: a list of int64 values (8 bytes each,
// little-endian; a short tail is zero-padded, so every byte string is a
// valid list), each sint64-encoded (zigzag, then varint) and decoded back.
// Property "varint-roundtrip": every value comes back unchanged.
#include <cinttypes>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/fuzz/target.h"
#include "selftest_varint.h"

namespace fairwire::selftest {
namespace {

using fuzz::Bytes;
using fuzz::ByteSpan;

constexpr std::size_t kValueBytes = 8;

std::vector<std::int64_t> DecodeScenario(ByteSpan input) {
  std::vector<std::int64_t> values;
  for (std::size_t at = 0; at < input.size(); at += kValueBytes) {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < kValueBytes && at + i < input.size(); ++i) {
      bits |= static_cast<std::uint64_t>(input[at + i]) << (8 * i);
    }
    values.push_back(static_cast<std::int64_t>(bits));
  }
  return values;
}

Bytes EncodeScenario(const std::vector<std::int64_t>& values) {
  Bytes out;
  for (const std::int64_t value : values) {
    const auto bits = static_cast<std::uint64_t>(value);
    for (std::size_t i = 0; i < kValueBytes; ++i) {
      out.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
    }
  }
  return out;
}

std::optional<std::string> Check(ByteSpan input) {
  for (const std::int64_t value : DecodeScenario(input)) {
    Bytes wire;
    EncodeVarint(ZigZagEncode64(value), wire);
    const std::optional<Varint> decoded = DecodeVarint(wire);
    if (!decoded || decoded->length != wire.size() ||
        ZigZagDecode64(decoded->value) != value) {
      char message[160];
      std::snprintf(message, sizeof message,
                    "varint-roundtrip: %" PRId64
                    " encodes to %zu bytes and does not decode back",
                    value, wire.size());
      return std::string(message);
    }
  }
  return std::nullopt;
}

std::string Describe(ByteSpan input) {
  const std::vector<std::int64_t> values = DecodeScenario(input);
  std::string out = "values: " + std::to_string(values.size()) + "\n";
  for (std::size_t i = 0; i < values.size(); ++i) {
    Bytes wire;
    EncodeVarint(ZigZagEncode64(values[i]), wire);
    out += "  [" + std::to_string(i) + "] " + std::to_string(values[i]) +
           " (sint64 varint, " + std::to_string(wire.size()) + " bytes)\n";
  }
  return out;
}

// Fewer values first, then each value's zigzag form made smaller: zero,
// halved, its lowest set bit cleared.
std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  const std::vector<std::int64_t> values = DecodeScenario(input);
  std::vector<Bytes> candidates;
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::vector<std::int64_t> fewer = values;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
    candidates.push_back(EncodeScenario(fewer));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint64_t zz = ZigZagEncode64(values[i]);
    for (const std::uint64_t simpler :
         {std::uint64_t{0}, zz >> 1, zz & (zz - 1)}) {
      if (zz == 0 || simpler == zz) continue;
      std::vector<std::int64_t> changed = values;
      changed[i] = ZigZagDecode64(simpler);
      candidates.push_back(EncodeScenario(changed));
    }
  }
  return candidates;
}

}  // namespace
}  // namespace fairwire::selftest

const fairwire::fuzz::TargetSpec& fairwire::fuzz::Target() {
  static const TargetSpec spec{
#ifdef FAIRWIRE_SELFTEST_BROKEN
      "runner_selftest",
#else
      "runner_selftest_fixed",
#endif
      "sint64 values survive zigzag+varint encode/decode (runner self-test)",
      &selftest::Check, &selftest::Describe, &selftest::ShrinkCandidates};
  return spec;
}
