// The typed bindings (DecodeInto, fairwire/checks/wire_typed_subjects.h)
// against the dynamic decoder and libprotobuf's generated code, for both fixed
// schemas: generated messages in every encoding variant, long packed and
// unpacked runs (so that block-wise packed loops and their tails are crossed at
// every alignment), prefixes and corruptions. Then the comparison itself: given
// a wrong typed result it must name the field that differs.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/checks/wire_typed_subjects.h"
#include "fairwire/generators/wire_generators.h"
#include "fairwire/scenarios/wire_case.h"
#include "fairwire/wire/decoder.h"

namespace fairwire::wire {
namespace {

using oracle::ByteSpan;
using oracle::Fixed;

ByteSpan AsBytes(const std::string& s) {
  return ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

Fixed AnyFixed() {
  return static_cast<Fixed>(*rc::gen::inRange(0, oracle::kFixedCount));
}

// Fails unless the typed decode agrees with Decode on `bytes`.
void RequireTypedAgreesWithDecode(Fixed which, const std::string& what,
                                  const std::string& bytes) {
  if (const auto v = oracle::CheckTyped(which, AsBytes(bytes))) {
    RC_FAIL(what + ": " + *v);
  }
}

// Fails unless the typed decode accepts `bytes` and re-serialises to
// `expected` (the model's canonical encoding) and to what generated code
// re-serialises to, closed-enum unknowns truncated on every side.
void RequireTypedMatchesGenerated(Fixed which, const std::string& what,
                                  const std::string& bytes,
                                  const std::string& expected) {
  const oracle::Subject& subject = oracle::FixedSubject(which);
  oracle::Verdict typed = oracle::DecodeWithTyped(which, AsBytes(bytes));
  oracle::Verdict generated =
      oracle::DecodeWithLibprotobuf(*subject.generated, AsBytes(bytes));
  oracle::Verdict model;
  model.ok = true;
  model.canonical = oracle::TruncateEnumUnknowns(subject.model, expected);
  for (oracle::Verdict* o : {&typed, &generated}) {
    if (o->ok) {
      o->canonical = oracle::TruncateEnumUnknowns(subject.model, o->canonical);
    }
  }
  if (auto v = oracle::Compare("typed", typed, "generated", generated,
                               subject.model)) {
    RC_FAIL(what + ": " + *v);
  }
  if (auto v = oracle::Compare("typed", typed, "model", model, subject.model)) {
    RC_FAIL(what + ": " + *v);
  }
}

RC_GTEST_PROP(WireTyped, TypedBindingsAgreeWithDecodeOnEveryVariant, ()) {
  const Fixed which = AnyFixed();
  const oracle::Subject& subject = oracle::FixedSubject(which);
  // Up to three levels below the root: deeper than the structs bind, so
  // unbound message fields land in the deepest struct's unknown fields.
  const model::Message m = *gen::Message(&subject.model, 0, 3);
  RequireTypedAgreesWithDecode(which, "canonical",
                               model::Serialize(subject.model, m));
  for (const scenario::Variant& variant : scenario::AllVariants()) {
    const std::string bytes =
        scenario::EncodeVariant(subject.model, m, variant);
    RequireTypedAgreesWithDecode(which, variant.name, bytes);
    if (!oracle::DecodeWithTyped(which, AsBytes(bytes)).ok) {
      RC_FAIL(std::string("typed-rejects-valid: the ") + variant.name +
              " encoding of a valid message");
    }
  }
}

RC_GTEST_PROP(WireTyped, TypedBindingsMatchGeneratedCodeOnEveryVariant, ()) {
  const Fixed which = AnyFixed();
  const oracle::Subject& subject = oracle::FixedSubject(which);
  // Nested no deeper than the structs bind: every field is bound.
  const model::Message m =
      *gen::Message(&subject.model, 0, oracle::kTypedDepth);
  const std::string expected = model::Serialize(subject.model, m);
  RequireTypedMatchesGenerated(which, "canonical", expected, expected);
  for (const scenario::Variant& variant : scenario::AllVariants()) {
    RequireTypedMatchesGenerated(
        which, variant.name, scenario::EncodeVariant(subject.model, m, variant),
        expected);
  }
}

// A valid value of `field`'s kind as the model stores it (the varint or raw
// bits), whose varint is `length` bytes long where the kind allows it.
std::uint64_t ValueOfLength(const model::Schema& schema,
                            const model::Field& field, int length,
                            std::uint64_t bits) {
  const std::uint64_t low =
      length == 1 ? 0 : std::uint64_t{1} << (7 * (length - 1));
  const std::uint64_t span = length == 10 ? ~low : (low << 7) - low - 1;
  const std::uint64_t v = length == 1 ? bits & 0x7f : low + bits % (span + 1);
  const auto sign_extend = [](std::uint64_t x) {
    return static_cast<std::uint64_t>(
        static_cast<std::int64_t>(static_cast<std::int32_t>(x)));
  };
  switch (field.kind) {
    case model::Kind::kInt32:
      return sign_extend(v);
    case model::Kind::kEnum: {
      const model::EnumType& e = schema.enums[field.enum_index];
      if (e.closed) {
        return sign_extend(
            static_cast<std::uint32_t>(e.values[bits % e.values.size()]));
      }
      return sign_extend(v);
    }
    case model::Kind::kUint32:
    case model::Kind::kSint32:
    case model::Kind::kFixed32:
    case model::Kind::kSfixed32:
    case model::Kind::kFloat:
      return v & 0xffffffffu;
    case model::Kind::kBool:
      return v & 1u;
    default:
      return v;
  }
}

RC_GTEST_PROP(WireTyped, TypedBindingsAgreeOnLongPackedAndUnpackedRuns, ()) {
  const Fixed which = *rc::gen::element(Fixed::kAllKinds, Fixed::kAllKinds3);
  const oracle::Subject& subject = oracle::FixedSubject(which);
  const model::MessageType& type = subject.model.messages[0];
  model::Message m = model::EmptyMessage(subject.model, 0);
  std::vector<std::size_t> packable;
  std::size_t bytes_field = 0;
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    if (type.fields[i].repeated && model::KindPackable(type.fields[i].kind)) {
      packable.push_back(i);
    }
    if (type.fields[i].name == "f_bytes") bytes_field = i;
  }
  // A bytes field of 0..127 bytes first moves every later record to another
  // alignment; trailing unknown bytes move the input's end.
  m.fields[bytes_field].strings.push_back(
      std::string(*rc::gen::inRange<std::size_t>(0, 128), 'x'));
  const int runs = *rc::gen::inRange(1, 4);
  for (int r = 0; r < runs; ++r) {
    const std::size_t index = *rc::gen::elementOf(packable);
    const model::Field& field = type.fields[index];
    const int count = *rc::gen::inRange(1, 3000);
    // Lengths uniform on 1..10, or one length throughout.
    const int fixed_length = *rc::gen::inRange(0, 11);
    const auto bits = *rc::gen::container<std::vector<std::uint64_t>>(
        static_cast<std::size_t>(count), rc::gen::arbitrary<std::uint64_t>());
    auto& scalars = m.fields[index].scalars;
    for (int k = 0; k < count; ++k) {
      const std::uint64_t b = bits[static_cast<std::size_t>(k)];
      const int length =
          fixed_length != 0 ? fixed_length : static_cast<int>(b % 10) + 1;
      scalars.push_back(ValueOfLength(subject.model, field, length, b >> 4));
    }
  }
  model::UnknownRecord tail;
  tail.number = 99;
  tail.wire_type = 2;
  tail.bytes.assign(*rc::gen::inRange<std::size_t>(0, 96), '\x01');
  m.unknown.push_back(tail);
  const std::string expected = model::Serialize(subject.model, m);
  const scenario::Variant variant = *gen::Variant();
  RC_TAG(variant.name);
  for (const std::string& bytes :
       {expected, scenario::EncodeVariant(subject.model, m, variant)}) {
    RequireTypedAgreesWithDecode(which, variant.name, bytes);
    RequireTypedMatchesGenerated(which, variant.name, bytes, expected);
  }
}

RC_GTEST_PROP(WireTyped, TypedBindingsRejectAtTheSameOffset, ()) {
  const Fixed which = AnyFixed();
  const oracle::Subject& subject = oracle::FixedSubject(which);
  const model::Message m = *gen::Message(&subject.model, 0);
  const std::string valid =
      scenario::EncodeVariant(subject.model, m, *gen::Variant());
  const std::string bytes = gen::Corrupt(valid);
  RC_CLASSIFY(!oracle::DecodeWithTyped(which, AsBytes(bytes)).ok, "rejected");
  RequireTypedAgreesWithDecode(which, "corrupted", bytes);
  // Every prefix of the valid encoding (at most 64, evenly spread).
  const std::size_t step = valid.size() / 64 + 1;
  for (std::size_t n = 0; n < valid.size(); n += step) {
    RequireTypedAgreesWithDecode(
        which, "prefix of " + std::to_string(n) + " bytes", valid.substr(0, n));
  }
}

RC_GTEST_PROP(WireTyped, TypedBindingsAgreeWithDecodeOnArbitraryBytes,
              (const std::vector<std::uint8_t>& bytes)) {
  const Fixed which = AnyFixed();
  if (const auto v = oracle::CheckTyped(which, bytes)) RC_FAIL(*v);
}

// --- The comparison catches a wrong typed result ----------------------------

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

// AllKinds: p_int64 = {1, 300, -1} packed; f_self { f_string "hi",
// r_enum [COLOR_BLUE] }; f_bool true; an unknown varint record (field 99).
const std::string kSample =
    Bytes({0xd2, 0x02, 0x0d, 0x01, 0xac, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff,
           0xff, 0xff, 0xff, 0xff, 0x01, 0x92, 0x01, 0x07, 0x7a, 0x02, 'h',
           'i',  0xe0, 0x01, 0x02, 0x38, 0x01, 0x98, 0x06, 0x07});

struct Decoded {
  std::unique_ptr<oracle::typed::AllKinds> typed =
      std::make_unique<oracle::typed::AllKinds>();
  Message dynamic{oracle::TypedSchema(Fixed::kAllKinds), 0};
};

std::unique_ptr<Decoded> DecodeSample(const std::string& input) {
  auto d = std::make_unique<Decoded>();
  EXPECT_TRUE(oracle::DecodeTyped(AsBytes(input), *d->typed).ok());
  EXPECT_TRUE(Decode(AsBytes(input), d->dynamic).ok());
  return d;
}

TEST(WireTypedComparison, AgreesOnTheSampleBeforeAnyChange) {
  const auto d = DecodeSample(kSample);
  EXPECT_EQ(d->typed->p_int64, (std::vector<std::int64_t>{1, 300, -1}));
  ASSERT_TRUE(d->typed->f_self.has_value());
  EXPECT_EQ(d->typed->f_self->f_string, "hi");
  EXPECT_EQ(d->typed->unknown, Bytes({0x98, 0x06, 0x07}));
  EXPECT_EQ(oracle::CompareTyped(*d->typed, d->dynamic), std::nullopt);
  EXPECT_EQ(oracle::CheckTyped(Fixed::kAllKinds, AsBytes(kSample)),
            std::nullopt);
}

TEST(WireTypedComparison, ReportsAWrongPackedElementByIndex) {
  const auto d = DecodeSample(kSample);
  d->typed->p_int64[1] = 301;
  const auto v = oracle::CompareTyped(*d->typed, d->dynamic);
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->find("typed-vs-fairwire-value: AllKinds.p_int64[1]: "
                    "DecodeInto 301, Decode 300"),
            std::string::npos)
      << *v;
}

TEST(WireTypedComparison, ReportsAMissingElementAsACountDifference) {
  const auto d = DecodeSample(kSample);
  d->typed->p_int64.pop_back();
  const auto v = oracle::CompareTyped(*d->typed, d->dynamic);
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->find("typed-vs-fairwire-count: AllKinds.p_int64: DecodeInto "
                    "holds 2 values, Decode 3"),
            std::string::npos)
      << *v;
}

