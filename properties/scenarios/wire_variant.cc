// The encoding variants and the writer of a message in each
// (fairwire/scenarios/wire_variant.h). Under fuzzing this source runs
// without the sanitizers, as the model does (CMakeLists.txt).
#include "fairwire/scenarios/wire_variant.h"

#include <algorithm>

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::scenario {
namespace {

void PutPadded(std::uint64_t v, int pad, int max_bytes, std::string& out) {
  const int n = std::min(records::MinimalVarintLength(v) + pad, max_bytes);
  records::PutVarint(v, out, n);
}

void PutTag(std::uint32_t number, int wire_type, const Variant& v,
            std::string& out) {
  records::PutTag(number, wire_type, out, v.pad_tags ? 5 : 1);
}

void PutLen(std::size_t length, const Variant& v, std::string& out) {
  PutPadded(length, v.pad, 5, out);
}

void PutElement(model::Kind kind, std::uint64_t value, const Variant& v,
                std::string& out) {
  const int wt = model::KindWireType(kind);
  if (wt == 0) {
    PutPadded(value, v.pad, 10, out);
    return;
  }
  const int bytes = wt == 1 ? 8 : 4;
  for (int i = 0; i < bytes; ++i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

void PutUnknown(const model::UnknownRecord& u, const Variant& v,
                std::string& out) {
  PutTag(u.number, u.wire_type, v, out);
  switch (u.wire_type) {
    case 0:
      PutPadded(u.value, v.pad, 10, out);
      break;
    case 1:
    case 5:
      for (int i = 0; i < (u.wire_type == 1 ? 8 : 4); ++i) {
        out.push_back(static_cast<char>((u.value >> (8 * i)) & 0xff));
      }
      break;
    case 2:
      PutLen(u.bytes.size(), v, out);
      out += u.bytes;
      break;
    case 3:
      for (const model::UnknownRecord& g : u.group) PutUnknown(g, v, out);
      PutTag(u.number, 4, v, out);
      break;
    default:
      break;
  }
}

std::string EncodeMessage(const model::Schema& schema,
                          const model::Message& msg, const Variant& v);

// A message's records, appended to one string in the order they are made:
// list by list (the unknown fields, then each field in turn, or unknown
// fields last). An interleaving variant takes the lists round-robin, one
// record of each per round, so it also keeps where each record is. (A
// string per record and a vector of them per field, each through ASan's
// allocator, made wire_packed_unpacked's check 17% slower; issue 12.)
class Records {
 public:
  explicit Records(bool interleave) : interleave_(interleave) {}

  std::string& bytes() { return bytes_; }

  void StartList() { round_ = 0; }
  void StartRecord() { begin_ = bytes_.size(); }
  void EndRecord() {
    if (interleave_) extents_.push_back({round_++, begin_, bytes_.size()});
  }

  // The records, round-robin over the lists when interleaving.
  std::string Take() {
    if (!interleave_) return std::move(bytes_);
    // Made list by list, so a stable sort by round keeps each round's
    // records in list order.
    std::stable_sort(
        extents_.begin(), extents_.end(),
        [](const Extent& a, const Extent& b) { return a.round < b.round; });
    std::string out;
    out.reserve(bytes_.size());
    for (const Extent& e : extents_) {
      out.append(bytes_, e.begin, e.end - e.begin);
    }
    return out;
  }

 private:
  struct Extent {
    std::size_t round, begin, end;
  };
  bool interleave_;
  std::string bytes_;
  std::vector<Extent> extents_;
  std::size_t round_ = 0, begin_ = 0;
};

// The bytes PutElement writes for `value`.
std::size_t ElementSize(model::Kind kind, std::uint64_t value,
                        const Variant& v) {
  const int wt = model::KindWireType(kind);
  if (wt == 0) {
    return static_cast<std::size_t>(
        std::min(records::MinimalVarintLength(value) + v.pad, 10));
  }
  return wt == 1 ? 8 : 4;
}

// A packed record of values[begin, end).
void PackedRecord(const model::Field& f,
                  const std::vector<std::uint64_t>& values, std::size_t begin,
                  std::size_t end, const Variant& v, Records& out) {
  std::size_t length = 0;
  for (std::size_t i = begin; i < end; ++i) {
    length += ElementSize(f.kind, values[i], v);
  }
  out.StartRecord();
  PutTag(f.number, 2, v, out.bytes());
  PutLen(length, v, out.bytes());
  for (std::size_t i = begin; i < end; ++i) {
    PutElement(f.kind, values[i], v, out.bytes());
  }
  out.EndRecord();
}

void UnpackedRecord(const model::Field& f, std::uint64_t value,
                    const Variant& v, Records& out) {
  out.StartRecord();
  PutTag(f.number, model::KindWireType(f.kind), v, out.bytes());
  PutElement(f.kind, value, v, out.bytes());
  out.EndRecord();
}

void LengthDelimitedRecord(std::uint32_t number, const std::string& payload,
                           const Variant& v, Records& out) {
  out.StartRecord();
  PutTag(number, 2, v, out.bytes());
  PutLen(payload.size(), v, out.bytes());
  out.bytes() += payload;
  out.EndRecord();
}

void FieldRecords(const model::Schema& schema, const model::Field& f,
                  const model::FieldValues& fv, const Variant& v,
                  Records& out) {
  for (const model::Message& m : fv.messages) {
    LengthDelimitedRecord(f.number, EncodeMessage(schema, m, v), v, out);
  }
  for (const std::string& s : fv.strings) {
    LengthDelimitedRecord(f.number, s, v, out);
  }
  const std::vector<std::uint64_t>& xs = fv.scalars;
  if (xs.empty()) return;
  if (!f.repeated || !model::KindPackable(f.kind)) {
    for (std::uint64_t x : xs) UnpackedRecord(f, x, v, out);
    return;
  }
  bool packed = f.packed;
  if (v.packing == Variant::Packing::kPacked) packed = true;
  if (v.packing == Variant::Packing::kUnpacked) packed = false;
  const std::size_t chunk =
      v.chunk > 0 ? static_cast<std::size_t>(v.chunk)
                  : (v.packing == Variant::Packing::kMixed ? 2 : xs.size());
  if (v.packing == Variant::Packing::kMixed) {
    for (std::size_t b = 0, run = 0; b < xs.size(); b += chunk, ++run) {
      const std::size_t e = std::min(xs.size(), b + chunk);
      if (run % 2 == 0) {
        PackedRecord(f, xs, b, e, v, out);
      } else {
        for (std::size_t i = b; i < e; ++i) UnpackedRecord(f, xs[i], v, out);
      }
    }
    return;
  }
  if (!packed) {
    for (std::uint64_t x : xs) UnpackedRecord(f, x, v, out);
    return;
  }
  if (v.empty_packed) PackedRecord(f, xs, 0, 0, v, out);
  for (std::size_t b = 0; b < xs.size(); b += chunk) {
    PackedRecord(f, xs, b, std::min(xs.size(), b + chunk), v, out);
  }
}

void UnknownRecords(const model::Message& msg, const Variant& v, Records& out) {
  out.StartList();
  for (const model::UnknownRecord& u : msg.unknown) {
    out.StartRecord();
    PutUnknown(u, v, out.bytes());
    out.EndRecord();
  }
}

std::string EncodeMessage(const model::Schema& schema,
                          const model::Message& msg, const Variant& v) {
  const model::MessageType& type = schema.messages[msg.type];
  Records out(v.interleave);
  if (v.unknown_first) UnknownRecords(msg, v, out);
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    out.StartList();
    FieldRecords(schema, type.fields[i], msg.fields[i], v, out);
  }
  if (!v.unknown_first) UnknownRecords(msg, v, out);
  return out.Take();
}

}  // namespace

const std::vector<Variant>& AllVariants() {
  using P = Variant::Packing;
  static const std::vector<Variant> kVariants = {
      {"declared", P::kDeclared, 0, false, false, 0, false, false},
      {"packed", P::kPacked, 0, false, false, 0, false, false},
      {"unpacked", P::kUnpacked, 0, false, false, 0, false, false},
      {"mixed", P::kMixed, 0, false, false, 0, false, false},
      {"mixed-runs-of-3", P::kMixed, 3, false, false, 0, false, false},
      {"packed-chunks-of-1", P::kPacked, 1, false, false, 0, false, false},
      {"packed-chunks-of-2-with-empty", P::kPacked, 2, true, false, 0, false,
       false},
      {"interleaved", P::kDeclared, 0, false, true, 0, false, false},
      {"interleaved-unpacked", P::kUnpacked, 0, false, true, 0, false, false},
      {"padded-varints-1", P::kDeclared, 0, false, false, 1, false, false},
      {"padded-varints-max", P::kPacked, 0, false, false, 9, false, false},
      {"padded-tags", P::kDeclared, 0, false, false, 0, true, false},
      {"unknown-first", P::kDeclared, 0, false, false, 0, false, true},
      {"everything", P::kMixed, 2, true, true, 3, true, true},
  };
  return kVariants;
}

std::string EncodeVariant(const model::Schema& schema,
                          const model::Message& message,
                          const Variant& variant) {
  return EncodeMessage(schema, message, variant);
}

}  // namespace fairwire::wire::scenario
