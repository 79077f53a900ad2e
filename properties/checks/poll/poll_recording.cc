// The recording of a run (poll_harness.h): the Recorder, the callers'
// wakers, and the Observer's bookkeeping around each call. Nothing here
// depends on the composite's type; under fuzzing this source runs without
// the sanitizers (CMakeLists.txt), while the composite and the scripted
// children it polls keep them.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fairwire/checks/poll_harness.h"

namespace fairwire::poll {

std::uint32_t Recorder::WakerId(const Waker& waker) {
  for (std::size_t i = wakers.size(); i-- > 0;) {
    if (wakers[i] == waker) return static_cast<std::uint32_t>(i);
  }
  wakers.push_back(waker);
  return static_cast<std::uint32_t>(wakers.size() - 1);
}

void Recorder::TrackChildren(std::size_t n) {
  latest_waker.resize(n);
  latest_waker_id.resize(n);
}

std::uint32_t Recorder::NewWakerId(const Waker& waker) {
  wakers.push_back(waker);
  return static_cast<std::uint32_t>(wakers.size() - 1);
}

void Recorder::Record(const ObservedEvent& event) {
  log.events.push_back(event);
}

std::uint32_t Recorder::RecordPoll(std::size_t child, const Waker& waker,
                                   Outcome outcome) {
  ObservedEvent poll;
  poll.kind = ObservedEventKind::kPoll;
  poll.child = static_cast<std::uint32_t>(child);
  poll.waker = WakerId(waker);
  poll.outcome = outcome.kind;
  poll.event = outcome.event;
  Record(poll);
  if (child < latest_waker_id.size()) {
    latest_waker[child] = waker;
    latest_waker_id[child] = poll.waker;
  }
  return poll.waker;
}

void Recorder::Wake(std::size_t child, const Waker& waker, std::uint32_t id,
                    WakeCause cause) {
  ObservedEvent begin;
  begin.kind = ObservedEventKind::kWakeBegin;
  begin.child = static_cast<std::uint32_t>(child);
  begin.waker = id;
  begin.cause = cause;
  Record(begin);
  waker.Wake();
  ObservedEvent end;
  end.kind = ObservedEventKind::kWakeEnd;
  Record(end);
}

CallerWaker& Recorder::CallerSlot(std::size_t t) {
  while (caller_blocks.size() <= t / kCallersPerBlock) {
    caller_blocks.push_back(std::make_unique<CallerBlock>());
  }
  return (*caller_blocks[t / kCallersPerBlock])[t % kCallersPerBlock];
}

void CallerWaker::Woken(void* self) {
  const auto* me = static_cast<CallerWaker*>(self);
  ObservedEvent e;
  e.kind = ObservedEventKind::kCallerWoken;
  e.waker = me->id_;
  me->recorder_->Record(e);
}

namespace internal {

ObserverCore::ObserverCore(Recorder& recorder, std::string name,
                           std::size_t children)
    : recorder_(recorder), done_(children, false) {
  // A fresh log, in the memory of the events already there (Drive passes
  // its spare list in).
  std::vector<ObservedEvent> events = std::move(recorder_.log.events);
  events.clear();
  recorder_.log = Observation();
  recorder_.log.events = std::move(events);
  recorder_.log.composite = std::move(name);
  recorder_.log.children = static_cast<std::uint32_t>(children);
  recorder_.wakers.clear();
  recorder_.latest_waker.clear();
  recorder_.latest_waker_id.clear();
  recorder_.TrackChildren(children);
}

Waker ObserverCore::BeginCall() {
  const std::size_t t = calls_++;
  // A new waker: NewWakerId numbers it next.
  CallerWaker& caller = recorder_.CallerSlot(t);
  caller = CallerWaker(&recorder_,
                       static_cast<std::uint32_t>(recorder_.wakers.size()));
  const Waker waker = caller.waker();
  ObservedEvent begin;
  begin.kind = ObservedEventKind::kCallBegin;
  begin.call = static_cast<std::uint32_t>(t);
  begin.waker = recorder_.NewWakerId(waker);
  recorder_.Record(begin);
  call_first_event_ = recorder_.log.events.size();
  return waker;
}

ObservedEvent ObserverCore::EndCall(const ObservedEvent& end) {
  const std::vector<ObservedEvent>& events = recorder_.log.events;
  for (std::size_t k = call_first_event_; k < events.size(); ++k) {
    const ObservedEvent& e = events[k];
    if (e.kind == ObservedEventKind::kPoll && e.child < done_.size() &&
        e.outcome == OutcomeKind::kDone) {
      done_[e.child] = true;
    }
  }
  recorder_.Record(end);
  if (end.result == CallResult::kPending) {
    for (std::size_t c = 0; c < done_.size(); ++c) {
      if (done_[c] || recorder_.latest_waker[c] == Waker()) continue;
      recorder_.Wake(c, recorder_.latest_waker[c], recorder_.latest_waker_id[c],
                     WakeCause::kProbe);
    }
  }
  return end;
}

void ObserverCore::WakeExternally(std::size_t child) {
  if (child >= done_.size() || recorder_.latest_waker[child] == Waker()) {
    return;
  }
  recorder_.Wake(child, recorder_.latest_waker[child],
                 recorder_.latest_waker_id[child], WakeCause::kExternal);
}

}  // namespace internal
}  // namespace fairwire::poll
