// The wire kit's comparison of a decoder under test with DynamicMessage:
// verdicts, canonical forms under the profile's masks, the divergence class.
#include "fairwire/checks/wire_adapter_compare.h"

#include <google/protobuf/message.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "fairwire/models/wire_model.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::kit {
namespace {

namespace pb = google::protobuf;

ByteSpan AsBytes(const std::string& s) {
  return ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

// The Profile entry that masks an input with these facts, if any.
std::optional<std::string> DeclaredBy(const Profile& p,
                                      const rules::InputFacts& f) {
  using rules::Rule;
  if (p.no_groups &&
      (f.rules.Has(Rule::kGroup) || f.rules.Has(Rule::kGroupUnmatched))) {
    return "no_groups";
  }
  if (p.no_utf8_check && f.rules.Has(Rule::kUtf8InvalidChecked)) {
    return "no_utf8_check";
  }
  constexpr int kLibprotobufDepth = model::kDepthLimit;  // as libprotobuf's
  if (p.max_depth != kLibprotobufDepth &&
      f.depth > std::min(p.max_depth, kLibprotobufDepth)) {
    return "max_depth";
  }
  if (f.max_count > p.max_count) return "max_count";
  if (f.max_length > p.max_length) return "max_length";
  return std::nullopt;
}

// An unknown record that is a closed-enum value outside its enum: a varint
// of a declared closed-enum field (libprotobuf puts those in the unknown
// fields; a decoder that keeps them in the field keeps them).
bool IsClosedEnumUnknown(const model::Schema& schema,
                         const model::MessageType& type,
                         const model::UnknownRecord& r) {
  if (r.wire_type != 0) return false;
  return std::any_of(
      type.fields.begin(), type.fields.end(), [&](const model::Field& f) {
        return f.number == r.number && f.kind == model::Kind::kEnum &&
               schema.enums[static_cast<std::size_t>(f.enum_index)].closed;
      });
}

// The profile's masks, then unknown records ordered by number, in `m` and
// every message inside it.
void Normalise(const model::Schema& schema, const Profile& p,
               model::Message& m) {
  const model::MessageType& type =
      schema.messages[static_cast<std::size_t>(m.type)];
  if (p.drops_unknown_fields) {
    std::erase_if(m.unknown, [&](const model::UnknownRecord& r) {
      return !p.keeps_closed_enum_unknowns ||
             !IsClosedEnumUnknown(schema, type, r);
    });
  }
  // By number; within a number, with keeps_closed_enum_unknowns, a closed
  // enum's values first: the decoder kept them in the field, so where its
  // encoder writes them among the other records of that number (a wrong
  // wire type, say) is its own choice.
  const auto rank = [&](const model::UnknownRecord& r) {
    return p.keeps_closed_enum_unknowns && IsClosedEnumUnknown(schema, type, r)
               ? 0
               : 1;
  };
  std::stable_sort(
      m.unknown.begin(), m.unknown.end(),
      [&](const model::UnknownRecord& a, const model::UnknownRecord& b) {
        return a.number != b.number ? a.number < b.number : rank(a) < rank(b);
      });
  for (model::FieldValues& values : m.fields) {
    for (model::Message& inner : values.messages) Normalise(schema, p, inner);
  }
}

// With keeps_closed_enum_unknowns, a singular closed-enum field that met a
// value outside its enum: such a decoder keeps the last value of any kind in
// the field, where libprotobuf keeps the last known one there and every
// unknown one in the unknown fields. Which value came last on the wire is not
// in the canonical forms, so when the decoder kept exactly one value and it
// is one of libprotobuf's, the reference takes the decoder's (in `theirs`,
// and in every message inside it that lines up with one in `ours`).
void AlignSingularClosedEnums(const model::Schema& schema,
                              const model::Message& ours,
                              model::Message& theirs) {
  if (ours.type != theirs.type) return;
  const model::MessageType& type =
      schema.messages[static_cast<std::size_t>(ours.type)];
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    const model::Field& f = type.fields[i];
    const std::vector<model::Message>& inner = ours.fields[i].messages;
    std::vector<model::Message>& their_inner = theirs.fields[i].messages;
    for (std::size_t k = 0; k < std::min(inner.size(), their_inner.size());
         ++k) {
      AlignSingularClosedEnums(schema, inner[k], their_inner[k]);
    }
    if (f.repeated || f.kind != model::Kind::kEnum ||
        !schema.enums[static_cast<std::size_t>(f.enum_index)].closed) {
      continue;
    }
    const auto is_its_value = [&](const model::UnknownRecord& r) {
      return r.number == f.number && r.wire_type == 0;
    };
    std::vector<std::uint64_t> candidates = theirs.fields[i].scalars;
    for (const model::UnknownRecord& r : theirs.unknown) {
      if (is_its_value(r)) candidates.push_back(r.value);
    }
    if (candidates.size() == theirs.fields[i].scalars.size()) continue;
    std::vector<std::uint64_t> kept = ours.fields[i].scalars;
    std::vector<model::UnknownRecord> kept_unknown;
    for (const model::UnknownRecord& r : ours.unknown) {
      if (is_its_value(r)) {
        kept.push_back(r.value);
        kept_unknown.push_back(r);
      }
    }
    if (kept.size() != 1 || std::find(candidates.begin(), candidates.end(),
                                      kept[0]) == candidates.end()) {
      continue;
    }
    // The decoder's record goes where libprotobuf's first one was, so that
    // the order among records of this number (wrong wire types) stays.
    theirs.fields[i] = ours.fields[i];
    const auto first = std::find_if(theirs.unknown.begin(),
                                    theirs.unknown.end(), is_its_value);
    const auto at = first - theirs.unknown.begin();
    std::erase_if(theirs.unknown, is_its_value);
    theirs.unknown.insert(theirs.unknown.begin() + at, kept_unknown.begin(),
                          kept_unknown.end());
  }
}

bool Reads(const Profile& p, std::uint32_t number) {
  return p.reads_only.empty() ||
         std::find(p.reads_only.begin(), p.reads_only.end(), number) !=
             p.reads_only.end();
}

bool Omits(const Profile& p, std::uint32_t number) {
  return std::find(p.omits.begin(), p.omits.end(), number) != p.omits.end();
}

// The profile's omitted fields cleared in every message of the root type.
void ClearOmitted(const model::Schema& schema, const Profile& p,
                  model::Message& m) {
  const model::MessageType& type =
      schema.messages[static_cast<std::size_t>(m.type)];
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    if (m.type == 0 && Omits(p, type.fields[i].number)) {
      m.fields[i] = model::FieldValues{};
    }
    for (model::Message& inner : m.fields[i].messages) {
      ClearOmitted(schema, p, inner);
    }
  }
}

