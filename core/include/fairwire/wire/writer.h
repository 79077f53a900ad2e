// Writer: builds wire-format bytes, canonically or in any of the valid
// variants a parser must accept: repeated fields packed, unpacked, as several
// packed chunks, interleaved with other fields, and with overlong (padded but
// valid) tags, lengths and varints. The metamorphic tests write one message
// every way and check that all decode to the same value.
//
//   Writer w;
//   std::vector<std::int64_t> ids = {1, -2, 300};
//   w.WritePacked(1, FieldKind::kInt64, std::span(ids));
//   w.WriteString(2, "x");
//   std::string bytes = std::move(w).Take();
#ifndef FAIRWIRE_WIRE_WRITER_H_
#define FAIRWIRE_WIRE_WRITER_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "fairwire/wire/schema.h"
#include "fairwire/wire/varint.h"

namespace fairwire::wire {

// How many bytes the writer spends on each varint. 0 means the shortest
// encoding; a larger width pads with continuation bytes (still valid). Widths
// are clamped to what libprotobuf accepts: tags and lengths at most 5 bytes,
// values at most 10, and never shorter than the shortest encoding.
struct Padding {
  int tag_bytes = 0;
  int length_bytes = 0;
  int value_bytes = 0;
};

// The wire representation of one value of a field kind: `bits` holds the
// varint value (sign-extended for int32 and enum, zigzagged for sint), or the
// little-endian bits of a fixed-width value.
struct WireScalar {
  std::uint64_t bits = 0;
};

// Converts a C++ value to its wire representation for `kind` (a packable
// kind). `value` is converted to the kind's C++ type first (message.h lists
// them), so int64 into kInt32 truncates as a static_cast does.
template <typename T>
constexpr WireScalar ToWireScalar(FieldKind kind, T value) {
  switch (kind) {
    case FieldKind::kInt32:
    case FieldKind::kEnum:
    case FieldKind::kSfixed32:
      return {static_cast<std::uint64_t>(
          static_cast<std::int64_t>(static_cast<std::int32_t>(value)))};
    case FieldKind::kInt64:
    case FieldKind::kSfixed64:
      return {static_cast<std::uint64_t>(static_cast<std::int64_t>(value))};
    case FieldKind::kUint32:
    case FieldKind::kFixed32:
      return {static_cast<std::uint32_t>(value)};
    case FieldKind::kUint64:
    case FieldKind::kFixed64:
      return {static_cast<std::uint64_t>(value)};
    case FieldKind::kSint32:
      return {ZigZagEncode32(static_cast<std::int32_t>(value))};
    case FieldKind::kSint64:
      return {ZigZagEncode64(static_cast<std::int64_t>(value))};
    case FieldKind::kBool:
      return {value != T{} ? 1u : 0u};
    case FieldKind::kFloat:
      return {std::bit_cast<std::uint32_t>(static_cast<float>(value))};
    case FieldKind::kDouble:
      return {std::bit_cast<std::uint64_t>(static_cast<double>(value))};
    default:
      return {};
  }
}

class Writer {
 public:
  // A writer using the shortest encodings.
  Writer() = default;
  // A writer padding varints as `padding` says.
  explicit Writer(Padding padding) : padding_(padding) {}

  // The bytes written so far (valid until the next write).
  std::string_view data() const { return {data_.data(), size_}; }
  std::size_t size() const { return size_; }
  // Moves the bytes out.
  std::string Take() && {
    data_.resize(size_);
    return std::move(data_);
  }

  void set_padding(Padding padding) { padding_ = padding; }
  const Padding& padding() const { return padding_; }

  // --- Raw pieces ------------------------------------------------------
  // A varint in exactly max(width, shortest) bytes (width clamped to 10).
  void Varint(std::uint64_t value, int width = 0);
  // A tag (field number below 2^29, any wire type 0..7), padded as
  // padding().tag_bytes says.
  void Tag(std::uint32_t field_number, WireType wire_type);
  // A tag with an explicit raw wire type, for invalid inputs (6, 7).
  void RawTag(std::uint32_t field_number, std::uint32_t wire_type,
              int width = 0);
  // A length varint, padded as padding().length_bytes says.
  void Length(std::size_t length);
  void Fixed32(std::uint32_t value);
  void Fixed64(std::uint64_t value);
  // Appends bytes verbatim (the writer's own too).
  void Raw(std::string_view bytes);
  // Writes, before the bytes written since size() was `from` (at most
  // size()), their length
  // as a length varint (padded as padding().length_bytes says), moving them
  // up to make room: a LEN record's payload written in place, after its
  // tag, without a second writer.
  void InsertLength(std::size_t from);

