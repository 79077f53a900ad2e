// One named test per rule of DESIGN.md "Wire core", with the exact bytes.
// Every error is checked for its DecodeError and its byte offset.
#include "fairwire/wire/decoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fairwire/wire/internal/packed_varint.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/serialize.h"
#include "fairwire/wire/writer.h"
#include "test_schema.h"

namespace fairwire::wire {
namespace {

using testing::B;

class DecoderTest : public ::testing::Test {
 protected:
  DecodeStatus Run(const std::vector<std::uint8_t>& bytes) {
    return Decode(bytes, msg_);
  }
  // The values of root field `number`.
  template <typename T>
  std::vector<T> Get(std::uint32_t number) const {
    return Get<T>(msg_, number);
  }
  template <typename T>
  static std::vector<T> Get(const Message& m, std::uint32_t number) {
    const FieldDef* f = m.schema().FindField(m.message_index(), number);
    std::span<const T> v =
        m.Get<T>(static_cast<std::size_t>(f - m.def().fields.data()));
    return std::vector<T>(v.begin(), v.end());
  }
  static DecodeStatus Err(DecodeError e, std::size_t offset) {
    return {e, offset};
  }

  Schema schema_ = testing::MakeTestSchema();
  Message msg_{schema_, testing::kRoot};
};

// --- Packed and unpacked --------------------------------------------------

TEST_F(DecoderTest, PackedAndUnpackedConcatenate) {
  // packed [1, 300], unpacked 5, packed [2], unpacked 7: wire order kept.
  ASSERT_TRUE(Run(B({0x12, 0x03, 0x01, 0xAC, 0x02, 0x10, 0x05, 0x12, 0x01, 0x02,
                     0x10, 0x07}))
                  .ok());
  EXPECT_EQ(Get<std::int64_t>(testing::kPackedInt64),
            (std::vector<std::int64_t>{1, 300, 5, 2, 7}));
}

TEST_F(DecoderTest, PackedAcceptedWhenDeclaredUnpacked) {
  // Field 3 (sint32, declared unpacked) arrives packed: [-1, 1].
  ASSERT_TRUE(Run(B({0x1A, 0x02, 0x01, 0x02})).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kSint32),
            (std::vector<std::int32_t>{-1, 1}));
}

TEST_F(DecoderTest, PackedFixedAndDoublesDecode) {
  ASSERT_TRUE(Run(B({0x32, 0x08, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF,
                     0x3A, 0x08, 0, 0, 0, 0, 0,    0,    0xF0, 0x3F,
                     0x39, 0,    0, 0, 0, 0, 0,    0,    0x40}))
                  .ok());
  EXPECT_EQ(Get<std::uint32_t>(testing::kFixed32),
            (std::vector<std::uint32_t>{1, 0xFFFFFFFFu}));
  EXPECT_EQ(Get<double>(testing::kDoubles), (std::vector<double>{1.0, 2.0}));
}

TEST_F(DecoderTest, EmptyPackedRecordIsValid) {
  ASSERT_TRUE(Run(B({0x12, 0x00, 0x32, 0x00})).ok());
  EXPECT_TRUE(Get<std::int64_t>(testing::kPackedInt64).empty());
  EXPECT_TRUE(Get<std::uint32_t>(testing::kFixed32).empty());
  EXPECT_EQ(Serialize(msg_), "");
}

// --- Varints --------------------------------------------------------------

TEST_F(DecoderTest, TenthVarintByteDropsHighBits) {
  // 0x7F in the tenth byte: only its lowest bit lands (bit 63).
  ASSERT_TRUE(
      Run(B({0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F}))
          .ok());
  EXPECT_EQ(Get<std::int64_t>(testing::kPackedInt64),
            (std::vector<std::int64_t>{INT64_MIN}));
}

TEST_F(DecoderTest, ElevenByteVarintIsAnError) {
  EXPECT_EQ(Run(B({0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                   0x80, 0x00})),
            Err(DecodeError::kVarintTooLong, 1));
}

TEST_F(DecoderTest, ElevenBytePackedVarintIsAnError) {
  EXPECT_EQ(Run(B({0x12, 0x0C, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                   0x80, 0x80, 0x80, 0x00})),
            Err(DecodeError::kVarintTooLong, 3));
}

TEST_F(DecoderTest, VarintRunningPastEndIsTruncated) {
  EXPECT_EQ(Run(B({0x08, 0x96})), Err(DecodeError::kTruncated, 1));
}

TEST_F(DecoderTest, Int32KeepsLowThirtyTwoBits) {
  // 2^32 + 5 -> 5; the ten-byte -2 -> -2.
  ASSERT_TRUE(Run(B({0x08, 0x85, 0x80, 0x80, 0x80, 0x10})).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kInt32), (std::vector<std::int32_t>{5}));
  ASSERT_TRUE(
      Run(B({0x08, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}))
          .ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kInt32),
            (std::vector<std::int32_t>{-2}));
}

