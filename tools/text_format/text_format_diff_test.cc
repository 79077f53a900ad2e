// fairwire's decoder plus text-format printer against libprotobuf's
// DynamicMessage plus TextFormat::Printer (what protoc --decode runs), on
// random schema-guided inputs for the fixed test schemas of properties/proto
// and the extra ones of tools/decode/tests/protos (maps, oneofs, aliases):
// both reject, or both accept and print byte-for-byte the same text. Each
// failure prints the input's bytes (C-escaped) and the seed.
#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/wire_format_lite.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <string>

#include "fairwire/protobuf/schema_from_descriptor.h"
#include "fairwire/text_format/descriptor_text_format.h"
#include "fairwire/text_format/format.h"
#include "fairwire/text_format/text_format.h"
#include "fairwire/wire/decoder.h"

namespace fairwire::wire {
namespace {

namespace gpb = google::protobuf;

class SilentErrors : public gpb::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& file, int line, int,
                const std::string& m) override {
    ADD_FAILURE() << file << ":" << line << ": " << m;
  }
};

// Random inputs shaped by a descriptor: mostly well-formed records for known
// fields (right or wrong wire type, packed or not, edge values), unknown
// records of every wire type, nested messages; then, sometimes, byte damage.
class InputMaker {
 public:
  explicit InputMaker(std::uint32_t seed) : rng_(seed) {}

  std::string Make(const gpb::Descriptor& type) {
    std::string out = Records(type, 0);
    const std::size_t damage = Pick(4) == 0 ? 1 + Pick(3) : 0;
    for (std::size_t i = 0; i < damage && !out.empty(); ++i) {
      const std::size_t at = Pick(out.size());
      switch (Pick(3)) {
        case 0:
          out[at] = static_cast<char>(Pick(256));
          break;
        case 1:
          out.resize(at);
          break;
        default:
          out.insert(at, 1, static_cast<char>(Pick(256)));
      }
    }
    return out;
  }

 private:
  std::size_t Pick(std::size_t n) { return rng_() % n; }

  static void Varint(std::uint64_t value, std::string* out) {
    while (value >= 0x80) {
      out->push_back(static_cast<char>((value & 0x7F) | 0x80));
      value >>= 7;
    }
    out->push_back(static_cast<char>(value));
  }

  void Tag(std::uint32_t number, int wire_type, std::string* out) {
    Varint(static_cast<std::uint64_t>(number) << 3 |
               static_cast<std::uint64_t>(wire_type),
           out);
  }

  std::uint64_t Value() {
    static constexpr std::uint64_t kEdges[] = {0,
                                               1,
                                               2,
                                               3,
                                               127,
                                               128,
                                               1000000,
                                               0x7FFFFFFF,
                                               0x80000000,
                                               0xFFFFFFFF,
                                               0x100000001,
                                               0x7FFFFFFFFFFFFFFF,
                                               0x8000000000000000,
                                               0xFFFFFFFFFFFFFFFF,
                                               0xFFFFFFFFFFFFFFFB,
                                               0x3F800000,
                                               0x7FC00000,
                                               0x80000000,
                                               0x3FF0000000000000};
    switch (Pick(3)) {
      case 0:
        return kEdges[Pick(std::size(kEdges))];
      case 1:
        return Pick(300);
      default:
        return (static_cast<std::uint64_t>(rng_()) << 32) ^ rng_();
    }
  }

  void Fixed(int bytes, std::string* out) {
    const std::uint64_t value = Value();
    for (int i = 0; i < bytes; ++i) {
      out->push_back(static_cast<char>(value >> (8 * i)));
    }
  }

  void Payload(int wire_type, std::string* out) {
    switch (wire_type) {
      case 0:
        Varint(Value(), out);
        break;
      case 1:
        Fixed(8, out);
        break;
      case 5:
        Fixed(4, out);
        break;
      default: {
        std::string inner;
        const std::size_t n = Pick(6);
        for (std::size_t i = 0; i < n; ++i) {
          inner.push_back(
              static_cast<char>(Pick(3) == 0 ? Pick(256) : 'a' + Pick(26)));
        }
        Varint(inner.size(), out);
        *out += inner;
      }
    }
  }

