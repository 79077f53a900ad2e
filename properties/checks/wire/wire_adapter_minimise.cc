// Divergence minimisation: record removal (top level and inside nested
// messages), then byte removal, to a fixpoint or the trial budget.
#include "fairwire/checks/wire_adapter_minimise.h"

#include <string>
#include <vector>

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::kit {
namespace {

class Minimiser {
 public:
  Minimiser(DecoderAdapter& adapter, const oracle::Subject& subject,
            Parting parting, std::size_t max_trials)
      : adapter_(adapter),
        subject_(subject),
        parting_(parting),
        max_trials_(max_trials) {}

  // True, with `best` updated, when `candidate` still diverges alike.
  bool Try(const Bytes& candidate) {
    if (trials_ >= max_trials_) return false;
    ++trials_;
    Comparison c = CompareWithReference(adapter_, subject_, candidate);
    if (c.result != Comparison::Result::kDiverge || c.parting != parting_) {
      return false;
    }
    best_ = candidate;
    comparison_ = std::move(c);
    return true;
  }

  // Removes whole records of the payload at [begin, end) of best_ (a
  // message: the top level, or a top-level record's payload whose length
  // varint starts at `length_at`), then records of the payloads of
  // top-level len records.
  bool Records(std::size_t begin, std::size_t end, std::size_t length_at,
               int depth) {
    bool changed = false;
    const ByteSpan all(best_);
    std::size_t consumed = 0;
    const auto recs =
        records::Split(all.subspan(begin, end - begin), &consumed);
    // Last first: earlier offsets stay valid after a removal.
    for (auto r = recs.rbegin(); r != recs.rend() && !Out(); ++r) {
      const std::size_t rb = begin + r->begin;
      const std::size_t re = begin + r->end;
      if (Try(Without(rb, re, length_at, end - begin))) {
        // Inside a nested message the length varint may have shrunk and
        // moved every later offset: start again from the top.
        if (length_at != kNoLength) return true;
        changed = true;
        end -= re - rb;
      }
    }
    // One level down only: deeper removals would leave the outer lengths
    // stale.
    if (changed || depth >= 1) return changed;
    // Inside nested messages (len records), when removals at this level
    // found nothing.
    for (auto r = recs.rbegin(); r != recs.rend() && !Out(); ++r) {
      if (r->wire_type != 2 || r->payload_end <= r->payload_begin) continue;
      const std::size_t lb =
          begin + r->begin + TagLength(best_, begin + r->begin);
      if (Records(begin + r->payload_begin, begin + r->payload_end, lb,
                  depth + 1)) {
        return true;
      }
    }
    return false;
  }

  // Rewrites each padded top-level tag in its shortest form.
  bool TagsPass() {
    bool changed = false;
    std::size_t consumed = 0;
    const auto recs = records::Split(ByteSpan(best_), &consumed);
    for (auto r = recs.rbegin(); r != recs.rend() && !Out(); ++r) {
      const std::size_t length = TagLength(best_, r->begin);
      std::string tag;
      records::PutTag(r->number, r->wire_type, tag);
      if (tag.size() >= length) continue;
      Bytes candidate(best_.begin(),
                      best_.begin() + static_cast<long>(r->begin));
      candidate.insert(candidate.end(), tag.begin(), tag.end());
      candidate.insert(candidate.end(),
                       best_.begin() + static_cast<long>(r->begin + length),
                       best_.end());
      if (Try(candidate)) changed = true;
    }
    return changed;
  }

  // Empties each top-level len record (length 0) and group (its end tag
  // right after its start tag).
  bool EmptyPass() {
    bool changed = false;
    std::size_t consumed = 0;
    const auto recs = records::Split(ByteSpan(best_), &consumed);
    for (auto r = recs.rbegin(); r != recs.rend() && !Out(); ++r) {
      if (r->payload_end <= r->payload_begin) continue;
      std::string record;
      if (r->wire_type == 2) {
        records::PutTag(r->number, 2, record);
        record.push_back('\0');
      } else if (r->wire_type == 3) {
        records::PutTag(r->number, 3, record);
        records::PutTag(r->number, 4, record);
      } else {
        continue;
      }
      Bytes candidate(best_.begin(),
                      best_.begin() + static_cast<long>(r->begin));
      candidate.insert(candidate.end(), record.begin(), record.end());
      candidate.insert(candidate.end(),
                       best_.begin() + static_cast<long>(r->end), best_.end());
      if (candidate.size() < best_.size() && Try(candidate)) changed = true;
    }
    return changed;
  }

  // Removes single bytes from the payload of each top-level len record, its
  // length rewritten (strings and packed runs shrink so); a padded length
  // is first tried in its shortest form.
  bool PayloadPass() {
    std::size_t consumed = 0;
    const auto recs = records::Split(ByteSpan(best_), &consumed);
    for (auto r = recs.rbegin(); r != recs.rend() && !Out(); ++r) {
      if (r->wire_type != 2) continue;
      const std::size_t length_at = r->begin + TagLength(best_, r->begin);
      const std::size_t n = r->payload_end - r->payload_begin;
      const std::size_t start = r->payload_begin;
      if (start - length_at > 1 || n >= 0x80) {
        const Bytes same = Without(start, start, length_at, n);
        if (same.size() < best_.size() && Try(same)) return true;
      }
      for (std::size_t i = n; i-- > 0 && !Out();) {
        if (Try(Without(start + i, start + i + 1, length_at, n))) return true;
      }
    }
    return false;
  }

  bool BytesPass() {
    bool changed = false;
    for (std::size_t i = best_.size(); i-- > 0 && !Out();) {
      Bytes candidate = best_;
      candidate.erase(candidate.begin() + static_cast<long>(i));
      if (Try(candidate)) changed = true;
    }
    return changed;
  }

  void Run(ByteSpan input, const Comparison& first) {
    best_.assign(input.begin(), input.end());
    comparison_ = first;
    while (!Out()) {
      bool changed = false;
      while (!Out() && Records(0, best_.size(), kNoLength, 0)) changed = true;
      if (TagsPass()) changed = true;
      if (EmptyPass()) changed = true;
      while (!Out() && PayloadPass()) changed = true;
      if (BytesPass()) changed = true;
      if (!changed) break;
    }
  }

  MinimalDivergence Result() && {
    return MinimalDivergence{std::move(best_), std::move(comparison_), trials_};
  }

 private:
  static constexpr std::size_t kNoLength = static_cast<std::size_t>(-1);

  bool Out() const { return trials_ >= max_trials_; }

  static std::size_t TagLength(const Bytes& b, std::size_t at) {
    std::size_t n = 0;
    while (at + n < b.size() && (b[at + n] & 0x80) != 0) ++n;
    return n + 1;
  }

  // best_ without [rb, re); the enclosing message's length varint at
  // `length_at` (kNoLength at the top) rewritten for its new size.
  Bytes Without(std::size_t rb, std::size_t re, std::size_t length_at,
                std::size_t old_length) const {
    if (length_at == kNoLength) {
      Bytes out(best_.begin(), best_.begin() + static_cast<long>(rb));
      out.insert(out.end(), best_.begin() + static_cast<long>(re), best_.end());
      return out;
    }
    std::size_t length_end = length_at;
    while (length_end < best_.size() && (best_[length_end] & 0x80) != 0) {
      ++length_end;
    }
    ++length_end;
    std::string varint;
    records::PutVarint(old_length - (re - rb), varint);
    Bytes out(best_.begin(), best_.begin() + static_cast<long>(length_at));
    out.insert(out.end(), varint.begin(), varint.end());
    out.insert(out.end(), best_.begin() + static_cast<long>(length_end),
               best_.begin() + static_cast<long>(rb));
    out.insert(out.end(), best_.begin() + static_cast<long>(re), best_.end());
    return out;
  }

  DecoderAdapter& adapter_;
  const oracle::Subject& subject_;
  Parting parting_;
  std::size_t max_trials_;
  std::size_t trials_ = 0;
  Bytes best_;
  Comparison comparison_;
};

}  // namespace

MinimalDivergence MinimiseDivergence(DecoderAdapter& adapter,
                                     const oracle::Subject& subject,
                                     ByteSpan input, const Comparison& diverged,
                                     std::size_t max_trials) {
  Minimiser m(adapter, subject, diverged.parting, max_trials);
  m.Run(input, diverged);
  return std::move(m).Result();
}

}  // namespace fairwire::wire::kit