TEST_F(DecoderTest, Uint32KeepsLowThirtyTwoBits) {
  ASSERT_TRUE(Run(B({0x60, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F})).ok());
  EXPECT_EQ(Get<std::uint32_t>(testing::kUint32),
            (std::vector<std::uint32_t>{0xFFFFFFFFu}));
}

TEST_F(DecoderTest, Sint32TruncatesThenZigZagDecodes) {
  // 2^32 + 3 truncates to 3, which zigzag-decodes to -2.
  ASSERT_TRUE(Run(B({0x18, 0x83, 0x80, 0x80, 0x80, 0x10})).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kSint32),
            (std::vector<std::int32_t>{-2}));
}

TEST_F(DecoderTest, Sint64ZigZagDecodes) {
  ASSERT_TRUE(Run(B({0x68, 0x03})).ok());
  EXPECT_EQ(Get<std::int64_t>(testing::kSint64),
            (std::vector<std::int64_t>{-2}));
}

TEST_F(DecoderTest, BoolIsAnyNonZeroValue) {
  // 2, 0, and 2^32 (non-zero only above bit 31) packed.
  ASSERT_TRUE(
      Run(B({0x22, 0x07, 0x02, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10})).ok());
  EXPECT_EQ(Get<std::uint8_t>(testing::kBool),
            (std::vector<std::uint8_t>{1, 0, 1}));
}

// Long packed records take the 64-byte block path: values of every length
// (1 to 10 bytes, padded or not) decode as the short path does, and a bad
// element inside a block is reported at its first byte.
TEST_F(DecoderTest, LongPackedRecordsDecodeEveryVarintLength) {
  std::vector<std::int64_t> values;
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 3000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const int bits = static_cast<int>(x >> 58);  // 0..63 significant bits
    values.push_back(static_cast<std::int64_t>((x >> 3) >> (63 - bits)));
    if (i % 7 == 0) values.back() = -values.back();
  }
  for (int pad : {0, 3, 9, 10}) {
    Writer w(Padding{.tag_bytes = 0, .length_bytes = 0, .value_bytes = pad});
    w.WriteInt32(testing::kInt32, 1);
    w.WritePacked(testing::kPackedInt64, FieldKind::kInt64, values);
    ASSERT_TRUE(Run(B(w.data())).ok()) << pad;
    EXPECT_EQ(Get<std::int64_t>(testing::kPackedInt64), values) << pad;
    // With a trailing field: the record no longer ends the input.
    w.WriteInt32(testing::kInt32, 2);
    ASSERT_TRUE(Run(B(w.data())).ok()) << pad;
    EXPECT_EQ(Get<std::int64_t>(testing::kPackedInt64), values) << pad;
  }
}

// Packed fixed records longer than the bulk copy's 4 KiB steps (and not a
// multiple of them), appended after values already present.
TEST_F(DecoderTest, LongPackedFixedRecordsAppendEveryValue) {
  std::vector<std::uint32_t> fixed;
  std::vector<std::uint64_t> far;
  for (std::uint32_t i = 0; i < 2500; ++i) fixed.push_back(i * 2654435761u);
  for (std::uint64_t i = 0; i < 1300; ++i)
    far.push_back(i * 0x9E3779B97F4A7C15ull);
  Writer w;
  w.WritePacked(testing::kFixed32, FieldKind::kFixed32,
                std::vector<std::uint32_t>{7, 8});
  w.WritePacked(testing::kFixed32, FieldKind::kFixed32, fixed);
  w.WritePacked(testing::kFar, FieldKind::kFixed64, far);
  ASSERT_TRUE(Run(B(w.data())).ok());
  std::vector<std::uint32_t> want = {7, 8};
  want.insert(want.end(), fixed.begin(), fixed.end());
  EXPECT_EQ(Get<std::uint32_t>(testing::kFixed32), want);
  EXPECT_EQ(Get<std::uint64_t>(testing::kFar), far);
}

