// Decode: protobuf wire-format bytes into a Message, driven by a Schema.
// Accepts packed and unpacked encodings of every packable repeated field, as
// libprotobuf 3.21 does (DESIGN.md, "Wire core"). Hot loops do no
// per-element indirect call or allocation.
#ifndef FAIRWIRE_WIRE_DECODER_H_
#define FAIRWIRE_WIRE_DECODER_H_

#include <cstdint>
#include <span>

#include "fairwire/wire/message.h"
#include "fairwire/wire/status.h"

namespace fairwire::wire {

// Nesting deeper than this (messages and groups together) is kDepthExceeded.
inline constexpr int kMaxDepth = 100;

// Clears `out`, then decodes `input` into it. On failure returns the reason
// and byte offset; `out` then holds partial contents that mean nothing.
// Never allocates more than a small constant factor of input.size().
DecodeStatus Decode(std::span<const std::uint8_t> input, Message& out);

// As Decode, without clearing first: fields merge as libprotobuf's
// MergeFromString does (repeated fields append, scalars overwrite, nested
// messages merge).
DecodeStatus Merge(std::span<const std::uint8_t> input, Message& out);

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_DECODER_H_
