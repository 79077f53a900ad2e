// What fairwire-decode learns from the descriptors beyond the wire schema:
// the printer's map-entry options, and whether a decoded message has several
// members of one oneof set (which fairwire::wire keeps, and libprotobuf does
// not).
#ifndef FAIRWIRE_FUZZ_CLI_DESCRIPTOR_TEXT_FORMAT_H_
#define FAIRWIRE_FUZZ_CLI_DESCRIPTOR_TEXT_FORMAT_H_

#include <string>

#include "fairwire/protobuf/schema_from_descriptor.h"
#include "fairwire/wire/message.h"
#include "text_format.h"

namespace fairwire::wire {

// Map-entry types and enum defaults of `built`, for AppendTextFormat.
TextFormatOptions TextFormatOptionsFor(const protobuf::DescriptorSchema& built);

// The full name of a oneof of `message` (or of a message inside it) with
// more than one member set, or "". fairwire::wire keeps every member it
// reads; libprotobuf keeps only the last, which the decoded message cannot
// tell, so such a message cannot be printed as protoc would.
std::string OneofWithSeveralMembers(const protobuf::DescriptorSchema& built,
                                    const Message& message);

}  // namespace fairwire::wire

#endif  // FAIRWIRE_FUZZ_CLI_DESCRIPTOR_TEXT_FORMAT_H_
