#include "fairwire/scenarios/wire_records.h"

#include <cstdio>
#include <cstring>

namespace fairwire::wire::records {
namespace {

// Skips one record's payload after its tag; groups recurse to their end tag.
bool SkipPayload(std::span<const std::uint8_t> bytes, std::size_t& pos,
                 std::uint32_t number, int wire_type, int depth,
                 std::size_t& payload_begin, std::size_t& payload_end) {
  std::uint64_t v = 0;
  payload_begin = pos;
  switch (wire_type) {
    case 0:
      return ReadVarint(bytes, pos, v);
    case 1:
      if (bytes.size() - pos < 8) return false;
      pos += 8;
      return true;
    case 5:
      if (bytes.size() - pos < 4) return false;
      pos += 4;
      return true;
    case 2:
      if (!ReadVarint(bytes, pos, v) || v > bytes.size() - pos) return false;
      payload_begin = pos;
      pos += static_cast<std::size_t>(v);
      return true;
    case 3:
      if (depth > 100) return false;
      while (pos < bytes.size()) {
        payload_end = pos;
        std::uint64_t tag = 0;
        if (!ReadVarint(bytes, pos, tag)) return false;
        const auto n = static_cast<std::uint32_t>(tag >> 3);
        const int wt = static_cast<int>(tag & 7);
        if (wt == 4) return n == number;
        std::size_t ignored = 0;
        std::size_t ignored_end = 0;
        if (n == 0 || wt > 5 ||
            !SkipPayload(bytes, pos, n, wt, depth + 1, ignored, ignored_end)) {
          return false;
        }
      }
      return false;
    default:
      return false;
  }
}

void Append(std::string& out, const char* format, std::uint64_t a,
            std::uint64_t b = 0) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  out += buf;
}

const model::Field* FindField(const model::Schema* schema, int type,
                              std::uint32_t number) {
  if (schema == nullptr || type < 0) return nullptr;
  for (const model::Field& f : schema->messages[type].fields) {
    if (f.number == number) return &f;
  }
  return nullptr;
}

// A scalar element, interpreted for its kind when known.
std::string ScalarText(const model::Field* f, std::uint64_t v, int wire_type) {
  std::string s;
  Append(s, "%llu", v);
  if (f == nullptr) return s;
  char buf[64];
  switch (f->kind) {
    case model::Kind::kSint32:
    case model::Kind::kSint64: {
      const std::uint64_t u =
          f->kind == model::Kind::kSint32 ? (v & 0xffffffffu) : v;
      const auto z = static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
      std::snprintf(buf, sizeof buf, " (zigzag %lld)",
                    static_cast<long long>(z));
      s += buf;
      break;
    }
    case model::Kind::kInt32:
    case model::Kind::kEnum:
    case model::Kind::kInt64:
    case model::Kind::kSfixed64:
      std::snprintf(buf, sizeof buf, " (%lld)",
                    static_cast<long long>(static_cast<std::int64_t>(v)));
      s += buf;
      break;
    case model::Kind::kSfixed32:
      std::snprintf(buf, sizeof buf, " (%d)",
                    static_cast<int>(static_cast<std::int32_t>(
                        static_cast<std::uint32_t>(v))));
      s += buf;
      break;
    case model::Kind::kFloat:
      if (wire_type == 5) {
        float x = 0;
        const auto bits = static_cast<std::uint32_t>(v);
        std::memcpy(&x, &bits, sizeof x);
        std::snprintf(buf, sizeof buf, " (%g)", static_cast<double>(x));
        s += buf;
      }
      break;
    case model::Kind::kDouble:
      if (wire_type == 1) {
        double x = 0;
        std::memcpy(&x, &v, sizeof x);
        std::snprintf(buf, sizeof buf, " (%g)", x);
        s += buf;
      }
      break;
    default:
      break;
  }
  return s;
}

}  // namespace

bool ReadLooseRecord(std::span<const std::uint8_t> bytes, std::size_t begin,
                     RawRecord& record) {
  std::size_t pos = begin;
  std::uint64_t tag = 0;
  if (!ReadVarint(bytes, pos, tag)) return false;
  record.begin = begin;
  record.number = static_cast<std::uint32_t>(tag >> 3);
  record.wire_type = static_cast<int>(tag & 7);
  if (record.wire_type == 3 || record.wire_type == 4 || record.wire_type > 5) {
    return false;
  }
  if (!SkipPayload(bytes, pos, record.number, record.wire_type, 0,
                   record.payload_begin, record.payload_end)) {
    return false;
  }
  record.payload_end = pos;
  record.end = pos;
  return true;
}

bool ReadVarint(std::span<const std::uint8_t> bytes, std::size_t& pos,
                std::uint64_t& value) {
  value = 0;
  std::size_t p = pos;
  for (int i = 0; i < 10; ++i) {
    if (p >= bytes.size()) return false;
    const std::uint8_t b = bytes[p++];
    value |= static_cast<std::uint64_t>(b & 0x7f) << (7 * i);
    if (b < 0x80) {
      pos = p;
      return true;
    }
  }
  return false;
}

