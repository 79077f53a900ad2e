// Typed bindings follow the same rules as the dynamic decoder, and decode to
// the same values (checked against Decode on the test schema).
#include "fairwire/wire/binding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/wire/decoder.h"
#include "fairwire/wire/internal/bound_run.h"
#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/serialize.h"
#include "fairwire/wire/writer.h"
#include "test_schema.h"

namespace fairwire::wire {
namespace {

using testing::B;

bool IsColor(std::int32_t v) {
  return v == -1 || v == 0 || v == 1 || v == 2 || v == 1000000;
}

struct Child {
  std::optional<std::int32_t> id;
  std::vector<std::int64_t> values;
};

struct Root {
  std::optional<std::int32_t> i32;
  std::vector<std::int64_t> packed_int64;
  std::vector<std::int32_t> sint32;
  std::vector<bool> bools;
  std::vector<std::int32_t> colors;
  std::vector<std::uint32_t> fixed32;
  std::vector<double> doubles;
  std::string text2;
  std::string text3;
  std::optional<Child> child;
  std::vector<Child> children;
  std::vector<std::uint32_t> uint32s;
  std::int64_t sint64 = 0;
  std::vector<std::string_view> blobs;  // zero-copy
  std::string unknown;
};

constexpr auto kChild =
    MakeBinding<Child>(Bind<1, FieldKind::kInt32>(&Child::id),
                       Bind<2, FieldKind::kInt64>(&Child::values));

constexpr auto kRoot =
    MakeBinding<Root>(
        Bind<testing::kInt32, FieldKind::kInt32>(&Root::i32),
        Bind<testing::kPackedInt64, FieldKind::kInt64>(&Root::packed_int64),
        Bind<testing::kSint32, FieldKind::kSint32>(&Root::sint32),
        Bind<testing::kBool, FieldKind::kBool>(&Root::bools),
        BindClosedEnum<testing::kColors, &IsColor>(&Root::colors),
        Bind<testing::kFixed32, FieldKind::kFixed32>(&Root::fixed32),
        Bind<testing::kDoubles, FieldKind::kDouble>(&Root::doubles),
        Bind<testing::kText2, FieldKind::kString>(&Root::text2),
        Bind<testing::kText3, FieldKind::kString>(&Root::text3,
                                                  Utf8::kValidate),
        BindMessage<testing::kChild>(&Root::child, kChild),
        BindMessage<testing::kChildren>(&Root::children, kChild),
        Bind<testing::kUint32, FieldKind::kUint32>(&Root::uint32s),
        Bind<testing::kSint64, FieldKind::kSint64>(&Root::sint64),
        Bind<testing::kBlobs, FieldKind::kBytes>(&Root::blobs))
        .WithUnknown(&Root::unknown);

// A closed enum's validity predicate that counts the values it is asked
// about, valid for 3, 64, 640, 1023 and 1024 (one past the bitmap's range):
// 64 and 640 are the first values of their bitmap words, where a word index
// computed with any other divisor than 64 goes wrong.
int asked = 0;
bool CountingIsValid(std::int32_t v) {
  ++asked;
  return v == 3 || v == 64 || v == 640 || v == 1023 || v == 1024;
}

// The bitmap of a generated enum predicate asks it once for each value below
// kValidBitmapBits, and holds exactly the valid ones among them (a value
// past it is asked at decode time, never stored in the bitmap).
TEST(BindingTest, ValidBitmapAsksEachValueBelowItsRangeOnce) {
  const internal::EnumBitmap& bitmap =
      internal::ValidBitmap<&CountingIsValid>();
  EXPECT_EQ(asked, internal::kValidBitmapBits);
  ASSERT_EQ(bitmap.bits.size(),
            static_cast<std::size_t>(internal::kValidBitmapBits / 64));
  for (std::size_t word = 0; word < bitmap.bits.size(); ++word) {
    const std::uint64_t want = word == 0                 ? std::uint64_t{1} << 3
                               : word == 1 || word == 10 ? std::uint64_t{1}
                               : word == 15 ? std::uint64_t{1} << 63
                                            : 0;
    EXPECT_EQ(bitmap.bits[word], want) << "word " << word;
  }
}

// Valid for 0..1023 (all of the bitmap) and 5000; counts its calls.
int far_asked = 0;
bool FarIsValid(std::int32_t v) {
  ++far_asked;
  return (v >= 0 && v < internal::kValidBitmapBits) || v == 5000;
}

// AllValid asks IsValid where its level says: every level (the portable
// one in scalar code, the avx2 and avx512 ones in vectors) only about each
// value the bitmap does not hold. Each level answers the same.
TEST(BindingTest, AllValidAsksIsValidWhereItsLevelSays) {
  internal::ValidBitmap<&FarIsValid>();  // built once, asking 0..1023
  std::vector<std::int32_t> values(16);
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<std::int32_t>(i);
  }
  values[4] = 5000;  // the second group of four
  for (KernelLevel level : kKernelLevels) {
    if (!CpuSupports(level)) continue;
    SCOPED_TRACE(KernelLevelName(level));
    ScopedKernelLevel scoped(level);
    far_asked = 0;
    EXPECT_TRUE(internal::AllValid<&FarIsValid>(values.data(), values.size()));
    EXPECT_EQ(far_asked, 1);
    values[9] = 5001;
    EXPECT_FALSE(internal::AllValid<&FarIsValid>(values.data(), values.size()));
    values[9] = 9;
  }
}

// Valid for 0..1023 and the six far values 5000..5005; counts its calls.
int many_far_asked = 0;
bool ManyFarIsValid(std::int32_t v) {
  ++many_far_asked;
  return (v >= 0 && v < internal::kValidBitmapBits) || (v >= 5000 && v <= 5005);
}

// At the avx2 level, AllValid remembers on the calling thread the first
// FarMembersMet::kHeld far members IsValid accepted, and checks them in
// registers from the next call on: IsValid is not asked about them again.
// It never remembers a value IsValid refused, and it keeps asking about the
// far members past the first kHeld; the answers stay IsValid's.
TEST(BindingTest, TheAvx2CheckRemembersFarMembers) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  ScopedKernelLevel scoped(KernelLevel::kAvx2);
  const internal::FarMembersMet& met =
      internal::far_members_met<&ManyFarIsValid>;
  internal::ValidBitmap<&ManyFarIsValid>();  // built: asked about 0..1023
  std::vector<std::int32_t> values(32, 1);
  values[3] = 5000;
  values[17] = 5000;
  values[20] = 5001;
  many_far_asked = 0;
  EXPECT_TRUE(internal::AllValid<&ManyFarIsValid>(values.data(), 32));
  EXPECT_EQ(many_far_asked, 3);  // the call's check was made before it met them
  ASSERT_EQ(met.count, 2u);
  EXPECT_EQ(met.values[0], 5000);
  EXPECT_EQ(met.values[1], 5001);
  many_far_asked = 0;
  EXPECT_TRUE(internal::AllValid<&ManyFarIsValid>(values.data(), 32));
  EXPECT_EQ(many_far_asked, 0);

