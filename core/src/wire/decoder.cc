// The schema-driven decoder: one loop over records, a switch over the field
// kind into templated per-kind parsers (no per-element indirect calls).
#include "fairwire/wire/decoder.h"

#include <cstring>

#include "fairwire/wire/internal/access.h"
#include "fairwire/wire/internal/enum_avx512.h"
#include "fairwire/wire/internal/packed_fixed.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/varint_run.h"

namespace fairwire::wire {
namespace {

using internal::KindTraits;
using internal::ParseContext;

const std::uint8_t* ParseMessage(ParseContext& ctx, const std::uint8_t* p,
                                 const std::uint8_t* end, Message& msg);

// Sets a singular value (last one wins) or appends a repeated one.
template <typename T>
[[gnu::always_inline]] inline void Store(std::vector<T>& values, bool repeated,
                                         T value) {
  if (repeated || values.empty()) {
    values.push_back(value);
  } else {
    values[0] = value;
  }
}

// The search for an enum value outside the bitmap's range (out of line).
[[gnu::noinline]] bool InEnumOutlier(const Message& msg, const FieldDef& field,
                                     std::int32_t value) {
  return msg.schema().EnumContains(field.enum_index, value);
}

// Membership of `value` in a closed enum whose bitmap the caller copied to
// locals (base, bits, span in bits, outliers): inline for values in the
// bitmap's range, the schema's search only for far outliers.
[[gnu::always_inline]] inline bool InEnum(std::int32_t base,
                                          const std::uint64_t* bits,
                                          std::uint64_t span, bool outliers,
                                          const Message& msg,
                                          const FieldDef& field,
                                          std::int32_t value) {
  const auto offset =
      static_cast<std::uint64_t>(std::int64_t{value} - std::int64_t{base});
  if (offset < span) return ((bits[offset >> 6] >> (offset & 63)) & 1u) != 0;
  return outliers && InEnumOutlier(msg, field, value);
}

// A packed closed-enum payload: values outside the enum go to the unknown
// fields in parse order, with all 64 bits (as libprotobuf does for packed).
const std::uint8_t* ParsePackedClosedEnum(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    const FieldDef& field, std::vector<std::int32_t>& out, Message& msg) {
  if (p == end) return p;
  if (end[-1] >= 0x80) return internal::FailPackedVarint(ctx, p, end);
  const Schema& schema = msg.schema();
  const internal::EnumBitmap& bitmap =
      internal::SchemaAccess::Bitmap(schema, field.enum_index);
  // Fast path: decode the whole record as int32 values, then check them all
  // against the enum in one pass; only a record holding an unknown value is
  // decoded again element by element (to keep each unknown's 64 bits).
  const std::size_t old_size = out.size();
  const std::uint8_t* const begin = p;
  p = internal::ParsePackedVarint<FieldKind::kEnum>(ctx, p, end, out);
  if (p == nullptr) return nullptr;
  const std::int32_t* const values = out.data() + old_size;
  const std::size_t count = out.size() - old_size;
  bool all_known = true;
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  if (internal::FitsEnumAvx512(bitmap) &&
      internal::BestVarintKernel() == internal::VarintKernel::kAvx512) {
    all_known = internal::AllInEnumAvx512(values, count, bitmap);
  } else
#endif
  {
    const std::uint64_t* const bits = bitmap.bits.data();
    const std::uint64_t span = bitmap.bits.size() * 64;
    for (std::size_t i = 0; i < count; ++i) {
      all_known &= InEnum(bitmap.base, bits, span, bitmap.outliers, msg, field,
                          values[i]);
    }
  }
  if (all_known) return p;
  out.resize(old_size);
  std::string& unknown = msg.mutable_unknown_fields();
  p = begin;
  while (p < end) {
    std::uint64_t raw = 0;  // the record was validated by the fast path
    const std::uint8_t* q = internal::ReadPackedElement(p, ctx.limit, &raw);
    const auto value = static_cast<std::int32_t>(raw);
    if (schema.EnumContains(field.enum_index, value)) {
      out.push_back(value);
    } else {
      internal::AppendVarintRecord(field.number, raw, &unknown);
    }
    p = q;
  }
  return p;
}

// A closed-enum value outside its enum, as DynamicMessage keeps it: the int32
// value sign-extended to 64 bits, in an unpacked record.
[[gnu::noinline]] void AppendUnknownEnum(const FieldDef& field,
                                         std::int32_t value, Message& msg) {
  internal::AppendVarintRecord(
      field.number,
      static_cast<std::uint64_t>(static_cast<std::int64_t>(value)),
      &msg.mutable_unknown_fields());
}

// A run of unpacked records of a repeated VARINT-kind field whose tag is the
// one byte `tag_byte`, p at the first value (internal::ParseVarintRun).
// Closed-enum values outside the enum go to the unknown fields.
template <FieldKind K>
[[gnu::noinline]] const std::uint8_t* ParseVarintRun(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::uint8_t tag_byte, const FieldDef& field,
    std::vector<typename KindTraits<K>::Type>& out, Message& msg) {
  if constexpr (K == FieldKind::kEnum) {
    const Schema& schema = msg.schema();
    if (schema.enums()[static_cast<std::size_t>(field.enum_index)].closed) {
      // The bitmap in locals (the stores into `out` could alias it).
      const internal::EnumBitmap& bitmap =
          internal::SchemaAccess::Bitmap(schema, field.enum_index);
      const std::int32_t base = bitmap.base;
      const std::uint64_t* const bits = bitmap.bits.data();
      const std::uint64_t span = bitmap.bits.size() * 64;
      const bool outliers = bitmap.outliers;
      const auto keep = [&](std::int32_t value) {
        if (InEnum(base, bits, span, outliers, msg, field, value)) return true;
        AppendUnknownEnum(field, value, msg);
        return false;
      };
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
      const internal::EnumRunCheckAvx512 check{&bitmap};
      return internal::ParseVarintRun<K>(
          ctx, p, end, tag_byte, out, keep,
          internal::FitsEnumAvx512(bitmap) ? &check : nullptr);
#else
      return internal::ParseVarintRun<K>(
          ctx, p, end, tag_byte, out, keep,
          static_cast<const internal::AcceptAllRunCheck*>(nullptr));
#endif
    }
  }
  static constexpr internal::AcceptAllRunCheck kAcceptAll{};
  return internal::ParseVarintRun<K>(
      ctx, p, end, tag_byte, out,
      [](typename KindTraits<K>::Type) { return true; }, &kAcceptAll);
}

// A field of packable kind K: its natural wire type, packed, or unknown.
template <FieldKind K>
[[gnu::flatten]] const std::uint8_t* ParseScalarField(
    ParseContext& ctx, const std::uint8_t* tag_start, const std::uint8_t* p,
    const std::uint8_t* end, const Tag& tag, const FieldDef& field,
    FieldValues& values, Message& msg) {
  using Traits = KindTraits<K>;
  using T = typename Traits::Type;
  auto& out = *std::get_if<std::vector<T>>(&values);
  constexpr auto kWire = static_cast<std::uint32_t>(Traits::kWire);
  if (tag.wire_type == kWire) {
    if constexpr (Traits::kWire == WireType::kVarint) {
      if (field.repeated && p - tag_start == 1) {
        return ParseVarintRun<K>(ctx, p, end, *tag_start, field, out, msg);
      }
    }
    // A run of records of this field with the same tag bytes is decoded
    // here, without going back through the record dispatch.
    const auto tag_length = static_cast<std::size_t>(p - tag_start);
    const std::uint8_t tag_byte = *tag_start;
    // A closed enum's bitmap, copied to locals (the stores into `out` could
    // otherwise alias it).
    [[maybe_unused]] bool closed = false;
    [[maybe_unused]] std::int32_t enum_base = 0;
    [[maybe_unused]] const std::uint64_t* enum_bits = nullptr;
    [[maybe_unused]] std::uint64_t enum_span = 0;
    [[maybe_unused]] bool enum_outliers = false;
    if constexpr (K == FieldKind::kEnum) {
      const Schema& schema = msg.schema();
      if (schema.enums()[static_cast<std::size_t>(field.enum_index)].closed) {
        const internal::EnumBitmap& bitmap =
            internal::SchemaAccess::Bitmap(schema, field.enum_index);
        closed = true;
        enum_base = bitmap.base;
        enum_bits = bitmap.bits.data();
        enum_span = bitmap.bits.size() * 64;
        enum_outliers = bitmap.outliers;
      }
    }
    const bool repeated = field.repeated;
    for (;;) {
      std::uint64_t raw;
      p = internal::ReadRaw<Traits::kWire>(ctx, p, end, &raw);
      if (p == nullptr) return nullptr;
      const T value = Traits::Convert(raw);
      bool known = true;
      if constexpr (K == FieldKind::kEnum) {
        if (closed && !InEnum(enum_base, enum_bits, enum_span, enum_outliers,
                              msg, field, value)) {
          // DynamicMessage keeps the int32 value, sign-extended to 64 bits.
          internal::AppendVarintRecord(
              field.number,
              static_cast<std::uint64_t>(static_cast<std::int64_t>(value)),
              &msg.mutable_unknown_fields());
          known = false;
        }
      }
      if (known) Store(out, repeated, value);
      if (static_cast<std::size_t>(end - p) <= tag_length || *p != tag_byte ||
          (tag_length > 1 &&
           std::memcmp(p + 1, tag_start + 1, tag_length - 1) != 0)) {
        return p;
      }
      tag_start = p;
      p += tag_length;
    }
  }
  if (tag.wire_type == static_cast<std::uint32_t>(WireType::kLen) &&
      field.repeated) {
    const std::uint8_t* payload_end;
    const std::uint8_t* length_at = p;
    p = internal::ReadLenRecord(ctx, p, end, &payload_end);
    if (p == nullptr) return nullptr;
    if constexpr (Traits::kWire == WireType::kVarint) {
      if constexpr (K == FieldKind::kEnum) {
        if (msg.schema()
                .enums()[static_cast<std::size_t>(field.enum_index)]
                .closed) {
          return ParsePackedClosedEnum(ctx, p, payload_end, field, out, msg);
        }
      }
      return internal::ParsePackedVarint<K>(ctx, p, payload_end, out);
    } else {
      return internal::ParsePackedFixed<K>(ctx, length_at, p, payload_end, out);
    }
  }
  return internal::SkipField(ctx, tag_start, p, end, tag,
                             &msg.mutable_unknown_fields());
}

// Sets a singular string field (last one wins), reusing the buffer Clear()
// kept aside: no allocation per Decode. Out of line, so that the repeated
// path in ParseLenField stays small enough to inline.
[[gnu::noinline]] void SetSingularString(const FieldDef& field,
                                         std::string_view text,
                                         std::vector<std::string>& out,
                                         Message& msg) {
  if (out.empty()) {
    out.push_back(internal::MessageAccess::TakeSpareString(
        msg, static_cast<std::size_t>(&field - msg.def().fields.data())));
  }
  out[0].assign(text);
}

// A string, bytes or message field: LEN, or unknown.
const std::uint8_t* ParseLenField(ParseContext& ctx,
                                  const std::uint8_t* tag_start,
                                  const std::uint8_t* p,
                                  const std::uint8_t* end, const Tag& tag,
                                  const FieldDef& field, FieldValues& values,
                                  Message& msg) {
  if (tag.wire_type != static_cast<std::uint32_t>(WireType::kLen)) {
    return internal::SkipField(ctx, tag_start, p, end, tag,
                               &msg.mutable_unknown_fields());
  }
  const std::uint8_t* payload_end;
  const std::uint8_t* const length_at = p;
  p = internal::ReadLenRecord(ctx, p, end, &payload_end);
  if (p == nullptr) return nullptr;
  if (field.kind == FieldKind::kMessage) {
    auto& out = *std::get_if<std::vector<Message>>(&values);
    if (--ctx.depth < 0) {
      return ctx.Fail(DecodeError::kDepthExceeded, tag_start);
    }
    if (field.repeated || out.empty()) {
      out.emplace_back(msg.schema(), field.message_index);
    }
    p = ParseMessage(ctx, p, payload_end, out.back());
    ++ctx.depth;
    return p;
  }
  auto& out = *std::get_if<std::vector<std::string>>(&values);
  // A run of records of this field with the same tag bytes stays here
  // (no record dispatch or field lookup per string).
  const auto tag_length = static_cast<std::size_t>(length_at - tag_start);
  for (;;) {
    const auto size = static_cast<std::size_t>(payload_end - p);
    if (field.validate_utf8 && !internal::IsValidUtf8(p, size)) {
      return ctx.Fail(DecodeError::kInvalidUtf8, p);
    }
    const std::string_view text(reinterpret_cast<const char*>(p), size);
    if (!field.repeated) {
      SetSingularString(field, text, out, msg);
      return payload_end;
    }
    out.emplace_back(text);
    p = payload_end;
    if (!internal::NextRecordHasTag(p, end, tag_start, tag_length)) return p;
    tag_start = p;
    p = internal::ReadLenRecord(ctx, p + tag_length, end, &payload_end);
    if (p == nullptr) return nullptr;
  }
}

const std::uint8_t* ParseKnownField(ParseContext& ctx,
                                    const std::uint8_t* tag_start,
                                    const std::uint8_t* p,
                                    const std::uint8_t* end, const Tag& tag,
                                    const FieldDef& field, FieldValues& values,
                                    Message& msg) {
#define FAIRWIRE_SCALAR_CASE(KIND)                                        \
  case FieldKind::KIND:                                                   \
    return ParseScalarField<FieldKind::KIND>(ctx, tag_start, p, end, tag, \
                                             field, values, msg);
  switch (field.kind) {
    FAIRWIRE_SCALAR_CASE(kInt32)
    FAIRWIRE_SCALAR_CASE(kInt64)
    FAIRWIRE_SCALAR_CASE(kUint32)
    FAIRWIRE_SCALAR_CASE(kUint64)
    FAIRWIRE_SCALAR_CASE(kSint32)
    FAIRWIRE_SCALAR_CASE(kSint64)
    FAIRWIRE_SCALAR_CASE(kBool)
    FAIRWIRE_SCALAR_CASE(kEnum)
    FAIRWIRE_SCALAR_CASE(kFixed32)
    FAIRWIRE_SCALAR_CASE(kFixed64)
    FAIRWIRE_SCALAR_CASE(kSfixed32)
    FAIRWIRE_SCALAR_CASE(kSfixed64)
    FAIRWIRE_SCALAR_CASE(kFloat)
    FAIRWIRE_SCALAR_CASE(kDouble)
    case FieldKind::kString:
    case FieldKind::kBytes:
    case FieldKind::kMessage:
      return ParseLenField(ctx, tag_start, p, end, tag, field, values, msg);
  }
#undef FAIRWIRE_SCALAR_CASE
  return internal::SkipField(ctx, tag_start, p, end, tag,
                             &msg.mutable_unknown_fields());
}

const std::uint8_t* ParseMessage(ParseContext& ctx, const std::uint8_t* p,
                                 const std::uint8_t* end, Message& msg) {
  const Schema& schema = msg.schema();
  const std::int32_t message_index = msg.message_index();
  const FieldDef* const first_field = msg.def().fields.data();
  while (p < end) {
    const std::uint8_t* tag_start = p;
    Tag tag;
    p = internal::ReadFieldTag(ctx, p, end, &tag);
    if (p == nullptr) return nullptr;
    const FieldDef* field = schema.FindField(message_index, tag.field_number);
    if (field == nullptr) {
      p = internal::SkipField(ctx, tag_start, p, end, tag,
                              &msg.mutable_unknown_fields());
    } else {
      p = ParseKnownField(
          ctx, tag_start, p, end, tag, *field,
          msg.mutable_values(static_cast<std::size_t>(field - first_field)),
          msg);
    }
    if (p == nullptr) return nullptr;
  }
  return p;
}

}  // namespace

DecodeStatus Merge(std::span<const std::uint8_t> input, Message& out) {
  const std::uint8_t* begin = input.data();
  const std::uint8_t* end = begin + input.size();
  ParseContext ctx{begin, end, kMaxDepth, {}};
  ParseMessage(ctx, begin, end, out);
  return ctx.status;
}

DecodeStatus Decode(std::span<const std::uint8_t> input, Message& out) {
  out.Clear();
  return Merge(input, out);
}

}  // namespace fairwire::wire
