// wire_packed_unpacked: bit 0 of byte 0 picks the root (0: proto2 AllKinds,
// 1: proto3 AllKinds3), bits 1-5 one encoding (an encoding variant, or the
// payload as given), bits 6-7 the kernel level of fairwire's decodes
// (wire::oracle::KernelChoiceOf, which the case does not read), the rest is
// a payload whose accepted records make a typed message (scenario::WireCase).
// The check decodes the message in that encoding with fairwire and
// libprotobuf's DynamicMessage: both accept and re-serialise to the bytes
// the reference model makes of the message. One encoding per input under a
// fuzzing engine, not all fifteen (issue 12): each is reachable from byte 0.
// The replay driver checks every one (check_all), at every kernel level the
// CPU has, and so do the property suites for every generated case.
#include <string>
#include <vector>

#include "fairwire/checks/wire_checks.h"
#include "fairwire/checks/wire_kernel_choice.h"
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
  // Kept per thread and root: each input is decoded into the storage of
  // the last of its root (a case of the other root would shrink it;
  // model::KeptMessages). Its message is cleared after the check, so that
  // what one input's check allocates beyond that storage it also frees:
  // libFuzzer re-runs an input that seems to leak.
  thread_local WireCase cases[2];
  WireCase& c = cases[wire::scenario::RootOf(input)];
  wire::scenario::DecodeCase(wire::oracle::CaseSchemas(), input, c);
  auto violation = wire::oracle::AtKernelChoice(
      input, [&] { return wire::oracle::CheckCaseVariant(c); });
  wire::model::Clear(*wire::oracle::CaseSchemas()[c.root], 0, c.message);
  return violation;
}

// The fuzzing check first, so that a finding reproduces with its own text,
// then every variant, at the process's kernel level and at every other.
std::optional<std::string> CheckAll(ByteSpan input) {
  if (auto violation = Check(input)) return violation;
  const WireCase c = CaseOf(input);
  if (auto violation = wire::oracle::CheckCase(c)) return violation;
  return wire::oracle::AtEveryOtherKernelLevel(
      [&] { return wire::oracle::CheckCase(c); });
}

std::string Describe(ByteSpan input) {
  const WireCase c = CaseOf(input);
  const wire::model::Schema& schema = *wire::oracle::CaseSchemas()[c.root];
  const std::string encoding =
      c.as_given
          ? std::string("as given")
          : "variant " +
                std::string(wire::scenario::AllVariants()[c.variant].name);
  return "message " + schema.messages[0].name + ", " + encoding +
         " (when fuzzed; a replay checks all), " +
         wire::oracle::DescribeKernelChoice(input) + " (canonical form):\n" +
         wire::scenario::DescribeMessage(schema, c.message, 1) +
         "accepted input records:\n" +
         wire::records::Describe(&schema, 0, c.payload, 1);
}

// Simpler cases, each at the input's kernel choice.
std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  const unsigned choice = wire::oracle::KernelChoiceNumber(input);
  std::vector<Bytes> out =
      wire::scenario::SimplerCaseInputs(wire::oracle::CaseSchemas(), input);
  for (Bytes& b : out) b = wire::oracle::WithKernelChoice(b, choice);
  return out;
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "wire_packed_unpacked",
      "a typed message in the encoding byte 0 names (as given, packed, "
      "unpacked, chunks, interleaved, padded varints, ...) decodes to the "
      "same value in fairwire::wire and libprotobuf (the model gives the "
      "expected bytes; fuzzing: that one encoding at the kernel level bits "
      "6-7 name; replay: every encoding at every level)",
      &Check,
      &Describe,
      &ShrinkCandidates,
      &CheckAll};
  return spec;
}

}  // namespace fairwire::fuzz
