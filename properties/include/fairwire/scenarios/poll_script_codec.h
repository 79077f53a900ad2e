// The poll scenario's byte codec, printer and shrinker: every byte string
// decodes to some valid PollScript (DecodePollScript is total) and
// EncodePollScript gives bytes that decode back to the same script.
#ifndef FAIRWIRE_SCENARIOS_POLL_SCRIPT_CODEC_H_
#define FAIRWIRE_SCENARIOS_POLL_SCRIPT_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/models/poll_script.h"

namespace fairwire::poll {

// "Priority", "Sticky", "RoundRobin", "Budgeted<2>", ...
std::string_view PolicyName(PolicyKind policy);

// The protocol name of id (id % 8).
std::string_view ProtocolName(std::uint8_t id);

// True when the script is within the limits of fairwire/models/poll_script.h
// (every decoded script is).
bool IsValid(const PollScript& script);

// Total decoder: any bytes give a valid script (missing bytes read as 0,
// trailing bytes are ignored), except that a child after the first is only
// read while bytes remain: the child count byte asks for at most that many.
PollScript DecodePollScript(std::span<const std::uint8_t> bytes);
// DecodePollScript for script after script in the same memory: a fuzz
// target that keeps one decoder allocates nothing once its script has grown
// to the largest it has seen, and frees nothing either.
class PollScriptDecoder {
 public:
  // DecodePollScript(bytes), valid until the next Decode.
  const PollScript& Decode(std::span<const std::uint8_t> bytes);

 private:
  PollScript script_;
  std::vector<ChildScript> spare_;  // children dropped, with their memory
};

// The canonical bytes of a valid script: DecodePollScript(Encode(s)) == s.
std::vector<std::uint8_t> EncodePollScript(const PollScript& script);

// Byte 0 holds the policy as its value modulo kPolicyCount; the low bit of
// its quotient, which DecodePollScript ignores, is the composite bit: the
// poll_schedule fuzz target runs the script through Select (0) or SelectAll
// (1) by it. EncodePollScript writes 0 there. Empty bytes have bit 0.
std::uint8_t CompositeBit(std::span<const std::uint8_t> bytes);

// `bytes` (non-empty, as EncodePollScript gives) with the composite bit set
// to `bit` (0 or 1) and the same script.
std::vector<std::uint8_t> WithCompositeBit(std::vector<std::uint8_t> bytes,
                                           std::uint8_t bit);

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

#endif  // FAIRWIRE_SCENARIOS_POLL_SCRIPT_CODEC_H_
