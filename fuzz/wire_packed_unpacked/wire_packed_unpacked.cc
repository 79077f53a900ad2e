// wire_packed_unpacked: bit 0 of byte 0 picks the root (0: proto2 AllKinds,
// 1: proto3 AllKinds3), the rest of byte 0 an encoding variant, the rest is a
// payload whose accepted records make a typed message (scenario::WireCase).
// The check decodes the input as given and the message written in that
// variant with fairwire and libprotobuf's DynamicMessage: both accept and
// re-serialise to the bytes the reference model makes of the message. One
// variant per input, not all fourteen (issue 12): each is reachable from
// byte 0, and the property suites check every variant of every case.
#include <string>
#include <vector>

#include "fairwire/checks/wire_checks.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_case.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::fuzz {
namespace {

using wire::scenario::WireCase;

WireCase CaseOf(ByteSpan input) {
  return wire::scenario::DecodeCase(wire::oracle::CaseSchemas(), input);
}

std::optional<std::string> Check(ByteSpan input) {
  return wire::oracle::CheckCaseVariant(CaseOf(input));
}

std::string Describe(ByteSpan input) {
  const WireCase c = CaseOf(input);
  const wire::model::Schema& schema = *wire::oracle::CaseSchemas()[c.root];
  return "message " + schema.messages[0].name + ", variant " +
         wire::scenario::AllVariants()[c.variant].name +
         " (canonical form):\n" +
         wire::scenario::DescribeMessage(schema, c.message, 1) +
         "accepted input records:\n" +
         wire::records::Describe(&schema, 0, c.payload, 1);
}

std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  return wire::scenario::SimplerCaseInputs(wire::oracle::CaseSchemas(), input);
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "wire_packed_unpacked",
      "a typed message as given and in the encoding variant byte 0 names "
      "(packed, unpacked, chunks, interleaved, padded varints, ...) decodes "
      "to the same value in fairwire::wire and libprotobuf (the model gives "
      "the expected bytes)",
      &Check, &Describe, &ShrinkCandidates};
  return spec;
}

}  // namespace fairwire::fuzz
