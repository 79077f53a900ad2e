// ScriptedChild and the dispatch from a PolicyKind to its runner.
#include "poll_runners.h"

namespace fairwire::poll {

::fairwire::poll::Poll<ScriptedChild::Event> ScriptedChild::Poll(Context& cx) {
  using Result = ::fairwire::poll::Poll<Event>;
  Outcome outcome{OutcomeKind::kPending, 0};
  if (next_ < script_.outcomes.size()) {
    outcome = script_.outcomes[next_++];
    if (script_.loop && next_ == script_.outcomes.size()) next_ = 0;
  }
  recorder_->polls.push_back(
      PollRecord{id_, cx.waker(), outcome.kind, outcome.event});
  if (id_ < recorder_->latest_waker.size()) {
    recorder_->latest_waker[id_] = cx.waker();
  }
  switch (outcome.kind) {
    case OutcomeKind::kReady:
      return Result::Ready(outcome.event);
    case OutcomeKind::kDone:
      return Result::Done();
    case OutcomeKind::kThrow:
      throw ScriptedThrow();
    case OutcomeKind::kPendingSelfWake:
      cx.waker().Wake();
      return Result::Pending();
    case OutcomeKind::kPending:
      break;
  }
  return Result::Pending();
}

Observation RunScript(const PollScript& script, PolicyKind policy,
                      CompositeKind kind) {
  switch (policy) {
    case PolicyKind::kPriority:
      return internal::RunPriority(script, kind);
    case PolicyKind::kSticky:
      return internal::RunSticky(script, kind);
    case PolicyKind::kRoundRobin:
      return internal::RunRoundRobin(script, kind);
    case PolicyKind::kBudgeted2:
      return internal::RunBudgeted2(script, kind);
    case PolicyKind::kBudgeted3:
      return internal::RunBudgeted3(script, kind);
    case PolicyKind::kRandomStart:
      return internal::RunRandomStart(script, kind);
    case PolicyKind::kNested:
      break;
  }
  return internal::RunNested(script);
}

}  // namespace fairwire::poll
