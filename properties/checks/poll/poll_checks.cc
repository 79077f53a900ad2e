// The poll properties over an observed run and the model's run.
#include "fairwire/checks/poll_checks.h"

#include <algorithm>
#include <span>

#include "poll_checks_internal.h"

namespace fairwire::poll {
namespace internal {

std::string Fail(PollProperty p, const ObservedRun& o, std::size_t call,
                 const std::string& what) {
  return std::string(PropertyName(p)) + ": " + o.composite + " call " +
         std::to_string(call) + ": " + what;
}

bool HasThrow(const PollScript& s) {
  for (const ChildScript& c : s.children) {
    for (const Outcome& o : c.outcomes) {
      if (o.kind == OutcomeKind::kThrow) return true;
    }
  }
  return false;
}

}  // namespace internal

namespace {

using internal::Fail;
using internal::HasThrow;
using Violation = std::optional<std::string>;

std::string List(std::span<const std::size_t> items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ' ';
    out += std::to_string(items[i]);
  }
  return out + "]";
}

std::vector<std::size_t> Children(std::span<const PollRecord> polls) {
  std::vector<std::size_t> out;
  for (const PollRecord& r : polls) out.push_back(r.child);
  return out;
}

std::string ResultText(CallResult result, std::size_t tag, std::uint8_t event) {
  if (result == CallResult::kReady) {
    return "Ready(child " + std::to_string(tag) + ", event " +
           std::to_string(event) + ")";
  }
  return std::string(CallResultName(result));
}

bool IsPendingKind(OutcomeKind k) {
  return k == OutcomeKind::kPending || k == OutcomeKind::kPendingSelfWake;
}

// Whether some child id appears twice in `polls` (ids of n children are
// below n; any other id is compared by the slow path).
bool PolledTwice(std::span<const PollRecord> polls, std::size_t n,
                 std::vector<std::size_t>& stamp, std::size_t mark) {
  for (const PollRecord& r : polls) {
    if (r.child >= n) {
      std::vector<std::size_t> polled = Children(polls);
      std::sort(polled.begin(), polled.end());
      return std::adjacent_find(polled.begin(), polled.end()) != polled.end();
    }
    if (stamp[r.child] == mark) return true;
    stamp[r.child] = mark;
  }
  return false;
}

Violation AtMostOnce(const PollScript& s, const ObservedRun& o) {
  const std::size_t n = s.children.size();
  // stamp[i] == t + 1: child i was polled in call t (no per-call vector).
  // Every table a property keeps is this thread's, kept for its memory: a
  // property does not call itself.
  thread_local std::vector<std::size_t> stamp;
  stamp.assign(n, 0);
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    if (PolledTwice(o.PollsOf(t), n, stamp, t + 1)) {
      return Fail(PollProperty::kAtMostOnce, o, t,
                  "polled " + List(Children(o.PollsOf(t))));
    }
  }
  return std::nullopt;
}

Violation Provenance(const ObservedRun& o) {
  const PollProperty p = PollProperty::kProvenance;
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    const ObservedCall& c = o.calls[t];
    const std::span<const PollRecord> polls = o.PollsOf(t);
    for (std::size_t k = 0; k + 1 < polls.size(); ++k) {
      if (polls[k].returned == OutcomeKind::kReady) {
        return Fail(p, o, t,
                    "child " + std::to_string(polls[k].child) +
                        " was Ready but the call went on to poll " +
                        List(Children(polls)));
      }
    }
    const bool last_ready =
        !polls.empty() && polls.back().returned == OutcomeKind::kReady;
    if (c.result != CallResult::kReady) {
      if (last_ready) {
        return Fail(p, o, t,
                    "child " + std::to_string(polls.back().child) +
                        " was Ready but the call returned " +
                        ResultText(c.result, c.tag, c.event));
      }
      continue;
    }
    if (!last_ready || polls.back().child != c.tag ||
        polls.back().event != c.event) {
      return Fail(p, o, t,
                  "returned " + ResultText(c.result, c.tag, c.event) +
                      " but the last child polled of " + List(Children(polls)) +
                      " was not Ready with it");
    }
  }
  return std::nullopt;
}

