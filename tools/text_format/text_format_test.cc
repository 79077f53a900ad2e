// The text-format printer over hand-built schemas and messages: layout,
// field order, presence, enum names, escaping. What protoc prints for the
// same contents is checked end to end by text_format_diff_test and the
// decode.matches_protoc ctest.
#include "fairwire/text_format/text_format.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "fairwire/wire/decoder.h"

namespace fairwire::wire {
namespace {

// t.M: a proto2-style message (explicit presence) with a nested t.M child,
// and t.P: a proto3-style one (implicit presence).
Schema MakeSchema() {
  SchemaBuilder b;
  const std::int32_t color = b.AddEnum(
      {"t.Color", /*closed=*/false, {-1, 0, 2}, {"NEG", "ZERO", "TWO"}});
  const std::int32_t m = b.AddMessage("t.M");
  const std::int32_t p = b.AddMessage("t.P");
  b.AddField(m, {.number = 1, .name = "i32", .kind = FieldKind::kInt32});
  b.AddField(m, {.number = 2, .name = "u64", .kind = FieldKind::kUint64});
  b.AddField(m, {.number = 3, .name = "flag", .kind = FieldKind::kBool});
  b.AddField(m, {.number = 4,
                 .name = "color",
                 .kind = FieldKind::kEnum,
                 .repeated = true,
                 .enum_index = color});
  b.AddField(m, {.number = 5, .name = "text", .kind = FieldKind::kString});
  b.AddField(m, {.number = 6,
                 .name = "floats",
                 .kind = FieldKind::kFloat,
                 .repeated = true,
                 .packed = true});
  b.AddField(m, {.number = 7,
                 .name = "child",
                 .kind = FieldKind::kMessage,
                 .message_index = m});
  b.AddField(m, {.number = 8, .name = "s64", .kind = FieldKind::kSint64});
  b.AddField(p, {.number = 1,
                 .name = "n",
                 .kind = FieldKind::kInt32,
                 .has_presence = false});
  b.AddField(p, {.number = 2,
                 .name = "d",
                 .kind = FieldKind::kDouble,
                 .has_presence = false});
  b.AddField(p, {.number = 3,
                 .name = "s",
                 .kind = FieldKind::kString,
                 .validate_utf8 = true,
                 .has_presence = false});
  b.AddField(p, {.number = 4,
                 .name = "e",
                 .kind = FieldKind::kEnum,
                 .has_presence = false,
                 .enum_index = color});
  b.AddField(p, {.number = 5,
                 .name = "b",
                 .kind = FieldKind::kBool,
                 .has_presence = false});
  SchemaError error;
  std::optional<Schema> schema = std::move(b).Build(&error);
  EXPECT_TRUE(schema.has_value()) << error.message;
  return std::move(*schema);
}

class TextFormatTest : public ::testing::Test {
 protected:
  // Decodes `bytes` as message `index` and prints it.
  std::string Print(std::int32_t index, const std::string& bytes) {
    Message message(schema_, index);
    const DecodeStatus status =
        Decode(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                         bytes.size()),
               message);
    EXPECT_TRUE(status.ok()) << ToString(status);
    return ToTextFormat(message);
  }

  Schema schema_ = MakeSchema();
};

TEST_F(TextFormatTest, EmptyMessagePrintsNothing) {
  EXPECT_EQ(Print(0, ""), "");
}

TEST_F(TextFormatTest, FieldsPrintInNumberOrderThenUnknownInWireOrder) {
  EXPECT_EQ(Print(0, std::string("\x78\x05"   // 15: 5 (unknown)
                                 "\x40\x03"   // s64: -2
                                 "\x08\x07"   // i32: 7
                                 "\x70\x01",  // 14: 1 (unknown)
                                 8)),
            "i32: 7\ns64: -2\n15: 5\n14: 1\n");
}

TEST_F(TextFormatTest, ExtremeIntegersPrintInDecimal) {
  EXPECT_EQ(Print(0, std::string("\x08\x80\x80\x80\x80\xf8\xff\xff\xff\xff\x01"
                                 "\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"
                                 "\x40\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
                                 33)),
            "i32: -2147483648\nu64: 18446744073709551615\n"
            "s64: -9223372036854775808\n");
}

TEST_F(TextFormatTest, BoolPrintsTrueOrFalse) {
  EXPECT_EQ(Print(0, "\x18\x02"), "flag: true\n");
  EXPECT_EQ(Print(0, std::string("\x18\x00", 2)), "flag: false\n");
}

TEST_F(TextFormatTest, RepeatedFieldPrintsOneLinePerElement) {
  EXPECT_EQ(
      Print(0, std::string("\x32\x08\x00\x00\xc0\x3f\x00\x00\x80\x7f", 10)),
      "floats: 1.5\nfloats: inf\n");
}

TEST_F(TextFormatTest, EnumPrintsItsNameOrItsNumberWhenUnnamed) {
  EXPECT_EQ(Print(0, std::string("\x20\x02\x20\x05\x20\xff\xff\xff\xff\xff"
                                 "\xff\xff\xff\xff\x01",
                                 15)),
            "color: TWO\ncolor: 5\ncolor: NEG\n");
}

TEST_F(TextFormatTest, StringsAreCEscapedInDoubleQuotes) {
  EXPECT_EQ(Print(0, std::string("\x2a\x06q\"\n\x00\xc3\xa9", 8)),
            "text: \"q\\\"\\n\\000\\303\\251\"\n");
}

TEST_F(TextFormatTest, NestedMessagesIndentByTwoSpaces) {
  EXPECT_EQ(Print(0, "\x3a\x06\x08\x01\x3a\x02\x78\x01\x08\x08"),
            "i32: 8\nchild {\n  i32: 1\n  child {\n    15: 1\n  }\n}\n");
}

TEST_F(TextFormatTest, EmptyNestedMessagePrintsAnEmptyBlock) {
  EXPECT_EQ(Print(0, std::string("\x3a\x00", 2)), "child {\n}\n");
}

TEST_F(TextFormatTest, ExplicitPresenceZeroValuesPrint) {
  EXPECT_EQ(Print(0, std::string("\x08\x00\x2a\x00", 4)),
            "i32: 0\ntext: \"\"\n");
}

TEST_F(TextFormatTest, ImplicitPresenceZeroValuesAreOmitted) {
  EXPECT_EQ(Print(1, std::string("\x08\x00"
                                 "\x11\x00\x00\x00\x00\x00\x00\x00\x00"
                                 "\x1a\x00\x20\x00\x28\x00",
                                 17)),
            "");
}

TEST_F(TextFormatTest, ImplicitPresenceNegativeZeroDoublePrints) {
  EXPECT_EQ(Print(1, std::string("\x11\x00\x00\x00\x00\x00\x00\x00\x80", 9)),
            "d: -0\n");
}

TEST_F(TextFormatTest, ImplicitPresenceNonZeroValuesPrint) {
  EXPECT_EQ(Print(1, std::string("\x08\x05\x1a\x01x\x20\x02\x28\x01", 9)),
            "n: 5\ns: \"x\"\ne: TWO\nb: true\n");
}

TEST_F(TextFormatTest, UnknownFieldsOfNestedMessagesStayInsideTheirBlock) {
  EXPECT_EQ(Print(0, "\x3a\x04\x7a\x02\x08\x01"),
            "child {\n  15 {\n    1: 1\n  }\n}\n");
}

}  // namespace
}  // namespace fairwire::wire
