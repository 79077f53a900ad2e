// The wire kit's comparison cannot pass a wrong decoder silently. Planted
// adapters over libprotobuf: a faithful one agrees (also when it re-encodes
// in another order), and each planted fault shows as its divergence class;
// each Profile entry masks exactly what it declares; a wrong reference is
// reported as the harness's, not the decoder's; minimisation reaches the
// record that matters. The known-divergences parser accepts its format and
// names the line of every malformation.
#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fairwire/checks/wire_adapter.h"
#include "fairwire/checks/wire_adapter_compare.h"
#include "fairwire/checks/wire_adapter_minimise.h"
#include "fairwire/checks/wire_known_divergences.h"
#include "fairwire/checks/wire_oracle.h"
#include "fairwire/models/wire_model.h"

namespace fairwire::wire::kit {
namespace {

namespace pb = google::protobuf;
using oracle::Fixed;
using Result = Comparison::Result;

// An adapter over libprotobuf's DynamicMessage, with a planted change of
// the decoded message (or of the whole answer) and a profile.
class PlantedAdapter final : public DecoderAdapter {
 public:
  using Change = std::function<void(ByteSpan input, Decoded&)>;
  explicit PlantedAdapter(Change change = {}, Profile profile = {})
      : change_(std::move(change)), profile_(profile) {}

  std::string name() const override { return "planted"; }
  Profile profile() const override { return profile_; }
  std::optional<Decoded> Decode(std::string_view full_name,
                                ByteSpan input) override {
    const oracle::Subject* s = nullptr;
    for (int i = 0; i < oracle::kFixedCount; ++i) {
      const auto& f = oracle::FixedSubject(static_cast<Fixed>(i));
      if (f.name == full_name) s = &f;
    }
    if (s == nullptr || full_name == "fairwire.test.Nested3") {
      return std::nullopt;  // one type missing, as an adapter may have
    }
    std::unique_ptr<pb::Message> m(s->dynamic->New());
    Decoded out;
    out.accepted =
        m->ParsePartialFromArray(input.data(), static_cast<int>(input.size()));
    if (out.accepted) out.reencoded = m->SerializePartialAsString();
    if (change_) change_(input, out);
    return out;
  }

