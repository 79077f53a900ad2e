// Divergence minimisation. The payload is read into a tree of records (a
// known message field's payload parsed as records, by the model schema; any
// bytes that do not parse kept as they are), edited, and written back with
// every length recomputed, so that a record deep inside nested messages can
// go as easily as a top-level one. Edits, each kept when the divergence
// stays: remove a record; hoist a record's same-field child into its place,
// or splice a message of its parent's own type into the parent (one level
// of recursion less either way); empty a record; write its tag, length and
// varint value in their shortest forms; remove single bytes of a string or
// bytes value. Then chunks of the written bytes, halves first. To a
// fixpoint or the trial budget.
#include "fairwire/checks/wire_adapter_minimise.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::kit {
namespace {

// One record, with a known message field's payload parsed.
struct Node {
  std::uint32_t number = 0;
  int wire_type = 0;
  Bytes tag;     // as written
  Bytes length;  // len records: as written; empty once recomputed
  Bytes body;    // everything after tag and length, unless `message`
  bool message = false;
  int type = -1;               // the message type, when `message`
  std::vector<Node> children;  // when `message`
  Bytes tail;                  // when `message`: bytes after the last record
};

std::size_t VarintLength(ByteSpan b, std::size_t at) {
  std::size_t n = 0;
  while (at + n < b.size() && (b[at + n] & 0x80) != 0) ++n;
  return n + 1;
}

const model::Field* FieldOf(const model::Schema& schema, int type,
                            std::uint32_t number) {
  if (type < 0) return nullptr;
  for (const model::Field& f :
       schema.messages[static_cast<std::size_t>(type)].fields) {
    if (f.number == number) return &f;
  }
  return nullptr;
}

// The records of `bytes` as a message of `type` (-1: unknown), and the tail.
std::vector<Node> Parse(const model::Schema& schema, int type, ByteSpan bytes,
                        Bytes& tail, int depth) {
  std::vector<Node> out;
  std::size_t consumed = 0;
  for (const records::RawRecord& r : records::Split(bytes, &consumed)) {
    Node n;
    n.number = r.number;
    n.wire_type = r.wire_type;
    const std::size_t tag_end = r.begin + VarintLength(bytes, r.begin);
    n.tag.assign(bytes.begin() + static_cast<long>(r.begin),
                 bytes.begin() + static_cast<long>(tag_end));
    std::size_t body_begin = tag_end;
    if (r.wire_type == 2) {
      n.length.assign(bytes.begin() + static_cast<long>(tag_end),
                      bytes.begin() + static_cast<long>(r.payload_begin));
      body_begin = r.payload_begin;
    }
    const model::Field* f = FieldOf(schema, type, r.number);
    const ByteSpan body = bytes.subspan(body_begin, r.end - body_begin);
    if (r.wire_type == 2 && f != nullptr && f->kind == model::Kind::kMessage &&
        depth < 200) {
      n.message = true;
      n.type = f->message_index;
      n.children = Parse(schema, n.type, body, n.tail, depth + 1);
    } else {
      n.body.assign(body.begin(), body.end());
    }
    out.push_back(std::move(n));
  }
  tail.assign(bytes.begin() + static_cast<long>(consumed), bytes.end());
  return out;
}

void Write(const std::vector<Node>& nodes, const Bytes& tail, Bytes& out);

void Write(const Node& n, Bytes& out) {
  out.insert(out.end(), n.tag.begin(), n.tag.end());
  Bytes content;
  if (n.message) {
    Write(n.children, n.tail, content);
  } else {
    content = n.body;
  }
  if (n.wire_type == 2) {
    if (n.length.empty()) {
      std::string varint;
      records::PutVarint(content.size(), varint);
      out.insert(out.end(), varint.begin(), varint.end());
    } else {
      out.insert(out.end(), n.length.begin(), n.length.end());
    }
  }
  out.insert(out.end(), content.begin(), content.end());
}

void Write(const std::vector<Node>& nodes, const Bytes& tail, Bytes& out) {
  for (const Node& n : nodes) Write(n, out);
  out.insert(out.end(), tail.begin(), tail.end());
}

// Where a node is: child indices from the top.
using Path = std::vector<std::size_t>;

void Paths(const std::vector<Node>& nodes, Path& at, std::vector<Path>& out) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    at.push_back(i);
    out.push_back(at);
    if (nodes[i].message) Paths(nodes[i].children, at, out);
    at.pop_back();
  }
}

