#include "text_format.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>

#include "format.h"
#include "unknown_fields.h"

namespace fairwire::wire {
namespace {

void AppendIndent(int indent, std::string* out) {
  out->append(static_cast<std::size_t>(indent) * 2, ' ');
}

// True if an implicit-presence field holding `value` counts as set, as
// libprotobuf's reflection decides it (floating point: any non-zero bits, so
// -0.0 is set).
template <typename T>
bool IsNonZero(const T& value) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(value) != 0;
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(value) != 0;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return !value.empty();
  } else if constexpr (std::is_same_v<T, Message>) {
    return true;
  } else {
    return value != 0;
  }
}

// The text of an enum value: its name, or its number when the enum has none.
std::string EnumText(const Schema& schema, std::int32_t enum_index,
                     std::int32_t value) {
  const EnumDef& def = schema.enums()[static_cast<std::size_t>(enum_index)];
  auto it = std::lower_bound(def.values.begin(), def.values.end(), value);
  if (it != def.values.end() && *it == value) {
    return def.value_names[static_cast<std::size_t>(it - def.values.begin())];
  }
  return std::to_string(value);
}

// The text of one scalar value of `field`.
template <typename T>
std::string ScalarText(const Schema& schema, const FieldDef& field,
                       const T& value) {
  if constexpr (std::is_same_v<T, float>) {
    return FormatFloat(value);
  } else if constexpr (std::is_same_v<T, double>) {
    return FormatDouble(value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    // Appended piecewise: g++ 12 -O3 warns falsely (-Wrestrict) on
    // "\"" + std::string.
    std::string text(1, '"');
    text += CEscape(value);
    text += '"';
    return text;
  } else if constexpr (std::is_same_v<T, std::uint8_t>) {
    return value != 0 ? "true" : "false";
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    if (field.kind == FieldKind::kEnum) {
      return EnumText(schema, field.enum_index, value);
    }
    return std::to_string(value);
  } else {
    return std::to_string(value);
  }
}

template <typename T>
bool AppendValues(const Schema& schema, const FieldDef& field,
                  const std::vector<T>& values, int indent, std::string* out) {
  for (const T& value : values) {
    if (!field.repeated && !field.has_presence && !IsNonZero(value)) continue;
    AppendIndent(indent, out);
    *out += field.name;
    if constexpr (std::is_same_v<T, Message>) {
      *out += " {\n";
      if (!AppendTextFormat(value, indent + 1, out)) return false;
      AppendIndent(indent, out);
      *out += "}\n";
    } else {
      *out += ": ";
      *out += ScalarText(schema, field, value);
      *out += "\n";
    }
  }
  return true;
}

}  // namespace

bool AppendTextFormat(const Message& message, int indent, std::string* out) {
  const MessageDef& def = message.def();
  for (std::size_t i = 0; i < def.fields.size(); ++i) {
    const FieldDef& field = def.fields[i];
    const bool ok = std::visit(
        [&](const auto& values) {
          return AppendValues(message.schema(), field, values, indent, out);
        },
        message.values(i));
    if (!ok) return false;
  }
  return AppendUnknownFieldsText(message.unknown_fields(), indent, out);
}

std::string ToTextFormat(const Message& message) {
  std::string out;
  if (!AppendTextFormat(message, 0, &out)) return std::string();
  return out;
}

}  // namespace fairwire::wire
