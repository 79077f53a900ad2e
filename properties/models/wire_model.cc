// The reference model, one byte at a time. Each rule of docs/design.md,
// "Decoding rules", appears once, in the order a reader meets it.
#include "fairwire/models/wire_model.h"

#include <algorithm>
#include <cstring>

namespace fairwire::wire::model {

const char* KindName(Kind kind) {
  static const char* const kNames[kKindCount] = {
      "int32", "int64",  "uint32",  "uint64",  "sint32",   "sint64",
      "bool",  "enum",   "fixed32", "fixed64", "sfixed32", "sfixed64",
      "float", "double", "string",  "bytes",   "message"};
  return kNames[static_cast<int>(kind)];
}

int KindWireType(Kind kind) {
  switch (kind) {
    case Kind::kFixed64:
    case Kind::kSfixed64:
    case Kind::kDouble:
      return 1;
    case Kind::kFixed32:
    case Kind::kSfixed32:
    case Kind::kFloat:
      return 5;
    case Kind::kString:
    case Kind::kBytes:
    case Kind::kMessage:
      return 2;
    default:
      return 0;
  }
}

bool KindPackable(Kind kind) { return KindWireType(kind) != 2; }

bool ValidUtf8(std::span<const std::uint8_t> s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const std::uint8_t b0 = s[i];
    int n = 0;
    std::uint8_t lo = 0x80;
    std::uint8_t hi = 0xbf;
    if (b0 < 0x80) {
      ++i;
      continue;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      n = 1;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      n = 2;
      if (b0 == 0xe0) lo = 0xa0;
      if (b0 == 0xed) hi = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      n = 3;
      if (b0 == 0xf0) lo = 0x90;
      if (b0 == 0xf4) hi = 0x8f;
    } else {
      return false;
    }
    if (i + static_cast<std::size_t>(n) >= s.size()) return false;
    for (int k = 1; k <= n; ++k) {
      const std::uint8_t b = s[i + static_cast<std::size_t>(k)];
      if (b < lo || b > hi) return false;
      lo = 0x80;
      hi = 0xbf;
    }
    i += static_cast<std::size_t>(n) + 1;
  }
  return true;
}

Message EmptyMessage(const Schema& schema, int type) {
  Message m;
  Clear(schema, type, m);
  return m;
}

void Clear(const Schema& schema, int type, Message& message) {
  message.type = type;
  message.fields.resize(schema.messages[type].fields.size());
  for (FieldValues& values : message.fields) {
    values.scalars.clear();
    values.strings.clear();
    values.messages.clear();
  }
  message.unknown.clear();
}

namespace {

// Reads bytes one at a time from data[pos, end); offsets count from the start
// of the outermost input.
struct Reader {
  const std::uint8_t* data;
  std::size_t pos;
  std::size_t end;
};

struct Decoder {
  const Schema& schema;
  Status status;

  bool Fail(const char* reason, std::size_t offset) {
    status.ok = false;
    status.reason = reason;
    status.offset = offset;
    return false;
  }

  bool ReadByte(Reader& r, std::uint8_t& byte, std::size_t start) {
    if (r.pos >= r.end) return Fail("truncated", start);
    byte = r.data[r.pos];
    ++r.pos;
    return true;
  }

  // A varint of 1 to 10 bytes; bits past 64 are dropped.
  bool ReadVarint(Reader& r, std::uint64_t& value) {
    const std::size_t start = r.pos;
    value = 0;
    for (int i = 0;; ++i) {
      if (i == 10) return Fail("varint too long", start);
      std::uint8_t byte = 0;
      if (!ReadByte(r, byte, start)) return false;
      value |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
      if (byte < 0x80) return true;
    }
  }

  // A tag: at most 5 bytes, kept modulo 2^32 (as libprotobuf's ReadTag).
  bool ReadTag(Reader& r, std::uint32_t& tag) {
    const std::size_t start = r.pos;
    std::uint64_t value = 0;
    for (int i = 0;; ++i) {
      if (i == 5) return Fail("tag too long", start);
      std::uint8_t byte = 0;
      if (!ReadByte(r, byte, start)) return false;
      value |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
      if (byte < 0x80) break;
    }
    tag = static_cast<std::uint32_t>(value);
    return true;
  }

