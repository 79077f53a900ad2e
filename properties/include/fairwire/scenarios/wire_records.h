// Wire records as a person (and a record-level mutator) sees them: a lenient
// splitter of a payload into top-level records, a canonical record writer
// with padding options, and an annotated printer.
#ifndef FAIRWIRE_SCENARIOS_WIRE_RECORDS_H_
#define FAIRWIRE_SCENARIOS_WIRE_RECORDS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fairwire/models/wire_model_schema.h"

namespace fairwire::wire::records {

// One top-level record of a payload: bytes [begin, end).
struct RawRecord {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::uint32_t number = 0;
  int wire_type = 0;
  std::size_t payload_begin = 0;  // after the tag (and the length, for len)
  std::size_t payload_end = 0;
};

// Splits `bytes` into whole records (groups up to their matching end tag),
// stopping at the first malformed one; `*consumed` gets the end of the last
// whole record.
std::vector<RawRecord> Split(std::span<const std::uint8_t> bytes,
                             std::size_t* consumed = nullptr);

// Reads the record at `begin` as a lenient decoder may, past what Split
// accepts: a tag of at most 10 bytes whatever field number it holds (0, or
// beyond 32 bits; `number` keeps the tag's bits 3 to 34), then a varint,
// i64, len or i32 payload. False if the bytes there are no such record
// (truncated, a group or end-group tag, wire type 6 or 7).
bool ReadLooseRecord(std::span<const std::uint8_t> bytes, std::size_t begin,
                     RawRecord& record);

// Reads a varint of at most 10 bytes at bytes[pos]; false if truncated or too
// long. `pos` moves past it on success.
bool ReadVarint(std::span<const std::uint8_t> bytes, std::size_t& pos,
                std::uint64_t& value);

// The length of `value`'s minimal varint encoding: 1 to 10 bytes.
int MinimalVarintLength(std::uint64_t value);

// Appends `value` as a varint of at least `min_bytes` bytes (padded with
// 0x80 continuation bytes, at most 10 bytes in all).
void PutVarint(std::uint64_t value, std::string& out, int min_bytes = 1);

// Appends a tag; `min_bytes` pads it (at most 5 bytes).
void PutTag(std::uint32_t number, int wire_type, std::string& out,
            int min_bytes = 1);

// Payloads one step simpler than `payload`, simplest first: empty, the tail
// after the last whole record cut, each top-level record removed, each half,
// each of the first 256 bytes removed. Fuzz targets' scenario-level shrinks.
std::vector<std::vector<std::uint8_t>> ShrinkPayload(
    std::span<const std::uint8_t> payload);

// Bytes as lower-case hex, space-separated, at most `limit` bytes shown.
std::string Hex(std::span<const std::uint8_t> bytes, std::size_t limit = 64);

// One line per record, indented, naming fields of `type` in `schema` (when
// non-null), expanding packed records and nested messages, ending at the
// first malformed record with its bytes.
std::string Describe(const model::Schema* schema, int type,
                     std::span<const std::uint8_t> bytes, int indent = 0);

}  // namespace fairwire::wire::records

#endif  // FAIRWIRE_SCENARIOS_WIRE_RECORDS_H_
