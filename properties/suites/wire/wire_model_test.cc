// The reference model on its own, with exact bytes: the rules it must follow
// before it can judge the fast decoder (the differential suites then check
// it against libprotobuf on every input).
#include "fairwire/models/wire_model.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fairwire/models/wire_kept_messages.h"

namespace fairwire::wire::model {
namespace {

// message M { repeated int32 r = 1 [packed]; optional uint64 u = 2;
//             repeated E e = 3 (closed enum {0, 1}); optional string s = 4
//             (proto3 check); optional M child = 5; }
Schema TestSchema() {
  Schema s;
  s.enums.push_back({"E", true, {0, 1}, {"ZERO", "ONE"}});
  MessageType m;
  m.name = "M";
  m.fields = {{1, "r", Kind::kInt32, true, true},
              {2, "u", Kind::kUint64},
              {3, "e", Kind::kEnum, true, false, false, true, 0},
              {4, "s", Kind::kString, false, false, true},
              {5, "child", Kind::kMessage, false, false, false, true, -1, 0}};
  s.messages.push_back(m);
  return s;
}

std::string Canonical(const std::string& bytes, Status* status = nullptr) {
  const Schema schema = TestSchema();
  Message m;
  const Status st =
      Decode(schema, 0,
             std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                       bytes.size()),
             m);
  if (status != nullptr) *status = st;
  return st.ok ? Serialize(schema, m) : "rejected: " + st.reason;
}

TEST(WireModel, PackedAndUnpackedConcatenateInWireOrder) {
  // packed [1, 2], unpacked 3, packed [4] -> one packed record [1, 2, 3, 4].
  EXPECT_EQ(Canonical(std::string("\x0a\x02\x01\x02\x08\x03\x0a\x01\x04", 9)),
            std::string("\x0a\x04\x01\x02\x03\x04", 6));
}

TEST(WireModel, TenthVarintByteDropsHighBits) {
  EXPECT_EQ(Canonical("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f"),
            "\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
}

TEST(WireModel, ElevenByteVarintIsAnError) {
  EXPECT_EQ(Canonical("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"),
            "rejected: varint too long");
}

TEST(WireModel, ClosedEnumUnknownKeeps64BitsPackedAnd32Unpacked) {
  // 2^32 + 5 unpacked -> unknown 5; packed -> unknown 2^32 + 5; 1 is known.
  EXPECT_EQ(Canonical("\x18\x85\x80\x80\x80\x10\x18\x01"), "\x18\x01\x18\x05");
  EXPECT_EQ(Canonical("\x1a\x06\x85\x80\x80\x80\x10\x01"),
            "\x18\x01\x18\x85\x80\x80\x80\x10");
}

TEST(WireModel, WrongWireTypeGoesToUnknownFieldsAfterKnownOnes) {
  // u (varint) as fixed32, then r = 7: r first, the unknown i32 record after.
  EXPECT_EQ(Canonical(std::string("\x15\x01\x00\x00\x00\x08\x07", 7)),
            std::string("\x0a\x01\x07\x15\x01\x00\x00\x00", 8));
}

TEST(WireModel, DepthOf100IsAcceptedAnd101Rejected) {
  // Unknown groups (field 20) nest like messages.
  std::string groups;
  for (int i = 0; i < 100; ++i) groups = "\xa3\x01" + groups + "\xa4\x01";
  Status st;
  Canonical(groups, &st);
  EXPECT_TRUE(st.ok) << st.reason;
  Canonical("\xa3\x01" + groups + "\xa4\x01", &st);
  EXPECT_FALSE(st.ok);
  EXPECT_EQ(st.reason, "depth exceeded");
}

TEST(WireModel, CheckedStringMustBeValidUtf8) {
  EXPECT_EQ(Canonical("\x22\x02\xc3\xa9"), "\x22\x02\xc3\xa9");
  EXPECT_EQ(Canonical("\x22\x03\xed\xa0\x80"), "rejected: invalid utf8");
  EXPECT_EQ(Canonical("\x22\x02\xc0\xaf"), "rejected: invalid utf8");
}

TEST(WireModel, SingularMessageMergesAndScalarLastWins) {
  // child {u: 1} child {r: [2]} u = 3 u = 4 -> u = 4, child {r: [2], u: 1}.
  EXPECT_EQ(Canonical("\x2a\x02\x10\x01\x2a\x03\x0a\x01\x02\x10\x03\x10\x04"),
            "\x10\x04\x2a\x05\x0a\x01\x02\x10\x01");
}

TEST(WireModel, FieldNumberZeroAndWireTypeSevenAreErrors) {
  EXPECT_EQ(Canonical(std::string("\x00\x01", 2)),
            "rejected: field number zero");
  EXPECT_EQ(Canonical("\x0f\x01"), "rejected: invalid wire type");
}

TEST(WireModel, ValidUtf8FollowsUnicodeTable3_7) {
  auto valid = [](std::vector<std::uint8_t> b) { return ValidUtf8(b); };
  EXPECT_TRUE(valid({}));
  EXPECT_TRUE(valid({'a', 0xc3, 0xa9}));         // é
  EXPECT_TRUE(valid({0xe2, 0x82, 0xac}));        // €
  EXPECT_TRUE(valid({0xf0, 0x9f, 0x98, 0x80}));  // U+1F600
  EXPECT_TRUE(valid({0xf4, 0x8f, 0xbf, 0xbf}));  // U+10FFFF
  EXPECT_FALSE(valid({0xff}));
  EXPECT_FALSE(valid({0xc0, 0x80}));              // overlong NUL
  EXPECT_FALSE(valid({0xe0, 0x80, 0x80}));        // overlong
  EXPECT_FALSE(valid({0xed, 0xa0, 0x80}));        // surrogate D800
  EXPECT_FALSE(valid({0xf4, 0x90, 0x80, 0x80}));  // above U+10FFFF
  EXPECT_FALSE(valid({0xe2, 0x82}));              // truncated
  EXPECT_FALSE(valid({0xc3, 0x28}));              // bad continuation
}

// A schema of one message type without fields: a message cleared to it
// keeps no field's memory.
Schema NoFieldsSchema() {
  Schema s;
  MessageType m;
  m.name = "Empty";
  s.messages.push_back(m);
  return s;
}

TEST(WireKeptMessages, EachSchemaKeepsItsMessageAndItsMemory) {
  const Schema schema = TestSchema();
  const Schema other = NoFieldsSchema();
  KeptMessages kept;
  Message& first = kept.Cleared(schema, 0);
  // r = [1, 1, ..., 1] (100 values, packed).
  std::vector<std::uint8_t> packed = {0x0a, 100};
  packed.insert(packed.end(), 100, 0x01);
  ASSERT_TRUE(Decode(schema, 0, packed, first).ok);
  ASSERT_EQ(first.fields[0].scalars.size(), 100u);

  // Another schema in between, as a fuzz target's other root.
  Message& between = kept.Cleared(other, 0);
  EXPECT_NE(&between, &first);
  EXPECT_TRUE(between.fields.empty());

  Message& again = kept.Cleared(schema, 0);
  EXPECT_EQ(&again, &first);
  EXPECT_EQ(again, EmptyMessage(schema, 0));            // cleared
  EXPECT_GE(again.fields[0].scalars.capacity(), 100u);  // its memory kept
}

TEST(WireKeptMessages, APairPastTheLastSlotsStartsCleared) {
  std::vector<Schema> schemas(KeptMessages::kSlots + 1, TestSchema());
  KeptMessages kept;
  for (const Schema& s : schemas) {
    Message& m = kept.Cleared(s, 0);
    m.fields[1].scalars.push_back(7);  // left dirty
  }
  // The first pair's slot went to the last one: handed out again, the
  // message is of the type asked for and empty.
  for (const Schema& s : schemas) {
    EXPECT_EQ(kept.Cleared(s, 0), EmptyMessage(s, 0));
  }
}

}  // namespace
}  // namespace fairwire::wire::model