 private:
  Change change_;
  Profile profile_;
};

const oracle::Subject& AllKinds() {
  return oracle::FixedSubject(Fixed::kAllKinds);
}

Comparison CompareBytes(DecoderAdapter& a,
                        const std::vector<std::uint8_t>& bytes,
                        const oracle::Subject& s = AllKinds()) {
  return CompareWithReference(a, s, bytes);
}

bool HasGroup(ByteSpan input) {
  return rules::Walk(AllKinds().model, 0, input).rules.Has(rules::Rule::kGroup);
}

// f_int32 = 150, then field 500 = 1 (unknown), f_enum = 5 (outside Color).
const std::vector<std::uint8_t> kWithUnknowns = {0x08, 0x96, 0x01, 0xa0,
                                                 0x1f, 0x01, 0x40, 0x05};
const std::vector<std::uint8_t> kGroup = {0x08, 0x01, 0x9b, 0x01,
                                          0x9c, 0x01, 0x10, 0x02};

TEST(WireKit, AFaithfulAdapterAgreesOnEveryKindOfInput) {
  PlantedAdapter faithful;
  for (const auto& bytes : {std::vector<std::uint8_t>{}, kWithUnknowns, kGroup,
                            std::vector<std::uint8_t>{0x08}}) {
    const Comparison c = CompareBytes(faithful, bytes);
    EXPECT_EQ(c.result, Result::kAgree)
        << DescribeComparison(c, AllKinds(), "planted", bytes);
  }
}

TEST(WireKit, TheReencodingsOrderDoesNotMatter) {
  // Unknown records first, then the known ones: the same message.
  PlantedAdapter reordered([](ByteSpan, Decoded& d) {
    if (d.accepted) d.reencoded = std::string("\xa0\x1f\x01\x08\x96\x01", 6);
  });
  const std::vector<std::uint8_t> bytes = {0x08, 0x96, 0x01, 0xa0, 0x1f, 0x01};
  EXPECT_EQ(CompareBytes(reordered, bytes).result, Result::kAgree);
}

TEST(WireKit, EachPlantedFaultIsItsDivergenceClass) {
  PlantedAdapter rejects_all([](ByteSpan, Decoded& d) {
    d = Decoded{false, "", "planted"};
  });
  Comparison c = CompareBytes(rejects_all, {0x08, 0x01});
  EXPECT_EQ(c.result, Result::kDiverge);
  EXPECT_EQ(c.ClassName(), "rejects-accepted/plain");

  PlantedAdapter accepts_all([](ByteSpan, Decoded& d) {
    if (!d.accepted) d = Decoded{true, "", ""};
  });
  c = CompareBytes(accepts_all, {0x0e});
  EXPECT_EQ(c.ClassName(), "accepts-rejected/wire-type-6-or-7");

  PlantedAdapter drops_unknowns([](ByteSpan, Decoded& d) {
    d.reencoded = d.reencoded.substr(0, 3);  // f_int32 only
  });
  c = CompareBytes(drops_unknowns, kWithUnknowns);
  EXPECT_EQ(c.result, Result::kDiverge);
  EXPECT_EQ(c.ClassName(),
            "differs/unknown-field+closed-enum-value-outside-enum");

  PlantedAdapter garbage([](ByteSpan, Decoded& d) {
    if (d.accepted) d.reencoded = "\x0e";
  });
  c = CompareBytes(garbage, {0x08, 0x01});
  EXPECT_EQ(c.ClassName(), "reencoding-unparseable/plain");

  PlantedAdapter off_by_one([](ByteSpan, Decoded& d) {
    if (d.accepted && d.reencoded.size() >= 2) d.reencoded[1]++;
  });
  c = CompareBytes(off_by_one, {0x08, 0x01});
  EXPECT_EQ(c.ClassName(), "differs/plain");
  EXPECT_NE(c.detail.find("compared as"), std::string::npos);
}

TEST(WireKit, EachProfileEntryMasksWhatItDeclaresAndNothingElse) {
  // Drops every unknown record, as a decoder without unknown fields does.
  auto strip = [](ByteSpan, Decoded& d) {
    if (!d.accepted) return;
    std::unique_ptr<pb::Message> m(AllKinds().dynamic->New());
    m->ParsePartialFromString(d.reencoded);
    m->DiscardUnknownFields();
    d.reencoded = m->SerializePartialAsString();
  };
  Profile drops;
  drops.drops_unknown_fields = true;
  EXPECT_EQ(CompareBytes(*std::make_unique<PlantedAdapter>(strip, drops),
                         kWithUnknowns)
                .result,
            Result::kAgree);
  EXPECT_EQ(
      CompareBytes(*std::make_unique<PlantedAdapter>(strip), kWithUnknowns)
          .result,
      Result::kDiverge);
  // With keeps_closed_enum_unknowns, the enum's unknown value must stay.
  Profile drops_keeps = drops;
  drops_keeps.keeps_closed_enum_unknowns = true;
  EXPECT_EQ(CompareBytes(*std::make_unique<PlantedAdapter>(strip, drops_keeps),
                         kWithUnknowns)
                .result,
            Result::kDiverge);

  // A singular closed enum met twice, 1 then 8 (outside Color): a keeping
  // decoder's one value must be one of libprotobuf's (field 1, unknown 8).
  Profile keeps;
  keeps.keeps_closed_enum_unknowns = true;
  auto answers = [&](std::string bytes) {
    return CompareBytes(*std::make_unique<PlantedAdapter>(
                            [bytes](ByteSpan, Decoded& d) {
                              d = Decoded{true, bytes, ""};
                            },
                            keeps),
                        {0x40, 0x01, 0x40, 0x08});
  };
  EXPECT_EQ(answers("\x40\x08").result, Result::kAgree);
  EXPECT_EQ(answers("\x40\x01").result, Result::kAgree);
  EXPECT_EQ(answers("\x40\x09").result, Result::kDiverge);
  EXPECT_EQ(answers("").result, Result::kDiverge);
  EXPECT_EQ(answers("\x40\x01\x40\x08").result, Result::kAgree);
  // Nested.color as an empty len record (a wrong wire type), then 32
  // (outside Color): the decoder keeps 32 in the field and writes it first.
  PlantedAdapter reorders(
      [](ByteSpan, Decoded& d) {
        d = Decoded{true, std::string("\x20\x20\x22\x00", 4), ""};
      },
      keeps);
  EXPECT_EQ(CompareBytes(reorders, {0x22, 0x00, 0x20, 0x20},
                         oracle::FixedSubject(Fixed::kNested))
                .result,
            Result::kAgree);
  // 32, then an i64 record: libprotobuf's order kept when lining up.
  PlantedAdapter faithful({}, keeps);
  EXPECT_EQ(CompareBytes(faithful,
                         {0x20, 0x20, 0x21, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
                          0x20, 0x20},
                         oracle::FixedSubject(Fixed::kNested))
                .result,
            Result::kAgree);  // as libprotobuf

  // ... and only those: a wrong-wire-type record of a declared field (f_float
  // as a varint) is an unknown field like any other.
  PlantedAdapter keeps_enum_only(
      [](ByteSpan, Decoded& d) {
        if (d.accepted) d.reencoded = std::string("\x40\x05", 2);
      },
      drops_keeps);
  EXPECT_EQ(CompareBytes(keeps_enum_only, {0x68, 0x68, 0x40, 0x05}).result,
            Result::kAgree);

  auto rejects_groups = [](ByteSpan input, Decoded& d) {
    if (HasGroup(input)) d = Decoded{false, "", "no groups"};
  };
  Profile no_groups;
  no_groups.no_groups = true;
  const Comparison declared = CompareBytes(
      *std::make_unique<PlantedAdapter>(rejects_groups, no_groups), kGroup);
  EXPECT_EQ(declared.result, Result::kDeclared);
  EXPECT_EQ(declared.declared_by, "no_groups");
  EXPECT_EQ(
      CompareBytes(*std::make_unique<PlantedAdapter>(rejects_groups), kGroup)
          .ClassName(),
      "rejects-accepted/group+unknown-field");

  Profile short_strings;
  short_strings.max_length = 1;
  EXPECT_EQ(CompareBytes(*std::make_unique<PlantedAdapter>(
                             [](ByteSpan, Decoded& d) { d.accepted = false; },
                             short_strings),
                         {0x7a, 0x02, 'h', 'i'})
                .declared_by,
            "max_length");
  EXPECT_EQ(CompareBytes(*std::make_unique<PlantedAdapter>(
                             [](ByteSpan, Decoded& d) { d.accepted = false; },
                             short_strings),
                         {0x7a, 0x01, 'h'})
                .result,
            Result::kDiverge);
}

TEST(WireKit, APartialDecoderIsComparedOnWhatItReads) {
  // Reads only f_int32 (1) and skips the rest without looking inside.
  static constexpr std::uint32_t kReads[] = {1};
  Profile partial;
  partial.reads_only = kReads;
  partial.validates_skipped = false;
  auto only_f_int32 = [](ByteSpan input, Decoded& d) {
    // A well-formed f_int32 = 150 and anything skippable after it.
    d = Decoded{true, std::string("\x08\x96\x01", 3), ""};
    if (input.size() < 3 || input[0] != 0x08) d = Decoded{false, "", "x"};
  };
  PlantedAdapter a(only_f_int32, partial);
  // f_int32 = 150, f_string "hi", an unknown field: only f_int32 compared.
  EXPECT_EQ(CompareBytes(
                a, {0x08, 0x96, 0x01, 0x7a, 0x02, 'h', 'i', 0xa0, 0x1f, 0x01})
                .result,
            Result::kAgree);
  // A malformed f_nested (skipped): declared, not a divergence.
  const Comparison skipped =
      CompareBytes(a, {0x08, 0x96, 0x01, 0x8a, 0x01, 0x01, 0x08});
  EXPECT_EQ(skipped.result, Result::kDeclared);
  EXPECT_EQ(skipped.declared_by, "validates_skipped");
  // A wrong f_int32 still diverges.
  PlantedAdapter wrong(
      [](ByteSpan, Decoded& d) {
        d = Decoded{true, std::string("\x08\x01", 2), ""};
      },
      partial);
  EXPECT_EQ(CompareBytes(wrong, {0x08, 0x96, 0x01}).result, Result::kDiverge);
  // So does accepting a structural malformation a skipper must see.
  PlantedAdapter lax(
      [](ByteSpan, Decoded& d) {
        d = Decoded{true, std::string("\x08\x96\x01", 3), ""};
      },
      partial);
  EXPECT_EQ(CompareBytes(lax, {0x08, 0x96, 0x01, 0x7a, 0x05}).ClassName(),
            "accepts-rejected/length-past-end");
}

TEST(WireKit, AnOmittedFieldIsComparedInNeitherForm) {
  static constexpr std::uint32_t kOmits[] = {17};  // f_nested
  Profile omitting;
  omitting.omits = kOmits;
  // A decoder without f_nested: it skips the record, unread, and drops it;
  // it accepts every input it can skip through.
  auto without_f_nested = [](ByteSpan, Decoded& d) {
    if (!d.accepted) {
      d = Decoded{true, "", ""};
      return;
    }
    std::unique_ptr<pb::Message> m(AllKinds().dynamic->New());
    ASSERT_TRUE(m->ParsePartialFromString(d.reencoded));
    m->GetReflection()->ClearField(m.get(),
                                   m->GetDescriptor()->FindFieldByNumber(17));
    d.reencoded = m->SerializePartialAsString();
  };
  // f_int32 = 150, f_nested {id: 1}, f_self {f_nested {id: 1}}.
  const std::vector<std::uint8_t> nested_twice = {
      0x08, 0x96, 0x01, 0x8a, 0x01, 0x02, 0x08, 0x01,
      0x92, 0x01, 0x05, 0x8a, 0x01, 0x02, 0x08, 0x01};
  PlantedAdapter a(without_f_nested, omitting);
  EXPECT_EQ(CompareBytes(a, nested_twice).result, Result::kAgree);
  PlantedAdapter undeclared(without_f_nested);
  EXPECT_EQ(CompareBytes(undeclared, nested_twice).ClassName(),
            "differs/plain");
  // A malformed f_nested, which it never reads: declared.
  const Comparison skipped = CompareBytes(a, {0x8a, 0x01, 0x01, 0x08});
  EXPECT_EQ(skipped.result, Result::kDeclared);
  EXPECT_EQ(skipped.declared_by, "omits");
  // A malformation outside it still diverges.
  EXPECT_EQ(CompareBytes(a, {0x08, 0x96, 0x01, 0x7a, 0x05}).ClassName(),
            "accepts-rejected/length-past-end");
}

TEST(WireKit, AMissingTypeIsNoTypeNotADivergence) {
  PlantedAdapter a;
  EXPECT_EQ(CompareBytes(a, {}, oracle::FixedSubject(Fixed::kNested3)).result,
            Result::kNoType);
}

TEST(WireKit, AWrongReferenceIsTheHarnesssFailure) {
  // The model's f_int32 made packed repeated: the model re-serialises
  // f_int32 = 1 packed, DynamicMessage does not.
  oracle::Subject wrong = AllKinds();
  for (auto& f : wrong.model.messages[0].fields) {
    if (f.number == 1) f.repeated = f.packed = true;
  }
  PlantedAdapter a;
  const Comparison c =
      CompareWithReference(a, wrong, std::vector<std::uint8_t>{0x08, 0x01});
  EXPECT_EQ(c.result, Result::kOracleDisagrees);
  EXPECT_NE(c.detail.find("model-vs-libprotobuf"), std::string::npos)
      << c.detail;
}

TEST(WireKit, MinimisationReachesTheRecordThatDiverges) {
  auto rejects_groups = [](ByteSpan input, Decoded& d) {
    if (HasGroup(input)) d = Decoded{false, "", "no groups"};
  };
  PlantedAdapter a(rejects_groups);
  // A group holding records, among other records.
  const std::vector<std::uint8_t> bytes = {0x08, 0x01, 0x9b, 0x01, 0x08, 0x01,
                                           0xa0, 0x1f, 0x01, 0x9c, 0x01, 0x10,
                                           0x02, 0x7a, 0x01, 'x'};
  const Comparison c = CompareBytes(a, bytes);
  ASSERT_EQ(c.result, Result::kDiverge);
  EXPECT_EQ(c.ClassName(), "rejects-accepted/group+unknown-field");
  const MinimalDivergence m = MinimiseDivergence(a, AllKinds(), bytes, c);
  EXPECT_EQ(m.input, (Bytes{0x9b, 0x01, 0x9c, 0x01}));
  EXPECT_EQ(m.comparison.ClassName(), "rejects-accepted/group+unknown-field");
  EXPECT_GT(m.trials, 0u);
}

TEST(WireKit, MinimisationShrinksInsideANestedMessage) {
  // Rejects any f_nested whose id is 7.
  auto planted = [](ByteSpan input, Decoded& d) {
    const std::vector<std::uint8_t> needle = {0x08, 0x07};
    if (std::search(input.begin(), input.end(), needle.begin(), needle.end()) !=
        input.end()) {
      d = Decoded{false, "", "planted"};
    }
  };
  PlantedAdapter a(planted);
  // f_nested { deltas: [1], id: 7, label: "ab" }, f_int32 = 1.
  const std::vector<std::uint8_t> bytes = {0x8a, 0x01, 0x09, 0x12, 0x01,
                                           0x02, 0x08, 0x07, 0x1a, 0x02,
                                           'a',  'b',  0x08, 0x01};
  const Comparison c = CompareBytes(a, bytes);
  ASSERT_EQ(c.result, Result::kDiverge);
  const MinimalDivergence m = MinimiseDivergence(a, AllKinds(), bytes, c);
  EXPECT_EQ(m.input, (Bytes{0x8a, 0x01, 0x02, 0x08, 0x07}));
}

// A planted change for a decoder that reads what libprotobuf rejects: it
// accepts an input libprotobuf rejects when every `read` in it, written as
// `as`, gives an input libprotobuf accepts, and decodes it so.
PlantedAdapter::Change ReadsAs(std::vector<std::uint8_t> read,
                               std::vector<std::uint8_t> as) {
  return [read, as](ByteSpan input, Decoded& d) {
    std::vector<std::uint8_t> rest(input.begin(), input.end());
    bool had = false;
    for (auto at =
             std::search(rest.begin(), rest.end(), read.begin(), read.end());
         at != rest.end();
         at = std::search(at, rest.end(), read.begin(), read.end())) {
      at = rest.erase(at, at + static_cast<long>(read.size()));
      at = rest.insert(at, as.begin(), as.end()) + static_cast<long>(as.size());
      had = true;
    }
    std::unique_ptr<pb::Message> m(AllKinds().dynamic->New());
    if (had && !d.accepted &&
        m->ParsePartialFromArray(rest.data(), static_cast<int>(rest.size()))) {
      d = Decoded{true, m->SerializePartialAsString(), ""};
    }
  };
}

TEST(WireKit, MinimisationReachesTheRecordsPastAForbiddenTag) {
  // Accepts a field-0 varint written with a two-byte tag (80 00 00) and
  // reads on, as protobuf-c does; libprotobuf rejects field 0.
  const std::vector<std::uint8_t> field0 = {0x80, 0x00, 0x00};
  PlantedAdapter a(ReadsAs(field0, {}));
  // Field 500 = 1 (unknown), the field-0 record, then 40 records the
  // decoder reads on through: each must go by the tree's edits, since
  // cutting bytes at random breaks the records after it.
  std::vector<std::uint8_t> bytes = {0xa0, 0x1f, 0x01, 0x80, 0x00, 0x00};
  for (std::uint8_t i = 0; i < 40; ++i) {
    // Field 500 holding 0 to 12 bytes: record boundaries at odd places.
    const auto n = static_cast<std::uint8_t>((i * 5) % 13);
    bytes.insert(bytes.end(), {0xa2, 0x1f, n});
    bytes.insert(bytes.end(), n, 0x61);
  }
  const Comparison c = CompareBytes(a, bytes);
  ASSERT_EQ(c.result, Result::kDiverge);
  EXPECT_EQ(c.ClassName(),
            "accepts-rejected/tag-non-minimal+field-number-0+unknown-field");
  const MinimalDivergence m =
      MinimiseDivergence(a, AllKinds(), bytes, c, /*max_trials=*/200);
  EXPECT_EQ(m.input, field0);
  EXPECT_EQ(m.comparison.ClassName(),
            "accepts-rejected/tag-non-minimal+field-number-0");
}

TEST(WireKit, MinimisationWritesOnlyCandidatesThatChangeTheInput) {
  // Rejects an input over 600 bytes, as a decoder with a fixed buffer
  // does: the divergence needs most of the records, so the tree passes
  // try every edit on every record, round after round. An edit that
  // cannot change a record (its tag, length and value are already in
  // their shortest forms) is not written: each candidate costs time
  // linear in the input, and a pass of such edits made the kit's corpus
  // replays quadratic.
  auto over_600 = [](ByteSpan input, Decoded& d) {
    if (input.size() > 600) d = Decoded{false, "", "too long"};
  };
  PlantedAdapter a(over_600);
  // Field 500 (unknown) holding "abcde", 100 times: 800 bytes.
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 100; ++i) {
    bytes.insert(bytes.end(), {0xa2, 0x1f, 0x05, 'a', 'b', 'c', 'd', 'e'});
  }
  const Comparison c = CompareBytes(a, bytes);
  ASSERT_EQ(c.result, Result::kDiverge);
  const MinimalDivergence m = MinimiseDivergence(a, AllKinds(), bytes, c);
  EXPECT_EQ(m.input.size(), 601u);
  EXPECT_EQ(m.comparison.result, Result::kDiverge);
  EXPECT_GT(m.trials, 200u);
  // Every candidate written is compared.
  EXPECT_EQ(m.candidates, m.trials)
      << m.candidates - m.trials << " candidates were written in vain";
}

TEST(WireKit, MinimisationReachesARecordInsideAGroup) {
  // Reads a tag of up to 10 bytes, as upb and nanopb do: accepts what
  // libprotobuf accepts once the 6-byte tag a2 80 80 80 80 00 (field 4,
  // len) is written as 22.
  const std::vector<std::uint8_t> long_tag = {0xa2, 0x80, 0x80,
                                              0x80, 0x80, 0x00};
  PlantedAdapter a(ReadsAs(long_tag, {0x22}));
  // A group of field 1000 holding the record, with 20 bytes: the string
  // can only shrink with its length rewritten, and the group only go with
  // both its tags, which cutting bytes does not do.
  std::vector<std::uint8_t> bytes = {0xc3, 0x3e};
  bytes.insert(bytes.end(), long_tag.begin(), long_tag.end());
  bytes.push_back(20);
  bytes.insert(bytes.end(), 20, 0x61);
  bytes.insert(bytes.end(), {0xc4, 0x3e});
  const Comparison c = CompareBytes(a, bytes);
  ASSERT_EQ(c.result, Result::kDiverge);
  const MinimalDivergence m = MinimiseDivergence(a, AllKinds(), bytes, c);
  std::vector<std::uint8_t> alone = long_tag;
  alone.push_back(0);
  EXPECT_EQ(m.input, alone);
  EXPECT_EQ(m.comparison.ClassName(), "accepts-rejected/tag-over-5-bytes")
      << c.ClassName();
}

TEST(WireKnownDivergences, ParsesBlocksAndComments) {
  std::string error;
  const auto k = ParseKnownDivergences(
      "# a comment\n"
      "\n"
      "class: differs/plain\n"
      "type: fairwire.test.AllKinds\n"
      "input: 08 01\n"
      "verdict: likely bug\n"
      "why: a reason\n"
      "\n"
      "class: rejects-accepted/group+unknown-field\n"
      "type: fairwire.test.Nested\n"
      "input: 9b019c01\n"
      "verdict: documented design choice: somewhere.h\n"
      "why: another\n",
      &error);
  ASSERT_TRUE(k) << error;
  ASSERT_EQ(k->entries.size(), 2u);
  EXPECT_EQ(k->entries[0].line, 3);
  EXPECT_EQ(k->entries[0].input, (Bytes{0x08, 0x01}));
  EXPECT_EQ(k->entries[1].input, (Bytes{0x9b, 0x01, 0x9c, 0x01}));
  EXPECT_NE(k->Find("differs/plain"), nullptr);
  EXPECT_EQ(k->Find("differs/other"), nullptr);
  EXPECT_TRUE(ParseKnownDivergences("", &error));
  EXPECT_TRUE(ParseKnownDivergences("# only comments\n", &error));
}

TEST(WireKnownDivergences, AnIncludesEntryCoversSupersetsOfItsRules) {
  std::string error;
  const auto k = ParseKnownDivergences(
      "class: rejects-accepted/field-number-above-2^29-1\n"
      "type: fairwire.test.AllKinds\n"
      "input: e1 80 80 80 60 60 60 30 30 30 60 60 60\n"
      "match: includes\n"
      "verdict: likely bug\n"
      "why: rejects every tag beyond 32 bits\n"
      "\n"
      "class: differs/unknown-field\n"
      "type: fairwire.test.AllKinds\n"
      "input: a0 1f 01\n"
      "verdict: likely bug\n"
      "why: exact only\n",
      &error);
  ASSERT_TRUE(k) << error;
  EXPECT_TRUE(k->entries[0].includes);
  EXPECT_FALSE(k->entries[1].includes);
  const KnownDivergence* wide = &k->entries[0];
  EXPECT_EQ(k->Find("rejects-accepted/field-number-above-2^29-1"), wide);
  EXPECT_EQ(k->Find("rejects-accepted/tag-non-minimal+field-number-above-2^29-"
                    "1+unknown-field"),
            wide);
  // Not another parting, not a subset of its rules, not a rule's prefix.
  EXPECT_EQ(k->Find("accepts-rejected/field-number-above-2^29-1"), nullptr);
  EXPECT_EQ(k->Find("rejects-accepted/tag-non-minimal"), nullptr);
  EXPECT_EQ(k->Find("rejects-accepted/field-number-above-2^29"), nullptr);
  // An exact entry stays exact.
  EXPECT_EQ(k->Find("differs/unknown-field+bool-above-1"), nullptr);
  EXPECT_EQ(k->Find("differs/unknown-field"), &k->entries[1]);
  EXPECT_TRUE(wide->Covers("rejects-accepted/field-number-above-2^29-1"));
  EXPECT_FALSE(k->entries[1].Covers("differs/unknown-field+bool-above-1"));
}

TEST(WireKnownDivergences, NamesTheLineOfEachMalformation) {
  const std::string good =
      "class: differs/plain\ntype: fairwire.test.AllKinds\ninput: 08 01\n"
      "verdict: likely bug\nwhy: w\n";
  struct Bad {
    std::string text;
    std::string error;
  };
  const std::vector<Bad> bad = {
      {"type: x\n", "line 1: a block starts with \"class:\""},
      {"class: a\ntype: t\ninput: 0\nverdict: likely bug\nwhy: w\n",
       "line 3: input is not hex bytes"},
      {"class: a\ntype: t\ninput: 08\nverdict: maybe\nwhy: w\n",
       "line 1: verdict must be"},
      {"class: a\ntype: t\ninput: 08\nverdict: documented design choice:\n"
       "why: w\n",
       "line 1: verdict must be"},
      {"class: a\ntype: t\nverdict: likely bug\nwhy: w\n", "line 1: no input"},
      {"class: a\ntype: t\ninput: 08\nverdict: likely bug\n", "line 1: no why"},
      {"class: a\ncolour: red\n", "line 2: unknown key \"colour\""},
      {"class: a\nnot a pair\n", "line 2: expected \"key: value\""},
      {good + "\n" + good, "line 7: class differs/plain listed twice"},
      {good + "match: sometimes\n", "line 6: match must be"},
      {good + "match: includes\n",
       "line 1: match: includes needs a class with rules"},
  };
  for (const Bad& b : bad) {
    std::string error;
    EXPECT_FALSE(ParseKnownDivergences(b.text, &error)) << b.text;
    EXPECT_EQ(error.substr(0, b.error.size()), b.error) << b.text;
  }
}

}  // namespace
}  // namespace fairwire::wire::kit
