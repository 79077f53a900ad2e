// Typed bindings: decode wire-format bytes straight into a user's own struct,
// without the dynamic Message, with the same rules and statuses as Decode
// (packed and unpacked accepted, closed-enum unknowns to the unknown fields,
// wrong wire types kept as unknown, depth 100, proto3 UTF-8 on request).
// Field dispatch is resolved at compile time: no per-element indirect call.
//
//   struct Point { std::vector<std::int64_t> ids; std::string name;
//                  std::optional<std::int32_t> id; std::string unknown; };
//   constexpr auto kPoint = MakeBinding<Point>(
//       Bind<1, FieldKind::kInt64>(&Point::ids),
//       Bind<2, FieldKind::kString>(&Point::name),
//       Bind<3, FieldKind::kInt32>(&Point::id))
//       .WithUnknown(&Point::unknown);
//   Point p;
//   DecodeStatus s = DecodeInto(bytes, kPoint, p);
//
// Member types: T (singular, last value wins), std::optional<T> (singular
// with presence), std::vector<T> (repeated), where T is the kind's C++ type
// (message.h) or convertible from it (bool for kBool); std::string, or
// std::string_view to point into the input without copying (the input must
// then outlive the struct), for string and bytes; a bound struct for
// messages (BindMessage).
#ifndef FAIRWIRE_WIRE_BINDING_H_
#define FAIRWIRE_WIRE_BINDING_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "fairwire/wire/internal/bound_run.h"
#include "fairwire/wire/internal/field_records.h"
#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire {

// Whether a bound proto3 string is checked for valid UTF-8.
enum class Utf8 : std::uint8_t { kNoCheck, kValidate };

namespace internal {

template <typename M>
struct MemberShape {
  using Element = M;
  static constexpr bool kRepeated = false;
};
template <typename E, typename A>
struct MemberShape<std::vector<E, A>> {
  using Element = E;
  static constexpr bool kRepeated = true;
};
template <typename E>
struct MemberShape<std::optional<E>> {
  using Element = E;
  static constexpr bool kRepeated = false;
};

// Sets a singular member (last wins) or appends to a repeated one.
template <typename M, typename E>
void StoreMember(M& member, E value) {
  if constexpr (MemberShape<M>::kRepeated) {
    member.push_back(std::move(value));
  } else {
    member = std::move(value);
  }
}

// Empties a bound member (a std::string keeps its buffer for the next
// value, as libprotobuf keeps a cleared string's capacity).
template <typename M>
void ClearMember(M& member) {
  if constexpr (MemberShape<M>::kRepeated || std::is_same_v<M, std::string>) {
    member.clear();
  } else {
    member = M{};
  }
}

// The element to merge a singular message into (created when absent), or a
// new element of a repeated one.
template <typename M>
auto& MessageSlot(M& member) {
  if constexpr (MemberShape<M>::kRepeated) {
    return member.emplace_back();
  } else if constexpr (std::is_same_v<
                           M,
                           std::optional<typename MemberShape<M>::Element>>) {
    if (!member.has_value()) member.emplace();
    return *member;
  } else {
    return member;
  }
}

}  // namespace internal

// A scalar, enum, string or bytes field: number N, kind K, member of S.
// `IsValid` (closed enums only) says which values belong to the enum; values
// outside it go to the unknown fields.
template <std::uint32_t N, FieldKind K, typename S, typename M,
          bool (*IsValid)(std::int32_t) = nullptr>
struct BoundField {
  static constexpr std::uint32_t kNumber = N;
  M S::*member;
  Utf8 utf8 = Utf8::kNoCheck;
};

// A nested message field: number N, member of S holding a struct (or an
// optional or vector of it) decoded by `binding`.
template <std::uint32_t N, typename S, typename M, typename B>
struct BoundMessage {
  static constexpr std::uint32_t kNumber = N;
  M S::*member;
  B binding;
};

// Binds field N of kind K (not kMessage) to `member`.
template <std::uint32_t N, FieldKind K, typename S, typename M>
constexpr BoundField<N, K, S, M> Bind(M S::*member,
                                      Utf8 utf8 = Utf8::kNoCheck) {
  static_assert(N >= 1 && N <= kMaxFieldNumber, "field number out of range");
  static_assert(K != FieldKind::kMessage, "use BindMessage");
  return {member, utf8};
}

// Binds field N, a closed enum whose values are those IsValid accepts.
// IsValid must be a pure function of its argument (as generated enum
// predicates are): its answers for 0..1023 are computed once and cached.
template <std::uint32_t N, bool (*IsValid)(std::int32_t), typename S,
          typename M>
