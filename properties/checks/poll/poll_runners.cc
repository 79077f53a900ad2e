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
  ObservedEvent poll;
  poll.kind = ObservedEventKind::kPoll;
  poll.child = static_cast<std::uint32_t>(id_);
  poll.waker = recorder_->WakerId(cx.waker());
  poll.outcome = outcome.kind;
  poll.event = outcome.event;
  recorder_->Record(poll);
  if (id_ < recorder_->latest_waker_id.size()) {
    recorder_->latest_waker[id_] = cx.waker();
    recorder_->latest_waker_id[id_] = poll.waker;
  }
  switch (outcome.kind) {
    case OutcomeKind::kReady:
      return Result::Ready(outcome.event);
    case OutcomeKind::kDone:
      return Result::Done();
    case OutcomeKind::kThrow:
      throw ScriptedThrow();
    case OutcomeKind::kPendingSelfWake:
      recorder_->Wake(id_, cx.waker(), poll.waker, WakeCause::kSelf);
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
