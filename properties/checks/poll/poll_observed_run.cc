// DigestObservation: one pass over an observation's events.
#include "fairwire/checks/poll_observed_run.h"

namespace fairwire::poll {
namespace {

constexpr std::uint32_t kNoWaker = ~std::uint32_t{0};
constexpr std::size_t kNoCall = ~std::size_t{0};

// The state of the children between events.
struct ChildState {
  std::uint32_t latest_waker = kNoWaker;  // the waker of its latest poll
  std::size_t last_call = kNoCall;        // the call of its latest poll
  bool finished = false;
  bool woken = true;  // woken (or never polled) and not polled since
};

}  // namespace

ObservedRun DigestObservation(const Observation& o) {
  ObservedRun run;
  DigestObservation(o, run);
  return run;
}

void DigestObservation(const Observation& o, ObservedRun& run) {
  run.composite = o.composite;
  run.child_kind = o.child_kind;
  run.calls.clear();
  run.polls.clear();
  run.protocols.clear();
  run.protocol_steps = 0;
  run.protocol_resume_failure = -1;
  // This thread's working tables, kept for their capacity (a digest does
  // not call another).
  thread_local std::vector<ChildState> children;
  thread_local std::vector<std::size_t> call_of_waker;  // waker -> its call
  children.assign(o.children, ChildState{});
  call_of_waker.clear();
  bool in_call = false;
  // Whether the latest call's waker was woken since that call began.
  bool caller_woken_since_call = false;
  // The wake being read, and how often it reached the latest call's waker
  // and the waker of the call that last polled its child.
  const ObservedEvent* wake = nullptr;
  std::size_t wake_last_call = kNoCall;
  std::size_t reached_latest = 0;
  std::size_t reached_last_call = 0;
  for (const ObservedEvent& e : o.events) {
    switch (e.kind) {
      case ObservedEventKind::kCallBegin: {
        if (call_of_waker.size() <= e.waker) {
          call_of_waker.resize(e.waker + 1, kNoCall);
        }
        call_of_waker[e.waker] = run.calls.size();
        ObservedCall call;
        call.waker = e.waker;
        call.first_poll = run.polls.size();
        run.calls.push_back(std::move(call));
        in_call = true;
        caller_woken_since_call = false;
        break;
      }
      case ObservedEventKind::kPoll: {
        run.polls.push_back(PollRecord{e.child, e.waker, e.outcome, e.event});
        ChildState& c = children[e.child];
        c.latest_waker = e.waker;
        c.last_call = run.calls.size() - 1;
        c.woken = false;
        if (Finishes(o.child_kind, e.outcome)) c.finished = true;
        break;
      }
      case ObservedEventKind::kCallEnd: {
        ObservedCall& call = run.calls.back();
        call.poll_count = run.polls.size() - call.first_poll;
        call.result = e.result;
        call.tag = e.tag;
        call.event = e.event;
        call.composite_done = e.done;
        in_call = false;
        if (call.result != CallResult::kPending) break;
        for (std::size_t i = 0; i < children.size(); ++i) {
          const ChildState& c = children[i];
          if (c.finished) continue;
          if (c.latest_waker != call.waker) {
            call.stale_registrations.push_back(i);
          }
          if (c.woken && call.wakes_during_call == 0) {
            call.woken_unpolled.push_back(i);
          }
        }
        break;
      }
      case ObservedEventKind::kWakeBegin:
        wake = &e;
        wake_last_call = children[e.child].last_call;
        reached_latest = 0;
        reached_last_call = 0;
        children[e.child].woken = true;
        break;
      case ObservedEventKind::kCallerWoken: {
        const std::size_t t =
            e.waker < call_of_waker.size() ? call_of_waker[e.waker] : kNoCall;
        if (t == kNoCall) break;
        if (wake != nullptr) {
          reached_latest += t + 1 == run.calls.size() ? 1 : 0;
          reached_last_call += t == wake_last_call ? 1 : 0;
        }
        if (in_call && t + 1 == run.calls.size()) {
          ++run.calls.back().wakes_during_call;
        }
        if (t + 1 == run.calls.size()) caller_woken_since_call = true;
        break;
      }
      case ObservedEventKind::kWakeEnd: {
        if (wake == nullptr || wake->cause == WakeCause::kSelf ||
            run.calls.empty()) {
          wake = nullptr;
          break;
        }
        const std::size_t child = wake->child;
        const ChildState& c = children[child];
        const std::size_t t = run.calls.size() - 1;
        ObservedCall& after = run.calls[t];
        const bool pending = after.result == CallResult::kPending;
        if (wake->cause == WakeCause::kProbe) {
          if (pending && reached_latest != 1) {
            after.lost_wakes.push_back(child);
          }
        } else if (c.last_call != kNoCall && reached_last_call != 1) {
          after.missed_external_wakes.push_back(child);
        }
        // Heard if this wake or anything since the call began woke the
        // caller: a caller already woken will poll again anyway.
        if (pending && !c.finished && reached_latest == 0 &&
            !caller_woken_since_call) {
          after.unheard_wakes.push_back(child);
        }
        wake = nullptr;
        break;
      }
    }
  }
}

}  // namespace fairwire::poll
