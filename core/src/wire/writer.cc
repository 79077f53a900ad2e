#include "fairwire/wire/writer.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace fairwire::wire {
namespace {

bool IsFixed32Kind(FieldKind kind) {
  return NaturalWireType(kind) == WireType::kI32;
}
bool IsFixed64Kind(FieldKind kind) {
  return NaturalWireType(kind) == WireType::kI64;
}

// The width to write `value` in: the shortest encoding, or `width` if that
// is longer, never more than `max_width`.
int VarintWidth(std::uint64_t value, int width, int max_width) {
  return std::max(VarintSize(value), std::min(width, max_width));
}

// Writes `value` as a varint of exactly `n` bytes at `out`.
void PutVarint(char* out, std::uint64_t value, int n) {
  for (int i = 0; i < n - 1; ++i) {
    out[i] = static_cast<char>((value & 0x7Fu) | 0x80u);
    value >>= 7;
  }
  out[n - 1] = static_cast<char>(value & 0x7Fu);
}

// Writes the low `n` bytes of `value`, least significant first.
void PutLittleEndian(char* out, std::uint64_t value, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = static_cast<char>(value & 0xFFu);
    value >>= 8;
  }
}

}  // namespace

char* Writer::Extend(std::size_t n) {
  if (data_.size() - size_ < n) {
    data_.resize(std::max(2 * data_.size(), size_ + n + 64));
  }
  char* out = data_.data() + size_;
  size_ += n;
  return out;
}

void Writer::Varint(std::uint64_t value, int width) {
  const int n = VarintWidth(value, width, kMaxVarintBytes);
  PutVarint(Extend(static_cast<std::size_t>(n)), value, n);
}

void Writer::Raw(std::string_view bytes) {
  if (bytes.empty()) return;
  // The writer's own bytes (w.Raw(w.data())) move when Extend grows them.
  const std::less<const char*> before;
  const char* base = data_.data();
  const bool own =
      !before(bytes.data(), base) && before(bytes.data(), base + data_.size());
  const std::size_t offset =
      own ? static_cast<std::size_t>(bytes.data() - base) : 0;
  char* out = Extend(bytes.size());
  std::memcpy(out, own ? data_.data() + offset : bytes.data(), bytes.size());
}

void Writer::InsertLength(std::size_t from) {
  const std::size_t length = size_ - from;
  const int n =
      VarintWidth(length, std::min(padding_.length_bytes, kMaxLengthBytes),
                  kMaxVarintBytes);
  Extend(static_cast<std::size_t>(n));
  char* at = data_.data() + from;
  std::memmove(at + n, at, length);
  PutVarint(at, length, n);
}

void Writer::Tag(std::uint32_t field_number, WireType wire_type) {
  RawTag(field_number, static_cast<std::uint32_t>(wire_type),
         padding_.tag_bytes);
}

void Writer::RawTag(std::uint32_t field_number, std::uint32_t wire_type,
                    int width) {
  Varint((std::uint64_t{field_number} << 3) | (wire_type & 7u),
         std::min(width, kMaxTagBytes));
}

void Writer::Length(std::size_t length) {
  Varint(length, std::min(padding_.length_bytes, kMaxLengthBytes));
}

void Writer::Fixed32(std::uint32_t value) {
  PutLittleEndian(Extend(4), value, 4);
}

void Writer::Fixed64(std::uint64_t value) {
  PutLittleEndian(Extend(8), value, 8);
}

void Writer::WriteScalar(std::uint32_t field_number, FieldKind kind,
                         WireScalar value) {
  Tag(field_number, NaturalWireType(kind));
  PackedElement(kind, value);
}

void Writer::WriteLen(std::uint32_t field_number, std::string_view payload) {
  Tag(field_number, WireType::kLen);
  Length(payload.size());
  Raw(payload);
}

void Writer::PackedElement(FieldKind kind, WireScalar value) {
  if (IsFixed32Kind(kind)) {
    Fixed32(static_cast<std::uint32_t>(value.bits));
  } else if (IsFixed64Kind(kind)) {
    Fixed64(value.bits);
  } else {
    Varint(value.bits, padding_.value_bytes);
  }
}

std::size_t Writer::PackedElementSize(FieldKind kind, WireScalar value) const {
  if (IsFixed32Kind(kind)) return 4;
  if (IsFixed64Kind(kind)) return 8;
  return static_cast<std::size_t>(
      VarintWidth(value.bits, padding_.value_bytes, kMaxVarintBytes));
}

}  // namespace fairwire::wire
