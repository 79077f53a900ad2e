// PollScript: what the reference model and the harness play. A set of
// scripted children (1 to 32), a policy, how many calls to make, external
// wakes between calls and the draws of RandomStart's generator. Plain values
// with no behaviour; the byte codec, the printer and the shrinker are the
// scenario layer's (fairwire/scenarios/poll_script_codec.h).
#ifndef FAIRWIRE_MODELS_POLL_SCRIPT_H_
#define FAIRWIRE_MODELS_POLL_SCRIPT_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace fairwire::poll {
// The composite's scheduling rule. kNested is the nested binary baseline
// (Nested<A, Nested<B, ...>>), which schedules like kPriority.
enum class PolicyKind : std::uint8_t {
  kPriority,
  kSticky,
  kRoundRobin,
  kBudgeted2,
  kBudgeted3,
  kRandomStart,
  kNested,
};
// Every policy kind, in enum order.
inline constexpr PolicyKind kAllPolicies[] = {
    PolicyKind::kPriority,  PolicyKind::kSticky,    PolicyKind::kRoundRobin,
    PolicyKind::kBudgeted2, PolicyKind::kBudgeted3, PolicyKind::kRandomStart,
    PolicyKind::kNested};
// The number of policy kinds.
inline constexpr std::size_t kPolicyCount = std::size(kAllPolicies);

// What a scripted child does when polled once. Simplest first.
enum class OutcomeKind : std::uint8_t {
  kPending,          // Pending; keeps the waker to be woken externally
  kReady,            // Ready(event)
  kPendingSelfWake,  // wakes the waker at once, then Pending (a yield)
  kDone,             // finished: must never be polled again
  kThrow,            // Poll throws
};
// The number of outcome kinds.
inline constexpr std::size_t kOutcomeKindCount = 5;

// One scripted outcome.
struct Outcome {
  OutcomeKind kind = OutcomeKind::kPending;
  std::uint8_t event = 0;  // 0..31; meaningful for kReady only
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

// A child: outcomes in poll order. After the last one the child repeats the
// script from the start if `loop`, else returns Pending forever.
struct ChildScript {
  std::vector<Outcome> outcomes;  // at most kMaxOutcomes
  bool loop = false;
  std::vector<std::uint8_t> protocols;  // ids into ProtocolName, at most 7
  friend bool operator==(const ChildScript&, const ChildScript&) = default;
};

// After call `after_call` (0-based), wake the waker child `child` holds.
struct ExternalWake {
  std::uint8_t after_call = 0;
  std::uint8_t child = 0;
  friend bool operator==(const ExternalWake&, const ExternalWake&) = default;
};

// See the file comment.
struct PollScript {
  PolicyKind policy = PolicyKind::kPriority;
  std::uint8_t calls = 1;             // 1..kMaxCalls
  std::vector<ChildScript> children;  // 1..kMaxScriptChildren
  std::vector<ExternalWake> wakes;    // at most 8
  std::vector<std::uint8_t> draws;    // RandomStart's draws, cycled; <= 8
  friend bool operator==(const PollScript&, const PollScript&) = default;
};

// Limits of a valid PollScript.
inline constexpr std::size_t kMaxScriptChildren = 32;
inline constexpr std::size_t kMaxOutcomes = 15;
inline constexpr std::size_t kMaxCalls = 64;
inline constexpr std::size_t kMaxProtocols = 7;
inline constexpr std::size_t kMaxWakes = 8;
inline constexpr std::size_t kMaxDraws = 8;
inline constexpr std::size_t kProtocolNameCount = 8;

}  // namespace fairwire::poll

#endif  // FAIRWIRE_MODELS_POLL_SCRIPT_H_