  // --- One record ------------------------------------------------------
  // One unpacked record of a packable kind: tag with the kind's natural wire
  // type, then the value (value varints padded as padding().value_bytes).
  void WriteScalar(std::uint32_t field_number, FieldKind kind,
                   WireScalar value);
  template <typename T>
  void Write(std::uint32_t field_number, FieldKind kind, T value) {
    WriteScalar(field_number, kind, ToWireScalar(kind, value));
  }
  void WriteInt32(std::uint32_t f, std::int32_t v) {
    Write(f, FieldKind::kInt32, v);
  }
  void WriteInt64(std::uint32_t f, std::int64_t v) {
    Write(f, FieldKind::kInt64, v);
  }
  void WriteUint32(std::uint32_t f, std::uint32_t v) {
    Write(f, FieldKind::kUint32, v);
  }
  void WriteUint64(std::uint32_t f, std::uint64_t v) {
    Write(f, FieldKind::kUint64, v);
  }
  void WriteSint32(std::uint32_t f, std::int32_t v) {
    Write(f, FieldKind::kSint32, v);
  }
  void WriteSint64(std::uint32_t f, std::int64_t v) {
    Write(f, FieldKind::kSint64, v);
  }
  void WriteBool(std::uint32_t f, bool v) { Write(f, FieldKind::kBool, v); }
  void WriteEnum(std::uint32_t f, std::int32_t v) {
    Write(f, FieldKind::kEnum, v);
  }
  void WriteFixed32(std::uint32_t f, std::uint32_t v) {
    Write(f, FieldKind::kFixed32, v);
  }
  void WriteFixed64(std::uint32_t f, std::uint64_t v) {
    Write(f, FieldKind::kFixed64, v);
  }
  void WriteSfixed32(std::uint32_t f, std::int32_t v) {
    Write(f, FieldKind::kSfixed32, v);
  }
  void WriteSfixed64(std::uint32_t f, std::int64_t v) {
    Write(f, FieldKind::kSfixed64, v);
  }
  void WriteFloat(std::uint32_t f, float v) { Write(f, FieldKind::kFloat, v); }
  void WriteDouble(std::uint32_t f, double v) {
    Write(f, FieldKind::kDouble, v);
  }
  // A LEN record: string, bytes, an encoded nested message, or any payload.
  void WriteLen(std::uint32_t field_number, std::string_view payload);
  void WriteString(std::uint32_t f, std::string_view v) { WriteLen(f, v); }
  void WriteBytes(std::uint32_t f, std::string_view v) { WriteLen(f, v); }
  void WriteMessage(std::uint32_t f, std::string_view encoded) {
    WriteLen(f, encoded);
  }
  // Group delimiters (groups are only ever unknown fields to the decoder).
  void StartGroup(std::uint32_t f) { Tag(f, WireType::kStartGroup); }
  void EndGroup(std::uint32_t f) { Tag(f, WireType::kEndGroup); }

  // --- Repeated fields -------------------------------------------------
  // One packed record holding `values` (an empty record when empty).
  template <typename T>
  void WritePacked(std::uint32_t field_number, FieldKind kind,
                   std::span<const T> values);
  template <typename T>
  void WritePacked(std::uint32_t field_number, FieldKind kind,
                   const std::vector<T>& values) {
    WritePacked(field_number, kind, std::span<const T>(values));
  }
  // One unpacked record per value.
  template <typename T>
  void WriteUnpacked(std::uint32_t field_number, FieldKind kind,
                     std::span<const T> values) {
    for (const T& v : values) Write(field_number, kind, v);
  }
  template <typename T>
  void WriteUnpacked(std::uint32_t field_number, FieldKind kind,
                     const std::vector<T>& values) {
    WriteUnpacked(field_number, kind, std::span<const T>(values));
  }
  // Several packed records: chunk i holds the next chunk_sizes[i] values
  // (clamped to what is left); values left after the last chunk go in one
  // more record. A zero size writes an empty packed record.
  template <typename T>
  void WritePackedChunks(std::uint32_t field_number, FieldKind kind,
                         std::span<const T> values,
                         std::span<const std::size_t> chunk_sizes);

 private:
  // The payload bytes of one packed element.
  void PackedElement(FieldKind kind, WireScalar value);
  std::size_t PackedElementSize(FieldKind kind, WireScalar value) const;
  // Room for `n` more bytes at the end, counted as written: the caller
  // stores them through the pointer (one capacity check per varint, not one
  // call per byte).
  char* Extend(std::size_t n);

  // [0, size_) is written; the rest of data_ is room for what comes next.
  std::string data_;
  std::size_t size_ = 0;
  Padding padding_;
};

template <typename T>
void Writer::WritePacked(std::uint32_t field_number, FieldKind kind,
                         std::span<const T> values) {
  std::size_t payload = 0;
  for (const T& v : values) {
    payload += PackedElementSize(kind, ToWireScalar(kind, v));
  }
  Tag(field_number, WireType::kLen);
  Length(payload);
  for (const T& v : values) PackedElement(kind, ToWireScalar(kind, v));
}

template <typename T>
void Writer::WritePackedChunks(std::uint32_t field_number, FieldKind kind,
                               std::span<const T> values,
                               std::span<const std::size_t> chunk_sizes) {
  for (std::size_t size : chunk_sizes) {
    const std::size_t n = size < values.size() ? size : values.size();
    WritePacked(field_number, kind, values.first(n));
    values = values.subspan(n);
  }
  if (!values.empty()) WritePacked(field_number, kind, values);
}

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_WRITER_H_