// Both block decoders (portable shifts; avx2: pext and vpmovmskb) decode the
// same values.
TEST_F(DecoderTest, PortableAndAvx2BlockDecodersAgree) {
  std::vector<std::int64_t> values;
  for (int i = 0; i < 640; ++i) {
    values.push_back(
        static_cast<std::int64_t>(0x0123456789ABCDEFull >> (i % 64)) *
        (i % 3 == 0 ? -1 : 1));
  }
  Writer w;
  w.WritePacked(1, FieldKind::kInt64, values);
  std::string bytes = std::move(w).Take() + std::string(16, '\0');
  const auto* begin = reinterpret_cast<const std::uint8_t*>(bytes.data());
  const std::uint8_t* payload = begin + 3;  // tag, two-byte length
  const std::uint8_t* end = begin + bytes.size() - 16;
  std::vector<std::int64_t> portable(values.size());
  const std::uint8_t* p = payload;
  std::int64_t* dst = portable.data();
  ASSERT_TRUE(
      (internal::DecodeVarintBlocksPortable<FieldKind::kInt64, std::int64_t>(
          &p, end, begin + bytes.size(), &dst)));
  const auto decoded = static_cast<std::size_t>(dst - portable.data());
  EXPECT_GT(decoded, values.size() / 2);
  portable.resize(decoded);
  EXPECT_EQ(portable,
            std::vector<std::int64_t>(
                values.begin(), values.begin() + static_cast<long>(decoded)));
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU lacks AVX2 or BMI2";
  }
  std::vector<std::int64_t> avx2(values.size());
  const std::uint8_t* q = payload;
  std::int64_t* dst2 = avx2.data();
  ASSERT_TRUE(
      (internal::DecodeVarintBlocksAvx2<FieldKind::kInt64, std::int64_t>(
          &q, end, begin + bytes.size(), &dst2)));
  EXPECT_EQ(q, p);
  avx2.resize(static_cast<std::size_t>(dst2 - avx2.data()));
  EXPECT_EQ(avx2, portable);
#endif
}

TEST_F(DecoderTest, ElevenByteElementInsideALongPackedRecordIsAnError) {
  std::string payload(200, '\x01');
  const std::size_t bad = 150;
  for (std::size_t i = bad; i < bad + 10; ++i) payload[i] = '\x80';
  Writer w;
  w.WriteLen(testing::kPackedInt64, payload);
  w.WriteInt32(testing::kInt32, 1);
  // Tag (1 byte) and length (2 bytes) precede the payload.
  EXPECT_EQ(Run(B(w.data())), Err(DecodeError::kVarintTooLong, 3 + bad));
}

// --- Lengths and packed payloads -------------------------------------------

TEST_F(DecoderTest, PackedFixed32LengthNotMultipleIsAnError) {
  EXPECT_EQ(Run(B({0x32, 0x03, 1, 2, 3})),
            Err(DecodeError::kPackedSizeNotMultiple, 1));
}

TEST_F(DecoderTest, LengthPastEndIsAnError) {
  EXPECT_EQ(Run(B({0x08, 0x01, 0x42, 0x05, 'a', 'b'})),
            Err(DecodeError::kLengthPastEnd, 3));
}

TEST_F(DecoderTest, PackedElementPastRecordIsAnError) {
  // Record of 2 bytes: 0x01 then 0x80, whose varint continues past it.
  EXPECT_EQ(Run(B({0x12, 0x02, 0x01, 0x80, 0x01})),
            Err(DecodeError::kPackedElementPastRecord, 3));
}

TEST_F(DecoderTest, LengthVarintLongerThanFiveBytesIsAnError) {
  EXPECT_EQ(Run(B({0x42, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00})),
            Err(DecodeError::kLengthTooLong, 1));
}

TEST_F(DecoderTest, FiveByteLengthIsAccepted) {
  ASSERT_TRUE(Run(B({0x42, 0x81, 0x80, 0x80, 0x80, 0x00, 'x'})).ok());
  EXPECT_EQ(Get<std::string>(testing::kText2), (std::vector<std::string>{"x"}));
}

TEST_F(DecoderTest, LengthOfTwoToTheThirtyOneIsAnError) {
  EXPECT_EQ(Run(B({0x08, 0x00, 0x42, 0x80, 0x80, 0x80, 0x80, 0x08})),
            Err(DecodeError::kLengthTooLarge, 3));
}

TEST_F(DecoderTest, TruncatedFixedValueIsAnError) {
  EXPECT_EQ(Run(B({0x39, 1, 2, 3, 4, 5, 6, 7})),
            Err(DecodeError::kTruncated, 1));
}

