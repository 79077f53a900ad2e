#include "bench_schema.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

namespace fairwire::bench {
namespace {

using wire::FieldDef;
using wire::FieldKind;

// A repeated field of `kind` at number `number`.
FieldDef Repeated(std::uint32_t number, std::string name, FieldKind kind,
                  bool packed, std::int32_t enum_index = -1) {
  FieldDef f;
  f.number = number;
  f.name = std::move(name);
  f.kind = kind;
  f.repeated = true;
  f.packed = packed;
  f.enum_index = enum_index;
  return f;
}

// An optional (explicit presence, proto2) field.
FieldDef Optional(std::uint32_t number, std::string name, FieldKind kind) {
  FieldDef f;
  f.number = number;
  f.name = std::move(name);
  f.kind = kind;
  return f;
}

wire::Schema Build() {
  wire::SchemaBuilder b;
  const std::int32_t level =
      b.AddEnum({.name = "fairwire.bench.Level",
                 .closed = true,
                 .values = {0, 1, 2, 3, 4, 5, 6, 7, 100, 999, 70000},
                 .value_names = {"LEVEL_ZERO", "LEVEL_ONE", "LEVEL_TWO",
                                 "LEVEL_THREE", "LEVEL_FOUR", "LEVEL_FIVE",
                                 "LEVEL_SIX", "LEVEL_SEVEN", "LEVEL_HUNDRED",
                                 "LEVEL_THOUSAND_MINUS_ONE", "LEVEL_BIG"}});
  auto single = [&b](const char* message, FieldDef field) {
    b.AddField(b.AddMessage(message), std::move(field));
  };
  single("fairwire.bench.SeedInt64",
         Repeated(1, "values", FieldKind::kInt64, false));
  single("fairwire.bench.SeedString",
         Repeated(1, "values", FieldKind::kString, false));
  single("fairwire.bench.SeedEnum",
         Repeated(1, "values", FieldKind::kEnum, false, level));
  single("fairwire.bench.PackedInt64",
         Repeated(1, "values", FieldKind::kInt64, true));
  single("fairwire.bench.PackedSint32",
         Repeated(1, "values", FieldKind::kSint32, true));
  single("fairwire.bench.PackedFixed64",
         Repeated(1, "values", FieldKind::kFixed64, true));
  single("fairwire.bench.PackedEnum",
         Repeated(1, "values", FieldKind::kEnum, true, level));

  const std::int32_t mixed = b.AddMessage("fairwire.bench.Mixed");
  b.AddField(mixed, Optional(1, "id", FieldKind::kInt32));
  b.AddField(mixed, Optional(2, "name", FieldKind::kString));
  b.AddField(mixed, Optional(3, "score", FieldKind::kDouble));
  b.AddField(mixed, Optional(4, "active", FieldKind::kBool));
  b.AddField(mixed, Optional(5, "timestamp", FieldKind::kUint64));
  b.AddField(mixed, Repeated(6, "counts", FieldKind::kInt64, true));
  b.AddField(mixed, Repeated(7, "small", FieldKind::kInt32, false));
  b.AddField(mixed, Repeated(8, "weights", FieldKind::kDouble, true));
  b.AddField(mixed, Repeated(9, "tags", FieldKind::kString, false));
  b.AddField(mixed, Repeated(10, "levels", FieldKind::kEnum, true, level));
  b.AddField(mixed, Repeated(11, "hashes", FieldKind::kFixed32, false));
  b.AddField(mixed, Repeated(12, "deltas", FieldKind::kSint64, true));

  wire::SchemaError error;
  std::optional<wire::Schema> schema = std::move(b).Build(&error);
  if (!schema) {
    std::fprintf(stderr, "bench schema refused: %s\n", error.message.c_str());
    return wire::Schema();
  }
  return *std::move(schema);
}

}  // namespace

const wire::Schema& BenchSchema() {
  static const wire::Schema schema = Build();
  return schema;
}

}  // namespace fairwire::bench