// Every length on the way to `path` recomputed (edits change sizes).
std::vector<Node>& ParentOf(std::vector<Node>& top, const Path& path) {
  std::vector<Node>* level = &top;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    Node& n = (*level)[path[k]];
    n.length.clear();
    level = &n.children;
  }
  return *level;
}

class Minimiser {
 public:
  Minimiser(DecoderAdapter& adapter, const oracle::Subject& subject,
            Parting parting, std::size_t max_trials)
      : adapter_(adapter),
        subject_(subject),
        parting_(parting),
        max_trials_(max_trials) {}

  void Run(ByteSpan input, const Comparison& first) {
    best_.assign(input.begin(), input.end());
    comparison_ = first;
    while (!Out()) {
      bool changed = TopLevelRunsPass();
      while (!Out() && TreePass()) changed = true;
      if (ChunksPass()) changed = true;
      if (!changed) break;
    }
  }

  MinimalDivergence Result() && {
    return MinimalDivergence{std::move(best_), std::move(comparison_), trials_};
  }

 private:
  bool Out() const { return trials_ >= max_trials_; }

  // True, with best_ updated, when `candidate` still diverges alike.
  bool Try(const Bytes& candidate) {
    if (trials_ >= max_trials_ || candidate.size() > best_.size() ||
        candidate == best_) {
      return false;
    }
    ++trials_;
    Comparison c = CompareWithReference(adapter_, subject_, candidate);
    if (c.result != Comparison::Result::kDiverge || c.parting != parting_) {
      return false;
    }
    best_ = candidate;
    comparison_ = std::move(c);
    return true;
  }

  // Removes runs of top-level records, halves of the list first (delta
  // debugging's order), so that a long input loses most of its records in
  // a few trials.
  bool TopLevelRunsPass() {
    bool changed = false;
    Bytes tail;
    std::vector<Node> tree = Parse(subject_.model, 0, best_, tail, 0);
    for (std::size_t chunk = tree.size() / 2; chunk >= 2 && !Out();
         chunk /= 2) {
      for (std::size_t end = tree.size(); end >= chunk && !Out();) {
        std::vector<Node> t = tree;
        t.erase(t.begin() + static_cast<long>(end - chunk),
                t.begin() + static_cast<long>(end));
        Bytes candidate;
        Write(t, tail, candidate);
        if (Try(candidate)) {
          tree = std::move(t);
          changed = true;
          end = std::min(end - chunk, tree.size());
        } else {
          end -= chunk;
        }
      }
    }
    return changed;
  }

  // One edit of the tree that keeps the divergence; false when none does.
  bool TreePass() {
    Bytes tail;
    const std::vector<Node> tree = Parse(subject_.model, 0, best_, tail, 0);
    std::vector<Path> paths;
    Path at;
    Paths(tree, at, paths);
    // Bigger edits first: hoists (a recursive chain loses a level in one
    // trial), removals, then the small ones.
    for (int edit : {1, 5, 0, 2, 3, 4}) {
      for (const Path& p : paths) {
        if (Out()) return false;
        if (edit != 4) {
          std::vector<Node> t = tree;
          if (!Edit(t, p, edit)) continue;
          Bytes candidate;
          Write(t, tail, candidate);
          if (Try(candidate)) return true;
        } else if (ShrinkBody(tree, tail, p)) {
          return true;
        }
      }
    }
    return false;
  }

