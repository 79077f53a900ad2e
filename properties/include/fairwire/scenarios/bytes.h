// The byte types every scenario, check and driver of the harness speaks:
// an owned byte string, and a view of one (a fuzz input, a wire payload).
#ifndef FAIRWIRE_SCENARIOS_BYTES_H_
#define FAIRWIRE_SCENARIOS_BYTES_H_

#include <cstdint>
#include <span>
#include <vector>

namespace fairwire {

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;

}  // namespace fairwire

#endif  // FAIRWIRE_SCENARIOS_BYTES_H_
