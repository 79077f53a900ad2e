// The subject's fairwire schema unrolled kTypedDepth levels deep, as the
// typed structs are (TypedSchema in wire_typed_subjects.h).
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "fairwire/checks/wire_typed_subjects.h"
#include "wire_typed_internal.h"

namespace fairwire::wire::oracle {
namespace {

// Copies `full`'s message types reachable from message 0 as the typed structs
// see them: type t at R levels above the bottom is (t, R); its message
// fields point to (u, R - 1) and are left out at R == 0.
class Unroller {
 public:
  explicit Unroller(const wire::Schema& full) : full_(full) {
    for (const EnumDef& e : full.enums()) builder_.AddEnum(e);
  }

  std::int32_t Add(std::int32_t type, int levels) {
    const auto key = std::make_pair(type, levels);
    if (const auto it = made_.find(key); it != made_.end()) return it->second;
    const MessageDef& def = full_.messages()[static_cast<std::size_t>(type)];
    std::string name = def.name;
    if (levels != kTypedDepth) {
      name += '@';
      name += std::to_string(levels);
    }
    const std::int32_t index = builder_.AddMessage(std::move(name));
    made_.emplace(key, index);
    for (FieldDef field : def.fields) {
      if (field.kind == FieldKind::kMessage) {
        if (levels == 0) continue;
        field.message_index = Add(field.message_index, levels - 1);
      }
      builder_.AddField(index, std::move(field));
    }
    return index;
  }

  std::optional<wire::Schema> Build(SchemaError* error) {
    return std::move(builder_).Build(error);
  }

 private:
  const wire::Schema& full_;
  SchemaBuilder builder_;
  std::map<std::pair<std::int32_t, int>, std::int32_t> made_;
};

struct TypedSchemas {
  std::array<std::optional<wire::Schema>, kFixedCount> schemas;
  std::array<std::string, kFixedCount> errors;
};

const TypedSchemas& AllTypedSchemas() {
  static const TypedSchemas* const all = [] {
    auto* t = new TypedSchemas();
    for (int i = 0; i < kFixedCount; ++i) {
      const Subject& subject = FixedSubject(static_cast<Fixed>(i));
      if (!subject.fairwire) {
        t->errors[i] = "adapter refused " + subject.name;
        continue;
      }
      Unroller unroller(*subject.fairwire);
      unroller.Add(0, kTypedDepth);
      SchemaError error;
      t->schemas[i] = unroller.Build(&error);
      t->errors[i] = error.message;
    }
    return t;
  }();
  return *all;
}

}  // namespace

namespace typed_internal {

std::optional<std::string> TypedSchemaProblem(Fixed which) {
  const auto i = static_cast<std::size_t>(which);
  if (AllTypedSchemas().schemas[i]) return std::nullopt;
  return "typed-schema-refused: " + AllTypedSchemas().errors[i];
}

}  // namespace typed_internal

const wire::Schema& TypedSchema(Fixed which) {
  return *AllTypedSchemas().schemas[static_cast<std::size_t>(which)];
}

}  // namespace fairwire::wire::oracle