  // A length: at most 5 bytes, below 2^31; the record must fit in `r`.
  bool ReadLength(Reader& r, std::size_t& length) {
    const std::size_t start = r.pos;
    std::uint64_t value = 0;
    for (int i = 0;; ++i) {
      if (i == 5) return Fail("length too long", start);
      std::uint8_t byte = 0;
      if (!ReadByte(r, byte, start)) return false;
      value |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
      if (byte < 0x80) break;
    }
    if (value >= (std::uint64_t{1} << 31))
      return Fail("length too large", start);
    if (value > r.end - r.pos) return Fail("length past end", start);
    length = static_cast<std::size_t>(value);
    return true;
  }

  bool ReadFixed(Reader& r, int bytes, std::uint64_t& value) {
    const std::size_t start = r.pos;
    value = 0;
    for (int i = 0; i < bytes; ++i) {
      std::uint8_t byte = 0;
      if (!ReadByte(r, byte, start)) return false;
      value |= static_cast<std::uint64_t>(byte) << (8 * i);
    }
    return true;
  }

  // The value of one varint-kind element, as the canonical encoding writes it.
  static std::uint64_t VarintValue(Kind kind, std::uint64_t raw) {
    switch (kind) {
      case Kind::kInt32:
      case Kind::kEnum: {
        const auto low =
            static_cast<std::int32_t>(static_cast<std::uint32_t>(raw));
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(low));
      }
      case Kind::kUint32:
      case Kind::kSint32:  // zigzag of the 32-bit value = low 32 bits
        return raw & 0xffffffffu;
      case Kind::kBool:
        return raw != 0 ? 1 : 0;
      default:
        return raw;
    }
  }

  static bool EnumHas(const EnumType& e, std::int32_t v) {
    return std::find(e.values.begin(), e.values.end(), v) != e.values.end();
  }

  // Stores one scalar element of `field`, or sends a closed-enum value
  // outside its enum to the unknown records: as DynamicMessage does, with all
  // 64 bits of the varint (`raw`) when it arrived packed, sign-extended from
  // its low 32 bits when unpacked.
  void AddScalar(const Field& field, Message& msg, std::size_t index,
                 std::uint64_t value, std::uint64_t raw, bool packed) {
    if (field.kind == Kind::kEnum) {
      const EnumType& e = schema.enums[field.enum_index];
      const auto v =
          static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
      if (e.closed && !EnumHas(e, v)) {
        UnknownRecord u;
        u.number = field.number;
        u.wire_type = 0;
        u.value = packed ? raw : value;  // value: sign-extended from 32 bits
        msg.unknown.push_back(u);
        return;
      }
    }
    std::vector<std::uint64_t>& s = msg.fields[index].scalars;
    if (!field.repeated) s.clear();
    s.push_back(value);
  }

  // An unknown record whose tag was read; groups nest until their end tag.
  bool ReadUnknown(Reader& r, std::uint32_t number, int wire_type, int depth,
                   UnknownRecord& u) {
    u.number = number;
    u.wire_type = wire_type;
    switch (wire_type) {
      case 0:
        return ReadVarint(r, u.value);
      case 1:
        return ReadFixed(r, 8, u.value);
      case 5:
        return ReadFixed(r, 4, u.value);
      case 2: {
        std::size_t length = 0;
        if (!ReadLength(r, length)) return false;
        u.bytes.assign(reinterpret_cast<const char*>(r.data + r.pos), length);
        r.pos += length;
        return true;
      }
      case 3:
        return ReadGroup(r, number, depth, u.group);
      default:
        return false;  // not reached: the caller checks the wire type
    }
  }

  // The records of a group up to its end tag (number `number`).
  bool ReadGroup(Reader& r, std::uint32_t number, int depth,
                 std::vector<UnknownRecord>& out) {
    if (depth + 1 > kDepthLimit) return Fail("depth exceeded", r.pos);
    while (true) {
      if (r.pos >= r.end) return Fail("unterminated group", r.pos);
      const std::size_t tag_start = r.pos;
      std::uint32_t tag = 0;
      if (!ReadTag(r, tag)) return false;
      const std::uint32_t n = tag >> 3;
      const int wt = static_cast<int>(tag & 7);
      if (n == 0) return Fail("field number zero", tag_start);
      if (wt == 6 || wt == 7) return Fail("invalid wire type", tag_start);
      if (wt == 4) {
        if (n != number) return Fail("mismatched end group", tag_start);
        return true;
      }
      UnknownRecord u;
      if (!ReadUnknown(r, n, wt, depth + 1, u)) return false;
      out.push_back(std::move(u));
    }
  }