TEST(WireTypedComparison, ReportsANestedDifferenceByItsPath) {
  const auto d = DecodeSample(kSample);
  d->typed->f_self->f_string = "ho";
  const auto v = oracle::CompareTyped(*d->typed, d->dynamic);
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->find("typed-vs-fairwire-value: AllKinds.f_self.f_string"),
            std::string::npos)
      << *v;
  d->typed->f_self->f_string = "hi";
  d->typed->f_self->r_enum.push_back(oracle::typed::Color{1});
  const auto w = oracle::CompareTyped(*d->typed, d->dynamic);
  ASSERT_TRUE(w.has_value());
  EXPECT_NE(w->find("typed-vs-fairwire-count: AllKinds.f_self.r_enum"),
            std::string::npos)
      << *w;
}

TEST(WireTypedComparison, ReportsLostPresence) {
  const auto d = DecodeSample(kSample);
  d->typed->f_bool.reset();
  const auto v = oracle::CompareTyped(*d->typed, d->dynamic);
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->find("typed-vs-fairwire-presence: AllKinds.f_bool: DecodeInto "
                    "has none"),
            std::string::npos)
      << *v;
}

TEST(WireTypedComparison, ReportsDifferentUnknownFieldBytes) {
  const auto d = DecodeSample(kSample);
  d->typed->unknown.back() = '\x08';
  const auto v = oracle::CompareTyped(*d->typed, d->dynamic);
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->find("typed-vs-fairwire-unknown: AllKinds: "), std::string::npos)
      << *v;
}

