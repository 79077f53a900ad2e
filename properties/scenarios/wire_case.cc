#include "fairwire/scenarios/wire_case.h"

#include <algorithm>

#include "fairwire/models/wire_kept_messages.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::scenario {

WireCase DecodeCase(const model::Schema* const schemas[2], ByteSpan input) {
  WireCase c;
  DecodeCase(schemas, input, c);
  return c;
}

void DecodeCase(const model::Schema* const schemas[2], ByteSpan input,
                WireCase& c) {
  const std::size_t count = AllVariants().size();
  const std::size_t encoding = input.empty() ? 0 : (input[0] >> 1) & 0x1Fu;
  c.root = RootOf(input);
  c.variant = encoding % count;
  c.as_given = encoding >= 2 * count;
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
  // cleared at the end, from call to call and kept per root: nothing it
  // allocates outlives the call, so libFuzzer sees no seeming leak).
  thread_local model::KeptMessages kept;
  model::Message& one = kept.Cleared(schema, 0);
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

int RootOf(ByteSpan input) { return input.empty() ? 0 : (input[0] & 1); }

std::uint8_t ByteZeroOf(const WireCase& c) {
  const std::size_t count = AllVariants().size();
  const std::size_t encoding =
      c.as_given ? 2 * count + c.variant % (32 - 2 * count) : c.variant % count;
  return static_cast<std::uint8_t>((c.root & 1) | (encoding << 1));
}

Bytes EncodeCase(const model::Schema& schema, const WireCase& c) {
  Bytes out;
  out.push_back(ByteZeroOf(c));
  const std::string body = model::Serialize(schema, c.message);
  out.insert(out.end(), body.begin(), body.end());
  return out;
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