Violation PendingCompleteness(const PollScript& s, const ObservedRun& o) {
  const std::size_t n = s.children.size();
  thread_local std::vector<std::uint8_t> done;
  done.assign(n, 0);
  std::size_t live = n;
  // polled[i] == t + 1: child i was polled in call t.
  thread_local std::vector<std::size_t> polled;
  polled.assign(n, 0);
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    const ObservedCall& c = o.calls[t];
    const std::span<const PollRecord> polls = o.PollsOf(t);
    bool all_pending_or_done = true;
    bool some_pending = false;
    // Distinct live children polled in this call: every live child was
    // polled iff there are `live` of them (no pass over all n children).
    std::size_t live_polled = 0;
    for (const PollRecord& r : polls) {
      if (r.child < n && polled[r.child] != t + 1) {
        polled[r.child] = t + 1;
        if (done[r.child] == 0) ++live_polled;
      }
      if (IsPendingKind(r.returned)) {
        some_pending = true;
      } else if (r.returned != OutcomeKind::kDone) {
        all_pending_or_done = false;
      }
    }
    const bool every_live_polled = live_polled == live;
    const bool should_pend =
        every_live_polled && all_pending_or_done && some_pending;
    if (c.result != CallResult::kThrew &&
        (c.result == CallResult::kPending) != should_pend) {
      return Fail(PollProperty::kPendingCompleteness, o, t,
                  "returned " + ResultText(c.result, c.tag, c.event) +
                      " after polling " + List(Children(polls)) +
                      (should_pend ? " (every live child was Pending)"
                                   : " (not every live child was polled "
                                     "and Pending)"));
    }
    for (const PollRecord& r : polls) {
      if (Finishes(o.child_kind, r.returned) && r.child < n &&
          done[r.child] == 0) {
        done[r.child] = 1;
        --live;
      }
    }
  }
  return std::nullopt;
}

Violation WakeRegistration(const ObservedRun& o) {
  const PollProperty p = PollProperty::kWakeRegistration;
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    const ObservedCall& c = o.calls[t];
    const std::span<const PollRecord> polls = o.PollsOf(t);
    std::uint64_t self_wakes = 0;
    for (const PollRecord& r : polls) {
      if (!(r.waker == c.waker)) {
        return Fail(p, o, t,
                    "child " + std::to_string(r.child) +
                        " was polled with a stale waker");
      }
      if (r.returned == OutcomeKind::kPendingSelfWake) ++self_wakes;
    }
    if (c.wakes_during_call != self_wakes) {
      return Fail(p, o, t,
                  std::to_string(self_wakes) + " self-wakes but the call's " +
                      "waker was woken " + std::to_string(c.wakes_during_call) +
                      " times");
    }
    if (!c.stale_registrations.empty()) {
      return Fail(p, o, t,
                  "Pending, but live children " + List(c.stale_registrations) +
                      " last saw another call's waker");
    }
    if (!c.lost_wakes.empty()) {
      return Fail(p, o, t,
                  "Pending, and a wake from children " + List(c.lost_wakes) +
                      " did not reach the call's waker");
    }
    if (!c.missed_external_wakes.empty()) {
      return Fail(p, o, t,
                  "external wake of children " + List(c.missed_external_wakes) +
                      " missed the waker they were last polled with");
    }
  }
  return std::nullopt;
}

// One event of a stream, with the child it belongs to.
struct Tagged {
  std::size_t child = 0;
  int event = 0;
  friend bool operator==(const Tagged&, const Tagged&) = default;
};

// Groups `events` (of children below n) by child, keeping each child's
// events in stream order: two grouped streams are equal iff every child's
// filtered sequences are. A counting sort through `scratch`, which keeps
// its memory between runs (std::stable_sort allocates a buffer per call).
void GroupByChild(std::vector<Tagged>& events, std::size_t n,
                  std::vector<Tagged>& scratch) {
  thread_local std::vector<std::size_t> next;  // child -> its next slot
  next.assign(n + 1, 0);
  for (const Tagged& e : events) ++next[e.child + 1];
  for (std::size_t i = 1; i <= n; ++i) next[i] += next[i - 1];
  scratch.resize(events.size());
  for (const Tagged& e : events) scratch[next[e.child]++] = e;
  events.swap(scratch);
}

// Child i's events in a grouped stream.
std::span<const Tagged> EventsOf(const std::vector<Tagged>& grouped,
                                 std::size_t i) {
  const auto [first, last] = std::equal_range(
      grouped.begin(), grouped.end(), Tagged{i, 0},
      [](const Tagged& a, const Tagged& b) { return a.child < b.child; });
  return {first, last};
}

