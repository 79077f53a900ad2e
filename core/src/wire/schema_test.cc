// SchemaBuilder rejects misuse when the schema is built; lookups are exact.
#include "fairwire/wire/schema.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/wire/internal/access.h"
#include "fairwire/wire/internal/enum_bitmap.h"
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

// A field's kind is one of FieldKind's: a value cast from anything else (a
// table from a newer or corrupt source) is refused when the schema is built,
// not left for the decoder to meet.
TEST(SchemaTest, BuildRejectsAKindOutsideFieldKind) {
  SchemaError error;
  EXPECT_FALSE(BuildOne({.number = 1,
                         .name = "x",
                         .kind = static_cast<FieldKind>(
                             static_cast<unsigned>(FieldKind::kMessage) + 1)},
                        &error));
  EXPECT_NE(error.message.find("kind 17 is none of FieldKind's"),
            std::string::npos)
      << error.message;
  EXPECT_FALSE(BuildOne(
      {.number = 1, .name = "x", .kind = static_cast<FieldKind>(200)}, &error));
  EXPECT_TRUE(BuildOne({.number = 1,
                        .name = "x",
                        .kind = FieldKind::kMessage,
                        .message_index = 0},
                       &error))
      << error.message;
}

TEST(SchemaTest, BuildRejectsDuplicateEnumValues) {
  SchemaBuilder b;
  b.AddEnum({"e", true, {0, 1, 1}, {"A", "B", "C"}});
  SchemaError error;
  EXPECT_FALSE(std::move(b).Build(&error));
  EXPECT_NE(error.message.find("unique"), std::string::npos);
}

// Implicit presence is for singular scalar and string fields only: a repeated
// field or a message field without presence is refused (each on its own).
TEST(SchemaTest, BuildRejectsImplicitPresenceOnRepeatedOrMessageFields) {
  SchemaError error;
  EXPECT_FALSE(BuildOne({.number = 1,
                         .name = "x",
                         .kind = FieldKind::kInt32,
                         .repeated = true,
                         .has_presence = false},
                        &error));
  EXPECT_NE(error.message.find("implicit presence"), std::string::npos);
  EXPECT_FALSE(BuildOne({.number = 1,
                         .name = "x",
                         .kind = FieldKind::kMessage,
                         .has_presence = false,
                         .message_index = 0},
                        &error));
  EXPECT_NE(error.message.find("implicit presence"), std::string::npos);
  EXPECT_TRUE(BuildOne({.number = 1,
                        .name = "x",
                        .kind = FieldKind::kInt32,
                        .has_presence = false},
                       &error));
}

// BuildOne's schema has one enum and one message: index 0 is the last valid
// one, index 1 (the count) already dangles.
TEST(SchemaTest, BuildRejectsIndicesEqualToTheCount) {
  SchemaError error;
  EXPECT_TRUE(BuildOne(
      {.number = 1, .name = "x", .kind = FieldKind::kEnum, .enum_index = 0},
      &error));
  EXPECT_FALSE(BuildOne(
      {.number = 1, .name = "x", .kind = FieldKind::kEnum, .enum_index = 1},
      &error));
  EXPECT_NE(error.message.find("bad enum_index"), std::string::npos);
  EXPECT_TRUE(BuildOne({.number = 1,
                        .name = "x",
                        .kind = FieldKind::kMessage,
                        .message_index = 0},
                       &error));
  EXPECT_FALSE(BuildOne({.number = 1,
                         .name = "x",
                         .kind = FieldKind::kMessage,
                         .message_index = 1},
                        &error));
  EXPECT_NE(error.message.find("bad message_index"), std::string::npos);
}

// Fields are sorted stably: of two fields sharing a number, the one added
// first is checked first, so its error is the one reported.
TEST(SchemaTest, BuildChecksFieldsSharingANumberInTheOrderAdded) {
  SchemaError error;
  EXPECT_FALSE(BuildOne(
      {.number = 3, .name = "first", .kind = FieldKind::kInt32, .packed = true},
      &error,
      {.number = 3,
       .name = "second",
       .kind = FieldKind::kInt32,
       .validate_utf8 = true}));
  EXPECT_NE(error.message.find("m.first (3): packed"), std::string::npos)
      << error.message;
}