constexpr BoundField<N, FieldKind::kEnum, S, M, IsValid> BindClosedEnum(
    M S::*member) {
  static_assert(N >= 1 && N <= kMaxFieldNumber, "field number out of range");
  return {member, Utf8::kNoCheck};
}

// Binds field N, a nested message decoded with `binding`.
template <std::uint32_t N, typename S, typename M, typename B>
constexpr BoundMessage<N, S, M, B> BindMessage(M S::*member, B binding) {
  static_assert(N >= 1 && N <= kMaxFieldNumber, "field number out of range");
  return {member, binding};
}

// The fields of struct S, and where its unknown fields go (or nowhere).
template <typename S, typename... F>
struct Binding {
  using Struct = S;
  std::tuple<F...> fields;
  std::string S::*unknown = nullptr;

  // The same binding keeping unknown fields (exact record bytes, in wire
  // order, closed-enum unknowns included) in `member`.
  constexpr Binding WithUnknown(std::string S::*member) const {
    return Binding{fields, member};
  }
};

// Makes a binding of S from Bind/BindClosedEnum/BindMessage results. Two
// fields with one number are rejected at compile time.
namespace internal {
// True if no two of `numbers` are equal.
template <std::uint32_t... Numbers>
consteval bool DistinctNumbers() {
  constexpr std::uint32_t numbers[] = {Numbers..., 0};
  for (std::size_t i = 0; i < sizeof...(Numbers); ++i) {
    for (std::size_t j = i + 1; j < sizeof...(Numbers); ++j) {
      if (numbers[i] == numbers[j]) return false;
    }
  }
  return true;
}
}  // namespace internal

template <typename S, typename... F>
constexpr Binding<S, F...> MakeBinding(F... fields) {
  static_assert(internal::DistinctNumbers<F::kNumber...>(),
                "two bound fields share a field number");
  return {std::tuple<F...>(fields...), nullptr};
}

namespace internal {

template <typename S, typename... F>
const std::uint8_t* ParseBound(ParseContext& ctx, const std::uint8_t* p,
                               const std::uint8_t* end,
                               const Binding<S, F...>& binding, S& out);

// Whether a closed-enum binding has a membership predicate. A trait, not
// `IsValid != nullptr`: g++ with -fsanitize=undefined (which implies
// -fno-delete-null-pointer-checks) does not fold a function's address
// compared with null in a constant expression.
template <bool (*IsValid)(std::int32_t)>
inline constexpr bool kHasEnumPredicate = true;
template <>
inline constexpr bool kHasEnumPredicate<nullptr> = false;

// The scalar sink (field_records.h) of member type M bound to field N of
// kind K: a singular member takes the last value, a repeated one appends;
// std::vector<T> of the kind's own type T takes the vector kernels' output
// directly. Closed-enum unknowns go to *unknown when non-null.
template <std::uint32_t N, FieldKind K, typename M,
          bool (*IsValid)(std::int32_t)>
class MemberScalarSink {
 public:
  using T = typename KindTraits<K>::Type;
  using Element = typename MemberShape<M>::Element;
  static constexpr bool kRepeatable = MemberShape<M>::kRepeated;
  static constexpr bool kVector = std::is_same_v<M, std::vector<T>>;
  static constexpr bool kRunOutOfLine = false;

  MemberScalarSink(M& member, std::string* unknown)
      : member_(member), unknown_(unknown) {}

  static constexpr bool repeated() { return kRepeatable; }
  M& vector() const { return member_; }
  void Store(T value) const {
    StoreMember(member_, static_cast<Element>(value));
  }
  void Reserve(std::size_t n) const { ReserveMore(member_, n); }
  void Append(T value) const { member_.push_back(static_cast<Element>(value)); }
  void AddUnknown(std::uint64_t raw) const {
    if (unknown_ != nullptr) AppendVarintRecord(N, raw, unknown_);
  }
  std::string* unknown() const { return unknown_; }
  static auto EnumCheck() {
    if constexpr (kHasEnumPredicate<IsValid>) {
      return PredicateEnumCheck<IsValid>{};
    } else {
      return KeepEveryValue{};
    }
  }

 private:
  M& member_;
  std::string* unknown_;
};

// The text sink (field_records.h) of a string or bytes member M.
template <typename M>
class MemberTextSink {
 public:
  MemberTextSink(M& member, Utf8 utf8, std::string* unknown)
      : member_(member), utf8_(utf8), unknown_(unknown) {}

