// The wire kit's comparison: a decoder under test (wire_adapter.h) against
// libprotobuf's DynamicMessage, the reference, on the same bytes; with the
// reference checked against the model on every input, so that a wrong
// reference shows as such and is never blamed on the decoder.
//
// Both sides are compared in one canonical form: the decoder's re-encoding
// and libprotobuf's re-serialisation, each parsed with the model, the
// declared masks of the adapter's Profile applied, unknown records ordered
// by field number (their relative order across numbers has no meaning on
// the wire; within one number it is kept), and written by the model's
// serializer. A divergence is classified by the rules its input touches
// (wire_rules.h) and by how the two sides parted.
#ifndef FAIRWIRE_CHECKS_WIRE_ADAPTER_COMPARE_H_
#define FAIRWIRE_CHECKS_WIRE_ADAPTER_COMPARE_H_

#include <optional>
#include <string>
#include <string_view>

#include "fairwire/checks/wire_adapter.h"
#include "fairwire/checks/wire_oracle.h"
#include "fairwire/checks/wire_rules.h"

namespace fairwire::wire::kit {

// How the decoder under test and the reference parted.
enum class Parting {
  kAcceptsRejected,  // the decoder accepts what libprotobuf rejects
  kRejectsAccepted,  // the decoder rejects what libprotobuf accepts
  kDiffers,          // both accept, with different contents
  kUnparseable,      // the decoder accepts; libprotobuf cannot parse its
                     // re-encoding
};

// "accepts-rejected", "rejects-accepted", "differs", "reencoding-unparseable".
std::string_view PartingName(Parting parting);

// What one comparison found.
struct Comparison {
  enum class Result {
    kAgree,            // same verdict and, on accept, the same contents
    kDeclared,         // the input touches a difference the profile declares
    kDiverge,          // everything else
    kNoType,           // the adapter has no such message type
    kOracleDisagrees,  // the model and DynamicMessage differ: a harness bug
  };
  Result result = Result::kAgree;
  Parting parting = Parting::kDiffers;  // kDiverge
  rules::InputFacts facts;              // of the input, always walked
  std::string declared_by;              // kDeclared: the Profile entry
  oracle::Verdict reference;            // DynamicMessage's verdict
  Decoded decoded;                      // the adapter's answer
  // kDiverge: the two canonical forms; kOracleDisagrees: the oracle's
  // message.
  std::string detail;

  // The divergence class, "<parting>/<rules>": for instance
  // "accepts-rejected/varint-over-10-bytes". Meaningful for kDiverge.
  std::string ClassName() const;
};

// Runs `adapter` and the reference on `input` as `subject`'s root type and
// compares them under the adapter's profile.
Comparison CompareWithReference(DecoderAdapter& adapter,
                                const oracle::Subject& subject, ByteSpan input);

// A comparison as a person reads it: the class, the input's records, and
// what each decoder did.
std::string DescribeComparison(const Comparison& c,
                               const oracle::Subject& subject,
                               std::string_view adapter_name, ByteSpan input);

}  // namespace fairwire::wire::kit

#endif  // FAIRWIRE_CHECKS_WIRE_ADAPTER_COMPARE_H_