  // A refused far value: asked every time, never remembered.
  values[25] = 5100;
  for (int call = 0; call < 2; ++call) {
    many_far_asked = 0;
    EXPECT_FALSE(internal::AllValid<&ManyFarIsValid>(values.data(), 32));
    EXPECT_EQ(many_far_asked, 1);
    EXPECT_EQ(met.count, 2u);
  }
  values[25] = 1;

  // Six far members: the first four are remembered, the last two asked
  // about on every call.
  for (std::int32_t k = 0; k < 6; ++k) values[8 + k] = 5000 + k;
  EXPECT_TRUE(internal::AllValid<&ManyFarIsValid>(values.data(), 32));
  ASSERT_EQ(met.count, internal::FarMembersMet::kHeld);
  for (std::size_t k = 0; k < met.count; ++k) {
    EXPECT_EQ(met.values[k], 5000 + static_cast<std::int32_t>(k));
  }
  many_far_asked = 0;
  EXPECT_TRUE(internal::AllValid<&ManyFarIsValid>(values.data(), 32));
  EXPECT_EQ(many_far_asked, 2);
  values[9] = 5006;  // refused, after remembered ones
  EXPECT_FALSE(internal::AllValid<&ManyFarIsValid>(values.data(), 32));
}

// Repeated members of another element type than the kind's (a change of
// signedness, a widening) take the generic element loops.
struct Widened {
  std::vector<std::int64_t> fixed64;   // kFixed64's uint64 values, as int64
  std::vector<std::int64_t> sfixed32;  // kSfixed32's int32 values, widened
};
constexpr auto kWidened =
    MakeBinding<Widened>(Bind<1, FieldKind::kFixed64>(&Widened::fixed64),
                         Bind<2, FieldKind::kSfixed32>(&Widened::sfixed32));

