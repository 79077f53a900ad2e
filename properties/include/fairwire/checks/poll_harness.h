// The harness that drives a real composite (Select, SelectAll, Nested) over
// a PollScript and records what happened: which children each call polled,
// with which waker, what they returned, what the call returned, and where
// wakes went. The checks (poll_checks.h) compare that record with the model.
// Templates, so tests can drive composites built in the test (a broken
// policy, for instance) through the same code.
#ifndef FAIRWIRE_CHECKS_POLL_HARNESS_H_
#define FAIRWIRE_CHECKS_POLL_HARNESS_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fairwire/models/poll_model.h"
#include "fairwire/poll/poll.h"
#include "fairwire/poll/waker.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll {

// One poll of one child, as the child saw it.
struct PollRecord {
  std::size_t child = 0;  // the child's id (its index in the script)
  Waker waker;            // the waker in the context it was given
  OutcomeKind returned = OutcomeKind::kPending;
  std::uint8_t event = 0;
};

// What a scripted child throws for a kThrow outcome.
struct ScriptedThrow : std::exception {
  const char* what() const noexcept override { return "scripted throw"; }
};

// Shared by the children of one run: the polls of the current call, each
// child's latest waker, and how many protocol-list steps were taken.
struct Recorder {
  std::vector<PollRecord> polls;
  std::vector<Waker> latest_waker;  // by child id
  std::size_t protocol_steps = 0;
};

// A child's protocol list that counts each step of its iterator in the
// Recorder: the check that the composed iterator never re-walks a child.
class CountingProtocols {
 public:
  // Forward iterator over the names of the ids in [pos, end).
  class Iterator {
   public:
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::forward_iterator_tag;
    Iterator() = default;
    Iterator(const std::uint8_t* pos, Recorder* recorder)
        : pos_(pos), recorder_(recorder) {}
    std::string_view operator*() const { return ProtocolName(*pos_); }
    Iterator& operator++() {
      ++pos_;
      ++recorder_->protocol_steps;
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) {
      return a.pos_ == b.pos_;
    }

   private:
    const std::uint8_t* pos_ = nullptr;
    Recorder* recorder_ = nullptr;
  };

  CountingProtocols() = default;
  CountingProtocols(const std::vector<std::uint8_t>* ids, Recorder* recorder)
      : ids_(ids), recorder_(recorder) {}
  Iterator begin() const { return Iterator(ids_->data(), recorder_); }
  Iterator end() const {
    return Iterator(ids_->data() + ids_->size(), recorder_);
  }

 private:
  const std::vector<std::uint8_t>* ids_ = nullptr;
  Recorder* recorder_ = nullptr;
};

}  // namespace fairwire::poll

// Its iterators point into the child's script, not into the range object.
template <>
inline constexpr bool
    std::ranges::enable_borrowed_range<fairwire::poll::CountingProtocols> =
        true;

namespace fairwire::poll {

// A handler that plays one ChildScript and records every poll.
class ScriptedChild {
 public:
  // The event: the scripted event id.
  using Event = std::uint8_t;

  // Child `id` playing its own copy of `script`, recording into `recorder`
  // (which must outlive it).
  ScriptedChild(std::size_t id, ChildScript script, Recorder* recorder)
      : id_(id), own_(std::move(script)), recorder_(recorder) {}
  // Child `id` playing `*script` without copying it (the harness's runs:
  // no allocation per child); `script` and `recorder` must outlive it.
  ScriptedChild(std::size_t id, const ChildScript* script, Recorder* recorder)
      : id_(id), borrowed_(script), recorder_(recorder) {}

  // Records the poll, then plays the next outcome.
  ::fairwire::poll::Poll<Event> Poll(Context& cx);

  // The script's protocols, through a counting iterator.
  CountingProtocols Protocols() const {
    return CountingProtocols(&script().protocols, recorder_);
  }
  // Appends an outcome to the script (the model-based test's "child gets
  // events" and "child finishes"); a borrowed script is copied first.
  void Append(Outcome outcome) {
    if (borrowed_ != nullptr) {
      own_ = *borrowed_;
      borrowed_ = nullptr;
    }
    own_.outcomes.push_back(outcome);
  }
  // The child's id.
  std::size_t id() const { return id_; }

