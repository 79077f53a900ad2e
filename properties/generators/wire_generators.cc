#include "fairwire/generators/wire_generators.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace fairwire::wire::gen {
namespace {

std::uint64_t SignExtend32(std::uint32_t v) {
  return static_cast<std::uint64_t>(
      static_cast<std::int64_t>(static_cast<std::int32_t>(v)));
}

void PutUtf8(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

rc::Gen<std::string> Utf8String() {
  return rc::gen::map(
      rc::gen::container<std::vector<std::uint32_t>>(
          rc::gen::oneOf(rc::gen::inRange<std::uint32_t>(0, 0x80),
                         rc::gen::inRange<std::uint32_t>(0x80, 0xd800),
                         rc::gen::inRange<std::uint32_t>(0xe000, 0x110000))),
      [](const std::vector<std::uint32_t>& cps) {
        std::string s;
        for (std::uint32_t cp : cps) PutUtf8(cp, s);
        return s;
      });
}

// A varint-kind value as the model stores it, biased to edges.
std::uint64_t AnyU64() {
  return *rc::gen::oneOf(rc::gen::arbitrary<std::uint64_t>(),
                         rc::gen::inRange<std::uint64_t>(0, 300),
                         rc::gen::element<std::uint64_t>(
                             0, 1, 127, 128, 0xffffffffu, 0x100000000u,
                             0x7fffffffffffffffu, 0xffffffffffffffffu));
}

std::uint32_t AnyU32() {
  return *rc::gen::oneOf(rc::gen::arbitrary<std::uint32_t>(),
                         rc::gen::inRange<std::uint32_t>(0, 300),
                         rc::gen::element<std::uint32_t>(
                             0, 1, 0x7fffffff, 0x80000000, 0xffffffff));
}

std::uint64_t ScalarValue(const model::Schema& s, const model::Field& f) {
  using K = model::Kind;
  switch (f.kind) {
    case K::kInt32:
      return SignExtend32(AnyU32());
    case K::kEnum: {
      const model::EnumType& e = s.enums[f.enum_index];
      if (e.closed || *rc::gen::arbitrary<bool>()) {
        return SignExtend32(
            static_cast<std::uint32_t>(*rc::gen::elementOf(e.values)));
      }
      return SignExtend32(AnyU32());
    }
    case K::kUint32:
    case K::kSint32:
    case K::kFixed32:
    case K::kSfixed32:
    case K::kFloat:
      return AnyU32();
    case K::kBool:
      return *rc::gen::inRange<std::uint64_t>(0, 2);
    default:
      return AnyU64();
  }
}

model::UnknownRecord Unknown(const std::vector<std::uint32_t>& free_numbers,
                             int depth) {
  model::UnknownRecord u;
  u.number = *rc::gen::elementOf(free_numbers);
  u.wire_type = *rc::gen::element(0, 1, 2, 5, 3);
  if (u.wire_type == 3 && depth >= 2) u.wire_type = 0;
  switch (u.wire_type) {
    case 0:
    case 1:
      u.value = AnyU64();
      break;
    case 5:
      u.value = AnyU32();
      break;
    case 2:
      u.bytes = *rc::gen::arbitrary<std::string>();
      break;
    default: {
      const int n = *rc::gen::inRange(0, 3);
      for (int i = 0; i < n; ++i)
        u.group.push_back(Unknown(free_numbers, depth + 1));
    }
  }
  return u;
}

model::Message MakeMessage(const model::Schema* s, int type, int depth,
                           int max_depth) {
  model::Message m = model::EmptyMessage(*s, type);
  const auto& fields = s->messages[type].fields;
  const auto picks = *rc::gen::resize(
      std::max(1, static_cast<int>(fields.size()) / (depth + 1)),
      rc::gen::container<std::vector<std::size_t>>(
          rc::gen::inRange<std::size_t>(0, fields.size())));
  for (std::size_t i : picks) {
    const model::Field& f = fields[i];
    model::FieldValues& fv = m.fields[i];
    const int count = f.repeated ? *rc::gen::inRange(0, 9) : 1;
    fv = {};
    for (int k = 0; k < count; ++k) {
      if (f.kind == model::Kind::kMessage) {
        if (depth >= max_depth) break;
        fv.messages.push_back(
            MakeMessage(s, f.message_index, depth + 1, max_depth));
      } else if (f.kind == model::Kind::kString && f.check_utf8) {
        fv.strings.push_back(*Utf8String());
      } else if (f.kind == model::Kind::kString ||
                 f.kind == model::Kind::kBytes) {
        fv.strings.push_back(*rc::gen::arbitrary<std::string>());
      } else {
        fv.scalars.push_back(ScalarValue(*s, f));
      }
    }
  }
  std::vector<std::uint32_t> free_numbers;
  for (std::uint32_t n : {19u, 20u, 40u, 99u, 1000u, 100000u, 536870910u}) {
    if (std::none_of(fields.begin(), fields.end(),
                     [n](const model::Field& f) { return f.number == n; })) {
      free_numbers.push_back(n);
    }
  }
  const int unknowns = *rc::gen::inRange(0, 4);
  for (int i = 0; i < unknowns && !free_numbers.empty(); ++i) {
    m.unknown.push_back(Unknown(free_numbers, 0));
  }
  return m;
}

}  // namespace

rc::Gen<model::Message> Message(const model::Schema* schema, int type,
                                int max_depth) {
  return rc::gen::exec([=] { return MakeMessage(schema, type, 0, max_depth); });
}

rc::Gen<scenario::Variant> Variant() {
  return rc::gen::elementOf(scenario::AllVariants());
}

std::string Corrupt(std::string bytes) {
  const int edits = *rc::gen::inRange(1, 4);
  for (int i = 0; i < edits && !bytes.empty(); ++i) {
    const std::size_t at = *rc::gen::inRange<std::size_t>(0, bytes.size());
    const auto byte = static_cast<char>(*rc::gen::arbitrary<std::uint8_t>());
    switch (*rc::gen::inRange(0, 5)) {
      case 0:
        bytes[at] = byte;
        break;
      case 1:
        bytes.insert(bytes.begin() + static_cast<long>(at), byte);
        break;
      case 2:
        bytes.erase(bytes.begin() + static_cast<long>(at));
        break;
      case 3:
        bytes[at] = static_cast<char>(bytes[at] | '\x80');
        break;
      default:
        bytes.resize(at);
    }
  }
  return bytes;
}

}  // namespace fairwire::wire::gen