// The generic loops take each fixed-width element whole, at its own width:
// all eight bytes of a fixed64 (the high half too), four of an sfixed32
// (nothing past the record, which ends the input here: an exact-size
// buffer, so a read past it is an ASan failure).
TEST(BindingTest, WidenedPackedFixedMembersTakeEachElementAtItsWidth) {
  Widened w;
  const auto in = B({0x0A, 0x10, 0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF,
                     0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x12, 0x08,
                     0xFE, 0xFF, 0xFF, 0xFF, 0x07, 0x00, 0x00, 0x00});
  // B's vector may have spare capacity; a copy of a range has none.
  const std::vector<std::uint8_t> exact(in.begin(), in.end());
  ASSERT_TRUE(DecodeInto(exact, kWidened, w).ok());
  EXPECT_EQ(w.fixed64, (std::vector<std::int64_t>{
                           static_cast<std::int64_t>(0xFFFFFFFF00000001ull),
                           std::int64_t{0x0000000100000002}}));
  EXPECT_EQ(w.sfixed32, (std::vector<std::int64_t>{-2, 7}));
}

// A run of LEN records stays on its field only while the whole tag is the
// same: field 32's tag (0x82 0x02) starts with the byte of field 16's
// (0x82 0x01), and both records hold one byte, so only the tag's second byte
// tells them apart.
TEST(BindingTest, ARunOfBytesRecordsEndsAtATagSharingItsFirstByte) {
  Root r;
  // blobs are views into the input: it outlives them.
  const auto in =
      B({0x82, 0x01, 0x01, 'a', 0x82, 0x02, 0x01, 'b', 0x82, 0x01, 0x01, 'c'});
  ASSERT_TRUE(DecodeInto(in, kRoot, r).ok());
  ASSERT_EQ(r.blobs.size(), 2u);
  EXPECT_EQ(r.blobs[0], "a");
  EXPECT_EQ(r.blobs[1], "c");
  EXPECT_EQ(r.unknown, std::string("\x82\x02\x01"
                                   "b",
                                   4));
  // The same with a first record of two bytes: the byte after the first
  // tag is no help either.
  const auto two = B({0x82, 0x01, 0x02, 'x', 'y', 0x82, 0x02, 0x01, 'b'});
  ASSERT_TRUE(DecodeInto(two, kRoot, r).ok());
  ASSERT_EQ(r.blobs.size(), 1u);
  EXPECT_EQ(r.blobs[0], "xy");
  EXPECT_EQ(r.unknown, std::string("\x82\x02\x01"
                                   "b",
                                   4));
}

TEST(BindingTest, PackedAndUnpackedConcatenate) {
  Root r;
  const auto in = B(
      {0x12, 0x03, 0x01, 0xAC, 0x02, 0x10, 0x05, 0x12, 0x01, 0x02, 0x10, 0x07});
  ASSERT_TRUE(DecodeInto(in, kRoot, r).ok());
  EXPECT_EQ(r.packed_int64, (std::vector<std::int64_t>{1, 300, 5, 2, 7}));
}

