// Out-of-line parsing primitives: unknown-field skipping (with groups), the
// packed-varint error path, canonical varint records, UTF-8 validation.
#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire::internal {
namespace {

// Parses group contents after the start tag at group_tag_start up to and
// including the matching end-group tag.
const std::uint8_t* SkipGroup(ParseContext& ctx,
                              const std::uint8_t* group_tag_start,
                              const std::uint8_t* p, const std::uint8_t* end,
                              std::uint32_t field_number) {
  if (--ctx.depth < 0) {
    return ctx.Fail(DecodeError::kDepthExceeded, group_tag_start);
  }
  while (p < end) {
    const std::uint8_t* tag_start = p;
    Tag tag;
    p = ReadRecordTag(ctx, p, end, &tag);
    if (p == nullptr) return nullptr;
    if (tag.wire_type == static_cast<std::uint32_t>(WireType::kEndGroup)) {
      if (tag.field_number != field_number) {
        return ctx.Fail(DecodeError::kMismatchedEndGroup, tag_start);
      }
      ++ctx.depth;
      return p;
    }
    p = SkipField(ctx, tag_start, p, end, tag, nullptr);
    if (p == nullptr) return nullptr;
  }
  return ctx.Fail(DecodeError::kUnterminatedGroup, group_tag_start);
}

}  // namespace

const std::uint8_t* SkipField(ParseContext& ctx, const std::uint8_t* tag_start,
                              const std::uint8_t* p, const std::uint8_t* end,
                              const Tag& tag, std::string* unknown) {
  std::uint64_t raw;
  switch (static_cast<WireType>(tag.wire_type)) {
    case WireType::kVarint:
      p = ReadRaw<WireType::kVarint>(ctx, p, end, &raw);
      break;
    case WireType::kI64:
      p = ReadRaw<WireType::kI64>(ctx, p, end, &raw);
      break;
    case WireType::kI32:
      p = ReadRaw<WireType::kI32>(ctx, p, end, &raw);
      break;
    case WireType::kLen: {
      const std::uint8_t* payload_end;
      p = ReadLenRecord(ctx, p, end, &payload_end);
      if (p != nullptr) p = payload_end;
      break;
    }
    case WireType::kStartGroup:
      p = SkipGroup(ctx, tag_start, p, end, tag.field_number);
      break;
    default:  // end-group and 6, 7 are the caller's business
      return ctx.Fail(DecodeError::kInvalidWireType, tag_start);
  }
  if (p != nullptr && unknown != nullptr) {
    unknown->append(reinterpret_cast<const char*>(tag_start),
                    static_cast<std::size_t>(p - tag_start));
  }
  return p;
}

void AppendVarintRecord(std::uint32_t field_number, std::uint64_t value,
                        std::string* unknown) {
  std::uint64_t tag = std::uint64_t{field_number} << 3;
  while (tag >= 0x80) {
    unknown->push_back(static_cast<char>((tag & 0x7Fu) | 0x80u));
    tag >>= 7;
  }
  unknown->push_back(static_cast<char>(tag));
  while (value >= 0x80) {
    unknown->push_back(static_cast<char>((value & 0x7Fu) | 0x80u));
    value >>= 7;
  }
  unknown->push_back(static_cast<char>(value));
}

const std::uint8_t* FailPackedVarint(ParseContext& ctx, const std::uint8_t* p,
                                     const std::uint8_t* end) {
  while (p < end) {
    std::uint64_t value;
    DecodeError error;
    const std::uint8_t* q = ReadVarint(p, end, &value, &error);
    if (q == nullptr) {
      return ctx.Fail(error == DecodeError::kTruncated
                          ? DecodeError::kPackedElementPastRecord
                          : error,
                      p);
    }
    p = q;
  }
  return p;  // not reached for records that failed the fast checks
}

bool IsValidUtf8(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t* p = data;
  const std::uint8_t* const end = data + size;
  while (p < end) {
    // ASCII fast path, eight bytes at a time.
    while (end - p >= 8 && (LoadFixed64(p) & 0x8080808080808080ull) == 0) {
      p += 8;
    }
    if (p == end) break;
    const std::uint8_t b = *p;
    if (b < 0x80) {
      ++p;
      continue;
    }
    std::size_t n;
    std::uint8_t lo = 0x80;
    std::uint8_t hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      n = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 2;
      if (b == 0xE0) lo = 0xA0;  // no overlongs
      if (b == 0xED) hi = 0x9F;  // no surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 3;
      if (b == 0xF0) lo = 0x90;  // no overlongs
      if (b == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
      return false;
    }
    if (static_cast<std::size_t>(end - p) <= n) return false;
    if (p[1] < lo || p[1] > hi) return false;
    for (std::size_t i = 2; i <= n; ++i) {
      if (p[i] < 0x80 || p[i] > 0xBF) return false;
    }
    p += n + 1;
  }
  return true;
}

}  // namespace fairwire::wire::internal
