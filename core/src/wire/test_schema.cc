#include "test_schema.h"

#include <cstdlib>

namespace fairwire::wire::testing {

Schema MakeTestSchema() {
  SchemaBuilder b;
  const std::int32_t color =
      b.AddEnum({"t.Color",
                 true,
                 {-1, 0, 1, 2, 1000000},
                 {"NEG", "RED", "GREEN", "BLUE", "LARGE"}});
  const std::int32_t shade = b.AddEnum({"t.Shade", false, {0, 1}, {"A", "B"}});
  const std::int32_t m = b.AddMessage("t.M");
  const std::int32_t n = b.AddMessage("t.N");
  auto add = [&](std::uint32_t number, FieldKind kind, bool repeated,
                 bool packed = false) {
    FieldDef f;
    f.number = number;
    f.name = "f" + std::to_string(number);
    f.kind = kind;
    f.repeated = repeated;
    f.packed = packed;
    if (kind == FieldKind::kEnum) f.enum_index = color;
    if (kind == FieldKind::kMessage) f.message_index = n;
    return f;
  };
  b.AddField(m, add(kInt32, FieldKind::kInt32, false));
  b.AddField(m, add(kPackedInt64, FieldKind::kInt64, true, true));
  b.AddField(m, add(kSint32, FieldKind::kSint32, true));
  b.AddField(m, add(kBool, FieldKind::kBool, true));
  b.AddField(m, add(kColors, FieldKind::kEnum, true));
  b.AddField(m, add(kFixed32, FieldKind::kFixed32, true, true));
  b.AddField(m, add(kDoubles, FieldKind::kDouble, true));
  b.AddField(m, add(kText2, FieldKind::kString, false));
  FieldDef text3 = add(kText3, FieldKind::kString, false);
  text3.validate_utf8 = true;
  text3.has_presence = false;
  b.AddField(m, text3);
  b.AddField(m, add(kChild, FieldKind::kMessage, false));
  b.AddField(m, add(kChildren, FieldKind::kMessage, true));
  b.AddField(m, add(kUint32, FieldKind::kUint32, true));
  b.AddField(m, add(kSint64, FieldKind::kSint64, false));
  b.AddField(m, add(kColor, FieldKind::kEnum, false));
  FieldDef shades = add(kShades, FieldKind::kEnum, true);
  shades.enum_index = shade;
  b.AddField(m, shades);
  b.AddField(m, add(kBlobs, FieldKind::kBytes, true));
  FieldDef f17 = add(kFloat, FieldKind::kFloat, false);
  f17.has_presence = false;
  b.AddField(m, f17);
  FieldDef self = add(kSelf, FieldKind::kMessage, false);
  self.message_index = m;
  b.AddField(m, self);
  FieldDef f19 = add(kInt64, FieldKind::kInt64, false);
  f19.has_presence = false;
  b.AddField(m, f19);
  b.AddField(m, add(kFar, FieldKind::kFixed64, true));
  b.AddField(n, add(1, FieldKind::kInt32, false));
  b.AddField(n, add(2, FieldKind::kInt64, true));
  std::optional<Schema> schema = std::move(b).Build();
  if (!schema) std::abort();  // a bug in the test schema itself
  return *std::move(schema);
}

}  // namespace fairwire::wire::testing
