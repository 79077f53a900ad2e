// What fairwire-decode learns from the descriptors beyond the wire schema:
// the printer's map-entry options, and whether a decoded message is one
// fairwire cannot print as protoc would (several members of one oneof set;
// possible extension values).
#ifndef FAIRWIRE_TEXT_FORMAT_DESCRIPTOR_TEXT_FORMAT_H_
#define FAIRWIRE_TEXT_FORMAT_DESCRIPTOR_TEXT_FORMAT_H_

#include <string>

#include "fairwire/protobuf/schema_from_descriptor.h"
#include "fairwire/text_format/text_format.h"
#include "fairwire/wire/message.h"

namespace fairwire::wire {

// Map-entry types and enum defaults of `built`, for AppendTextFormat.
TextFormatOptions TextFormatOptionsFor(const protobuf::DescriptorSchema& built);

// The full name of a oneof of `message` (or of a message inside it) with
// more than one member set, or "". fairwire::wire keeps every member it
// reads; libprotobuf keeps only the last, which the decoded message cannot
// tell, so such a message cannot be printed as protoc would.
std::string OneofWithSeveralMembers(const protobuf::DescriptorSchema& built,
                                    const Message& message);

// The full name of a message type, in `message` or inside it, whose decoded
// unknown fields hold a record numbered as an extension of the type defined
// in its descriptor pool, or "". fairwire::wire has no extensions: their
// values stay unknown fields, which protoc prints as "[ext.name]: value".
std::string TypeWithExtensionValue(const protobuf::DescriptorSchema& built,
                                   const Message& message);

}  // namespace fairwire::wire

#endif  // FAIRWIRE_TEXT_FORMAT_DESCRIPTOR_TEXT_FORMAT_H_
