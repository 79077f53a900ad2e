// The consumer's own decoder, as a user of fairwire would bring one: it
// reads the repeated int64 fields 22 (r_int64) and 42 (p_int64) of the
// installed test type fairwire.test.AllKinds, packed or unpacked, skips
// every other record, and rejects malformed input. Written here, without
// fairwire's code, so that the fuzz target beside it has something of the
// consumer's to check.
#ifndef FAIRWIRE_CONSUMER_INT64_LIST_H_
#define FAIRWIRE_CONSUMER_INT64_LIST_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace consumer {

struct Int64Lists {
  std::vector<std::int64_t> r_int64;  // field 22
  std::vector<std::int64_t> p_int64;  // field 42
};

// nullopt when the bytes are not a valid message.
std::optional<Int64Lists> DecodeInt64Lists(std::span<const std::uint8_t> bytes);

}  // namespace consumer

#endif  // FAIRWIRE_CONSUMER_INT64_LIST_H_
