// The wire kit's differential target, compiled with a user's adapter
// (fairwire_add_decoder_kit): byte 0 picks one of the fixed types the adapter
// has (AllKinds, AllKinds3, Nested, Nested3, in this order, skipping those it
// has not: byte 0 modulo their number); the rest is the payload. For an
// adapter of all four types that is wire_decode_diff's input, whose corpus
// seeds this target. The decoder under test is compared with libprotobuf's
// DynamicMessage, which is checked against the reference model and generated
// code on every input (fairwire/checks/wire_adapter_compare.h). A divergence
// whose class the adapter's known-divergences file lists passes; any other
// fails, named by its class at its minimal input, so that a campaign groups
// its findings by class (kit_check.h; FAIRWIRE_KIT_REPORT_ONLY: printed
// instead, once per class).
#include <string>

#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_fixed_input.h"
#include "kit_check.h"

namespace fairwire::fuzz {
namespace {

using wire::scenario::PayloadOf;

const wire::oracle::Subject& SubjectOf(ByteSpan input) {
  const auto& subjects = kit::DecodedSubjects();
  const std::size_t which = input.empty() ? 0 : input[0] % subjects.size();
  return *subjects[which];
}

std::optional<std::string> Check(ByteSpan input) {
  if (auto v = kit::Unusable()) return v;
  return kit::CheckPayload(SubjectOf(input), PayloadOf(input));
}

std::string Describe(ByteSpan input) {
  if (kit::DecodedSubjects().empty()) {
    return "the adapter decodes none of the types\n";
  }
  return kit::DescribePayload(SubjectOf(input), PayloadOf(input));
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      FAIRWIRE_KIT_TARGET_NAME,
      "raw bytes against the fixed test schemas: the decoder under test "
      "against libprotobuf's DynamicMessage (itself checked against the "
      "reference model), with the adapter's declared differences masked and "
      "its known divergences listed",
      &Check, &Describe, &wire::scenario::ShrinkFixedInput};
  return spec;
}

}  // namespace fairwire::fuzz