// --- Enums ----------------------------------------------------------------

TEST_F(DecoderTest, ClosedEnumUnknownValuesGoToUnknownFieldsInParseOrder) {
  // Unknown field 50 (varint 9); colors packed [1, 7, 2, 8]; unknown field
  // 51 (fixed32); color 9 unpacked; color 0 unpacked.
  ASSERT_TRUE(Run(B({0x90, 0x03, 0x09, 0x2A, 0x04, 0x01, 0x07, 0x02, 0x08, 0x9D,
                     0x03, 1, 2, 3, 4, 0x28, 0x09, 0x28, 0x00}))
                  .ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kColors),
            (std::vector<std::int32_t>{1, 2, 0}));
  EXPECT_EQ(msg_.unknown_fields(),
            std::string("\x90\x03\x09\x28\x07\x28\x08\x9D\x03\x01\x02\x03\x04"
                        "\x28\x09",
                        15));
}

TEST_F(DecoderTest, ClosedEnumCheckUsesInt32TruncatedValue) {
  // 2^32 + 1 truncates to 1 (GREEN): known. 0xFFFFFFFF is -1 (NEG): known.
  ASSERT_TRUE(Run(B({0x28, 0x81, 0x80, 0x80, 0x80, 0x10, 0x28, 0xFF, 0xFF, 0xFF,
                     0xFF, 0x0F}))
                  .ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kColors),
            (std::vector<std::int32_t>{1, -1}));
  EXPECT_TRUE(msg_.unknown_fields().empty());
}

TEST_F(DecoderTest, ClosedEnumUnpackedAbove32BitsKeepsLow32LikeDynamicMessage) {
  // 2^32 + 7 unpacked: unknown, kept as varint 7 (DynamicMessage); packed it
  // keeps all 64 bits.
  ASSERT_TRUE(Run(B({0x70, 0x87, 0x80, 0x80, 0x80, 0x10, 0x2A, 0x05, 0x87, 0x80,
                     0x80, 0x80, 0x10}))
                  .ok());
  EXPECT_EQ(msg_.unknown_fields(),
            std::string("\x70\x07\x28\x87\x80\x80\x80\x10", 8));
}

TEST_F(DecoderTest, LongPackedClosedEnumRecordKeepsUnknownsInOrder) {
  std::vector<std::int32_t> values;
  for (int i = 0; i < 300; ++i) values.push_back(i % 37 == 5 ? 7 + i : i % 3);
  Writer packed;
  packed.WritePacked(testing::kColors, FieldKind::kEnum, values);
  Writer unpacked;
  unpacked.WriteUnpacked(testing::kColors, FieldKind::kEnum, values);
  ASSERT_TRUE(Run(B(unpacked.data())).ok());
  const std::vector<std::int32_t> known = Get<std::int32_t>(testing::kColors);
  const std::string unknown = msg_.unknown_fields();
  EXPECT_EQ(known.size() + 8, values.size());
  ASSERT_TRUE(Run(B(packed.data())).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kColors), known);
  EXPECT_EQ(msg_.unknown_fields(), unknown);
}

TEST_F(DecoderTest, OpenEnumKeepsUnknownValues) {
  ASSERT_TRUE(Run(B({0x78, 0x07, 0x7A, 0x01, 0x09})).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kShades),
            (std::vector<std::int32_t>{7, 9}));
  EXPECT_TRUE(msg_.unknown_fields().empty());
}

TEST_F(DecoderTest, ClosedEnumUnknownsSerializeAfterKnownFieldsUnpacked) {
  ASSERT_TRUE(Run(B({0x2A, 0x02, 0x07, 0x01, 0x08, 0x05})).ok());
  EXPECT_EQ(Serialize(msg_), std::string("\x08\x05\x28\x01\x28\x07", 6));
}

// --- Wire types and tags ----------------------------------------------------

TEST_F(DecoderTest, WrongWireTypeKeptAsUnknown) {
  // Field 1 (int32) as fixed32; field 10 (message) as varint.
  ASSERT_TRUE(Run(B({0x0D, 1, 0, 0, 0, 0x50, 0x03})).ok());
  EXPECT_TRUE(Get<std::int32_t>(testing::kInt32).empty());
  EXPECT_TRUE(Get<Message>(testing::kChild).empty());
  EXPECT_EQ(msg_.unknown_fields(),
            std::string("\x0D\x01\x00\x00\x00\x50\x03", 7));
}

