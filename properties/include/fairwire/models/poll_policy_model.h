// The model of a policy as a value: where each call's scan starts, and how
// the cursor moves after a child is served. PollModel follows any such
// value; the five policies of DESIGN.md are instances (PolicyModelOf), and a
// user states their own composite's rule the same way, e.g. futures'
// select, which alternates its start on every call:
//
//   PolicyModel alternating{
//       "Alternating",
//       [](PolicyState& s, std::size_t n, const DrawFn&) {
//         const std::size_t start = s.cursor % n;
//         s.cursor = start + 1;
//         return start;
//       },
//       nullptr};
//
// Rules see the children by index, live or done; the scan from the start
// skips done children and wraps, polling each live child at most once.
#ifndef FAIRWIRE_MODELS_POLL_POLICY_MODEL_H_
#define FAIRWIRE_MODELS_POLL_POLICY_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "fairwire/models/poll_script.h"

namespace fairwire::poll {

// What a rule keeps between calls. PollModel moves `cursor` and
// `streak_child` down when a child before them is removed.
struct PolicyState {
  std::size_t cursor = 0;
  std::size_t streak_child = kNoStreak;  // the child served last in a row
  std::size_t streak = 0;                // how many events in a row
  static constexpr std::size_t kNoStreak = ~std::size_t{0};
};

// The next draw of the script's generator (RandomStart's draws, cycled).
using DrawFn = std::function<std::uint64_t()>;

// See the file comment.
struct PolicyModel {
  std::string name;
  // The index the call's scan starts at, among n >= 1 children; may update
  // the state (a rule that moves on every call) and take draws.
  std::function<std::size_t(PolicyState&, std::size_t n, const DrawFn& draw)>
      start;
  // After child j (of n) was Ready; null: the state stays.
  std::function<void(PolicyState&, std::size_t j, std::size_t n)> after_ready;
};

// Priority: every call starts at child 0.
PolicyModel PriorityModel();
// Sticky: the next call starts at the child last served.
PolicyModel StickyModel();
// RoundRobin: the next call starts after the child last served.
PolicyModel RoundRobinModel();
// Budgeted<K>: stays on a child for at most k events in a row, then moves
// past it (k >= 1; Budgeted<1> is RoundRobin's schedule).
PolicyModel BudgetedModel(std::size_t k);
// RandomStart: every call starts at the next draw modulo n.
PolicyModel RandomStartModel();

// The model of a PolicyKind (kNested schedules as Priority; its name is
// "Nested"). The same object on every call.
const PolicyModel& PolicyModelOf(PolicyKind policy);

}  // namespace fairwire::poll

#endif  // FAIRWIRE_MODELS_POLL_POLICY_MODEL_H_
