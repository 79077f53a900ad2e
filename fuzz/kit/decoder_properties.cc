// The wire kit's property suite for the decoder under test (ctest
// kit-properties.NAME, from fairwire_add_decoder_kit): RapidCheck messages of
// each kit type the adapter has (valid values, closed-enum values inside the
// enum, proto3 strings valid UTF-8, unknown records, nesting), written in
// every encoding variant of wire_packed_unpacked (declared, packed, unpacked,
// mixed runs, empty packed records, interleaved fields, padded varints and
// tags, unknown records first), then corrupted. Each input is compared with
// libprotobuf exactly as the fuzz target compares it: an agreement, a
// declared difference, or a divergence whose class (at its minimal input)
// the known-divergences file lists passes; anything else fails with the
// comparison, and RapidCheck prints how to replay it
// (RC_PARAMS="reproduce=...").
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "fairwire/checks/wire_adapter.h"
#include "fairwire/checks/wire_adapter_compare.h"
#include "fairwire/checks/wire_adapter_minimise.h"
#include "fairwire/checks/wire_known_divergences.h"
#include "fairwire/checks/wire_oracle.h"
#include "fairwire/generators/wire_generators.h"
#include "fairwire/scenarios/wire_case.h"

namespace fairwire::wire::kit {
namespace {

using Result = Comparison::Result;

ByteSpan AsBytes(const std::string& s) {
  return ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

const KnownDivergences& Known() {
  static const KnownDivergences known = [] {
    std::string error;
    auto parsed = ParseKnownDivergences(KnownDivergencesText(), &error);
    return parsed ? *parsed : KnownDivergences{};
  }();
  return known;
}

// The kit's types the adapter decodes (probed with an empty payload).
const std::vector<const oracle::Subject*>& Decoded() {
  static const std::vector<const oracle::Subject*> subjects = [] {
    std::vector<const oracle::Subject*> out;
    for (int i = 0; i < oracle::kFixedCount; ++i) {
      const oracle::Subject& s =
          oracle::FixedSubject(static_cast<oracle::Fixed>(i));
      if (Adapter().Decode(s.name, {})) out.push_back(&s);
    }
    return out;
  }();
  return subjects;
}

const oracle::Subject& AnyDecodedType() {
  const auto& subjects = Decoded();
  return *subjects[static_cast<std::size_t>(
      *rc::gen::inRange<std::size_t>(0, subjects.size()))];
}

// Fails unless `bytes` agrees, is declared, or diverges in a listed class.
void RequireAsListed(const oracle::Subject& s, const std::string& what,
                     const std::string& bytes) {
  DecoderAdapter& adapter = Adapter();
  const Comparison c = CompareWithReference(adapter, s, AsBytes(bytes));
  switch (c.result) {
    case Result::kAgree:
      RC_TAG("agree");
      return;
    case Result::kDeclared:
      RC_TAG("declared: " + c.declared_by);
      return;
    case Result::kNoType:
      RC_FAIL(adapter.name() + " has no " + s.name +
              " although it decoded one before");
    case Result::kOracleDisagrees:
      RC_FAIL("the reference is wrong (a fairwire bug), " + what + ": " +
              c.detail);
    case Result::kDiverge:
      break;
  }
  const MinimalDivergence m = MinimiseDivergence(adapter, s, AsBytes(bytes), c);
  const std::string class_name = m.comparison.ClassName();
  if (Known().Find(class_name) != nullptr) {
    RC_TAG("listed divergence");
    return;
  }
  RC_FAIL("divergence " + class_name + " (" + what +
          "), not in the known-divergences file; minimal:\n" +
          DescribeComparison(m.comparison, s, adapter.name(), m.input));
}

TEST(KitProperties, TheFileParsesAndTheAdapterDecodesAType) {
  std::string error;
  ASSERT_TRUE(ParseKnownDivergences(KnownDivergencesText(), &error)) << error;
  ASSERT_FALSE(Decoded().empty())
      << Adapter().name() << " decodes none of the kit's types";
  // Not vacuous: the empty message agrees in at least one variant of each
  // type (the known-divergences test checks a plain payload too).
  for (const oracle::Subject* s : Decoded()) {
    int agreed = 0;
    const model::Message empty = model::EmptyMessage(s->model, 0);
    for (const scenario::Variant& v : scenario::AllVariants()) {
      const std::string bytes = scenario::EncodeVariant(s->model, empty, v);
      const Comparison c = CompareWithReference(Adapter(), *s, AsBytes(bytes));
      if (c.result == Result::kAgree) ++agreed;
    }
    EXPECT_GT(agreed, 0) << s->name << ": no variant of the empty message "
                         << "agrees with libprotobuf";
  }
}

RC_GTEST_PROP(KitProperties, EveryEncodingVariantDecodesAsLibprotobufDoes, ()) {
  const oracle::Subject& s = AnyDecodedType();
  const model::Message m = *gen::Message(&s.model, 0);
  for (const scenario::Variant& v : scenario::AllVariants()) {
    RequireAsListed(s, s.name + " written " + v.name,
                    scenario::EncodeVariant(s.model, m, v));
  }
}

RC_GTEST_PROP(KitProperties, CorruptedEncodingsDivergeOnlyAsListed, ()) {
  const oracle::Subject& s = AnyDecodedType();
  const model::Message m = *gen::Message(&s.model, 0);
  const scenario::Variant v = *gen::Variant();
  RequireAsListed(s, s.name + " written " + v.name + ", corrupted",
                  gen::Corrupt(scenario::EncodeVariant(s.model, m, v)));
}

}  // namespace
}  // namespace fairwire::wire::kit