TEST_F(DecoderTest, SingularFieldArrivingAsLenIsUnknown) {
  ASSERT_TRUE(Run(B({0x0A, 0x01, 0x05})).ok());
  EXPECT_TRUE(Get<std::int32_t>(testing::kInt32).empty());
  EXPECT_EQ(msg_.unknown_fields(), std::string("\x0A\x01\x05", 3));
}

TEST_F(DecoderTest, FieldNumberZeroIsAnError) {
  EXPECT_EQ(Run(B({0x08, 0x01, 0x00, 0x01})),
            Err(DecodeError::kFieldNumberZero, 2));
  EXPECT_EQ(Run(B({0x02, 0x00})), Err(DecodeError::kFieldNumberZero, 0));
}

TEST_F(DecoderTest, WireTypesSixAndSevenAreErrors) {
  EXPECT_EQ(Run(B({0x08, 0x01, 0x0E})), Err(DecodeError::kInvalidWireType, 2));
  EXPECT_EQ(Run(B({0x0F})), Err(DecodeError::kInvalidWireType, 0));
}

TEST_F(DecoderTest, TagLongerThanFiveBytesIsAnError) {
  EXPECT_EQ(Run(B({0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01})),
            Err(DecodeError::kVarintTooLong, 0));
}

TEST_F(DecoderTest, FiveByteTagDropsBitsPastThirtyTwo) {
  ASSERT_TRUE(Run(B({0x88, 0x80, 0x80, 0x80, 0x10, 0x05})).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kInt32), (std::vector<std::int32_t>{5}));
}

// --- Groups ---------------------------------------------------------------

TEST_F(DecoderTest, EndGroupWithoutStartIsAnError) {
  EXPECT_EQ(Run(B({0x08, 0x01, 0x2C})),
            Err(DecodeError::kUnexpectedEndGroup, 2));
  // Inside a nested message too.
  EXPECT_EQ(Run(B({0x52, 0x01, 0x0C})),
            Err(DecodeError::kUnexpectedEndGroup, 2));
}

TEST_F(DecoderTest, MismatchedEndGroupIsAnError) {
  EXPECT_EQ(Run(B({0xAB, 0x02, 0x08, 0x01, 0xB4, 0x02})),
            Err(DecodeError::kMismatchedEndGroup, 4));
}

TEST_F(DecoderTest, UnterminatedGroupIsAnError) {
  EXPECT_EQ(Run(B({0x08, 0x01, 0xAB, 0x02, 0x08, 0x01})),
            Err(DecodeError::kUnterminatedGroup, 2));
  // A group cannot close outside the message it opened in.
  EXPECT_EQ(Run(B({0x52, 0x01, 0x0B, 0x0C})),
            Err(DecodeError::kUnterminatedGroup, 2));
}

TEST_F(DecoderTest, UnknownGroupIsSkippedAndKept) {
  // Group 37 holding a varint and a nested group 1, then field 1 = 5.
  const auto input =
      B({0xAB, 0x02, 0x08, 0x81, 0x00, 0x0B, 0x0C, 0xAC, 0x02, 0x08, 0x05});
  ASSERT_TRUE(Run(input).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kInt32), (std::vector<std::int32_t>{5}));
  EXPECT_EQ(msg_.unknown_fields(),
            std::string(input.begin(), input.begin() + 9));
  // Re-encoded canonically (the padded varint shortened).
  EXPECT_EQ(Serialize(msg_),
            std::string("\x08\x05\xAB\x02\x08\x01\x0B\x0C\xAC\x02", 10));
}

TEST_F(DecoderTest, KnownFieldAsGroupIsSkippedAsUnknown) {
  ASSERT_TRUE(Run(B({0x0B, 0x08, 0x01, 0x0C})).ok());
  EXPECT_TRUE(Get<std::int32_t>(testing::kInt32).empty());
  EXPECT_EQ(msg_.unknown_fields(), std::string("\x0B\x08\x01\x0C", 4));
}

// --- Depth ----------------------------------------------------------------

std::vector<std::uint8_t> NestedSelf(int levels) {
  std::string inner;
  for (int i = 0; i < levels; ++i) {
    Writer w;
    w.WriteMessage(testing::kSelf, inner);
    inner = std::move(w).Take();
  }
  return B(inner);
}

std::vector<std::uint8_t> NestedGroups(int levels) {
  std::string out;
  for (int i = 0; i < levels; ++i) out.push_back('\x0B');
  for (int i = 0; i < levels; ++i) out.push_back('\x0C');
  return B(out);
}