TEST(WireTypedComparison, ReportsADifferentReasonOrOffset) {
  const DecodeStatus truncated{DecodeError::kTruncated, 4};
  EXPECT_EQ(oracle::CompareTypedStatus(truncated, truncated), std::nullopt);
  const auto offset = oracle::CompareTypedStatus(
      truncated, DecodeStatus{DecodeError::kTruncated, 5});
  ASSERT_TRUE(offset.has_value());
  EXPECT_EQ(*offset,
            "typed-vs-fairwire-status: DecodeInto rejects (truncated at byte "
            "4), Decode rejects (truncated at byte 5)");
  const auto accept = oracle::CompareTypedStatus(DecodeStatus{}, truncated);
  ASSERT_TRUE(accept.has_value());
  EXPECT_EQ(accept->rfind("typed-vs-fairwire-accept: DecodeInto accepts", 0),
            0u)
      << *accept;
}

TEST(WireTypedComparison, UnboundMessageFieldsOfTheDeepestLevelAreUnknown) {
  // f_self { f_self { f_self { f_int32: 5 } } }: the third level is below
  // the structs' depth, so it stays in the second level's unknown fields.
  static_assert(oracle::kTypedDepth == 2);
  const std::string input =
      Bytes({0x92, 0x01, 0x08, 0x92, 0x01, 0x05, 0x92, 0x01, 0x02, 0x08, 0x05});
  const auto d = DecodeSample(input);
  ASSERT_TRUE(d->typed->f_self.has_value());
  ASSERT_TRUE(d->typed->f_self->f_self.has_value());
  EXPECT_EQ(d->typed->f_self->f_self->unknown,
            Bytes({0x92, 0x01, 0x02, 0x08, 0x05}));
  EXPECT_EQ(oracle::CompareTyped(*d->typed, d->dynamic), std::nullopt);
  // Generated code reads all three levels: the typed result, re-serialised,
  // is the same bytes here (the unknown record re-encodes as it came).
  const oracle::Verdict typed =
      oracle::DecodeWithTyped(Fixed::kAllKinds, AsBytes(input));
  ASSERT_TRUE(typed.ok);
  EXPECT_EQ(typed.canonical, input);
}

}  // namespace
}  // namespace fairwire::wire
