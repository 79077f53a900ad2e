// Serialize: the canonical encoding of a Message, byte-for-byte what
// libprotobuf 3.21's SerializeToString writes for the same contents, so that
// differential tests compare decoders by comparing bytes.
#ifndef FAIRWIRE_WIRE_SERIALIZE_H_
#define FAIRWIRE_WIRE_SERIALIZE_H_

#include <string>

#include "fairwire/wire/message.h"

namespace fairwire::wire {

// Known fields in ascending field-number order (repeated packable fields
// packed exactly when declared packed, an empty packed field omitted;
// implicit-presence fields omitted when zero), then the unknown fields in wire
// order, each record re-encoded canonically (shortest tag and varints), as
// libprotobuf's UnknownFieldSet writes them.
std::string Serialize(const Message& message);

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_SERIALIZE_H_