 private:
  const ChildScript& script() const {
    return borrowed_ != nullptr ? *borrowed_ : own_;
  }

  std::size_t id_;
  const ChildScript* borrowed_ = nullptr;  // when set, played instead of own_
  ChildScript own_;
  std::size_t next_ = 0;
  Recorder* recorder_;
};

// A handler that is Done at once; fills the right end of a one-child Nested.
struct FinishedHandler {
  using Event = std::uint8_t;
  ::fairwire::poll::Poll<Event> Poll(Context&) {
    return ::fairwire::poll::Poll<Event>::Done();
  }
  std::span<const std::string_view> Protocols() const { return {}; }
};

// RandomStart's generator in the harness: returns the script's draws in
// order, cycling (0 when there are none), as the model does.
class ScriptedRng {
 public:
  explicit ScriptedRng(const std::vector<std::uint8_t>* draws = nullptr)
      : draws_(draws) {}
  std::uint64_t operator()() {
    if (draws_ == nullptr || draws_->empty()) return 0;
    return (*draws_)[taken_++ % draws_->size()];
  }

 private:
  const std::vector<std::uint8_t>* draws_;
  std::size_t taken_ = 0;
};

// What one call did.
struct ObservedCall {
  // This call's polls: Observation::polls[first_poll, first_poll + poll_count).
  std::size_t first_poll = 0;
  std::size_t poll_count = 0;
  CallResult result = CallResult::kPending;
  std::size_t tag = 0;
  std::uint8_t event = 0;
  bool composite_done = false;          // IsDone() after the call
  Waker waker;                          // the waker given to this call
  std::uint64_t wakes_during_call = 0;  // wakes of this call's waker
  // Pending calls: live children whose latest waker is not this call's.
  std::vector<std::size_t> stale_registrations;
  // Pending calls: live children whose wake did not reach this call's waker.
  std::vector<std::size_t> lost_wakes;
  // Scripted external wakes after this call that missed the waker of the
  // call that last polled the child.
  std::vector<std::size_t> missed_external_wakes;
};

// A whole run of a script through one composite.
struct Observation {
  std::string composite;  // "Select<Sticky>", "SelectAll<Sticky>", "Nested"
  std::vector<ObservedCall> calls;
  // Every call's polls, in order, in one flat table (no vector per call).
  std::vector<PollRecord> polls;
  // Protocol iteration: the full walk, the iterator steps the children saw
  // during it, and the first split point at which a copied iterator did not
  // resume with the rest of the walk (or none).
  std::vector<std::string_view> protocols;
  std::size_t protocol_steps = 0;
  std::ptrdiff_t protocol_resume_failure = -1;

