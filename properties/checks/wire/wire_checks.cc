#include "fairwire/checks/wire_checks.h"

#include <algorithm>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::oracle {
namespace {

ByteSpan AsBytes(const std::string& s) {
  return ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

// What every verdict on every encoding of one message is compared with: the
// model's canonical bytes and, made on first need and then kept, the same
// with closed-enum unknowns truncated (remade for every verdict, that was
// half of the truncations' 15% of wire_packed_unpacked's check; issue 12).
class Expected {
 public:
  Expected(const model::Schema& schema, const std::string& canonical)
      : schema_(schema), canonical_(canonical) {}

  const std::string& canonical() const { return canonical_; }

  const std::string& Truncated() {
    if (!truncated_) truncated_ = TruncateEnumUnknowns(schema_, canonical_);
    return *truncated_;
  }

 private:
  const model::Schema& schema_;
  const std::string& canonical_;
  std::optional<std::string> truncated_;
};

// The violation of one decoder's verdict on one encoding, if any.
std::optional<std::string> CheckVerdict(const Subject& subject,
                                        const std::string& variant,
                                        ByteSpan bytes,
                                        Expected& expected_bytes,
                                        const NamedVerdict& named) {
  const Verdict& out = named.verdict;
  const std::string& expected = expected_bytes.canonical();
  if (out.ok && out.canonical == expected) return std::nullopt;
  // Closed-enum unknowns keep 64 or 32 bits depending on how they arrived
  // (see wire_oracle.h); the variants move them between packed and unpacked.
  if (out.ok && TruncateEnumUnknowns(subject.model, out.canonical) ==
                    expected_bytes.Truncated()) {
    return std::nullopt;
  }
  // A violation: only now are the records described (doing it first, on
  // every closed-enum difference that the truncation then allows, was a
  // tenth of wire_packed_unpacked's time; perf, issue 12).
  const std::string& name = named.name;
  const std::string where = "(" + variant + "," + name + "): ";
  const std::string encoding = "\n  encoding " + records::Hex(bytes, 96) +
                               "\n" +
                               records::Describe(&subject.model, 0, bytes, 2);
  if (!out.ok) {
    return "variant-rejected" + where + name + " rejects (" + out.reason +
           ") the " + variant + " encoding" + encoding;
  }
  return "variant-differs" + where + name + " decodes the " + variant +
         " encoding to\n" +
         records::Describe(&subject.model, 0, AsBytes(out.canonical), 2) +
         "  instead of\n" +
         records::Describe(&subject.model, 0, AsBytes(expected), 2) + encoding;
}

}  // namespace

std::vector<std::string> EncodingDecoders(const Subject& subject,
                                          bool all_decoders) {
  std::vector<std::string> names{"fairwire"};
  if (all_decoders) names.emplace_back("model");
  names.emplace_back("libprotobuf");
  if (all_decoders && subject.generated != nullptr) {
    names.emplace_back("generated");
  }
  return names;
}

std::vector<NamedVerdict> DecodeEncoding(const Subject& subject, ByteSpan bytes,
                                         bool all_decoders) {
  // As EncodingDecoders; without a fairwire schema there is no fairwire
  // verdict, which FindVariantViolation reports.
  std::vector<NamedVerdict> out;
  if (subject.fairwire) {
    out.push_back({"fairwire", DecodeWithFairwire(*subject.fairwire, bytes)});
  }
  if (all_decoders) {
    out.push_back({"model", DecodeWithModel(subject.model, bytes)});
  }
  out.push_back(
      {"libprotobuf", DecodeWithLibprotobuf(*subject.dynamic, bytes)});
  if (all_decoders && subject.generated != nullptr) {
    out.push_back(
        {"generated", DecodeWithLibprotobuf(*subject.generated, bytes)});
  }
  return out;
}

namespace {

std::optional<std::string> FindViolation(
    const Subject& subject, const std::string& variant, ByteSpan bytes,
    Expected& expected, const std::vector<NamedVerdict>& verdicts,
    bool all_decoders) {
  if (!subject.fairwire) {
    return "adapter-refused: " + subject.name + ": " + subject.adapter_error;
  }
  for (const std::string& name : EncodingDecoders(subject, all_decoders)) {
    const auto it =
        std::find_if(verdicts.begin(), verdicts.end(),
                     [&](const NamedVerdict& v) { return v.name == name; });
    if (it == verdicts.end()) {
      return "variant-missing(" + variant + "," + name + "): no " + name +
             " verdict on the " + variant + " encoding";
    }
    if (auto v = CheckVerdict(subject, variant, bytes, expected, *it)) {
      return v;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> FindVariantViolation(
    const Subject& subject, const std::string& variant, ByteSpan bytes,
    const std::string& expected, const std::vector<NamedVerdict>& verdicts,
    bool all_decoders) {
  Expected expected_bytes(subject.model, expected);
  return FindViolation(subject, variant, bytes, expected_bytes, verdicts,
                       all_decoders);
}

const Subject& CaseSubject(int root) {
  return FixedSubject(root == 0 ? Fixed::kAllKinds : Fixed::kAllKinds3);
}

const model::Schema* const* CaseSchemas() {
  static const model::Schema* const schemas[2] = {&CaseSubject(0).model,
                                                  &CaseSubject(1).model};
  return schemas;
}

std::optional<std::string> CheckCase(const scenario::WireCase& c,
                                     bool all_decoders) {
  return CheckMessageVariants(CaseSubject(c.root), c.message, c.payload,
                              all_decoders);
}

std::optional<std::string> CheckMessageVariants(const Subject& subject,
                                                const model::Message& message,
                                                ByteSpan as_given,
                                                bool all_decoders) {
  return CheckMessageVariantsWith(subject, message, as_given, all_decoders,
                                  [&](const std::string&, ByteSpan bytes) {
                                    return DecodeEncoding(subject, bytes,
                                                          all_decoders);
                                  });
}

namespace {

// The message as given (unless nullopt) and in each of `variants`, checked
// in that order.
std::optional<std::string> CheckEncodings(
    const Subject& subject, const model::Message& message,
    std::optional<ByteSpan> as_given,
    std::span<const scenario::Variant> variants, bool all_decoders,
    const EncodingDecoder& decode) {
  if (!subject.fairwire) {
    return "adapter-refused: " + subject.name + ": " + subject.adapter_error;
  }
  const std::string canonical = model::Serialize(subject.model, message);
  Expected expected(subject.model, canonical);
  const auto check = [&](const std::string& variant, ByteSpan bytes) {
    return FindViolation(subject, variant, bytes, expected,
                         decode(variant, bytes), all_decoders);
  };
  if (as_given) {
    if (auto v = check("as-given", *as_given)) return v;
  }
  for (const scenario::Variant& variant : variants) {
    const std::string bytes =
        scenario::EncodeVariant(subject.model, message, variant);
    if (auto v = check(variant.name, AsBytes(bytes))) return v;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CheckCaseVariant(const scenario::WireCase& c) {
  const Subject& subject = CaseSubject(c.root);
  const std::span<const scenario::Variant> all = scenario::AllVariants();
  return CheckEncodings(
      subject, c.message,
      c.as_given ? std::optional<ByteSpan>(c.payload) : std::nullopt,
      c.as_given ? all.first(0) : all.subspan(c.variant % all.size(), 1),
      /*all_decoders=*/false, [&](const std::string&, ByteSpan bytes) {
        return DecodeEncoding(subject, bytes, false);
      });
}

std::optional<std::string> CheckMessageVariantsWith(
    const Subject& subject, const model::Message& message, ByteSpan as_given,
    bool all_decoders, const EncodingDecoder& decode) {
  return CheckEncodings(subject, message, as_given, scenario::AllVariants(),
                        all_decoders, decode);
}

}  // namespace fairwire::wire::oracle
