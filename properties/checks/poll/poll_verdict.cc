// JudgeComposite: random scripts through a composite under test, the
// policy-free checks, the models it matches, and the always-ready runs.
#include "fairwire/checks/poll_verdict.h"

#include <algorithm>
#include <random>

#include "fairwire/checks/poll_observed_run.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll {
namespace {}  // namespace

PollScript FitScript(const CompositeUnderTest& c, PollScript s,
                     std::size_t max_children) {
  const std::size_t lo = c.min_children;
  const std::size_t hi = std::max(lo, std::min(c.max_children, max_children));
  const std::size_t size = s.children.size();
  const std::size_t n =
      size >= lo && size <= hi ? size : lo + (size - 1) % (hi - lo + 1);
  s.children.resize(n);
  for (ChildScript& child : s.children) {
    std::erase_if(child.outcomes, [&c](const Outcome& o) {
      return (o.kind == OutcomeKind::kThrow && !c.children_throw) ||
             (o.kind == OutcomeKind::kDone && !c.children_finish);
    });
  }
  std::erase_if(s.wakes, [n](const ExternalWake& w) { return w.child >= n; });
  // No policy is claimed: the script's policy, draws and protocol lists
  // are not played (the protocol walk is a C++ composite's, property 10).
  s.policy = PolicyKind::kPriority;
  s.draws.clear();
  for (ChildScript& child : s.children) child.protocols.clear();
  return s;
}

namespace {

// A random admissible script.
PollScript RandomScript(const CompositeUnderTest& c, const VerdictOptions& opts,
                        std::mt19937_64& rng) {
  std::vector<std::uint8_t> bytes(rng() % 97);
  for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(rng());
  return FitScript(c, DecodePollScript(bytes), opts.max_children);
}

// The run's digest, or why there is none.
struct Digested {
  std::optional<ObservedRun> run;
  std::string error;
};

Digested RunAndDigest(const CompositeUnderTest& c, const PollScript& s) {
  CompositeRun r = c.run(s);
  if (!r.observation) return {std::nullopt, r.error};
  if (const auto bad = CheckObservationShape(*r.observation)) {
    return {std::nullopt, "malformed observation: " + bad->reason +
                              " at event " + std::to_string(bad->offset)};
  }
  if (r.observation->children != s.children.size()) {
    return {
        std::nullopt,
        "malformed observation: " + std::to_string(r.observation->children) +
            " children for a script of " + std::to_string(s.children.size())};
  }
  return {DigestObservation(*r.observation), {}};
}

// "any start": every call polled the children live before it in index
// order from one of them, wrapping, each once, up to the first Ready (all
// of them when none was Ready); nullopt or the first call that did not.
std::optional<std::size_t> AnyStartViolation(const ObservedRun& o,
                                             std::size_t n) {
  std::vector<bool> finished(n, false);
  std::vector<std::size_t> live;
  for (std::size_t t = 0; t < o.calls.size(); ++t) {
    live.clear();
    for (std::size_t i = 0; i < n; ++i) {
      if (!finished[i]) live.push_back(i);
    }
    const auto polls = o.PollsOf(t);
    const CallResult result = o.calls[t].result;
    bool ok = polls.size() <= live.size() && (!polls.empty() || live.empty());
    if (ok && !polls.empty()) {
      const auto start = std::find(live.begin(), live.end(), polls[0].child);
      ok = start != live.end();
      const std::size_t p = static_cast<std::size_t>(start - live.begin());
      for (std::size_t k = 0; ok && k < polls.size(); ++k) {
        ok =
            polls[k].child == live[(p + k) % live.size()] &&
            (polls[k].returned != OutcomeKind::kReady || k + 1 == polls.size());
      }
      const bool ended_ready =
          ok && polls.back().returned == OutcomeKind::kReady;
      if (ok && !ended_ready && result != CallResult::kThrew) {
        ok = polls.size() == live.size();
      }
    }
    if (!ok) return t;
    for (const PollRecord& r : polls) {
      if (r.child < n && Finishes(o.child_kind, r.returned)) {
        finished[r.child] = true;
      }
    }
  }
  return std::nullopt;
}

// AnyStartViolation as a report: nullopt, or which call and what it polled.
std::optional<std::string> AnyStartText(const PollScript& s,
                                        const ObservedRun& o) {
  const auto t = AnyStartViolation(o, s.children.size());
  if (!t) return std::nullopt;
  std::string polled;
  for (const PollRecord& r : o.PollsOf(*t)) {
    if (!polled.empty()) polled += ' ';
    polled += std::to_string(r.child);
  }
  return std::string(kAnyStartModel) + ": " + o.composite + " call " +
         std::to_string(*t) + ": polled [" + polled +
         "], not the live children in index order from one of them";
}

// Shrinks `script`, which `broken` reports on, while a simpler admissible
// script still gets a report; leaves the last and its report.
template <class Broken>
void Shrink(const CompositeUnderTest& c, const VerdictOptions& opts,
            Broken broken, PollScript& script, std::string& message) {
  std::size_t steps = 0;
  bool improved = true;
  while (improved && steps < opts.shrink_steps) {
    improved = false;
    for (const PollScript& candidate : ShrinkPollScript(script)) {
      if (!Admissible(c, candidate)) continue;
      if (++steps > opts.shrink_steps) break;
      const Digested d = RunAndDigest(c, candidate);
      if (!d.run) continue;
      if (auto v = broken(candidate, *d.run)) {
        script = candidate;
        message = std::move(*v);
        improved = true;
        break;
      }
    }
  }
}

// n always-ready children (child i plays R i, looping).
WaitingMeasure MeasureWaiting(const CompositeUnderTest& c, std::size_t n,
                              std::size_t calls, std::string& error) {
  PollScript s;
  s.calls = static_cast<std::uint8_t>(std::min(calls, kMaxCalls));
  for (std::size_t i = 0; i < n; ++i) {
    s.children.push_back(ChildScript{
        {Outcome{OutcomeKind::kReady, static_cast<std::uint8_t>(i)}},
        true,
        {}});
  }
  WaitingMeasure w;
  w.children = n;
  w.calls = s.calls;
  const Digested d = RunAndDigest(c, s);
  if (!d.run) {
    error =
        "always-ready run of " + std::to_string(n) + " children: " + d.error;
    return w;
  }
  const ObservedRun& o = *d.run;
  for (std::size_t i = 0; i < n; ++i) {
    std::ptrdiff_t last = -1;  // the call that last served child i
    bool finished = false;
    for (std::size_t t = 0; t < o.calls.size(); ++t) {
      const ObservedCall& call = o.calls[t];
      if (call.result != CallResult::kReady || call.tag != i) continue;
      w.worst_wait = std::max(
          w.worst_wait,
          static_cast<std::size_t>(static_cast<std::ptrdiff_t>(t) - last));
      last = static_cast<std::ptrdiff_t>(t);
      finished = o.child_kind == ChildKind::kFuture;
    }
    if (last < 0) w.starved = true;
    if (!finished) {
      // Calls since its last event (or since the start) with no event.
      w.worst_wait =
          std::max(w.worst_wait,
                   static_cast<std::size_t>(
                       static_cast<std::ptrdiff_t>(o.calls.size()) - 1 - last));
    }
  }
  return w;
}

}  // namespace

