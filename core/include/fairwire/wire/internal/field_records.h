// The record loops of one field, written once for the dynamic decoder
// (decoder.cc: values into a Message's storage) and the typed bindings
// (binding.h: values into a member of the user's struct). Where the values
// go is the loop's Sink template parameter; everything else (which wire
// types are accepted, the run of records with the same tag bytes, packed
// records, the closed-enum rule, errors and their offsets) is here. The
// vector kernels are reached from here as before: one-byte-tag varint runs
// (varint_run.h), packed varints (parse.h), packed fixed-width values
// (packed_fixed.h), each choosing AVX-512, BMI2 or portable code at run time.
#ifndef FAIRWIRE_WIRE_INTERNAL_FIELD_RECORDS_H_
#define FAIRWIRE_WIRE_INTERNAL_FIELD_RECORDS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/fixed_run.h"
#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/packed_fixed.h"
#include "fairwire/wire/internal/packed_varint.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/varint_run.h"

namespace fairwire::wire::internal {

// A scalar sink: where the values of a field of packable kind K go (T is
// KindTraits<K>::Type).
//   static constexpr bool kRepeatable  it can hold several values (packed
//                                      records are accepted only then)
//   static constexpr bool kVector      its storage is a std::vector<T>, which
//                                      the bulk packed kernels and the run
//                                      kernel write into directly
//   static constexpr bool kRunOutOfLine
//                                      (kVector) one-byte-tag runs are
//                                      parsed by a call that is never
//                                      inlined (ParseRecordRunOutOfLine)
//   bool repeated() const              the field is repeated (one-byte-tag
//                                      runs and packed records)
//   std::vector<T>& vector() const     (kVector) that storage
//   void Store(T) const                an unpacked value: set (last one
//                                      wins) or append
//   void Reserve(std::size_t n) const  (kRepeatable) room for n more values
//   void Append(T) const               (kRepeatable) a packed value
//   void AddUnknown(std::uint64_t raw) const
//                                      the record (field number, raw) of a
//                                      value its closed enum rejects, kept
//                                      with the unknown fields if the sink
//                                      keeps them
//   std::string* unknown() const       the unknown fields, or nullptr
//   EnumCheck() const                  the closed-enum check, made once per
//                                      run of records:
// An enum check:
//   static constexpr bool kMayReject   false: every value is kept (only
//                                      Closed() is then called)
//   bool Closed() const                this field rejects values
//   bool Contains(std::int32_t) const  the value is in the enum
//   bool ContainsInline(std::int32_t) const
//                                      Contains without a call (false for
//                                      members it cannot tell: the record
//                                      loop then asks Contains)
//   bool AllKnown(const std::int32_t*, std::size_t) const
//                                      all of them are (packed records)
//   EnumBitmapView InlineBitmap() const
//                                      members as a bitmap and a few far
//                                      values (never a non-member): the avx2
//                                      checks' view, held in registers
//   const Check* RunCheck() const      the run kernel's check (exactly
//                                      Contains), or nullptr to leave runs
//                                      to the scalar loop

// The enum check of a field that keeps every value.
struct KeepEveryValue {
  static constexpr bool kMayReject = false;
  static constexpr bool Closed() { return false; }
};

// Room for `n` more elements in `v`, growing geometrically (an exact
// reserve per record would make many small records quadratic).
template <typename V>
void ReserveMore(V& v, std::size_t n) {
  const std::size_t need = v.size() + n;
  if (need > v.capacity()) v.reserve(std::max(need, 2 * v.capacity()));
}

// The keep of a closed enum's runs (ParseVarintRun): a member is kept, any
// other value goes to the unknown fields. Accepts is the run kernel's test
// (no call in its loop: a value it refuses stops the kernel, and the record
// loop then asks keep).
template <typename Check, typename Sink>
struct ClosedEnumKeep {
  const Check& check;
  const Sink& sink;
  bool operator()(std::int32_t value) const {
    if (check.Contains(value)) return true;
    sink.AddUnknown(static_cast<std::uint64_t>(std::int64_t{value}));
    return false;
  }
  [[gnu::always_inline]] bool Accepts(std::int32_t value) const {
    return check.ContainsInline(value);
  }
  // The enum's members as a bitmap and a few far values (the avx2 run
  // kernel's check: a value it lacks stops the kernel).
  EnumBitmapView Bitmap() const { return check.InlineBitmap(); }
};

// A run of unpacked records of a repeated VARINT-kind field whose tag is
// the one byte `tag_byte`, p at the first value (ParseVarintRun), into the
// sink's vector. Closed-enum values outside the enum go to the unknown
// fields, as the int32 value sign-extended to 64 bits (as DynamicMessage
// keeps them).
template <FieldKind K, typename Sink>
const std::uint8_t* ParseRecordRun(ParseContext& ctx, const std::uint8_t* p,
                                   const std::uint8_t* end,
                                   std::uint8_t tag_byte, Sink sink) {
  using T = typename KindTraits<K>::Type;
  if constexpr (K == FieldKind::kEnum) {
    const auto check = sink.EnumCheck();
    if constexpr (decltype(check)::kMayReject) {
      if (check.Closed()) {
        const ClosedEnumKeep<decltype(check), Sink> keep{check, sink};
        return ParseVarintRun<K>(ctx, p, end, tag_byte, sink.vector(), keep,
                                 check.RunCheck());
      }
    }
  }
  static constexpr AcceptAllRunCheck kAcceptAll{};
  return ParseVarintRun<K>(ctx, p, end, tag_byte, sink.vector(), KeepAll<T>{},
                           &kAcceptAll);
}

// ParseRecordRun, never inlined: for sinks with kRunOutOfLine, whose
// callers flatten the record loop (the run's code then stays out of it).
template <FieldKind K, typename Sink>
[[gnu::noinline]] const std::uint8_t* ParseRecordRunOutOfLine(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::uint8_t tag_byte, Sink sink) {
  return ParseRecordRun<K>(ctx, p, end, tag_byte, sink);
}

// The payload [p, end) of a packed record of kind K (its length varint at
// length_at), appended to the sink. Closed-enum values outside the enum go
// to the unknown fields in parse order, with all 64 bits (as libprotobuf
// does for packed). Errors: FailPackedVarint's; kPackedSizeNotMultiple at
// length_at.
template <FieldKind K, typename Sink>
[[gnu::always_inline]] inline const std::uint8_t* ParsePackedRecord(
    ParseContext& ctx, const std::uint8_t* length_at, const std::uint8_t* p,
    const std::uint8_t* end, const Sink& sink) {
  using Traits = KindTraits<K>;
  if constexpr (Traits::kWire == WireType::kVarint) {
    const auto check = sink.EnumCheck();
    constexpr bool kMayReject = decltype(check)::kMayReject;
    if constexpr (Sink::kVector) {
      auto& out = sink.vector();
      if (!check.Closed()) return ParsePackedVarint<K>(ctx, p, end, out);
      if constexpr (kMayReject) {
        // A closed enum: decoded in bulk, then checked in one pass; only a
        // record holding an unknown value is decoded again one by one
        // below (to keep each unknown's 64 bits).
        const std::size_t old_size = out.size();
        const std::uint8_t* q = ParsePackedVarint<K>(ctx, p, end, out);
        if (q == nullptr) return nullptr;
        if (check.AllKnown(out.data() + old_size, out.size() - old_size)) {
          return q;
        }
        out.resize(old_size);
      }
    }
    if (p != end && end[-1] >= 0x80) return FailPackedVarint(ctx, p, end);
    sink.Reserve(CountTerminators(p, end));
    while (p < end) {
      std::uint64_t raw;
      const std::uint8_t* q = ReadPackedElement(p, ctx.limit, &raw);
      if (q == nullptr) return FailPackedVarint(ctx, p, end);
      const auto value = Traits::Convert(raw);
      if constexpr (kMayReject) {
        static_assert(K == FieldKind::kEnum);
        if (check.Closed() && !check.Contains(value)) {
          sink.AddUnknown(raw);
          p = q;
          continue;
        }
      }
      sink.Append(value);
      p = q;
    }
    return p;
  } else if constexpr (Sink::kVector) {
    return ParsePackedFixed<K>(ctx, length_at, p, end, sink.vector());
  } else {
    constexpr std::size_t kWidth = FixedWidth(K);
    if ((end - p) % kWidth != 0) {
      return ctx.Fail(DecodeError::kPackedSizeNotMultiple, length_at);
    }
    sink.Reserve(static_cast<std::size_t>(end - p) / kWidth);
    for (; p < end; p += kWidth) {
      const std::uint64_t raw = kWidth == 4 ? LoadFixed32(p) : LoadFixed64(p);
      sink.Append(Traits::Convert(raw));
    }
    return p;
  }
}

// The records of a field of packable kind K starting with the one whose tag
// (`tag`, checked) spans [tag_start, p): its natural wire type, a run of
// records with the same tag bytes decoded here without going back through
// the record dispatch (for a repeated field with a one-byte tag, by a run
// kernel: varint_run.h, fixed_run.h); packed (LEN) when the sink is
// repeated; otherwise an unknown field. Closed-enum values outside the enum
// go to the unknown fields, unpacked ones as the int32 value sign-extended
// to 64 bits (as DynamicMessage keeps them). Returns past the records
// consumed.
template <FieldKind K, typename Sink>
[[gnu::always_inline]] inline const std::uint8_t* ParseScalarRecords(
    ParseContext& ctx, const std::uint8_t* tag_start, const std::uint8_t* p,
    const std::uint8_t* end, const Tag& tag, const Sink& sink) {
  using Traits = KindTraits<K>;
  using T = typename Traits::Type;
  constexpr WireType kWire = Traits::kWire;
  if (tag.wire_type == static_cast<std::uint32_t>(kWire)) {
    if constexpr (kWire == WireType::kVarint && Sink::kVector) {
      if (sink.repeated() && p - tag_start == 1) {
        if constexpr (Sink::kRunOutOfLine) {
          return ParseRecordRunOutOfLine<K>(ctx, p, end, *tag_start, sink);
        } else {
          return ParseRecordRun<K>(ctx, p, end, *tag_start, sink);
        }
      }
    }
    if constexpr (kWire != WireType::kVarint && Sink::kVector) {
      if (sink.repeated() && p - tag_start == 1) {
        return ParseFixedRun<K>(ctx, p, end, *tag_start, sink.vector());
      }
    }
    const auto tag_length = static_cast<std::size_t>(p - tag_start);
    const std::uint8_t tag_byte = *tag_start;
    // Made once here: a closed enum's bitmap lands in locals (stores into
    // the sink could otherwise alias it).
    const auto check = sink.EnumCheck();
    for (;;) {
      std::uint64_t raw;
      p = ReadRaw<kWire>(ctx, p, end, &raw);
      if (p == nullptr) return nullptr;
      const T value = Traits::Convert(raw);
      if constexpr (decltype(check)::kMayReject) {
        static_assert(K == FieldKind::kEnum);
        if (check.Closed() && !check.Contains(value)) {
          sink.AddUnknown(static_cast<std::uint64_t>(std::int64_t{value}));
        } else {
          sink.Store(value);
        }
      } else {
        sink.Store(value);
      }
      if (static_cast<std::size_t>(end - p) <= tag_length || *p != tag_byte ||
          (tag_length > 1 &&
           std::memcmp(p + 1, tag_start + 1, tag_length - 1) != 0)) {
        return p;
      }
      tag_start = p;
      p += tag_length;
    }
  }
  if constexpr (Sink::kRepeatable) {
    if (tag.wire_type == static_cast<std::uint32_t>(WireType::kLen) &&
        sink.repeated()) {
      const std::uint8_t* payload_end;
      const std::uint8_t* const length_at = p;
      p = ReadLenRecord(ctx, p, end, &payload_end);
      if (p == nullptr) return nullptr;
      return ParsePackedRecord<K>(ctx, length_at, p, payload_end, sink);
    }
  }
  return SkipField(ctx, tag_start, p, end, tag, sink.unknown());
}

// The length up to which every standard library's std::string holds its
// text in itself (libstdc++ and MSVC 15, libc++ 22): a string of this many
// bytes never allocates.
inline constexpr std::size_t kShortTextBytes = 15;

// Appends the text at `data` of `size` bytes, at most kShortTextBytes, to
// `strings`, reading kShortTextBytes bytes at data (readable, past the text
// too): a copy of a fixed size (two 8-byte moves, not a call to memcpy),
// then the string cut to its size.
inline void AppendShortText(std::vector<std::string>& strings, const char* data,
                            std::size_t size) {
  strings.emplace_back(data, kShortTextBytes).resize(size);
}

// ParseTextRecords' run of LEN records of a repeated field whose first
// record's tag spans [tag_start, tag_start + tag_length), p at its payload
// [p, payload_end).
template <bool kCheckUtf8, typename Sink>
[[gnu::always_inline]] inline const std::uint8_t* ParseTextRun(
    ParseContext& ctx, const std::uint8_t* const tag_start,
    const std::size_t tag_length, const std::uint8_t* p,
    const std::uint8_t* payload_end, const std::uint8_t* end,
    const Sink& sink) {
  for (;;) {
    const auto size = static_cast<std::size_t>(payload_end - p);
    if (kCheckUtf8 && !IsValidUtf8(p, size)) {
      return ctx.Fail(DecodeError::kInvalidUtf8, p);
    }
    if constexpr (requires { sink.AppendShort(p, size); }) {
      if (size <= kShortTextBytes &&
          static_cast<std::size_t>(ctx.limit - p) >= kShortTextBytes) {
        sink.AppendShort(p, size);
      } else {
        sink.Append(std::string_view(reinterpret_cast<const char*>(p), size));
      }
    } else {
      sink.Append(std::string_view(reinterpret_cast<const char*>(p), size));
    }
    p = payload_end;
    // Compared with the first record's tag (the run's tags are all equal):
    // a pointer that does not change is cheap to keep aside.
    if (!NextRecordHasTag(p, end, tag_start, tag_length)) return p;
    p = ReadLenRecord(ctx, p + tag_length, end, &payload_end);
    if (p == nullptr) return nullptr;
  }
}

// The records of a string or bytes field starting with the one whose tag
// spans [tag_start, p): LEN records, each checked for UTF-8 when the sink
// asks; for a repeated field a run of them with the same tag bytes is
// decoded here (no record dispatch or field lookup per string); other wire
// types are unknown. A text sink has:
//   bool validate_utf8() const         reject invalid UTF-8 (kInvalidUtf8,
//                                      at the payload)
//   bool repeated() const              Append, not Set
//   void Set(std::string_view) const   a singular field's value (last one
//                                      wins)
//   void Append(std::string_view) const
//                                      a repeated field's next value
//   void AppendShort(const std::uint8_t* data, std::size_t size) const
//                                      optional: Append of a text of at most
//                                      kShortTextBytes bytes, with that many
//                                      readable at data (AppendShortText)
//   std::string* unknown() const       the unknown fields, or nullptr
template <typename Sink>
[[gnu::always_inline]] inline const std::uint8_t* ParseTextRecords(
    ParseContext& ctx, const std::uint8_t* tag_start, const std::uint8_t* p,
    const std::uint8_t* end, const Tag& tag, const Sink& sink) {
  if (tag.wire_type != static_cast<std::uint32_t>(WireType::kLen)) {
    return SkipField(ctx, tag_start, p, end, tag, sink.unknown());
  }
  const auto tag_length = static_cast<std::size_t>(p - tag_start);
  const std::uint8_t* payload_end;
  p = ReadLenRecord(ctx, p, end, &payload_end);
  if (p == nullptr) return nullptr;
  const bool validate = sink.validate_utf8();
  if (!sink.repeated()) {
    // One record: the next, if any, goes through the record dispatch, so
    // that the loop below is for repeated fields only.
    const auto size = static_cast<std::size_t>(payload_end - p);
    if (validate && !IsValidUtf8(p, size)) {
      return ctx.Fail(DecodeError::kInvalidUtf8, p);
    }
    sink.Set(std::string_view(reinterpret_cast<const char*>(p), size));
    return payload_end;
  }
  // The run, with the UTF-8 check decided at compile time: nothing of the
  // field stays live in the loop but where the strings go (the string copy
  // needs the registers).
  return validate ? ParseTextRun<true>(ctx, tag_start, tag_length, p,
                                       payload_end, end, sink)
                  : ParseTextRun<false>(ctx, tag_start, tag_length, p,
                                        payload_end, end, sink);
}

// The record of a nested message field whose tag spans [tag_start, p): a
// LEN record whose payload parse_body(payload, payload_end) parses one
// level deeper (kDepthExceeded at tag_start past kMaxDepth); other wire
// types are unknown (appended to *unknown when non-null).
template <typename ParseBody>
[[gnu::always_inline]] inline const std::uint8_t* ParseMessageRecord(
    ParseContext& ctx, const std::uint8_t* tag_start, const std::uint8_t* p,
    const std::uint8_t* end, const Tag& tag, std::string* unknown,
    const ParseBody& parse_body) {
  if (tag.wire_type != static_cast<std::uint32_t>(WireType::kLen)) {
    return SkipField(ctx, tag_start, p, end, tag, unknown);
  }
  const std::uint8_t* payload_end;
  p = ReadLenRecord(ctx, p, end, &payload_end);
  if (p == nullptr) return nullptr;
  if (--ctx.depth < 0) return ctx.Fail(DecodeError::kDepthExceeded, tag_start);
  p = parse_body(p, payload_end);
  ++ctx.depth;
  return p;
}

// The record loop of a message's fields over [p, end): each tag read and
// checked (ReadFieldTag), then on_field(tag_start, past_tag, tag) parses
// that field's records and returns past them, or nullptr after an error.
template <typename OnField>
[[gnu::always_inline]] inline const std::uint8_t* ParseFields(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    const OnField& on_field) {
  while (p < end) {
    const std::uint8_t* const tag_start = p;
    Tag tag;
    p = ReadFieldTag(ctx, p, end, &tag);
    if (p == nullptr) return nullptr;
    p = on_field(tag_start, p, tag);
    if (p == nullptr) return nullptr;
  }
  return p;
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_FIELD_RECORDS_H_