  static int NaturalWireType(const gpb::FieldDescriptor& field) {
    return static_cast<int>(gpb::internal::WireFormatLite::WireTypeForFieldType(
        static_cast<gpb::internal::WireFormatLite::FieldType>(field.type())));
  }

  void Record(const gpb::Descriptor& type, int depth, std::string* out) {
    if (type.field_count() == 0 || Pick(6) == 0) {
      const std::uint32_t number = static_cast<std::uint32_t>(
          Pick(3) == 0 ? 536870911 - Pick(3) : 100 + Pick(40));
      const int wire_type = std::array{0, 1, 2, 3, 5}[Pick(5)];
      Tag(number, wire_type, out);
      if (wire_type == 3) {
        if (depth < 4) *out += Records(type, depth + 1);
        Tag(number, 4, out);
      } else if (wire_type == 2 && Pick(2) == 0 && depth < 4) {
        const std::string inner = Records(type, depth + 1);
        Varint(inner.size(), out);
        *out += inner;
      } else {
        Payload(wire_type, out);
      }
      return;
    }
    const gpb::FieldDescriptor& field = *type.field(
        static_cast<int>(Pick(static_cast<std::size_t>(type.field_count()))));
    const auto number = static_cast<std::uint32_t>(field.number());
    int wire_type = NaturalWireType(field);
    if (Pick(12) == 0) wire_type = std::array{0, 1, 2, 5}[Pick(4)];
    if (field.type() == gpb::FieldDescriptor::TYPE_MESSAGE && wire_type == 2) {
      const std::string inner =
          depth < 6 ? Records(*field.message_type(), depth + 1) : "";
      Tag(number, 2, out);
      Varint(inner.size(), out);
      *out += inner;
      return;
    }
    if (field.is_packable() && wire_type != 2 && Pick(2) == 0) {
      std::string inner;
      const std::size_t n = Pick(5);
      for (std::size_t i = 0; i < n; ++i) Payload(wire_type, &inner);
      Tag(number, 2, out);
      Varint(inner.size(), out);
      *out += inner;
      return;
    }
    if (field.type() == gpb::FieldDescriptor::TYPE_STRING && wire_type == 2 &&
        Pick(3) == 0) {
      static constexpr const char* kUtf8[] = {
          "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
          "\xc3",     "\xed\xa0\x80", "\xff"};
      const std::string text = kUtf8[Pick(std::size(kUtf8))];
      Tag(number, 2, out);
      Varint(text.size(), out);
      *out += text;
      return;
    }
    Tag(number, wire_type, out);
    Payload(wire_type, out);
  }

  std::string Records(const gpb::Descriptor& type, int depth) {
    std::string out;
    const std::size_t n = Pick(depth == 0 ? 12 : 4);
    for (std::size_t i = 0; i < n; ++i) Record(type, depth, &out);
    return out;
  }

  std::mt19937 rng_;
};

class TextFormatDiffTest : public ::testing::TestWithParam<const char*> {
 protected:
  static void SetUpTestSuite() {
    gpb::SetLogHandler(nullptr);
    tree_ = new gpb::compiler::DiskSourceTree();
    tree_->MapPath("", FAIRWIRE_PROTO_DIR);
    tree_->MapPath("", FAIRWIRE_EXTRA_PROTO_DIR);
    tree_->MapPath("", FAIRWIRE_PROTOBUF_INCLUDE_DIR);
    errors_ = new SilentErrors();
    importer_ = new gpb::compiler::Importer(tree_, errors_);
    ASSERT_NE(importer_->Import("fairwire_test.proto"), nullptr);
    ASSERT_NE(importer_->Import("fairwire_test3.proto"), nullptr);
    ASSERT_NE(importer_->Import("extra2.proto"), nullptr);
  }

