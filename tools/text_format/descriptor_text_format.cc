#include "fairwire/text_format/descriptor_text_format.h"

#include <google/protobuf/descriptor.pb.h>

#include <cstdint>
#include <variant>
#include <vector>

#include "fairwire/text_format/unknown_fields.h"

namespace fairwire::wire {

namespace gpb = google::protobuf;

TextFormatOptions TextFormatOptionsFor(
    const protobuf::DescriptorSchema& built) {
  TextFormatOptions options;
  for (const gpb::Descriptor* message : built.messages) {
    options.map_entry.push_back(message->options().map_entry());
  }
  for (const gpb::EnumDescriptor* type : built.enums) {
    options.enum_default.push_back(type->value(0)->number());
  }
  return options;
}

std::string OneofWithSeveralMembers(const protobuf::DescriptorSchema& built,
                                    const Message& message) {
  const gpb::Descriptor& type =
      *built.messages[static_cast<std::size_t>(message.message_index())];
  const MessageDef& def = message.def();
  auto index_of = [&](const gpb::FieldDescriptor& field) {
    const FieldDef* found = built.schema.FindField(
        message.message_index(), static_cast<std::uint32_t>(field.number()));
    return static_cast<std::size_t>(found - def.fields.data());
  };
  auto set = [&](std::size_t index) {
    return std::visit([](const auto& values) { return !values.empty(); },
                      message.values(index));
  };
  for (int o = 0; o < type.real_oneof_decl_count(); ++o) {
    const gpb::OneofDescriptor& oneof =
        *type.oneof_decl(o);  // real ones come first
    int members_set = 0;
    for (int f = 0; f < oneof.field_count(); ++f) {
      if (set(index_of(*oneof.field(f)))) ++members_set;
    }
    if (members_set > 1) return oneof.full_name();
  }
  for (std::size_t i = 0; i < def.fields.size(); ++i) {
    if (def.fields[i].kind != FieldKind::kMessage) continue;
    for (const Message& child : message.Get<Message>(i)) {
      std::string found = OneofWithSeveralMembers(built, child);
      if (!found.empty()) return found;
    }
  }
  return "";
}

std::string TypeWithExtensionValue(const protobuf::DescriptorSchema& built,
                                   const Message& message) {
  const gpb::Descriptor& type =
      *built.messages[static_cast<std::size_t>(message.message_index())];
  if (!message.unknown_fields().empty() && type.extension_range_count() > 0) {
    std::vector<std::uint32_t> numbers;
    UnknownFieldNumbers(message.unknown_fields(), &numbers);
    for (const std::uint32_t number : numbers) {
      if (type.file()->pool()->FindExtensionByNumber(
              &type, static_cast<int>(number)) != nullptr) {
        return type.full_name();
      }
    }
  }
  const MessageDef& def = message.def();
  for (std::size_t i = 0; i < def.fields.size(); ++i) {
    if (def.fields[i].kind != FieldKind::kMessage) continue;
    for (const Message& child : message.Get<Message>(i)) {
      std::string found = TypeWithExtensionValue(built, child);
      if (!found.empty()) return found;
    }
  }
  return "";
}

}  // namespace fairwire::wire
