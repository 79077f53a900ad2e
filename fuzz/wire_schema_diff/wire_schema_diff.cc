// wire_schema_diff: the input is a scenario::SchemaCase (a small schema and a
// payload). The schema is built at run time into a DescriptorPool (for
// libprotobuf's DynamicMessage), into a fairwire::wire::Schema by the
// fairwire::protobuf adapter, and into the model's schema; the three decoders
// must agree on the payload.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>

#include <string>
#include <vector>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/checks/wire_schema_build.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_records.h"
#include "fairwire/scenarios/wire_schema_case.h"

namespace fairwire::fuzz {
namespace {

namespace pb = google::protobuf;
using wire::scenario::SchemaCase;

std::optional<std::string> Check(ByteSpan input) {
  const SchemaCase c = wire::scenario::DecodeSchemaCase(input);
  pb::DescriptorPool pool;
  std::string error;
  const pb::FileDescriptor* file =
      wire::oracle::BuildSchemaCase(c, pool, &error);
  if (file == nullptr) return "schema-rejected: " + error;
  pb::DynamicMessageFactory factory(&pool);
  const wire::oracle::Subject subject =
      wire::oracle::MakeSubject(*file->message_type(0), factory);
  return wire::oracle::CheckAgreement(subject, c.payload);
}

std::string Describe(ByteSpan input) {
  const SchemaCase c = wire::scenario::DecodeSchemaCase(input);
  pb::DescriptorPool pool;
  std::string error;
  const pb::FileDescriptor* file =
      wire::oracle::BuildSchemaCase(c, pool, &error);
  std::string out = wire::scenario::SchemaText(c);
  out += "payload of " + std::to_string(c.payload.size()) + " bytes:\n";
  if (file == nullptr) return out + "  (schema rejected: " + error + ")\n";
  const wire::model::Schema model =
      wire::oracle::ModelSchemaFromDescriptor(*file->message_type(0));
  return out + wire::records::Describe(&model, 0, c.payload, 1);
}

std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  std::vector<Bytes> out;
  for (const SchemaCase& c : wire::scenario::SimplerSchemaCases(
           wire::scenario::DecodeSchemaCase(input))) {
    out.push_back(wire::scenario::EncodeSchemaCase(c));
  }
  return out;
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "wire_schema_diff",
      "a schema and a payload from the input; the schema built at run time "
      "for libprotobuf (DescriptorPool, DynamicMessage) and for fairwire (the "
      "adapter); fairwire::wire, the model and libprotobuf agree",
      &Check, &Describe, &ShrinkCandidates};
  return spec;
}

}  // namespace fairwire::fuzz
