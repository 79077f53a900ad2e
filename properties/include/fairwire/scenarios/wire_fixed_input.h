// The fuzz input of the fixed-schema wire targets (wire_decode_diff and the
// wire kit's NAME_decode_diff): byte 0 picks the message type, the rest is
// the payload. Each target maps byte 0 to its own list of types.
#ifndef FAIRWIRE_SCENARIOS_WIRE_FIXED_INPUT_H_
#define FAIRWIRE_SCENARIOS_WIRE_FIXED_INPUT_H_

#include <vector>

#include "fairwire/scenarios/bytes.h"

namespace fairwire::wire::scenario {

// Everything after byte 0 (empty for an empty input).
ByteSpan PayloadOf(ByteSpan input);

// `payload` under `input`'s byte 0 (0 when `input` is empty).
Bytes WithPayload(ByteSpan input, ByteSpan payload);

// The input's scenario-level shrinks: its payload's
// (records::ShrinkPayload), each under the same byte 0.
std::vector<Bytes> ShrinkFixedInput(ByteSpan input);

}  // namespace fairwire::wire::scenario

#endif  // FAIRWIRE_SCENARIOS_WIRE_FIXED_INPUT_H_
