#include "fairwire/protobuf/schema_from_descriptor.h"

#include <algorithm>
#include <deque>
#include <map>
#include <utility>

namespace fairwire::protobuf {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;
using wire::FieldKind;

// The wire kind of a descriptor field type; nullopt for groups.
std::optional<FieldKind> KindOf(FieldDescriptor::Type type) {
  switch (type) {
    case FieldDescriptor::TYPE_DOUBLE:
      return FieldKind::kDouble;
    case FieldDescriptor::TYPE_FLOAT:
      return FieldKind::kFloat;
    case FieldDescriptor::TYPE_INT64:
      return FieldKind::kInt64;
    case FieldDescriptor::TYPE_UINT64:
      return FieldKind::kUint64;
    case FieldDescriptor::TYPE_INT32:
      return FieldKind::kInt32;
    case FieldDescriptor::TYPE_FIXED64:
      return FieldKind::kFixed64;
    case FieldDescriptor::TYPE_FIXED32:
      return FieldKind::kFixed32;
    case FieldDescriptor::TYPE_BOOL:
      return FieldKind::kBool;
    case FieldDescriptor::TYPE_STRING:
      return FieldKind::kString;
    case FieldDescriptor::TYPE_GROUP:
      return std::nullopt;
    case FieldDescriptor::TYPE_MESSAGE:
      return FieldKind::kMessage;
    case FieldDescriptor::TYPE_BYTES:
      return FieldKind::kBytes;
    case FieldDescriptor::TYPE_UINT32:
      return FieldKind::kUint32;
    case FieldDescriptor::TYPE_ENUM:
      return FieldKind::kEnum;
    case FieldDescriptor::TYPE_SFIXED32:
      return FieldKind::kSfixed32;
    case FieldDescriptor::TYPE_SFIXED64:
      return FieldKind::kSfixed64;
    case FieldDescriptor::TYPE_SINT32:
      return FieldKind::kSint32;
    case FieldDescriptor::TYPE_SINT64:
      return FieldKind::kSint64;
  }
  return std::nullopt;
}

bool IsProto3(const FileDescriptor& file) {
  return file.syntax() == FileDescriptor::SYNTAX_PROTO3;
}

// The enum's numbers, sorted and unique, each named as text format names it
// (the first value declared with that number).
wire::EnumDef MakeEnumDef(const EnumDescriptor& descriptor, bool closed) {
  wire::EnumDef def;
  def.name = descriptor.full_name();
  def.closed = closed;
  for (int i = 0; i < descriptor.value_count(); ++i) {
    def.values.push_back(descriptor.value(i)->number());
  }
  std::sort(def.values.begin(), def.values.end());
  def.values.erase(std::unique(def.values.begin(), def.values.end()),
                   def.values.end());
  def.value_names.reserve(def.values.size());
  for (std::int32_t value : def.values) {
    def.value_names.push_back(descriptor.FindValueByNumber(value)->name());
  }
  return def;
}

// Walks the types reachable from a root, assigning indices as it goes.
class Collector {
 public:
  std::optional<DescriptorSchema> Run(const Descriptor& root,
                                      std::string* error) {
    MessageIndex(root);
    // messages_ grows while it is walked.
    for (std::size_t i = 0; i < messages_.size(); ++i) {
      const Descriptor& message = *messages_[i];
      std::vector<const FieldDescriptor*> fields;
      for (int f = 0; f < message.field_count(); ++f) {
        fields.push_back(message.field(f));
      }
      std::sort(fields.begin(), fields.end(),
                [](const FieldDescriptor* a, const FieldDescriptor* b) {
                  return a->number() < b->number();
                });
      for (const FieldDescriptor* field : fields) {
        std::optional<wire::FieldDef> def = MakeFieldDef(*field, error);
        if (!def) return std::nullopt;
        builder_.AddField(static_cast<std::int32_t>(i), std::move(*def));
      }
    }
    wire::SchemaError schema_error;
    std::optional<wire::Schema> schema =
        std::move(builder_).Build(&schema_error);
    if (!schema) {
      if (error != nullptr) {
        *error = root.full_name() + ": " + schema_error.message;
      }
      return std::nullopt;
    }
    return DescriptorSchema{std::move(*schema), std::move(messages_),
                            std::move(enums_)};
  }

 private:
  std::int32_t MessageIndex(const Descriptor& message) {
    auto [it, inserted] = message_index_.try_emplace(
        &message, static_cast<std::int32_t>(messages_.size()));
    if (inserted) {
      messages_.push_back(&message);
      builder_.AddMessage(message.full_name());
    }
    return it->second;
  }

  std::int32_t EnumIndex(const EnumDescriptor& descriptor, bool closed) {
    auto [it, inserted] =
        enum_index_.try_emplace(std::make_pair(&descriptor, closed),
                                static_cast<std::int32_t>(enums_.size()));
    if (inserted) {
      enums_.push_back(&descriptor);
      builder_.AddEnum(MakeEnumDef(descriptor, closed));
    }
    return it->second;
  }

  std::optional<wire::FieldDef> MakeFieldDef(const FieldDescriptor& field,
                                             std::string* error) {
    std::optional<FieldKind> kind = KindOf(field.type());
    if (!kind) {
      if (error != nullptr) {
        *error = field.full_name() +
                 ": group fields are not supported by fairwire::wire";
      }
      return std::nullopt;
    }
    const bool proto3 = IsProto3(*field.file());
    wire::FieldDef def;
    def.number = static_cast<std::uint32_t>(field.number());
    def.name = field.name();
    def.kind = *kind;
    def.repeated = field.is_repeated();
    def.packed = field.is_packed();
    def.validate_utf8 = *kind == FieldKind::kString && proto3;
    def.has_presence = field.is_repeated() || field.has_presence();
    if (*kind == FieldKind::kEnum) {
      def.enum_index = EnumIndex(*field.enum_type(), /*closed=*/!proto3);
    } else if (*kind == FieldKind::kMessage) {
      def.message_index = MessageIndex(*field.message_type());
    }
    return def;
  }

  wire::SchemaBuilder builder_;
  std::vector<const Descriptor*> messages_;
  std::vector<const EnumDescriptor*> enums_;
  std::map<const Descriptor*, std::int32_t> message_index_;
  std::map<std::pair<const EnumDescriptor*, bool>, std::int32_t> enum_index_;
};

}  // namespace

std::optional<DescriptorSchema> BuildDescriptorSchema(const Descriptor& root,
                                                      std::string* error) {
  return Collector().Run(root, error);
}

std::optional<wire::Schema> SchemaFromDescriptor(const Descriptor& root,
                                                 std::int32_t* root_index,
                                                 std::string* error) {
  std::optional<DescriptorSchema> built = BuildDescriptorSchema(root, error);
  if (!built) return std::nullopt;
  if (root_index != nullptr) *root_index = 0;
  return std::move(built->schema);
}

}  // namespace fairwire::protobuf
