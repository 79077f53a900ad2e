// Typed bindings (fairwire/wire/binding.h) for the fixed test schemas of
// properties/proto, and the check that compares them with the dynamic
// decoder: on every input DecodeInto and Decode must accept or reject alike,
// reject with the same reason and byte offset, and accept with the same
// values, field by field, and the same unknown-field bytes.
//
// Bindings cannot recurse (a binding holds its nested bindings by value), so
// each recursive type is unrolled kTypedDepth levels deep: a struct at level
// kTypedDepth (counting from the root, 0) binds no message field, and those
// records land in its unknown fields. The dynamic side decodes with the same
// unrolling of the subject's schema (TypedSchema), so the two agree exactly
// at every depth; within kTypedDepth levels that schema is the subject's own.
//
// Member shapes are mixed on purpose: std::optional for proto2 presence,
// plain T (last wins) for proto3 implicit presence, std::vector for repeated
// fields (the exact element type, which takes the packed fast paths, and
// widened, bool or enum-class elements, which take the generic ones),
// std::string and std::string_view for strings and bytes, enum classes for
// closed and open enums. The schemas have no oneofs, groups, extensions or
// maps; unbound fields are the message fields of the deepest level.
#ifndef FAIRWIRE_CHECKS_WIRE_TYPED_SUBJECTS_H_
#define FAIRWIRE_CHECKS_WIRE_TYPED_SUBJECTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/wire/message.h"
#include "fairwire/wire/schema.h"
#include "fairwire/wire/status.h"

