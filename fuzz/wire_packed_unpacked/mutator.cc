// LLVMFuzzerCustomMutator for wire_packed_unpacked: mutations on records
// rather than bytes. Each call picks one: split a packed record in two, join
// two packed records of one field, switch a record between packed and
// unpacked, pad a varint or a length, insert an unknown field, insert a known
// field with a random value, or remove a record; otherwise (and when the
// chosen one does not apply) libFuzzer's own byte-level LLVMFuzzerMutate.
// With FAIRWIRE_NO_CUSTOM_MUTATOR set, only LLVMFuzzerMutate.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fairwire/checks/wire_checks.h"
#include "fairwire/scenarios/wire_records.h"

extern "C" __attribute__((weak)) std::size_t LLVMFuzzerMutate(
    std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace fairwire::fuzz {
namespace {

namespace model = wire::model;
namespace records = wire::records;
using Rng = std::minstd_rand;

struct Rec {
  std::string bytes;
  std::uint32_t number = 0;
  int wire_type = 0;
  std::string payload;  // after tag (and length, for len)
};

const model::Field* FieldOf(const model::Schema& s, std::uint32_t number) {
  for (const model::Field& f : s.messages[0].fields) {
    if (f.number == number) return &f;
  }
  return nullptr;
}

std::size_t Pick(Rng& rng, std::size_t n) { return rng() % n; }

std::string Tag(std::uint32_t number, int wt) {
  std::string s;
  records::PutTag(number, wt, s);
  return s;
}

std::string Len(std::size_t n) {
  std::string s;
  records::PutVarint(n, s);
  return s;
}

// The elements of a packed payload, as byte strings (nullopt-like: empty
// vector with ok=false when malformed).
bool Elements(const model::Field& f, const std::string& payload,
              std::vector<std::string>& out) {
  const int wt = model::KindWireType(f.kind);
  const auto* data = reinterpret_cast<const std::uint8_t*>(payload.data());
  const std::span<const std::uint8_t> span(data, payload.size());
  std::size_t pos = 0;
  while (pos < payload.size()) {
    const std::size_t start = pos;
    if (wt == 0) {
      std::uint64_t v = 0;
      if (!records::ReadVarint(span, pos, v)) return false;
    } else {
      const std::size_t w = wt == 1 ? 8 : 4;
      if (payload.size() - pos < w) return false;
      pos += w;
    }
    out.push_back(payload.substr(start, pos - start));
  }
  return true;
}

bool IsPackedRecord(const model::Field* f, const Rec& r) {
  return f != nullptr && f->repeated && model::KindPackable(f->kind) &&
         r.wire_type == 2;
}

bool Mutate(const model::Schema& s, std::vector<Rec>& recs, Rng& rng) {
  const std::size_t op = Pick(rng, 7);
  const std::size_t n = recs.size();
  const std::size_t start = n == 0 ? 0 : Pick(rng, n);
  switch (op) {
    case 0:    // split a packed record
    case 2: {  // packed to unpacked
      for (std::size_t k = 0; k < n; ++k) {
        Rec& r = recs[(start + k) % n];
        const model::Field* f = FieldOf(s, r.number);
        std::vector<std::string> el;
        if (!IsPackedRecord(f, r) || !Elements(*f, r.payload, el) ||
            el.empty()) {
          continue;
        }
        std::vector<Rec> repl;
        if (op == 0) {
          const std::size_t cut = Pick(rng, el.size() + 1);
          std::string a, b;
          for (std::size_t i = 0; i < el.size(); ++i)
            (i < cut ? a : b) += el[i];
          repl.push_back(
              {Tag(r.number, 2) + Len(a.size()) + a, r.number, 2, a});
          repl.push_back(
              {Tag(r.number, 2) + Len(b.size()) + b, r.number, 2, b});
        } else {
          const int wt = model::KindWireType(f->kind);
          for (const std::string& e : el) {
            repl.push_back({Tag(r.number, wt) + e, r.number, wt, e});
          }
        }
        const auto at = recs.begin() + static_cast<long>((start + k) % n);
        const auto pos = recs.erase(at);
        recs.insert(pos, repl.begin(), repl.end());
        return true;
      }
      return false;
    }
    case 1: {  // join two packed records of one field
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = (start + k) % n;
        const model::Field* f = FieldOf(s, recs[i].number);
        if (!IsPackedRecord(f, recs[i])) continue;
        for (std::size_t j = i + 1; j < n; ++j) {
          if (recs[j].number != recs[i].number || recs[j].wire_type != 2)
            continue;
          const std::string joined = recs[i].payload + recs[j].payload;
          recs[i] = {Tag(recs[i].number, 2) + Len(joined.size()) + joined,
                     recs[i].number, 2, joined};
          recs.erase(recs.begin() + static_cast<long>(j));
          return true;
        }
      }
      return false;
    }
    case 3: {  // a run of unpacked records to one packed record
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = (start + k) % n;
        const model::Field* f = FieldOf(s, recs[i].number);
        if (f == nullptr || !f->repeated || !model::KindPackable(f->kind) ||
            recs[i].wire_type != model::KindWireType(f->kind)) {
          continue;
        }
        std::size_t j = i;
        std::string joined;
        while (j < n && recs[j].number == recs[i].number &&
               recs[j].wire_type == recs[i].wire_type) {
          joined += recs[j].payload;
          ++j;
        }
        const std::uint32_t number = recs[i].number;
        recs.erase(recs.begin() + static_cast<long>(i),
                   recs.begin() + static_cast<long>(j));
        recs.insert(
            recs.begin() + static_cast<long>(i),
            {Tag(number, 2) + Len(joined.size()) + joined, number, 2, joined});
        return true;
      }
      return false;
    }
    case 4: {  // pad a varint value or a length
      for (std::size_t k = 0; k < n; ++k) {
        Rec& r = recs[(start + k) % n];
        if (r.wire_type != 0 && r.wire_type != 2) continue;
        const auto* d = reinterpret_cast<const std::uint8_t*>(r.payload.data());
        std::uint64_t v = r.payload.size();
        std::size_t used = 0;
        if (r.wire_type == 0) {
          records::ReadVarint(
              std::span<const std::uint8_t>(d, r.payload.size()), used, v);
        }
        std::string padded;
        const int max = r.wire_type == 0 ? 10 : 5;
        records::PutVarint(v, padded, 1 + static_cast<int>(Pick(rng, max)));
        if (r.wire_type == 0) {
          r.payload = padded;
          r.bytes = Tag(r.number, 0) + padded;
        } else {
          r.bytes = Tag(r.number, 2) + padded + r.payload;
        }
        return true;
      }
      return false;
    }
    case 5:
    case 6: {  // insert an unknown field, or a known field's record
      Rec r;
      const auto& fields = s.messages[0].fields;
      int wt = static_cast<int>(Pick(rng, 4));
      wt = wt == 3 ? 5 : wt;
      if (op == 5) {
        static const std::uint32_t kUnknown[] = {19,   20,   40,     99,
                                                 1000, 4095, 100000, 536870910};
        r.number = kUnknown[Pick(rng, std::size(kUnknown))];
      } else {
        const model::Field& f = fields[Pick(rng, fields.size())];
        r.number = f.number;
        wt = model::KindWireType(f.kind);
        if (f.repeated && model::KindPackable(f.kind) && rng() % 2 == 0) wt = 2;
      }
      r.wire_type = wt;
      const std::uint64_t value = (std::uint64_t{rng()} << 32) ^ rng();
      const std::uint64_t small = value % 300;
      switch (wt) {
        case 0:
          records::PutVarint(rng() % 2 ? small : value, r.payload);
          break;
        case 1:
        case 5:
          for (int i = 0; i < (wt == 1 ? 8 : 4); ++i) {
            r.payload.push_back(static_cast<char>(value >> (8 * i)));
          }
          break;
        default: {
          std::string body;
          records::PutVarint(small, body);
          records::PutVarint(value, body);
          r.payload = body.substr(0, Pick(rng, body.size() + 1));
        }
      }
      r.bytes = Tag(r.number, wt) + (wt == 2 ? Len(r.payload.size()) : "") +
                r.payload;
      recs.insert(
          recs.begin() + static_cast<long>(n == 0 ? 0 : Pick(rng, n + 1)), r);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace
}  // namespace fairwire::fuzz

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data,
                                               std::size_t size,
                                               std::size_t max_size,
                                               unsigned int seed) {
  using namespace fairwire::fuzz;  // NOLINT: one entry point
  Rng rng(seed);
  // FAIRWIRE_NO_CUSTOM_MUTATOR=1: byte-level mutations only (to measure what
  // the record-level ones add).
  static const bool disabled =
      std::getenv("FAIRWIRE_NO_CUSTOM_MUTATOR") != nullptr;
  if (disabled || size == 0 || rng() % 3 == 0) {
    return LLVMFuzzerMutate != nullptr ? LLVMFuzzerMutate(data, size, max_size)
                                       : size;
  }
  const model::Schema& schema =
      *fairwire::wire::oracle::CaseSchemas()[data[0] & 1];
  const std::span<const std::uint8_t> payload(data + 1, size - 1);
  std::size_t consumed = 0;
  const auto raw = records::Split(payload, &consumed);
  std::vector<Rec> recs;
  for (const records::RawRecord& r : raw) {
    Rec rec;
    rec.bytes.assign(reinterpret_cast<const char*>(payload.data() + r.begin),
                     r.end - r.begin);
    rec.number = r.number;
    rec.wire_type = r.wire_type;
    rec.payload.assign(
        reinterpret_cast<const char*>(payload.data() + r.payload_begin),
        r.payload_end - r.payload_begin);
    recs.push_back(std::move(rec));
  }
  if (!Mutate(schema, recs, rng)) {
    return LLVMFuzzerMutate != nullptr ? LLVMFuzzerMutate(data, size, max_size)
                                       : size;
  }
  std::string out(1, static_cast<char>(data[0]));
  for (const Rec& r : recs) out += r.bytes;
  out.append(reinterpret_cast<const char*>(payload.data() + consumed),
             payload.size() - consumed);
  if (out.size() > max_size) return size;
  std::memcpy(data, out.data(), out.size());
  return out.size();
}
