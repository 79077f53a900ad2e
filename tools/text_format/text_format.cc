#include "fairwire/text_format/text_format.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <type_traits>

#include "fairwire/text_format/format.h"
#include "fairwire/text_format/unknown_fields.h"

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

// A map key, comparable as protobuf's MapEntryMessageComparator compares
// keys of one kind: signed, unsigned (and bool), or byte string.
struct MapKey {
  std::int64_t signed_value = 0;
  std::uint64_t unsigned_value = 0;
  std::string text;

  friend bool operator<(const MapKey& a, const MapKey& b) {
    if (a.signed_value != b.signed_value) {
      return a.signed_value < b.signed_value;
    }
    if (a.unsigned_value != b.unsigned_value) {
      return a.unsigned_value < b.unsigned_value;
    }
    return a.text < b.text;
  }
};

// The key of a map entry (field index 0 of an entry type, number 1); the
// kind's zero when absent.
MapKey KeyOf(const Message& entry) {
  MapKey key;
  if (entry.def().fields.empty() || entry.def().fields[0].number != 1) {
    return key;
  }
  std::visit(
      [&key](const auto& values) {
        using T = typename std::decay_t<decltype(values)>::value_type;
        if (values.empty()) return;
        const T& value = values.back();
        if constexpr (std::is_same_v<T, std::string>) {
          key.text = value;
        } else if constexpr (std::is_same_v<T, std::int32_t> ||
                             std::is_same_v<T, std::int64_t>) {
          key.signed_value = value;
        } else if constexpr (std::is_same_v<T, std::uint32_t> ||
                             std::is_same_v<T, std::uint64_t> ||
                             std::is_same_v<T, std::uint8_t>) {
          key.unsigned_value = value;
        }
      },
      entry.values(0));
  return key;
}

class Printer {
 public:
  Printer(const TextFormatOptions& options, std::string* out)
      : options_(options), out_(out) {}

  bool Print(const Message& message, int indent) {
    const MessageDef& def = message.def();
    const bool map_entry = IsMapEntry(message.message_index());
    for (std::size_t i = 0; i < def.fields.size(); ++i) {
      const FieldDef& field = def.fields[i];
      const bool ok = std::visit(
          [&](const auto& values) {
            return PrintField(message.schema(), field, values, map_entry,
                              indent);
          },
          message.values(i));
      if (!ok) return false;
    }
    return AppendUnknownFieldsText(message.unknown_fields(), indent, out_);
  }

 private:
  bool IsMapEntry(std::int32_t message_index) const {
    const auto index = static_cast<std::size_t>(message_index);
    return index < options_.map_entry.size() && options_.map_entry[index];
  }

  // The text of one scalar value of `field`.
  template <typename T>
  std::string ScalarText(const Schema& schema, const FieldDef& field,
                         const T& value) const {
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

  // The text of an enum value: its name, or its number when it has none.
  static std::string EnumText(const Schema& schema, std::int32_t enum_index,
                              std::int32_t value) {
    const EnumDef& def = schema.enums()[static_cast<std::size_t>(enum_index)];
    auto it = std::lower_bound(def.values.begin(), def.values.end(), value);
    if (it != def.values.end() && *it == value) {
      return def.value_names[static_cast<std::size_t>(it - def.values.begin())];
    }
    return std::to_string(value);
  }

  template <typename T>
  bool PrintValue(const Schema& schema, const FieldDef& field, const T& value,
                  int indent) {
    AppendIndent(indent, out_);
    *out_ += field.name;
    if constexpr (std::is_same_v<T, Message>) {
      *out_ += " {\n";
      if (!Print(value, indent + 1)) return false;
      AppendIndent(indent, out_);
      *out_ += "}\n";
    } else {
      *out_ += ": ";
      *out_ += ScalarText(schema, field, value);
      *out_ += '\n';
    }
    return true;
  }

  // A map entry's absent key or value: printed with its default.
  template <typename T>
  bool PrintDefault(const Schema& schema, const FieldDef& field, int indent) {
    if constexpr (std::is_same_v<T, Message>) {
      return PrintValue(schema, field, Message(schema, field.message_index),
                        indent);
    } else {
      T value{};
      if constexpr (std::is_same_v<T, std::int32_t>) {
        const auto e = static_cast<std::size_t>(field.enum_index);
        if (field.kind == FieldKind::kEnum &&
            e < options_.enum_default.size()) {
          value = options_.enum_default[e];
        }
      }
      return PrintValue(schema, field, value, indent);
    }
  }

  template <typename T>
  bool PrintField(const Schema& schema, const FieldDef& field,
                  const std::vector<T>& values, bool in_map_entry, int indent) {
    if (in_map_entry && values.empty() && !field.repeated) {
      return PrintDefault<T>(schema, field, indent);
    }
    if constexpr (std::is_same_v<T, Message>) {
      if (field.repeated && IsMapEntry(field.message_index)) {
        return PrintMap(schema, field, values, indent);
      }
    }
    for (const T& value : values) {
      if (!field.repeated && !field.has_presence && !in_map_entry &&
          !IsNonZero(value)) {
        continue;
      }
      if (!PrintValue(schema, field, value, indent)) return false;
    }
    return true;
  }

  bool PrintMap(const Schema& schema, const FieldDef& field,
                const std::vector<Message>& entries, int indent) {
    std::vector<std::pair<MapKey, const Message*>> sorted;
    sorted.reserve(entries.size());
    for (const Message& entry : entries) {
      sorted.emplace_back(KeyOf(entry), &entry);
    }
    std::stable_sort(
        sorted.begin(), sorted.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [key, entry] : sorted) {
      if (!PrintValue(schema, field, *entry, indent)) return false;
    }
    return true;
  }

  const TextFormatOptions& options_;
  std::string* out_;
};

}  // namespace

bool AppendTextFormat(const Message& message, int indent, std::string* out,
                      const TextFormatOptions& options) {
  return Printer(options, out).Print(message, indent);
}

std::string ToTextFormat(const Message& message,
                         const TextFormatOptions& options) {
  std::string out;
  if (!AppendTextFormat(message, 0, &out, options)) return std::string();
  return out;
}

}  // namespace fairwire::wire
