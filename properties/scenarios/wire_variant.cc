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

// A packed record of values[begin, end).
std::string PackedRecord(const model::Field& f,
                         const std::vector<std::uint64_t>& values,
                         std::size_t begin, std::size_t end, const Variant& v) {
  std::string payload;
  for (std::size_t i = begin; i < end; ++i) {
    PutElement(f.kind, values[i], v, payload);
  }
  std::string rec;
  PutTag(f.number, 2, v, rec);
  PutLen(payload.size(), v, rec);
  return rec + payload;
}

std::string UnpackedRecord(const model::Field& f, std::uint64_t value,
                           const Variant& v) {
  std::string rec;
  PutTag(f.number, model::KindWireType(f.kind), v, rec);
  PutElement(f.kind, value, v, rec);
  return rec;
}

std::vector<std::string> FieldRecords(const model::Schema& schema,
                                      const model::Field& f,
                                      const model::FieldValues& fv,
                                      const Variant& v) {
  std::vector<std::string> recs;
  for (const model::Message& m : fv.messages) {
    const std::string inner = EncodeMessage(schema, m, v);
    std::string rec;
    PutTag(f.number, 2, v, rec);
    PutLen(inner.size(), v, rec);
    recs.push_back(rec + inner);
  }
  for (const std::string& s : fv.strings) {
    std::string rec;
    PutTag(f.number, 2, v, rec);
    PutLen(s.size(), v, rec);
    recs.push_back(rec + s);
  }
  const std::vector<std::uint64_t>& xs = fv.scalars;
  if (xs.empty()) return recs;
  if (!f.repeated || !model::KindPackable(f.kind)) {
    for (std::uint64_t x : xs) recs.push_back(UnpackedRecord(f, x, v));
    return recs;
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
        recs.push_back(PackedRecord(f, xs, b, e, v));
      } else {
        for (std::size_t i = b; i < e; ++i) {
          recs.push_back(UnpackedRecord(f, xs[i], v));
        }
      }
    }
    return recs;
  }
  if (!packed) {
    for (std::uint64_t x : xs) recs.push_back(UnpackedRecord(f, x, v));
    return recs;
  }
  if (v.empty_packed) recs.push_back(PackedRecord(f, xs, 0, 0, v));
  for (std::size_t b = 0; b < xs.size(); b += chunk) {
    recs.push_back(PackedRecord(f, xs, b, std::min(xs.size(), b + chunk), v));
  }
  return recs;
}

std::string EncodeMessage(const model::Schema& schema,
                          const model::Message& msg, const Variant& v) {
  const model::MessageType& type = schema.messages[msg.type];
  std::vector<std::vector<std::string>> lists;
  std::vector<std::string> unknown;
  for (const model::UnknownRecord& u : msg.unknown) {
    std::string rec;
    PutUnknown(u, v, rec);
    unknown.push_back(std::move(rec));
  }
  if (v.unknown_first) lists.push_back(unknown);
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    lists.push_back(FieldRecords(schema, type.fields[i], msg.fields[i], v));
  }
  if (!v.unknown_first) lists.push_back(unknown);
  std::string out;
  if (!v.interleave) {
    for (const auto& list : lists) {
      for (const std::string& rec : list) out += rec;
    }
    return out;
  }
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    for (const auto& list : lists) {
      if (round < list.size()) {
        out += list[round];
        any = true;
      }
    }
    if (!any) break;
  }
  return out;
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