  // Edit 0 removes the node; 1 hoists its same-field child; 2 empties it;
  // 3 writes its tag, length and varint value in their shortest forms; 5
  // splices a message of its parent's type into the parent (its records in
  // its place). False when it does not apply.
  static bool Edit(std::vector<Node>& top, const Path& p, int edit) {
    int parent_type = 0;
    {
      const std::vector<Node>* level = &top;
      for (std::size_t k = 0; k + 1 < p.size(); ++k) {
        parent_type = (*level)[p[k]].type;
        level = &(*level)[p[k]].children;
      }
    }
    std::vector<Node>& level = ParentOf(top, p);
    Node& n = level[p.back()];
    switch (edit) {
      case 5: {
        // A message of its parent's own type: its records in its place.
        if (!n.message || n.type != parent_type || !n.tail.empty()) {
          return false;
        }
        std::vector<Node> children = std::move(n.children);
        level.erase(level.begin() + static_cast<long>(p.back()));
        level.insert(level.begin() + static_cast<long>(p.back()),
                     std::make_move_iterator(children.begin()),
                     std::make_move_iterator(children.end()));
        return true;
      }
      case 0:
        level.erase(level.begin() + static_cast<long>(p.back()));
        return true;
      case 1:
        for (Node& c : n.children) {
          if (c.number == n.number && c.wire_type == n.wire_type) {
            Node child = std::move(c);
            n = std::move(child);
            return true;
          }
        }
        return false;
      case 3: {
        std::string tag;
        records::PutTag(n.number, n.wire_type, tag);
        n.tag.assign(tag.begin(), tag.end());
        n.length.clear();
        std::size_t pos = 0;
        std::uint64_t value = 0;
        if (n.wire_type == 0 && records::ReadVarint(n.body, pos, value)) {
          std::string varint;
          records::PutVarint(value, varint);
          n.body.assign(varint.begin(), varint.end());
        }
        return true;
      }
      default: {
        n.length.clear();
        if (n.message) {
          n.children.clear();
          n.tail.clear();
        } else if (n.wire_type == 2) {
          n.body.clear();
        } else if (n.wire_type == 3) {
          std::string end;
          records::PutTag(n.number, 4, end);
          n.body.assign(end.begin(), end.end());
        }
        return true;
      }
    }
  }

  // Removes single bytes of a len leaf's value, last first.
  bool ShrinkBody(const std::vector<Node>& tree, const Bytes& tail,
                  const Path& p) {
    const std::vector<Node>* level = &tree;
    for (std::size_t k = 0; k + 1 < p.size(); ++k) {
      level = &(*level)[p[k]].children;
    }
    const Node& n = (*level)[p.back()];
    if (n.message || n.wire_type != 2) return false;
    for (std::size_t i = n.body.size(); i-- > 0 && !Out();) {
      std::vector<Node> t = tree;
      Node& m = ParentOf(t, p)[p.back()];
      m.body.erase(m.body.begin() + static_cast<long>(i));
      m.length.clear();
      Bytes candidate;
      Write(t, tail, candidate);
      if (Try(candidate)) return true;
    }
    return false;
  }

  // Removes chunks of bytes, halves first, then quarters, down to single
  // bytes (delta debugging's order): what the tree cannot reach, such as a
  // malformed tail, shrinks in about log(n) rounds instead of n.
  bool ChunksPass() {
    bool changed = false;
    for (std::size_t chunk = std::max<std::size_t>(1, best_.size() / 2); !Out();
         chunk /= 2) {
      for (std::size_t end = best_.size(); end >= chunk && !Out();) {
        const std::size_t start = end - chunk;
        Bytes candidate(best_.begin(),
                        best_.begin() + static_cast<long>(start));
        candidate.insert(candidate.end(),
                         best_.begin() + static_cast<long>(end), best_.end());
        if (Try(candidate)) {
          changed = true;
          end = std::min(start, best_.size());
        } else {
          end = start;
        }
      }
      if (chunk == 1) break;
    }
    return changed;
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
