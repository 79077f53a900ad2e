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

TEST(Writer, PackedFixedKindsUseFixedWidth) {
  const std::vector<float> f = {1.0f, 2.0f};
  Writer w;
  w.WritePacked(7, FieldKind::kFloat, std::span(f));
  EXPECT_EQ(w.data(), Bytes({0x3A, 0x08, 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40}));
}

}  // namespace
}  // namespace fairwire::wire
