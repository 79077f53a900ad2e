// PollScript: the typed scenario of the poll properties. A set of scripted
// children (1 to 32), a policy, how many calls to make, external wakes
// between calls and the draws of RandomStart's generator. Every byte string
// decodes to some valid PollScript (DecodePollScript is total) and
// EncodePollScript gives bytes that decode back to the same script.
#ifndef FAIRWIRE_PROPERTIES_SCENARIOS_POLL_SCRIPT_H_
#define FAIRWIRE_PROPERTIES_SCENARIOS_POLL_SCRIPT_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
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

// "Priority", "Sticky", "RoundRobin", "Budgeted<2>", ...
std::string_view PolicyName(PolicyKind policy);

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

// The protocol name of id (id % 8).
std::string_view ProtocolName(std::uint8_t id);

// True when the script is within the limits above (every decoded script is).
bool IsValid(const PollScript& script);

// Total decoder: any bytes give a valid script (missing bytes read as 0,
// trailing bytes are ignored).
PollScript DecodePollScript(std::span<const std::uint8_t> bytes);

// The canonical bytes of a valid script: DecodePollScript(Encode(s)) == s.
std::vector<std::uint8_t> EncodePollScript(const PollScript& script);

// The script for a person, e.g.
//   policy Sticky, 2 calls, 2 children
//     child 0: [R0] loop
//     child 1: [R0]
// Ends with a newline.
std::string DescribePollScript(const PollScript& script);

// One-line form of a child's outcomes: "[R3 P W D T] loop".
std::string DescribeOutcomes(const ChildScript& child);

// Scripts one step simpler than `script` (one child fewer, fewer calls, one
// outcome fewer or simpler, no loop, no wakes, draws or protocols),
// simplest first. Each is valid and differs from `script`.
std::vector<PollScript> ShrinkPollScript(const PollScript& script);

}  // namespace fairwire::poll

#endif  // FAIRWIRE_PROPERTIES_SCENARIOS_POLL_SCRIPT_H_
