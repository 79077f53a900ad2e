// The reference model. Read it beside docs/design.md, "Poll core" (the
// policies).
#include "fairwire/models/poll_model.h"

#include <utility>

namespace fairwire::poll {

PollModel::PollModel(PolicyKind policy,
                     const std::vector<ChildScript>& children,
                     std::vector<std::uint8_t> draws)
    : policy_(policy), draws_(std::move(draws)) {
  for (const ChildScript& c : children) Add(c);
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
  if (cursor_ > i) {
    cursor_ -= 1;
  } else if (cursor_ == i && cursor_ >= n) {
    cursor_ = 0;
  }
  if (streak_child_ == i) {
    streak_child_ = kNoChild;
    streak_ = 0;
  } else if (streak_child_ != kNoChild && streak_child_ > i) {
    streak_child_ -= 1;
  }
  if (n == 0) cursor_ = 0;
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
  switch (policy_) {
    case PolicyKind::kPriority:
    case PolicyKind::kNested:
      return 0;
    case PolicyKind::kRandomStart: {
      const std::size_t draw =
          draws_.empty() ? 0 : draws_[draws_taken_ % draws_.size()];
      draws_taken_ += 1;
      return draw % n;
    }
    case PolicyKind::kSticky:
    case PolicyKind::kRoundRobin:
    case PolicyKind::kBudgeted2:
    case PolicyKind::kBudgeted3:
      return cursor_;
  }
  return 0;
}

void PollModel::AfterReady(std::size_t j) {
  const std::size_t n = children_.size();
  const std::size_t after_j = (j + 1) % n;
  switch (policy_) {
    case PolicyKind::kPriority:
    case PolicyKind::kNested:
    case PolicyKind::kRandomStart:
      return;
    case PolicyKind::kSticky:  // stay on j
      cursor_ = j;
      return;
    case PolicyKind::kRoundRobin:  // move past j
      cursor_ = after_j;
      return;
    case PolicyKind::kBudgeted2:
    case PolicyKind::kBudgeted3: {  // stay on j for K events in a row
      const std::size_t budget = policy_ == PolicyKind::kBudgeted2 ? 2 : 3;
      if (streak_child_ == j) {
        streak_ += 1;
      } else {
        streak_child_ = j;
        streak_ = 1;
      }
      if (streak_ == budget) {
        cursor_ = after_j;
        streak_child_ = kNoChild;
        streak_ = 0;
      } else {
        cursor_ = j;
      }
      return;
    }
  }
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