// Build refuses a message of 65535 fields or more ("too many fields") and
// takes one of 65534.
TEST(SchemaTest, BuildRejectsAMessageOf65535Fields) {
  for (const std::uint32_t count : {0xFFFEu, 0xFFFFu}) {
    SchemaBuilder b;
    const std::int32_t m = b.AddMessage("m");
    for (std::uint32_t number = 1; number <= count; ++number) {
      b.AddField(m, {.number = number, .name = "f"});
    }
    SchemaError error;
    const std::optional<Schema> schema = std::move(b).Build(&error);
    EXPECT_EQ(schema.has_value(), count < 0xFFFF) << count;
    if (!schema) {
      EXPECT_NE(error.message.find("too many fields"), std::string::npos);
    }
  }
}

// Field numbers on both sides of the dense table's end (256) are found: 255
// through the table, 256 by the binary search.
TEST(SchemaTest, FieldsAroundTheDenseTableEndAreFound) {
  SchemaBuilder b;
  const std::int32_t m = b.AddMessage("m");
  b.AddField(m, {.number = 256, .name = "past"});
  b.AddField(m, {.number = 255, .name = "last"});
  b.AddField(m, {.number = 1, .name = "first"});
  std::optional<Schema> schema = std::move(b).Build();
  ASSERT_TRUE(schema);
  EXPECT_EQ(schema->FindField(m, 1)->name, "first");
  EXPECT_EQ(schema->FindField(m, 255)->name, "last");
  EXPECT_EQ(schema->FindField(m, 256)->name, "past");
  EXPECT_EQ(schema->FindField(m, 254), nullptr);
  EXPECT_EQ(schema->FindField(m, 257), nullptr);
}

// An enum's bitmap starts at its smallest value and ends at the last value
// within 4096 of it (rounded up to 64 bits, never further: the size decides
// whether the AVX-512 check can hold it); values past that are far values.
// Membership is exact on both sides of every boundary.
TEST(SchemaTest, EnumBitmapEndsAtTheLastValueWithin4096OfTheFirst) {
  SchemaBuilder b;
  // Offsets 0, 63 and 4096: one 64-bit word, 4096 far.
  b.AddEnum({"a", true, {0, 63, 4096}, {"A", "B", "C"}});
  // Offsets 0, 4095 and 4096: the full 4096 bits, 4091 far.
  b.AddEnum({"b", true, {-5, 4090, 4091}, {"A", "B", "C"}});
  const std::optional<Schema> schema = std::move(b).Build();
  ASSERT_TRUE(schema);
  const internal::EnumBitmap& a = internal::SchemaAccess::Bitmap(*schema, 0);
  EXPECT_EQ(a.base, 0);
  EXPECT_EQ(a.bits.size(), 1u);
  EXPECT_TRUE(a.outliers);
  EXPECT_EQ(a.far_values, std::vector<std::int32_t>{4096});
  const internal::EnumBitmap& c = internal::SchemaAccess::Bitmap(*schema, 1);
  EXPECT_EQ(c.base, -5);
  EXPECT_EQ(c.bits.size(), 64u);
  EXPECT_TRUE(c.outliers);
  EXPECT_EQ(c.far_values, std::vector<std::int32_t>{4091});
  for (std::int32_t enum_index = 0; enum_index < 2; ++enum_index) {
    const std::vector<std::int32_t>& values =
        schema->enums()[static_cast<std::size_t>(enum_index)].values;
    for (std::int32_t v = -8; v <= 4200; ++v) {
      const bool member =
          std::find(values.begin(), values.end(), v) != values.end();
      EXPECT_EQ(schema->EnumContains(enum_index, v), member)
          << "enum " << enum_index << " value " << v;
    }
  }
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
