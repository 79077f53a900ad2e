#include "fairwire/wire/writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fairwire::wire {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

TEST(Writer, ScalarsUseNaturalWireTypes) {
  Writer w;
  w.WriteInt32(1, -1);
  w.WriteSint32(2, -1);
  w.WriteFixed32(3, 1);
  w.WriteDouble(4, 1.0);
  w.WriteString(5, "ab");
  EXPECT_EQ(w.data(), Bytes({0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                             0xFF, 0xFF, 0x01, 0x10, 0x01, 0x1D, 1,    0,
                             0,    0,    0x21, 0,    0,    0,    0,    0,
                             0,    0xF0, 0x3F, 0x2A, 0x02, 'a',  'b'}));
}

TEST(Writer, PackedUnpackedAndChunks) {
  const std::vector<std::int64_t> v = {1, 300, 2};
  Writer packed;
  packed.WritePacked(1, FieldKind::kInt64, std::span(v));
  EXPECT_EQ(packed.data(), Bytes({0x0A, 0x04, 0x01, 0xAC, 0x02, 0x02}));
  Writer unpacked;
  unpacked.WriteUnpacked(1, FieldKind::kInt64, std::span(v));
  EXPECT_EQ(unpacked.data(), Bytes({0x08, 0x01, 0x08, 0xAC, 0x02, 0x08, 0x02}));
  Writer chunks;
  const std::vector<std::size_t> sizes = {0, 2};
  chunks.WritePackedChunks(1, FieldKind::kInt64, std::span(v),
                           std::span(sizes));
  EXPECT_EQ(chunks.data(), Bytes({0x0A, 0x00, 0x0A, 0x03, 0x01, 0xAC, 0x02,
                                  0x0A, 0x01, 0x02}));
}

TEST(Writer, PaddingWritesOverlongButValidVarints) {
  Writer w(Padding{.tag_bytes = 2, .length_bytes = 3, .value_bytes = 10});
  const std::vector<std::uint32_t> v = {1};
  w.WritePacked(1, FieldKind::kUint32, std::span(v));
  EXPECT_EQ(w.data(), Bytes({0x8A, 0x00, 0x8A, 0x80, 0x00, 0x81, 0x80, 0x80,
                             0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}));
  Writer clamp(Padding{.tag_bytes = 9, .length_bytes = 9, .value_bytes = 0});
  clamp.WriteBytes(1, "");
  EXPECT_EQ(clamp.size(), 10u);  // tag and length clamped to 5 bytes each
}

// InsertLength writes a LEN record's payload in place: the same bytes as
// WriteLen of that payload, shortest or padded, and past the writer's first
// growth (a payload longer than its starting room, and a length of two
// bytes).
TEST(Writer, InsertLengthWritesWhatWriteLenWrites) {
  for (const Padding padding : {Padding{}, Padding{.length_bytes = 4}}) {
    for (const std::size_t size : {0u, 1u, 127u, 128u, 1000u}) {
      const std::string payload(size, 'x');
      Writer expected(padding);
      expected.WriteInt32(1, 7);
      expected.WriteLen(2, payload);
      expected.WriteInt32(3, 9);
      Writer w(padding);
      w.WriteInt32(1, 7);
      w.Tag(2, WireType::kLen);
      const std::size_t from = w.size();
      w.Raw(payload);
      w.InsertLength(from);
      w.WriteInt32(3, 9);
      EXPECT_EQ(w.data(), expected.data())
          << size << " bytes, length padded to " << padding.length_bytes;
      EXPECT_EQ(std::move(w).Take(), std::string(expected.data()));
    }
  }
}

// Raw of the writer's own bytes appends a copy of them, past a growth.
TEST(Writer, RawOfItsOwnBytesAppendsThem) {
  Writer w;
  w.Raw(std::string(100, 'a'));
  w.Raw(w.data());
  w.Raw(w.data().substr(0, 3));
  EXPECT_EQ(w.data(), std::string(203, 'a'));
}

TEST(Writer, PackedFixedKindsUseFixedWidth) {
  const std::vector<float> f = {1.0f, 2.0f};
  Writer w;
  w.WritePacked(7, FieldKind::kFloat, std::span(f));
  EXPECT_EQ(w.data(), Bytes({0x3A, 0x08, 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40}));
}

