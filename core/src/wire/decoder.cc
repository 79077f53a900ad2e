// The schema-driven decoder: one loop over records, a switch over the field
// kind into the shared per-field record loops (internal/field_records.h),
// with the Message's storage as their sink (no per-element indirect calls).
#include "fairwire/wire/decoder.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/wire/internal/access.h"
#include "fairwire/wire/internal/enum_avx512.h"
#include "fairwire/wire/internal/enum_bitmap_avx2.h"
#include "fairwire/wire/internal/enum_bitmap_portable.h"
#include "fairwire/wire/internal/field_records.h"
#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire {
namespace {

using internal::KindTraits;
using internal::ParseContext;

const std::uint8_t* ParseMessage(ParseContext& ctx, const std::uint8_t* p,
                                 const std::uint8_t* end, Message& msg);

// The search for an enum value outside the bitmap's range (out of line).
[[gnu::noinline]] bool InEnumOutlier(const Message& msg, const FieldDef& field,
                                     std::int32_t value) {
  return msg.schema().EnumContains(field.enum_index, value);
}

// The record (field, raw) of a closed-enum value outside its enum, kept with
// the unknown fields (out of line: the loops stay small).
[[gnu::noinline]] void AppendUnknownEnum(const FieldDef& field,
                                         std::uint64_t raw, Message& msg) {
  internal::AppendVarintRecord(field.number, raw,
                               &msg.mutable_unknown_fields());
}

// The enum check of a kEnum field (internal/field_records.h): closed enums
// against the schema's bitmap, copied to members of this local object (the
// stores into the output could otherwise alias it), outliers by the
// schema's search.
class SchemaEnumCheck {
 public:
  static constexpr bool kMayReject = true;

  SchemaEnumCheck(const Message& msg, const FieldDef& field)
      : msg_(&msg), field_(&field) {
    const Schema& schema = msg.schema();
    closed_ = schema.enums()[static_cast<std::size_t>(field.enum_index)].closed;
    if (closed_) {
      bitmap_ = &internal::SchemaAccess::Bitmap(schema, field.enum_index);
      base_ = bitmap_->base;
      bits_ = bitmap_->bits.data();
      span_ = bitmap_->bits.size() * 64;
      outliers_ = bitmap_->outliers;
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
      run_check_.bitmap = bitmap_;
#endif
    }
  }

  bool Closed() const { return closed_; }

  // Inline for values in the bitmap's range, the schema's search only for
  // far outliers.
  [[gnu::always_inline]] bool Contains(std::int32_t value) const {
    const auto offset =
        static_cast<std::uint64_t>(std::int64_t{value} - std::int64_t{base_});
    if (offset < span_) {
      return ((bits_[offset >> 6] >> (offset & 63)) & 1u) != 0;
    }
    return outliers_ && InEnumOutlier(*msg_, *field_, value);
  }

  // The bitmap's answer alone (false for far outliers).
  [[gnu::always_inline]] bool ContainsInline(std::int32_t value) const {
    const auto offset =
        static_cast<std::uint64_t>(std::int64_t{value} - std::int64_t{base_});
    return offset < span_ && ((bits_[offset >> 6] >> (offset & 63)) & 1u) != 0;
  }

  // The bitmap and the far values (members all, exactly Contains).
  internal::EnumBitmapView InlineBitmap() const {
    return bitmap_ != nullptr ? internal::ViewOf(*bitmap_)
                              : internal::EnumBitmapView{};
  }

  bool AllKnown(const std::int32_t* values, std::size_t count) const {
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
    if (internal::FitsEnumAvx512(*bitmap_) &&
        ActiveKernelLevel() == KernelLevel::kAvx512) {
      return internal::AllInEnumAvx512(values, count, *bitmap_);
    }
#endif
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
    if (ActiveKernelLevel() != KernelLevel::kPortable) {
      return internal::AllKnownAvx2(
          InlineBitmap(), values, count,
          [this](std::int32_t value) { return Contains(value); });
    }
#endif
    return internal::AllKnownPortable(
        InlineBitmap(), values, count,
        [this](std::int32_t value) { return Contains(value); });
  }

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  const internal::EnumRunCheckAvx512* RunCheck() const {
    return internal::FitsEnumAvx512(*bitmap_) ? &run_check_ : nullptr;
  }
#else
  const internal::AcceptAllRunCheck* RunCheck() const { return nullptr; }
#endif

 private:
  const Message* msg_;
  const FieldDef* field_;
  bool closed_ = false;
  const internal::EnumBitmap* bitmap_ = nullptr;
  std::int32_t base_ = 0;
  const std::uint64_t* bits_ = nullptr;
  std::uint64_t span_ = 0;
  bool outliers_ = false;
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  internal::EnumRunCheckAvx512 run_check_{nullptr};
#endif
};

// The scalar sink (internal/field_records.h) of a field of kind K: its
// values in the Message's std::vector<T>, a singular field's as its one
// element (last one wins).
template <FieldKind K>
class MessageScalarSink {
 public:
  using T = typename KindTraits<K>::Type;
  static constexpr bool kRepeatable = true;
  static constexpr bool kVector = true;
  // ParseScalarField is flattened: the run's code stays out of it.
  static constexpr bool kRunOutOfLine = true;

