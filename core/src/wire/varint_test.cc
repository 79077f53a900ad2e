#include "fairwire/wire/varint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace fairwire::wire {
namespace {

struct VarintRead {
  const std::uint8_t* next;
  std::uint64_t value;
  DecodeError error;
};

VarintRead Read(const std::vector<std::uint8_t>& bytes) {
  VarintRead r{nullptr, 0, DecodeError::kOk};
  r.next =
      ReadVarint(bytes.data(), bytes.data() + bytes.size(), &r.value, &r.error);
  return r;
}

static_assert(ZigZagEncode32(0) == 0 && ZigZagEncode32(-1) == 1 &&
              ZigZagEncode32(1) == 2 &&
              ZigZagEncode32(INT32_MIN) == UINT32_MAX);
static_assert(ZigZagEncode64(-2) == 3 &&
              ZigZagEncode64(INT64_MIN) == UINT64_MAX);
static_assert(ZigZagDecode32(UINT32_MAX) == INT32_MIN &&
              ZigZagDecode32(4) == 2);
static_assert(ZigZagDecode64(UINT64_MAX) == INT64_MIN &&
              ZigZagDecode64(3) == -2);
static_assert(VarintSize(0) == 1 && VarintSize(127) == 1 &&
              VarintSize(128) == 2 && VarintSize(UINT64_MAX) == 10);

TEST(Varint, ZigZagRoundTripsExtremes) {
  for (std::int64_t v : {INT64_MIN, std::int64_t{-1}, std::int64_t{0},
                         std::int64_t{1}, INT64_MAX}) {
    EXPECT_EQ(ZigZagDecode64(ZigZagEncode64(v)), v);
  }
  for (std::int32_t v : {INT32_MIN, -1, 0, 1, INT32_MAX}) {
    EXPECT_EQ(ZigZagDecode32(ZigZagEncode32(v)), v);
  }
}

TEST(Varint, OneByteAndMultiByteValues) {
  EXPECT_EQ(Read({0x00}).value, 0u);
  EXPECT_EQ(Read({0x7F}).value, 127u);
  VarintRead r = Read({0xAC, 0x02});
  ASSERT_NE(r.next, nullptr);
  EXPECT_EQ(r.value, 300u);
}

TEST(Varint, EveryLengthDecodesOnWordAndBytePaths) {
  for (int len = 1; len <= 10; ++len) {
    for (int pad = 0; pad <= 12; pad += 12) {  // pad: word path vs byte path
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(len), 0x81);
      bytes.back() = 0x01;
      bytes.insert(bytes.end(), static_cast<std::size_t>(pad), 0xFF);
      VarintRead r = Read(bytes);
      ASSERT_NE(r.next, nullptr) << len;
      EXPECT_EQ(r.next - bytes.data(), len);
      std::uint64_t expected = 0;
      for (int i = 0; i < len; ++i) expected |= std::uint64_t{1} << (7 * i);
      EXPECT_EQ(r.value, expected) << len;
    }
  }
}

TEST(Varint, TenthVarintByteDropsHighBits) {
  VarintRead r =
      Read({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F});
  ASSERT_NE(r.next, nullptr);
  EXPECT_EQ(r.value, UINT64_MAX);
  r = Read({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7E});
  ASSERT_NE(r.next, nullptr);
  EXPECT_EQ(r.value, 0u);
}

TEST(Varint, ElevenByteVarintIsAnError) {
  VarintRead r =
      Read({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00});
  EXPECT_EQ(r.next, nullptr);
  EXPECT_EQ(r.error, DecodeError::kVarintTooLong);
}

TEST(Varint, VarintRunningPastEndIsTruncated) {
  VarintRead r = Read({0x80, 0x80});
  EXPECT_EQ(r.next, nullptr);
  EXPECT_EQ(r.error, DecodeError::kTruncated);
  EXPECT_EQ(Read({}).error, DecodeError::kTruncated);
}

TEST(Varint, FixedLoadsAreLittleEndian) {
  const std::uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(LoadFixed32(b), 0x04030201u);
  EXPECT_EQ(LoadFixed64(b), 0x0807060504030201ull);
}

TEST(Varint, TagKeepsLowThirtyTwoBitsOfFiveBytes) {
  // 0x88 80 80 80 10 = 8 + 2^32: libprotobuf keeps 8 (field 1, varint).
  const std::uint8_t b[] = {0x88, 0x80, 0x80, 0x80, 0x10};
  Tag tag;
  DecodeError error = DecodeError::kOk;
  ASSERT_EQ(ReadTag(b, b + 5, &tag, &error), b + 5);
  EXPECT_EQ(tag.field_number, 1u);
  EXPECT_EQ(tag.wire_type, 0u);
}

TEST(Varint, SixByteTagIsAnError) {
  const std::uint8_t b[] = {0x88, 0x80, 0x80, 0x80, 0x80, 0x00};
  Tag tag;
  DecodeError error = DecodeError::kOk;
  EXPECT_EQ(ReadTag(b, b + 6, &tag, &error), nullptr);
  EXPECT_EQ(error, DecodeError::kVarintTooLong);
}

// An empty range is truncated for every reader, whatever byte follows it in
// memory: a one-byte value right after `end` is not read.
TEST(Varint, EmptyRangeIsTruncatedEvenBeforeAOneByteValue) {
  const std::uint8_t b[] = {0x08, 0x08};
  const std::uint8_t* end = b + 1;
  DecodeError error = DecodeError::kOk;
  Tag tag;
  EXPECT_EQ(ReadTag(end, end, &tag, &error), nullptr);
  EXPECT_EQ(error, DecodeError::kTruncated);
  error = DecodeError::kOk;
  std::uint64_t value = 0;
  EXPECT_EQ(ReadVarint(end, end, &value, &error), nullptr);
  EXPECT_EQ(error, DecodeError::kTruncated);
  error = DecodeError::kOk;
  std::uint32_t length = 0;
  EXPECT_EQ(ReadLength(end, end, &length, &error), nullptr);
  EXPECT_EQ(error, DecodeError::kTruncated);
}

TEST(Varint, CheckTagRejectsFieldZeroAndWireTypesSixSeven) {
  EXPECT_EQ(CheckTag({0, 0}), DecodeError::kFieldNumberZero);
  EXPECT_EQ(CheckTag({1, 6}), DecodeError::kInvalidWireType);
  EXPECT_EQ(CheckTag({1, 7}), DecodeError::kInvalidWireType);
  EXPECT_EQ(CheckTag({1, 4}), DecodeError::kOk);
}

TEST(Varint, LengthLimits) {
  std::uint32_t length = 0;
  DecodeError error = DecodeError::kOk;
  const std::uint8_t ok5[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x07};  // 2^31 - 1
  EXPECT_EQ(ReadLength(ok5, ok5 + 5, &length, &error), ok5 + 5);
  EXPECT_EQ(length, 0x7FFFFFFFu);
  const std::uint8_t big[] = {0x80, 0x80, 0x80, 0x80, 0x08};  // 2^31
  EXPECT_EQ(ReadLength(big, big + 5, &length, &error), nullptr);
  EXPECT_EQ(error, DecodeError::kLengthTooLarge);
  const std::uint8_t long6[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
  EXPECT_EQ(ReadLength(long6, long6 + 6, &length, &error), nullptr);
  EXPECT_EQ(error, DecodeError::kLengthTooLong);
}

}  // namespace
}  // namespace fairwire::wire
