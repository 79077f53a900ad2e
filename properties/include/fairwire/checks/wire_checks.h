// The checks over WireCase shared by the wire_packed_unpacked fuzz target and
// the RapidCheck property suite.
#ifndef FAIRWIRE_CHECKS_WIRE_CHECKS_H_
#define FAIRWIRE_CHECKS_WIRE_CHECKS_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/scenarios/wire_case.h"

namespace fairwire::wire::oracle {

// The subject of a WireCase root (0: AllKinds, 1: AllKinds3).
const Subject& CaseSubject(int root);

// The model schemas of both roots, for scenario::DecodeCase.
const model::Schema* const* CaseSchemas();

// One decoder's verdict on one encoding, under the name the violation texts
// use: "fairwire", "model", "libprotobuf" or "generated".
struct NamedVerdict {
  std::string name;
  Verdict verdict;
};

// The decoders an encoding of `subject` goes through, in the order they are
// checked: fairwire, the model (with `all_decoders`), libprotobuf's
// DynamicMessage, generated code (with `all_decoders`, when it has some).
std::vector<std::string> EncodingDecoders(const Subject& subject,
                                          bool all_decoders);

// Runs the decoders of EncodingDecoders on `bytes` (one encoding).
std::vector<NamedVerdict> DecodeEncoding(const Subject& subject, ByteSpan bytes,
                                         bool all_decoders);

// The first verdict, in the order of EncodingDecoders, that is not an accept
// re-serialising to `expected` (closed-enum unknowns may differ in their
// 32-bit truncation only, since the variants move them between packed and
// unpacked): "variant-rejected(<variant>,<decoder>): ..." or
// "variant-differs(<variant>,<decoder>): ...". A decoder of
// EncodingDecoders without a verdict is "variant-missing(<variant>,<decoder>):
// ..."; a subject whose schema the adapter refused, "adapter-refused: ...".
std::optional<std::string> FindVariantViolation(
    const Subject& subject, const std::string& variant, ByteSpan bytes,
    const std::string& expected, const std::vector<NamedVerdict>& verdicts,
    bool all_decoders);

// Decodes one encoding (`variant` names it) with every decoder; the default
// is DecodeEncoding. Tests pass their own to plant a wrong verdict.
using EncodingDecoder = std::function<std::vector<NamedVerdict>(
    const std::string& variant, ByteSpan bytes)>;

// Every encoding of the case (as given, then every scenario::AllVariants())
// must be accepted by fairwire and libprotobuf's DynamicMessage (with
// `all_decoders`, also the model and generated code) and re-serialise to the
// message's canonical encoding (made by the model). The first violation is
// "variant-<rejected|differs>(<variant>,<decoder>): ...".
std::optional<std::string> CheckCase(const scenario::WireCase& c,
                                     bool all_decoders = false);

// As CheckCase, with the one encoding the wire_packed_unpacked fuzz target
// checks per input: the case's own variant (AllVariants()[c.variant]), or
// the payload as given when c.as_given. Each is reachable from byte 0.
std::optional<std::string> CheckCaseVariant(const scenario::WireCase& c);

// As CheckCase, for a message of `subject`'s root type (any schema).
std::optional<std::string> CheckMessageVariants(const Subject& subject,
                                                const model::Message& message,
                                                ByteSpan as_given,
                                                bool all_decoders = false);

// As CheckMessageVariants, each encoding's verdicts taken from `decode`
// (then checked by FindVariantViolation).
std::optional<std::string> CheckMessageVariantsWith(
    const Subject& subject, const model::Message& message, ByteSpan as_given,
    bool all_decoders, const EncodingDecoder& decode);

}  // namespace fairwire::wire::oracle

#endif  // FAIRWIRE_CHECKS_WIRE_CHECKS_H_