TEST_F(DecoderTest, NestingOf100IsAccepted) {
  EXPECT_TRUE(Run(NestedSelf(100)).ok());
  EXPECT_TRUE(Run(NestedGroups(100)).ok());
}

TEST_F(DecoderTest, NestingDeeperThan100IsAnError) {
  const auto messages = NestedSelf(101);
  // The 101st level's tag: after 100 (tag, length) prefixes; lengths of the
  // outer levels take two bytes while the payload is 128 bytes or more.
  DecodeStatus status = Run(messages);
  EXPECT_EQ(status.error, DecodeError::kDepthExceeded);
  EXPECT_EQ(messages[status.offset], 0x92);        // tag of field 18, LEN
  EXPECT_EQ(messages.size() - status.offset, 3u);  // 0x92 0x01 0x00 remain
  EXPECT_EQ(Run(NestedGroups(101)), Err(DecodeError::kDepthExceeded, 100));
}

// --- Strings --------------------------------------------------------------

TEST_F(DecoderTest, Proto3StringMustBeValidUtf8) {
  EXPECT_EQ(Run(B({0x4A, 0x02, 0xC3, 0x28})),
            Err(DecodeError::kInvalidUtf8, 2));
  ASSERT_TRUE(Run(B({0x4A, 0x02, 0xC3, 0xA9})).ok());
  EXPECT_EQ(Get<std::string>(testing::kText3),
            (std::vector<std::string>{"\xC3\xA9"}));
}

TEST_F(DecoderTest, Proto2StringIsNotChecked) {
  ASSERT_TRUE(Run(B({0x42, 0x02, 0xC3, 0x28})).ok());
  EXPECT_EQ(Get<std::string>(testing::kText2),
            (std::vector<std::string>{"\xC3\x28"}));
}

// Repeated strings and bytes of up to 15 bytes are copied by a fixed-size
// copy of 15 bytes when that many are readable, by their own length
// otherwise: two blobs of every length 0..20, then a record of 0..16 more
// bytes, so that the input's end falls at every distance from the last
// blob's start (the input is exactly its size: a read past it is an ASan
// failure). Every blob keeps exactly its own bytes.
TEST_F(DecoderTest, ShortRepeatedTextsKeepTheirBytesAtEveryDistanceFromTheEnd) {
  for (std::size_t size = 0; size <= 20; ++size) {
    for (std::size_t after = 0; after <= 16; ++after) {
      std::vector<std::uint8_t> input;
      std::vector<std::string> want;
      for (int blob = 0; blob < 2; ++blob) {
        std::string text;
        for (std::size_t i = 0; i < size; ++i) {
          text.push_back(static_cast<char>('a' + blob * 20 + i));
        }
        input.insert(input.end(),
                     {0x82, 0x01, static_cast<std::uint8_t>(size)});
        input.insert(input.end(), text.begin(), text.end());
        want.push_back(text);
      }
      const std::string tail(after, 'z');
      input.insert(input.end(), {0x42, static_cast<std::uint8_t>(after)});
      input.insert(input.end(), tail.begin(), tail.end());
      ASSERT_TRUE(Run(input).ok()) << size << " bytes, " << after << " after";
      EXPECT_EQ(Get<std::string>(testing::kBlobs), want)
          << size << " bytes, " << after << " after";
      EXPECT_EQ(Get<std::string>(testing::kText2),
                (std::vector<std::string>{tail}))
          << size << " bytes, " << after << " after";
    }
  }
}

// --- Singular fields and merging ------------------------------------------

TEST_F(DecoderTest, SingularScalarLastWins) {
  ASSERT_TRUE(
      Run(B({0x08, 0x01, 0x08, 0x02, 0x42, 0x01, 'a', 0x42, 0x01, 'b'})).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kInt32), (std::vector<std::int32_t>{2}));
  EXPECT_EQ(Get<std::string>(testing::kText2), (std::vector<std::string>{"b"}));
}

TEST_F(DecoderTest, SingularMessagesMerge) {
  // child {id: 1, values: [4]} then child {values: [5]}.
  ASSERT_TRUE(
      Run(B({0x52, 0x04, 0x08, 0x01, 0x10, 0x04, 0x52, 0x02, 0x10, 0x05}))
          .ok());
  std::vector<Message> child = Get<Message>(testing::kChild);
  ASSERT_EQ(child.size(), 1u);
  EXPECT_EQ(Get<std::int32_t>(child[0], 1), (std::vector<std::int32_t>{1}));
  EXPECT_EQ(Get<std::int64_t>(child[0], 2), (std::vector<std::int64_t>{4, 5}));
}

