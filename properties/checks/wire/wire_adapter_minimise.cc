// Divergence minimisation. The payload is read into a tree of records, edited,
// and written back with every length recomputed, so that a record deep inside
// nested messages can go as easily as a top-level one. In the tree, a known
// message field's payload is parsed as records by the model schema, and so is
// a group's (as of no known type); a record with a tag the spec forbids, such
// as field 0, is read loosely so that the records after it can still go; any
// bytes that do not parse are kept as they are. Edits, each kept when the
// divergence stays: remove a record; hoist a record's same-field child into
// its place, or splice a message of its parent's own type (or a group) into
// the parent (one level of recursion less either way); empty a record; write
// its tag, length and varint value in their shortest forms; remove single
// bytes of a string or bytes value. Then chunks of the written bytes, halves
// first. To a fixpoint or the trial budget.
#include "fairwire/checks/wire_adapter_minimise.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::kit {
namespace {

// One record, with a known message field's payload or a group's records
// parsed.
struct Node {
  std::uint32_t number = 0;
  int wire_type = 0;
  Bytes tag;     // as written
  Bytes length;  // len records: as written; empty once recomputed
  Bytes body;    // everything after tag and length, unless `message` or `group`
  bool message = false;
  bool group = false;          // a group (of no known type: fairwire has none)
  int type = -1;               // the message type, when `message`
  std::vector<Node> children;  // when `message` or `group`
  Bytes tail;          // when `message` or `group`: bytes after the last record
  Bytes end_tag;       // when `group`: as written
  bool loose = false;  // past a record Split stopped at: its tag as written
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

// A record that Split stops at but that a decoder under test may still read
// past (records::ReadLooseRecord): a tag of at most 10 bytes, whatever its
// field number (0, or past 32 bits), and a varint, i64, len or i32 payload.
// Read as a node of number 0, so that the records after it stay within reach
// of the tree's edits (a divergence on such a tag usually has many of them).
// False when the bytes at `begin` are no such record.
bool ReadLoose(ByteSpan bytes, std::size_t begin, Node& n, std::size_t& end) {
  records::RawRecord r;
  if (!records::ReadLooseRecord(bytes, begin, r)) return false;
  n.loose = true;
  n.wire_type = r.wire_type;
  const std::size_t tag_end = begin + VarintLength(bytes, begin);
  n.tag.assign(bytes.begin() + static_cast<long>(begin),
               bytes.begin() + static_cast<long>(tag_end));
  n.length.assign(bytes.begin() + static_cast<long>(tag_end),
                  bytes.begin() + static_cast<long>(r.payload_begin));
  n.body.assign(bytes.begin() + static_cast<long>(r.payload_begin),
                bytes.begin() + static_cast<long>(r.end));
  end = r.end;
  return true;
}

void ParseWhole(const model::Schema& schema, int type, ByteSpan bytes,
                int depth, std::vector<Node>& out, std::size_t& consumed);

// The records of `bytes` as a message of `type` (-1: unknown), and the tail:
// whole records, then a loose one, then whole records again, and so on.
std::vector<Node> Parse(const model::Schema& schema, int type, ByteSpan bytes,
                        Bytes& tail, int depth) {
  std::vector<Node> out;
  std::size_t at = 0;
  while (true) {
    std::size_t consumed = 0;
    ParseWhole(schema, type, bytes.subspan(at), depth, out, consumed);
    at += consumed;
    Node n;
    std::size_t end = 0;
    if (at == bytes.size() || !ReadLoose(bytes, at, n, end)) break;
    out.push_back(std::move(n));
    at = end;
  }
  tail.assign(bytes.begin() + static_cast<long>(at), bytes.end());
  return out;
}

// Appends the whole records at the start of `bytes` to `out`; `consumed`
// gets where they end.
void ParseWhole(const model::Schema& schema, int type, ByteSpan bytes,
                int depth, std::vector<Node>& out, std::size_t& consumed) {
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
    } else if (r.wire_type == 3 && depth < 200) {
      n.group = true;
      n.children =
          Parse(schema, -1,
                bytes.subspan(r.payload_begin, r.payload_end - r.payload_begin),
                n.tail, depth + 1);
      n.end_tag.assign(bytes.begin() + static_cast<long>(r.payload_end),
                       bytes.begin() + static_cast<long>(r.end));
    } else {
      n.body.assign(body.begin(), body.end());
    }
    out.push_back(std::move(n));
  }
}

void Write(const std::vector<Node>& nodes, const Bytes& tail, Bytes& out);

