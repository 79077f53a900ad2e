#include "fairwire/checks/wire_oracle.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/stubs/logging.h>

#include <map>
#include <utility>
#include <vector>

#include "fairwire/checks/wire_typed_subjects.h"
#include "fairwire/models/wire_kept_messages.h"
#include "fairwire/models/wire_model.h"
#include "fairwire/protobuf/schema_from_descriptor.h"
#include "fairwire/scenarios/wire_records.h"
#include "fairwire/wire/decoder.h"
#include "fairwire/wire/message.h"
#include "fairwire/wire/serialize.h"
#include "fairwire_test.pb.h"
#include "fairwire_test3.pb.h"

namespace fairwire::wire::oracle {
namespace {

namespace pb = google::protobuf;

model::Kind KindOf(pb::FieldDescriptor::Type type) {
  switch (type) {
    case pb::FieldDescriptor::TYPE_INT32:
      return model::Kind::kInt32;
    case pb::FieldDescriptor::TYPE_INT64:
      return model::Kind::kInt64;
    case pb::FieldDescriptor::TYPE_UINT32:
      return model::Kind::kUint32;
    case pb::FieldDescriptor::TYPE_UINT64:
      return model::Kind::kUint64;
    case pb::FieldDescriptor::TYPE_SINT32:
      return model::Kind::kSint32;
    case pb::FieldDescriptor::TYPE_SINT64:
      return model::Kind::kSint64;
    case pb::FieldDescriptor::TYPE_BOOL:
      return model::Kind::kBool;
    case pb::FieldDescriptor::TYPE_ENUM:
      return model::Kind::kEnum;
    case pb::FieldDescriptor::TYPE_FIXED32:
      return model::Kind::kFixed32;
    case pb::FieldDescriptor::TYPE_FIXED64:
      return model::Kind::kFixed64;
    case pb::FieldDescriptor::TYPE_SFIXED32:
      return model::Kind::kSfixed32;
    case pb::FieldDescriptor::TYPE_SFIXED64:
      return model::Kind::kSfixed64;
    case pb::FieldDescriptor::TYPE_FLOAT:
      return model::Kind::kFloat;
    case pb::FieldDescriptor::TYPE_DOUBLE:
      return model::Kind::kDouble;
    case pb::FieldDescriptor::TYPE_STRING:
      return model::Kind::kString;
    case pb::FieldDescriptor::TYPE_BYTES:
      return model::Kind::kBytes;
    default:
      return model::Kind::kMessage;  // message (groups are not in our schemas)
  }
}

std::string Bytes(const std::string& s) {
  return records::Hex(
      ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()), 48);
}

std::string Records(const model::Schema& schema, const std::string& s) {
  return records::Describe(
      &schema, 0,
      ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()), 2);
}

}  // namespace

void SilenceLibprotobufLogs() {
  static const bool silenced = [] {
    pb::SetLogHandler(nullptr);
    return true;
  }();
  (void)silenced;
}

Verdict DecodeWithLibprotobuf(const pb::Message& prototype, ByteSpan input) {
  SilenceLibprotobufLogs();
  std::unique_ptr<pb::Message> m(prototype.New());
  Verdict out;
  out.ok =
      m->ParsePartialFromArray(input.data(), static_cast<int>(input.size()));
  if (out.ok) {
    out.canonical = m->SerializePartialAsString();
  } else {
    out.reason = "rejected";
  }
  return out;
}

Verdict DecodeWithModel(const model::Schema& schema, ByteSpan input) {
  // Kept per thread and schema, its vectors' memory reused (model::Clear),
  // and cleared before returning: what a call allocates beyond that memory
  // it frees, so libFuzzer does not re-run inputs for seeming leaks.
  thread_local model::KeptMessages kept;
  model::Message& m = kept.Cleared(schema, 0);
  const model::Status st = model::Decode(schema, 0, input, m);
  Verdict out;
  out.ok = st.ok;
  if (st.ok) {
    out.canonical = model::Serialize(schema, m);
  } else {
    out.reason = st.reason + " at byte " + std::to_string(st.offset);
  }
  model::Clear(schema, 0, m);
  return out;
}

Verdict DecodeWithFairwire(const wire::Schema& schema, ByteSpan input) {
  Verdict out;
  wire::Message m(schema, 0);
  const wire::DecodeStatus st = wire::Decode(input, m);
  out.ok = st.ok();
  if (out.ok) {
    out.canonical = wire::Serialize(m);
  } else {
    out.reason = wire::ToString(st);
  }
  return out;
}

