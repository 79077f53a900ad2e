// The wire kit's differential target, compiled with a user's adapter
// (fairwire_add_decoder_kit): byte 0 picks one of the fixed types the adapter
// has (AllKinds, AllKinds3, Nested, Nested3, in this order, skipping those it
// has not: byte 0 modulo their number); the rest is the payload. For an
// adapter of all four types that is wire_decode_diff's input, whose corpus
// seeds this target. The decoder
// under test is compared with libprotobuf's DynamicMessage, which is checked
// against the reference model on every input
// (fairwire/checks/wire_adapter_compare.h). A divergence whose class the
// adapter's known-divergences file lists passes; any other fails, named by
// its class at its minimal input, so that a campaign groups its findings by
// class (FAIRWIRE_KIT_REPORT_ONLY: printed instead, once per class).
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "fairwire/checks/wire_adapter.h"
#include "fairwire/checks/wire_adapter_compare.h"
#include "fairwire/checks/wire_adapter_minimise.h"
#include "fairwire/checks/wire_known_divergences.h"
#include "fairwire/checks/wire_oracle.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_fixed_input.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::fuzz {
namespace {

using wire::scenario::PayloadOf;

using wire::kit::Comparison;

// The minimisation budget before a divergence's class is first looked up.
constexpr std::size_t kQuickTrials = 150;

// The fixed subjects whose type the adapter has (asked once, with an empty
// payload).
const std::vector<const wire::oracle::Subject*>& Supported() {
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

const wire::oracle::Subject& SubjectOf(ByteSpan input) {
  const auto& subjects = Supported();
  const std::size_t which = input.empty() ? 0 : input[0] % subjects.size();
  return *subjects[which];
}

// FAIRWIRE_KIT_REPORT_ONLY set: a divergence of an unlisted class is printed
// once per class, not failed (the fuzz-smoke tests: a short run must not
// turn red on a decoder's next unlisted class; crashes, harness failures and
// a malformed file still fail; and first campaigns, to collect the classes).
// Set to a folder, each class's minimal input (the whole fuzz input) is also
// written there, named by its class.
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

std::optional<std::string> Check(ByteSpan input) {
  const Known& known = KnownList();
  if (!known.list) {
    return "known-divergences-malformed: " + known.error;
  }
  if (Supported().empty()) {
    return "adapter-has-no-type: " + wire::kit::Adapter().name() +
           " decodes none of the kit's types";
  }
  const wire::oracle::Subject& subject = SubjectOf(input);
  wire::kit::DecoderAdapter& adapter = wire::kit::Adapter();
  const Comparison c =
      wire::kit::CompareWithReference(adapter, subject, PayloadOf(input));
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
  wire::kit::MinimalDivergence m = wire::kit::MinimiseDivergence(
      adapter, subject, PayloadOf(input), c, kQuickTrials);
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
          SaveReported(class_name, wire::scenario::WithPayload(input, m.input));
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
         wire::kit::DescribeComparison(c, subject, adapter.name(),
                                       PayloadOf(input));
}

std::string Describe(ByteSpan input) {
  if (Supported().empty()) return "the adapter decodes none of the types\n";
  const wire::oracle::Subject& subject = SubjectOf(input);
  wire::kit::DecoderAdapter& adapter = wire::kit::Adapter();
  const Comparison c =
      wire::kit::CompareWithReference(adapter, subject, PayloadOf(input));
  return wire::kit::DescribeComparison(c, subject, adapter.name(),
                                       PayloadOf(input));
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      FAIRWIRE_KIT_TARGET_NAME,
      "raw bytes against the fixed test schemas: the decoder under test "
      "against libprotobuf's DynamicMessage (itself checked against the "
      "reference model), with the adapter's declared differences masked and "
      "its known divergences listed",
      &Check, &Describe, &wire::scenario::ShrinkFixedInput};
  return spec;
}

}  // namespace fairwire::fuzz
