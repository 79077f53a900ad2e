// The fixed-schema wire targets' input: byte 0, then the payload.
#include "fairwire/scenarios/wire_fixed_input.h"

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::scenario {

ByteSpan PayloadOf(ByteSpan input) {
  return input.empty() ? input : input.subspan(1);
}

Bytes WithPayload(ByteSpan input, ByteSpan payload) {
  Bytes out;
  out.reserve(payload.size() + 1);
  out.push_back(input.empty() ? 0 : input[0]);
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

std::vector<Bytes> ShrinkFixedInput(ByteSpan input) {
  std::vector<Bytes> out;
  for (const Bytes& p : records::ShrinkPayload(PayloadOf(input))) {
    out.push_back(WithPayload(input, p));
  }
  return out;
}

}  // namespace fairwire::wire::scenario