void Write(const Node& n, Bytes& out) {
  out.insert(out.end(), n.tag.begin(), n.tag.end());
  if (n.group) {
    Write(n.children, n.tail, out);
    out.insert(out.end(), n.end_tag.begin(), n.end_tag.end());
    return;
  }
  if (n.wire_type == 2 && n.length.empty()) {  // recomputed: write it first
    Bytes content;
    if (n.message) {
      Write(n.children, n.tail, content);
    } else {
      content = n.body;
    }
    std::string varint;
    records::PutVarint(content.size(), varint);
    out.insert(out.end(), varint.begin(), varint.end());
    out.insert(out.end(), content.begin(), content.end());
    return;
  }
  // As written (an unchanged record): straight into `out`, no copy per level.
  out.insert(out.end(), n.length.begin(), n.length.end());
  if (n.message) {
    Write(n.children, n.tail, out);
  } else {
    out.insert(out.end(), n.body.begin(), n.body.end());
  }
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
    if (nodes[i].message || nodes[i].group) {
      Paths(nodes[i].children, at, out);
    }
    at.pop_back();
  }
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
    return MinimalDivergence{std::move(best_), std::move(comparison_), trials_,
                             candidates_};
  }

 private:
  bool Out() const { return trials_ >= max_trials_; }

  // True, with best_ updated, when `candidate` still diverges alike.
  bool Try(const Bytes& candidate) {
    ++candidates_;
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
  // Each candidate is written straight from the tree with the edit applied
  // on the way (no copy of the tree per candidate).
  bool TreePass() {
    Bytes tail;
    const std::vector<Node> tree = Parse(subject_.model, 0, best_, tail, 0);
    std::vector<Path> paths;
    Path at;
    Paths(tree, at, paths);
    // Bigger edits first: hoists and splices (a recursive chain loses a
    // level in one trial), removals, then the small ones.
    for (const Edit edit : {Edit::kHoist, Edit::kSplice, Edit::kRemove,
                            Edit::kEmpty, Edit::kShortest, Edit::kDropByte}) {
      for (const Path& p : paths) {
        const Node& n = At(tree, p);
        const int parent_type = p.size() == 1 ? 0 : At(tree, Parent(p)).type;
        const std::size_t bytes =
            edit == Edit::kDropByte && !n.message && n.wire_type == 2
                ? n.body.size()
                : 1;
        for (std::size_t i = bytes; i-- > 0;) {
          if (Out()) return false;
          // Writing a candidate takes time linear in the input, and most
          // edits do not apply to most records: those are not written.
          if (!Changes(n, parent_type, edit, i)) break;
          Bytes candidate;
          WriteWith(tree, tail, p, 0, edit, i, candidate);
          if (Try(candidate)) return true;
        }
      }
    }
    return false;
  }

  enum class Edit {
    kRemove,    // the record goes
    kHoist,     // its same-field child takes its place
    kSplice,    // a message of its parent's type: its records in its place
    kEmpty,     // no payload (a group: its end tag right after its start)
    kShortest,  // tag, length and varint value in their shortest forms
    kDropByte,  // one byte of a string or bytes value goes
  };

  static const Node& At(const std::vector<Node>& top, const Path& p) {
    const std::vector<Node>* level = &top;
    for (std::size_t k = 0; k + 1 < p.size(); ++k) {
      level = &(*level)[p[k]].children;
    }
    return (*level)[p.back()];
  }

  static void PutLength(std::size_t n, Bytes& out) {
    std::string varint;
    records::PutVarint(n, varint);
    out.insert(out.end(), varint.begin(), varint.end());
  }

  // The path of the record that holds the one at `p`.
  static Path Parent(Path p) {
    p.pop_back();
    return p;
  }

  // Whether `edit` applies to `n` (in a message of `parent_type`) and
  // changes its bytes (`byte`: which one, for kDropByte).
  static bool Changes(const Node& n, int parent_type, Edit edit,
                      std::size_t byte) {
    switch (edit) {
      case Edit::kRemove:
        return true;
      case Edit::kHoist:
        return std::any_of(
            n.children.begin(), n.children.end(), [&](const Node& c) {
              return c.number == n.number && c.wire_type == n.wire_type;
            });
      case Edit::kSplice:
        // A group is of no known type: its records may go to any parent.
        return ((n.message && n.type == parent_type) || n.group) &&
               n.tail.empty();
      case Edit::kEmpty:
        return n.message || n.group
                   ? !n.children.empty() || !n.tail.empty()
                   : (n.wire_type == 2 || n.wire_type == 3) && !n.body.empty();
      case Edit::kShortest:
        return Shortens(n);
      case Edit::kDropByte:
        return !n.message && n.wire_type == 2 && byte < n.body.size();
    }
    return false;
  }

  // Whether writing `n`'s tag, length and varint value in their shortest
  // forms (kShortest) changes them; true when unsure.
  static bool Shortens(const Node& n) {
    std::string shortest;
    if (!n.loose) {  // a loose tag is kept as written
      records::PutTag(n.number, n.wire_type, shortest);
      if (!Same(shortest, n.tag)) return true;
    }
    if (n.group) {
      shortest.clear();
      records::PutTag(n.number, 4, shortest);
      return !Same(shortest, n.end_tag);
    }
    const Bytes* varint = n.wire_type == 2   ? &n.length
                          : n.wire_type == 0 ? &n.body
                                             : nullptr;
    if (varint == nullptr || varint->empty()) return false;
    std::size_t pos = 0;
    std::uint64_t value = 0;
    if (!records::ReadVarint(*varint, pos, value)) {
      return n.wire_type == 2;  // an unreadable varint value stays as it is
    }
    shortest.clear();
    records::PutVarint(value, shortest);
    return shortest.size() != pos;
  }

  static bool Same(const std::string& a, const Bytes& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(),
                      [](char x, std::uint8_t y) {
                        return static_cast<std::uint8_t>(x) == y;
                      });
  }

  // Writes `nodes` (a message, at depth k of `p`) and `tail`, with `edit`
  // applied to the record at `p` (`byte`: which one, for kDropByte) and
  // every length on the way recomputed. The edit applies there (Changes).
  static void WriteWith(const std::vector<Node>& nodes, const Bytes& tail,
                        const Path& p, std::size_t k, Edit edit,
                        std::size_t byte, Bytes& out) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const Node& n = nodes[i];
      if (i != p[k]) {
        Write(n, out);
        continue;
      }
      if (k + 1 < p.size()) {  // an ancestor: its content changes
        Bytes content;
        WriteWith(n.children, n.tail, p, k + 1, edit, byte, content);
        out.insert(out.end(), n.tag.begin(), n.tag.end());
        if (!n.group) PutLength(content.size(), out);
        out.insert(out.end(), content.begin(), content.end());
        if (n.group) out.insert(out.end(), n.end_tag.begin(), n.end_tag.end());
        continue;
      }
      Edited(n, edit, byte, out);
    }
    out.insert(out.end(), tail.begin(), tail.end());
  }

  // Writes `n` edited. The edit applies to it (Changes).
  static void Edited(const Node& n, Edit edit, std::size_t byte, Bytes& out) {
    switch (edit) {
      case Edit::kRemove:
        return;
      case Edit::kHoist:
        for (const Node& c : n.children) {
          if (c.number == n.number && c.wire_type == n.wire_type) {
            Write(c, out);
            break;
          }
        }
        return;
      case Edit::kSplice:
        for (const Node& c : n.children) Write(c, out);
        return;
      case Edit::kEmpty:
        out.insert(out.end(), n.tag.begin(), n.tag.end());
        if (n.wire_type == 2) {
          out.push_back(0);
        } else {
          std::string end;
          records::PutTag(n.number, 4, end);
          out.insert(out.end(), end.begin(), end.end());
        }
        return;
      case Edit::kShortest: {
        if (n.loose) {  // no shorter tag means the same
          out.insert(out.end(), n.tag.begin(), n.tag.end());
        } else {
          std::string tag;
          records::PutTag(n.number, n.wire_type, tag);
          out.insert(out.end(), tag.begin(), tag.end());
        }
        if (n.group) {  // the end tag in its shortest form too
          Write(n.children, n.tail, out);
          std::string end;
          records::PutTag(n.number, 4, end);
          out.insert(out.end(), end.begin(), end.end());
          return;
        }
        Bytes content;
        if (n.message) {
          Write(n.children, n.tail, content);
        } else {
          content = n.body;
        }
        std::size_t pos = 0;
        std::uint64_t value = 0;
        if (n.wire_type == 0 && records::ReadVarint(n.body, pos, value)) {
          std::string varint;
          records::PutVarint(value, varint);
          content.assign(varint.begin(), varint.end());
          content.insert(content.end(), n.body.begin() + static_cast<long>(pos),
                         n.body.end());
        }
        if (n.wire_type == 2) PutLength(content.size(), out);
        out.insert(out.end(), content.begin(), content.end());
        return;
      }
      case Edit::kDropByte: {
        out.insert(out.end(), n.tag.begin(), n.tag.end());
        PutLength(n.body.size() - 1, out);
        out.insert(out.end(), n.body.begin(),
                   n.body.begin() + static_cast<long>(byte));
        out.insert(out.end(), n.body.begin() + static_cast<long>(byte) + 1,
                   n.body.end());
        return;
      }
    }
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
  std::size_t candidates_ = 0;
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