std::vector<PolicyModel> StandardModels() {
  return {PriorityModel(),  StickyModel(),    RoundRobinModel(),
          BudgetedModel(2), BudgetedModel(3), BudgetedModel(4)};
}

bool Admissible(const CompositeUnderTest& c, const PollScript& s) {
  if (!IsValid(s)) return false;
  if (s.children.size() < c.min_children ||
      s.children.size() > c.max_children) {
    return false;
  }
  for (const ChildScript& child : s.children) {
    for (const Outcome& o : child.outcomes) {
      if (o.kind == OutcomeKind::kThrow && !c.children_throw) return false;
      if (o.kind == OutcomeKind::kDone && !c.children_finish) return false;
    }
  }
  return true;
}

CompositeVerdict JudgeComposite(const CompositeUnderTest& c,
                                const VerdictOptions& opts) {
  CompositeVerdict v;
  v.composite = c.name;
  for (PollProperty p : kPolicyFreeProperties) {
    v.properties.push_back(PropertyVerdict{p, 0, std::nullopt, {}});
  }
  // The models not yet contradicted, by index into opts.models.
  std::vector<std::size_t> models(opts.models.size());
  for (std::size_t i = 0; i < models.size(); ++i) models[i] = i;
  bool futures = false;
  std::mt19937_64 rng(opts.seed);
  for (std::size_t k = 0; k < opts.scripts; ++k) {
    const PollScript s = RandomScript(c, opts, rng);
    const Digested d = RunAndDigest(c, s);
    if (!d.run) {
      v.run_error = d.error + "\n" + DescribePollScript(s);
      return v;
    }
    ++v.scripts;
    const ObservedRun& o = *d.run;
    futures = futures || o.child_kind == ChildKind::kFuture;
    for (PropertyVerdict& pv : v.properties) {
      auto violation = CheckPolicyFree(pv.property, s, o);
      if (!violation) continue;
      if (pv.failures++ == 0) {
        pv.counterexample = s;
        pv.violation = std::move(*violation);
      }
    }
    std::erase_if(models, [&](std::size_t i) {
      return CheckModelMatch(s, RunModel(s, opts.models[i]), o).has_value();
    });
    if (!v.any_start_counterexample) {
      if (auto why = AnyStartText(s, o)) {
        v.any_start_counterexample = s;
        v.any_start_violation = std::move(*why);
      }
    }
  }
  for (PropertyVerdict& pv : v.properties) {
    if (!pv.counterexample) continue;
    Shrink(
        c, opts,
        [&pv](const PollScript& s, const ObservedRun& o) {
          return CheckPolicyFree(pv.property, s, o);
        },
        *pv.counterexample, pv.violation);
  }
  if (v.any_start_counterexample) {
    Shrink(c, opts, AnyStartText, *v.any_start_counterexample,
           v.any_start_violation);
  }
  const bool any_start = !v.any_start_counterexample;
  // A model of stream children says nothing of futures, which finish with
  // their first event.
  if (!futures) {
    for (std::size_t i : models)
      v.matched_models.push_back(opts.models[i].name);
  }
  if (any_start) v.matched_models.emplace_back(kAnyStartModel);
  std::vector<std::size_t> sizes;
  for (std::size_t n : {std::size_t{2}, std::size_t{3}}) {
    const std::size_t fitted =
        std::clamp(n, c.min_children, std::max(c.min_children, c.max_children));
    if (std::find(sizes.begin(), sizes.end(), fitted) == sizes.end()) {
      sizes.push_back(fitted);
    }
  }
  for (std::size_t n : sizes) {
    std::string error;
    v.waiting.push_back(MeasureWaiting(c, n, opts.waiting_calls, error));
    if (!error.empty()) {
      v.run_error = error;
      return v;
    }
  }
  return v;
}