TEST_F(DecoderTest, RepeatedMessagesAppend) {
  ASSERT_TRUE(Run(B({0x5A, 0x02, 0x08, 0x01, 0x5A, 0x00})).ok());
  EXPECT_EQ(Get<Message>(testing::kChildren).size(), 2u);
}

TEST_F(DecoderTest, MergeAppendsAndOverwrites) {
  ASSERT_TRUE(Run(B({0x08, 0x01, 0x10, 0x01})).ok());
  const auto more = B({0x08, 0x02, 0x10, 0x02});
  ASSERT_TRUE(Merge(more, msg_).ok());
  EXPECT_EQ(Get<std::int32_t>(testing::kInt32), (std::vector<std::int32_t>{2}));
  EXPECT_EQ(Get<std::int64_t>(testing::kPackedInt64),
            (std::vector<std::int64_t>{1, 2}));
  ASSERT_TRUE(Run(more).ok());  // Decode clears first
  EXPECT_EQ(Get<std::int64_t>(testing::kPackedInt64),
            (std::vector<std::int64_t>{2}));
}

TEST_F(DecoderTest, DecodeEmptiesEveryFieldFirstWithOrWithoutOptions) {
  // Field 1 (the message's first field), 2, 8 ("x") and an unknown field
  // 50; then an empty input: nothing is left, the first field included.
  const auto full =
      B({0x08, 0x01, 0x10, 0x01, 0x42, 0x01, 'x', 0x90, 0x03, 0x09});
  for (const bool with_options : {false, true}) {
    ASSERT_TRUE(Run(full).ok());
    ASSERT_EQ(Get<std::int32_t>(testing::kInt32),
              (std::vector<std::int32_t>{1}));
    const std::vector<std::uint8_t> empty;
    const DecodeStatus status =
        with_options ? Decode(empty, msg_,
                              DecodeOptions{.kernel = KernelLevel::kPortable})
                     : Decode(empty, msg_);
    ASSERT_TRUE(status.ok());
    EXPECT_TRUE(Get<std::int32_t>(testing::kInt32).empty()) << with_options;
    EXPECT_TRUE(Get<std::int64_t>(testing::kPackedInt64).empty());
    EXPECT_TRUE(msg_.unknown_fields().empty());
    EXPECT_EQ(Serialize(msg_), "") << with_options;
  }
}

TEST_F(DecoderTest, SparseFieldNumberUsesBinarySearch) {
  ASSERT_TRUE(Run(B({0xC1, 0x3E, 1, 0, 0, 0, 0, 0, 0, 0})).ok());
  EXPECT_EQ(Get<std::uint64_t>(testing::kFar), (std::vector<std::uint64_t>{1}));
}

TEST_F(DecoderTest, EmptyInputIsAnEmptyMessage) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_EQ(Serialize(msg_), "");
}

// --- Closed enums of every bitmap shape --------------------------------------

// A schema of one message "t.E" whose fields 1 (one-byte tag: runs), 20
// (two-byte tag: the record loop) and 3 (packed) are repeated fields of the
// closed enum `def`.
Schema SchemaOfClosedEnum(const EnumDef& def) {
  SchemaBuilder b;
  const std::int32_t e = b.AddEnum(def);
  const std::int32_t m = b.AddMessage("t.E");
  for (const std::uint32_t number : {1u, 20u, 3u}) {
    FieldDef f;
    f.number = number;
    f.name = "f" + std::to_string(number);
    f.kind = FieldKind::kEnum;
    f.repeated = true;
    f.enum_index = e;
    b.AddField(m, f);
  }
  std::optional<Schema> schema = std::move(b).Build();
  if (!schema) std::abort();
  return *std::move(schema);
}

