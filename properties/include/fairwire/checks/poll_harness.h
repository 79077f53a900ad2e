// The harness that drives a real composite (Select, SelectAll, Nested) over
// a PollScript and records what happened: which children each call polled,
// with which waker, what they returned, what the call returned, and where
// wakes went. The checks (poll_checks.h) compare that record with the model.
// Templates, so tests can drive composites built in the test (a broken
// policy, for instance) through the same code.
#ifndef FAIRWIRE_CHECKS_POLL_HARNESS_H_
#define FAIRWIRE_CHECKS_POLL_HARNESS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <memory>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fairwire/checks/poll_observation.h"
#include "fairwire/checks/poll_observed_run.h"
#include "fairwire/models/poll_model.h"
#include "fairwire/poll/poll.h"
#include "fairwire/poll/waker.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll {

// What a scripted child throws for a kThrow outcome.
struct ScriptedThrow : std::exception {
  const char* what() const noexcept override { return "scripted throw"; }
};

struct Recorder;

// The waker of one call: records a kCallerWoken when woken.
class CallerWaker {
 public:
  CallerWaker() = default;
  CallerWaker(Recorder* recorder, std::uint32_t id)
      : recorder_(recorder), id_(id) {}
  Waker waker() { return Waker(&CallerWaker::Woken, this); }

 private:
  static void Woken(void* self);

  Recorder* recorder_ = nullptr;
  std::uint32_t id_ = 0;
};

// Callers' wakers in blocks that never move: a composite may hold a call's
// waker for the rest of the run.
inline constexpr std::size_t kCallersPerBlock = 64;
using CallerBlock = std::array<CallerWaker, kCallersPerBlock>;

// Shared by the children of one run: the observation being recorded, the
// wakers seen so far (by id), each child's latest waker, and how many
// protocol-list steps were taken. Its functions are in poll_recording.cc,
// with the Observer's bookkeeping: under fuzzing they run without the
// sanitizers, which stay on the composite and the scripted children.
struct Recorder {
  Observation log;
  std::vector<Waker> wakers;        // waker id -> waker, in order of sight
  std::vector<Waker> latest_waker;  // by child id
  std::vector<std::uint32_t> latest_waker_id;  // by child id
  // Call t's waker is (*caller_blocks[t / kCallersPerBlock])[t % ...];
  // the blocks outlive the run, for the next one.
  std::vector<std::unique_ptr<CallerBlock>> caller_blocks;
  std::size_t protocol_steps = 0;