model::Schema ModelSchemaFromDescriptor(const pb::Descriptor& root) {
  model::Schema schema;
  std::map<const pb::Descriptor*, int> message_index;
  std::map<std::pair<const pb::EnumDescriptor*, bool>, int> enum_index;
  std::vector<const pb::Descriptor*> queue{&root};
  message_index[&root] = 0;
  schema.messages.emplace_back();
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const pb::Descriptor* d = queue[q];
    model::MessageType type;
    type.name = d->full_name();
    for (int i = 0; i < d->field_count(); ++i) {
      const pb::FieldDescriptor* fd = d->field(i);
      model::Field f;
      f.number = static_cast<std::uint32_t>(fd->number());
      f.name = fd->name();
      f.kind = KindOf(fd->type());
      f.repeated = fd->is_repeated();
      f.packed = fd->is_packed();
      const bool proto3 =
          fd->file()->syntax() == pb::FileDescriptor::SYNTAX_PROTO3;
      f.check_utf8 = proto3 && f.kind == model::Kind::kString;
      f.has_presence = fd->has_presence();
      if (f.kind == model::Kind::kEnum) {
        const auto key = std::make_pair(fd->enum_type(), !proto3);
        auto it = enum_index.find(key);
        if (it == enum_index.end()) {
          model::EnumType e;
          e.name = fd->enum_type()->full_name();
          e.closed = !proto3;
          for (int v = 0; v < fd->enum_type()->value_count(); ++v) {
            e.values.push_back(fd->enum_type()->value(v)->number());
            e.value_names.push_back(fd->enum_type()->value(v)->name());
          }
          it = enum_index.emplace(key, static_cast<int>(schema.enums.size()))
                   .first;
          schema.enums.push_back(std::move(e));
        }
        f.enum_index = it->second;
      }
      if (f.kind == model::Kind::kMessage) {
        auto it = message_index.find(fd->message_type());
        if (it == message_index.end()) {
          it = message_index
                   .emplace(fd->message_type(), static_cast<int>(queue.size()))
                   .first;
          queue.push_back(fd->message_type());
          schema.messages.emplace_back();
        }
        f.message_index = it->second;
      }
      type.fields.push_back(std::move(f));
    }
    schema.messages[q] = std::move(type);
  }
  return schema;
}

Subject MakeSubject(const pb::Descriptor& root, pb::MessageFactory& factory) {
  Subject s;
  s.name = root.full_name();
  s.model = ModelSchemaFromDescriptor(root);
  std::string error;
  std::int32_t root_index = 0;
  s.fairwire =
      fairwire::protobuf::SchemaFromDescriptor(root, &root_index, &error);
  s.adapter_error = error;
  s.dynamic = factory.GetPrototype(&root);
  return s;
}

std::optional<std::string> Compare(std::string_view a_name, const Verdict& a,
                                   std::string_view b_name, const Verdict& b,
                                   const model::Schema& schema) {
  std::string head(a_name);
  head += "-vs-";
  head += b_name;
  if (a.ok != b.ok) {
    return head + "-accept: " + std::string(a_name) +
           (a.ok ? " accepts" : " rejects (" + a.reason + ")") + ", " +
           std::string(b_name) +
           (b.ok ? " accepts" : " rejects (" + b.reason + ")") +
           (a.ok ? "\n  " + std::string(a_name) + " re-serialises to " +
                       Bytes(a.canonical)
                 : "") +
           (b.ok ? "\n  " + std::string(b_name) + " re-serialises to " +
                       Bytes(b.canonical)
                 : "");
  }
  if (!a.ok || a.canonical == b.canonical) return std::nullopt;
  std::size_t at = 0;
  while (at < a.canonical.size() && at < b.canonical.size() &&
         a.canonical[at] == b.canonical[at]) {
    ++at;
  }
  return head + "-bytes: canonical re-serialisations differ from byte " +
         std::to_string(at) + "\n  " + std::string(a_name) + ": " +
         Bytes(a.canonical) + "\n" + Records(schema, a.canonical) + "  " +
         std::string(b_name) + ": " + Bytes(b.canonical) + "\n" +
         Records(schema, b.canonical);
}

std::string TruncateEnumUnknowns(const model::Schema& schema,
                                 const std::string& canonical) {
  thread_local model::KeptMessages kept;  // as in DecodeWithModel
  model::Message& m = kept.Cleared(schema, 0);
  const auto* data = reinterpret_cast<const std::uint8_t*>(canonical.data());
  const bool decoded =
      model::Decode(schema, 0, ByteSpan(data, canonical.size()), m).ok;
  if (decoded) model::TruncateClosedEnumUnknowns(schema, m);
  std::string out = decoded ? model::Serialize(schema, m) : canonical;
  model::Clear(schema, 0, m);
  return out;
}

Verdicts DecodeWithEach(const Subject& subject, ByteSpan input) {
  Verdicts out;
  out.dynamic = DecodeWithLibprotobuf(*subject.dynamic, input);
  out.model = DecodeWithModel(subject.model, input);
  if (subject.fairwire) {
    out.fairwire = DecodeWithFairwire(*subject.fairwire, input);
  }
  if (subject.generated != nullptr) {
    out.generated = DecodeWithLibprotobuf(*subject.generated, input);
  }
  return out;
}

namespace {

std::string AdapterRefused(const Subject& subject) {
  return "adapter-refused: " + subject.name + ": " + subject.adapter_error;
}

std::string NoGeneratedVerdict(const Subject& subject) {
  return "verdict-missing: " + subject.name +
         ": no generated-code verdict although the subject has generated code";
}

std::string NoTypedCheck(const Subject& subject) {
  return "verdict-missing: " + subject.name +
         ": no typed check although the subject is a fixed one";
}

}  // namespace

