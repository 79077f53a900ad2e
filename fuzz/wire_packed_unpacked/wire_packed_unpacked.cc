// wire_packed_unpacked: bit 0 of byte 0 picks the root (0: proto2 AllKinds,
// 1: proto3 AllKinds3), the rest of byte 0 an encoding variant, the rest is a
// payload whose accepted records make a typed message (scenario::WireCase).
// The check decodes the input as given and the message written in that
// variant with fairwire and libprotobuf's DynamicMessage: both accept and
// re-serialise to the bytes the reference model makes of the message. One
// variant per input under a fuzzing engine, not all fourteen (issue 12):
// each is reachable from byte 0. The replay driver checks every variant
// (check_all), and so do the property suites for every generated case.
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

// The fuzzing check first, so that a finding reproduces with its own text,
// then every variant.
std::optional<std::string> CheckAll(ByteSpan input) {
  const WireCase c = CaseOf(input);
  if (auto violation = wire::oracle::CheckCaseVariant(c)) return violation;
  return wire::oracle::CheckCase(c);
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
      "the expected bytes; replay: every variant)",
      &Check,
      &Describe,
      &ShrinkCandidates,
      &CheckAll};
  return spec;
}

}  // namespace fairwire::fuzz