namespace fairwire::wire::oracle {

// Levels of nested messages the typed structs bind below the root.
inline constexpr int kTypedDepth = 2;

namespace typed {

// A member type for a message field that the deepest level leaves unbound.
struct Unbound {};

// The member types of a message field of type T<R - 1> in a struct of
// level R from the bottom (none at R == 0).
template <template <int> class T, int R>
struct Sub {
  using Opt = std::optional<T<R - 1>>;
  using Vec = std::vector<T<R - 1>>;
};
template <template <int> class T>
struct Sub<T, 0> {
  using Opt = Unbound;
  using Vec = Unbound;
};

// fairwire.test.Color (closed): only its values reach a member.
enum class Color : std::int32_t {};
// fairwire.test.Shade (open): every int32 value reaches a member.
enum class Shade : std::int32_t {};

// fairwire.test.Nested, R levels above the unrolling's bottom.
template <int R>
struct NestedT {
  std::optional<std::int32_t> id;
  std::vector<std::int64_t> deltas;  // packed sint64: fast path
  std::optional<std::string> label;
  std::optional<Color> color;
  typename Sub<NestedT, R>::Opt child;
  std::vector<std::uint32_t> hashes;
  std::vector<double> weights;
  std::vector<std::int32_t> counts;
  std::vector<Color> colors;
  std::string unknown;
};

// fairwire.test.AllKinds (proto2), R levels above the bottom.
template <int R>
struct AllKindsT {
  std::optional<std::int32_t> f_int32;
  std::optional<std::int64_t> f_int64;
  std::optional<std::uint32_t> f_uint32;
  std::optional<std::uint64_t> f_uint64;
  std::optional<std::int32_t> f_sint32;
  std::optional<std::int64_t> f_sint64;
  std::optional<bool> f_bool;
  std::optional<Color> f_enum;
  std::optional<std::uint32_t> f_fixed32;
  std::optional<std::uint64_t> f_fixed64;
  std::optional<std::int32_t> f_sfixed32;
  std::optional<std::int64_t> f_sfixed64;
  std::optional<float> f_float;
  std::optional<double> f_double;
  std::optional<std::string> f_string;
  std::optional<std::string_view> f_bytes;  // zero-copy
  typename Sub<NestedT, R>::Opt f_nested;
  typename Sub<AllKindsT, R>::Opt f_self;
  // Declared unpacked; exact element types except where noted.
  std::vector<std::int32_t> r_int32;
  std::vector<std::int64_t> r_int64;
  std::vector<std::uint32_t> r_uint32;
  std::vector<std::uint64_t> r_uint64;
  std::vector<std::int64_t> r_sint32;  // widened: generic packed loop
  std::vector<std::int64_t> r_sint64;
  std::vector<bool> r_bool;  // generic packed loop
  std::vector<Color> r_enum;
  std::vector<std::uint32_t> r_fixed32;
  std::vector<std::uint64_t> r_fixed64;
  std::vector<std::int64_t> r_sfixed32;  // widened: generic fixed loop
  std::vector<std::int64_t> r_sfixed64;
  std::vector<float> r_float;
  std::vector<double> r_double;
  std::vector<std::string> r_string;
  std::vector<std::string_view> r_bytes;  // zero-copy
  typename Sub<NestedT, R>::Vec r_nested;
  // Declared packed; exact element types (fast paths) except enums.
  std::vector<std::int32_t> p_int32;
  std::vector<std::int64_t> p_int64;
  std::vector<std::uint32_t> p_uint32;
  std::vector<std::uint64_t> p_uint64;
  std::vector<std::int32_t> p_sint32;
  std::vector<std::int64_t> p_sint64;
  std::vector<std::uint8_t> p_bool;
  std::vector<Color> p_enum;
  std::vector<std::uint32_t> p_fixed32;
  std::vector<std::uint64_t> p_fixed64;
  std::vector<std::int32_t> p_sfixed32;
  std::vector<std::int64_t> p_sfixed64;
  std::vector<float> p_float;
  std::vector<double> p_double;
  std::optional<std::uint64_t> f_far;
  std::vector<std::int32_t> p_max;
  std::string unknown;
};

// fairwire.test.Nested3 (proto3), R levels above the bottom.
template <int R>
struct Nested3T {
  std::int32_t id = 0;
  std::string label;
  std::vector<std::int32_t> shades;  // open enum, exact type: fast path
  typename Sub<Nested3T, R>::Opt child;
  std::vector<std::uint64_t> stamps;
  std::vector<std::uint64_t> sizes;
  std::string unknown;
};

// fairwire.test.AllKinds3 (proto3), R levels above the bottom.
template <int R>
struct AllKinds3T {
  std::int32_t f_int32 = 0;
  std::int64_t f_int64 = 0;
  std::uint32_t f_uint32 = 0;
  std::uint64_t f_uint64 = 0;
  std::int32_t f_sint32 = 0;
  std::int64_t f_sint64 = 0;
  bool f_bool = false;
  Shade f_enum{};
  std::uint32_t f_fixed32 = 0;
  std::uint64_t f_fixed64 = 0;
  std::int32_t f_sfixed32 = 0;
  std::int64_t f_sfixed64 = 0;
  float f_float = 0;
  double f_double = 0;
  std::string_view f_string;  // zero-copy, UTF-8 checked
  std::string f_bytes;
  typename Sub<Nested3T, R>::Opt f_nested;
  typename Sub<AllKinds3T, R>::Opt f_self;
  std::vector<std::int32_t> p_int32;
  std::vector<std::int64_t> p_int64;
  std::vector<std::uint32_t> p_uint32;
  std::vector<std::uint64_t> p_uint64;
  std::vector<std::int32_t> p_sint32;
  std::vector<std::int64_t> p_sint64;
  std::vector<std::uint8_t> p_bool;
  std::vector<std::int32_t> p_enum;
  std::vector<std::uint32_t> p_fixed32;
  std::vector<std::uint64_t> p_fixed64;
  std::vector<std::int32_t> p_sfixed32;
  std::vector<std::int64_t> p_sfixed64;
  std::vector<float> p_float;
  std::vector<double> p_double;
  std::vector<std::int64_t> r_int32;  // widened: generic packed loop
  std::vector<std::int64_t> r_sint64;
  std::vector<Shade> r_enum;  // enum class: generic packed loop
  std::vector<std::uint32_t> r_fixed32;
  std::vector<double> r_double;
  std::vector<std::string_view> r_string;  // zero-copy, UTF-8 checked
  std::vector<std::string> r_bytes;
  typename Sub<Nested3T, R>::Vec r_nested;
  std::optional<std::int32_t> o_int32;
  std::string unknown;
};

// The root structs of the four fixed subjects.
using AllKinds = AllKindsT<kTypedDepth>;
using AllKinds3 = AllKinds3T<kTypedDepth>;
using Nested = NestedT<kTypedDepth>;
using Nested3 = Nested3T<kTypedDepth>;

}  // namespace typed

// The subject's fairwire schema unrolled kTypedDepth levels deep, as the
// typed structs are (root is message 0). Built once.
const wire::Schema& TypedSchema(Fixed which);

// DecodeInto with the subject's binding. String views point into `input`.
DecodeStatus DecodeTyped(ByteSpan input, typed::AllKinds& out);
DecodeStatus DecodeTyped(ByteSpan input, typed::AllKinds3& out);
DecodeStatus DecodeTyped(ByteSpan input, typed::Nested& out);
DecodeStatus DecodeTyped(ByteSpan input, typed::Nested3& out);

// nullopt if `typed` holds the same values and unknown-field bytes as
// `message` (a message of TypedSchema's root); otherwise
// "typed-vs-fairwire-<value|presence|count|unknown>: <path>: ..." naming the
// first field that differs, e.g. "AllKinds.f_self.p_int64[3]".
std::optional<std::string> CompareTyped(const typed::AllKinds& typed,
                                        const wire::Message& message);
std::optional<std::string> CompareTyped(const typed::AllKinds3& typed,
                                        const wire::Message& message);
std::optional<std::string> CompareTyped(const typed::Nested& typed,
                                        const wire::Message& message);
std::optional<std::string> CompareTyped(const typed::Nested3& typed,
                                        const wire::Message& message);

// nullopt if the typed and dynamic statuses are equal; otherwise
// "typed-vs-fairwire-accept: ..." or "typed-vs-fairwire-status: ...".
std::optional<std::string> CompareTypedStatus(const DecodeStatus& typed,
                                              const DecodeStatus& dynamic);

// The typed decode of `input` against Decode with TypedSchema(which): the
// first difference (status, or value as CompareTyped), or nullopt.
std::optional<std::string> CheckTyped(Fixed which, ByteSpan input);

// The typed decode of `input` as a decoder Verdict: on accept, the struct
// copied into a Message of TypedSchema(which) and serialised (for inputs
// nested at most kTypedDepth levels, the bytes libprotobuf re-serialises to).
Verdict DecodeWithTyped(Fixed which, ByteSpan input);

}  // namespace fairwire::wire::oracle

#endif  // FAIRWIRE_CHECKS_WIRE_TYPED_SUBJECTS_H_
