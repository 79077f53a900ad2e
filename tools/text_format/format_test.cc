// The scalar formatting and unknown-field printing of fairwire-decode,
// checked on exact bytes and differentially against libprotobuf 3.21's own
// SimpleFtoa, SimpleDtoa, CEscape and TextFormat::PrintUnknownFieldsToString.
#include "fairwire/text_format/format.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/strutil.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include "fairwire/text_format/unknown_fields.h"

namespace fairwire::wire {
namespace {

std::string UnknownText(const std::string& records) {
  std::string out;
  EXPECT_TRUE(AppendUnknownFieldsText(records, 0, &out)) << CEscape(records);
  return out;
}

// libprotobuf's verdict: does `bytes` parse as the text printer's embedded
// UnknownFieldSet does, under a recursion limit of `budget`?
bool LibprotobufParses(const std::string& bytes, int budget) {
  google::protobuf::io::CodedInputStream input(
      reinterpret_cast<const std::uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  input.SetRecursionLimit(budget);
  google::protobuf::UnknownFieldSet set;
  return set.ParseFromCodedStream(&input);
}

TEST(FormatFloat, ShortestOfSixAndNineDigitsThatRoundTrips) {
  EXPECT_EQ(FormatFloat(0.1f), "0.1");
  EXPECT_EQ(FormatFloat(1.0f), "1");
  EXPECT_EQ(FormatFloat(16777217.0f), "16777216");
  EXPECT_EQ(FormatFloat(3.40282347e+38f), "3.40282347e+38");
  EXPECT_EQ(FormatFloat(std::numeric_limits<float>::denorm_min()),
            "1.40129846e-45");
  EXPECT_EQ(FormatFloat(-0.0f), "-0");
}

TEST(FormatFloat, InfinitiesAndEveryNanSpelledAsProtobufDoes) {
  EXPECT_EQ(FormatFloat(std::numeric_limits<float>::infinity()), "inf");
  EXPECT_EQ(FormatFloat(-std::numeric_limits<float>::infinity()), "-inf");
  EXPECT_EQ(FormatFloat(std::bit_cast<float>(0xFFC00000u)), "nan");
  EXPECT_EQ(FormatFloat(std::bit_cast<float>(0x7F800001u)), "nan");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FormatDouble(std::bit_cast<double>(0xFFF8000000000001u)), "nan");
}

TEST(FormatDouble, ShortestOfFifteenAndSeventeenDigitsThatRoundTrips) {
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(1e100), "1e+100");
  EXPECT_EQ(FormatDouble(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(FormatDouble(std::bit_cast<double>(0x0101010101010101u)),
            "7.7486041854893479e-304");
  EXPECT_EQ(FormatDouble(-0.0), "-0");
}

TEST(FormatFloat, MatchesLibprotobufOnRandomBitPatterns) {
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t bits = rng();
    const auto f = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    const auto d = std::bit_cast<double>(bits);
    const std::string want_f =
        std::isnan(f) ? "nan" : google::protobuf::SimpleFtoa(f);
    const std::string want_d =
        std::isnan(d) ? "nan" : google::protobuf::SimpleDtoa(d);
    ASSERT_EQ(FormatFloat(f), want_f) << "float bits " << bits;
    ASSERT_EQ(FormatDouble(d), want_d) << "double bits " << bits;
  }
}

TEST(CEscape, NamedEscapesAndThreeDigitOctal) {
  EXPECT_EQ(CEscape(std::string("a\n\r\t\"'\\\0\x7f\x80\xff~ z", 14)),
            "a\\n\\r\\t\\\"\\'\\\\\\000\\177\\200\\377~ z");
  EXPECT_EQ(CEscape("\xc3\xa9"), "\\303\\251");
}

TEST(CEscape, MatchesLibprotobufOnEveryByte) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  EXPECT_EQ(CEscape(all), google::protobuf::CEscape(all));
}

TEST(UnknownFields, ScalarRecordsInWireOrderWithHexFixedWidths) {
  EXPECT_EQ(UnknownText(std::string("\x08\x96\x01"
                                    "\x15\x01\x02\x03\xfa"
                                    "\x09\x01\x02\x03\x04\x05\x06\x07\x08"
                                    "\xf8\xff\xff\xff\x0f\x00",
                                    23)),
            "1: 150\n2: 0xfa030201\n1: 0x0807060504030201\n536870911: 0\n");
}

TEST(UnknownFields, LengthDelimitedThatParsesPrintsAsBlock) {
  EXPECT_EQ(UnknownText("\x12\x04\x08\x01\x10\x02"),
            "2 {\n  1: 1\n  2: 2\n}\n");
}

TEST(UnknownFields, LengthDelimitedThatDoesNotParsePrintsAsString) {
  EXPECT_EQ(UnknownText(std::string("\x12\x00", 2)), "2: \"\"\n");
  EXPECT_EQ(UnknownText(std::string("\x12\x02\x00\x01", 4)),
            "2: \"\\000\\001\"\n");
  EXPECT_EQ(UnknownText(std::string("\x12\x02\x0c\x00", 4)),
            "2: \"\\014\\000\"\n");
  EXPECT_EQ(UnknownText("\x12\x03"
                        "abc"),
            "2: \"abc\"\n");
}

TEST(UnknownFields, GroupsPrintAsBlocks) {
  EXPECT_EQ(UnknownText("\x0b\x10\x05\x1b\x1c\x0c"),
            "1 {\n  2: 5\n  3 {\n  }\n}\n");
}

// protoc prints ten levels of length-delimited records as blocks; the
// eleventh level is out of budget and prints as a string.
TEST(UnknownFields, TenLevelsOfLengthDelimitedThenAString) {
  std::string record = "\x08\x07";
  for (int depth = 0; depth < 11; ++depth) {
    record = "\x0a" + std::string(1, static_cast<char>(record.size())) + record;
  }
  std::string want;
  for (int depth = 0; depth < 10; ++depth) {
    want += std::string(static_cast<std::size_t>(depth) * 2, ' ') + "1 {\n";
  }
  want += std::string(20, ' ') + "1: \"\\010\\007\"\n";
  for (int depth = 9; depth >= 0; --depth) {
    want += std::string(static_cast<std::size_t>(depth) * 2, ' ') + "}\n";
  }
  EXPECT_EQ(UnknownText(record), want);
}

TEST(UnknownFields, MalformedRecordsAreRefused) {
  std::string out;
  EXPECT_FALSE(AppendUnknownFieldsText("\x08", 0, &out));
  EXPECT_FALSE(
      AppendUnknownFieldsText("\x12\x05"
                              "ab",
                              0, &out));
  EXPECT_FALSE(AppendUnknownFieldsText("\x0b\x14", 0, &out));
  EXPECT_TRUE(out.empty());
}

TEST(UnknownFields, EmbeddedParseAgreesWithLibprotobufOnEdgeCases) {
  const std::string cases[] = {
      std::string("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01\x00", 11),
      std::string("\x88\x80\x80\x80\x80\x80\x80\x80\x80\x01\x00", 11),
      std::string("\x88\x80\x80\x80\x80\x80\x80\x80\x80\x81\x00", 11),
      std::string("\x0a\xff\xff\xff\xff\x0f", 6),
      std::string("\x0a\x80\x80\x80\x80\x10", 6),
      std::string("\x0a\x82\x80\x80\x80\x10zz", 8),
      std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11),
      std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12),
      std::string("\x0b\x0c", 2),
      std::string("\x0b\x14", 2),
      std::string("\x0b", 1),
      std::string("\x0c", 1),
      std::string("\x04", 1),
      std::string("\x0e", 1),
      std::string("\x07\x00", 2),
  };
  for (const std::string& bytes : cases) {
    for (int budget : {0, 1, 10}) {
      EXPECT_EQ(internal::ParsesAsUnknownFieldSet(bytes, budget),
                LibprotobufParses(bytes, budget))
          << CEscape(bytes) << " budget " << budget;
    }
  }
}