  bool validate_utf8() const { return utf8_ == Utf8::kValidate; }
  static constexpr bool repeated() { return MemberShape<M>::kRepeated; }
  void Set(std::string_view text) const {
    if constexpr (std::is_same_v<M, std::string>) {
      member_.assign(text);  // reuses the member's buffer: no allocation
    } else if constexpr (std::is_same_v<M, std::optional<std::string>>) {
      if (member_.has_value()) {
        member_->assign(text);
      } else {
        member_.emplace(text);
      }
    } else if constexpr (!MemberShape<M>::kRepeated) {
      member_ = typename MemberShape<M>::Element(text);
    }
  }
  void Append(std::string_view text) const {
    if constexpr (MemberShape<M>::kRepeated) {
      // Built in place: a temporary's short-string buffer, moved right
      // after being written, stalls on store forwarding.
      member_.emplace_back(text);
    }
  }
  void AppendShort(const std::uint8_t* data, std::size_t size)
      const requires std::is_same_v<M, std::vector<std::string>> {
    internal::AppendShortText(member_, reinterpret_cast<const char*>(data),
                              size);
  }
  std::string* unknown() const { return unknown_; }

 private:
  M& member_;
  Utf8 utf8_;
  std::string* unknown_;
};

template <std::uint32_t N, FieldKind K, typename S, typename M,
          bool (*IsValid)(std::int32_t)>
const std::uint8_t* ParseBoundField(ParseContext& ctx,
                                    const std::uint8_t* tag_start,
                                    const std::uint8_t* p,
                                    const std::uint8_t* end, const Tag& tag,
                                    const BoundField<N, K, S, M, IsValid>& f,
                                    S& out, std::string* unknown) {
  M& member = out.*(f.member);
  if constexpr (KindWireType(K) == WireType::kLen) {
    const MemberTextSink<M> sink(member, f.utf8, unknown);
    return ParseTextRecords(ctx, tag_start, p, end, tag, sink);
  } else {
    const MemberScalarSink<N, K, M, IsValid> sink(member, unknown);
    return ParseScalarRecords<K>(ctx, tag_start, p, end, tag, sink);
  }
}

template <std::uint32_t N, typename S, typename M, typename B>
const std::uint8_t* ParseBoundField(ParseContext& ctx,
                                    const std::uint8_t* tag_start,
                                    const std::uint8_t* p,
                                    const std::uint8_t* end, const Tag& tag,
                                    const BoundMessage<N, S, M, B>& f, S& out,
                                    std::string* unknown) {
  return ParseMessageRecord(
      ctx, tag_start, p, end, tag, unknown,
      [&](const std::uint8_t* payload, const std::uint8_t* payload_end) {
        return ParseBound(ctx, payload, payload_end, f.binding,
                          MessageSlot(out.*(f.member)));
      });
}

template <typename S, typename... F>
const std::uint8_t* ParseBound(ParseContext& ctx, const std::uint8_t* p,
                               const std::uint8_t* end,
                               const Binding<S, F...>& binding, S& out) {
  std::string* unknown =
      binding.unknown != nullptr ? &(out.*(binding.unknown)) : nullptr;
  return ParseFields(
      ctx, p, end,
      [&](const std::uint8_t* tag_start, const std::uint8_t* q,
          const Tag& tag) {
        const std::uint8_t* next = q;
        const bool known = std::apply(
            [&](const auto&... field) {
              return ((tag.field_number == field.kNumber
                           ? (next = ParseBoundField(ctx, tag_start, q, end,
                                                     tag, field, out, unknown),
                              true)
                           : false) ||
                      ...);
            },
            binding.fields);
        return known ? next : SkipField(ctx, tag_start, q, end, tag, unknown);
      });
}

}  // namespace internal

// Merges `input` into `out` through `binding`, as Merge does for a Message:
// repeated members append, singular ones take the last value, nested
// messages merge. On failure returns the reason and byte offset (`out` then
// holds partial contents that mean nothing).
template <typename S, typename... F>
DecodeStatus MergeInto(std::span<const std::uint8_t> input,
                       const Binding<S, F...>& binding, S& out) {
  const std::uint8_t* begin = input.data();
  const std::uint8_t* end = begin + input.size();
  internal::ParseContext ctx{begin, end, kMaxDepth, {}};
  internal::ParseBound(ctx, begin, end, binding, out);
  return ctx.status;
}

// Empties every bound member (and the unknown-field member), then merges.
template <typename S, typename... F>
DecodeStatus DecodeInto(std::span<const std::uint8_t> input,
                        const Binding<S, F...>& binding, S& out) {
  std::apply(
      [&](const auto&... field) {
        (internal::ClearMember(out.*(field.member)), ...);
      },
      binding.fields);
  if (binding.unknown != nullptr) (out.*(binding.unknown)).clear();
  return MergeInto(input, binding, out);
}

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_BINDING_H_