TEST(BindingTest, BoolVectorAndConversionsDecodePacked) {
  Root r;
  ASSERT_TRUE(
      DecodeInto(B({0x22, 0x03, 0x02, 0x00, 0x01, 0x1A, 0x02, 0x01, 0x02}),
                 kRoot, r)
          .ok());
  EXPECT_EQ(r.bools, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(r.sint32, (std::vector<std::int32_t>{-1, 1}));
}

TEST(BindingTest, ClosedEnumUnknownValuesGoToUnknownFieldsInParseOrder) {
  Root r;
  ASSERT_TRUE(DecodeInto(B({0x90, 0x03, 0x09, 0x2A, 0x04, 0x01, 0x07, 0x02,
                            0x08, 0x28, 0x09}),
                         kRoot, r)
                  .ok());
  EXPECT_EQ(r.colors, (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(r.unknown, std::string("\x90\x03\x09\x28\x07\x28\x08\x28\x09", 9));
}

TEST(BindingTest, UnpackedRunsKeepOrderAndSendUnknownsAside) {
  Root r;
  ASSERT_TRUE(DecodeInto(B({0x28, 0x01, 0x28, 0x09, 0x28, 0x02, 0x08, 0x05,
                            0x08, 0x06, 0x28, 0x00}),
                         kRoot, r)
                  .ok());
  EXPECT_EQ(r.colors, (std::vector<std::int32_t>{1, 2, 0}));
  EXPECT_EQ(r.i32, 6);
  EXPECT_EQ(r.unknown, std::string("\x28\x09", 2));
}

TEST(BindingTest, WrongWireTypeKeptAsUnknown) {
  Root r;
  ASSERT_TRUE(
      DecodeInto(B({0x0D, 1, 0, 0, 0, 0x0A, 0x01, 0x05}), kRoot, r).ok());
  EXPECT_FALSE(r.i32.has_value());
  EXPECT_EQ(r.unknown, std::string("\x0D\x01\x00\x00\x00\x0A\x01\x05", 8));
}

TEST(BindingTest, ErrorsCarryTheSameReasonAndOffsetAsDecode) {
  const Schema schema = testing::MakeTestSchema();
  const std::vector<std::vector<std::uint8_t>> inputs = {
      B({0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
         0x00}),
      B({0x32, 0x03, 1, 2, 3}),
      B({0x12, 0x02, 0x01, 0x80, 0x01}),
      B({0x08, 0x01, 0x00, 0x01}),
      B({0x08, 0x01, 0x0E}),
      B({0x08, 0x01, 0x2C}),
      B({0xAB, 0x02, 0x08, 0x01, 0xB4, 0x02}),
      B({0x52, 0x01, 0x0B, 0x0C}),
      B({0x4A, 0x02, 0xC3, 0x28}),
      B({0x42, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}),
      B({0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 1, 2, 3, 4}),
  };
  for (const auto& in : inputs) {
    Root r;
    Message m(schema, testing::kRoot);
    const DecodeStatus expected = Decode(in, m);
    ASSERT_FALSE(expected.ok());
    EXPECT_EQ(DecodeInto(in, kRoot, r), expected) << ToString(expected);
  }
}

TEST(BindingTest, NestingDeeperThan100IsAnError) {
  // Children nest through field 11 of N? N has no message field: nest
  // unknown groups instead, which count toward the same limit.
  std::string in;
  for (int i = 0; i < 101; ++i) in.push_back('\x0B');
  for (int i = 0; i < 101; ++i) in.push_back('\x0C');
  Root r;
  EXPECT_EQ(DecodeInto(B(in), kRoot, r),
            (DecodeStatus{DecodeError::kDepthExceeded, 100}));
}

TEST(BindingTest, SingularMessagesMergeAndRepeatedAppend) {
  Root r;
  ASSERT_TRUE(DecodeInto(B({0x52, 0x04, 0x08, 0x01, 0x10, 0x04, 0x52, 0x02,
                            0x10, 0x05, 0x5A, 0x00, 0x5A, 0x02, 0x08, 0x03}),
                         kRoot, r)
                  .ok());
  ASSERT_TRUE(r.child.has_value());
  EXPECT_EQ(r.child->id, 1);
  EXPECT_EQ(r.child->values, (std::vector<std::int64_t>{4, 5}));
  ASSERT_EQ(r.children.size(), 2u);
  EXPECT_EQ(r.children[1].id, 3);
}

TEST(BindingTest, ZeroCopyBytesPointIntoTheInput) {
  const auto in = B({0x82, 0x01, 0x02, 'h', 'i', 0x82, 0x01, 0x00});
  Root r;
  ASSERT_TRUE(DecodeInto(in, kRoot, r).ok());
  ASSERT_EQ(r.blobs.size(), 2u);
  EXPECT_EQ(r.blobs[0], "hi");
  EXPECT_EQ(static_cast<const void*>(r.blobs[0].data()),
            static_cast<const void*>(in.data() + 3));
}

TEST(BindingTest, DecodeIntoClearsAndMergeIntoAppends) {
  Root r;
  ASSERT_TRUE(DecodeInto(B({0x10, 0x01, 0x68, 0x03}), kRoot, r).ok());
  ASSERT_TRUE(MergeInto(B({0x10, 0x02}), kRoot, r).ok());
  EXPECT_EQ(r.packed_int64, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(r.sint64, -2);
  ASSERT_TRUE(DecodeInto(B({0x10, 0x03}), kRoot, r).ok());
  EXPECT_EQ(r.packed_int64, (std::vector<std::int64_t>{3}));
  EXPECT_EQ(r.sint64, 0);
}

// DecodeInto empties the unknown-field member too: what an earlier message
// left there does not stay.
TEST(BindingTest, DecodeIntoEmptiesTheUnknownFieldsToo) {
  Root r;
  // Field 1 with the wrong wire type (fixed32): kept as unknown.
  ASSERT_TRUE(DecodeInto(B({0x0D, 1, 0, 0, 0}), kRoot, r).ok());
  ASSERT_EQ(r.unknown.size(), 5u);
  ASSERT_TRUE(DecodeInto(B({0x10, 0x03}), kRoot, r).ok());
  EXPECT_EQ(r.unknown, "");
  EXPECT_EQ(r.packed_int64, (std::vector<std::int64_t>{3}));
  // MergeInto keeps them and appends.
  ASSERT_TRUE(MergeInto(B({0x0D, 1, 0, 0, 0}), kRoot, r).ok());
  ASSERT_TRUE(MergeInto(B({0x0D, 2, 0, 0, 0}), kRoot, r).ok());
  EXPECT_EQ(r.unknown,
            std::string("\x0D\x01\x00\x00\x00\x0D\x02\x00\x00\x00", 10));
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// PredicateRunCheck::Accept over eight raw values (int64 lanes, checked as
// their int32 truncation), the first `lanes` of them.
[[FAIRWIRE_AVX512_TARGET]] unsigned AcceptIsColor(
    const std::int64_t (&values)[8], unsigned lanes) {
  const internal::PredicateRunCheck<&IsColor> check;
  return check.Accept(check.Start(), _mm512_loadu_si512(values), lanes);
}

// The AVX-512 run kernel's check of a closed enum bound with IsValid counts
// the lanes before the first value IsValid refuses, among the lanes asked
// about (a value past them is not looked at).
TEST(BindingTest, RunCheckCountsTheLanesBeforeTheFirstInvalidValue) {
  if (!CpuSupports(KernelLevel::kAvx512)) {
    GTEST_SKIP() << "avx512 level untested: this CPU cannot run it";
  }
  // Colors (the int32 truncation of 2^32 + 1 is 1).
  const std::int64_t valid[8] = {
      0, 1, 2, -1, 1000000, (std::int64_t{1} << 32) + 1, -1, 0};
  for (unsigned lanes = 1; lanes <= 8; ++lanes) {
    EXPECT_EQ(AcceptIsColor(valid, lanes), lanes);
    for (unsigned bad = 0; bad < 8; ++bad) {
      std::int64_t values[8];
      std::copy(std::begin(valid), std::end(valid), values);
      values[bad] = bad % 2 == 0 ? 3 : std::int64_t{1} << 32 | 7;
      EXPECT_EQ(AcceptIsColor(values, lanes), std::min(bad, lanes))
          << "invalid value at lane " << bad << " of " << lanes;
    }
  }
}
#endif

// The binding and the dynamic decoder agree on values for every encoding
// variant the Writer makes.
TEST(BindingTest, AgreesWithDynamicDecoderOnEveryEncodingVariant) {
  const Schema schema = testing::MakeTestSchema();
  const std::vector<std::int64_t> ids = {0, -1, 300, INT64_MIN, 7};
  const std::vector<std::uint32_t> fixed = {1, 2, 3};
  const std::vector<std::size_t> chunks = {2, 0, 1};
  for (int variant = 0; variant < 4; ++variant) {
    Writer w(variant == 3 ? Padding{5, 5, 10} : Padding{});
    if (variant == 0 || variant == 3) {
      w.WritePacked(testing::kPackedInt64, FieldKind::kInt64, std::span(ids));
    } else if (variant == 1) {
      w.WriteUnpacked(testing::kPackedInt64, FieldKind::kInt64, std::span(ids));
    } else {
      w.WritePackedChunks(testing::kPackedInt64, FieldKind::kInt64,
                          std::span(ids), std::span(chunks));
    }
    w.WriteString(testing::kText2, "x");
    w.WritePacked(testing::kFixed32, FieldKind::kFixed32, std::span(fixed));
    const auto in = B(w.data());
    Root r;
    Message m(schema, testing::kRoot);
    ASSERT_TRUE(DecodeInto(in, kRoot, r).ok());
    ASSERT_TRUE(Decode(in, m).ok());
    EXPECT_EQ(r.packed_int64, ids) << variant;
    EXPECT_EQ(r.fixed32, fixed) << variant;
    EXPECT_EQ(r.text2, "x");
  }
}

}  // namespace
}  // namespace fairwire::wire
