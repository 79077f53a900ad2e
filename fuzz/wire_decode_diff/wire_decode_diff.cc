// wire_decode_diff: the input's first byte picks one of the fixed schemas of
// properties/proto (modulo 4: AllKinds, AllKinds3, Nested, Nested3); the rest
// is the payload. fairwire::wire, the reference model, libprotobuf's
// DynamicMessage and its generated code must agree on accept/reject and on
// the canonical re-serialisation; the typed bindings (DecodeInto, see
// fairwire/checks/wire_typed_subjects.h) must agree with Decode on the reason
// and offset of a rejection and, on accept, field by field.
#include <algorithm>
#include <string>
#include <vector>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::fuzz {
namespace {

using wire::oracle::Fixed;

const wire::oracle::Subject& SubjectOf(ByteSpan input) {
  const int which = input.empty() ? 0 : input[0] % wire::oracle::kFixedCount;
  return wire::oracle::FixedSubject(static_cast<Fixed>(which));
}

ByteSpan PayloadOf(ByteSpan input) {
  return input.empty() ? input : input.subspan(1);
}

std::optional<std::string> Check(ByteSpan input) {
  return wire::oracle::CheckAgreement(SubjectOf(input), PayloadOf(input));
}

std::string Describe(ByteSpan input) {
  const wire::oracle::Subject& s = SubjectOf(input);
  const ByteSpan payload = PayloadOf(input);
  return "schema " + s.name + ", payload of " + std::to_string(payload.size()) +
         " bytes:\n" + wire::records::Describe(&s.model, 0, payload, 1);
}

Bytes WithPayload(ByteSpan input, const Bytes& payload) {
  Bytes out(payload.size() + 1);
  out[0] = input.empty() ? 0 : input[0];
  std::copy(payload.begin(), payload.end(), out.begin() + 1);
  return out;
}

// Simplest first: empty payload, each top-level record removed, the tail
// after the last whole record removed, halves, single bytes removed.
std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  std::vector<Bytes> out;
  const ByteSpan payload = PayloadOf(input);
  if (payload.empty()) return out;
  out.push_back(WithPayload(input, {}));
  std::size_t consumed = 0;
  const auto recs = wire::records::Split(payload, &consumed);
  if (consumed < payload.size() && consumed > 0) {
    out.push_back(WithPayload(
        input,
        Bytes(payload.begin(), payload.begin() + static_cast<long>(consumed))));
  }
  for (const auto& r : recs) {
    Bytes b(payload.begin(), payload.end());
    b.erase(b.begin() + static_cast<long>(r.begin),
            b.begin() + static_cast<long>(r.end));
    out.push_back(WithPayload(input, b));
  }
  const std::size_t half = payload.size() / 2;
  out.push_back(WithPayload(
      input,
      Bytes(payload.begin(), payload.begin() + static_cast<long>(half))));
  out.push_back(WithPayload(
      input, Bytes(payload.begin() + static_cast<long>(half), payload.end())));
  for (std::size_t i = 0; i < payload.size() && i < 256; ++i) {
    Bytes b(payload.begin(), payload.end());
    b.erase(b.begin() + static_cast<long>(i));
    out.push_back(WithPayload(input, b));
  }
  return out;
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "wire_decode_diff",
      "raw bytes against the fixed test schemas: fairwire::wire (Decode and "
      "the typed DecodeInto), the reference model and libprotobuf "
      "(DynamicMessage and generated code) agree",
      &Check, &Describe, &ShrinkCandidates};
  return spec;
}

}  // namespace fairwire::fuzz