// Each typed setter writes one record of its own kind: the kind's wire type
// in the tag and the kind's encoding of the value (sign extension, zigzag,
// little-endian fixed widths), with a value that tells the kinds apart.
TEST(Writer, EveryTypedSetterWritesItsKind) {
  struct Case {
    const char* setter;
    void (*write)(Writer&);
    std::string want;
  };
  const std::vector<Case> cases = {
      {"WriteInt32", [](Writer& w) { w.WriteInt32(1, -2); },
       Bytes(
           {0x08, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01})},
      {"WriteInt64", [](Writer& w) { w.WriteInt64(1, -2); },
       Bytes(
           {0x08, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01})},
      {"WriteUint32", [](Writer& w) { w.WriteUint32(2, 300); },
       Bytes({0x10, 0xAC, 0x02})},
      {"WriteUint64", [](Writer& w) { w.WriteUint64(2, 1ull << 35); },
       Bytes({0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01})},
      {"WriteSint32", [](Writer& w) { w.WriteSint32(3, -3); },
       Bytes({0x18, 0x05})},
      {"WriteSint64", [](Writer& w) { w.WriteSint64(3, -3); },
       Bytes({0x18, 0x05})},
      {"WriteBool", [](Writer& w) { w.WriteBool(4, true); },
       Bytes({0x20, 0x01})},
      {"WriteEnum", [](Writer& w) { w.WriteEnum(4, 2); }, Bytes({0x20, 0x02})},
      {"WriteFixed32", [](Writer& w) { w.WriteFixed32(5, 0x01020304u); },
       Bytes({0x2D, 0x04, 0x03, 0x02, 0x01})},
      {"WriteFixed64",
       [](Writer& w) { w.WriteFixed64(5, 0x0102030405060708ull); },
       Bytes({0x29, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01})},
      {"WriteSfixed32", [](Writer& w) { w.WriteSfixed32(6, -2); },
       Bytes({0x35, 0xFE, 0xFF, 0xFF, 0xFF})},
      {"WriteSfixed64", [](Writer& w) { w.WriteSfixed64(6, -2); },
       Bytes({0x31, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})},
      {"WriteFloat", [](Writer& w) { w.WriteFloat(7, 1.5f); },
       Bytes({0x3D, 0x00, 0x00, 0xC0, 0x3F})},
      {"WriteDouble", [](Writer& w) { w.WriteDouble(7, 1.5); },
       Bytes({0x39, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F})},
      {"WriteBytes", [](Writer& w) { w.WriteBytes(8, "x"); },
       Bytes({0x42, 0x01, 'x'})},
      {"WriteMessage", [](Writer& w) { w.WriteMessage(8, ""); },
       Bytes({0x42, 0x00})},
  };
  for (const Case& c : cases) {
    Writer w;
    c.write(w);
    EXPECT_EQ(w.data(), c.want) << c.setter;
  }
}

// StartGroup and EndGroup write the tags of wire types 3 and 4, padded like
// every tag.
TEST(Writer, GroupDelimitersAreStartAndEndGroupTags) {
  Writer w;
  w.StartGroup(3);
  w.EndGroup(3);
  EXPECT_EQ(w.data(), Bytes({0x1B, 0x1C}));
  Writer padded(Padding{.tag_bytes = 2});
  padded.StartGroup(3);
  padded.EndGroup(3);
  EXPECT_EQ(padded.data(), Bytes({0x9B, 0x00, 0x9C, 0x00}));
}

// set_padding changes how the records written after it are padded, and
// padding() reports it.
TEST(Writer, SetPaddingAppliesToLaterRecords) {
  Writer w;
  w.WriteInt32(1, 1);
  w.set_padding(Padding{.tag_bytes = 2, .length_bytes = 2, .value_bytes = 3});
  EXPECT_EQ(w.padding().tag_bytes, 2);
  EXPECT_EQ(w.padding().length_bytes, 2);
  EXPECT_EQ(w.padding().value_bytes, 3);
  w.WriteInt32(1, 1);
  w.WriteString(2, "a");
  EXPECT_EQ(w.data(), Bytes({0x08, 0x01, 0x88, 0x00, 0x81, 0x80, 0x00, 0x92,
                             0x00, 0x81, 0x00, 'a'}));
}

}  // namespace
}  // namespace fairwire::wire
