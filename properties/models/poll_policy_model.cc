// The five policies of DESIGN.md, each written out as a PolicyModel.
#include "fairwire/models/poll_policy_model.h"

#include <array>

namespace fairwire::poll {
namespace {

// The rules that start where the cursor is.
std::size_t StartAtCursor(PolicyState& s, std::size_t n, const DrawFn&) {
  return s.cursor % n;
}

}  // namespace

PolicyModel PriorityModel() {
  return {
      "Priority",
      [](PolicyState&, std::size_t, const DrawFn&) -> std::size_t { return 0; },
      nullptr};
}

PolicyModel StickyModel() {
  return {"Sticky", StartAtCursor,
          [](PolicyState& s, std::size_t j, std::size_t) { s.cursor = j; }};
}

PolicyModel RoundRobinModel() {
  return {"RoundRobin", StartAtCursor,
          [](PolicyState& s, std::size_t j, std::size_t n) {
            s.cursor = (j + 1) % n;
          }};
}

PolicyModel BudgetedModel(std::size_t k) {
  return {"Budgeted<" + std::to_string(k) + ">", StartAtCursor,
          [k](PolicyState& s, std::size_t j, std::size_t n) {
            if (s.streak_child == j) {
              s.streak += 1;
            } else {
              s.streak_child = j;
              s.streak = 1;
            }
            if (s.streak >= k) {  // the budget is spent: move past j
              s.cursor = (j + 1) % n;
              s.streak_child = PolicyState::kNoStreak;
              s.streak = 0;
            } else {
              s.cursor = j;
            }
          }};
}

PolicyModel RandomStartModel() {
  return {"RandomStart",
          [](PolicyState&, std::size_t n, const DrawFn& draw) {
            return static_cast<std::size_t>(draw() % n);
          },
          nullptr};
}

const PolicyModel& PolicyModelOf(PolicyKind policy) {
  static const std::array<PolicyModel, kPolicyCount> models = [] {
    std::array<PolicyModel, kPolicyCount> m;
    m[static_cast<std::size_t>(PolicyKind::kPriority)] = PriorityModel();
    m[static_cast<std::size_t>(PolicyKind::kSticky)] = StickyModel();
    m[static_cast<std::size_t>(PolicyKind::kRoundRobin)] = RoundRobinModel();
    m[static_cast<std::size_t>(PolicyKind::kBudgeted2)] = BudgetedModel(2);
    m[static_cast<std::size_t>(PolicyKind::kBudgeted3)] = BudgetedModel(3);
    m[static_cast<std::size_t>(PolicyKind::kRandomStart)] = RandomStartModel();
    PolicyModel nested = PriorityModel();
    nested.name = "Nested";
    m[static_cast<std::size_t>(PolicyKind::kNested)] = nested;
    return m;
  }();
  return models[static_cast<std::size_t>(policy)];
}

}  // namespace fairwire::poll