std::string DescribeVerdict(const CompositeVerdict& v) {
  std::string out =
      v.composite + ": " + std::to_string(v.scripts) + " scripts\n";
  if (v.run_error) {
    out += "  NO VERDICT: a run failed: " + *v.run_error + "\n";
    return out;
  }
  for (const PropertyVerdict& pv : v.properties) {
    std::string name(PropertyName(pv.property));
    name.resize(std::max<std::size_t>(name.size(), 28), ' ');
    out += "  ";
    out += name;
    if (pv.holds()) {
      out += "holds\n";
    } else {
      out += "VIOLATED in ";
      out += std::to_string(pv.failures);
      out += " scripts\n";
    }
  }
  out += "  models matched:";
  if (v.matched_models.empty()) out += " none";
  for (std::size_t i = 0; i < v.matched_models.size(); ++i) {
    out += i == 0 ? " " : ", ";
    out += v.matched_models[i];
  }
  out += "\n  always-ready children:";
  for (const WaitingMeasure& w : v.waiting) {
    out += ' ';
    out += std::to_string(w.children);
    if (w.starved) {
      out += " -> starved (one never served in ";
      out += std::to_string(w.calls);
      out += " calls);";
    } else {
      out += " -> worst wait ";
      out += std::to_string(w.worst_wait);
      out += " calls;";
    }
  }
  out += "\n";
  const auto counterexample = [&out](const std::string& what,
                                     const PollScript& script,
                                     const std::string& message) {
    out += "  counterexample, shrunk, for " + what + ":\n";
    // Without "policy <name>, ": the composite claims none.
    std::string text = DescribePollScript(script);
    const std::size_t policy_end = text.find(", ");
    if (text.starts_with("policy ") && policy_end != std::string::npos) {
      text.erase(0, policy_end + 2);
    }
    std::size_t from = 0;
    while (from < text.size()) {
      const std::size_t nl = text.find('\n', from);
      out += "    " + text.substr(from, nl - from + 1);
      from = nl + 1;
    }
    out += "    " + message + "\n";
  };
  for (const PropertyVerdict& pv : v.properties) {
    if (pv.holds()) continue;
    counterexample(std::string(PropertyName(pv.property)), *pv.counterexample,
                   pv.violation);
  }
  if (v.any_start_counterexample) {
    counterexample(std::string("the ") + kAnyStartModel + " model",
                   *v.any_start_counterexample, v.any_start_violation);
  }
  return out;
}

}  // namespace fairwire::poll