// libprotobuf's canonical bytes read by the model, with the profile's masks
// that need one side only; nullopt when the model cannot read them.
std::optional<model::Message> MaskedForm(const model::Schema& schema,
                                         const Profile& p,
                                         const std::string& canonical) {
  model::Message m;
  if (!model::Decode(schema, 0, AsBytes(canonical), m).ok) return std::nullopt;
  if (p.keeps_closed_enum_unknowns) {
    model::TruncateClosedEnumUnknowns(schema, m);
  }
  if (!p.reads_only.empty()) {  // the root's fields it reads, nothing else
    const model::MessageType& root = schema.messages[0];
    for (std::size_t i = 0; i < root.fields.size(); ++i) {
      if (!Reads(p, root.fields[i].number)) m.fields[i] = model::FieldValues{};
    }
    m.unknown.clear();
  }
  if (!p.omits.empty()) ClearOmitted(schema, p, m);
  return m;
}

// Both canonical forms in the comparison form: masked, aligned, unknown
// records dropped or ordered, and written by the model (the canonical bytes
// themselves where the model cannot read them).
std::pair<std::string, std::string> ComparisonForms(const model::Schema& schema,
                                                    const Profile& p,
                                                    const std::string& ours,
                                                    const std::string& theirs) {
  std::optional<model::Message> a = MaskedForm(schema, p, ours);
  std::optional<model::Message> b = MaskedForm(schema, p, theirs);
  if (a && b && p.keeps_closed_enum_unknowns) {
    AlignSingularClosedEnums(schema, *a, *b);
  }
  auto finish = [&](std::optional<model::Message>& m,
                    const std::string& canonical) {
    if (!m) return canonical;
    Normalise(schema, p, *m);
    return model::Serialize(schema, *m);
  };
  return {finish(a, ours), finish(b, theirs)};
}

std::string Side(std::string_view name, bool accepted,
                 const std::string& reason, const std::string* bytes,
                 const model::Schema& schema) {
  std::string out(name);
  if (!accepted) {
    out += " rejects";
    if (!reason.empty()) out += " (" + reason + ")";
    return out + "\n";
  }
  out += " accepts";
  if (bytes != nullptr) {
    out += ": " + records::Hex(AsBytes(*bytes), 48) + "\n" +
           records::Describe(&schema, 0, AsBytes(*bytes), 2);
  } else {
    out += "\n";
  }
  return out;
}

}  // namespace

std::string_view PartingName(Parting parting) {
  switch (parting) {
    case Parting::kAcceptsRejected:
      return "accepts-rejected";
    case Parting::kRejectsAccepted:
      return "rejects-accepted";
    case Parting::kDiffers:
      return "differs";
    case Parting::kUnparseable:
      return "reencoding-unparseable";
  }
  return "?";
}