  MessageScalarSink(const FieldDef& field, std::vector<T>& out, Message& msg)
      : field_(field), out_(out), msg_(msg), repeated_(field.repeated) {}

  bool repeated() const { return repeated_; }
  std::vector<T>& vector() const { return out_; }
  [[gnu::always_inline]] void Store(T value) const {
    if (repeated_ || out_.empty()) {
      out_.push_back(value);
    } else {
      out_[0] = value;
    }
  }
  void Reserve(std::size_t n) const { internal::ReserveMore(out_, n); }
  void Append(T value) const { out_.push_back(value); }
  void AddUnknown(std::uint64_t raw) const {
    AppendUnknownEnum(field_, raw, msg_);
  }
  std::string* unknown() const { return &msg_.mutable_unknown_fields(); }
  auto EnumCheck() const {
    if constexpr (K == FieldKind::kEnum) {
      return SchemaEnumCheck(msg_, field_);
    } else {
      return internal::KeepEveryValue{};
    }
  }

 private:
  const FieldDef& field_;
  std::vector<T>& out_;
  Message& msg_;
  bool repeated_;
};

// A field of packable kind K: its natural wire type, packed, or unknown.
template <FieldKind K>
[[gnu::flatten]] const std::uint8_t* ParseScalarField(
    ParseContext& ctx, const std::uint8_t* tag_start, const std::uint8_t* p,
    const std::uint8_t* end, const Tag& tag, const FieldDef& field,
    FieldValues& values, Message& msg) {
  using T = typename KindTraits<K>::Type;
  const MessageScalarSink<K> sink(field, *std::get_if<std::vector<T>>(&values),
                                  msg);
  return internal::ParseScalarRecords<K>(ctx, tag_start, p, end, tag, sink);
}

// Sets a singular string field (last one wins), reusing the buffer Clear()
// kept aside: no allocation per Decode. Out of line, so that the repeated
// path in the record loop stays small enough to inline.
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

// The text sink (internal/field_records.h) of a string or bytes field. The
// flags are read from the field per record (cheaper than two more live
// registers in the string loop).
class MessageTextSink {
 public:
  MessageTextSink(const FieldDef& field, std::vector<std::string>& out,
                  Message& msg)
      : field_(field), out_(out), msg_(msg) {}

  bool validate_utf8() const { return field_.validate_utf8; }
  bool repeated() const { return field_.repeated; }
  void Set(std::string_view text) const {
    SetSingularString(field_, text, out_, msg_);
  }
  void Append(std::string_view text) const { out_.emplace_back(text); }
  void AppendShort(const std::uint8_t* data, std::size_t size) const {
    internal::AppendShortText(out_, reinterpret_cast<const char*>(data), size);
  }
  std::string* unknown() const { return &msg_.mutable_unknown_fields(); }

 private:
  const FieldDef& field_;
  std::vector<std::string>& out_;
  Message& msg_;
};

// A string, bytes or message field: LEN, or unknown.
const std::uint8_t* ParseLenField(ParseContext& ctx,
                                  const std::uint8_t* tag_start,
                                  const std::uint8_t* p,
                                  const std::uint8_t* end, const Tag& tag,
                                  const FieldDef& field, FieldValues& values,
                                  Message& msg) {
  if (field.kind == FieldKind::kMessage) {
    auto& out = *std::get_if<std::vector<Message>>(&values);
    return internal::ParseMessageRecord(
        ctx, tag_start, p, end, tag, &msg.mutable_unknown_fields(),
        [&](const std::uint8_t* payload, const std::uint8_t* payload_end) {
          if (field.repeated || out.empty()) {
            out.emplace_back(msg.schema(), field.message_index);
          }
          return ParseMessage(ctx, payload, payload_end, out.back());
        });
  }
  const MessageTextSink sink(
      field, *std::get_if<std::vector<std::string>>(&values), msg);
  return internal::ParseTextRecords(ctx, tag_start, p, end, tag, sink);
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
  return internal::ParseFields(
      ctx, p, end,
      [&](const std::uint8_t* tag_start, const std::uint8_t* q,
          const Tag& tag) {
        const FieldDef* field =
            schema.FindField(message_index, tag.field_number);
        if (field == nullptr) {
          return internal::SkipField(ctx, tag_start, q, end, tag,
                                     &msg.mutable_unknown_fields());
        }
        return ParseKnownField(
            ctx, tag_start, q, end, tag, *field,
            msg.mutable_values(static_cast<std::size_t>(field - first_field)),
            msg);
      });
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

DecodeStatus Merge(std::span<const std::uint8_t> input, Message& out,
                   const DecodeOptions& options) {
  if (!options.kernel) return Merge(input, out);
  const ScopedKernelLevel level(*options.kernel);
  return Merge(input, out);
}

DecodeStatus Decode(std::span<const std::uint8_t> input, Message& out,
                    const DecodeOptions& options) {
  out.Clear();
  return Merge(input, out, options);
}

}  // namespace fairwire::wire