  // The id of `waker`, numbered on first sight.
  std::uint32_t WakerId(const Waker& waker);
  // Keeps the latest waker of children 0..n-1 (those not polled yet have
  // none).
  void TrackChildren(std::size_t n);
  // The id of `waker`, which has not been seen (a caller's new waker).
  std::uint32_t NewWakerId(const Waker& waker);
  // Appends one event.
  void Record(const ObservedEvent& event);
  // Records a poll of child `child` with `waker` that plays `outcome`, and
  // keeps `waker` as the child's latest; returns the waker's id.
  std::uint32_t RecordPoll(std::size_t child, const Waker& waker,
                           Outcome outcome);
  // Wakes `waker` (id `id`), child `child`'s latest, for `cause`, between
  // a kWakeBegin and a kWakeEnd.
  void Wake(std::size_t child, const Waker& waker, std::uint32_t id,
            WakeCause cause);
  // Call t's CallerWaker, in a block allocated on first use.
  CallerWaker& CallerSlot(std::size_t t);
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
                      ObservedRun& out) {
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

namespace internal {

// What an Observer does that does not depend on the composite: a call's
// waker and its kCallBegin, and after the call its kCallEnd and the probe
// wakes; the script's external wakes. One class for every composite type
// (poll_recording.cc), so that only the call itself is instantiated per
// composite.
class ObserverCore {
 public:
  // Starts a fresh observation in `recorder`, keeping the memory of its
  // events, for a composite named `name` with `children` children.
  ObserverCore(Recorder& recorder, std::string name, std::size_t children);
  ObserverCore(const ObserverCore&) = delete;
  ObserverCore& operator=(const ObserverCore&) = delete;

  // Records the next call's kCallBegin; returns the call's own new waker.
  Waker BeginCall();
  // Records `end`, the kCallEnd of the call BeginCall began, and after a
  // Pending call a probe wake of every live child's latest waker; returns
  // `end`.
  ObservedEvent EndCall(const ObservedEvent& end);
  // The script's kind of wake: child's latest waker, if it was ever polled.
  void WakeExternally(std::size_t child);
  // The observation so far.
  const Observation& observation() const { return recorder_.log; }

 private:
  Recorder& recorder_;
  std::vector<bool> done_;            // by child: polled Done
  std::size_t calls_ = 0;             // calls begun
  std::size_t call_first_event_ = 0;  // the current call's first poll
};

}  // namespace internal

// Records an observation of `composite`, whose children are ScriptedChild
// ids 0..children-1 recording into `recorder`, one step at a time: a call
// (with its own waker; after a Pending one, a probe wake of every live
// child's latest waker), an external wake. Observe plays a whole script
// with it; a model-based test interleaves calls, wakes and new outcomes.
// `tag_of` maps a Ready event to TagAndEvent. The composite and recorder
// must outlive it (the callers' wakers point into the recorder).
template <class Composite, class TagOf>
class Observer {
 public:
  Observer(Composite& composite, Recorder& recorder, std::string name,
           std::size_t children, TagOf tag_of)
      : composite_(composite),
        tag_of_(std::move(tag_of)),
        core_(recorder, std::move(name), children) {}
  Observer(const Observer&) = delete;
  Observer& operator=(const Observer&) = delete;

  // One call; returns its kCallEnd.
  ObservedEvent Call() {
    Context cx(core_.BeginCall());
    ObservedEvent end;
    end.kind = ObservedEventKind::kCallEnd;
    try {
      auto result = composite_.Poll(cx);
      if (result.IsReady()) {
        const TagAndEvent te = tag_of_(result.value());
        end.result = CallResult::kReady;
        end.tag = static_cast<std::uint32_t>(te.tag);
        end.event = te.event;
      } else {
        end.result =
            result.IsPending() ? CallResult::kPending : CallResult::kDone;
      }
    } catch (const ScriptedThrow&) {
      end.result = CallResult::kThrew;
    }
    end.done = composite_.IsDone();
    return core_.EndCall(end);
  }

  // The script's kind of wake: child's latest waker, if it was ever polled.
  void WakeExternally(std::size_t child) { core_.WakeExternally(child); }

  // The observation so far.
  const Observation& observation() const { return core_.observation(); }

 private:
  Composite& composite_;
  TagOf tag_of_;
  internal::ObserverCore core_;
};

// Plays `script` for script.calls calls through `composite` with an
// Observer: after each call, the script's external wakes.
template <class Composite, class TagOf>
Observation Observe(const PollScript& script, Composite& composite,
                    Recorder& recorder, std::string name, TagOf tag_of) {
  Observer<Composite, TagOf> observer(composite, recorder, std::move(name),
                                      script.children.size(),
                                      std::move(tag_of));
  // A call's polls, a probe of each child (three events), its ends.
  recorder.log.events.reserve(std::size_t{script.calls} *
                              (4 * script.children.size() + 4));
  for (std::size_t t = 0; t < script.calls; ++t) {
    observer.Call();
    for (const ExternalWake& w : script.wakes) {
      if (w.after_call == t) observer.WakeExternally(w.child);
    }
  }
  return std::move(recorder.log);
}

namespace internal {

// The storage of this thread's latest Drive, kept for its capacity: a run
// records and digests into the memory of the one before it (no allocation
// and no fresh pages per run; under ASan every allocation costs a stack
// trace, a fill and, while the quarantine holds the old memory, new pages).
struct SpareRunStorage {
  std::vector<ObservedEvent> events;
  std::vector<Waker> wakers;
  std::vector<Waker> latest_waker;
  std::vector<std::uint32_t> latest_waker_id;
  std::vector<std::unique_ptr<CallerBlock>> caller_blocks;
  // An ObservedRun handed back by its reader (RecycleObservedRun).
  ObservedRun run;
};

inline SpareRunStorage& SpareStorage() {
  thread_local SpareRunStorage spare;
  return spare;
}

}  // namespace internal

// Gives the storage of `run`, which its reader is done with, to this
// thread's next Drive.
inline void RecycleObservedRun(ObservedRun&& run) {
  internal::SpareStorage().run = std::move(run);
}

// Observe, then the digest of the observation with the composite's
// protocol iteration. Records and digests into this thread's spare storage
// (what the previous Drive left and RecycleObservedRun gave back).
template <class Composite, class TagOf>
ObservedRun Drive(const PollScript& script, Composite& composite,
                  Recorder& recorder, std::string name, TagOf tag_of) {
  internal::SpareRunStorage& spare = internal::SpareStorage();
  // The Observer clears them.
  recorder.log.events = std::move(spare.events);
  recorder.wakers = std::move(spare.wakers);
  recorder.latest_waker = std::move(spare.latest_waker);
  recorder.latest_waker_id = std::move(spare.latest_waker_id);
  recorder.caller_blocks = std::move(spare.caller_blocks);
  Observation observation =
      Observe(script, composite, recorder, std::move(name), tag_of);
  ObservedRun out = std::move(spare.run);
  DigestObservation(observation, out);
  spare.events = std::move(observation.events);
  internal::ObserveProtocols(composite.Protocols(), recorder, out);
  spare.wakers = std::move(recorder.wakers);
  spare.latest_waker = std::move(recorder.latest_waker);
  spare.latest_waker_id = std::move(recorder.latest_waker_id);
  spare.caller_blocks = std::move(recorder.caller_blocks);
  return out;
}

// Which composite runs the script.
enum class CompositeKind : std::uint8_t { kSelect, kSelectAll };

// Plays `script` under `policy` through Select<...> (n compile-time
// children) or SelectAll<...>; kNested always uses the nested baseline.
// Defined in poll_runners*.cc.
ObservedRun RunScript(const PollScript& script, PolicyKind policy,
                      CompositeKind kind);

}  // namespace fairwire::poll

#endif  // FAIRWIRE_CHECKS_POLL_HARNESS_H_
