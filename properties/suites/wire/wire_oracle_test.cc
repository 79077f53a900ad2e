// The wire oracle and the variant check cannot be switched off silently: for
// each decoder, a planted wrong result (accept for reject, reject for accept,
// other canonical bytes, a missing verdict) makes the check fail, and the
// violation's property (the text before its first ':', which fuzz
// regressions and the runner's triage group by) names that decoder. The
// closed-enum 2^32 difference is masked between generated code and
// DynamicMessage only. End to end, a Subject whose fairwire Schema is wrong
// makes CheckAgreement and CheckMessageVariants report fairwire, which shows
// fairwire's decoder really runs. Valid inputs of every fixed subject pass
// first, so that none of this is vacuous.
#include "fairwire/checks/wire_oracle.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/checks/wire_checks.h"
#include "fairwire/checks/wire_typed_subjects.h"
#include "fairwire/models/wire_model.h"
#include "fairwire/scenarios/wire_case.h"
#include "fairwire/wire/schema.h"
#include "fairwire_test3.pb.h"

namespace fairwire::wire {
namespace {

using oracle::ByteSpan;
using oracle::Fixed;
using oracle::NamedVerdict;
using oracle::Subject;
using oracle::Verdict;
using oracle::Verdicts;

constexpr Fixed kEveryFixed[] = {Fixed::kAllKinds, Fixed::kAllKinds3,
                                 Fixed::kNested, Fixed::kNested3};

ByteSpan AsBytes(const std::string& s) {
  return ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

// The property a violation reports: the text before its first ':'.
std::string Property(const std::optional<std::string>& violation) {
  if (!violation) return "(no violation)";
  return violation->substr(0, violation->find(':'));
}

// A valid input of each fixed subject, already canonical (fields in number
// order, packed exactly where declared), touching several kinds each.
std::string ValidInput(Fixed which) {
  switch (which) {
    case Fixed::kAllKinds:
      return Bytes({0x08, 0x02,                      // f_int32: 2
                    0x40, 0x01,                      // f_enum: COLOR_GREEN
                    0x7a, 0x02, 'h',  'i',           // f_string: "hi"
                    0x92, 0x01, 0x02, 0x08, 0x05,    // f_self { f_int32: 5 }
                    0xa8, 0x01, 0x05,                // r_int32: 5 (unpacked)
                    0xd2, 0x02, 0x02, 0x01, 0x02});  // p_int64: [1, 2]
    case Fixed::kAllKinds3:
      return Bytes({0x08, 0x02,                      // f_int32: 2
                    0x40, 0x07,                      // f_enum: 7 (open)
                    0x7a, 0x02, 'o', 'k',            // f_string: "ok"
                    0xca, 0x02, 0x02, 0x01, 0x02});  // p_int32: [1, 2]
    case Fixed::kNested:
      return Bytes({0x08, 0x01,                // id: 1
                    0x12, 0x02, 0x02, 0x03,    // deltas: [1, -2] (sint64)
                    0x1a, 0x01, 'x',           // label: "x"
                    0x20, 0x02,                // color: COLOR_BLUE
                    0x2a, 0x02, 0x08, 0x03});  // child { id: 3 }
    case Fixed::kNested3:
      return Bytes({0x08, 0x01,                // id: 1
                    0x12, 0x01, 'y',           // label: "y"
                    0x1a, 0x02, 0x01, 0x02,    // shades: [1, 2]
                    0x22, 0x02, 0x08, 0x04});  // child { id: 4 }
  }
  return {};
}

// A record no decoder keeps: field 1000, varint 1 (an unknown field of every
// fixed schema). Appended to a canonical re-serialisation it makes other
// bytes that no closed-enum truncation can explain.
const std::string kExtraRecord = Bytes({0xc0, 0x3e, 0x01});

// A Verdict planted wrong in the three ways a decoder can be wrong.
void RejectIt(Verdict& v) {
  v.ok = false;
  v.canonical.clear();
  v.reason = "planted rejection";
}
void AcceptIt(Verdict& v) {
  v.ok = true;
  v.canonical.clear();
  v.reason.clear();
}
void ChangeItsBytes(Verdict& v) { v.canonical += kExtraRecord; }

// The same schema with `change` applied to every field of every message.
wire::Schema ChangedSchema(
    const wire::Schema& schema,
    const std::function<void(const MessageDef&, FieldDef&)>& change) {
  SchemaBuilder builder;
  for (const EnumDef& e : schema.enums()) builder.AddEnum(e);
  for (const MessageDef& m : schema.messages()) builder.AddMessage(m.name);
  for (std::size_t i = 0; i < schema.messages().size(); ++i) {
    const MessageDef& m = schema.messages()[i];
    for (FieldDef f : m.fields) {
      change(m, f);
      builder.AddField(static_cast<std::int32_t>(i), std::move(f));
    }
  }
  SchemaError error;
  std::optional<wire::Schema> out = std::move(builder).Build(&error);
  EXPECT_TRUE(out.has_value()) << error.message;
  return out ? *std::move(out) : schema;
}

// fairwire.test.AllKinds with f_int32 (field 1) declared bool in fairwire's
// schema only: fairwire reads f_int32 = 2 as true and re-serialises it as 1.
Subject AllKindsWithF1AsBool() {
  Subject s = oracle::FixedSubject(Fixed::kAllKinds);
  s.fairwire = ChangedSchema(*s.fairwire, [](const MessageDef& m, FieldDef& f) {
    if (m.name == "fairwire.test.AllKinds" && f.number == 1) {
      f.kind = FieldKind::kBool;
    }
  });
  return s;
}

model::Message ModelMessage(const Subject& subject, const std::string& bytes) {
  model::Message m;
  const model::Status st = model::Decode(subject.model, 0, AsBytes(bytes), m);
  EXPECT_TRUE(st.ok) << st.reason << " at byte " << st.offset;
  return m;
}

// --- Not vacuous: valid inputs pass -----------------------------------------

TEST(WireOracle, ValidInputOfEveryFixedSubjectPasses) {
  for (const Fixed which : kEveryFixed) {
    const Subject& subject = oracle::FixedSubject(which);
    SCOPED_TRACE(subject.name);
    ASSERT_TRUE(subject.fairwire.has_value()) << subject.adapter_error;
    ASSERT_NE(subject.generated, nullptr);
    EXPECT_EQ(subject.fixed, which);
    EXPECT_EQ(subject.typed_check, &oracle::CheckTyped);
    const std::string input = ValidInput(which);
    EXPECT_EQ(oracle::CheckAgreement(subject, AsBytes(input)), std::nullopt);
    // Every decoder ran and accepted, re-serialising to the input itself.
    const Verdicts v = oracle::DecodeWithEach(subject, AsBytes(input));
    ASSERT_TRUE(v.fairwire.has_value());
    ASSERT_TRUE(v.generated.has_value());
    for (const Verdict* each :
         {&v.dynamic, &v.model, &*v.fairwire, &*v.generated}) {
      EXPECT_TRUE(each->ok) << each->reason;
      EXPECT_EQ(each->canonical, input);
    }
    EXPECT_EQ(oracle::FindDisagreement(subject, v), std::nullopt);
    EXPECT_EQ(oracle::CheckTyped(which, AsBytes(input)), std::nullopt);
  }
}

TEST(WireOracle, AnInputEveryDecoderRejectsPasses) {
  // A tag and no value: truncated for every decoder.
  const std::string input = Bytes({0x08});
  for (const Fixed which : kEveryFixed) {
    const Subject& subject = oracle::FixedSubject(which);
    SCOPED_TRACE(subject.name);
    const Verdicts v = oracle::DecodeWithEach(subject, AsBytes(input));
    ASSERT_TRUE(v.fairwire.has_value());
    ASSERT_TRUE(v.generated.has_value());
    for (const Verdict* each :
         {&v.dynamic, &v.model, &*v.fairwire, &*v.generated}) {
      EXPECT_FALSE(each->ok);
    }
    EXPECT_EQ(oracle::FindDisagreement(subject, v), std::nullopt);
    EXPECT_EQ(oracle::CheckAgreement(subject, AsBytes(input)), std::nullopt);
  }
}

// --- FindDisagreement: a planted wrong verdict of each decoder --------------

// The property FindDisagreement reports on `input` of `which` after `plant`.
std::string PlantedProperty(Fixed which, const std::string& input,
                            const std::function<void(Verdicts&)>& plant) {
  const Subject& subject = oracle::FixedSubject(which);
  Verdicts v = oracle::DecodeWithEach(subject, AsBytes(input));
  EXPECT_EQ(oracle::FindDisagreement(subject, v), std::nullopt)
      << "before planting";
  plant(v);
  return Property(oracle::FindDisagreement(subject, v));
}

TEST(WireOracle, AWrongFairwireVerdictIsReported) {
  const std::string rejected = Bytes({0x08});
  for (const Fixed which : kEveryFixed) {
    SCOPED_TRACE(oracle::FixedSubject(which).name);
    const std::string valid = ValidInput(which);
    EXPECT_EQ(PlantedProperty(which, valid,
                              [](Verdicts& v) { RejectIt(*v.fairwire); }),
              "fairwire-vs-libprotobuf-accept");
    EXPECT_EQ(PlantedProperty(which, rejected,
                              [](Verdicts& v) { AcceptIt(*v.fairwire); }),
              "fairwire-vs-libprotobuf-accept");
    EXPECT_EQ(PlantedProperty(which, valid,
                              [](Verdicts& v) { ChangeItsBytes(*v.fairwire); }),
              "fairwire-vs-libprotobuf-bytes");
  }
}

TEST(WireOracle, AWrongModelVerdictIsReported) {
  const std::string rejected = Bytes({0x08});
  for (const Fixed which : kEveryFixed) {
    SCOPED_TRACE(oracle::FixedSubject(which).name);
    const std::string valid = ValidInput(which);
    EXPECT_EQ(
        PlantedProperty(which, valid, [](Verdicts& v) { RejectIt(v.model); }),
        "model-vs-libprotobuf-accept");
    EXPECT_EQ(PlantedProperty(which, rejected,
                              [](Verdicts& v) { AcceptIt(v.model); }),
              "model-vs-libprotobuf-accept");
    EXPECT_EQ(PlantedProperty(which, valid,
                              [](Verdicts& v) { ChangeItsBytes(v.model); }),
              "model-vs-libprotobuf-bytes");
  }
}

TEST(WireOracle, AWrongGeneratedCodeVerdictIsReported) {
  const std::string rejected = Bytes({0x08});
  for (const Fixed which : kEveryFixed) {
    SCOPED_TRACE(oracle::FixedSubject(which).name);
    const std::string valid = ValidInput(which);
    EXPECT_EQ(PlantedProperty(which, valid,
                              [](Verdicts& v) { RejectIt(*v.generated); }),
              "generated-vs-libprotobuf-accept");
    EXPECT_EQ(PlantedProperty(which, rejected,
                              [](Verdicts& v) { AcceptIt(*v.generated); }),
              "generated-vs-libprotobuf-accept");
    EXPECT_EQ(
        PlantedProperty(which, valid,
                        [](Verdicts& v) { ChangeItsBytes(*v.generated); }),
        "generated-vs-libprotobuf-bytes");
  }
}

TEST(WireOracle, AWrongDynamicMessageVerdictIsReported) {
  // DynamicMessage is the reference: wrong, it disagrees with fairwire first.
  for (const Fixed which : kEveryFixed) {
    SCOPED_TRACE(oracle::FixedSubject(which).name);
    EXPECT_EQ(PlantedProperty(which, ValidInput(which),
                              [](Verdicts& v) { ChangeItsBytes(v.dynamic); }),
              "fairwire-vs-libprotobuf-bytes");
  }
}

TEST(WireOracle, AMissingVerdictIsReported) {
  for (const Fixed which : kEveryFixed) {
    SCOPED_TRACE(oracle::FixedSubject(which).name);
    const std::string valid = ValidInput(which);
    EXPECT_EQ(
        PlantedProperty(which, valid, [](Verdicts& v) { v.fairwire.reset(); }),
        "verdict-missing");
    EXPECT_EQ(
        PlantedProperty(which, valid, [](Verdicts& v) { v.generated.reset(); }),
        "verdict-missing");
  }
}

TEST(WireOracle, ASubjectWithoutAFairwireSchemaIsReported) {
  Subject subject = oracle::FixedSubject(Fixed::kAllKinds);
  const std::string valid = ValidInput(Fixed::kAllKinds);
  const model::Message message = ModelMessage(subject, valid);
  subject.fairwire.reset();
  subject.adapter_error = "planted refusal";
  const auto agreement = oracle::CheckAgreement(subject, AsBytes(valid));
  EXPECT_EQ(Property(agreement), "adapter-refused");
  ASSERT_TRUE(agreement.has_value());
  EXPECT_NE(agreement->find("planted refusal"), std::string::npos)
      << *agreement;
  EXPECT_EQ(Property(oracle::FindDisagreement(
                subject, oracle::DecodeWithEach(subject, AsBytes(valid)))),
            "adapter-refused");
  for (const bool all : {false, true}) {
    EXPECT_EQ(Property(oracle::CheckMessageVariants(subject, message,
                                                    AsBytes(valid), all)),
              "adapter-refused");
    EXPECT_EQ(Property(oracle::FindVariantViolation(
                  subject, "as-given", AsBytes(valid), valid,
                  oracle::DecodeEncoding(subject, AsBytes(valid), all), all)),
              "adapter-refused");
  }
}

// A typed check that always finds a (planted) difference.
std::optional<std::string> WrongTypedCheck(Fixed, ByteSpan) {
  return "typed-vs-fairwire-value: planted";
}

TEST(WireOracle, AWrongTypedResultIsReportedByCheckAgreement) {
  for (const Fixed which : kEveryFixed) {
    Subject subject = oracle::FixedSubject(which);
    SCOPED_TRACE(subject.name);
    const std::string valid = ValidInput(which);
    subject.typed_check = &WrongTypedCheck;
    EXPECT_EQ(Property(oracle::CheckAgreement(subject, AsBytes(valid))),
              "typed-vs-fairwire-value");
    subject.typed_check = nullptr;
    EXPECT_EQ(Property(oracle::CheckAgreement(subject, AsBytes(valid))),
              "verdict-missing");
  }
}

// --- The closed-enum 2^32 difference ----------------------------------------

TEST(WireOracle, ClosedEnumTruncationIsMaskedBetweenGeneratedAndDynamicOnly) {
  // f_enum (closed) arriving unpacked as 2^32 + 5, not a Color: generated
  // code keeps all 64 bits in the unknown fields, DynamicMessage the low 32.
  const std::string input =
      Bytes({0x40, 0x85, 0x80, 0x80, 0x80, 0x10});  // f_enum: 2^32 + 5
  const Subject& subject = oracle::FixedSubject(Fixed::kAllKinds);
  const Verdicts real = oracle::DecodeWithEach(subject, AsBytes(input));
  ASSERT_TRUE(real.dynamic.ok);
  ASSERT_TRUE(real.generated.has_value() && real.generated->ok);
  EXPECT_EQ(real.dynamic.canonical, Bytes({0x40, 0x05}));
  EXPECT_EQ(real.generated->canonical, input);
  // The difference is allowed between generated code and DynamicMessage...
  EXPECT_EQ(oracle::FindDisagreement(subject, real), std::nullopt);
  EXPECT_EQ(oracle::CheckAgreement(subject, AsBytes(input)), std::nullopt);
  // ...but in fairwire or the model the full value is a disagreement.
  Verdicts v = real;
  v.fairwire->canonical = input;
  EXPECT_EQ(Property(oracle::FindDisagreement(subject, v)),
            "fairwire-vs-libprotobuf-bytes");
  v = real;
  v.model.canonical = input;
  EXPECT_EQ(Property(oracle::FindDisagreement(subject, v)),
            "model-vs-libprotobuf-bytes");
  // And generated code is still compared beyond the truncation.
  v = real;
  v.generated->canonical = Bytes({0x40, 0x86, 0x80, 0x80, 0x80, 0x10});
  EXPECT_EQ(Property(oracle::FindDisagreement(subject, v)),
            "generated-vs-libprotobuf-bytes");
}

// --- The variant check: every encoding, every decoder -----------------------

// The encodings CheckMessageVariants goes through, by name.
std::vector<std::string> EveryEncoding() {
  std::vector<std::string> names{"as-given"};
  for (const scenario::Variant& variant : scenario::AllVariants()) {
    names.emplace_back(variant.name);
  }
  return names;
}

// CheckMessageVariantsWith on the valid input of `which`, with `plant`
// applied to the verdicts of the encoding named `target` only.
std::optional<std::string> PlantInVariant(
    Fixed which, bool all_decoders, const std::string& target,
    const std::function<void(std::vector<NamedVerdict>&)>& plant) {
  const Subject& subject = oracle::FixedSubject(which);
  const std::string valid = ValidInput(which);
  return oracle::CheckMessageVariantsWith(
      subject, ModelMessage(subject, valid), AsBytes(valid), all_decoders,
      [&](const std::string& variant, ByteSpan bytes) {
        auto verdicts = oracle::DecodeEncoding(subject, bytes, all_decoders);
        if (variant == target) plant(verdicts);
        return verdicts;
      });
}

// Applies `change` to the verdict named `decoder`.
std::function<void(std::vector<NamedVerdict>&)> OnDecoder(
    const std::string& decoder, void (*change)(Verdict&)) {
  return [decoder, change](std::vector<NamedVerdict>& verdicts) {
    for (NamedVerdict& v : verdicts) {
      if (v.name == decoder) change(v.verdict);
    }
  };
}

TEST(WireVariants, EveryVariantOfAValidMessagePasses) {
  for (const Fixed which : {Fixed::kAllKinds, Fixed::kAllKinds3}) {
    const Subject& subject = oracle::FixedSubject(which);
    SCOPED_TRACE(subject.name);
    const std::string valid = ValidInput(which);
    const model::Message message = ModelMessage(subject, valid);
    for (const bool all : {false, true}) {
      EXPECT_EQ(
          oracle::CheckMessageVariants(subject, message, AsBytes(valid), all),
          std::nullopt);
      // Every encoding is decoded, by every decoder it should be.
      std::vector<std::string> seen;
      EXPECT_EQ(oracle::CheckMessageVariantsWith(
                    subject, message, AsBytes(valid), all,
                    [&](const std::string& variant, ByteSpan bytes) {
                      seen.push_back(variant);
                      auto verdicts =
                          oracle::DecodeEncoding(subject, bytes, all);
                      std::vector<std::string> names;
                      for (const NamedVerdict& v : verdicts) {
                        names.push_back(v.name);
                      }
                      EXPECT_EQ(names, oracle::EncodingDecoders(subject, all));
                      return verdicts;
                    }),
                std::nullopt);
      EXPECT_EQ(seen, EveryEncoding());
    }
    EXPECT_EQ(oracle::EncodingDecoders(subject, false),
              (std::vector<std::string>{"fairwire", "libprotobuf"}));
    EXPECT_EQ(oracle::EncodingDecoders(subject, true),
              (std::vector<std::string>{"fairwire", "model", "libprotobuf",
                                        "generated"}));
  }
}

TEST(WireVariants, AWrongVerdictInEachEncodingIsReported) {
  for (const Fixed which : {Fixed::kAllKinds, Fixed::kAllKinds3}) {
    SCOPED_TRACE(oracle::FixedSubject(which).name);
    for (const bool all : {false, true}) {
      const Subject& subject = oracle::FixedSubject(which);
      for (const std::string& decoder :
           oracle::EncodingDecoders(subject, all)) {
        for (const std::string& encoding : EveryEncoding()) {
          SCOPED_TRACE(encoding + "," + decoder);
          const std::string where = "(" + encoding + "," + decoder + ")";
          EXPECT_EQ(Property(PlantInVariant(which, all, encoding,
                                            OnDecoder(decoder, &RejectIt))),
                    "variant-rejected" + where);
          EXPECT_EQ(Property(PlantInVariant(which, all, encoding,
                                            OnDecoder(decoder, &AcceptIt))),
                    "variant-differs" + where);
          EXPECT_EQ(
              Property(PlantInVariant(which, all, encoding,
                                      OnDecoder(decoder, &ChangeItsBytes))),
              "variant-differs" + where);
          EXPECT_EQ(Property(PlantInVariant(
                        which, all, encoding,
                        [&](std::vector<NamedVerdict>& verdicts) {
                          std::erase_if(verdicts, [&](const NamedVerdict& v) {
                            return v.name == decoder;
                          });
                        })),
                    "variant-missing" + where);
        }
      }
    }
  }
}

// --- End to end: fairwire's decoder really runs -----------------------------

TEST(WireOracle, AWrongFairwireSchemaIsReportedByCheckAgreement) {
  const Subject wrong = AllKindsWithF1AsBool();
  // f_int32: 2, which the wrong schema reads as bool true.
  const std::string input = Bytes({0x08, 0x02});
  EXPECT_EQ(oracle::CheckAgreement(oracle::FixedSubject(Fixed::kAllKinds),
                                   AsBytes(input)),
            std::nullopt);
  const auto v = oracle::CheckAgreement(wrong, AsBytes(input));
  EXPECT_EQ(Property(v), "fairwire-vs-libprotobuf-bytes");
  // The bigger valid input too (its f_int32 is 2).
  EXPECT_EQ(Property(oracle::CheckAgreement(
                wrong, AsBytes(ValidInput(Fixed::kAllKinds)))),
            "fairwire-vs-libprotobuf-bytes");
}

TEST(WireOracle, AWrongFairwireUtf8RuleIsReportedByCheckAgreement) {
  // proto2 strings are not UTF-8 checked; a fairwire schema that checks
  // f_string rejects what libprotobuf accepts.
  Subject wrong = oracle::FixedSubject(Fixed::kAllKinds);
  wrong.fairwire =
      ChangedSchema(*wrong.fairwire, [](const MessageDef& m, FieldDef& f) {
        if (m.name == "fairwire.test.AllKinds" && f.number == 15) {
          f.validate_utf8 = true;
        }
      });
  const std::string input = Bytes({0x7a, 0x01, 0xff});  // f_string: "\xff"
  EXPECT_EQ(oracle::CheckAgreement(oracle::FixedSubject(Fixed::kAllKinds),
                                   AsBytes(input)),
            std::nullopt);
  EXPECT_EQ(Property(oracle::CheckAgreement(wrong, AsBytes(input))),
            "fairwire-vs-libprotobuf-accept");
}

TEST(WireVariants, AWrongFairwireSchemaIsReportedByCheckMessageVariants) {
  const Subject wrong = AllKindsWithF1AsBool();
  const std::string valid = ValidInput(Fixed::kAllKinds);
  const model::Message message = ModelMessage(wrong, valid);
  for (const bool all : {false, true}) {
    EXPECT_EQ(Property(oracle::CheckMessageVariants(wrong, message,
                                                    AsBytes(valid), all)),
              "variant-differs(as-given,fairwire)");
  }
}

// --- One comparison at a time (what wire_decode_diff runs per input) -------

using oracle::Comparison;

constexpr Comparison kEveryComparison[] = {
    Comparison::kFairwire, Comparison::kModel, Comparison::kGenerated,
    Comparison::kTyped};

// The property each comparison reports on `input` of `subject`, in the
// order of kEveryComparison.
std::vector<std::string> PropertyOfEach(const Subject& subject,
                                        const std::string& input) {
  std::vector<std::string> out;
  for (const Comparison c : kEveryComparison) {
    out.push_back(
        Property(oracle::CheckComparison(subject, AsBytes(input), c)));
  }
  return out;
}

TEST(WireComparison, AFixedSubjectHasAllFourAndARuntimeOneTwo) {
  for (const Fixed which : kEveryFixed) {
    const Subject& subject = oracle::FixedSubject(which);
    SCOPED_TRACE(subject.name);
    Comparison has[oracle::kComparisonCount];
    ASSERT_EQ(oracle::ComparisonsOf(subject, has), 4u);
    for (unsigned k = 0; k < 8; ++k) {
      EXPECT_EQ(oracle::ChooseComparison(subject, k), kEveryComparison[k % 4]);
    }
  }
  Subject runtime = oracle::FixedSubject(Fixed::kAllKinds);
  runtime.generated = nullptr;
  runtime.fixed.reset();
  Comparison has[oracle::kComparisonCount];
  ASSERT_EQ(oracle::ComparisonsOf(runtime, has), 2u);
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(oracle::ChooseComparison(runtime, k), kEveryComparison[k % 2]);
  }
  // Asked for one it lacks, a check reports it rather than passing.
  EXPECT_EQ(Property(oracle::CheckComparison(
                runtime, AsBytes(ValidInput(Fixed::kAllKinds)),
                Comparison::kGenerated)),
            "verdict-missing");
  EXPECT_EQ(
      Property(oracle::CheckComparison(
          runtime, AsBytes(ValidInput(Fixed::kAllKinds)), Comparison::kTyped)),
      "verdict-missing");
}

TEST(WireComparison, EachComparisonPassesAValidInput) {
  for (const Fixed which : kEveryFixed) {
    SCOPED_TRACE(oracle::FixedSubject(which).name);
    EXPECT_EQ(PropertyOfEach(oracle::FixedSubject(which), ValidInput(which)),
              std::vector<std::string>(4, "(no violation)"));
  }
}

// End to end, each comparison runs its own decoders and only those: a
// wrong decoder is reported by the comparisons it takes part in, with the
// text CheckAgreement gives, and by no other.
TEST(WireComparison, AWrongDecoderIsReportedByItsComparisonsOnly) {
  const std::string none = "(no violation)";
  // f_int32: 2 (fairwire's and the model's wrong schemas read it as bool);
  // f_int32: 0 (proto3 generated code drops it, proto2 keeps it).
  const std::string two = Bytes({0x08, 0x02});
  const std::string zero = Bytes({0x08, 0x00});

  const Subject fairwire = AllKindsWithF1AsBool();
  EXPECT_EQ(PropertyOfEach(fairwire, two),
            (std::vector<std::string>{"fairwire-vs-libprotobuf-bytes", none,
                                      none, none}));
  EXPECT_EQ(
      oracle::CheckComparison(fairwire, AsBytes(two), Comparison::kFairwire),
      oracle::CheckAgreement(fairwire, AsBytes(two)));

  Subject model = oracle::FixedSubject(Fixed::kAllKinds);
  for (model::Field& f : model.model.messages[0].fields) {
    if (f.number == 1) f.kind = model::Kind::kBool;
  }
  EXPECT_EQ(PropertyOfEach(model, two),
            (std::vector<std::string>{none, "model-vs-libprotobuf-bytes", none,
                                      none}));
  EXPECT_EQ(oracle::CheckComparison(model, AsBytes(two), Comparison::kModel),
            oracle::CheckAgreement(model, AsBytes(two)));

  Subject generated = oracle::FixedSubject(Fixed::kAllKinds);
  generated.generated = &fairwire::test::AllKinds3::default_instance();
  EXPECT_EQ(PropertyOfEach(generated, zero),
            (std::vector<std::string>{none, none,
                                      "generated-vs-libprotobuf-bytes", none}));
  EXPECT_EQ(
      oracle::CheckComparison(generated, AsBytes(zero), Comparison::kGenerated),
      oracle::CheckAgreement(generated, AsBytes(zero)));

  Subject typed = oracle::FixedSubject(Fixed::kAllKinds);
  typed.typed_check = &WrongTypedCheck;
  EXPECT_EQ(
      PropertyOfEach(typed, two),
      (std::vector<std::string>{none, none, none, "typed-vs-fairwire-value"}));

  Subject refused = oracle::FixedSubject(Fixed::kAllKinds);
  refused.fairwire.reset();
  refused.adapter_error = "planted refusal";
  EXPECT_EQ(Property(oracle::CheckComparison(refused, AsBytes(two),
                                             Comparison::kFairwire)),
            "adapter-refused");
}

}  // namespace
}  // namespace fairwire::wire
