// WireCase: the scenario of wire_packed_unpacked and of the encoding-variant
// properties. A typed message of one of the fixed schemas, which the check
// encodes in every variant (packed, unpacked, chunks, interleaved, padded
// varints, ...) and as the input gave it.
//
// Bytes: bit 0 of byte 0 picks the root schema (0: proto2 AllKinds, 1:
// proto3 AllKinds3); bits 1-5, a value v of 0 to 31, the one encoding the
// fuzz target checks: below twice the number of variants, the variant v
// modulo that number; from there up, the payload as the input gave it
// (as_given). Bits 6-7 are not read (the wire fuzz targets' kernel level,
// fairwire/checks/wire_kernel_choice.h); the rest is a wire payload. Decoding
// is total: malformed or rejected top-level records are dropped, the others
// make the message.
#ifndef FAIRWIRE_SCENARIOS_WIRE_CASE_H_
#define FAIRWIRE_SCENARIOS_WIRE_CASE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fairwire/models/wire_model.h"
#include "fairwire/scenarios/bytes.h"
#include "fairwire/scenarios/wire_variant.h"

namespace fairwire::wire::scenario {

using fairwire::Bytes;
using fairwire::ByteSpan;

// A typed message of the fixed schema `root` (0: AllKinds, 1: AllKinds3).
struct WireCase {
  int root = 0;
  // Index into AllVariants(): the variant the case names (the fuzz target
  // checks this one unless as_given; the property suites check them all).
  std::size_t variant = 0;
  // The fuzz target checks the payload as given instead of the variant
  // (one check per input: a fourth of wire_packed_unpacked's time went to
  // the other; issue 12).
  bool as_given = false;
  model::Message message;
  Bytes payload;  // the accepted records of the input, as given
};

// The bytes of an input after byte 0 that a case reads (longer payloads are
// cut: the checks run every variant of the message).
inline constexpr std::size_t kMaxCasePayload = 8192;

// The case of `input` (total) for `schemas[root]`: byte 0 names the root and
// the variant; the payload keeps, in order, the whole records of the rest
// (its first kMaxCasePayload bytes) that the model accepts on their own, and
// the message is the model's decode of them.
WireCase DecodeCase(const model::Schema* const schemas[2], ByteSpan input);
// The same into `out`, keeping the memory its message and payload hold (a
// fuzz target decodes every input into one case per root; model::Clear).
void DecodeCase(const model::Schema* const schemas[2], ByteSpan input,
                WireCase& out);

// The root of `input`'s case (bit 0 of byte 0).
int RootOf(ByteSpan input);

// Byte 0 of an input of `c` (root, variant and as_given; bits 6-7 clear). A
// case as_given keeps its variant when that is below 32 minus twice the
// number of variants (as every decoded case's is), else that modulo.
std::uint8_t ByteZeroOf(const WireCase& c);

// ByteZeroOf(c), then the message's canonical encoding.
Bytes EncodeCase(const model::Schema& schema, const WireCase& c);

// The message, field by field, for a person.
std::string DescribeMessage(const model::Schema& schema,
                            const model::Message& message, int indent = 0);

// Messages one step simpler than `message`, simplest first: without unknown
// records, without each field, with one element fewer, with values zeroed.
std::vector<model::Message> SimplerMessages(const model::Schema& schema,
                                            const model::Message& message);

// Inputs one step simpler than `input` (a case of `schemas`), for a
// scenario-level shrink: its canonical encoding when that is shorter (the
// input as given carries its own encoding), then each of SimplerMessages.
std::vector<Bytes> SimplerCaseInputs(const model::Schema* const schemas[2],
                                     ByteSpan input);

}  // namespace fairwire::wire::scenario

#endif  // FAIRWIRE_SCENARIOS_WIRE_CASE_H_
