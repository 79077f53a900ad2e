// The wire kit's packed/unpacked target, compiled with a user's adapter
// (fairwire_add_decoder_kit: NAME_packed_unpacked, with wire_packed_unpacked's
// record-level mutator): wire_packed_unpacked's input, a typed message of
// AllKinds or AllKinds3 (bit 0 of byte 0) and the encoding the rest of byte
// 0 names (scenario::WireCase: the message's accepted records as the input
// gave them, or the message written in one variant). The decoder under test
// is compared with libprotobuf, as in NAME_decode_diff (kit_check.h), on
// that encoding: every encoding of one message must decode as libprotobuf
// decodes it, which is one message. The replay driver checks both the
// records as given and the variant (check_all). An adapter without the
// case's type passes.
#include <string>

#include "fairwire/checks/wire_checks.h"
#include "fairwire/fuzz/target.h"
#include "fairwire/scenarios/wire_case.h"
#include "kit_check.h"

namespace fairwire::fuzz {
namespace {

using wire::scenario::WireCase;

WireCase CaseOf(ByteSpan input) {
  return wire::scenario::DecodeCase(wire::oracle::CaseSchemas(), input);
}

// The case's subject, or null when the adapter has not its type.
const wire::oracle::Subject* SubjectOf(const WireCase& c) {
  const wire::oracle::Subject& s =
      wire::oracle::FixedSubject(c.root == 0 ? wire::oracle::Fixed::kAllKinds
                                             : wire::oracle::Fixed::kAllKinds3);
  for (const wire::oracle::Subject* d : kit::DecodedSubjects()) {
    if (d == &s) return d;
  }
  return nullptr;
}

// The two payloads compared: as given, and in the case's variant.
struct Encodings {
  Bytes given;
  std::string variant_name;
  Bytes in_variant;
};

Encodings EncodingsOf(const wire::oracle::Subject& s, const WireCase& c) {
  const wire::scenario::Variant& v = wire::scenario::AllVariants()[c.variant];
  const std::string bytes =
      wire::scenario::EncodeVariant(s.model, c.message, v);
  return {c.payload, v.name, Bytes(bytes.begin(), bytes.end())};
}

// The case's encodings: as given when `as_given`, in its variant when
// `in_variant`.
std::optional<std::string> CheckEncodings(const WireCase& c, bool as_given,
                                          bool in_variant) {
  if (auto v = kit::Unusable()) return v;
  const wire::oracle::Subject* s = SubjectOf(c);
  if (s == nullptr) return std::nullopt;
  if (as_given) {
    if (auto v = kit::CheckPayload(*s, c.payload)) {
      return *v + "(the case's records as the input gave them)\n";
    }
  }
  if (in_variant) {
    const Encodings e = EncodingsOf(*s, c);
    if (auto v = kit::CheckPayload(*s, e.in_variant)) {
      return *v + "(the case's message written " + e.variant_name + ")\n";
    }
  }
  return std::nullopt;
}

// The one encoding byte 0 names (issue 12: one decode pair per input).
std::optional<std::string> Check(ByteSpan input) {
  const WireCase c = CaseOf(input);
  return CheckEncodings(c, c.as_given, !c.as_given);
}

// The fuzzing check first, so that a finding reproduces with its own text,
// then the encoding it did not check.
std::optional<std::string> CheckAll(ByteSpan input) {
  if (auto violation = Check(input)) return violation;
  const WireCase c = CaseOf(input);
  return CheckEncodings(c, !c.as_given, c.as_given);
}

std::string Describe(ByteSpan input) {
  const WireCase c = CaseOf(input);
  const wire::oracle::Subject* s = SubjectOf(c);
  if (s == nullptr) return "the adapter has not the case's type\n";
  const Encodings e = EncodingsOf(*s, c);
  return "as the input gave it:\n" + kit::DescribePayload(*s, e.given) +
         "written " + e.variant_name + ":\n" +
         kit::DescribePayload(*s, e.in_variant);
}

std::vector<Bytes> ShrinkCandidates(ByteSpan input) {
  return wire::scenario::SimplerCaseInputs(wire::oracle::CaseSchemas(), input);
}

}  // namespace

const TargetSpec& Target() {
  static const TargetSpec spec{
      FAIRWIRE_KIT_TARGET_NAME,
      "a typed message in the encoding byte 0 names (as given, packed, "
      "unpacked, chunks, interleaved, padded varints, ...): the decoder under "
      "test against libprotobuf, with the adapter's declared differences "
      "masked and its known divergences listed (replay: as given and in the "
      "variant)",
      &Check,
      &Describe,
      &ShrinkCandidates,
      &CheckAll};
  return spec;
}

}  // namespace fairwire::fuzz
