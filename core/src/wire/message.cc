#include "fairwire/wire/message.h"

namespace fairwire::wire {
namespace {

// An empty value list of the C++ type `kind` decodes to.
FieldValues EmptyValues(FieldKind kind) {
  switch (kind) {
    case FieldKind::kInt32:
    case FieldKind::kSint32:
    case FieldKind::kSfixed32:
    case FieldKind::kEnum:
      return std::vector<std::int32_t>();
    case FieldKind::kInt64:
    case FieldKind::kSint64:
    case FieldKind::kSfixed64:
      return std::vector<std::int64_t>();
    case FieldKind::kUint32:
    case FieldKind::kFixed32:
      return std::vector<std::uint32_t>();
    case FieldKind::kUint64:
    case FieldKind::kFixed64:
      return std::vector<std::uint64_t>();
    case FieldKind::kBool:
      return std::vector<std::uint8_t>();
    case FieldKind::kFloat:
      return std::vector<float>();
    case FieldKind::kDouble:
      return std::vector<double>();
    case FieldKind::kString:
    case FieldKind::kBytes:
      return std::vector<std::string>();
    case FieldKind::kMessage:
      return std::vector<Message>();
  }
  return std::vector<std::int32_t>();
}

}  // namespace

Message::Message(const Schema& schema, std::int32_t message_index)
    : schema_(&schema), message_index_(message_index) {
  const MessageDef& message_def = def();
  fields_.reserve(message_def.fields.size());
  for (const FieldDef& field : message_def.fields) {
    fields_.push_back(EmptyValues(field.kind));
  }
}

void Message::Clear() {
  const std::vector<FieldDef>& defs = def().fields;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    FieldValues& values = fields_[i];
    auto* strings = std::get_if<std::vector<std::string>>(&values);
    if (strings != nullptr && strings->size() == 1 && !defs[i].repeated) {
      // Kept aside (as libprotobuf keeps a cleared string's buffer) for the
      // decoder to reuse through internal::MessageAccess::TakeSpareString.
      if (spare_strings_.size() < fields_.size()) {
        spare_strings_.resize(fields_.size());
      }
      spare_strings_[i].swap((*strings)[0]);
      spare_strings_[i].clear();
    }
    std::visit([](auto& v) { v.clear(); }, values);
  }
  unknown_.clear();
}

}  // namespace fairwire::wire
