#include "fairwire/scenarios/wire_case.h"

#include <algorithm>

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::scenario {
namespace {

int VarintLength(std::uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

void PutPadded(std::uint64_t v, int pad, int max_bytes, std::string& out) {
  const int n = std::min(VarintLength(v) + pad, max_bytes);
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

WireCase DecodeCase(const model::Schema* const schemas[2], ByteSpan input) {
  WireCase c;
  DecodeCase(schemas, input, c);
  return c;
}

void DecodeCase(const model::Schema* const schemas[2], ByteSpan input,
                WireCase& c) {
  c.root = input.empty() ? 0 : (input[0] & 1);
  c.variant =
      input.empty() ? 0 : ((input[0] >> 1) & 0x1Fu) % AllVariants().size();
  const model::Schema& schema = *schemas[c.root];
  ByteSpan payload = input.empty() ? input : input.subspan(1);
  if (payload.size() > kMaxCasePayload) {
    payload = payload.first(kMaxCasePayload);
  }
  std::size_t consumed = 0;
  const std::vector<records::RawRecord> recs =
      records::Split(payload, &consumed);
  // The model's verdict on a top-level record depends on that record's bytes
  // alone, so when the records cover the payload and it decodes whole, every
  // record would be kept: one decode, not one per record and one more.
  if (consumed == payload.size() &&
      model::Decode(schema, 0, payload, c.message).ok) {
    c.payload.assign(payload.begin(), payload.end());
    return;
  }
  c.payload.clear();
  // One record's decode, its storage reused from record to record (and,
  // cleared at the end, from call to call: nothing it allocates outlives
  // the call, so libFuzzer sees no seeming leak).
  thread_local model::Message one;
  for (const records::RawRecord& r : recs) {
    const ByteSpan rec = payload.subspan(r.begin, r.end - r.begin);
    if (model::Decode(schema, 0, rec, one).ok) {
      c.payload.insert(c.payload.end(), rec.begin(), rec.end());
    }
  }
  model::Clear(schema, 0, one);
  if (!model::Decode(schema, 0, c.payload, c.message).ok) {
    c.payload.clear();
    model::Clear(schema, 0, c.message);
  }
}

Bytes EncodeCase(const model::Schema& schema, const WireCase& c) {
  Bytes out;
  out.push_back(static_cast<std::uint8_t>(c.root | (c.variant << 1)));
  const std::string body = model::Serialize(schema, c.message);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

std::string EncodeVariant(const model::Schema& schema,
                          const model::Message& message,
                          const Variant& variant) {
  return EncodeMessage(schema, message, variant);
}

std::string DescribeMessage(const model::Schema& schema,
                            const model::Message& message, int indent) {
  const std::string body = model::Serialize(schema, message);
  return records::Describe(
      &schema, message.type,
      ByteSpan(reinterpret_cast<const std::uint8_t*>(body.data()), body.size()),
      indent);
}

std::vector<model::Message> SimplerMessages(const model::Schema& schema,
                                            const model::Message& message) {
  constexpr std::size_t kLimit = 300;
  std::vector<model::Message> out;
  if (!message.unknown.empty()) {
    model::Message m = message;
    m.unknown.clear();
    out.push_back(std::move(m));
    for (std::size_t i = 0; i < message.unknown.size() && out.size() < kLimit;
         ++i) {
      model::Message one = message;
      one.unknown.erase(one.unknown.begin() + static_cast<long>(i));
      out.push_back(std::move(one));
    }
  }
  for (std::size_t i = 0; i < message.fields.size(); ++i) {
    const model::FieldValues& fv = message.fields[i];
    if (fv.scalars.empty() && fv.strings.empty() && fv.messages.empty())
      continue;
    model::Message m = message;
    m.fields[i] = {};
    out.push_back(std::move(m));
  }
  for (std::size_t i = 0; i < message.fields.size() && out.size() < kLimit;
       ++i) {
    const model::FieldValues& fv = message.fields[i];
    if (fv.scalars.size() > 1) {
      model::Message m = message;
      m.fields[i].scalars.pop_back();
      out.push_back(m);
      m = message;
      m.fields[i].scalars.erase(m.fields[i].scalars.begin());
      out.push_back(std::move(m));
    }
    if (fv.strings.size() > 1) {
      model::Message m = message;
      m.fields[i].strings.pop_back();
      out.push_back(std::move(m));
    }
    if (fv.messages.size() > 1) {
      model::Message m = message;
      m.fields[i].messages.pop_back();
      out.push_back(std::move(m));
    }
    for (std::size_t k = 0; k < fv.scalars.size(); ++k) {
      if (fv.scalars[k] != 0) {
        model::Message m = message;
        m.fields[i].scalars[k] = 0;
        out.push_back(std::move(m));
        break;
      }
    }
    for (std::size_t k = 0; k < fv.strings.size(); ++k) {
      if (!fv.strings[k].empty()) {
        model::Message m = message;
        m.fields[i].strings[k].clear();
        out.push_back(std::move(m));
        break;
      }
    }
    for (std::size_t k = 0; k < fv.messages.size() && out.size() < kLimit;
         ++k) {
      for (model::Message& inner : SimplerMessages(schema, fv.messages[k])) {
        model::Message m = message;
        m.fields[i].messages[k] = std::move(inner);
        out.push_back(std::move(m));
        if (out.size() >= kLimit) break;
      }
    }
  }
  return out;
}

std::vector<Bytes> SimplerCaseInputs(const model::Schema* const schemas[2],
                                     ByteSpan input) {
  const WireCase c = DecodeCase(schemas, input);
  const model::Schema& schema = *schemas[c.root];
  std::vector<Bytes> out;
  const Bytes canonical = EncodeCase(schema, c);
  if (canonical.size() < input.size()) out.push_back(canonical);
  for (model::Message& m : SimplerMessages(schema, c.message)) {
    WireCase simpler = c;
    simpler.message = std::move(m);
    out.push_back(EncodeCase(schema, simpler));
  }
  return out;
}

}  // namespace fairwire::wire::scenario
