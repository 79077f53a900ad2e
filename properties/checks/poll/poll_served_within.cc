// Bounded waiting: properties 7 and 8 (every ready child served within a
// bound of calls), the bounds themselves, and the starvation search the
// negative tests use.
#include <algorithm>

#include "fairwire/checks/poll_checks.h"
#include "poll_checks_internal.h"

namespace fairwire::poll {
namespace {

using internal::Fail;
using internal::HasThrow;
using Violation = std::optional<std::string>;

// Every child ready before call t (per the model) is served within
// bound(live children before t) calls, for windows inside the run. One
// backward pass keeps, per child, the first call >= t that served it; the
// violation reported is the one of the earliest call (then lowest child).
// `rule()` names the bound in the message (built only for a violation).
template <class Bound, class Rule>
Violation ServedWithin(PollProperty p, const PollScript& s, const ModelRun& m,
                       const ObservedRun& o, Bound bound, Rule rule) {
  const std::size_t n = s.children.size();
  const std::size_t calls = o.calls.size();
  const std::size_t checked = std::min(calls, m.live_before.size());
  // next_served[i]: the first call >= t that returned child i's event.
  // This thread's, kept for its memory (a check does not call itself).
  thread_local std::vector<std::size_t> next_served;
  next_served.assign(n, calls);
  bool found = false;
  std::size_t bad_call = 0, bad_child = 0, bad_bound = 0;
  for (std::size_t t = calls; t-- > 0;) {
    if (o.calls[t].result == CallResult::kReady && o.calls[t].tag < n) {
      next_served[o.calls[t].tag] = t;
    }
    if (t >= checked) continue;
    const std::size_t b = bound(m.live_before[t]);
    if (t + b > calls) continue;
    for (std::size_t i = 0; i < n && i < m.children; ++i) {
      if (m.ReadyBefore(t, i) && next_served[i] >= t + b) {
        found = true;
        bad_call = t;
        bad_child = i;
        bad_bound = b;
        break;
      }
    }
  }
  if (!found) return std::nullopt;
  return Fail(p, o, bad_call,
              "child " + std::to_string(bad_child) +
                  " was ready but not served within " +
                  std::to_string(bad_bound) + " calls (" + rule() + ", " +
                  std::to_string(m.live_before[bad_call]) + " live children)");
}

}  // namespace

std::optional<std::size_t> WaitingBound(PolicyKind policy, std::size_t n) {
  const std::size_t others = n == 0 ? 0 : n - 1;
  switch (policy) {
    case PolicyKind::kRoundRobin:
      return others + 1;
    case PolicyKind::kBudgeted2:
      return others * 2 + 1;
    case PolicyKind::kBudgeted3:
      return others * 3 + 1;
    default:
      return std::nullopt;
  }
}

std::optional<std::size_t> LongestBurst(const PollScript& script) {
  std::size_t longest = 0;
  for (const ChildScript& c : script.children) {
    const std::size_t size = c.outcomes.size();
    const std::size_t rounds = c.loop ? 2 : 1;
    std::size_t run = 0;
    for (std::size_t k = 0; k < size * rounds; ++k) {
      if (c.outcomes[k % size].kind == OutcomeKind::kReady) {
        ++run;
        longest = std::max(longest, run);
      } else {
        run = 0;
      }
    }
    if (c.loop && size > 0 && run == size * rounds) return std::nullopt;
  }
  return longest;
}

namespace internal {

std::optional<std::string> CheckServedWithin(PollProperty property,
                                             const PollScript& s,
                                             PolicyKind policy,
                                             const ModelRun& m,
                                             const ObservedRun& o) {
  if (property == PollProperty::kBoundedWaiting) {
    if (HasThrow(s) || !WaitingBound(policy, 1)) return std::nullopt;
    return ServedWithin(
        property, s, m, o,
        [policy](std::size_t n) { return *WaitingBound(policy, n); },
        [policy] { return std::string(PolicyName(policy)) + "'s bound"; });
  }
  if (policy != PolicyKind::kSticky && !WaitingBound(policy, 1)) {
    return std::nullopt;
  }
  const std::optional<std::size_t> burst = LongestBurst(s);
  if (HasThrow(s) || !burst || *burst == 0) return std::nullopt;
  const std::size_t b = *burst;
  return ServedWithin(
      property, s, m, o,
      [b](std::size_t n) { return (n == 0 ? 0 : n - 1) * b + 1; },
      [b] { return "bursts of at most " + std::to_string(b) + ", (N-1)*B+1"; });
}

}  // namespace internal

std::optional<std::string> FindStarvation(const PollScript& script,
                                          PolicyKind policy,
                                          CompositeKind kind) {
  if (HasThrow(script)) return std::nullopt;
  const ObservedRun observed = RunScript(script, policy, kind);
  const ModelRun model = RunModel(script, policy);
  return ServedWithin(
      PollProperty::kBoundedWaiting, script, model, observed,
      [](std::size_t n) { return n; },
      [] { return std::string("RoundRobin's bound demanded"); });
}

}  // namespace fairwire::poll
