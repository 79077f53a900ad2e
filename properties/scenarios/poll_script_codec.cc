// PollScript's byte codec, printer and shrink candidates.
//
// Byte layout (every field one byte unless noted; missing bytes are 0):
//   policy % 7, calls - 1 (% 64), children - 1 (% 32),
//   per child (the first always, each other one only while bytes remain,
//     so a short input asks for few children: a run's cost grows with its
//     child count, and a fuzzer's short inputs stay cheap): a header (bits
//     0-3 outcome count, bit 4 loop, bits 5-7 protocol count), then one
//     byte per outcome (bits 0-2 kind % 5, bits 3-7 event), then one byte
//     per protocol id (% 8),
//   wake count % 9, then per wake: after_call % calls, child % children,
//   draw count % 9, then one byte per draw.
#include "fairwire/scenarios/poll_script_codec.h"

#include <algorithm>
#include <array>
#include <utility>

namespace fairwire::poll {
namespace {

constexpr std::array<std::string_view, kProtocolNameCount> kProtocolNames = {
    "/ipfs/ping/1.0.0",
    "/ipfs/id/1.0.0",
    "/ipfs/kad/1.0.0",
    "/meshsub/1.1.0",
    "/libp2p/circuit/relay/0.2.0/hop",
    "/libp2p/dcutr",
    "/noise",
    "/yamux/1.0.0"};

// Reads bytes in order; past the end every byte is 0.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint8_t Next() { return pos_ < bytes_.size() ? bytes_[pos_++] : 0; }
  // Whether every byte was read.
  bool AtEnd() const { return pos_ >= bytes_.size(); }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

char OutcomeLetter(OutcomeKind kind) {
  switch (kind) {
    case OutcomeKind::kPending:
      return 'P';
    case OutcomeKind::kReady:
      return 'R';
    case OutcomeKind::kPendingSelfWake:
      return 'W';
    case OutcomeKind::kDone:
      return 'D';
    case OutcomeKind::kThrow:
      return 'T';
  }
  return '?';
}

// Drops wakes that no longer fit `script` (after fewer calls or children).
void FitWakes(PollScript& script) {
  std::erase_if(script.wakes, [&](const ExternalWake& w) {
    return w.after_call >= script.calls || w.child >= script.children.size();
  });
}

}  // namespace

std::string_view PolicyName(PolicyKind policy) {
  switch (policy) {
    case PolicyKind::kPriority:
      return "Priority";
    case PolicyKind::kSticky:
      return "Sticky";
    case PolicyKind::kRoundRobin:
      return "RoundRobin";
    case PolicyKind::kBudgeted2:
      return "Budgeted<2>";
    case PolicyKind::kBudgeted3:
      return "Budgeted<3>";
    case PolicyKind::kRandomStart:
      return "RandomStart";
    case PolicyKind::kNested:
      return "Nested";
  }
  return "?";
}

std::string_view ProtocolName(std::uint8_t id) {
  return kProtocolNames[id % kProtocolNameCount];
}

bool IsValid(const PollScript& s) {
  if (static_cast<std::size_t>(s.policy) >= kPolicyCount) return false;
  if (s.calls < 1 || s.calls > kMaxCalls) return false;
  if (s.children.empty() || s.children.size() > kMaxScriptChildren) {
    return false;
  }
  for (const ChildScript& c : s.children) {
    if (c.outcomes.size() > kMaxOutcomes) return false;
    if (c.protocols.size() > kMaxProtocols) return false;
    for (const Outcome& o : c.outcomes) {
      if (static_cast<std::size_t>(o.kind) >= kOutcomeKindCount) return false;
      if (o.event >= 32) return false;
    }
    for (std::uint8_t p : c.protocols) {
      if (p >= kProtocolNameCount) return false;
    }
  }
  if (s.wakes.size() > kMaxWakes || s.draws.size() > kMaxDraws) return false;
  for (const ExternalWake& w : s.wakes) {
    if (w.after_call >= s.calls || w.child >= s.children.size()) return false;
  }
  return true;
}

namespace {

// Decodes `bytes` into `s` in the memory it holds: a child it needs beyond
// those of `s` comes from `spare`, and one it does not need goes there, with
// its memory. (Freeing memory in one input and allocating it in the next
// would make libFuzzer run the second again, as a possible leak.)
void DecodeInto(std::span<const std::uint8_t> bytes, PollScript& s,
                std::vector<ChildScript>& spare) {
  Reader in(bytes);
  s.policy = static_cast<PolicyKind>(in.Next() % kPolicyCount);
  s.calls = static_cast<std::uint8_t>(1 + in.Next() % kMaxCalls);
  const std::size_t wanted = 1 + in.Next() % kMaxScriptChildren;
  std::size_t n = 0;
  while (n < wanted && (n == 0 || !in.AtEnd())) {
    if (n == s.children.size()) {
      if (spare.empty()) {
        s.children.emplace_back();
      } else {
        s.children.push_back(std::move(spare.back()));
        spare.pop_back();
      }
    }
    ChildScript& child = s.children[n++];
    const std::uint8_t header = in.Next();
    child.outcomes.resize(header & 0x0F);
    child.loop = (header & 0x10) != 0;
    child.protocols.resize(header >> 5);
    for (Outcome& o : child.outcomes) {
      const std::uint8_t b = in.Next();
      o.kind = static_cast<OutcomeKind>((b & 7) % kOutcomeKindCount);
      o.event =
          o.kind == OutcomeKind::kReady ? static_cast<std::uint8_t>(b >> 3) : 0;
    }
    for (std::uint8_t& p : child.protocols) {
      p = static_cast<std::uint8_t>(in.Next() % kProtocolNameCount);
    }
  }
  while (s.children.size() > n) {
    spare.push_back(std::move(s.children.back()));
    s.children.pop_back();
  }
  s.wakes.resize(in.Next() % (kMaxWakes + 1));
  for (ExternalWake& w : s.wakes) {
    w.after_call = static_cast<std::uint8_t>(in.Next() % s.calls);
    w.child = static_cast<std::uint8_t>(in.Next() % n);
  }
  s.draws.resize(in.Next() % (kMaxDraws + 1));
  for (std::uint8_t& d : s.draws) d = in.Next();
}

}  // namespace

PollScript DecodePollScript(std::span<const std::uint8_t> bytes) {
  PollScript s;
  std::vector<ChildScript> spare;
  DecodeInto(bytes, s, spare);
  return s;
}

const PollScript& PollScriptDecoder::Decode(
    std::span<const std::uint8_t> bytes) {
  DecodeInto(bytes, script_, spare_);
  return script_;
}

std::vector<std::uint8_t> EncodePollScript(const PollScript& s) {
  std::vector<std::uint8_t> out;
  out.push_back(static_cast<std::uint8_t>(s.policy));
  out.push_back(static_cast<std::uint8_t>(s.calls - 1));
  out.push_back(static_cast<std::uint8_t>(s.children.size() - 1));
  for (const ChildScript& child : s.children) {
    out.push_back(static_cast<std::uint8_t>(child.outcomes.size() |
                                            (child.loop ? 0x10 : 0) |
                                            (child.protocols.size() << 5)));
    for (const Outcome& o : child.outcomes) {
      const int event = o.kind == OutcomeKind::kReady ? o.event : 0;
      out.push_back(
          static_cast<std::uint8_t>(static_cast<int>(o.kind) | (event << 3)));
    }
    for (std::uint8_t p : child.protocols) out.push_back(p);
  }
  out.push_back(static_cast<std::uint8_t>(s.wakes.size()));
  for (const ExternalWake& w : s.wakes) {
    out.push_back(w.after_call);
    out.push_back(w.child);
  }
  out.push_back(static_cast<std::uint8_t>(s.draws.size()));
  for (std::uint8_t d : s.draws) out.push_back(d);
  return out;
}

std::uint8_t CompositeBit(std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return 0;
  return static_cast<std::uint8_t>((bytes[0] / kPolicyCount) & 1);
}

std::vector<std::uint8_t> WithCompositeBit(std::vector<std::uint8_t> bytes,
                                           std::uint8_t bit) {
  const std::size_t policy = bytes[0] % kPolicyCount;
  bytes[0] = static_cast<std::uint8_t>(policy + kPolicyCount * (bit & 1));
  return bytes;
}

std::string DescribeOutcomes(const ChildScript& child) {
  std::string out = "[";
  for (std::size_t i = 0; i < child.outcomes.size(); ++i) {
    if (i > 0) out += ' ';
    const Outcome& o = child.outcomes[i];
    out += OutcomeLetter(o.kind);
    if (o.kind == OutcomeKind::kReady) out += std::to_string(o.event);
  }
  out += ']';
  if (child.loop) out += " loop";
  return out;
}

std::string DescribePollScript(const PollScript& s) {
  std::string out = "policy " + std::string(PolicyName(s.policy)) + ", " +
                    std::to_string(s.calls) + " calls, " +
                    std::to_string(s.children.size()) + " children\n";
  for (std::size_t i = 0; i < s.children.size(); ++i) {
    const ChildScript& child = s.children[i];
    out += "  child " + std::to_string(i) + ": " + DescribeOutcomes(child);
    if (!child.protocols.empty()) {
      out += "  protocols";
      for (std::uint8_t p : child.protocols) {
        out += ' ';
        out += ProtocolName(p);
      }
    }
    out += '\n';
  }
  for (const ExternalWake& w : s.wakes) {
    out += "  wake child " + std::to_string(w.child) + " after call " +
           std::to_string(w.after_call) + "\n";
  }
  if (!s.draws.empty()) {
    out += "  draws";
    for (std::uint8_t d : s.draws) out += ' ' + std::to_string(d);
    out += '\n';
  }
  out +=
      "  (R<e> Ready(e), P Pending, W Pending with self-wake, D Done, "
      "T throw)\n";
  return out;
}

std::vector<PollScript> ShrinkPollScript(const PollScript& s) {
  std::vector<PollScript> out;
  // One child fewer; wakes follow their child's new index.
  if (s.children.size() > 1) {
    for (std::size_t i = 0; i < s.children.size(); ++i) {
      PollScript c = s;
      c.children.erase(c.children.begin() + static_cast<std::ptrdiff_t>(i));
      std::erase_if(c.wakes,
                    [&](const ExternalWake& w) { return w.child == i; });
      for (ExternalWake& w : c.wakes) {
        if (w.child > i) --w.child;
      }
      out.push_back(std::move(c));
    }
  }
  // Fewer calls.
  for (int calls : {1, s.calls / 2, s.calls - 1}) {
    if (calls >= 1 && calls < s.calls) {
      PollScript c = s;
      c.calls = static_cast<std::uint8_t>(calls);
      FitWakes(c);
      out.push_back(std::move(c));
    }
  }
  if (!s.wakes.empty()) {
    PollScript c = s;
    c.wakes.clear();
    out.push_back(std::move(c));
  }
  if (!s.draws.empty()) {
    PollScript c = s;
    c.draws.clear();
    out.push_back(std::move(c));
  }
  for (std::size_t i = 0; i < s.children.size(); ++i) {
    const ChildScript& child = s.children[i];
    // One outcome fewer.
    for (std::size_t k = 0; k < child.outcomes.size(); ++k) {
      PollScript c = s;
      auto& outcomes = c.children[i].outcomes;
      outcomes.erase(outcomes.begin() + static_cast<std::ptrdiff_t>(k));
      out.push_back(std::move(c));
    }
    if (child.loop) {
      PollScript c = s;
      c.children[i].loop = false;
      out.push_back(std::move(c));
    }
    if (!child.protocols.empty()) {
      PollScript c = s;
      c.children[i].protocols.clear();
      out.push_back(std::move(c));
    }
    // One outcome simpler: Pending, or Ready(0).
    for (std::size_t k = 0; k < child.outcomes.size(); ++k) {
      const Outcome o = child.outcomes[k];
      for (Outcome simpler : {Outcome{OutcomeKind::kPending, 0},
                              Outcome{OutcomeKind::kReady, 0}}) {
        if (static_cast<int>(simpler.kind) < static_cast<int>(o.kind) ||
            (simpler.kind == o.kind && simpler.event < o.event)) {
          PollScript c = s;
          c.children[i].outcomes[k] = simpler;
          out.push_back(std::move(c));
        }
      }
    }
  }
  return out;
}

}  // namespace fairwire::poll