// Closed enums whose bitmaps take one word, four, eighteen (too wide for the
// AVX-512 registers) and all sixty-four, with far values just past the
// bitmap and more than the registers hold: at every level, every value
// across each bitmap word and around each member is kept when it is a
// member and goes to the unknown fields (in parse order) otherwise, whether
// it comes in a run of records with a one-byte tag, in records with a
// two-byte tag or packed.
TEST(DecoderEnums, ClosedEnumMembershipIsExactInEveryBitmapWordAtEveryLevel) {
  const std::vector<std::vector<std::int32_t>> enums = {
      {0, 1, 2, 3, 130, 200},
      {0, 1100},
      {0, 4032, 4096, 4100},
      {-5, 0, 7, 100000, 200000, 300000, 400000, 500000},
  };
  for (const std::vector<std::int32_t>& members : enums) {
    EnumDef def{"t.Closed", true, members, {}};
    for (const std::int32_t v : members) {
      def.value_names.push_back("V" + std::to_string(v));
    }
    const Schema schema = SchemaOfClosedEnum(def);
    // Every value from just below the first member to 70 past the bitmap's
    // last word (members within 4096 of the first), and two around each.
    std::int64_t span = 0;
    for (const std::int32_t v : members) {
      if (std::int64_t{v} - members.front() < 4096) {
        span = std::int64_t{v} - members.front() + 1;
      }
    }
    std::vector<std::int32_t> probes;
    for (std::int64_t v = std::int64_t{members.front()} - 3;
         v < members.front() + (span + 63) / 64 * 64 + 70; ++v) {
      probes.push_back(static_cast<std::int32_t>(v));
    }
    for (const std::int32_t v : members) {
      for (std::int32_t d = -2; d <= 2; ++d) probes.push_back(v + d);
    }
    std::sort(probes.begin(), probes.end());
    probes.erase(std::unique(probes.begin(), probes.end()), probes.end());
    std::vector<std::int32_t> known;
    Writer input;
    Writer unknown;
    for (const std::uint32_t number : {1u, 20u, 3u}) {
      if (number == 3) {
        input.WritePacked(number, FieldKind::kEnum, probes);
      } else {
        input.WriteUnpacked(number, FieldKind::kEnum, probes);
      }
      for (const std::int32_t v : probes) {
        if (!std::binary_search(members.begin(), members.end(), v)) {
          unknown.WriteEnum(number, v);
        } else if (number == 1) {
          known.push_back(v);
        }
      }
    }
    for (const KernelLevel level : kKernelLevels) {
      if (!CpuSupports(level)) continue;
      Message msg(schema, 0);
      ASSERT_TRUE(
          Decode(B(input.data()), msg, DecodeOptions{.kernel = level}).ok());
      for (std::size_t field = 0; field < 3; ++field) {
        const std::span<const std::int32_t> got = msg.Get<std::int32_t>(field);
        EXPECT_EQ(std::vector<std::int32_t>(got.begin(), got.end()), known)
            << KernelLevelName(level) << ", field index " << field
            << ", enum of " << members.size() << " values from "
            << members.front();
      }
      // (A boolean: the strings run to kilobytes.)
      EXPECT_TRUE(msg.unknown_fields() == unknown.data())
          << "unknown fields differ: " << msg.unknown_fields().size()
          << " bytes, " << unknown.data().size() << " expected; "
          << KernelLevelName(level) << ", enum of " << members.size()
          << " values from " << members.front();
    }
  }
}

// --- Prefixes -------------------------------------------------------------

// Every prefix of a valid input decodes exactly when it ends on a top-level
// record boundary; otherwise it fails at an offset within the prefix.
TEST_F(DecoderTest, EveryPrefixOfValidInputsFailsCleanlyOrDecodes) {
  struct Case {
    std::vector<std::uint8_t> bytes;
    std::vector<std::size_t> boundaries;
  };
  const std::vector<Case> cases = {
      {B({0x12, 0x03, 0x01, 0xAC, 0x02, 0x10, 0x05}), {0, 5, 7}},
      {B({0x52, 0x04, 0x08, 0x01, 0x10, 0x04, 0x39, 0, 0, 0, 0, 0, 0, 0, 0x40}),
       {0, 6, 15}},
      {B({0xAB, 0x02, 0x08, 0x81, 0x00, 0xAC, 0x02, 0x4A, 0x01, 'x'}),
       {0, 7, 10}},
      {B({0x88, 0x80, 0x80, 0x80, 0x10, 0x05, 0x2A, 0x02, 0x07, 0x01}),
       {0, 6, 10}},
  };
  for (const Case& c : cases) {
    for (std::size_t n = 0; n <= c.bytes.size(); ++n) {
      const std::vector<std::uint8_t> prefix(c.bytes.begin(),
                                             c.bytes.begin() + n);
      const DecodeStatus status = Run(prefix);
      const bool boundary = std::find(c.boundaries.begin(), c.boundaries.end(),
                                      n) != c.boundaries.end();
      EXPECT_EQ(status.ok(), boundary)
          << "prefix " << n << ": " << ToString(status);
      if (!status.ok()) {
        EXPECT_LE(status.offset, n);
      }
    }
  }
}

}  // namespace
}  // namespace fairwire::wire
