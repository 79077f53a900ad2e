// baseline_libprotobuf: libprotobuf's generated code alone, on the inputs of
// wire_decode_diff (the first byte modulo 4 picks AllKinds, AllKinds3,
// Nested or Nested3, as wire::oracle::FixedSubject orders them; the rest is
// the payload). It parses, re-serialises and re-parses, and does nothing
// else: the yardstick of `fairwire fuzz bench` (issue 12), not a target.
// A TargetSpec like the targets, so that it has the same engine entry point
// and a replay driver (`--repeat`, for `fuzz bench --per-input`); not
// registered with fairwire_add_fuzz_target, so it has no corpus test, no
// fuzz-smoke test and no place in campaigns or OSS-Fuzz's build. Built twice:
// with Debian's libprotobuf, and with one built here with the targets'
// instrumentation (fuzz/baseline/instrumented_libprotobuf.cmake).
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/fuzz/target.h"
#include "fairwire_test.pb.h"
#include "fairwire_test3.pb.h"

namespace fairwire::fuzz {
namespace {

// As the oracle's libprotobuf decoders do: ParsePartialFromArray, then
// SerializePartialAsString; the re-serialisation must parse again.
template <typename M>
std::optional<std::string> RoundTrip(ByteSpan payload) {
  M first;
  if (!first.ParsePartialFromArray(payload.data(),
                                   static_cast<int>(payload.size()))) {
    return std::nullopt;
  }
  const std::string bytes = first.SerializePartialAsString();
  M second;
  if (!second.ParsePartialFromArray(bytes.data(),
                                    static_cast<int>(bytes.size()))) {
    return "baseline-reparse: " + M::descriptor()->full_name() +
           ": the re-serialisation of an accepted input does not parse";
  }
  return std::nullopt;
}

std::optional<std::string> Check(ByteSpan input) {
  // The oracle discards libprotobuf's log output too (invalid UTF-8 in
  // proto3 strings is logged).
  static const bool silenced = [] {
    google::protobuf::SetLogHandler(nullptr);
    return true;
  }();
  (void)silenced;
  const ByteSpan payload = input.empty() ? input : input.subspan(1);
  switch (input.empty() ? 0 : input[0] % 4) {
    case 0:
      return RoundTrip<fairwire::test::AllKinds>(payload);
    case 1:
      return RoundTrip<fairwire::test::AllKinds3>(payload);
    case 2:
      return RoundTrip<fairwire::test::Nested>(payload);
    default:
      return RoundTrip<fairwire::test::Nested3>(payload);
  }
}

std::string Describe(ByteSpan input) {
  return "payload of " + std::to_string(input.empty() ? 0 : input.size() - 1) +
         " bytes for root " + std::to_string(input.empty() ? 0 : input[0] % 4) +
         "\n";
}

std::vector<Bytes> NoShrinks(ByteSpan) { return {}; }

}  // namespace

// Its name: baseline_libprotobuf, or, built against the instrumented
// libprotobuf (instrumented_libprotobuf.cmake),
// baseline_libprotobuf_instrumented.
#ifndef FAIRWIRE_BASELINE_NAME
#define FAIRWIRE_BASELINE_NAME "baseline_libprotobuf"
#endif

const TargetSpec& Target() {
  static const TargetSpec spec{
      FAIRWIRE_BASELINE_NAME,
      "libprotobuf's generated code alone: parse, re-serialise, re-parse "
      "(the yardstick of fairwire fuzz bench)",
      &Check, &Describe, &NoShrinks};
  return spec;
}

}  // namespace fairwire::fuzz