  const Field* FindField(const MessageType& type, std::uint32_t number,
                         std::size_t& index) {
    for (std::size_t i = 0; i < type.fields.size(); ++i) {
      if (type.fields[i].number == number) {
        index = i;
        return &type.fields[i];
      }
    }
    return nullptr;
  }

  // Reads one element of an unpacked (or packed) scalar field: `raw` as on
  // the wire, `value` as the canonical encoding writes it.
  bool ReadElement(Reader& r, Kind kind, std::uint64_t& value,
                   std::uint64_t& raw) {
    const int wt = KindWireType(kind);
    if (wt == 1) return ReadFixed(r, 8, value);
    if (wt == 5) return ReadFixed(r, 4, value);
    if (!ReadVarint(r, raw)) return false;
    value = VarintValue(kind, raw);
    return true;
  }

  // A packed record's payload: elements until the record's end.
  bool ReadPacked(Reader& r, const Field& field, Message& msg,
                  std::size_t index) {
    std::size_t length = 0;
    const std::size_t length_start = r.pos;
    if (!ReadLength(r, length)) return false;
    const int wt = KindWireType(field.kind);
    const std::size_t width = wt == 1 ? 8 : wt == 5 ? 4 : 0;
    if (width != 0 && length % width != 0) {
      return Fail("packed size not multiple", length_start);
    }
    Reader inner{r.data, r.pos, r.pos + length};
    r.pos += length;
    while (inner.pos < inner.end) {
      const std::size_t start = inner.pos;
      std::uint64_t value = 0;
      std::uint64_t raw = 0;
      if (!ReadElement(inner, field.kind, value, raw)) {
        if (status.reason == "truncated") {
          return Fail("packed element past record", start);
        }
        return false;
      }
      AddScalar(field, msg, index, value, raw, /*packed=*/true);
    }
    return true;
  }

  // The records of a message until the reader's end.
  bool ReadMessage(Reader& r, int depth, Message& msg) {
    const MessageType& type = schema.messages[msg.type];
    while (r.pos < r.end) {
      const std::size_t tag_start = r.pos;
      std::uint32_t tag = 0;
      if (!ReadTag(r, tag)) return false;
      const std::uint32_t number = tag >> 3;
      const int wt = static_cast<int>(tag & 7);
      if (number == 0) return Fail("field number zero", tag_start);
      if (wt == 6 || wt == 7) return Fail("invalid wire type", tag_start);
      if (wt == 4) return Fail("unexpected end group", tag_start);
      std::size_t index = 0;
      const Field* field = FindField(type, number, index);
      const bool natural = field != nullptr && wt == KindWireType(field->kind);
      const bool packed = field != nullptr && field->repeated && wt == 2 &&
                          KindPackable(field->kind);
      if (!natural && !packed) {
        UnknownRecord u;
        if (!ReadUnknown(r, number, wt, depth, u)) return false;
        msg.unknown.push_back(std::move(u));
        continue;
      }
      if (packed) {
        if (!ReadPacked(r, *field, msg, index)) return false;
        continue;
      }
      FieldValues& values = msg.fields[index];
      if (field->kind == Kind::kString || field->kind == Kind::kBytes) {
        std::size_t length = 0;
        if (!ReadLength(r, length)) return false;
        std::string s(reinterpret_cast<const char*>(r.data + r.pos), length);
        if (field->check_utf8 &&
            !ValidUtf8(std::span<const std::uint8_t>(
                reinterpret_cast<const std::uint8_t*>(s.data()), s.size()))) {
          return Fail("invalid utf8", r.pos);
        }
        r.pos += length;
        if (!field->repeated) values.strings.clear();
        values.strings.push_back(std::move(s));
      } else if (field->kind == Kind::kMessage) {
        std::size_t length = 0;
        if (!ReadLength(r, length)) return false;
        if (depth + 1 > kDepthLimit) return Fail("depth exceeded", r.pos);
        Reader inner{r.data, r.pos, r.pos + length};
        r.pos += length;
        if (field->repeated || values.messages.empty()) {
          values.messages.push_back(EmptyMessage(schema, field->message_index));
        }
        // A singular message merges into the one already there.
        if (!ReadMessage(inner, depth + 1, values.messages.back())) {
          return false;
        }
      } else {
        std::uint64_t value = 0;
        std::uint64_t raw = 0;
        if (!ReadElement(r, field->kind, value, raw)) return false;
        AddScalar(*field, msg, index, value, raw, /*packed=*/false);
      }
    }
    return true;
  }
};

