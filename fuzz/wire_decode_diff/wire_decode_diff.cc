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
#include "fairwire/scenarios/wire_fixed_input.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::fuzz {
namespace {

using wire::scenario::PayloadOf;

using wire::oracle::Fixed;

const wire::oracle::Subject& SubjectOf(ByteSpan input) {
  const int which = input.empty() ? 0 : input[0] % wire::oracle::kFixedCount;
  return wire::oracle::FixedSubject(static_cast<Fixed>(which));
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

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "wire_decode_diff",
      "raw bytes against the fixed test schemas: fairwire::wire (Decode and "
      "the typed DecodeInto), the reference model and libprotobuf "
      "(DynamicMessage and generated code) agree",
      &Check, &Describe, &wire::scenario::ShrinkFixedInput};
  return spec;
}

}  // namespace fairwire::fuzz
