#include "int64_list.h"

namespace consumer {
namespace {

// One varint at `pos`, at most ten bytes; the tenth byte's high bits drop.
bool ReadVarint(std::span<const std::uint8_t> b, std::size_t& pos,
                std::uint64_t& out) {
  out = 0;
  for (int i = 0; i < 10; ++i) {
    if (pos >= b.size()) return false;
    const std::uint8_t byte = b[pos++];
    out |= std::uint64_t{byte & 0x7fu} << (7 * i);
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

// A tag: a varint of at most five bytes, kept modulo 2^32 (a fifth byte's
// high bits drop), with a field number of at least 1. The first fuzz smoke
// of this example found that rejecting tags of 2^32 or more was wrong:
// libprotobuf keeps their low 32 bits (regressions/tag_of_2_to_the_32_or_more).
bool ReadTag(std::span<const std::uint8_t> b, std::size_t& pos,
             std::uint64_t& tag) {
  tag = 0;
  for (int i = 0; i < 5; ++i) {
    if (pos >= b.size()) return false;
    const std::uint8_t byte = b[pos++];
    tag |= std::uint64_t{byte & 0x7fu} << (7 * i);
    if ((byte & 0x80) == 0) {
      tag &= 0xffffffffu;
      return (tag >> 3) != 0;
    }
  }
  return false;
}

// A length: a varint of at most five bytes, below 2^31. The wire kit's first
// corpus replay found that lengths of six bytes or more were accepted, which
// libprotobuf rejects (regressions/length_of_six_bytes).
bool ReadLength(std::span<const std::uint8_t> b, std::size_t& pos,
                std::uint64_t& len) {
  const std::size_t start = pos;
  return ReadVarint(b, pos, len) && pos - start <= 5 && len <= 0x7fffffffu &&
         len <= b.size() - pos;
}

// Skips a group's records up to its END_GROUP of `field`.
bool SkipRecord(std::span<const std::uint8_t> b, std::size_t& pos,
                std::uint64_t tag, int depth);

bool SkipGroup(std::span<const std::uint8_t> b, std::size_t& pos,
               std::uint64_t field, int depth) {
  if (depth > 100) return false;
  while (true) {
    std::uint64_t tag = 0;
    if (!ReadTag(b, pos, tag)) return false;
    if ((tag & 7) == 4) return (tag >> 3) == field;
    if (!SkipRecord(b, pos, tag, depth + 1)) return false;
  }
}

bool SkipRecord(std::span<const std::uint8_t> b, std::size_t& pos,
                std::uint64_t tag, int depth) {
  std::uint64_t v = 0;
  switch (tag & 7) {
    case 0:
      return ReadVarint(b, pos, v);
    case 1:
      if (b.size() - pos < 8) return false;
      pos += 8;
      return true;
    case 5:
      if (b.size() - pos < 4) return false;
      pos += 4;
      return true;
    case 2:
      if (!ReadLength(b, pos, v)) return false;
      pos += static_cast<std::size_t>(v);
      return true;
    case 3:
      return SkipGroup(b, pos, tag >> 3, depth);
    default:
      return false;
  }
}

}  // namespace

std::optional<Int64Lists> DecodeInt64Lists(std::span<const std::uint8_t> b) {
  Int64Lists out;
  std::size_t pos = 0;
  while (pos < b.size()) {
    std::uint64_t tag = 0;
    if (!ReadTag(b, pos, tag)) return std::nullopt;
    const std::uint64_t field = tag >> 3;
    std::vector<std::int64_t>* list = field == 22   ? &out.r_int64
                                      : field == 42 ? &out.p_int64
                                                    : nullptr;
    std::uint64_t v = 0;
    if (list != nullptr && (tag & 7) == 0) {
      if (!ReadVarint(b, pos, v)) return std::nullopt;
      list->push_back(static_cast<std::int64_t>(v));
    } else if (list != nullptr && (tag & 7) == 2) {
      std::uint64_t len = 0;
      if (!ReadLength(b, pos, len)) return std::nullopt;
      const std::span<const std::uint8_t> packed =
          b.subspan(pos, static_cast<std::size_t>(len));
      std::size_t p = 0;
      while (p < packed.size()) {
        if (!ReadVarint(packed, p, v)) return std::nullopt;
        list->push_back(static_cast<std::int64_t>(v));
      }
      pos += packed.size();
    } else if ((tag & 7) == 4 || !SkipRecord(b, pos, tag, 0)) {
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace consumer
