// The observation of one run of a poll composite: the poll kit's interface.
// Whatever drives a composite (fairwire's C++ harness, or a Rust crate over
// a C ABI) records raw facts as a list of events, and the checks compute
// every verdict from them: which children each call polled and in what
// order, what each returned, which waker each saw, every wake and which
// caller's waker it reached, and what each call returned. Nothing in it is
// a judgement of the composite, so a recorder in another language has no
// rule to get right but "write down what happened".
//
// Version 1. The byte encoding (EncodeObservation) is the same in every
// language; docs/design.md "The poll kit" specifies it.
//
// Waker ids: the recorder numbers every distinct waker it sees, in order of
// first sight, from 0. Two wakers have one id when the recorder's language
// says they wake the same target (C++ Waker ==; Rust Waker::will_wake).
// A call's own waker (the caller's) is numbered when the call begins.
#ifndef FAIRWIRE_CHECKS_POLL_OBSERVATION_H_
#define FAIRWIRE_CHECKS_POLL_OBSERVATION_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/models/poll_model.h"
#include "fairwire/models/poll_script.h"

namespace fairwire::poll {

// The version EncodeObservation writes and DecodeObservation reads.
inline constexpr std::uint8_t kObservationVersion = 1;

// Why a waker was woken.
enum class WakeCause : std::uint8_t {
  kSelf,      // a child woke the waker of its own poll (a kPendingSelfWake)
  kExternal,  // the script's ExternalWake after a call
  kProbe,     // the recorder's check after a Pending call: the latest
              // waker of every live child, one by one
};

// What one event is.
enum class ObservedEventKind : std::uint8_t {
  kCallBegin = 1,    // call `call` starts with the caller's waker `waker`
  kPoll = 2,         // child `child` was polled with `waker` and returned
                     // `outcome` (with `event` if kReady)
  kCallEnd = 3,      // the call returned `result` (`tag`, `event` if
                     // kReady); `done`: the composite says it is finished
  kWakeBegin = 4,    // child `child`'s latest waker (`waker`) is woken for
                     // `cause`; ends at the next kWakeEnd
  kWakeEnd = 5,      // the wake begun last is over
  kCallerWoken = 6,  // the caller's waker `waker` was woken
};

// One event; only the fields its kind names are meaningful (others are 0).
struct ObservedEvent {
  ObservedEventKind kind = ObservedEventKind::kCallBegin;
  std::uint32_t call = 0;   // kCallBegin
  std::uint32_t child = 0;  // kPoll, kWakeBegin
  std::uint32_t waker = 0;  // kCallBegin, kPoll, kWakeBegin, kCallerWoken
  std::uint32_t tag = 0;    // kCallEnd with result kReady
  OutcomeKind outcome = OutcomeKind::kPending;  // kPoll
  CallResult result = CallResult::kPending;     // kCallEnd
  std::uint8_t event = 0;                       // kPoll, kCallEnd (kReady)
  bool done = false;                            // kCallEnd
  WakeCause cause = WakeCause::kSelf;           // kWakeBegin
  friend bool operator==(const ObservedEvent&, const ObservedEvent&) = default;
};

// How the children of a run finish.
enum class ChildKind : std::uint8_t {
  kStream,  // children yield events until Done (a stream, a handler)
  kFuture,  // a child finishes with its first Ready (or Done): a future
};

// See the file comment.
struct Observation {
  std::string composite;  // the composite's name, e.g. "futures::select_all"
  std::uint32_t children = 0;
  ChildKind child_kind = ChildKind::kStream;
  std::vector<ObservedEvent> events;
  friend bool operator==(const Observation&, const Observation&) = default;
};

// Limits of a decodable observation.
inline constexpr std::size_t kMaxObservationName = 256;
inline constexpr std::size_t kMaxObservationEvents = std::size_t{1} << 20;

// The canonical bytes of `observation` (version kObservationVersion).
std::vector<std::uint8_t> EncodeObservation(const Observation& observation);

// Why bytes are not an observation, and where.
struct ObservationError {
  std::string reason;
  std::size_t offset = 0;  // the byte at which decoding stopped
};

// Decodes EncodeObservation's bytes; any other bytes give an error (never a
// crash): a wrong magic or version, a field out of range, a truncation,
// trailing bytes. Ids are not cross-checked here (CheckObservationShape).
struct DecodedObservation {
  std::optional<Observation> observation;
  ObservationError error;  // when !observation
};
DecodedObservation DecodeObservation(std::span<const std::uint8_t> bytes);

// Whether the events make a well-formed run of `calls` calls or fewer over
// `children` children: calls numbered 0, 1, ... each begun once and ended
// once, polls only inside a call, children below `children`, wakes closed,
// a caller's waker id first seen at its kCallBegin. nullopt, or the reason
// with the index of the offending event in `offset`.
std::optional<ObservationError> CheckObservationShape(const Observation& o);

// "Pending", "Ready", "Pending+self-wake", "Done", "threw".
std::string_view OutcomeName(OutcomeKind kind);
// "Ready", "Pending", "Done", "threw".
std::string_view CallResultName(CallResult result);

// A one-event-per-line text of the observation, for failure messages.
std::string DescribeObservation(const Observation& o);

}  // namespace fairwire::poll

#endif  // FAIRWIRE_CHECKS_POLL_OBSERVATION_H_
