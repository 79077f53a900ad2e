// The checks over WireCase shared by the wire_packed_unpacked fuzz target and
// the RapidCheck property suite.
#ifndef FAIRWIRE_CHECKS_WIRE_CHECKS_H_
#define FAIRWIRE_CHECKS_WIRE_CHECKS_H_

#include <optional>
#include <string>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/scenarios/wire_case.h"

namespace fairwire::wire::oracle {

// The subject of a WireCase root (0: AllKinds, 1: AllKinds3).
const Subject& CaseSubject(int root);

// The model schemas of both roots, for scenario::DecodeCase.
const model::Schema* const* CaseSchemas();

// Every encoding of the case (as given, then every scenario::AllVariants())
// must be accepted by fairwire and libprotobuf's DynamicMessage (with
// `all_decoders`, also the model and generated code) and re-serialise to the
// message's canonical encoding (made by the model). The first violation is
// "variant-<rejected|differs>(<variant>,<decoder>): ...".
std::optional<std::string> CheckCase(const scenario::WireCase& c,
                                     bool all_decoders = false);

// As CheckCase, for a message of `subject`'s root type (any schema).
std::optional<std::string> CheckMessageVariants(const Subject& subject,
                                                const model::Message& message,
                                                ByteSpan as_given,
                                                bool all_decoders = false);

}  // namespace fairwire::wire::oracle

#endif  // FAIRWIRE_CHECKS_WIRE_CHECKS_H_