TEST(UnknownFields, GroupNestingSpendsTheBudgetAsLibprotobufDoes) {
  std::string nested;
  for (int depth = 0; depth < 12; ++depth) nested = "\x0b" + nested + "\x0c";
  for (int budget = 0; budget <= 13; ++budget) {
    EXPECT_EQ(internal::ParsesAsUnknownFieldSet(nested, budget),
              LibprotobufParses(nested, budget))
        << "budget " << budget;
  }
  EXPECT_FALSE(internal::ParsesAsUnknownFieldSet(nested, 11));
  EXPECT_TRUE(internal::ParsesAsUnknownFieldSet(nested, 12));
}

// Random record soups: a few well-formed records (some nested), then random
// byte edits. Whenever libprotobuf's UnknownFieldSet accepts the bytes, our
// printer must print exactly what libprotobuf's text format prints.
TEST(UnknownFields, PrinterMatchesLibprotobufOnRandomRecords) {
  std::mt19937 rng(4242);
  auto varint = [](std::uint64_t v) {
    std::string out;
    while (v >= 0x80) {
      out += static_cast<char>((v & 0x7F) | 0x80);
      v >>= 7;
    }
    out += static_cast<char>(v);
    return out;
  };
  std::function<std::string(int)> records = [&](int depth) {
    std::string out;
    const int count = static_cast<int>(rng() % 4);
    for (int i = 0; i < count; ++i) {
      const auto number =
          static_cast<std::uint32_t>(1 + rng() % (rng() % 2 ? 20 : 536870911));
      switch (rng() % 5) {
        case 0:
          out += varint(number << 3) + varint(rng() % 2 ? rng() % 300 : rng());
          break;
        case 1:
          out += varint(number << 3 | 1) +
                 std::string("\x01\x02\xab\xcd\xef\xff\x00\x80", 8);
          break;
        case 2:
          out += varint(number << 3 | 5) + std::string("\x7f\x00\xc0\xff", 4);
          break;
        case 3: {
          std::string inner = depth < 4 ? records(depth + 1) : "x";
          if (rng() % 4 == 0) inner = "text\n\"'\\";
          out += varint(number << 3 | 2) + varint(inner.size()) + inner;
          break;
        }
        default:
          if (depth < 4) {
            out += varint(number << 3 | 3) + records(depth + 1) +
                   varint(number << 3 | 4);
          }
      }
    }
    return out;
  };
  int printed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = records(0);
    if (!bytes.empty() && rng() % 2 == 0) {
      bytes[rng() % bytes.size()] = static_cast<char>(rng());
    }
    google::protobuf::UnknownFieldSet set;
    const bool accepted = LibprotobufParses(bytes, 100);
    ASSERT_EQ(internal::ParsesAsUnknownFieldSet(bytes, 100), accepted)
        << CEscape(bytes);
    if (!accepted) continue;
    ASSERT_TRUE(set.ParseFromString(bytes));
    std::string want;
    ASSERT_TRUE(
        google::protobuf::TextFormat::PrintUnknownFieldsToString(set, &want));
    std::string got;
    ASSERT_TRUE(AppendUnknownFieldsText(bytes, 0, &got));
    ASSERT_EQ(got, want) << CEscape(bytes);
    ++printed;
  }
  EXPECT_GT(printed, 10000);
}

}  // namespace
}  // namespace fairwire::wire
