// The wire property suite: the fast decoder (fairwire::wire), the reference
// model and libprotobuf 3.21 agree, on generated messages in every encoding
// variant, on every prefix of a valid encoding, and on mutated bytes.
// Each failure prints RapidCheck's reproduce string and the violation with
// the records annotated.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "fairwire/checks/wire_checks.h"
#include "fairwire/checks/wire_oracle.h"
#include "fairwire/checks/wire_schema_build.h"
#include "fairwire/generators/wire_generators.h"
#include "fairwire/models/wire_model.h"
#include "fairwire/scenarios/wire_case.h"
#include "fairwire/scenarios/wire_records.h"
#include "fairwire/scenarios/wire_schema_case.h"

namespace fairwire::wire {
namespace {

using oracle::ByteSpan;

ByteSpan AsBytes(const std::string& s) {
  return ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

// Checks a generated message of root `root` in every variant.
void CheckEveryVariant(int root) {
  const model::Schema& schema = oracle::CaseSubject(root).model;
  scenario::WireCase c;
  c.root = root;
  c.message = *gen::Message(&schema, 0);
  const std::string canonical = model::Serialize(schema, c.message);
  c.payload.assign(canonical.begin(), canonical.end());
  if (const auto violation = oracle::CheckCase(c, /*all_decoders=*/true))
    RC_FAIL(*violation);
}

RC_GTEST_PROP(WireProperties, EveryEncodingVariantDecodesToTheSameValueProto2,
              ()) {
  CheckEveryVariant(0);
}

RC_GTEST_PROP(WireProperties, EveryEncodingVariantDecodesToTheSameValueProto3,
              ()) {
  CheckEveryVariant(1);
}

// The wire_packed_unpacked target's check of one input: every value of
// byte 0 names a root and an encoding (a variant, or as given), EncodeCase
// keeps them, and the check of that encoding passes on a valid message.
// Every variant and as-given are named by some byte 0.
TEST(WireCaseVariant, EveryByteZeroNamesARootAndAnEncodingThatEncodeKeeps) {
  const std::size_t count = scenario::AllVariants().size();
  // Bits 1-5 must name every variant twice and leave room for as-given.
  ASSERT_LT(2 * count, 32u);
  const model::Schema* const* schemas = oracle::CaseSchemas();
  std::set<std::size_t> variants;
  int as_given = 0;
  for (int b = 0; b < 256; ++b) {
    const std::uint8_t input[] = {static_cast<std::uint8_t>(b), 0x08, 0x05};
    const scenario::WireCase c = scenario::DecodeCase(schemas, input);
    EXPECT_EQ(c.root, b & 1) << b;
    // Bits 1-5; bits 6-7 are the fuzz targets' kernel level.
    const std::size_t encoding = static_cast<std::size_t>((b >> 1) & 0x1F);
    EXPECT_EQ(c.variant, encoding % count) << b;
    EXPECT_EQ(c.as_given, encoding >= 2 * count) << b;
    if (c.as_given) {
      ++as_given;
    } else {
      variants.insert(c.variant);
    }
    const fairwire::Bytes again = scenario::EncodeCase(*schemas[c.root], c);
    const scenario::WireCase d = scenario::DecodeCase(schemas, again);
    EXPECT_EQ(d.root, c.root) << b;
    EXPECT_EQ(d.variant, c.variant) << b;
    EXPECT_EQ(d.as_given, c.as_given) << b;
    EXPECT_EQ(oracle::CheckCaseVariant(c), std::nullopt) << b;
  }
  EXPECT_EQ(variants.size(), count);
  EXPECT_EQ(as_given, 8 * static_cast<int>(32 - 2 * count));
}

// CheckCaseVariant checks the one encoding the case names: with a payload
// that is not the message's, the as-given check fails and the variant's
// (whose bytes are written from the message) passes.
TEST(WireCaseVariant, TheCheckRunsTheEncodingTheCaseNames) {
  const model::Schema* const* schemas = oracle::CaseSchemas();
  // f_int32 = 2 in AllKinds (root 0): variant 0 ("declared"), then as given.
  const std::uint8_t variant_input[] = {0x00, 0x08, 0x02};
  scenario::WireCase c = scenario::DecodeCase(schemas, variant_input);
  ASSERT_FALSE(c.as_given);
  ASSERT_EQ(oracle::CheckCaseVariant(c), std::nullopt);
  const std::size_t count = scenario::AllVariants().size();
  const std::uint8_t given_input[] = {static_cast<std::uint8_t>(2 * count << 1),
                                      0x08, 0x02};
  c = scenario::DecodeCase(schemas, given_input);
  ASSERT_TRUE(c.as_given);
  ASSERT_EQ(oracle::CheckCaseVariant(c), std::nullopt);
  // The payload as given is not the message: the as-given check sees it,
  // the variant's does not (its bytes come from the message).
  c.payload = {0x08, 0x03};
  const std::optional<std::string> violation = oracle::CheckCaseVariant(c);
  ASSERT_TRUE(violation.has_value());
  EXPECT_NE(violation->find("(as-given,"), std::string::npos) << *violation;
  c.as_given = false;
  EXPECT_EQ(oracle::CheckCaseVariant(c), std::nullopt);
}

// The writer of the variants, byte for byte, on AllKinds with f_int32 = 5,
// r_int32 (21, unpacked as declared) = 1, 2, 3 and an unknown varint field
// 999 = 1: record order, packing, chunks, interleaving and padding.
TEST(WireVariant, EachVariantWritesTheRecordsItNames) {
  const model::Schema& schema =
      oracle::FixedSubject(oracle::Fixed::kAllKinds).model;
  const std::string f1 = "\x08\x05";
  const std::string r1 = "\xa8\x01\x01", r2 = "\xa8\x01\x02",
                    r3 = "\xa8\x01\x03";
  const std::string unknown = "\xb8\x3e\x01";
  const std::string given = f1 + r1 + r2 + r3 + unknown;
  model::Message m;
  ASSERT_TRUE(model::Decode(schema, 0, AsBytes(given), m).ok);
  const auto in = [&](const char* name) {
    for (const scenario::Variant& v : scenario::AllVariants()) {
      if (std::string(v.name) == name) {
        return scenario::EncodeVariant(schema, m, v);
      }
    }
    ADD_FAILURE() << "no variant " << name;
    return std::string();
  };
  const std::string packed_tag = "\xaa\x01";
  const std::string pad10 = std::string(8, '\x80') + '\0';  // 9 more bytes
  EXPECT_EQ(in("declared"), given);
  EXPECT_EQ(in("unpacked"), given);
  EXPECT_EQ(in("packed"),
            f1 + packed_tag + std::string("\x03\x01\x02\x03", 4) + unknown);
  EXPECT_EQ(in("mixed"),
            f1 + packed_tag + std::string("\x02\x01\x02", 3) + r3 + unknown);
  EXPECT_EQ(in("packed-chunks-of-2-with-empty"),
            f1 + packed_tag + std::string("\x00", 1) + packed_tag +
                std::string("\x02\x01\x02", 3) + packed_tag +
                std::string("\x01\x03", 2) + unknown);
  // Round-robin: the first record of each field, then the second, ...
  EXPECT_EQ(in("interleaved"), f1 + r1 + unknown + r2 + r3);
  EXPECT_EQ(in("unknown-first"), unknown + f1 + r1 + r2 + r3);
  // Every varint value and length 9 bytes longer (a length at most 5).
  EXPECT_EQ(in("padded-varints-max"),
            "\x08\x85" + pad10 + packed_tag + "\x9e\x80\x80\x80" +
                std::string(1, '\0') + "\x81" + pad10 + "\x82" + pad10 +
                "\x83" + pad10 + "\xb8\x3e\x81" + pad10);
}

// A generated message in a generated variant, for one of the fixed roots.
std::string ValidEncoding(const oracle::Subject& subject) {
  const model::Message m = *gen::Message(&subject.model, 0);
  const scenario::Variant variant = *gen::Variant();
  RC_TAG(variant.name);
  return scenario::EncodeVariant(subject.model, m, variant);
}

// A valid encoding of `subject`'s root, corrupted, or with arbitrary bytes
// spliced in, tagged with which.
std::string AnyEncoding(const oracle::Subject& subject) {
  std::string bytes = ValidEncoding(subject);
  switch (*rc::gen::inRange(0, 3)) {
    case 1:
      RC_TAG("corrupted");
      return gen::Corrupt(bytes);
    case 2: {
      RC_TAG("bytes spliced in");
      const auto at = *rc::gen::inRange<std::size_t>(0, bytes.size() + 1);
      bytes.insert(
          at, *rc::gen::container<std::string>(rc::gen::arbitrary<char>()));
      return bytes;
    }
    default:
      return bytes;
  }
}

// DecodeCase's payload by its definition: the whole records of the input
// after byte 0 (cut to kMaxCasePayload) that the model accepts on their own.
fairwire::Bytes RecordsAcceptedAlone(const model::Schema& schema,
                                     ByteSpan input) {
  ByteSpan payload = input.subspan(1);
  if (payload.size() > scenario::kMaxCasePayload) {
    payload = payload.first(scenario::kMaxCasePayload);
  }
  fairwire::Bytes kept;
  for (const records::RawRecord& r : records::Split(payload)) {
    const ByteSpan rec = payload.subspan(r.begin, r.end - r.begin);
    model::Message alone;
    if (model::Decode(schema, 0, rec, alone).ok) {
      kept.insert(kept.end(), rec.begin(), rec.end());
    }
  }
  return kept;
}

// Asserts that DecodeCase gives the definition's case; true when that keeps
// every byte after byte 0.
bool ExpectCaseByDefinition(ByteSpan input) {
  const scenario::WireCase c =
      scenario::DecodeCase(oracle::CaseSchemas(), input);
  const model::Schema& schema = *oracle::CaseSchemas()[c.root];
  const fairwire::Bytes kept = RecordsAcceptedAlone(schema, input);
  model::Message expected;
  RC_ASSERT(model::Decode(schema, 0, kept, expected).ok);
  RC_ASSERT(c.payload == kept);
  RC_ASSERT(c.message == expected);
  return kept.size() == input.size() - 1;
}

// A wire_packed_unpacked input: byte 0 names a root (generated) and a
// variant, then AnyEncoding of that root.
fairwire::Bytes AnyCaseInput() {
  const int root = *rc::gen::inRange(0, 2);
  const std::string body = AnyEncoding(oracle::CaseSubject(root));
  fairwire::Bytes input{
      static_cast<std::uint8_t>((*rc::gen::inRange(0, 128) << 1) | root)};
  input.insert(input.end(), body.begin(), body.end());
  return input;
}

// DecodeCase decodes a payload whole when its records cover it and the model
// accepts it (one decode instead of one per record): the case is the one
// the definition gives, on valid encodings, corrupted ones, and valid ones
// with arbitrary bytes spliced in.
RC_GTEST_PROP(WireCaseDecode, KeepsTheRecordsTheModelAcceptsOnTheirOwn, ()) {
  const bool whole = ExpectCaseByDefinition(AnyCaseInput());
  RC_CLASSIFY(whole, "every record accepted");
  RC_CLASSIFY(!whole, "some bytes dropped");
}

// Both ways through DecodeCase, on inputs whose cases are known.
TEST(WireCaseDecode, KeepsEveryRecordOfAValidPayloadAndDropsABadOne) {
  // proto2 AllKinds: f_int32 (1) = 5 and = 7; between them, in the second
  // input, a packed r_int32 (21) whose one byte is a varint cut short: a
  // whole record that the model rejects, so it alone is dropped.
  const std::uint8_t valid[] = {0x00, 0x08, 0x05, 0x08, 0x07};
  const std::uint8_t with_bad[] = {0x00, 0x08, 0x05, 0xAA, 0x01,
                                   0x01, 0x80, 0x08, 0x07};
  const scenario::WireCase a =
      scenario::DecodeCase(oracle::CaseSchemas(), valid);
  const scenario::WireCase b =
      scenario::DecodeCase(oracle::CaseSchemas(), with_bad);
  const fairwire::Bytes both = {0x08, 0x05, 0x08, 0x07};
  EXPECT_EQ(a.payload, both);
  EXPECT_EQ(b.payload, both);
  EXPECT_TRUE(a.message == b.message);
  EXPECT_NE(a.message, model::EmptyMessage(*oracle::CaseSchemas()[0], 0));
}

const oracle::Subject& AnyFixedSubject() {
  const int which = *rc::gen::inRange(0, oracle::kFixedCount);
  return oracle::FixedSubject(static_cast<oracle::Fixed>(which));
}

// The checks decode with the model into storage kept from one input to the
// next (DecodeWithModel, the fuzz targets' cases; issue 12): model::Decode
// into a message that holds a value of another schema's type, nested
// messages and unknown records included, gives the status and the message
// that a fresh one gets, whether the bytes are accepted or not.
RC_GTEST_PROP(WireModelReuse,
              DecodingIntoAUsedMessageEqualsDecodingIntoAFreshOne, ()) {
  const oracle::Subject& before = AnyFixedSubject();
  const int type =
      *rc::gen::inRange<int>(0, static_cast<int>(before.model.messages.size()));
  model::Message used = *gen::Message(&before.model, type);
  const oracle::Subject& subject = AnyFixedSubject();
  const std::string bytes = AnyEncoding(subject);
  model::Message fresh;
  const model::Status expected =
      model::Decode(subject.model, 0, AsBytes(bytes), fresh);
  const model::Status got =
      model::Decode(subject.model, 0, AsBytes(bytes), used);
  RC_CLASSIFY(expected.ok, "accepted");
  RC_ASSERT(got.ok == expected.ok);
  RC_ASSERT(got.reason == expected.reason);
  RC_ASSERT(got.offset == expected.offset);
  RC_ASSERT(used == fresh);
}

// The same for scenario::DecodeCase into a case kept from another input (as
// wire_packed_unpacked's check keeps it), of either root.
RC_GTEST_PROP(WireModelReuse, DecodingACaseIntoAUsedOneEqualsAFreshDecode, ()) {
  scenario::WireCase used;
  scenario::DecodeCase(oracle::CaseSchemas(), AnyCaseInput(), used);
  const fairwire::Bytes input = AnyCaseInput();
  const scenario::WireCase fresh =
      scenario::DecodeCase(oracle::CaseSchemas(), input);
  scenario::DecodeCase(oracle::CaseSchemas(), input, used);
  RC_ASSERT(used.root == fresh.root);
  RC_ASSERT(used.variant == fresh.variant);
  RC_ASSERT(used.payload == fresh.payload);
  RC_ASSERT(used.message == fresh.message);
}

RC_GTEST_PROP(WireProperties,
              FastDecoderModelAndLibprotobufAgreeOnValidEncodings, ()) {
  const oracle::Subject& subject = AnyFixedSubject();
  const std::string bytes = ValidEncoding(subject);
  if (const auto v = oracle::CheckAgreement(subject, AsBytes(bytes)))
    RC_FAIL(*v);
}

RC_GTEST_PROP(WireProperties, EveryPrefixOfAValidEncodingGivesTheSameVerdict,
              ()) {
  const oracle::Subject& subject = AnyFixedSubject();
  const std::string bytes = ValidEncoding(subject);
  // At most 64 prefixes per case (evenly spread, the whole encoding last).
  const std::size_t step = bytes.size() / 64 + 1;
  for (std::size_t n = 0; n <= bytes.size(); n += step) {
    if (const auto v =
            oracle::CheckAgreement(subject, AsBytes(bytes).first(n))) {
      RC_FAIL("prefix of " + std::to_string(n) + " bytes: " + *v);
    }
  }
  if (const auto v = oracle::CheckAgreement(subject, AsBytes(bytes)))
    RC_FAIL(*v);
}

RC_GTEST_PROP(WireProperties,
              FastDecoderModelAndLibprotobufAgreeOnMutatedEncodings, ()) {
  const oracle::Subject& subject = AnyFixedSubject();
  const std::string bytes = gen::Corrupt(ValidEncoding(subject));
  if (const auto v = oracle::CheckAgreement(subject, AsBytes(bytes)))
    RC_FAIL(*v);
}

RC_GTEST_PROP(WireProperties,
              FastDecoderModelAndLibprotobufAgreeOnArbitraryBytes,
              (const std::vector<std::uint8_t>& bytes)) {
  const oracle::Subject& subject = AnyFixedSubject();
  if (const auto v = oracle::CheckAgreement(subject, bytes)) RC_FAIL(*v);
}

// Run-time schemas (as wire_schema_diff builds them) with generated messages:
// every variant decodes to the same value, and a mutated encoding gets the
// same verdict from the three decoders.
RC_GTEST_PROP(WireProperties, RunTimeSchemasDecodeEveryVariantAlike,
              (const std::vector<std::uint8_t>& schema_bytes)) {
  scenario::SchemaCase c = scenario::DecodeSchemaCase(schema_bytes);
  c.payload.clear();
  RC_CLASSIFY(c.messages[0].empty(), "root type without fields");
  google::protobuf::DescriptorPool pool;
  std::string error;
  const google::protobuf::FileDescriptor* file =
      oracle::BuildSchemaCase(c, pool, &error);
  if (file == nullptr) RC_FAIL("schema rejected: " + error);
  google::protobuf::DynamicMessageFactory factory(&pool);
  const oracle::Subject subject =
      oracle::MakeSubject(*file->message_type(0), factory);
  if (!subject.fairwire) RC_FAIL("adapter refused: " + subject.adapter_error);
  const model::Message m = *gen::Message(&subject.model, 0, 2);
  const std::string canonical = model::Serialize(subject.model, m);
  if (const auto v = oracle::CheckMessageVariants(
          subject, m, AsBytes(canonical), /*all_decoders=*/true)) {
    RC_FAIL(scenario::SchemaText(c) + *v);
  }
}

}  // namespace
}  // namespace fairwire::wire
