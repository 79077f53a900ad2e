// ScriptedChild and the dispatch from a PolicyKind to its runner.
#include "fairwire/checks/poll_runners.h"

namespace fairwire::poll {

::fairwire::poll::Poll<ScriptedChild::Event> ScriptedChild::Poll(Context& cx) {
  using Result = ::fairwire::poll::Poll<Event>;
  Outcome outcome{OutcomeKind::kPending, 0};
  const ChildScript& script = this->script();
  if (next_ < script.outcomes.size()) {
    outcome = script.outcomes[next_++];
    if (script.loop && next_ == script.outcomes.size()) next_ = 0;
  }
  const std::uint32_t waker_id =
      recorder_->RecordPoll(id_, cx.waker(), outcome);
  switch (outcome.kind) {
    case OutcomeKind::kReady:
      return Result::Ready(outcome.event);
    case OutcomeKind::kDone:
      return Result::Done();
    case OutcomeKind::kThrow:
      throw ScriptedThrow();
    case OutcomeKind::kPendingSelfWake:
      recorder_->Wake(id_, cx.waker(), waker_id, WakeCause::kSelf);
      return Result::Pending();
    case OutcomeKind::kPending:
      break;
  }
  return Result::Pending();
}

namespace internal {

BoxedPolicy::Box MakePolicy(PolicyKind policy,
                            const std::vector<std::uint8_t>* draws) {
  switch (policy) {
    case PolicyKind::kSticky:
      return Sticky();
    case PolicyKind::kRoundRobin:
      return RoundRobin();
    case PolicyKind::kBudgeted2:
      return Budgeted<2>();
    case PolicyKind::kBudgeted3:
      return Budgeted<3>();
    case PolicyKind::kRandomStart:
      return RandomStart<ScriptedRng>(ScriptedRng(draws));
    case PolicyKind::kPriority:
    case PolicyKind::kNested:
      break;
  }
  return Priority();
}

}  // namespace internal

ObservedRun RunScript(const PollScript& script, PolicyKind policy,
                      CompositeKind kind) {
  if (policy == PolicyKind::kNested) return internal::RunNested(script);
  if (kind == CompositeKind::kSelect &&
      script.children.size() > internal::kTypedSelectMax) {
    return internal::RunSelectBoxed(script, policy);
  }
  return internal::RunTyped(script, policy, kind);
}

}  // namespace fairwire::poll
