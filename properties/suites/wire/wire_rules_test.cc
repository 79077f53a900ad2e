// The rule walker names each rule on a record written to touch it, and
// nothing on plain records; rule sets name themselves in Rule order.
#include "fairwire/checks/wire_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fairwire/checks/wire_oracle.h"

namespace fairwire::wire::rules {
namespace {

using oracle::Fixed;

struct Case {
  Fixed type;
  std::vector<std::uint8_t> bytes;
  Rule rule;
};

// Field numbers of AllKinds: 1 f_int32, 7 f_bool, 8 f_enum (closed Color),
// 15 f_string, 21 r_int32 (unpacked), 42 p_int64 (packed), 49 p_fixed32
// (packed); Nested: 5 child. AllKinds3: 15 f_string (UTF-8 checked).
const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {Fixed::kAllKinds, {0x08}, Rule::kTruncated},
      {Fixed::kAllKinds,
       {0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
       Rule::kVarintOverlong},
      {Fixed::kAllKinds,
       {0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
       Rule::kVarintHighBits},
      {Fixed::kAllKinds, {0x88, 0x00, 0x01}, Rule::kTagNonMinimal},
      {Fixed::kAllKinds, {0x08, 0x81, 0x00}, Rule::kVarintNonMinimal},
      {Fixed::kAllKinds, {0x7a, 0x81, 0x00, 'a'}, Rule::kVarintNonMinimal},
      {Fixed::kAllKinds,
       {0xd2, 0x02, 0x02, 0x81, 0x00},
       Rule::kVarintNonMinimal},
      {Fixed::kAllKinds, {0x00, 0x01}, Rule::kFieldNumberZero},
      {Fixed::kAllKinds,
       {0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01},
       Rule::kTagOver5Bytes},
      // 2^32 + 8: libprotobuf reads on with field 1, varint.
      {Fixed::kAllKinds,
       {0x88, 0x80, 0x80, 0x80, 0x10, 0x01},
       Rule::kFieldNumberAboveMax},
      {Fixed::kAllKinds, {0x0e}, Rule::kWireTypeInvalid},
      {Fixed::kAllKinds, {0x0d, 0, 0, 0, 0}, Rule::kWireTypeMismatch},
      {Fixed::kAllKinds,
       {0x7a, 0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 'a'},
       Rule::kLengthOver5Bytes},
      {Fixed::kAllKinds,
       {0x7a, 0x80, 0x80, 0x80, 0x80, 0x08},
       Rule::kLengthAbove2To31},
      {Fixed::kAllKinds, {0x7a, 0x05, 0x61}, Rule::kLengthPastEnd},
      {Fixed::kAllKinds, {0x9b, 0x01, 0x9c, 0x01}, Rule::kGroup},
      {Fixed::kAllKinds, {0x0c}, Rule::kGroupUnmatched},
      {Fixed::kAllKinds, {0x9b, 0x01, 0xa4, 0x01}, Rule::kGroupUnmatched},
      {Fixed::kAllKinds, {0xa0, 0x1f, 0x01}, Rule::kUnknownField},
      {Fixed::kAllKinds, {0x08, 0x01, 0x08, 0x02}, Rule::kSingularRepeated},
      {Fixed::kAllKinds,
       {0x08, 0x80, 0x80, 0x80, 0x80, 0x10},
       Rule::kValueAbove32Bits},
      {Fixed::kAllKinds, {0x38, 0x02}, Rule::kBoolAbove1},
      {Fixed::kAllKinds, {0x40, 0x05}, Rule::kClosedEnumUnknown},
      {Fixed::kAllKinds,
       {0xaa, 0x01, 0x01, 0x01},
       Rule::kPackedOnUnpackedField},
      {Fixed::kAllKinds, {0xd0, 0x02, 0x01}, Rule::kUnpackedOnPackedField},
      {Fixed::kAllKinds, {0xd2, 0x02, 0x00}, Rule::kPackedEmpty},
      {Fixed::kAllKinds,
       {0x8a, 0x03, 0x03, 0, 0, 0},
       Rule::kPackedFixedMisaligned},
      {Fixed::kAllKinds,
       {0xd2, 0x02, 0x01, 0x80},
       Rule::kPackedVarintTruncated},
      {Fixed::kAllKinds3, {0x7a, 0x01, 0xff}, Rule::kUtf8InvalidChecked},
      {Fixed::kAllKinds, {0x7a, 0x01, 0xff}, Rule::kUtf8InvalidUnchecked},
      {Fixed::kAllKinds, {0x7a, 0x02, 'a', 0x00}, Rule::kStringWithNul},
      {Fixed::kAllKinds,
       {0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01},
       Rule::kFieldNumberAbove2To28},
      {Fixed::kAllKinds3,
       {0x71, 0, 0, 0, 0, 0, 0, 0, 0x80},
       Rule::kNegativeZeroImplicit},
      {Fixed::kAllKinds3, {0x6d, 0, 0, 0, 0x80}, Rule::kNegativeZeroImplicit},
  };
  return cases;
}

InputFacts WalkFixed(Fixed type, ByteSpan bytes) {
  return Walk(oracle::FixedSubject(type).model, 0, bytes);
}

TEST(WireRules, EachRuleIsNamedOnARecordThatTouchesIt) {
  std::vector<bool> covered(kRuleCount, false);
  for (const Case& c : Cases()) {
    const InputFacts f = WalkFixed(c.type, c.bytes);
    EXPECT_TRUE(f.rules.Has(c.rule))
        << RuleName(c.rule) << " not found; the walker saw " << f.rules.Name();
    covered[static_cast<std::size_t>(c.rule)] = true;
  }
  covered[static_cast<std::size_t>(Rule::kDepthAboveLibprotobuf)] = true;
  for (int i = 0; i < kRuleCount; ++i) {
    EXPECT_TRUE(covered[static_cast<std::size_t>(i)])
        << "no case for " << RuleName(static_cast<Rule>(i));
  }
}

TEST(WireRules, PlainRecordsTouchNothing) {
  // f_int32 = 150, f_string = "hi", p_int64 = [1, 2], f_nested.id = 1.
  const std::vector<std::uint8_t> plain = {0x08, 0x96, 0x01, 0x7a, 0x02, 'h',
                                           'i',  0xd2, 0x02, 0x02, 0x01, 0x02,
                                           0x8a, 0x01, 0x02, 0x08, 0x01};
  const InputFacts f = WalkFixed(Fixed::kAllKinds, plain);
  EXPECT_TRUE(f.rules.empty()) << f.rules.Name();
  EXPECT_EQ(f.rules.Name(), "plain");
  EXPECT_EQ(f.depth, 1);
  EXPECT_EQ(f.max_count, 2u);
  EXPECT_EQ(f.max_length, 2u);
}

TEST(WireRules, NegativeZeroCountsOnlyWithoutPresence) {
  using Bytes = std::vector<std::uint8_t>;
  // -0.0 in proto2's f_double (explicit presence) and +0.0 in proto3's.
  EXPECT_TRUE(
      WalkFixed(Fixed::kAllKinds, Bytes{0x71, 0, 0, 0, 0, 0, 0, 0, 0x80})
          .rules.empty());
  EXPECT_TRUE(WalkFixed(Fixed::kAllKinds3, Bytes{0x71, 0, 0, 0, 0, 0, 0, 0, 0})
                  .rules.empty());
  // A NaN with the sign bit is not -0.0.
  EXPECT_TRUE(WalkFixed(Fixed::kAllKinds3, Bytes{0x6d, 1, 0, 0x80, 0xff})
                  .rules.empty());
}

std::vector<std::uint8_t> NestedChain(int levels) {
  std::vector<std::uint8_t> inner;
  for (int i = 0; i < levels; ++i) {
    std::vector<std::uint8_t> outer = {0x2a};
    std::string length;
    std::size_t n = inner.size();
    while (n >= 0x80) {
      outer.push_back(static_cast<std::uint8_t>((n & 0x7f) | 0x80));
      n >>= 7;
    }
    outer.push_back(static_cast<std::uint8_t>(n));
    outer.insert(outer.end(), inner.begin(), inner.end());
    inner = std::move(outer);
  }
  return inner;
}

TEST(WireRules, DepthAboveLibprotobufsLimitIsNamedFrom101Levels) {
  const InputFacts at_limit = WalkFixed(Fixed::kNested, NestedChain(100));
  EXPECT_EQ(at_limit.depth, 100);
  EXPECT_FALSE(at_limit.rules.Has(Rule::kDepthAboveLibprotobuf));
  const InputFacts over = WalkFixed(Fixed::kNested, NestedChain(101));
  EXPECT_TRUE(over.rules.Has(Rule::kDepthAboveLibprotobuf));
}

TEST(WireRules, FatalFieldSaysWhereTheWalkStopped) {
  auto fatal = [](std::vector<std::uint8_t> b) {
    return WalkFixed(Fixed::kAllKinds, b).fatal_field;
  };
  EXPECT_EQ(fatal({0x08, 0x01}), -1);                 // whole
  EXPECT_EQ(fatal({0x08}), 0);                        // a value cut short
  EXPECT_EQ(fatal({0x7a, 0x05, 'a'}), 0);             // a length past the end
  EXPECT_EQ(fatal({0x0e}), 0);                        // a tag
  EXPECT_EQ(fatal({0x8a, 0x01, 0x01, 0x08}), 17);     // inside f_nested
  EXPECT_EQ(fatal({0x8a, 0x03, 0x03, 0, 0, 0}), 49);  // a packed fixed run
  EXPECT_EQ(fatal({0x08, 0x01, 0x9b, 0x01}), 19);     // an unended group
}

TEST(WireRules, RuleSetNamesInRuleOrder) {
  RuleSet s;
  s.Add(Rule::kUnknownField);
  s.Add(Rule::kTruncated);
  EXPECT_EQ(s.Name(), "truncated+unknown-field");
  RuleSet t;
  t.Add(Rule::kTruncated);
  EXPECT_EQ(s.Without(t).Name(), "unknown-field");
  EXPECT_TRUE(s.Intersects(t));
}

}  // namespace
}  // namespace fairwire::wire::rules
