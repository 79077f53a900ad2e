// wire_schema_diff: the input is a scenario::SchemaCase (a small schema and a
// payload). The schema is built at run time into a DescriptorPool (for
// libprotobuf's DynamicMessage), into a fairwire::wire::Schema by the
// fairwire::protobuf adapter, and into the model's schema; the three decoders
// must agree on the payload. Under a fuzzing engine an input runs one
// comparison of the oracle, the one bit 5 of byte 0 names (a bit the schema
// case does not read; wire::oracle::Comparison: fairwire::wire against
// DynamicMessage, or the model against it), so that an execution decodes
// twice instead of three times (issue 12). Bits 6-7 of byte 0, which the
// schema case does not read either, choose the kernel level of fairwire's
// decode (wire::oracle::KernelChoiceOf). The replay driver runs both
// comparisons, and fairwire's at every other level the CPU has (check_all).
// The built schema is kept for the next input when that has the
// same schema (SchemaOf).
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/checks/wire_kernel_choice.h"
#include "fairwire/checks/wire_oracle.h"
#include "fairwire/checks/wire_schema_build.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_records.h"
#include "fairwire/scenarios/wire_schema_case.h"

namespace fairwire::fuzz {
namespace {

namespace pb = google::protobuf;
using wire::scenario::SchemaCase;

// A schema case's schema, built for the three decoders (or the reason it
// was rejected). Building it was two thirds of a check (perf, issue 12).
struct BuiltSchema {
  std::vector<std::uint8_t> key;  // the case's bytes without its payload
  pb::DescriptorPool pool;
  std::unique_ptr<pb::DynamicMessageFactory> factory;
  std::optional<wire::oracle::Subject> subject;  // nullopt: rejected
  std::string error;
};

// The schema of `c`, built once for a run of inputs that share it (a
// mutation of the payload alone keeps the schema). Building is a function
// of the schema's bytes, so the verdict on an input never depends on the
// inputs before it.
const BuiltSchema& SchemaOf(const SchemaCase& c) {
  static std::unique_ptr<BuiltSchema> last;
  SchemaCase schema_only = c;
  schema_only.payload.clear();
  std::vector<std::uint8_t> key = wire::scenario::EncodeSchemaCase(schema_only);
  if (last != nullptr && last->key == key) return *last;
  last.reset();  // the old subject and factory go before their pool
  auto built = std::make_unique<BuiltSchema>();
  built->key = std::move(key);
  const pb::FileDescriptor* file =
      wire::oracle::BuildSchemaCase(c, built->pool, &built->error);
  if (file != nullptr) {
    built->factory = std::make_unique<pb::DynamicMessageFactory>(&built->pool);
    built->subject =
        wire::oracle::MakeSubject(*file->message_type(0), *built->factory);
  }
  last = std::move(built);
  return *last;
}

// The bit of byte 0 that names the comparison a fuzzed input runs.
constexpr std::uint8_t kComparisonBit = 0x20;

unsigned ComparisonChoice(ByteSpan input) {
  return !input.empty() && (input[0] & kComparisonBit) != 0 ? 1u : 0u;
}

std::optional<std::string> Check(ByteSpan input) {
  const SchemaCase c = wire::scenario::DecodeSchemaCase(input);
  const BuiltSchema& built = SchemaOf(c);
  if (!built.subject) return "schema-rejected: " + built.error;
  return wire::oracle::AtKernelChoice(input, [&] {
    return wire::oracle::CheckComparison(
        *built.subject, c.payload,
        wire::oracle::ChooseComparison(*built.subject,
                                       ComparisonChoice(input)));
  });
}

// The fuzzing check first, so that a finding reproduces with its own text,
// then both comparisons, then fairwire's at every other kernel level.
std::optional<std::string> CheckAll(ByteSpan input) {
  if (auto violation = Check(input)) return violation;
  const SchemaCase c = wire::scenario::DecodeSchemaCase(input);
  const BuiltSchema& built = SchemaOf(c);
  if (!built.subject) return "schema-rejected: " + built.error;
  if (auto violation =
          wire::oracle::CheckAgreement(*built.subject, c.payload)) {
    return violation;
  }
  return wire::oracle::AtEveryOtherKernelLevel([&] {
    return wire::oracle::CheckComparison(*built.subject, c.payload,
                                         wire::oracle::Comparison::kFairwire);
  });
}

std::string Describe(ByteSpan input) {
  const SchemaCase c = wire::scenario::DecodeSchemaCase(input);
  pb::DescriptorPool pool;
  std::string error;
  const pb::FileDescriptor* file =
      wire::oracle::BuildSchemaCase(c, pool, &error);
  std::string out = wire::scenario::SchemaText(c);
  out += "comparison when fuzzed: ";
  out += ComparisonChoice(input) == 0 ? "fairwire" : "model";
  out += " (a replay runs both), " + wire::oracle::DescribeKernelChoice(input);
  out += "\npayload of " + std::to_string(c.payload.size()) + " bytes:\n";
  if (file == nullptr) return out + "  (schema rejected: " + error + ")\n";
  const wire::model::Schema model =
      wire::oracle::ModelSchemaFromDescriptor(*file->message_type(0));
  return out + wire::records::Describe(&model, 0, c.payload, 1);
}

// Simpler cases, each keeping the input's comparison bit and kernel choice.
std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  const std::uint8_t comparison =
      ComparisonChoice(input) != 0 ? kComparisonBit : 0;
  const unsigned choice = wire::oracle::KernelChoiceNumber(input);
  std::vector<Bytes> out;
  for (const SchemaCase& c : wire::scenario::SimplerSchemaCases(
           wire::scenario::DecodeSchemaCase(input))) {
    Bytes candidate = wire::scenario::EncodeSchemaCase(c);
    candidate[0] |= comparison;
    out.push_back(wire::oracle::WithKernelChoice(candidate, choice));
  }
  return out;
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "wire_schema_diff",
      "a schema and a payload from the input; the schema built at run time "
      "for libprotobuf (DescriptorPool, DynamicMessage) and for fairwire (the "
      "adapter); fairwire::wire, the model and libprotobuf agree (fuzzing: "
      "the comparison bit 5 of byte 0 names, at the kernel level bits 6-7 "
      "name; replay: both, fairwire's at every level)",
      &Check,
      &Describe,
      &ShrinkCandidates,
      &CheckAll};
  return spec;
}

}  // namespace fairwire::fuzz