bool SameEvents(std::span<const Tagged> a, std::span<const Tagged> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// `m` null: each child's events as it emitted them, without the model's.
Violation NoLoss(const PollScript& s, const ModelRun* m, const ObservedRun& o) {
  const std::size_t n = s.children.size();
  // Three flat streams instead of three vectors per child, kept for their
  // memory (NoLoss does not call itself).
  thread_local std::vector<Tagged> returned, emitted, predicted, scratch;
  returned.clear();
  emitted.clear();
  predicted.clear();
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    const ObservedCall& c = o.calls[t];
    const std::span<const PollRecord> polls = o.PollsOf(t);
    for (const PollRecord& r : polls) {
      if (r.returned == OutcomeKind::kReady && r.child < n) {
        emitted.push_back({r.child, r.event});
      }
    }
    if (c.result == CallResult::kReady && c.tag < n) {
      returned.push_back({c.tag, c.event});
    }
    if (m != nullptr && t < m->calls.size() &&
        m->calls[t].result == CallResult::kReady && m->calls[t].tag < n) {
      predicted.push_back({m->calls[t].tag, m->calls[t].event});
    }
  }
  GroupByChild(returned, n, scratch);
  GroupByChild(emitted, n, scratch);
  GroupByChild(predicted, n, scratch);
  if (m == nullptr) predicted = returned;
  if (returned == emitted && returned == predicted) return std::nullopt;
  for (std::size_t i = 0; i < n; ++i) {
    const std::span<const Tagged> ret = EventsOf(returned, i);
    const std::span<const Tagged> emi = EventsOf(emitted, i);
    const std::span<const Tagged> pre = EventsOf(predicted, i);
    if (!SameEvents(ret, emi) || !SameEvents(ret, pre)) {
      return std::string(PropertyName(PollProperty::kNoLoss)) + ": " +
             o.composite + ": child " + std::to_string(i) + " emitted " +
             std::to_string(emi.size()) + " events, the composite " +
             "returned " + std::to_string(ret.size()) + " tagged with it" +
             (m == nullptr
                  ? std::string(" (or their order differs)")
                  : ", the model predicts " + std::to_string(pre.size()) +
                        " (or their order differs)");
    }
  }
  return std::nullopt;
}

Violation CursorExactness(const ModelRun& m, const ObservedRun& o) {
  for (std::size_t t = 0; t < o.calls.size() && t < m.calls.size(); ++t) {
    const ObservedCall& c = o.calls[t];
    const std::span<const PollRecord> polls = o.PollsOf(t);
    const ModelResult& want = m.calls[t];
    const std::span<const std::size_t> want_polled = m.PolledOf(t);
    const bool same_polled = std::equal(
        polls.begin(), polls.end(), want_polled.begin(), want_polled.end(),
        [](const PollRecord& r, std::size_t child) {
          return r.child == child;
        });
    const bool same_result = c.result == want.result &&
                             (c.result != CallResult::kReady ||
                              (c.tag == want.tag && c.event == want.event));
    if (!same_polled || !same_result) {
      return Fail(PollProperty::kCursorExactness, o, t,
                  "polled " + List(Children(polls)) + " -> " +
                      ResultText(c.result, c.tag, c.event) +
                      ", the model polls " + List(want_polled) + " -> " +
                      ResultText(want.result, want.tag, want.event));
    }
  }
  return std::nullopt;
}

