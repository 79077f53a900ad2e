// Compile-time facts about field kinds: the C++ element type each decodes to,
// its natural wire type, and how a varint or fixed value converts to it. Used
// by the decoder and by the typed bindings so that both share the rules.
#ifndef FAIRWIRE_WIRE_INTERNAL_KINDS_H_
#define FAIRWIRE_WIRE_INTERNAL_KINDS_H_

#include <bit>
#include <cstdint>
#include <string>

#include "fairwire/wire/schema.h"
#include "fairwire/wire/varint.h"

namespace fairwire::wire::internal {

// The natural wire type of a kind, usable in constant expressions.
constexpr WireType KindWireType(FieldKind kind) {
  switch (kind) {
    case FieldKind::kFixed32:
    case FieldKind::kSfixed32:
    case FieldKind::kFloat:
      return WireType::kI32;
    case FieldKind::kFixed64:
    case FieldKind::kSfixed64:
    case FieldKind::kDouble:
      return WireType::kI64;
    case FieldKind::kString:
    case FieldKind::kBytes:
    case FieldKind::kMessage:
      return WireType::kLen;
    default:
      return WireType::kVarint;
  }
}

// Per-kind element type and conversion from the raw wire value (the varint,
// or the little-endian fixed bits).
template <FieldKind K>
struct KindTraits;

#define FAIRWIRE_KIND_TRAITS(KIND, TYPE, EXPR)                        \
  template <>                                                         \
  struct KindTraits<FieldKind::KIND> {                                \
    using Type = TYPE;                                                \
    static constexpr WireType kWire = KindWireType(FieldKind::KIND);  \
    static constexpr Type Convert(std::uint64_t raw) { return EXPR; } \
  };

FAIRWIRE_KIND_TRAITS(kInt32, std::int32_t, static_cast<std::int32_t>(raw))
FAIRWIRE_KIND_TRAITS(kInt64, std::int64_t, static_cast<std::int64_t>(raw))
FAIRWIRE_KIND_TRAITS(kUint32, std::uint32_t, static_cast<std::uint32_t>(raw))
FAIRWIRE_KIND_TRAITS(kUint64, std::uint64_t, raw)
FAIRWIRE_KIND_TRAITS(kSint32, std::int32_t,
                     ZigZagDecode32(static_cast<std::uint32_t>(raw)))
FAIRWIRE_KIND_TRAITS(kSint64, std::int64_t, ZigZagDecode64(raw))
FAIRWIRE_KIND_TRAITS(kBool, std::uint8_t, raw != 0 ? 1 : 0)
FAIRWIRE_KIND_TRAITS(kEnum, std::int32_t, static_cast<std::int32_t>(raw))
FAIRWIRE_KIND_TRAITS(kFixed32, std::uint32_t, static_cast<std::uint32_t>(raw))
FAIRWIRE_KIND_TRAITS(kFixed64, std::uint64_t, raw)
FAIRWIRE_KIND_TRAITS(kSfixed32, std::int32_t, static_cast<std::int32_t>(raw))
FAIRWIRE_KIND_TRAITS(kSfixed64, std::int64_t, static_cast<std::int64_t>(raw))
FAIRWIRE_KIND_TRAITS(kFloat, float,
                     std::bit_cast<float>(static_cast<std::uint32_t>(raw)))
FAIRWIRE_KIND_TRAITS(kDouble, double, std::bit_cast<double>(raw))

#undef FAIRWIRE_KIND_TRAITS

// Byte width of a fixed kind's element (0 for varint kinds).
constexpr std::size_t FixedWidth(FieldKind kind) {
  switch (KindWireType(kind)) {
    case WireType::kI32:
      return 4;
    case WireType::kI64:
      return 8;
    default:
      return 0;
  }
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_KINDS_H_
