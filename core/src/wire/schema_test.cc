// SchemaBuilder rejects misuse when the schema is built; lookups are exact.
#include "fairwire/wire/schema.h"

#include <gtest/gtest.h>

#include "test_schema.h"

namespace fairwire::wire {
namespace {

std::optional<Schema> BuildOne(FieldDef field, SchemaError* error,
                               FieldDef second = {}) {
  SchemaBuilder b;
  b.AddEnum({"e", true, {0, 1}, {"A", "B"}});
  const std::int32_t m = b.AddMessage("m");
  b.AddField(m, std::move(field));
  if (second.number != 0) b.AddField(m, std::move(second));
  return std::move(b).Build(error);
}

TEST(SchemaTest, BuildRejectsDuplicateFieldNumbers) {
  SchemaError error;
  EXPECT_FALSE(
      BuildOne({.number = 3, .name = "a"}, &error, {.number = 3, .name = "b"}));
  EXPECT_NE(error.message.find("duplicate"), std::string::npos);
}

TEST(SchemaTest, BuildRejectsOutOfRangeFieldNumbers) {
  SchemaError error;
  EXPECT_FALSE(BuildOne({.number = 0, .name = "a"}, &error));
  EXPECT_FALSE(BuildOne({.number = 1u << 29, .name = "a"}, &error));
  EXPECT_TRUE(BuildOne({.number = (1u << 29) - 1, .name = "a"}, &error));
}

TEST(SchemaTest, BuildRejectsPackedStringAndPackedSingular) {
  SchemaError error;
  EXPECT_FALSE(BuildOne({.number = 1,
                         .name = "x",
                         .kind = FieldKind::kString,
                         .repeated = true,
                         .packed = true},
                        &error));
  EXPECT_FALSE(BuildOne(
      {.number = 1, .name = "x", .kind = FieldKind::kInt32, .packed = true},
      &error));
}

TEST(SchemaTest, BuildRejectsUtf8OnNonString) {
  SchemaError error;
  EXPECT_FALSE(BuildOne({.number = 1,
                         .name = "x",
                         .kind = FieldKind::kBytes,
                         .validate_utf8 = true},
                        &error));
}

TEST(SchemaTest, BuildRejectsDanglingIndices) {
  SchemaError error;
  EXPECT_FALSE(BuildOne(
      {.number = 1, .name = "x", .kind = FieldKind::kEnum, .enum_index = 5},
      &error));
  EXPECT_FALSE(
      BuildOne({.number = 1, .name = "x", .kind = FieldKind::kEnum}, &error));
  EXPECT_FALSE(BuildOne({.number = 1,
                         .name = "x",
                         .kind = FieldKind::kMessage,
                         .message_index = 9},
                        &error));
  EXPECT_FALSE(BuildOne(
      {.number = 1, .name = "x", .kind = FieldKind::kInt32, .message_index = 0},
      &error));
}

TEST(SchemaTest, BuildRejectsUnsortedEnumValues) {
  SchemaBuilder b;
  b.AddEnum({"e", true, {1, 0}, {"B", "A"}});
  SchemaError error;
  EXPECT_FALSE(std::move(b).Build(&error));
  EXPECT_NE(error.message.find("sorted"), std::string::npos);
}

TEST(SchemaTest, FieldsAreSortedAndFoundDenseAndSparse) {
  SchemaBuilder b;
  const std::int32_t m = b.AddMessage("m");
  b.AddField(m, {.number = 100000, .name = "far"});
  b.AddField(m, {.number = 2, .name = "two"});
  b.AddField(m, {.number = 255, .name = "edge"});
  std::optional<Schema> schema = std::move(b).Build();
  ASSERT_TRUE(schema);
  EXPECT_EQ(schema->messages()[0].fields[0].name, "two");
  EXPECT_EQ(schema->FindField(m, 2)->name, "two");
  EXPECT_EQ(schema->FindField(m, 255)->name, "edge");
  EXPECT_EQ(schema->FindField(m, 100000)->name, "far");
  EXPECT_EQ(schema->FindField(m, 1), nullptr);
  EXPECT_EQ(schema->FindField(m, 3), nullptr);
  EXPECT_EQ(schema->FindField(m, 99999), nullptr);
  EXPECT_EQ(schema->FindField(m, 1u << 28), nullptr);
  EXPECT_EQ(schema->FindMessage("m"), m);
  EXPECT_EQ(schema->FindMessage("n"), -1);
}

TEST(SchemaTest, EnumContainsExactValues) {
  const Schema schema = testing::MakeTestSchema();
  EXPECT_TRUE(schema.EnumContains(0, -1));
  EXPECT_TRUE(schema.EnumContains(0, 1000000));
  EXPECT_FALSE(schema.EnumContains(0, 3));
  EXPECT_FALSE(schema.EnumContains(1, 2));
}

TEST(SchemaTest, KindFacts) {
  EXPECT_EQ(ToString(FieldKind::kSfixed64), "sfixed64");
  EXPECT_EQ(NaturalWireType(FieldKind::kFloat), WireType::kI32);
  EXPECT_EQ(NaturalWireType(FieldKind::kSint64), WireType::kVarint);
  EXPECT_TRUE(IsPackable(FieldKind::kEnum));
  EXPECT_FALSE(IsPackable(FieldKind::kBytes));
}

}  // namespace
}  // namespace fairwire::wire
