#include "fairwire/checks/wire_checks.h"

#include <utility>
#include <vector>

#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::oracle {
namespace {

ByteSpan AsBytes(const std::string& s) {
  return ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

// One encoding through every decoder.
std::optional<std::string> CheckEncoding(const Subject& subject,
                                         const std::string& variant,
                                         ByteSpan bytes,
                                         const std::string& expected,
                                         bool all_decoders) {
  std::vector<std::pair<const char*, Verdict>> outcomes;
  if (subject.fairwire) {
    outcomes.emplace_back("fairwire",
                          DecodeWithFairwire(*subject.fairwire, bytes));
  }
  if (all_decoders) {
    outcomes.emplace_back("model", DecodeWithModel(subject.model, bytes));
  }
  outcomes.emplace_back("libprotobuf",
                        DecodeWithLibprotobuf(*subject.dynamic, bytes));
  if (all_decoders && subject.generated != nullptr) {
    outcomes.emplace_back("generated",
                          DecodeWithLibprotobuf(*subject.generated, bytes));
  }
  for (const auto& [name, out] : outcomes) {
    if (out.ok && out.canonical == expected) continue;
    const std::string where = "(" + variant + "," + name + "): ";
    const std::string encoding = "\n  encoding " + records::Hex(bytes, 96) +
                                 "\n" +
                                 records::Describe(&subject.model, 0, bytes, 2);
    if (!out.ok) {
      return "variant-rejected" + where + name + " rejects (" + out.reason +
             ") the " + variant + " encoding" + encoding;
    }
    // Closed-enum unknowns keep 64 or 32 bits depending on how they arrived
    // (see oracle.h); the variants move them between packed and unpacked.
    if (out.canonical != expected &&
        TruncateEnumUnknowns(subject.model, out.canonical) !=
            TruncateEnumUnknowns(subject.model, expected)) {
      return "variant-differs" + where + name + " decodes the " + variant +
             " encoding to\n" +
             records::Describe(&subject.model, 0, AsBytes(out.canonical), 2) +
             "  instead of\n" +
             records::Describe(&subject.model, 0, AsBytes(expected), 2) +
             encoding;
    }
  }
  return std::nullopt;
}

}  // namespace

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
  const Subject& subject = CaseSubject(c.root);
  if (!subject.fairwire) {
    return "adapter-refused: " + subject.name + ": " + subject.adapter_error;
  }
  return CheckMessageVariants(subject, c.message, c.payload, all_decoders);
}

std::optional<std::string> CheckMessageVariants(const Subject& subject,
                                                const model::Message& message,
                                                ByteSpan as_given,
                                                bool all_decoders) {
  const std::string expected = model::Serialize(subject.model, message);
  if (auto v =
          CheckEncoding(subject, "as-given", as_given, expected, all_decoders))
    return v;
  for (const scenario::Variant& variant : scenario::AllVariants()) {
    const std::string bytes =
        scenario::EncodeVariant(subject.model, message, variant);
    if (auto v = CheckEncoding(subject, variant.name, AsBytes(bytes), expected,
                               all_decoders)) {
      return v;
    }
  }
  return std::nullopt;
}

}  // namespace fairwire::wire::oracle