  // The polls of call t, in order.
  std::span<const PollRecord> PollsOf(std::size_t t) const {
    return std::span<const PollRecord>(polls).subspan(calls[t].first_poll,
                                                      calls[t].poll_count);
  }
};

// The event and child index of a Ready result; one overload per composite.
struct TagAndEvent {
  std::size_t tag;
  std::uint8_t event;
};

namespace internal {

// Walks `range` fully, then for each split point checks that a copy of the
// iterator taken there yields the rest of the walk.
template <class Range>
void ObserveProtocols(const Range& range, Recorder& recorder,
                      Observation& out) {
  recorder.protocol_steps = 0;
  for (auto it = range.begin(); it != range.end(); ++it) {
    out.protocols.push_back(*it);
  }
  out.protocol_steps = recorder.protocol_steps;
  // Split points: about 8 spread over the walk, and the very end.
  const std::size_t total = out.protocols.size();
  const std::size_t every = total / 8 + 1;
  auto it = range.begin();
  for (std::size_t split = 0; split <= total; ++split) {
    if (split % every != 0 && split != total) {
      ++it;
      continue;
    }
    auto copy = it;
    std::size_t k = split;
    for (; copy != range.end(); ++copy, ++k) {
      if (k >= out.protocols.size() || *copy != out.protocols[k]) break;
    }
    if (k != out.protocols.size() || copy != range.end()) {
      out.protocol_resume_failure = static_cast<std::ptrdiff_t>(split);
      return;
    }
    if (split < out.protocols.size()) ++it;
  }
}

}  // namespace internal

// Plays `script` for script.calls calls through `composite`, whose children
// are ScriptedChild ids 0..n-1 recording into `recorder`; `tag_of` maps a
// Ready event to TagAndEvent.
template <class Composite, class TagOf>
Observation Drive(const PollScript& script, Composite& composite,
                  Recorder& recorder, std::string name, TagOf tag_of) {
  const std::size_t n = script.children.size();
  Observation out;
  out.composite = std::move(name);
  std::vector<WakeCounter> counters(script.calls);
  std::vector<bool> done(n, false);
  std::vector<std::size_t> last_call(n, 0);
  recorder.latest_waker.assign(n, Waker());
  // The children append every call's polls here; out.polls takes them.
  recorder.polls.clear();
  recorder.polls.reserve(std::size_t{script.calls} * n);
  out.calls.reserve(script.calls);
  for (std::size_t t = 0; t < script.calls; ++t) {
    ObservedCall call;
    call.waker = counters[t].waker();
    Context cx(call.waker);
    call.first_poll = recorder.polls.size();
    try {
      auto result = composite.Poll(cx);
      if (result.IsReady()) {
        const TagAndEvent te = tag_of(result.value());
        call.result = CallResult::kReady;
        call.tag = te.tag;
        call.event = te.event;
      } else {
        call.result =
            result.IsPending() ? CallResult::kPending : CallResult::kDone;
      }
    } catch (const ScriptedThrow&) {
      call.result = CallResult::kThrew;
    }
    call.wakes_during_call = counters[t].count();
    call.poll_count = recorder.polls.size() - call.first_poll;
    call.composite_done = composite.IsDone();
    for (std::size_t k = call.first_poll; k < recorder.polls.size(); ++k) {
      const PollRecord& r = recorder.polls[k];
      if (r.child < n) {
        last_call[r.child] = t;
        if (r.returned == OutcomeKind::kDone) done[r.child] = true;
      }
    }
    if (call.result == CallResult::kPending) {
      for (std::size_t c = 0; c < n; ++c) {
        if (done[c]) continue;
        if (!(recorder.latest_waker[c] == call.waker)) {
          call.stale_registrations.push_back(c);
        }
        const std::uint64_t before = counters[t].count();
        recorder.latest_waker[c].Wake();
        if (counters[t].count() != before + 1) call.lost_wakes.push_back(c);
      }
      counters[t].Reset();
    }
    for (const ExternalWake& w : script.wakes) {
      if (w.after_call != t || w.child >= n) continue;
      WakeCounter& target = counters[last_call[w.child]];
      const std::uint64_t before = target.count();
      recorder.latest_waker[w.child].Wake();
      const bool polled_ever = !(recorder.latest_waker[w.child] == Waker());
      if (polled_ever && target.count() != before + 1) {
        call.missed_external_wakes.push_back(w.child);
      }
    }
    out.calls.push_back(std::move(call));
  }
  out.polls = std::move(recorder.polls);
  recorder.polls.clear();
  internal::ObserveProtocols(composite.Protocols(), recorder, out);
  return out;
}

// Which composite runs the script.
enum class CompositeKind : std::uint8_t { kSelect, kSelectAll };

// Plays `script` under `policy` through Select<...> (n compile-time
// children) or SelectAll<...>; kNested always uses the nested baseline.
// Defined in poll_runners*.cc.
Observation RunScript(const PollScript& script, PolicyKind policy,
                      CompositeKind kind);

}  // namespace fairwire::poll

#endif  // FAIRWIRE_CHECKS_POLL_HARNESS_H_
