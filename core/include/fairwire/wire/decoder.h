// Decode: protobuf wire-format bytes into a Message, driven by a Schema.
// Accepts packed and unpacked encodings of every packable repeated field, as
// libprotobuf 3.21 does (DESIGN.md, "Wire core"). Hot loops do no
// per-element indirect call or allocation.
//
// Where libprotobuf's generated code and its DynamicMessage differ, this
// decoder follows DynamicMessage (what `protoc --decode` uses): a closed-enum
// value outside the enum arriving UNPACKED goes to the unknown fields as its
// int32 value sign-extended to 64 bits (2^32 + 5 is kept as 5; 0xFFFFFFFF as
// -1); arriving PACKED it keeps all 64 bits (both libprotobuf paths agree).
// Membership is always tested on the int32-truncated value.
//
// Tags are read as libprotobuf reads them: at most 5 bytes, value modulo
// 2^32, so kFieldNumberTooLarge is never returned. Only the first error in
// wire order is reported; its offset is the first byte of the item that
// failed: the tag (field 0, wire type 6/7, unexpected or mismatched end-group,
// a tag longer than 5 bytes or cut short), the start-group tag
// (kUnterminatedGroup), the tag of the record nesting too deep
// (kDepthExceeded), the length varint (kLength*, kPackedSizeNotMultiple),
// the value (kTruncated, kVarintTooLong), the packed element
// (kPackedElementPastRecord, kVarintTooLong), the string payload
// (kInvalidUtf8).
#ifndef FAIRWIRE_WIRE_DECODER_H_
#define FAIRWIRE_WIRE_DECODER_H_

#include <cstdint>
#include <optional>
#include <span>

#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/message.h"
#include "fairwire/wire/status.h"

namespace fairwire::wire {

// Nesting deeper than this (messages and groups together) is kDepthExceeded.
inline constexpr int kMaxDepth = 100;

// The options of one Decode or Merge call.
struct DecodeOptions {
  // The kernel level of this call (lowered to one the CPU supports, as
  // SupportedLevelAtMost does); nullopt: the thread's ActiveKernelLevel().
  std::optional<KernelLevel> kernel;
};

// Clears `out`, then decodes `input` into it. On failure returns the reason
// and byte offset; `out` then holds partial contents that mean nothing.
// Never allocates more than a small constant factor of input.size().
DecodeStatus Decode(std::span<const std::uint8_t> input, Message& out);

// As Decode, without clearing first: fields merge as libprotobuf's
// MergeFromString does (repeated fields append, scalars overwrite, nested
// messages merge).
DecodeStatus Merge(std::span<const std::uint8_t> input, Message& out);

// Decode and Merge with `options`: the same result at every kernel level.
DecodeStatus Decode(std::span<const std::uint8_t> input, Message& out,
                    const DecodeOptions& options);
DecodeStatus Merge(std::span<const std::uint8_t> input, Message& out,
                   const DecodeOptions& options);

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_DECODER_H_
