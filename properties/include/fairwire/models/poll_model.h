// The reference model of the poll composites: a scheduler simple enough to
// check by eye. Per child a queue of scripted outcomes and a done flag; a
// cursor; the policy's rule written out plainly. It shares no code with
// fairwire::poll (core/include/fairwire/poll): for each call it predicts the
// exact children polled, in order, and the result.
#ifndef FAIRWIRE_MODELS_POLL_MODEL_H_
#define FAIRWIRE_MODELS_POLL_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fairwire/models/poll_policy_model.h"
#include "fairwire/models/poll_script.h"

namespace fairwire::poll {

// What one call of the composite returned (or did).
enum class CallResult : std::uint8_t { kReady, kPending, kDone, kThrew };

// The model's prediction for one call.
struct ModelCall {
  std::vector<std::size_t> polled;  // child indexes, in poll order
  CallResult result = CallResult::kPending;
  std::size_t tag = 0;     // kReady: the child's index
  std::uint8_t event = 0;  // kReady: the event
};

// A call's result without the children it polled (PollModel::CallInto).
struct ModelResult {
  CallResult result = CallResult::kPending;
  std::size_t tag = 0;     // kReady: the child's index
  std::uint8_t event = 0;  // kReady: the event
};

// See the file comment.
class PollModel {
 public:
  // Children from `children`, scheduled by `policy` (kNested schedules as
  // kPriority); RandomStart's k-th draw is draws[k % size] (0 if none).
  PollModel(PolicyKind policy, const std::vector<ChildScript>& children,
            std::span<const std::uint8_t> draws);
  // The same, scheduled by any policy's model (poll_policy_model.h).
  PollModel(PolicyModel policy, const std::vector<ChildScript>& children,
            std::span<const std::uint8_t> draws);
  // Starts over as PollModel(policy, children, draws) would, in the memory
  // this model already holds: a harness that keeps one model and runs it
  // on script after script allocates nothing once it has grown, and frees
  // nothing (libFuzzer runs an input again when it allocated more than it
  // freed, as a possible leak).
  void Reset(PolicyModel policy, const std::vector<ChildScript>& children,
             std::span<const std::uint8_t> draws);

  // One call of the composite: the children polled and the result.
  ModelCall Call();
  // The same call, appending the children polled to `polled` (a table
  // shared by many calls, so no allocation per call).
  ModelResult CallInto(std::vector<std::size_t>& polled);

  // A new child at the end (SelectAll::Add).
  void Add(const ChildScript& child);
  // Removes child i; later children move down (SelectAll::Remove).
  void Remove(std::size_t i);
  // Appends an outcome to child i's queue.
  void Append(std::size_t i, Outcome outcome);

  // The number of children, live or done.
  std::size_t size() const { return children_.size(); }
  // How many children are not done.
  std::size_t live() const;
  // Whether child i has returned Done.
  bool IsDone(std::size_t i) const { return children_[i].done; }
  // Whether child i is live and its next outcome is Ready.
  bool IsReady(std::size_t i) const;

 private:
  struct Child {
    std::vector<Outcome> queue;
    std::size_t next = 0;  // index of the next outcome in queue
    bool loop = false;
    bool done = false;
  };

  // The outcome child c gives when polled now; moves its queue on.
  static Outcome Take(Child& c);
  // The index the call's scan starts from (n >= 1 children).
  std::size_t StartOfCall();
  // Moves the cursor after child j was Ready.
  void AfterReady(std::size_t j);

  PolicyModel policy_;
  PolicyState state_;
  std::vector<Child> children_;
  std::vector<Child> spare_;  // children a Reset dropped, with their memory
  std::vector<std::uint8_t> draws_;
  std::size_t draws_taken_ = 0;
};

}  // namespace fairwire::poll

#endif  // FAIRWIRE_MODELS_POLL_MODEL_H_