std::string Comparison::ClassName() const {
  return std::string(PartingName(parting)) + "/" + facts.rules.Name();
}

Comparison CompareWithReference(DecoderAdapter& adapter,
                                const oracle::Subject& subject,
                                ByteSpan input) {
  Comparison c;
  c.facts = rules::Walk(subject.model, 0, input);
  c.reference = oracle::DecodeWithLibprotobuf(*subject.dynamic, input);
  const oracle::Verdict model = oracle::DecodeWithModel(subject.model, input);
  if (auto v = oracle::Compare("model", model, "libprotobuf", c.reference,
                               subject.model)) {
    c.result = Comparison::Result::kOracleDisagrees;
    c.detail = *v;
    return c;
  }
  if (subject.generated != nullptr) {
    // libprotobuf's generated code too, allowing for its one documented
    // difference from DynamicMessage (closed-enum unknowns).
    if (auto v = oracle::CompareGenerated(
            subject, oracle::DecodeWithLibprotobuf(*subject.generated, input),
            c.reference)) {
      c.result = Comparison::Result::kOracleDisagrees;
      c.detail = *v;
      return c;
    }
  }
  // The decoder runs on every input, masked or not: a crash is a finding.
  std::optional<Decoded> decoded = adapter.Decode(subject.name, input);
  if (!decoded) {
    c.result = Comparison::Result::kNoType;
    return c;
  }
  c.decoded = std::move(*decoded);
  const Profile profile = adapter.profile();
  if (auto by = DeclaredBy(profile, c.facts)) {
    c.result = Comparison::Result::kDeclared;
    c.declared_by = *by;
    return c;
  }
  if (c.decoded.accepted && !c.reference.ok && !profile.validates_skipped &&
      !profile.reads_only.empty() && c.facts.fatal_field > 0 &&
      !Reads(profile, static_cast<std::uint32_t>(c.facts.fatal_field))) {
    c.result = Comparison::Result::kDeclared;
    c.declared_by = "validates_skipped";
    return c;
  }
  if (c.decoded.accepted && !c.reference.ok && c.facts.fatal_field > 0 &&
      Omits(profile, static_cast<std::uint32_t>(c.facts.fatal_field))) {
    c.result = Comparison::Result::kDeclared;
    c.declared_by = "omits";
    return c;
  }
  if (c.decoded.accepted != c.reference.ok) {
    c.result = Comparison::Result::kDiverge;
    c.parting = c.decoded.accepted ? Parting::kAcceptsRejected
                                   : Parting::kRejectsAccepted;
    return c;
  }
  if (!c.decoded.accepted) return c;
  std::unique_ptr<pb::Message> reparsed(subject.dynamic->New());
  if (!reparsed->ParsePartialFromString(c.decoded.reencoded)) {
    c.result = Comparison::Result::kDiverge;
    c.parting = Parting::kUnparseable;
    return c;
  }
  const auto [ours, theirs] = ComparisonForms(
      subject.model, profile, reparsed->SerializePartialAsString(),
      c.reference.canonical);
  if (ours != theirs) {
    c.result = Comparison::Result::kDiverge;
    c.parting = Parting::kDiffers;
    c.detail = "compared as (decoder):\n" +
               records::Describe(&subject.model, 0, AsBytes(ours), 2) +
               "compared as (libprotobuf):\n" +
               records::Describe(&subject.model, 0, AsBytes(theirs), 2);
  }
  return c;
}

std::string DescribeComparison(const Comparison& c,
                               const oracle::Subject& subject,
                               std::string_view adapter_name, ByteSpan input) {
  std::string out = "input: " + subject.name + ", " +
                    std::to_string(input.size()) +
                    " bytes: " + records::Hex(input, 64) + "\n" +
                    records::Describe(&subject.model, 0, input, 1);
  out += "rules touched: " + c.facts.rules.Name() + "\n";
  switch (c.result) {
    case Comparison::Result::kAgree:
      out += "agree\n";
      break;
    case Comparison::Result::kDeclared:
      out += "not compared: declared by the profile (" + c.declared_by + ")\n";
      break;
    case Comparison::Result::kNoType:
      out += std::string(adapter_name) + " has no type " + subject.name + "\n";
      return out;
    case Comparison::Result::kOracleDisagrees:
      return out + "the reference is wrong (a fairwire bug): " + c.detail +
             "\n";
    case Comparison::Result::kDiverge:
      out += "divergence " + c.ClassName() + "\n";
      break;
  }
  out += Side(adapter_name, c.decoded.accepted, c.decoded.reason,
              &c.decoded.reencoded, subject.model);
  out += Side("libprotobuf (DynamicMessage)", c.reference.ok,
              c.reference.reason, &c.reference.canonical, subject.model);
  out += c.detail;
  return out;
}

}  // namespace fairwire::wire::kit
