// wire_decode_diff: the input's first byte picks one of the fixed schemas of
// properties/proto (bits 0-1: AllKinds, AllKinds3, Nested, Nested3) and one
// comparison of the oracle (bits 2-3, wire::oracle::Comparison: fairwire::wire
// against libprotobuf's DynamicMessage, the reference model against it,
// libprotobuf's generated code against it, or the typed DecodeInto against
// Decode, on the reason and offset of a rejection and, on accept, field by
// field); the rest is the payload. Under a fuzzing engine an input runs its
// one comparison: two decoders instead of five, four times the executions
// (issue 12), and a mutation of byte 0 moves a payload to another
// comparison. Bits 6-7 choose the kernel level of fairwire's decodes
// (wire::oracle::KernelChoiceOf), so that every level the CPU has is fuzzed,
// not only its best. The replay driver runs all four comparisons on every
// file (check_all, the oracle's CheckAgreement), and fairwire's two at every
// other level the CPU has, so a finding always reproduces there.
#include <algorithm>
#include <string>
#include <vector>

#include "fairwire/checks/wire_kernel_choice.h"
#include "fairwire/checks/wire_oracle.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_fixed_input.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::fuzz {
namespace {

using wire::scenario::PayloadOf;

using wire::oracle::Fixed;

using wire::oracle::Comparison;

const wire::oracle::Subject& SubjectOf(ByteSpan input) {
  const int which = input.empty() ? 0 : input[0] % wire::oracle::kFixedCount;
  return wire::oracle::FixedSubject(static_cast<Fixed>(which));
}

Comparison ComparisonOf(ByteSpan input) {
  const unsigned bits = input.empty() ? 0u : (input[0] >> 2) & 3u;
  return wire::oracle::ChooseComparison(SubjectOf(input), bits);
}

std::optional<std::string> Check(ByteSpan input) {
  return wire::oracle::AtKernelChoice(input, [&] {
    return wire::oracle::CheckComparison(SubjectOf(input), PayloadOf(input),
                                         ComparisonOf(input));
  });
}

// The fuzzing check first, so that a finding reproduces with its own text,
// then every comparison, then fairwire's two (Decode and the typed
// DecodeInto) at every other kernel level.
std::optional<std::string> CheckAll(ByteSpan input) {
  if (auto violation = Check(input)) return violation;
  const wire::oracle::Subject& subject = SubjectOf(input);
  const ByteSpan payload = PayloadOf(input);
  if (auto violation = wire::oracle::CheckAgreement(subject, payload)) {
    return violation;
  }
  return wire::oracle::AtEveryOtherKernelLevel(
      [&]() -> std::optional<std::string> {
        for (Comparison c : {Comparison::kFairwire, Comparison::kTyped}) {
          if (auto v = wire::oracle::CheckComparison(subject, payload, c)) {
            return v;
          }
        }
        return std::nullopt;
      });
}

std::string Describe(ByteSpan input) {
  const wire::oracle::Subject& s = SubjectOf(input);
  const ByteSpan payload = PayloadOf(input);
  return "schema " + s.name + ", comparison " +
         std::string(wire::oracle::ComparisonName(ComparisonOf(input))) +
         " (when fuzzed; a replay runs all), " +
         wire::oracle::DescribeKernelChoice(input) + ", payload of " +
         std::to_string(payload.size()) + " bytes:\n" +
         wire::records::Describe(&s.model, 0, payload, 1);
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "wire_decode_diff",
      "raw bytes against the fixed test schemas: fairwire::wire (Decode and "
      "the typed DecodeInto), the reference model and libprotobuf "
      "(DynamicMessage and generated code) agree (fuzzing: the one "
      "comparison byte 0 names, at the kernel level it names; replay: all, "
      "at every level)",
      &Check,
      &Describe,
      &wire::scenario::ShrinkFixedInput,
      &CheckAll};
  return spec;
}

}  // namespace fairwire::fuzz
