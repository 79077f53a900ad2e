#include "fairwire/wire/schema.h"

#include <algorithm>
#include <utility>

#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/kinds.h"

namespace fairwire::wire {
namespace {

// Field numbers below this get a slot in the dense lookup table.
constexpr std::uint32_t kDenseLimit = 256;
// Enum bitmaps cover at most this many values from the smallest.
constexpr std::int64_t kEnumBitmapSpan = 4096;

internal::EnumBitmap MakeEnumBitmap(const EnumDef& def) {
  internal::EnumBitmap bitmap;
  if (def.values.empty()) return bitmap;
  bitmap.base = def.values.front();
  // The bitmap ends at the last value within kEnumBitmapSpan of the first
  // (a small enum with one far value, like 0..999 and 70000, gets 1000 bits,
  // not 4096: small enough for the AVX-512 membership check's table).
  std::int64_t span = 1;
  for (std::int32_t value : def.values) {
    const std::int64_t offset = std::int64_t{value} - bitmap.base;
    if (offset < kEnumBitmapSpan) span = offset + 1;
  }
  bitmap.bits.assign(static_cast<std::size_t>((span + 63) / 64), 0);
  for (std::int32_t value : def.values) {
    const std::int64_t offset = std::int64_t{value} - bitmap.base;
    if (offset < span) {
      bitmap.bits[static_cast<std::size_t>(offset >> 6)] |= std::uint64_t{1}
                                                            << (offset & 63);
    } else {
      bitmap.outliers = true;
      bitmap.far_values.push_back(value);
    }
  }
  internal::FillEnumSlots(bitmap);
  return bitmap;
}

bool Fail(SchemaError* error, std::string message) {
  if (error != nullptr) error->message = std::move(message);
  return false;
}

bool ValidateEnum(const EnumDef& def, SchemaError* error) {
  if (def.value_names.size() != def.values.size()) {
    return Fail(error, "enum " + def.name + ": value_names and values differ");
  }
  for (std::size_t i = 1; i < def.values.size(); ++i) {
    if (def.values[i - 1] >= def.values[i]) {
      return Fail(error, "enum " + def.name + ": values not sorted and unique");
    }
  }
  return true;
}

bool ValidateField(const MessageDef& message, const FieldDef& field,
                   std::size_t enum_count, std::size_t message_count,
                   SchemaError* error) {
  const std::string where = message.name + "." + field.name + " (" +
                            std::to_string(field.number) + "): ";
  if (field.number == 0 || field.number > (1u << 29) - 1) {
    return Fail(error, where + "field number out of range");
  }
  // kMessage is FieldKind's last enumerator.
  if (static_cast<unsigned>(field.kind) >
      static_cast<unsigned>(FieldKind::kMessage)) {
    return Fail(error, where + "kind " +
                           std::to_string(static_cast<unsigned>(field.kind)) +
                           " is none of FieldKind's");
  }
  if (field.packed && !(field.repeated && IsPackable(field.kind))) {
    return Fail(error, where + "packed on a non-packable or singular field");
  }
  if (field.validate_utf8 && field.kind != FieldKind::kString) {
    return Fail(error, where + "UTF-8 validation on a non-string field");
  }
  if (!field.has_presence &&
      (field.repeated || field.kind == FieldKind::kMessage)) {
    return Fail(error,
                where + "implicit presence on a repeated or message field");
  }
  const bool is_enum = field.kind == FieldKind::kEnum;
  if (is_enum != (field.enum_index >= 0) ||
      (is_enum && static_cast<std::size_t>(field.enum_index) >= enum_count)) {
    return Fail(error, where + "bad enum_index");
  }
  const bool is_message = field.kind == FieldKind::kMessage;
  if (is_message != (field.message_index >= 0) ||
      (is_message &&
       static_cast<std::size_t>(field.message_index) >= message_count)) {
    return Fail(error, where + "bad message_index");
  }
  return true;
}

}  // namespace

// Out of line: internal::EnumBitmap is incomplete in schema.h.
Schema::Schema() = default;
Schema::Schema(const Schema& other) = default;
Schema::Schema(Schema&& other) noexcept = default;
Schema& Schema::operator=(const Schema& other) = default;
Schema& Schema::operator=(Schema&& other) noexcept = default;
Schema::~Schema() = default;

std::string_view ToString(FieldKind kind) {
  switch (kind) {
    case FieldKind::kInt32:
      return "int32";
    case FieldKind::kInt64:
      return "int64";
    case FieldKind::kUint32:
      return "uint32";
    case FieldKind::kUint64:
      return "uint64";
    case FieldKind::kSint32:
      return "sint32";
    case FieldKind::kSint64:
      return "sint64";
    case FieldKind::kBool:
      return "bool";
    case FieldKind::kEnum:
      return "enum";
    case FieldKind::kFixed32:
      return "fixed32";
    case FieldKind::kFixed64:
      return "fixed64";
    case FieldKind::kSfixed32:
      return "sfixed32";
    case FieldKind::kSfixed64:
      return "sfixed64";
    case FieldKind::kFloat:
      return "float";
    case FieldKind::kDouble:
      return "double";
    case FieldKind::kString:
      return "string";
    case FieldKind::kBytes:
      return "bytes";
    case FieldKind::kMessage:
      return "message";
  }
  return "unknown";
}

WireType NaturalWireType(FieldKind kind) {
  return internal::KindWireType(kind);
}

bool IsPackable(FieldKind kind) {
  return NaturalWireType(kind) != WireType::kLen;
}

std::int32_t Schema::FindMessage(std::string_view full_name) const {
  for (std::size_t i = 0; i < messages_.size(); ++i) {
    if (messages_[i].name == full_name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

const FieldDef* Schema::FindField(std::int32_t message_index,
                                  std::uint32_t number) const {
  const auto index = static_cast<std::size_t>(message_index);
  const std::vector<std::uint16_t>& dense = dense_lookup_[index];
  const std::vector<FieldDef>& fields = messages_[index].fields;
  if (number < dense.size()) {
    const std::uint16_t slot = dense[number];
    return slot == 0 ? nullptr : &fields[slot - 1u];
  }
  auto it = std::lower_bound(
      fields.begin(), fields.end(), number,
      [](const FieldDef& f, std::uint32_t n) { return f.number < n; });
  return it != fields.end() && it->number == number ? &*it : nullptr;
}

bool Schema::EnumContains(std::int32_t enum_index, std::int32_t value) const {
  const internal::EnumBitmap& bitmap =
      enum_bitmaps_[static_cast<std::size_t>(enum_index)];
  const auto offset = static_cast<std::uint64_t>(std::int64_t{value} -
                                                 std::int64_t{bitmap.base});
  if (offset < bitmap.bits.size() * 64) {
    return ((bitmap.bits[offset >> 6] >> (offset & 63)) & 1u) != 0;
  }
  return bitmap.outliers && std::binary_search(bitmap.far_values.begin(),
                                               bitmap.far_values.end(), value);
}

std::int32_t SchemaBuilder::AddEnum(EnumDef def) {
  enums_.push_back(std::move(def));
  return static_cast<std::int32_t>(enums_.size() - 1);
}

std::int32_t SchemaBuilder::AddMessage(std::string full_name) {
  messages_.push_back(MessageDef{std::move(full_name), {}});
  return static_cast<std::int32_t>(messages_.size() - 1);
}

void SchemaBuilder::AddField(std::int32_t message_index, FieldDef field) {
  messages_[static_cast<std::size_t>(message_index)].fields.push_back(
      std::move(field));
}

std::optional<Schema> SchemaBuilder::Build(SchemaError* error) && {
  for (const EnumDef& def : enums_) {
    if (!ValidateEnum(def, error)) return std::nullopt;
  }
  Schema schema;
  for (MessageDef& message : messages_) {
    std::stable_sort(message.fields.begin(), message.fields.end(),
                     [](const FieldDef& a, const FieldDef& b) {
                       return a.number < b.number;
                     });
    if (message.fields.size() >= 0xFFFF) {
      Fail(error, message.name + ": too many fields");
      return std::nullopt;
    }
    std::uint32_t max_dense = 0;
    for (std::size_t i = 0; i < message.fields.size(); ++i) {
      const FieldDef& field = message.fields[i];
      if (!ValidateField(message, field, enums_.size(), messages_.size(),
                         error)) {
        return std::nullopt;
      }
      if (i > 0 && message.fields[i - 1].number == field.number) {
        Fail(error, message.name + ": duplicate field number " +
                        std::to_string(field.number));
        return std::nullopt;
      }
      if (field.number < kDenseLimit) max_dense = field.number + 1;
    }
    std::vector<std::uint16_t> dense(max_dense, 0);
    for (std::size_t i = 0; i < message.fields.size(); ++i) {
      if (message.fields[i].number < max_dense) {
        dense[message.fields[i].number] = static_cast<std::uint16_t>(i + 1);
      }
    }
    schema.dense_lookup_.push_back(std::move(dense));
  }
  for (const EnumDef& def : enums_) {
    schema.enum_bitmaps_.push_back(MakeEnumBitmap(def));
  }
  schema.messages_ = std::move(messages_);
  schema.enums_ = std::move(enums_);
  return schema;
}

}  // namespace fairwire::wire