Violation Termination(const PollScript& s, const ObservedRun& o) {
  const PollProperty p = PollProperty::kTermination;
  const std::size_t n = s.children.size();
  thread_local std::vector<std::uint8_t> done;
  done.assign(n, 0);
  std::size_t done_count = 0;
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    const ObservedCall& c = o.calls[t];
    const std::span<const PollRecord> polls = o.PollsOf(t);
    for (const PollRecord& r : polls) {
      if (r.child >= n) continue;
      if (done[r.child] != 0) {
        return Fail(p, o, t,
                    "child " + std::to_string(r.child) +
                        (o.child_kind == ChildKind::kFuture
                             ? " was polled after it finished"
                             : " was polled after it returned Done"));
      }
      if (Finishes(o.child_kind, r.returned)) {
        done[r.child] = 1;
        ++done_count;
      }
    }
    const bool all_done = done_count == n;
    // A future finishes with its Ready: the call that delivers the last
    // child's event is Ready, and the composite may say Done then or at
    // the next call.
    const bool last_by_ready = all_done && c.result == CallResult::kReady &&
                               o.child_kind == ChildKind::kFuture &&
                               !polls.empty() &&
                               polls.back().returned == OutcomeKind::kReady;
    if (last_by_ready) continue;
    if (c.result != CallResult::kThrew &&
        (c.result == CallResult::kDone) != all_done) {
      return Fail(p, o, t,
                  "returned " + ResultText(c.result, c.tag, c.event) +
                      " with " + std::to_string(n - done_count) +
                      " children not done");
    }
    if (c.composite_done != all_done) {
      return Fail(p, o, t,
                  std::string("IsDone() is ") +
                      (c.composite_done ? "true" : "false") + " with " +
                      std::to_string(n - done_count) + " children not done");
    }
  }
  return std::nullopt;
}

Violation ProtocolIteration(const PollScript& s, const ObservedRun& o) {
  const std::string_view name = PropertyName(PollProperty::kProtocolIteration);
  // The children's lists, concatenated, compared in place (no vector).
  std::size_t want_size = 0;
  bool same = true;
  for (const ChildScript& c : s.children) {
    for (std::uint8_t id : c.protocols) {
      same = same && want_size < o.protocols.size() &&
             o.protocols[want_size] == ProtocolName(id);
      ++want_size;
    }
  }
  if (!same || o.protocols.size() != want_size) {
    return std::string(name) + ": " + o.composite + " yields " +
           std::to_string(o.protocols.size()) + " protocols, the children " +
           "list " + std::to_string(want_size) + " (or in another order)";
  }
  if (o.protocol_steps != want_size) {
    return std::string(name) + ": " + o.composite +
           " stepped the children's lists " + std::to_string(o.protocol_steps) +
           " times for " + std::to_string(want_size) +
           " protocols (re-walked a child)";
  }
  if (o.protocol_resume_failure >= 0) {
    return std::string(name) + ": " + o.composite + " iterator copied after " +
           std::to_string(o.protocol_resume_failure) +
           " steps did not resume with the rest";
  }
  return std::nullopt;
}

// 11: a Pending call left no woken child unpolled, unless it woke its own
// waker (a composite that yields: it will be polled again).
Violation WokenPendingCompleteness(const ObservedRun& o) {
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    const ObservedCall& c = o.calls[t];
    if (!c.woken_unpolled.empty()) {
      return Fail(PollProperty::kWokenPendingCompleteness, o, t,
                  "Pending, but live children " + List(c.woken_unpolled) +
                      " were woken and not polled, and the call's waker was "
                      "not woken");
    }
  }
  return std::nullopt;
}

