// The harness's runners over the policy types themselves: Select<P, ...>
// for scripts of up to kTypedSelectMax children, and SelectAll<P, ...>.
#include <string>

#include "fairwire/checks/poll_runners.h"

namespace fairwire::poll::internal {
namespace {

template <class P, class MakeP>
ObservedRun RunWith(const PollScript& s, CompositeKind kind, MakeP make,
                    PolicyKind policy) {
  const std::string name(PolicyName(policy));
  if (kind == CompositeKind::kSelect) {
    return RunSelect<P, kTypedSelectMax>(s, make, "Select<" + name + ">");
  }
  return RunSelectAll<P>(s, make, "SelectAll<" + name + ">");
}

}  // namespace

ObservedRun RunTyped(const PollScript& s, PolicyKind policy,
                     CompositeKind kind) {
  switch (policy) {
    case PolicyKind::kSticky:
      return RunWith<Sticky>(
          s, kind, [] { return Sticky(); }, policy);
    case PolicyKind::kRoundRobin:
      return RunWith<RoundRobin>(
          s, kind, [] { return RoundRobin(); }, policy);
    case PolicyKind::kBudgeted2:
      return RunWith<Budgeted<2>>(
          s, kind, [] { return Budgeted<2>(); }, policy);
    case PolicyKind::kBudgeted3:
      return RunWith<Budgeted<3>>(
          s, kind, [] { return Budgeted<3>(); }, policy);
    case PolicyKind::kRandomStart:
      return RunWith<RandomStart<ScriptedRng>>(
          s, kind,
          [&] { return RandomStart<ScriptedRng>(ScriptedRng(&s.draws)); },
          policy);
    case PolicyKind::kPriority:
    case PolicyKind::kNested:
      break;
  }
  return RunWith<Priority>(
      s, kind, [] { return Priority(); }, PolicyKind::kPriority);
}

}  // namespace fairwire::poll::internal
