// The check that the wire kit's fuzz targets share (decoder_diff.cc,
// decoder_variants.cc): one payload of one of the kit's types, the decoder
// under test against libprotobuf, and a divergence classified at its
// minimal input and looked up in the adapter's known-divergences file.
//
// FAIRWIRE_KIT_REPORT_ONLY set: a divergence of an unlisted class is printed
// once per class, not failed (the fuzz-smoke tests: a short run must not turn
// red on a decoder's next unlisted class; crashes, harness failures and a
// malformed file still fail; and first campaigns, to collect the classes).
// Set to a folder, each class's minimal input is also written there, named
// by its class, as a NAME_decode_diff input (byte 0 picks the type).
#ifndef FAIRWIRE_FUZZ_KIT_CHECK_H_
#define FAIRWIRE_FUZZ_KIT_CHECK_H_

#include <optional>
#include <string>
#include <vector>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/scenarios/bytes.h"

namespace fairwire::fuzz::kit {

// The fixed subjects whose type the adapter has (asked once, with an empty
// payload), in Fixed order: byte 0 of a decode_diff input indexes them.
const std::vector<const wire::oracle::Subject*>& DecodedSubjects();

// A violation that holds for every input: the known-divergences file does
// not parse, or the adapter decodes none of the kit's types.
std::optional<std::string> Unusable();

// The violation of `payload` as `subject`, or nullopt: it agrees, it is
// declared by the profile, or it diverges in a listed class.
std::optional<std::string> CheckPayload(const wire::oracle::Subject& subject,
                                        ByteSpan payload);

// The comparison of `payload` as `subject`, for a person.
std::string DescribePayload(const wire::oracle::Subject& subject,
                            ByteSpan payload);

}  // namespace fairwire::fuzz::kit

#endif  // FAIRWIRE_FUZZ_KIT_CHECK_H_
