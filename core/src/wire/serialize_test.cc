// Serialize writes what libprotobuf 3.21's SerializeToString writes.
#include "fairwire/wire/serialize.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/wire/decoder.h"
#include "fairwire/wire/writer.h"
#include "test_schema.h"

namespace fairwire::wire {
namespace {

using testing::B;

std::string Reserialize(const Schema& schema,
                        const std::vector<std::uint8_t>& input) {
  Message msg(schema, testing::kRoot);
  const DecodeStatus status = Decode(input, msg);
  EXPECT_TRUE(status.ok()) << ToString(status);
  return Serialize(msg);
}

TEST(SerializeTest, KnownFieldsInNumberOrderThenUnknownFields) {
  const Schema schema = testing::MakeTestSchema();
  // unknown 50, field 3, field 1: known ones sorted, unknown after.
  EXPECT_EQ(Reserialize(schema, B({0x90, 0x03, 0x01, 0x18, 0x02, 0x08, 0x07})),
            std::string("\x08\x07\x18\x02\x90\x03\x01", 7));
}

TEST(SerializeTest, PackedExactlyWhenDeclared) {
  const Schema schema = testing::MakeTestSchema();
  // Field 2 (declared packed) arrives unpacked; field 3 (unpacked) packed.
  EXPECT_EQ(
      Reserialize(schema, B({0x10, 0x01, 0x10, 0x02, 0x1A, 0x02, 0x02, 0x04})),
      std::string("\x12\x02\x01\x02\x18\x02\x18\x04", 8));
}

TEST(SerializeTest, OverlongVarintsAndTagsBecomeCanonical) {
  const Schema schema = testing::MakeTestSchema();
  Writer w(Padding{.tag_bytes = 5, .length_bytes = 5, .value_bytes = 10});
  w.WriteInt32(testing::kInt32, 1);
  w.WriteString(testing::kText2, "a");
  w.WriteUint64(77, 3);  // unknown, padded
  EXPECT_EQ(Reserialize(schema, B(w.data())),
            std::string("\x08\x01\x42\x01\x61\xE8\x04\x03", 8));
}

TEST(SerializeTest, NegativeInt32IsTenBytes) {
  const Schema schema = testing::MakeTestSchema();
  EXPECT_EQ(Reserialize(schema, B({0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F})),
            std::string("\x08\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 11));
}

TEST(SerializeTest, ImplicitPresenceZeroIsOmitted) {
  const Schema schema = testing::MakeTestSchema();
  // int64 0 (field 19), float +0.0 (17), empty proto3 string (9): omitted.
  EXPECT_EQ(Reserialize(schema, B({0x98, 0x01, 0x00, 0x8D, 0x01, 0, 0, 0, 0,
                                   0x4A, 0x00})),
            "");
  // -0.0 is not zero bitwise: written.
  EXPECT_EQ(Reserialize(schema, B({0x8D, 0x01, 0, 0, 0, 0x80})),
            std::string("\x8D\x01\x00\x00\x00\x80", 6));
}

TEST(SerializeTest, ExplicitPresenceZeroIsWritten) {
  const Schema schema = testing::MakeTestSchema();
  EXPECT_EQ(Reserialize(schema, B({0x08, 0x00})), std::string("\x08\x00", 2));
}

TEST(SerializeTest, NestedMessagesAndEmptyOnesAreWritten) {
  const Schema schema = testing::MakeTestSchema();
  EXPECT_EQ(Reserialize(schema, B({0x52, 0x00, 0x5A, 0x02, 0x08, 0x01})),
            std::string("\x52\x00\x5A\x02\x08\x01", 6));
}

TEST(SerializeTest, UnknownFixedLenAndGroupRecordsKeepTheirPayload) {
  const Schema schema = testing::MakeTestSchema();
  const auto input = B({0x9D, 0x03, 1,   2,   3,    4,    0x99, 0x03, 1,
                        2,    3,    4,   5,   6,    7,    8,    0x92, 0x03,
                        0x82, 0x00, 'x', 'y', 0x93, 0x03, 0x94, 0x03});
  EXPECT_EQ(Reserialize(schema, input),
            std::string("\x9D\x03\x01\x02\x03\x04\x99\x03\x01\x02\x03\x04\x05"
                        "\x06\x07\x08\x92\x03\x02xy\x93\x03\x94\x03",
                        25));
}

// A closed-enum value outside its enum goes to the unknown fields as a
// canonical varint record under the field's own number, whether it arrived
// unpacked or packed, for field numbers whose tags take three and five
// bytes (every tag byte's low bits kept), and is serialized back unchanged.
TEST(SerializeTest, UnknownClosedEnumValueKeepsItsWideFieldNumber) {
  SchemaBuilder b;
  const std::int32_t color = b.AddEnum({"t.Color", true, {0, 1}, {"A", "B"}});
  const std::int32_t m = b.AddMessage("t.Wide");
  constexpr std::uint32_t kNarrow = 2064;            // tag 80 81 01
  constexpr std::uint32_t kWidest = (1u << 29) - 1;  // tag F8 FF FF FF 0F
  for (const std::uint32_t number : {kNarrow, kWidest}) {
    b.AddField(m, {.number = number,
                   .name = "f" + std::to_string(number),
                   .kind = FieldKind::kEnum,
                   .repeated = true,
                   .enum_index = color});
  }
  const std::optional<Schema> schema = std::move(b).Build();
  ASSERT_TRUE(schema);
  const std::string want =
      std::string("\x80\x81\x01\x07\xF8\xFF\xFF\xFF\x0F\xAC\x02", 11);
  Writer unpacked;
  unpacked.WriteEnum(kNarrow, 7);
  unpacked.WriteEnum(kWidest, 300);
  ASSERT_EQ(unpacked.data(), want);
  Writer packed;
  packed.WritePacked(kNarrow, FieldKind::kEnum, std::vector<std::int32_t>{7});
  packed.WritePacked(kWidest, FieldKind::kEnum, std::vector<std::int32_t>{300});
  for (const std::string_view input : {unpacked.data(), packed.data()}) {
    Message msg(*schema, m);
    ASSERT_TRUE(Decode(B(input), msg).ok());
    EXPECT_EQ(msg.unknown_fields(), want);
    EXPECT_EQ(Serialize(msg), want);
  }
}

}  // namespace
}  // namespace fairwire::wire
