// baseline_libprotobuf: libprotobuf's generated code alone, on the inputs of
// wire_decode_diff (the first byte modulo 4 picks AllKinds, AllKinds3,
// Nested or Nested3, as wire::oracle::FixedSubject orders them; the rest is
// the payload). It parses, re-serialises and re-parses, and does nothing
// else: the yardstick of `fairwire fuzz bench` (issue 12), not a target.
// Built only for the libFuzzer engine; not registered with
// fairwire_add_fuzz_target, so it has no corpus test, no fuzz-smoke test and
// no place in campaigns or OSS-Fuzz's build.
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fairwire_test.pb.h"
#include "fairwire_test3.pb.h"

namespace {

// As the oracle's libprotobuf decoders do: ParsePartialFromArray, then
// SerializePartialAsString; the re-serialisation must parse again.
template <typename M>
void RoundTrip(const std::uint8_t* data, std::size_t size) {
  M first;
  if (!first.ParsePartialFromArray(data, static_cast<int>(size))) return;
  const std::string bytes = first.SerializePartialAsString();
  M second;
  if (!second.ParsePartialFromArray(bytes.data(),
                                    static_cast<int>(bytes.size()))) {
    std::fprintf(stderr,
                 "baseline_libprotobuf: %s: the re-serialisation of an "
                 "accepted input does not parse\n",
                 M::descriptor()->full_name().c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  // The oracle discards libprotobuf's log output too (invalid UTF-8 in
  // proto3 strings is logged).
  static const bool silenced = [] {
    google::protobuf::SetLogHandler(nullptr);
    return true;
  }();
  (void)silenced;
  const int which = size == 0 ? 0 : data[0] % 4;
  const std::uint8_t* payload = size == 0 ? data : data + 1;
  const std::size_t length = size == 0 ? 0 : size - 1;
  switch (which) {
    case 0:
      RoundTrip<fairwire::test::AllKinds>(payload, length);
      break;
    case 1:
      RoundTrip<fairwire::test::AllKinds3>(payload, length);
      break;
    case 2:
      RoundTrip<fairwire::test::Nested>(payload, length);
      break;
    default:
      RoundTrip<fairwire::test::Nested3>(payload, length);
      break;
  }
  return 0;
}
