#include "fairwire/scenarios/wire_schema_case.h"

#include <algorithm>

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::scenario {
namespace {

// Field numbers a schema draws from: small, two-byte and five-byte tags.
constexpr std::uint32_t kNumbers[] = {
    1,  2,  3,  4,   5,    6,    7,     8,      9,      10,
    15, 16, 17, 100, 2047, 2048, 20000, 262143, 262144, 536870911};
constexpr std::size_t kNumberCount = std::size(kNumbers);

std::int32_t EnumValue(std::uint8_t b) {
  if (b == 0x7f) return 1000000;
  if (b == 0x80) return -2147483647 - 1;
  return static_cast<std::int8_t>(b);
}

std::uint8_t EnumByte(std::int32_t v) {
  if (v == 1000000) return 0x7f;
  if (v == -2147483647 - 1) return 0x80;
  return static_cast<std::uint8_t>(static_cast<std::int8_t>(v));
}

struct ByteReader {
  std::span<const std::uint8_t> in;
  std::size_t pos = 0;
  std::uint8_t Next() { return pos < in.size() ? in[pos++] : 0; }
};

}  // namespace

SchemaCase DecodeSchemaCase(std::span<const std::uint8_t> input) {
  ByteReader r{input};
  SchemaCase c;
  const std::uint8_t header = r.Next();
  const int message_count = (header & 3) % 3 + 1;
  c.proto3 = (header & 4) != 0;
  const int enum_count = ((header >> 3) & 3) % 3;
  for (int e = 0; e < enum_count; ++e) {
    const int n = r.Next() % 4 + 1;
    std::vector<std::int32_t> values;
    for (int i = 0; i < n; ++i) {
      const std::int32_t v = EnumValue(r.Next());
      if (std::find(values.begin(), values.end(), v) == values.end()) {
        values.push_back(v);
      }
    }
    if (c.proto3) {  // proto3 enums start with zero
      const auto zero = std::find(values.begin(), values.end(), 0);
      if (zero == values.end()) {
        values.front() = 0;
      } else {
        std::rotate(values.begin(), zero, zero + 1);
      }
    }
    c.enums.push_back(std::move(values));
  }
  for (int m = 0; m < message_count; ++m) {
    const int n = r.Next() % 8;
    std::vector<FieldSpec> fields;
    for (int i = 0; i < n; ++i) {
      FieldSpec f;
      f.number = kNumbers[r.Next() % kNumberCount];
      f.kind = static_cast<model::Kind>(r.Next() % model::kKindCount);
      const std::uint8_t flags = r.Next();
      f.repeated = (flags & 1) != 0;
      f.packed = f.repeated && model::KindPackable(f.kind) && (flags & 2) != 0;
      if (f.kind == model::Kind::kEnum && enum_count == 0) {
        f.kind = model::Kind::kInt32;
      }
      if (f.kind == model::Kind::kEnum)
        f.type_index = (flags >> 2) % enum_count;
      if (f.kind == model::Kind::kMessage) {
        f.type_index = (flags >> 2) % message_count;
      }
      const bool dup =
          std::any_of(fields.begin(), fields.end(),
                      [&](const FieldSpec& g) { return g.number == f.number; });
      if (!dup) fields.push_back(f);
    }
    c.messages.push_back(std::move(fields));
  }
  if (r.pos < input.size())
    c.payload.assign(input.begin() + static_cast<long>(r.pos), input.end());
  return c;
}

std::vector<std::uint8_t> EncodeSchemaCase(const SchemaCase& c) {
  std::vector<std::uint8_t> out;
  out.push_back(static_cast<std::uint8_t>(
      (c.messages.size() - 1) | (c.proto3 ? 4u : 0u) | (c.enums.size() << 3)));
  for (const auto& values : c.enums) {
    out.push_back(static_cast<std::uint8_t>(values.size() - 1));
    for (std::int32_t v : values) out.push_back(EnumByte(v));
  }
  for (const auto& fields : c.messages) {
    out.push_back(static_cast<std::uint8_t>(fields.size()));
    for (const FieldSpec& f : fields) {
      const auto number = static_cast<std::uint8_t>(
          std::find(std::begin(kNumbers), std::end(kNumbers), f.number) -
          std::begin(kNumbers));
      out.push_back(number);
      out.push_back(static_cast<std::uint8_t>(f.kind));
      out.push_back(static_cast<std::uint8_t>(
          (f.repeated ? 1 : 0) | (f.packed ? 2 : 0) | (f.type_index << 2)));
    }
  }
  out.insert(out.end(), c.payload.begin(), c.payload.end());
  return out;
}

std::string SchemaText(const SchemaCase& c) {
  std::string s =
      c.proto3 ? "syntax = \"proto3\";\n" : "syntax = \"proto2\";\n";
  s += "package fairwire.sd;\n";
  for (std::size_t e = 0; e < c.enums.size(); ++e) {
    s += "enum E" + std::to_string(e) + " {";
    for (std::size_t i = 0; i < c.enums[e].size(); ++i) {
      s += " E" + std::to_string(e) + "_V" + std::to_string(i) + " = " +
           std::to_string(c.enums[e][i]) + ";";
    }
    s += " }\n";
  }
  for (std::size_t m = 0; m < c.messages.size(); ++m) {
    s += "message M" + std::to_string(m) + " {\n";
    for (const FieldSpec& f : c.messages[m]) {
      s += "  ";
      if (f.repeated) {
        s += "repeated ";
      } else if (!c.proto3) {
        s += "optional ";
      }
      if (f.kind == model::Kind::kEnum) {
        s += 'E';
        s += std::to_string(f.type_index);
      } else if (f.kind == model::Kind::kMessage) {
        s += 'M';
        s += std::to_string(f.type_index);
      } else {
        s += model::KindName(f.kind);
      }
      s += " f" + std::to_string(f.number) + " = " + std::to_string(f.number);
      if (f.repeated && model::KindPackable(f.kind)) {
        s += f.packed ? " [packed = true]" : " [packed = false]";
      }
      s += ";\n";
    }
    s += "}\n";
  }
  return s;
}

std::vector<SchemaCase> SimplerSchemaCases(const SchemaCase& c) {
  std::vector<SchemaCase> out;
  if (!c.payload.empty()) {
    SchemaCase x = c;
    x.payload.clear();
    out.push_back(x);
    std::size_t consumed = 0;
    const auto recs = records::Split(c.payload, &consumed);
    if (consumed < c.payload.size() && consumed > 0) {
      x = c;
      x.payload.resize(consumed);
      out.push_back(x);
    }
    for (const records::RawRecord& r : recs) {
      x = c;
      x.payload.erase(x.payload.begin() + static_cast<long>(r.begin),
                      x.payload.begin() + static_cast<long>(r.end));
      out.push_back(x);
    }
    for (std::size_t i = 0; i < c.payload.size() && i < 128; ++i) {
      x = c;
      x.payload.erase(x.payload.begin() + static_cast<long>(i));
      out.push_back(x);
    }
  }
  for (std::size_t m = 0; m < c.messages.size(); ++m) {
    for (std::size_t i = 0; i < c.messages[m].size(); ++i) {
      SchemaCase x = c;
      x.messages[m].erase(x.messages[m].begin() + static_cast<long>(i));
      out.push_back(x);
    }
  }
  if (c.messages.size() > 1) {  // drop the last message type if unused
    const int last = static_cast<int>(c.messages.size()) - 1;
    bool used = false;
    for (const auto& fields : c.messages) {
      for (const FieldSpec& f : fields) {
        used |= f.kind == model::Kind::kMessage && f.type_index == last;
      }
    }
    if (!used) {
      SchemaCase x = c;
      x.messages.pop_back();
      out.push_back(x);
    }
  }
  if (c.proto3) {
    SchemaCase x = c;
    x.proto3 = false;
    out.push_back(x);
  }
  return out;
}

}  // namespace fairwire::wire::scenario
