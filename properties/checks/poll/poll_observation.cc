// The observation's byte codec, shape check and printer (version 1).
//
//   "FWOB", version byte, varint name length, name, varint children,
//   child-kind byte, varint event count, then per event a kind byte and:
//     kCallBegin   varint call, varint waker
//     kPoll        varint child, varint waker, outcome byte, event byte
//     kCallEnd     result byte, varint tag, event byte, done byte
//     kWakeBegin   varint child, varint waker, cause byte
//     kWakeEnd     nothing
//     kCallerWoken varint waker
//   Varints are protobuf's base-128, at most 5 bytes, below 2^32.
#include "fairwire/checks/poll_observation.h"

#include <array>

namespace fairwire::poll {
namespace {

constexpr std::array<std::uint8_t, 4> kMagic = {'F', 'W', 'O', 'B'};

void PutVarint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

// Reads fields in order; the first failure is kept and every later read
// returns 0, so a decoder reads straight through and checks once.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::uint8_t Byte(const char* what) {
    if (failed()) return 0;
    if (pos_ >= bytes_.size()) {
      Fail(std::string("truncated: ") + what);
      return 0;
    }
    return bytes_[pos_++];
  }
  // A byte below `limit`.
  std::uint8_t Below(std::uint8_t limit, const char* what) {
    const std::size_t at = pos_;
    const std::uint8_t b = Byte(what);
    if (!failed() && b >= limit) {
      Fail(std::string(what) + " " + std::to_string(b) + " is out of range",
           at);
    }
    return b;
  }
  std::uint32_t Varint(const char* what) {
    const std::size_t at = pos_;
    std::uint64_t v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      const std::uint8_t b = Byte(what);
      if (failed()) return 0;
      v |= std::uint64_t{b & 0x7Fu} << shift;
      if ((b & 0x80) == 0) {
        if (v > 0xFFFFFFFFu) break;
        return static_cast<std::uint32_t>(v);
      }
    }
    Fail(std::string(what) + ": varint over 32 bits", at);
    return 0;
  }
  void Fail(std::string reason) { Fail(std::move(reason), pos_); }
  void Fail(std::string reason, std::size_t at) {
    if (failed()) return;
    error_.reason = std::move(reason);
    error_.offset = at;
    failed_ = true;
  }
  bool failed() const { return failed_; }
  std::size_t pos() const { return pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  std::span<const std::uint8_t> Take(std::size_t n) {
    if (failed()) return {};
    if (bytes_.size() - pos_ < n) {
      Fail("truncated: composite name");
      return {};
    }
    const auto out = bytes_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  ObservationError error() const { return error_; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  bool failed_ = false;
  ObservationError error_;
};

const char* KindName(ObservedEventKind kind) {
  switch (kind) {
    case ObservedEventKind::kCallBegin:
      return "call-begin";
    case ObservedEventKind::kPoll:
      return "poll";
    case ObservedEventKind::kCallEnd:
      return "call-end";
    case ObservedEventKind::kWakeBegin:
      return "wake-begin";
    case ObservedEventKind::kWakeEnd:
      return "wake-end";
    case ObservedEventKind::kCallerWoken:
      return "caller-woken";
  }
  return "?";
}

const char* CauseName(WakeCause cause) {
  switch (cause) {
    case WakeCause::kSelf:
      return "self";
    case WakeCause::kExternal:
      return "external";
    case WakeCause::kProbe:
      return "probe";
  }
  return "?";
}

}  // namespace

std::string_view OutcomeName(OutcomeKind kind) {
  switch (kind) {
    case OutcomeKind::kPending:
      return "Pending";
    case OutcomeKind::kReady:
      return "Ready";
    case OutcomeKind::kPendingSelfWake:
      return "Pending+self-wake";
    case OutcomeKind::kDone:
      return "Done";
    case OutcomeKind::kThrow:
      return "threw";
  }
  return "?";
}

std::string_view CallResultName(CallResult result) {
  switch (result) {
    case CallResult::kReady:
      return "Ready";
    case CallResult::kPending:
      return "Pending";
    case CallResult::kDone:
      return "Done";
    case CallResult::kThrew:
      return "threw";
  }
  return "?";
}

std::vector<std::uint8_t> EncodeObservation(const Observation& o) {
  std::vector<std::uint8_t> out(kMagic.begin(), kMagic.end());
  out.push_back(kObservationVersion);
  PutVarint(out, o.composite.size());
  out.insert(out.end(), o.composite.begin(), o.composite.end());
  PutVarint(out, o.children);
  out.push_back(static_cast<std::uint8_t>(o.child_kind));
  PutVarint(out, o.events.size());
  for (const ObservedEvent& e : o.events) {
    out.push_back(static_cast<std::uint8_t>(e.kind));
    switch (e.kind) {
      case ObservedEventKind::kCallBegin:
        PutVarint(out, e.call);
        PutVarint(out, e.waker);
        break;
      case ObservedEventKind::kPoll:
        PutVarint(out, e.child);
        PutVarint(out, e.waker);
        out.push_back(static_cast<std::uint8_t>(e.outcome));
        out.push_back(e.event);
        break;
      case ObservedEventKind::kCallEnd:
        out.push_back(static_cast<std::uint8_t>(e.result));
        PutVarint(out, e.tag);
        out.push_back(e.event);
        out.push_back(e.done ? 1 : 0);
        break;
      case ObservedEventKind::kWakeBegin:
        PutVarint(out, e.child);
        PutVarint(out, e.waker);
        out.push_back(static_cast<std::uint8_t>(e.cause));
        break;
      case ObservedEventKind::kWakeEnd:
        break;
      case ObservedEventKind::kCallerWoken:
        PutVarint(out, e.waker);
        break;
    }
  }
  return out;
}

DecodedObservation DecodeObservation(std::span<const std::uint8_t> bytes) {
  Reader in(bytes);
  for (std::uint8_t m : kMagic) {
    if (in.Byte("magic") != m) in.Fail("not an observation (magic)", 0);
  }
  const std::size_t version_at = in.pos();
  if (in.Byte("version") != kObservationVersion && !in.failed()) {
    in.Fail("observation version " + std::to_string(bytes[version_at]) +
                ", this reader knows " + std::to_string(kObservationVersion),
            version_at);
  }
  Observation o;
  const std::size_t name_at = in.pos();
  const std::uint32_t name_size = in.Varint("composite name length");
  if (!in.failed() && name_size > kMaxObservationName) {
    in.Fail("composite name of " + std::to_string(name_size) + " bytes",
            name_at);
  }
  const auto name = in.Take(in.failed() ? 0 : name_size);
  o.composite.assign(name.begin(), name.end());
  const std::size_t children_at = in.pos();
  o.children = in.Varint("children");
  if (!in.failed() && (o.children == 0 || o.children > kMaxScriptChildren)) {
    in.Fail(std::to_string(o.children) + " children", children_at);
  }
  o.child_kind = static_cast<ChildKind>(in.Below(2, "child kind"));
  const std::size_t count_at = in.pos();
  const std::uint32_t count = in.Varint("event count");
  if (!in.failed() && count > kMaxObservationEvents) {
    in.Fail(std::to_string(count) + " events", count_at);
  }
  // Every event takes at least one byte: no reservation past the input.
  if (!in.failed() && count <= bytes.size()) o.events.reserve(count);
  for (std::uint32_t k = 0; k < count && !in.failed(); ++k) {
    ObservedEvent e;
    const std::size_t kind_at = in.pos();
    const std::uint8_t kind = in.Byte("event kind");
    if (in.failed()) break;
    if (kind < 1 || kind > 6) {
      in.Fail("event kind " + std::to_string(kind), kind_at);
      break;
    }
    e.kind = static_cast<ObservedEventKind>(kind);
    switch (e.kind) {
      case ObservedEventKind::kCallBegin:
        e.call = in.Varint("call");
        e.waker = in.Varint("waker");
        break;
      case ObservedEventKind::kPoll:
        e.child = in.Varint("child");
        e.waker = in.Varint("waker");
        e.outcome = static_cast<OutcomeKind>(
            in.Below(kOutcomeKindCount, "poll outcome"));
        e.event = in.Below(32, "event");
        break;
      case ObservedEventKind::kCallEnd:
        e.result = static_cast<CallResult>(in.Below(4, "call result"));
        e.tag = in.Varint("tag");
        e.event = in.Below(32, "event");
        e.done = in.Below(2, "done flag") != 0;
        break;
      case ObservedEventKind::kWakeBegin:
        e.child = in.Varint("child");
        e.waker = in.Varint("waker");
        e.cause = static_cast<WakeCause>(in.Below(3, "wake cause"));
        break;
      case ObservedEventKind::kWakeEnd:
        break;
      case ObservedEventKind::kCallerWoken:
        e.waker = in.Varint("waker");
        break;
    }
    o.events.push_back(e);
  }
  if (!in.failed() && !in.at_end()) in.Fail("trailing bytes");
  if (in.failed()) return {std::nullopt, in.error()};
  return {std::move(o), {}};
}

std::optional<ObservationError> CheckObservationShape(const Observation& o) {
  const auto bad = [](std::size_t k, std::string why) {
    return ObservationError{std::move(why), k};
  };
  std::size_t calls = 0;      // calls begun
  bool in_call = false;       // between a kCallBegin and its kCallEnd
  bool in_wake = false;       // between a kWakeBegin and its kWakeEnd
  std::uint32_t next_id = 0;  // waker ids are numbered in order of sight
  const auto sight = [&next_id](std::uint32_t id) {
    if (id > next_id) return false;
    if (id == next_id) ++next_id;
    return true;
  };
  for (std::size_t k = 0; k < o.events.size(); ++k) {
    const ObservedEvent& e = o.events[k];
    switch (e.kind) {
      case ObservedEventKind::kCallBegin:
        if (in_call || in_wake) return bad(k, "a call begins inside another");
        if (e.call != calls) return bad(k, "call numbered out of order");
        if (e.waker != next_id) return bad(k, "a caller's waker seen before");
        sight(e.waker);
        ++calls;
        in_call = true;
        break;
      case ObservedEventKind::kPoll:
        if (!in_call) return bad(k, "a poll outside a call");
        if (e.child >= o.children) return bad(k, "no such child");
        if (!sight(e.waker)) return bad(k, "waker id out of order");
        break;
      case ObservedEventKind::kCallEnd:
        if (!in_call || in_wake)
          return bad(k, "a call ends that did not begin");
        if (e.result == CallResult::kReady && e.tag >= o.children) {
          return bad(k, "Ready tagged with no such child");
        }
        in_call = false;
        break;
      case ObservedEventKind::kWakeBegin:
        if (in_wake) return bad(k, "a wake begins inside another");
        if (e.child >= o.children) return bad(k, "no such child");
        if ((e.cause == WakeCause::kSelf) != in_call) {
          return bad(k, "a self-wake outside a call, or another inside one");
        }
        if (!sight(e.waker)) return bad(k, "waker id out of order");
        in_wake = true;
        break;
      case ObservedEventKind::kWakeEnd:
        if (!in_wake) return bad(k, "a wake ends that did not begin");
        in_wake = false;
        break;
      case ObservedEventKind::kCallerWoken:
        if (e.waker >= next_id) return bad(k, "no such waker");
        break;
    }
  }
  if (in_call || in_wake) {
    return bad(o.events.size(), "the run ends inside a call or a wake");
  }
  return std::nullopt;
}

std::string DescribeObservation(const Observation& o) {
  std::string out =
      o.composite + ", " + std::to_string(o.children) +
      (o.child_kind == ChildKind::kFuture ? " future" : " stream") +
      " children, " + std::to_string(o.events.size()) + " events\n";
  for (const ObservedEvent& e : o.events) {
    out += "  ";
    out += KindName(e.kind);
    switch (e.kind) {
      case ObservedEventKind::kCallBegin:
        out +=
            " " + std::to_string(e.call) + " waker " + std::to_string(e.waker);
        break;
      case ObservedEventKind::kPoll:
        out += " child " + std::to_string(e.child) + " waker " +
               std::to_string(e.waker) + " -> ";
        out += OutcomeName(e.outcome);
        if (e.outcome == OutcomeKind::kReady) {
          out += "(" + std::to_string(e.event) + ")";
        }
        break;
      case ObservedEventKind::kCallEnd:
        out += " -> ";
        out += CallResultName(e.result);
        if (e.result == CallResult::kReady) {
          out += "(child " + std::to_string(e.tag) + ", event " +
                 std::to_string(e.event) + ")";
        }
        if (e.done) out += " done";
        break;
      case ObservedEventKind::kWakeBegin:
        out += std::string(" ") + CauseName(e.cause) + " child " +
               std::to_string(e.child) + " waker " + std::to_string(e.waker);
        break;
      case ObservedEventKind::kWakeEnd:
        break;
      case ObservedEventKind::kCallerWoken:
        out += " waker " + std::to_string(e.waker);
        break;
    }
    out += '\n';
  }
  return out;
}

}  // namespace fairwire::poll
