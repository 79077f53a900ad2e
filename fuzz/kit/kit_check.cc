// The wire kit's shared fuzz check (kit_check.h).
#include "kit_check.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "fairwire/checks/wire_adapter.h"
#include "fairwire/checks/wire_adapter_compare.h"
#include "fairwire/checks/wire_adapter_minimise.h"
#include "fairwire/checks/wire_known_divergences.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::fuzz::kit {
namespace {

using wire::kit::Comparison;

// The minimisation budget before a divergence's class is first looked up.
constexpr std::size_t kQuickTrials = 150;

const char* ReportOnlyValue() {
  static const char* value = std::getenv("FAIRWIRE_KIT_REPORT_ONLY");
  return value;
}
bool ReportOnly() { return ReportOnlyValue() != nullptr; }

// Writes `input` as <folder>/<class, with / and + as _>; returns " (saved
// in PATH)", or "" when there is no folder or the write failed.
std::string SaveReported(const std::string& class_name, const Bytes& input) {
  const std::string folder = ReportOnlyValue();
  if (folder.empty() || folder == "1") return "";
  std::string file = class_name.substr(0, 200);
  for (char& c : file) {
    if (c == '/' || c == '+' || c == '^') c = '_';
  }
  const std::string path = folder + "/" + file;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return "";
  const bool ok = std::fwrite(input.data(), 1, input.size(), f) == input.size();
  return std::fclose(f) == 0 && ok ? " (saved in " + path + ")" : "";
}

// The adapter's known divergences, or why its file does not parse.
struct Known {
  std::optional<wire::kit::KnownDivergences> list;
  std::string error;
};

const Known& KnownList() {
  static const Known known = [] {
    Known k;
    k.list = wire::kit::ParseKnownDivergences(wire::kit::KnownDivergencesText(),
                                              &k.error);
    return k;
  }();
  return known;
}

// `payload` as a decode_diff input of `subject`.
Bytes AsDecodeDiffInput(const wire::oracle::Subject& subject,
                        const Bytes& payload) {
  const auto& subjects = DecodedSubjects();
  const auto at = std::find(subjects.begin(), subjects.end(), &subject);
  Bytes out(1, static_cast<std::uint8_t>(at - subjects.begin()));
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

}  // namespace

const std::vector<const wire::oracle::Subject*>& DecodedSubjects() {
  static const std::vector<const wire::oracle::Subject*> subjects = [] {
    std::vector<const wire::oracle::Subject*> out;
    for (int i = 0; i < wire::oracle::kFixedCount; ++i) {
      const wire::oracle::Subject& s =
          wire::oracle::FixedSubject(static_cast<wire::oracle::Fixed>(i));
      if (wire::kit::Adapter().Decode(s.name, {})) out.push_back(&s);
    }
    return out;
  }();
  return subjects;
}

std::optional<std::string> Unusable() {
  const Known& known = KnownList();
  if (!known.list) return "known-divergences-malformed: " + known.error;
  if (DecodedSubjects().empty()) {
    return "adapter-has-no-type: " + wire::kit::Adapter().name() +
           " decodes none of the kit's types";
  }
  return std::nullopt;
}

std::optional<std::string> CheckPayload(const wire::oracle::Subject& subject,
                                        ByteSpan payload) {
  const Known& known = KnownList();
  wire::kit::DecoderAdapter& adapter = wire::kit::Adapter();
  const Comparison c =
      wire::kit::CompareWithReference(adapter, subject, payload);
  switch (c.result) {
    case Comparison::Result::kAgree:
    case Comparison::Result::kDeclared:
      return std::nullopt;
    case Comparison::Result::kNoType:
      return "adapter-has-no-type: " + adapter.name() + " has no " +
             subject.name + " although it decoded one before";
    case Comparison::Result::kOracleDisagrees:
      return "oracle-disagrees: the reference is wrong (a fairwire bug): " +
             c.detail;
    case Comparison::Result::kDiverge:
      break;
  }
  // Classified at its minimal input, as the known-divergences file lists it:
  // first within a small budget (a known class is usually reached in a few
  // dozen trials, and known divergences may be frequent), then, for a class
  // not listed, on from there with the full budget before it is reported.
  wire::kit::MinimalDivergence m =
      wire::kit::MinimiseDivergence(adapter, subject, payload, c, kQuickTrials);
  static std::set<std::string> reported;  // FAIRWIRE_KIT_REPORT_ONLY only
  if (ReportOnly() && reported.count(m.comparison.ClassName()) != 0) {
    return std::nullopt;  // a class reported already needs no second look
  }
  if (known.list->Find(m.comparison.ClassName()) == nullptr) {
    const std::size_t quick = m.trials;
    m = wire::kit::MinimiseDivergence(adapter, subject, m.input, m.comparison);
    m.trials += quick;
  }
  const std::string class_name = m.comparison.ClassName();
  if (known.list->Find(class_name) != nullptr) return std::nullopt;
  if (ReportOnly()) {
    if (reported.insert(class_name).second) {
      const std::string saved =
          SaveReported(class_name, AsDecodeDiffInput(subject, m.input));
      std::fprintf(stderr,
                   "fairwire-kit: new divergence class %s (not a failure: "
                   "FAIRWIRE_KIT_REPORT_ONLY): %s payload %s%s\n",
                   class_name.c_str(), subject.name.c_str(),
                   wire::records::Hex(m.input, 4096).c_str(), saved.c_str());
    }
    return std::nullopt;
  }
  return "divergence " + class_name + ": " + adapter.name() +
         (c.decoded.accepted ? " accepts" : " rejects") + ", libprotobuf " +
         (c.reference.ok ? "accepts" : "rejects") +
         "; not in the known-divergences file\nminimal (" +
         std::to_string(m.trials) + " trials): " +
         wire::kit::DescribeComparison(m.comparison, subject, adapter.name(),
                                       m.input) +
         "as found: " +
         wire::kit::DescribeComparison(c, subject, adapter.name(), payload);
}

std::string DescribePayload(const wire::oracle::Subject& subject,
                            ByteSpan payload) {
  wire::kit::DecoderAdapter& adapter = wire::kit::Adapter();
  const Comparison c =
      wire::kit::CompareWithReference(adapter, subject, payload);
  return wire::kit::DescribeComparison(c, subject, adapter.name(), payload);
}

}  // namespace fairwire::fuzz::kit
