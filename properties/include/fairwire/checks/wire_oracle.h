// The differential oracle of the wire suite: runs the same bytes through the
// fast decoder (fairwire::wire), the reference model and libprotobuf 3.21
// (DynamicMessage, and generated code for the fixed schemas), and compares
// accept/reject and, on accept, the canonical re-serialisations.
//
// libprotobuf's generated code and DynamicMessage differ on one point: a
// closed-enum value outside its enum arriving unpacked as a varint of 2^32 or
// more is kept with all 64 bits by generated code, with the low 32 bits
// (sign-extended) by DynamicMessage. (Arriving packed, both keep all 64 bits.)
// fairwire follows DynamicMessage and is compared with it exactly; the
// comparison of generated code with DynamicMessage truncates such unknown
// values on both sides first.
#ifndef FAIRWIRE_CHECKS_WIRE_ORACLE_H_
#define FAIRWIRE_CHECKS_WIRE_ORACLE_H_

#include <google/protobuf/message.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "fairwire/models/wire_model_schema.h"
#include "fairwire/scenarios/bytes.h"
#include "fairwire/wire/schema.h"

namespace fairwire::wire::oracle {

using fairwire::ByteSpan;

// The fixed schemas of properties/proto, in this order.
enum class Fixed { kAllKinds, kAllKinds3, kNested, kNested3 };
inline constexpr int kFixedCount = 4;

// What one decoder made of an input.
struct Verdict {
  bool ok = false;
  std::string canonical;  // the canonical re-serialisation, when ok
  std::string reason;     // why it rejected, when known
};

// A message type under test, in the three decoders' forms. Root is message 0.
struct Subject {
  std::string name;
  model::Schema model;
  std::optional<wire::Schema> fairwire;  // nullopt: the adapter refused
  std::string adapter_error;
  const google::protobuf::Message* dynamic = nullptr;    // DynamicMessage
  const google::protobuf::Message* generated = nullptr;  // may be null
  // Set for the fixed schemas: CheckAgreement then also runs `typed_check`
  // (CheckTyped of wire_typed_subjects.h, which compares the typed bindings
  // with Decode; a test may plant another).
  std::optional<Fixed> fixed;
  std::optional<std::string> (*typed_check)(Fixed, ByteSpan) = nullptr;
};

// libprotobuf: ParsePartialFromArray, then SerializePartialAsString.
Verdict DecodeWithLibprotobuf(const google::protobuf::Message& prototype,
                              ByteSpan input);

// The reference model and its canonical serialization.
Verdict DecodeWithModel(const model::Schema& schema, ByteSpan input);

// fairwire::wire::Decode then fairwire::wire::Serialize.
Verdict DecodeWithFairwire(const wire::Schema& schema, ByteSpan input);

// The model schema of `root` and every type reachable from it (root first),
// deciding packed, presence, UTF-8 and closed enums as libprotobuf does.
model::Schema ModelSchemaFromDescriptor(
    const google::protobuf::Descriptor& root);

// Builds a Subject for `root` (its pool must outlive the subject): the model
// schema, the fairwire schema via fairwire::protobuf, and a DynamicMessage
// prototype from `factory`.
Subject MakeSubject(const google::protobuf::Descriptor& root,
                    google::protobuf::MessageFactory& factory);

// nullopt when a and b agree; otherwise "<a>-vs-<b>-accept: ..." or
// "<a>-vs-<b>-bytes: ..." with both re-serialisations as annotated records.
std::optional<std::string> Compare(std::string_view a_name, const Verdict& a,
                                   std::string_view b_name, const Verdict& b,
                                   const model::Schema& schema);

// `canonical` (a canonical encoding under `schema`) with every closed-enum
// unknown varint truncated to 32 bits and sign-extended
// (model::TruncateClosedEnumUnknowns): the form in which generated code,
// DynamicMessage and packed or unpacked arrival all agree.
std::string TruncateEnumUnknowns(const model::Schema& schema,
                                 const std::string& canonical);

// Generated code's verdict against DynamicMessage's, allowing for their one
// documented difference: when they differ, closed-enum unknown varints are
// truncated on both sides (TruncateEnumUnknowns) and then compared. nullopt
// when they agree; "generated-vs-libprotobuf-...: ..." otherwise.
std::optional<std::string> CompareGenerated(const Subject& subject,
                                            const Verdict& generated,
                                            const Verdict& dynamic);

// What every decoder of a subject made of one input.
struct Verdicts {
  Verdict dynamic;                   // libprotobuf's DynamicMessage
  Verdict model;                     // the reference model
  std::optional<Verdict> fairwire;   // nullopt: the subject has no schema
  std::optional<Verdict> generated;  // nullopt: the subject has no such code
};

// Runs every decoder `subject` has on `input`.
Verdicts DecodeWithEach(const Subject& subject, ByteSpan input);

// The first disagreement with DynamicMessage among `verdicts`, in this order:
// fairwire (exactly), the model (exactly), generated code (closed-enum
// unknowns truncated on both sides, the one documented difference); or
// nullopt. A decoder the subject should have but `verdicts` lacks is a
// violation too: "adapter-refused: <subject>: <error>" when the adapter
// refused the schema, "verdict-missing: ..." when a verdict was not taken.
std::optional<std::string> FindDisagreement(const Subject& subject,
                                            const Verdicts& verdicts);

// FindDisagreement(subject, DecodeWithEach(subject, input)), then for a fixed
// subject its typed_check, the typed bindings against Decode (CheckTyped in
// wire_typed_subjects.h: status, reason and offset; values field by field;
// unknown-field bytes; "verdict-missing: ..." without one). The first
// violation, or nullopt.
std::optional<std::string> CheckAgreement(const Subject& subject,
                                          ByteSpan input);

// One pair of decoders compared on an input. CheckAgreement runs every
// comparison a subject has; a fuzz target may let each input choose one
// (CheckComparison), so that an execution costs two decoders, not five
// (issue 12), while every comparison stays reachable from the input.
enum class Comparison : std::uint8_t {
  kFairwire,   // fairwire::wire::Decode against DynamicMessage, exactly
  kModel,      // the reference model against DynamicMessage, exactly
  kGenerated,  // generated code against DynamicMessage (closed-enum
               // unknowns truncated on both sides)
  kTyped,      // the typed bindings against Decode (the subject's typed_check)
};
inline constexpr std::size_t kComparisonCount = 4;

// "fairwire", "model", "generated", "typed".
std::string_view ComparisonName(Comparison c);

// The comparisons `subject` has, in the order of the enum: kFairwire and
// kModel always, kGenerated with generated code, kTyped for a fixed subject.
// Fills `out` and returns how many.
std::size_t ComparisonsOf(const Subject& subject,
                          Comparison (&out)[kComparisonCount]);

// The comparison `choice` names among ComparisonsOf(subject), modulo their
// number: any integer picks one, and 0, 1, 2, ... pick each in turn.
Comparison ChooseComparison(const Subject& subject, unsigned choice);

// One comparison of CheckAgreement, alone: the first violation it reports
// on `input` (with CheckAgreement's text), or nullopt. A comparison the
// subject lacks is a violation ("verdict-missing: ..."), and so is a
// refused schema for kFairwire ("adapter-refused: ...").
std::optional<std::string> CheckComparison(const Subject& subject,
                                           ByteSpan input, Comparison which);

// The subject of a fixed schema, built once.
const Subject& FixedSubject(Fixed which);

// Discards libprotobuf's log output (invalid UTF-8 warnings, ...).
void SilenceLibprotobufLogs();

}  // namespace fairwire::wire::oracle

#endif  // FAIRWIRE_CHECKS_WIRE_ORACLE_H_