  static gpb::compiler::DiskSourceTree* tree_;
  static SilentErrors* errors_;
  static gpb::compiler::Importer* importer_;
};

gpb::compiler::DiskSourceTree* TextFormatDiffTest::tree_ = nullptr;
SilentErrors* TextFormatDiffTest::errors_ = nullptr;
gpb::compiler::Importer* TextFormatDiffTest::importer_ = nullptr;

TEST_P(TextFormatDiffTest, PrintsWhatProtocPrintsOrRejectsWithIt) {
  const gpb::Descriptor* type =
      importer_->pool()->FindMessageTypeByName(GetParam());
  ASSERT_NE(type, nullptr);
  std::string error;
  std::optional<protobuf::DescriptorSchema> built =
      protobuf::BuildDescriptorSchema(*type, &error);
  ASSERT_TRUE(built.has_value()) << error;
  gpb::DynamicMessageFactory factory(importer_->pool());
  const gpb::Message* prototype = factory.GetPrototype(type);

  // FAIRWIRE_DIFF_SEED and FAIRWIRE_DIFF_CASES replay or extend the run.
  const char* seed_env = std::getenv("FAIRWIRE_DIFF_SEED");
  const char* cases_env = std::getenv("FAIRWIRE_DIFF_CASES");
  const auto seed = static_cast<std::uint32_t>(
      seed_env != nullptr ? std::strtoul(seed_env, nullptr, 10) : 20261129);
  const long cases = cases_env != nullptr ? std::atol(cases_env) : 3000;
  InputMaker maker(seed);
  const TextFormatOptions options = TextFormatOptionsFor(*built);
  int accepted = 0;
  int rejected = 0;
  int unsupported = 0;
  int mismatches = 0;
  for (long i = 0; i < cases && mismatches < 5; ++i) {
    const std::string input = maker.Make(*type);
    std::unique_ptr<gpb::Message> reference(prototype->New());
    const bool want_ok = reference->ParsePartialFromString(input);
    Message message(built->schema, 0);
    const DecodeStatus status =
        Decode(std::span(reinterpret_cast<const std::uint8_t*>(input.data()),
                         input.size()),
               message);
    const std::string context =
        std::string(GetParam()) + " case " + std::to_string(i) + " (seed " +
        std::to_string(seed) + "), input \"" + CEscape(input) + "\"";
    if (want_ok != status.ok()) {
      ADD_FAILURE() << context << ": libprotobuf "
                    << (want_ok ? "accepts" : "rejects") << ", fairwire "
                    << ToString(status);
      ++mismatches;
      continue;
    }
    if (!want_ok) {
      ++rejected;
      continue;
    }
    if (!OneofWithSeveralMembers(*built, message).empty() ||
        !TypeWithExtensionValue(*built, message).empty()) {
      ++unsupported;  // fairwire-decode refuses these (exit 3)
      continue;
    }
    std::string want;
    ASSERT_TRUE(gpb::TextFormat::PrintToString(*reference, &want));
    const std::string got = ToTextFormat(message, options);
    if (got != want) {
      ADD_FAILURE() << context << "\n--- protoc\n"
                    << want << "--- fairwire\n"
                    << got;
      ++mismatches;
      continue;
    }
    ++accepted;
  }
  std::cout << GetParam() << ": " << accepted << " printed identically, "
            << rejected << " rejected by both, " << unsupported
            << " unsupported skipped (seed " << seed << ")\n";
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(accepted, cases / 6);
  EXPECT_GT(rejected, cases / 30);
}

INSTANTIATE_TEST_SUITE_P(
    FixedSchemas, TextFormatDiffTest,
    ::testing::Values("fairwire.test.AllKinds", "fairwire.test.AllKinds3",
                      "fairwire.test.Nested", "fairwire.test.Nested3",
                      "fairwire.decode.Extra2", "fairwire.decode.Extra3"),
    [](const ::testing::TestParamInfo<const char*>& p) {
      std::string name = p.param;
      return name.substr(name.rfind('.') + 1);
    });

}  // namespace
}  // namespace fairwire::wire
