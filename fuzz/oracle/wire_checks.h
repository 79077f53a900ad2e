// The checks over WireCase shared by the wire_packed_unpacked fuzz target and
// the RapidCheck property suite.
#ifndef FAIRWIRE_FUZZ_ORACLE_WIRE_CHECKS_H_
#define FAIRWIRE_FUZZ_ORACLE_WIRE_CHECKS_H_

#include <optional>
#include <string>

#include "oracle.h"
#include "wire_case.h"

namespace fairwire::wire::oracle {

// The subject of a WireCase root (0: AllKinds, 1: AllKinds3).
const Subject& CaseSubject(int root);

// The model schemas of both roots, for scenario::DecodeCase.
const model::Schema* const* CaseSchemas();

// Every encoding of the case (as given, then every scenario::AllVariants())
// must be accepted by fairwire, the model and libprotobuf (DynamicMessage and
// generated code) and re-serialise to the message's canonical encoding.
// The first violation is "variant-<rejected|differs>(<variant>,<decoder>):
// ...".
std::optional<std::string> CheckCase(const scenario::WireCase& c);

}  // namespace fairwire::wire::oracle

#endif  // FAIRWIRE_FUZZ_ORACLE_WIRE_CHECKS_H_
