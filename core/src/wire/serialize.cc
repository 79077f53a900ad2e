// Canonical serialization, as libprotobuf 3.21's SerializeToString writes.
#include "fairwire/wire/serialize.h"

#include <bit>
#include <type_traits>

#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/writer.h"

namespace fairwire::wire {
namespace {

// The raw wire value of one element of a packable kind.
template <typename T>
WireScalar ToWire(FieldKind kind, T value) {
  return ToWireScalar(kind, value);
}

// True if a singular implicit-presence value is the default (not written).
template <typename T>
bool IsZero(const T& value) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(value) == 0;
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(value) == 0;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return value.empty();
  } else {
    return value == T{};
  }
}

void WriteMessage(const Message& message, Writer& w);

// Re-encodes the records of [p, end) canonically (they are known valid).
// Returns the position past the matching end-group tag when `group` is set.
const std::uint8_t* WriteUnknown(const std::uint8_t* p, const std::uint8_t* end,
                                 Writer& w, bool group) {
  while (p < end) {
    Tag tag;
    DecodeError error;
    p = ReadTag(p, end, &tag, &error);
    if (p == nullptr) return end;
    const auto wire_type = static_cast<WireType>(tag.wire_type);
    if (wire_type == WireType::kEndGroup) {
      if (group) {
        w.Tag(tag.field_number, wire_type);
        return p;
      }
      return end;
    }
    w.Tag(tag.field_number, wire_type);
    std::uint64_t raw = 0;
    switch (wire_type) {
      case WireType::kVarint:
        p = ReadVarint(p, end, &raw, &error);
        if (p == nullptr) return end;
        w.Varint(raw);
        break;
      case WireType::kI64:
        w.Fixed64(LoadFixed64(p));
        p += 8;
        break;
      case WireType::kI32:
        w.Fixed32(LoadFixed32(p));
        p += 4;
        break;
      case WireType::kLen: {
        std::uint32_t length;
        p = ReadLength(p, end, &length, &error);
        if (p == nullptr) return end;
        w.Length(length);
        w.Raw(std::string_view(reinterpret_cast<const char*>(p), length));
        p += length;
        break;
      }
      case WireType::kStartGroup:
        p = WriteUnknown(p, end, w, true);
        break;
      default:
        return end;
    }
  }
  return p;
}

template <typename T>
void WriteField(const FieldDef& field, const std::vector<T>& values,
                const Schema& schema, Writer& w) {
  if (values.empty()) return;
  if constexpr (std::is_same_v<T, Message>) {
    (void)schema;
    for (const Message& m : values) {
      // The payload in place, its length inserted before it once known.
      w.Tag(field.number, WireType::kLen);
      const std::size_t from = w.size();
      WriteMessage(m, w);
      w.InsertLength(from);
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!field.has_presence && IsZero(values[0])) return;
    for (const std::string& s : values) w.WriteLen(field.number, s);
  } else {
    if (field.packed) {
      w.WritePacked(field.number, field.kind, std::span<const T>(values));
      return;
    }
    if (!field.has_presence && IsZero(values[0])) return;
    for (const T& v : values) {
      w.WriteScalar(field.number, field.kind, ToWire(field.kind, v));
    }
  }
}

void WriteMessage(const Message& message, Writer& w) {
  const MessageDef& def = message.def();
  for (std::size_t i = 0; i < def.fields.size(); ++i) {
    std::visit(
        [&](const auto& values) {
          WriteField(def.fields[i], values, message.schema(), w);
        },
        message.values(i));
  }
  const std::string& unknown = message.unknown_fields();
  const auto* p = reinterpret_cast<const std::uint8_t*>(unknown.data());
  WriteUnknown(p, p + unknown.size(), w, false);
}

}  // namespace

std::string Serialize(const Message& message) {
  Writer w;
  WriteMessage(message, w);
  return std::move(w).Take();
}

}  // namespace fairwire::wire
