// The reference model. Read it beside docs/design.md, "Poll core" (the
// policies).
#include "fairwire/models/poll_model.h"

#include <utility>

namespace fairwire::poll {

PollModel::PollModel(PolicyKind policy,
                     const std::vector<ChildScript>& children,
                     std::span<const std::uint8_t> draws)
    : PollModel(PolicyModelOf(policy), children, draws) {}

PollModel::PollModel(PolicyModel policy,
                     const std::vector<ChildScript>& children,
                     std::span<const std::uint8_t> draws) {
  Reset(std::move(policy), children, draws);
}

void PollModel::Reset(PolicyModel policy,
                      const std::vector<ChildScript>& children,
                      std::span<const std::uint8_t> draws) {
  policy_ = std::move(policy);
  state_ = PolicyState();
  // Children come from and go to spare_ with their queues' memory.
  while (children_.size() > children.size()) {
    spare_.push_back(std::move(children_.back()));
    children_.pop_back();
  }
  while (children_.size() < children.size()) {
    if (spare_.empty()) {
      children_.emplace_back();
    } else {
      children_.push_back(std::move(spare_.back()));
      spare_.pop_back();
    }
  }
  for (std::size_t i = 0; i < children.size(); ++i) {
    Child& c = children_[i];
    c.queue.assign(children[i].outcomes.begin(), children[i].outcomes.end());
    c.next = 0;
    c.loop = children[i].loop;
    c.done = false;
  }
  draws_.assign(draws.begin(), draws.end());
  draws_taken_ = 0;
}

void PollModel::Add(const ChildScript& child) {
  Child c;
  c.queue = child.outcomes;
  c.loop = child.loop;
  children_.push_back(std::move(c));
}

void PollModel::Remove(std::size_t i) {
  children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(i));
  const std::size_t n = children_.size();
  // Children after i moved down by one; a cursor on i now points at the
  // child that followed it (wrapping to 0 past the end).
  PolicyState& s = state_;
  if (s.cursor > i) {
    s.cursor -= 1;
  } else if (s.cursor == i && s.cursor >= n) {
    s.cursor = 0;
  }
  if (s.streak_child == i) {
    s.streak_child = PolicyState::kNoStreak;
    s.streak = 0;
  } else if (s.streak_child != PolicyState::kNoStreak && s.streak_child > i) {
    s.streak_child -= 1;
  }
  if (n == 0) s.cursor = 0;
}

void PollModel::Append(std::size_t i, Outcome outcome) {
  children_[i].queue.push_back(outcome);
}

std::size_t PollModel::live() const {
  std::size_t n = 0;
  for (const Child& c : children_) n += c.done ? 0 : 1;
  return n;
}

bool PollModel::IsReady(std::size_t i) const {
  const Child& c = children_[i];
  if (c.done || c.next >= c.queue.size()) return false;
  return c.queue[c.next].kind == OutcomeKind::kReady;
}

Outcome PollModel::Take(Child& c) {
  if (c.next >= c.queue.size()) return Outcome{OutcomeKind::kPending, 0};
  const Outcome o = c.queue[c.next];
  c.next += 1;
  if (c.loop && c.next == c.queue.size()) c.next = 0;
  return o;
}

std::size_t PollModel::StartOfCall() {
  const std::size_t n = children_.size();
  const DrawFn draw = [this]() -> std::uint64_t {
    const std::uint64_t d =
        draws_.empty() ? 0 : draws_[draws_taken_ % draws_.size()];
    draws_taken_ += 1;
    return d;
  };
  return policy_.start(state_, n, draw) % n;
}

void PollModel::AfterReady(std::size_t j) {
  if (policy_.after_ready) policy_.after_ready(state_, j, children_.size());
}

ModelCall PollModel::Call() {
  ModelCall call;
  const ModelResult r = CallInto(call.polled);
  call.result = r.result;
  call.tag = r.tag;
  call.event = r.event;
  return call;
}

ModelResult PollModel::CallInto(std::vector<std::size_t>& polled) {
  ModelResult call;
  const std::size_t n = children_.size();
  if (live() == 0) {
    call.result = CallResult::kDone;
    return call;
  }
  const std::size_t start = StartOfCall();
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t i = (start + step) % n;
    Child& c = children_[i];
    if (c.done) continue;
    polled.push_back(i);
    const Outcome o = Take(c);
    if (o.kind == OutcomeKind::kReady) {
      AfterReady(i);
      call.result = CallResult::kReady;
      call.tag = i;
      call.event = o.event;
      return call;
    }
    if (o.kind == OutcomeKind::kThrow) {
      call.result = CallResult::kThrew;
      return call;
    }
    if (o.kind == OutcomeKind::kDone) c.done = true;
  }
  call.result = live() == 0 ? CallResult::kDone : CallResult::kPending;
  return call;
}

}  // namespace fairwire::poll