void PutVarint(std::uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void PutTag(std::uint32_t number, int wire_type, std::string& out) {
  PutVarint((static_cast<std::uint64_t>(number) << 3) |
                static_cast<std::uint64_t>(wire_type),
            out);
}

void PutFixed(std::uint64_t v, int bytes, std::string& out) {
  for (int i = 0; i < bytes; ++i) {
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
}

void PutElement(Kind kind, std::uint64_t v, std::string& out) {
  const int wt = KindWireType(kind);
  if (wt == 1) {
    PutFixed(v, 8, out);
  } else if (wt == 5) {
    PutFixed(v, 4, out);
  } else {
    PutVarint(v, out);
  }
}

void SerializeInto(const Schema& schema, const Message& msg, std::string& out);

void SerializeField(const Schema& schema, const Field& field,
                    const FieldValues& values, std::string& out) {
  if (field.kind == Kind::kMessage) {
    for (const Message& m : values.messages) {
      std::string inner;
      SerializeInto(schema, m, inner);
      PutTag(field.number, 2, out);
      PutVarint(inner.size(), out);
      out += inner;
    }
    return;
  }
  if (field.kind == Kind::kString || field.kind == Kind::kBytes) {
    for (const std::string& s : values.strings) {
      if (!field.has_presence && !field.repeated && s.empty()) continue;
      PutTag(field.number, 2, out);
      PutVarint(s.size(), out);
      out += s;
    }
    return;
  }
  if (field.repeated && field.packed) {
    if (values.scalars.empty()) return;
    std::string payload;
    for (std::uint64_t v : values.scalars) PutElement(field.kind, v, payload);
    PutTag(field.number, 2, out);
    PutVarint(payload.size(), out);
    out += payload;
    return;
  }
  for (std::uint64_t v : values.scalars) {
    if (!field.has_presence && !field.repeated && v == 0) continue;
    PutTag(field.number, KindWireType(field.kind), out);
    PutElement(field.kind, v, out);
  }
}

void SerializeInto(const Schema& schema, const Message& msg, std::string& out) {
  const MessageType& type = schema.messages[msg.type];
  std::vector<std::size_t> order(type.fields.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return type.fields[a].number < type.fields[b].number;
  });
  for (std::size_t i : order) {
    SerializeField(schema, type.fields[i], msg.fields[i], out);
  }
  for (const UnknownRecord& u : msg.unknown) SerializeUnknown(u, out);
}

void TruncateIn(const Schema& schema, Message& msg) {
  const MessageType& type = schema.messages[msg.type];
  for (UnknownRecord& u : msg.unknown) {
    if (u.wire_type != 0) continue;
    for (const Field& f : type.fields) {
      if (f.number == u.number && f.kind == Kind::kEnum &&
          schema.enums[f.enum_index].closed) {
        const auto low =
            static_cast<std::int32_t>(static_cast<std::uint32_t>(u.value));
        u.value = static_cast<std::uint64_t>(static_cast<std::int64_t>(low));
      }
    }
  }
  for (FieldValues& values : msg.fields) {
    for (Message& m : values.messages) TruncateIn(schema, m);
  }
}

}  // namespace

void SerializeUnknown(const UnknownRecord& u, std::string& out) {
  PutTag(u.number, u.wire_type, out);
  switch (u.wire_type) {
    case 0:
      PutVarint(u.value, out);
      break;
    case 1:
      PutFixed(u.value, 8, out);
      break;
    case 5:
      PutFixed(u.value, 4, out);
      break;
    case 2:
      PutVarint(u.bytes.size(), out);
      out += u.bytes;
      break;
    case 3:
      for (const UnknownRecord& g : u.group) SerializeUnknown(g, out);
      PutTag(u.number, 4, out);
      break;
    default:
      break;
  }
}

Status Decode(const Schema& schema, int type,
              std::span<const std::uint8_t> input, Message& out) {
  Clear(schema, type, out);
  Decoder d{schema, {}};
  Reader r{input.data(), 0, input.size()};
  d.ReadMessage(r, 0, out);
  return d.status;
}

std::string Serialize(const Schema& schema, const Message& message) {
  std::string out;
  SerializeInto(schema, message, out);
  return out;
}

void TruncateClosedEnumUnknowns(const Schema& schema, Message& message) {
  TruncateIn(schema, message);
}

}  // namespace fairwire::wire::model
