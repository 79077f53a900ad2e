// Handlers for the poll core's unit tests: a scripted handler that returns
// a fixed list of outcomes and records the wakers it saw, and a helper that
// polls a composite repeatedly and records what each call returned.
#ifndef FAIRWIRE_CORE_SRC_POLL_TEST_HANDLERS_H_
#define FAIRWIRE_CORE_SRC_POLL_TEST_HANDLERS_H_

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "fairwire/poll/poll.h"
#include "fairwire/poll/waker.h"

namespace fairwire::poll::testing {

// One scripted outcome: Ready(value), Pending, Done, or throw.
struct Step {
  enum Kind { kReady, kPending, kDone, kThrow } kind;
  int value = 0;
};

// Step helpers.
inline Step R(int v) { return {Step::kReady, v}; }
inline Step P() { return {Step::kPending, 0}; }
inline Step D() { return {Step::kDone, 0}; }
inline Step T() { return {Step::kThrow, 0}; }

// Returns its steps in order, then Pending forever; counts its polls and
// keeps the waker of its latest poll.
class Scripted {
 public:
  using Event = int;

  explicit Scripted(std::vector<Step> steps,
                    std::span<const std::string_view> protocols = {})
      : steps_(std::move(steps)), protocols_(protocols) {}

  ::fairwire::poll::Poll<int> Poll(Context& cx) {
    ++polls_;
    last_waker_ = cx.waker();
    if (next_ >= steps_.size()) return ::fairwire::poll::Poll<int>::Pending();
    const Step step = steps_[next_++];
    switch (step.kind) {
      case Step::kReady:
        return ::fairwire::poll::Poll<int>::Ready(step.value);
      case Step::kDone:
        return ::fairwire::poll::Poll<int>::Done();
      case Step::kThrow:
        throw std::runtime_error("scripted throw");
      case Step::kPending:
        break;
    }
    return ::fairwire::poll::Poll<int>::Pending();
  }

  std::span<const std::string_view> Protocols() const { return protocols_; }
  int polls() const { return polls_; }
  const Waker& last_waker() const { return last_waker_; }

 private:
  std::vector<Step> steps_;
  std::size_t next_ = 0;
  std::span<const std::string_view> protocols_;
  int polls_ = 0;
  Waker last_waker_;
};

// Ready(value) on every poll.
inline Scripted AlwaysReady(int value) {
  return Scripted(std::vector<Step>(64, R(value)));
}

// Polls `handler` `calls` times with one waker and records each result:
// project(event) for Ready, -1 for Pending, -2 for Done.
template <class H, class Project>
std::vector<int> PollAndRecord(H& handler, int calls, Project project) {
  WakeCounter counter;
  Context cx(counter.waker());
  std::vector<int> out;
  for (int c = 0; c < calls; ++c) {
    auto result = handler.Poll(cx);
    if (result.IsReady()) {
      out.push_back(project(result.value()));
    } else {
      out.push_back(result.IsPending() ? -1 : -2);
    }
  }
  return out;
}

// Projection for PollAndRecord: the child index of a Select event.
struct TagOf {
  int operator()(const auto& event) const {
    return static_cast<int>(event.index());
  }
};
// Projection for PollAndRecord: the value of a SelectAll event.
struct EventOf {
  int operator()(const auto& event) const { return event.event; }
};

}  // namespace fairwire::poll::testing

#endif  // FAIRWIRE_CORE_SRC_POLL_TEST_HANDLERS_H_
