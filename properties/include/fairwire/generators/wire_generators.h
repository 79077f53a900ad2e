// RapidCheck generators for the wire suite: typed messages of a model schema
// (values valid for their kind, closed-enum values inside their enum, proto3
// strings valid UTF-8, unknown records of numbers the type does not use) and
// encoding variants. They shrink through rc::gen::exec.
#ifndef FAIRWIRE_GENERATORS_WIRE_GENERATORS_H_
#define FAIRWIRE_GENERATORS_WIRE_GENERATORS_H_

#include <rapidcheck.h>

#include <string>

#include "fairwire/models/wire_model.h"
#include "fairwire/scenarios/wire_case.h"

namespace fairwire::wire::gen {

// A message of type `type` in `*schema` (which must outlive the generator);
// nested messages stop at `max_depth`.
rc::Gen<model::Message> Message(const model::Schema* schema, int type,
                                int max_depth = 3);

// One of scenario::AllVariants().
rc::Gen<scenario::Variant> Variant();

// `bytes` with one to three corruptions: a byte replaced, inserted or
// erased, a continuation bit set, the input cut short. Draws its choices
// with operator*, so call it inside a property.
std::string Corrupt(std::string bytes);

}  // namespace fairwire::wire::gen

#endif  // FAIRWIRE_GENERATORS_WIRE_GENERATORS_H_