// 12: after a Pending call, a wake of the waker a live child last saw
// reaches that call's waker, through whatever the composite wrapped it in.
Violation WakeReachesCaller(const ObservedRun& o) {
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    const ObservedCall& c = o.calls[t];
    if (!c.unheard_wakes.empty()) {
      return Fail(PollProperty::kWakeReachesCaller, o, t,
                  "Pending, and a wake of live children " +
                      List(c.unheard_wakes) +
                      " after it did not reach the call's waker");
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view PropertyName(PollProperty property) {
  switch (property) {
    case PollProperty::kAtMostOnce:
      return "at-most-once";
    case PollProperty::kProvenance:
      return "provenance";
    case PollProperty::kPendingCompleteness:
      return "pending-completeness";
    case PollProperty::kWakeRegistration:
      return "wake-registration";
    case PollProperty::kNoLoss:
      return "no-loss";
    case PollProperty::kCursorExactness:
      return "cursor-exactness";
    case PollProperty::kBoundedWaiting:
      return "bounded-waiting";
    case PollProperty::kFiniteBurstLiveness:
      return "finite-burst-liveness";
    case PollProperty::kTermination:
      return "termination";
    case PollProperty::kProtocolIteration:
      return "protocol-iteration";
    case PollProperty::kWokenPendingCompleteness:
      return "pending-completeness-woken";
    case PollProperty::kWakeReachesCaller:
      return "wake-reaches-caller";
  }
  return "?";
}

std::optional<std::string> CheckProperty(PollProperty property,
                                         const PollScript& s, PolicyKind policy,
                                         const ModelRun& m,
                                         const ObservedRun& o) {
  switch (property) {
    case PollProperty::kAtMostOnce:
      return AtMostOnce(s, o);
    case PollProperty::kProvenance:
      return Provenance(o);
    case PollProperty::kPendingCompleteness:
      return PendingCompleteness(s, o);
    case PollProperty::kWakeRegistration:
      return WakeRegistration(o);
    case PollProperty::kNoLoss:
      return NoLoss(s, &m, o);
    case PollProperty::kCursorExactness:
      return CursorExactness(m, o);
    case PollProperty::kBoundedWaiting:
    case PollProperty::kFiniteBurstLiveness:
      return internal::CheckServedWithin(property, s, policy, m, o);
    case PollProperty::kTermination:
      return Termination(s, o);
    case PollProperty::kProtocolIteration:
      return ProtocolIteration(s, o);
    case PollProperty::kWokenPendingCompleteness:
      return WokenPendingCompleteness(o);
    case PollProperty::kWakeReachesCaller:
      return WakeReachesCaller(o);
  }
  return std::nullopt;
}

std::optional<std::string> CheckModelMatch(const PollScript& script,
                                           const ModelRun& model,
                                           const ObservedRun& observed) {
  if (auto v = CursorExactness(model, observed)) return v;
  return NoLoss(script, &model, observed);
}

std::optional<std::string> CheckPolicyFree(PollProperty property,
                                           const PollScript& script,
                                           const ObservedRun& observed) {
  switch (property) {
    case PollProperty::kAtMostOnce:
      return AtMostOnce(script, observed);
    case PollProperty::kProvenance:
      return Provenance(observed);
    case PollProperty::kPendingCompleteness:
      return PendingCompleteness(script, observed);
    case PollProperty::kWakeRegistration:
      return WakeRegistration(observed);
    case PollProperty::kNoLoss:
      return NoLoss(script, nullptr, observed);
    case PollProperty::kTermination:
      return Termination(script, observed);
    case PollProperty::kWokenPendingCompleteness:
      return WokenPendingCompleteness(observed);
    case PollProperty::kWakeReachesCaller:
      return WakeReachesCaller(observed);
    case PollProperty::kCursorExactness:
    case PollProperty::kBoundedWaiting:
    case PollProperty::kFiniteBurstLiveness:
    case PollProperty::kProtocolIteration:
      break;
  }
  return std::nullopt;
}

std::optional<std::string> CheckOne(PollProperty property,
                                    const PollScript& script, PolicyKind policy,
                                    CompositeKind kind) {
  const ObservedRun observed = RunScript(script, policy, kind);
  const ModelRun model = RunModel(script, policy);
  return CheckProperty(property, script, policy, model, observed);
}

std::optional<std::string> CheckRunAgainst(const PollScript& script,
                                           PolicyKind policy,
                                           CompositeKind kind,
                                           const ModelRun& model) {
  ObservedRun observed = RunScript(script, policy, kind);
  Violation violation;
  for (PollProperty p : kAllProperties) {
    violation = CheckProperty(p, script, policy, model, observed);
    if (violation) break;
  }
  RecycleObservedRun(std::move(observed));
  return violation;
}

std::optional<std::string> CheckRun(const PollScript& script, PolicyKind policy,
                                    CompositeKind kind) {
  // This thread's model run, kept for its capacity (CheckRun does not call
  // itself).
  thread_local ModelRun model;
  RunModel(script, policy, model);
  return CheckRunAgainst(script, policy, kind, model);
}

namespace {

// Every property under `policy` (not script.policy), through Select and
// SelectAll (or the nested baseline), against one model run.
Violation CheckPolicy(const PollScript& script, PolicyKind policy) {
  const ModelRun model = RunModel(script, policy);
  if (policy == PolicyKind::kNested) {
    return CheckRunAgainst(script, policy, CompositeKind::kSelect, model);
  }
  for (CompositeKind kind :
       {CompositeKind::kSelect, CompositeKind::kSelectAll}) {
    if (auto v = CheckRunAgainst(script, policy, kind, model)) return v;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CheckAllPolicies(const PollScript& script) {
  // The policy is a parameter of every run and of the model: no copy of
  // the script per policy.
  for (PolicyKind policy : kAllPolicies) {
    if (auto v = CheckPolicy(script, policy)) return v;
  }
  return std::nullopt;
}

}  // namespace fairwire::poll
