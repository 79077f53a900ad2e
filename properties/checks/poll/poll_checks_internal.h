// What the poll property checks share across their source files
// (poll_checks.cc, poll_served_within.cc): the violation text and the
// bounded-waiting checks (properties 7 and 8).
#ifndef FAIRWIRE_CHECKS_POLL_POLL_CHECKS_INTERNAL_H_
#define FAIRWIRE_CHECKS_POLL_POLL_CHECKS_INTERNAL_H_

#include <cstddef>
#include <optional>
#include <string>

#include "fairwire/checks/poll_checks.h"

namespace fairwire::poll::internal {

// "name: <composite> call t: what", the text of every per-call violation.
std::string Fail(PollProperty p, const ObservedRun& o, std::size_t call,
                 const std::string& what);

// Whether some child of `s` has a kThrow outcome.
bool HasThrow(const PollScript& s);

// Properties 7 (bounded waiting) and 8 (finite-burst liveness): every
// child ready before a call is served within the policy's bound (7) or the
// burst bound (8); nullopt where the property does not apply.
std::optional<std::string> CheckServedWithin(PollProperty property,
                                             const PollScript& s,
                                             PolicyKind policy,
                                             const ModelRun& m,
                                             const ObservedRun& o);

}  // namespace fairwire::poll::internal

#endif  // FAIRWIRE_CHECKS_POLL_POLL_CHECKS_INTERNAL_H_