int MinimalVarintLength(std::uint64_t value) {
  int n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

void PutVarint(std::uint64_t value, std::string& out, int min_bytes) {
  int written = 0;
  while (value >= 0x80 || written + 1 < min_bytes) {
    if (written == 9) break;
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
    ++written;
  }
  out.push_back(static_cast<char>(value));
}

void PutTag(std::uint32_t number, int wire_type, std::string& out,
            int min_bytes) {
  PutVarint((static_cast<std::uint64_t>(number) << 3) |
                static_cast<std::uint64_t>(wire_type),
            out, min_bytes > 5 ? 5 : min_bytes);
}

std::vector<RawRecord> Split(std::span<const std::uint8_t> bytes,
                             std::size_t* consumed) {
  std::vector<RawRecord> out;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    RawRecord r;
    r.begin = pos;
    std::uint64_t tag = 0;
    if (!ReadVarint(bytes, pos, tag) || tag > 0xffffffffu) break;
    r.number = static_cast<std::uint32_t>(tag >> 3);
    r.wire_type = static_cast<int>(tag & 7);
    if (r.number == 0 || r.wire_type == 4 || r.wire_type > 5) break;
    r.payload_end = 0;
    if (!SkipPayload(bytes, pos, r.number, r.wire_type, 0, r.payload_begin,
                     r.payload_end)) {
      break;
    }
    if (r.wire_type != 3) r.payload_end = pos;
    r.end = pos;
    out.push_back(r);
  }
  if (consumed != nullptr) *consumed = out.empty() ? 0 : out.back().end;
  return out;
}

std::vector<std::vector<std::uint8_t>> ShrinkPayload(
    std::span<const std::uint8_t> payload) {
  using Bytes = std::vector<std::uint8_t>;
  std::vector<Bytes> out;
  if (payload.empty()) return out;
  out.emplace_back();
  std::size_t consumed = 0;
  const auto recs = Split(payload, &consumed);
  if (consumed < payload.size() && consumed > 0) {
    out.emplace_back(payload.begin(),
                     payload.begin() + static_cast<long>(consumed));
  }
  for (const RawRecord& r : recs) {
    Bytes b(payload.begin(), payload.end());
    b.erase(b.begin() + static_cast<long>(r.begin),
            b.begin() + static_cast<long>(r.end));
    out.push_back(std::move(b));
  }
  const std::size_t half = payload.size() / 2;
  out.emplace_back(payload.begin(), payload.begin() + static_cast<long>(half));
  out.emplace_back(payload.begin() + static_cast<long>(half), payload.end());
  for (std::size_t i = 0; i < payload.size() && i < 256; ++i) {
    Bytes b(payload.begin(), payload.end());
    b.erase(b.begin() + static_cast<long>(i));
    out.push_back(std::move(b));
  }
  return out;
}

std::string Hex(std::span<const std::uint8_t> bytes, std::size_t limit) {
  std::string s;
  for (std::size_t i = 0; i < bytes.size() && i < limit; ++i) {
    if (i != 0) s += ' ';
    Append(s, "%02llx", bytes[i]);
  }
  if (bytes.size() > limit) Append(s, " ... (%llu bytes)", bytes.size());
  return s;
}

std::string Describe(const model::Schema* schema, int type,
                     std::span<const std::uint8_t> bytes, int indent) {
  std::string out;
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  std::size_t consumed = 0;
  const std::vector<RawRecord> recs = Split(bytes, &consumed);
  for (const RawRecord& r : recs) {
    const model::Field* f = FindField(schema, type, r.number);
    out += pad;
    Append(out, "@%llu #%llu ", r.begin, r.number);
    if (f != nullptr) {
      out += f->name + ":" + (f->repeated ? "repeated " : "") +
             model::KindName(f->kind) + (f->packed ? "[packed]" : "") + " ";
    }
    static const char* const kWt[] = {"varint", "i64",      "len",
                                      "group",  "endgroup", "i32"};
    out += kWt[r.wire_type];
    const auto payload =
        bytes.subspan(r.payload_begin, r.payload_end - r.payload_begin);
    std::uint64_t v = 0;
    std::size_t p = 0;
    switch (r.wire_type) {
      case 0:
        ReadVarint(payload, p, v);
        out += " = " + ScalarText(f, v, 0) + "\n";
        break;
      case 1:
      case 5:
        for (std::size_t i = 0; i < payload.size(); ++i) {
          v |= static_cast<std::uint64_t>(payload[i]) << (8 * i);
        }
        out += " = " + ScalarText(f, v, r.wire_type) + "\n";
        break;
      case 2:
        Append(out, " [%llu bytes]", payload.size());
        if (f != nullptr && f->kind == model::Kind::kMessage) {
          out += " {\n" +
                 Describe(schema, f->message_index, payload, indent + 1) + pad +
                 "}\n";
        } else if (f != nullptr && model::KindPackable(f->kind)) {
          out += " packed:";
          const int wt = model::KindWireType(f->kind);
          std::size_t q = 0;
          while (q < payload.size()) {
            std::uint64_t e = 0;
            if (wt == 0) {
              if (!ReadVarint(payload, q, e)) {
                out += " <bad varint " + Hex(payload.subspan(q)) + ">";
                break;
              }
            } else {
              const std::size_t w = wt == 1 ? 8 : 4;
              if (payload.size() - q < w) {
                out += " <partial " + Hex(payload.subspan(q)) + ">";
                break;
              }
              for (std::size_t i = 0; i < w; ++i) {
                e |= static_cast<std::uint64_t>(payload[q + i]) << (8 * i);
              }
              q += w;
            }
            out += ' ';
            out += ScalarText(f, e, wt);
          }
          out += "\n";
        } else {
          out += " \"" + Hex(payload, 32) + "\"\n";
        }
        break;
      case 3:
        out +=
            " {\n" + Describe(nullptr, -1, payload, indent + 1) + pad + "}\n";
        break;
      default:
        out += "\n";
    }
  }
  if (consumed < bytes.size()) {
    out += pad;
    Append(out, "@%llu malformed: ", consumed);
    out += Hex(bytes.subspan(consumed)) + "\n";
  }
  return out;
}

}  // namespace fairwire::wire::records
