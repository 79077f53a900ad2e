// ObservedRun: an observation (fairwire/checks/poll_observation.h) read
// into the per-call facts the property checks ask about: each call's polls
// in a flat table, its result, which live children last saw another
// waker, and which wakes did not reach a caller. Computed from the events
// alone (DigestObservation), so it is the same for a composite in C++ or
// in any language that records an observation.
#ifndef FAIRWIRE_CHECKS_POLL_OBSERVED_RUN_H_
#define FAIRWIRE_CHECKS_POLL_OBSERVED_RUN_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/checks/poll_observation.h"
#include "fairwire/models/poll_model.h"
#include "fairwire/models/poll_script.h"

namespace fairwire::poll {

// One poll of one child, as the child saw it.
struct PollRecord {
  std::size_t child = 0;    // the child's id (its index in the script)
  std::uint32_t waker = 0;  // the id of the waker in its context
  OutcomeKind returned = OutcomeKind::kPending;
  std::uint8_t event = 0;
};

// What one call did.
struct ObservedCall {
  // This call's polls: ObservedRun::polls[first_poll, first_poll + poll_count).
  std::size_t first_poll = 0;
  std::size_t poll_count = 0;
  CallResult result = CallResult::kPending;
  std::size_t tag = 0;
  std::uint8_t event = 0;
  bool composite_done = false;          // the composite said it finished
  std::uint32_t waker = 0;              // the id of this call's waker
  std::uint64_t wakes_during_call = 0;  // wakes of this call's waker in it
  // Pending calls: live children whose latest waker is not this call's
  // (never polled counts as not this call's).
  std::vector<std::size_t> stale_registrations;
  // Pending calls: live children whose probe wake did not reach this
  // call's waker exactly once.
  std::vector<std::size_t> lost_wakes;
  // Scripted external wakes after this call that did not reach the waker
  // of the call that last polled the child exactly once.
  std::vector<std::size_t> missed_external_wakes;
  // The wake-driven forms. Pending calls: live children woken (or never
  // polled) and not polled since, when the call's waker was not woken in
  // the call either (nobody will poll them).
  std::vector<std::size_t> woken_unpolled;
  // Pending calls: live children whose wake after the call (external or
  // probe) did not reach this call's waker, when nothing had woken that
  // waker since the call began (a caller already woken polls again).
  std::vector<std::size_t> unheard_wakes;
};

// A whole run of a script through one composite.
struct ObservedRun {
  std::string composite;  // "Select<Sticky>", "futures::stream::select", ...
  ChildKind child_kind = ChildKind::kStream;
  std::vector<ObservedCall> calls;
  // Every call's polls, in order, in one flat table (no vector per call).
  std::vector<PollRecord> polls;
  // Protocol iteration (C++ composites; empty otherwise): the full walk,
  // the iterator steps the children saw during it, and the first split
  // point at which a copied iterator did not resume with the rest of the
  // walk (or none).
  std::vector<std::string_view> protocols;
  std::size_t protocol_steps = 0;
  std::ptrdiff_t protocol_resume_failure = -1;

  // The polls of call t, in order.
  std::span<const PollRecord> PollsOf(std::size_t t) const {
    return std::span<const PollRecord>(polls).subspan(calls[t].first_poll,
                                                      calls[t].poll_count);
  }
};

// Whether a poll that returned `returned` finishes a child of `kind`: Done
// always, Ready for a future.
inline bool Finishes(ChildKind kind, OutcomeKind returned) {
  return returned == OutcomeKind::kDone ||
         (kind == ChildKind::kFuture && returned == OutcomeKind::kReady);
}

// Reads `o` (which must pass CheckObservationShape) into an ObservedRun.
ObservedRun DigestObservation(const Observation& o);

// The same into `run`, whose contents it replaces; the capacity of its
// tables is kept, so a run digested into the storage of the one before it
// allocates nothing for them (the fuzz target's runs, under ASan).
void DigestObservation(const Observation& o, ObservedRun& run);

}  // namespace fairwire::poll

#endif  // FAIRWIRE_CHECKS_POLL_OBSERVED_RUN_H_
