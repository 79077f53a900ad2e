// The known-divergences test of a decoder under test (ctest
// known-divergences.NAME, made by fairwire_add_decoder_kit). It fails when:
//   - the adapter's file does not parse, or the adapter implements another
//     contract version;
//   - the adapter does not run: for every fixed type, an empty payload and a
//     plain one must be decoded and agree with libprotobuf (so that a
//     skipped decoder cannot pass);
//   - a listed entry no longer diverges, or diverges in another class (a fix
//     upstream shows here: remove its entry).
// Each entry's comparison is printed, so the test's log is the list.
#include <cstdio>
#include <string>

#include "fairwire/checks/wire_adapter.h"
#include "fairwire/checks/wire_adapter_compare.h"
#include "fairwire/checks/wire_adapter_minimise.h"
#include "fairwire/checks/wire_known_divergences.h"
#include "fairwire/checks/wire_oracle.h"

namespace {

using fairwire::Bytes;
using fairwire::ByteSpan;
using fairwire::wire::kit::Comparison;
namespace kit = fairwire::wire::kit;
namespace oracle = fairwire::wire::oracle;

const oracle::Subject* SubjectNamed(const std::string& name) {
  for (int i = 0; i < oracle::kFixedCount; ++i) {
    const oracle::Subject& s =
        oracle::FixedSubject(static_cast<oracle::Fixed>(i));
    if (s.name == name) return &s;
  }
  return nullptr;
}

// A plain payload of each fixed type: field 1 (an int32 in all four) = 150.
const Bytes kPlain = {0x08, 0x96, 0x01};

// Fails unless the adapter decodes at least one type, and every type it
// decodes agrees with libprotobuf on plain payloads.
int CheckRuns(kit::DecoderAdapter& adapter) {
  int failures = 0;
  int supported = 0;
  for (int i = 0; i < oracle::kFixedCount; ++i) {
    const oracle::Subject& s =
        oracle::FixedSubject(static_cast<oracle::Fixed>(i));
    if (!adapter.Decode(s.name, {})) {
      std::printf("not checked: %s (the adapter has no such type)\n",
                  s.name.c_str());
      continue;
    }
    ++supported;
    std::printf("checked: %s\n", s.name.c_str());
    for (const Bytes& payload : {Bytes{}, kPlain}) {
      const Comparison c = kit::CompareWithReference(adapter, s, payload);
      if (c.result != Comparison::Result::kAgree || !c.decoded.accepted) {
        std::printf(
            "FAIL the adapter must decode a plain %s (%zu bytes):\n%s",
            s.name.c_str(), payload.size(),
            kit::DescribeComparison(c, s, adapter.name(), payload).c_str());
        ++failures;
      }
    }
  }
  if (supported == 0) {
    std::printf("FAIL the adapter decodes none of the kit's types\n");
    ++failures;
  }
  return failures;
}

}  // namespace

int main() {
  oracle::SilenceLibprotobufLogs();
  kit::DecoderAdapter& adapter = kit::Adapter();
  std::printf("decoder under test: %s (contract version %d)\n",
              adapter.name().c_str(), adapter.contract_version());
  if (adapter.contract_version() != kit::kContractVersion) {
    std::printf(
        "FAIL the adapter implements contract version %d; this kit "
        "is version %d\n",
        adapter.contract_version(), kit::kContractVersion);
    return 1;
  }
  std::string error;
  const auto known =
      kit::ParseKnownDivergences(kit::KnownDivergencesText(), &error);
  if (!known) {
    std::printf("FAIL known-divergences file: %s\n", error.c_str());
    return 1;
  }
  int failures = CheckRuns(adapter);
  for (const kit::KnownDivergence& d : known->entries) {
    const oracle::Subject* s = SubjectNamed(d.type);
    if (s == nullptr) {
      std::printf("FAIL line %d: no fixed type %s\n", d.line, d.type.c_str());
      ++failures;
      continue;
    }
    Comparison c = kit::CompareWithReference(adapter, *s, d.input);
    Bytes minimal = d.input;
    if (c.result == Comparison::Result::kDiverge) {
      // Classified as the fuzz target classifies: at the minimal input.
      kit::MinimalDivergence m =
          kit::MinimiseDivergence(adapter, *s, d.input, c);
      minimal = std::move(m.input);
      c = std::move(m.comparison);
    }
    const bool same =
        c.result == Comparison::Result::kDiverge && d.Covers(c.ClassName());
    std::printf(
        "%s %s%s (line %d; %s)\n%s\n", same ? "ok  " : "FAIL",
        d.class_name.c_str(), d.includes ? " and every class it includes" : "",
        d.line, d.verdict.c_str(),
        kit::DescribeComparison(c, *s, adapter.name(), minimal).c_str());
    if (minimal != d.input) {
      std::printf(
          "  note: the listed input shrinks further; list the one "
          "above\n");
    }
    if (!same) {
      std::printf(
          "  listed as %s, now %s: if the decoder was fixed, remove "
          "the entry\n",
          d.class_name.c_str(),
          c.result == Comparison::Result::kDiverge ? c.ClassName().c_str()
                                                   : "no divergence");
      ++failures;
    }
  }
  std::printf("%zu known divergences, %d failures\n", known->entries.size(),
              failures);
  return failures == 0 ? 0 : 1;
}
