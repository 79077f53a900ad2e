// consumer_int64_list: the consumer's own decoder (int64_list.h) checked
// against libprotobuf's generated code for the installed test type
// fairwire.test.AllKinds, through fairwire's installed fuzz driver. The
// input's first byte is ignored (the shipped wire_decode_diff seeds use it to
// pick a schema); the rest is the payload. Where libprotobuf accepts, the
// consumer's decoder must accept and read the same r_int64 and p_int64
// lists. Where libprotobuf rejects, the consumer's decoder may accept: it
// does not claim to validate what it skips.
#include <string>
#include <vector>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_records.h"
#include "fairwire_test.pb.h"
#include "int64_list.h"

namespace fairwire::fuzz {
namespace {

ByteSpan PayloadOf(ByteSpan input) {
  return input.empty() ? input : input.subspan(1);
}

std::string Join(const google::protobuf::RepeatedField<std::int64_t>& v) {
  std::string out;
  for (std::int64_t x : v) out += std::to_string(x) + " ";
  return out;
}

std::string Join(const std::vector<std::int64_t>& v) {
  std::string out;
  for (std::int64_t x : v) out += std::to_string(x) + " ";
  return out;
}

std::optional<std::string> Check(ByteSpan input) {
  const ByteSpan payload = PayloadOf(input);
  fairwire::test::AllKinds expected;
  if (!expected.ParseFromArray(payload.data(),
                               static_cast<int>(payload.size()))) {
    return std::nullopt;
  }
  const std::optional<consumer::Int64Lists> got =
      consumer::DecodeInt64Lists(payload);
  if (!got)
    return "consumer-rejects: libprotobuf accepts, DecodeInt64Lists rejects";
  if (Join(got->r_int64) != Join(expected.r_int64()) ||
      Join(got->p_int64) != Join(expected.p_int64())) {
    return "consumer-values: r_int64 [" + Join(got->r_int64) + "] p_int64 [" +
           Join(got->p_int64) + "], libprotobuf r_int64 [" +
           Join(expected.r_int64()) + "] p_int64 [" + Join(expected.p_int64()) +
           "]";
  }
  return std::nullopt;
}

std::string Describe(ByteSpan input) {
  const auto& subject =
      wire::oracle::FixedSubject(wire::oracle::Fixed::kAllKinds);
  return "AllKinds payload:\n" +
         wire::records::Describe(&subject.model, 0, PayloadOf(input), 1);
}

// Each top-level record removed, simplest first.
std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  std::vector<Bytes> out;
  const ByteSpan payload = PayloadOf(input);
  for (const auto& r : wire::records::Split(payload)) {
    Bytes b(input.begin(), input.end());
    b.erase(b.begin() + 1 + static_cast<long>(r.begin),
            b.begin() + 1 + static_cast<long>(r.end));
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      "consumer_int64_list",
      "the consumer's own int64 list decoder against libprotobuf (AllKinds)",
      &Check, &Describe, &ShrinkCandidates};
  return spec;
}

}  // namespace fairwire::fuzz