// Equal verdicts need no truncation: it is a model decode and
// re-serialisation of each side, and was a fifth of every wire_decode_diff
// execution when it ran on every input.
std::optional<std::string> CompareGenerated(const Subject& subject,
                                            const Verdict& generated,
                                            const Verdict& dynamic) {
  if (generated.ok == dynamic.ok && generated.canonical == dynamic.canonical) {
    return std::nullopt;
  }
  Verdict gen = generated;
  Verdict dyn = dynamic;
  if (gen.ok) {
    gen.canonical = TruncateEnumUnknowns(subject.model, gen.canonical);
  }
  if (dyn.ok) {
    dyn.canonical = TruncateEnumUnknowns(subject.model, dyn.canonical);
  }
  return Compare("generated", gen, "libprotobuf", dyn, subject.model);
}

std::optional<std::string> FindDisagreement(const Subject& subject,
                                            const Verdicts& verdicts) {
  if (!subject.fairwire) return AdapterRefused(subject);
  if (!verdicts.fairwire) {
    return "verdict-missing: " + subject.name +
           ": no fairwire verdict although the subject has a schema";
  }
  if (subject.generated != nullptr && !verdicts.generated) {
    return NoGeneratedVerdict(subject);
  }
  if (auto v = Compare("fairwire", *verdicts.fairwire, "libprotobuf",
                       verdicts.dynamic, subject.model)) {
    return v;
  }
  if (auto v = Compare("model", verdicts.model, "libprotobuf", verdicts.dynamic,
                       subject.model)) {
    return v;
  }
  if (verdicts.generated) {
    return CompareGenerated(subject, *verdicts.generated, verdicts.dynamic);
  }
  return std::nullopt;
}

std::string_view ComparisonName(Comparison c) {
  switch (c) {
    case Comparison::kFairwire:
      return "fairwire";
    case Comparison::kModel:
      return "model";
    case Comparison::kGenerated:
      return "generated";
    case Comparison::kTyped:
      return "typed";
  }
  return "?";
}

std::size_t ComparisonsOf(const Subject& subject,
                          Comparison (&out)[kComparisonCount]) {
  std::size_t n = 0;
  out[n++] = Comparison::kFairwire;
  out[n++] = Comparison::kModel;
  if (subject.generated != nullptr) out[n++] = Comparison::kGenerated;
  if (subject.fixed) out[n++] = Comparison::kTyped;
  return n;
}

Comparison ChooseComparison(const Subject& subject, unsigned choice) {
  Comparison has[kComparisonCount];
  const std::size_t n = ComparisonsOf(subject, has);
  return has[choice % n];
}

std::optional<std::string> CheckComparison(const Subject& subject,
                                           ByteSpan input, Comparison which) {
  switch (which) {
    case Comparison::kFairwire:
      if (!subject.fairwire) return AdapterRefused(subject);
      return Compare("fairwire", DecodeWithFairwire(*subject.fairwire, input),
                     "libprotobuf",
                     DecodeWithLibprotobuf(*subject.dynamic, input),
                     subject.model);
    case Comparison::kModel:
      return Compare(
          "model", DecodeWithModel(subject.model, input), "libprotobuf",
          DecodeWithLibprotobuf(*subject.dynamic, input), subject.model);
    case Comparison::kGenerated:
      if (subject.generated == nullptr) return NoGeneratedVerdict(subject);
      return CompareGenerated(subject,
                              DecodeWithLibprotobuf(*subject.generated, input),
                              DecodeWithLibprotobuf(*subject.dynamic, input));
    case Comparison::kTyped:
      if (!subject.fixed || subject.typed_check == nullptr) {
        return NoTypedCheck(subject);
      }
      return subject.typed_check(*subject.fixed, input);
  }
  return "verdict-missing: " + subject.name + ": unknown comparison";
}

std::optional<std::string> CheckAgreement(const Subject& subject,
                                          ByteSpan input) {
  if (auto v = FindDisagreement(subject, DecodeWithEach(subject, input))) {
    return v;
  }
  if (!subject.fixed) return std::nullopt;
  if (subject.typed_check == nullptr) return NoTypedCheck(subject);
  return subject.typed_check(*subject.fixed, input);
}

const Subject& FixedSubject(Fixed which) {
  static const std::vector<Subject>* const subjects = [] {
    static pb::DynamicMessageFactory factory;
    auto* v = new std::vector<Subject>();
    const pb::Message* generated[kFixedCount] = {
        &fairwire::test::AllKinds::default_instance(),
        &fairwire::test::AllKinds3::default_instance(),
        &fairwire::test::Nested::default_instance(),
        &fairwire::test::Nested3::default_instance()};
    for (const pb::Message* g : generated) {
      Subject s = MakeSubject(*g->GetDescriptor(), factory);
      s.generated = g;
      s.fixed = static_cast<Fixed>(v->size());
      s.typed_check = &CheckTyped;
      v->push_back(std::move(s));
    }
    return v;
  }();
  return (*subjects)[static_cast<std::size_t>(which)];
}

}  // namespace fairwire::wire::oracle
