// Internal to fairwire_wire_checks: what the typed-binding sources
// (wire_typed_schema.cc, wire_typed_compare.cc, wire_typed_fill.cc,
// wire_typed_check.cc) share besides the bindings themselves.
#ifndef FAIRWIRE_CHECKS_WIRE_TYPED_INTERNAL_H_
#define FAIRWIRE_CHECKS_WIRE_TYPED_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fairwire/checks/wire_typed_subjects.h"
#include "fairwire/wire/binding.h"
#include "fairwire/wire/message.h"

// The comparison and the struct-to-Message copy are the oracle, not code
// under test: they are left out of libFuzzer's coverage (and comparison
// tracing), which stays on the decoders and costs most of the check's time
// when applied to them.
#if defined(__clang__) && __clang_major__ >= 13
#define FAIRWIRE_TYPED_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FAIRWIRE_TYPED_NO_COVERAGE
#endif

namespace fairwire::wire::oracle::typed_internal {

// How a struct member holds a field's values: a vector (repeated), an
// optional (explicit presence) or the plain value (implicit presence).
template <typename M>
struct Shape {
  static constexpr bool kVector = false;
  static constexpr bool kOptional = false;
};
template <typename E, typename A>
struct Shape<std::vector<E, A>> {
  static constexpr bool kVector = true;
  static constexpr bool kOptional = false;
};
template <typename E>
struct Shape<std::optional<E>> {
  static constexpr bool kVector = false;
  static constexpr bool kOptional = true;
};

// The element type a Message holds for kind K.
template <FieldKind Kind>
struct ValueOf {
  using Type = typename internal::KindTraits<Kind>::Type;
};
template <>
struct ValueOf<FieldKind::kString> {
  using Type = std::string;
};
template <>
struct ValueOf<FieldKind::kBytes> {
  using Type = std::string;
};

// The index in `m`'s type of the field numbered `number`, if it has one.
inline FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::size_t> FieldIndex(
    const wire::Message& m, std::uint32_t number) {
  const FieldDef* field = m.schema().FindField(m.message_index(), number);
  if (field == nullptr) return std::nullopt;
  return static_cast<std::size_t>(field - m.def().fields.data());
}

// wire_typed_schema.cc: nullopt when TypedSchema(which) was built, else
// "typed-schema-refused: ..." (TypedSchema must not be called then).
std::optional<std::string> TypedSchemaProblem(Fixed which);

// wire_typed_fill.cc: the struct's values and unknown-field bytes appended
// to `m`, a message of TypedSchema's root of the same subject.
void FillMessage(const typed::AllKinds& s, wire::Message& m);
void FillMessage(const typed::AllKinds3& s, wire::Message& m);
void FillMessage(const typed::Nested& s, wire::Message& m);
void FillMessage(const typed::Nested3& s, wire::Message& m);

}  // namespace fairwire::wire::oracle::typed_internal

#endif  // FAIRWIRE_CHECKS_WIRE_TYPED_INTERNAL_H_
