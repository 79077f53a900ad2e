// Internal to fairwire_wire_checks: the typed bindings (fairwire/wire/
// binding.h) of the four fixed schemas, AllKinds, AllKinds3, Nested and
// Nested3, unrolled kTypedDepth levels deep onto the structs of
// fairwire/checks/wire_typed_subjects.h. Shared by the decode, comparison and
// fill code, each instantiating what it needs from them.
#ifndef FAIRWIRE_CHECKS_WIRE_TYPED_BINDINGS_H_
#define FAIRWIRE_CHECKS_WIRE_TYPED_BINDINGS_H_

#include <cstdint>

#include "fairwire/checks/wire_typed_subjects.h"
#include "fairwire/wire/binding.h"
#include "fairwire_test.pb.h"

namespace fairwire::wire::oracle::typed_internal {

using K = FieldKind;

// Closed-enum membership as libprotobuf's generated code decides it.
inline bool IsColor(std::int32_t value) {
  return ::fairwire::test::Color_IsValid(value);
}

// Each builder binds the fields of its type; message fields only above the
// bottom level (R > 0), to the bindings one level down.

template <int R>
constexpr auto NestedBinding() {
  using S = typed::NestedT<R>;
  auto make = [](auto... extra) {
    return MakeBinding<S>(
               Bind<1, K::kInt32>(&S::id), Bind<2, K::kSint64>(&S::deltas),
               Bind<3, K::kString>(&S::label),
               BindClosedEnum<4, &IsColor>(&S::color),
               Bind<6, K::kFixed32>(&S::hashes),
               Bind<7, K::kDouble>(&S::weights), Bind<8, K::kInt32>(&S::counts),
               BindClosedEnum<9, &IsColor>(&S::colors), extra...)
        .WithUnknown(&S::unknown);
  };
  if constexpr (R == 0) {
    return make();
  } else {
    return make(BindMessage<5>(&S::child, NestedBinding<R - 1>()));
  }
}

template <int R>
constexpr auto AllKindsBinding() {
  using S = typed::AllKindsT<R>;
  auto make = [](auto... extra) {
    return MakeBinding<S>(
               Bind<1, K::kInt32>(&S::f_int32), Bind<2, K::kInt64>(&S::f_int64),
               Bind<3, K::kUint32>(&S::f_uint32),
               Bind<4, K::kUint64>(&S::f_uint64),
               Bind<5, K::kSint32>(&S::f_sint32),
               Bind<6, K::kSint64>(&S::f_sint64), Bind<7, K::kBool>(&S::f_bool),
               BindClosedEnum<8, &IsColor>(&S::f_enum),
               Bind<9, K::kFixed32>(&S::f_fixed32),
               Bind<10, K::kFixed64>(&S::f_fixed64),
               Bind<11, K::kSfixed32>(&S::f_sfixed32),
               Bind<12, K::kSfixed64>(&S::f_sfixed64),
               Bind<13, K::kFloat>(&S::f_float),
               Bind<14, K::kDouble>(&S::f_double),
               Bind<15, K::kString>(&S::f_string),
               Bind<16, K::kBytes>(&S::f_bytes),
               Bind<21, K::kInt32>(&S::r_int32),
               Bind<22, K::kInt64>(&S::r_int64),
               Bind<23, K::kUint32>(&S::r_uint32),
               Bind<24, K::kUint64>(&S::r_uint64),
               Bind<25, K::kSint32>(&S::r_sint32),
               Bind<26, K::kSint64>(&S::r_sint64),
               Bind<27, K::kBool>(&S::r_bool),
               BindClosedEnum<28, &IsColor>(&S::r_enum),
               Bind<29, K::kFixed32>(&S::r_fixed32),
               Bind<30, K::kFixed64>(&S::r_fixed64),
               Bind<31, K::kSfixed32>(&S::r_sfixed32),
               Bind<32, K::kSfixed64>(&S::r_sfixed64),
               Bind<33, K::kFloat>(&S::r_float),
               Bind<34, K::kDouble>(&S::r_double),
               Bind<35, K::kString>(&S::r_string),
               Bind<36, K::kBytes>(&S::r_bytes),
               Bind<41, K::kInt32>(&S::p_int32),
               Bind<42, K::kInt64>(&S::p_int64),
               Bind<43, K::kUint32>(&S::p_uint32),
               Bind<44, K::kUint64>(&S::p_uint64),
               Bind<45, K::kSint32>(&S::p_sint32),
               Bind<46, K::kSint64>(&S::p_sint64),
               Bind<47, K::kBool>(&S::p_bool),
               BindClosedEnum<48, &IsColor>(&S::p_enum),
               Bind<49, K::kFixed32>(&S::p_fixed32),
               Bind<50, K::kFixed64>(&S::p_fixed64),
               Bind<51, K::kSfixed32>(&S::p_sfixed32),
               Bind<52, K::kSfixed64>(&S::p_sfixed64),
               Bind<53, K::kFloat>(&S::p_float),
               Bind<54, K::kDouble>(&S::p_double),
               Bind<2047, K::kUint64>(&S::f_far),
               Bind<536870911, K::kInt32>(&S::p_max), extra...)
        .WithUnknown(&S::unknown);
  };
  if constexpr (R == 0) {
    return make();
  } else {
    return make(BindMessage<17>(&S::f_nested, NestedBinding<R - 1>()),
                BindMessage<18>(&S::f_self, AllKindsBinding<R - 1>()),
                BindMessage<37>(&S::r_nested, NestedBinding<R - 1>()));
  }
}

template <int R>
constexpr auto Nested3Binding() {
  using S = typed::Nested3T<R>;
  auto make = [](auto... extra) {
    return MakeBinding<S>(Bind<1, K::kInt32>(&S::id),
                          Bind<2, K::kString>(&S::label, Utf8::kValidate),
                          Bind<3, K::kEnum>(&S::shades),
                          Bind<5, K::kFixed64>(&S::stamps),
                          Bind<6, K::kUint64>(&S::sizes), extra...)
        .WithUnknown(&S::unknown);
  };
  if constexpr (R == 0) {
    return make();
  } else {
    return make(BindMessage<4>(&S::child, Nested3Binding<R - 1>()));
  }
}

template <int R>
constexpr auto AllKinds3Binding() {
  using S = typed::AllKinds3T<R>;
  auto make = [](auto... extra) {
    return MakeBinding<S>(
               Bind<1, K::kInt32>(&S::f_int32), Bind<2, K::kInt64>(&S::f_int64),
               Bind<3, K::kUint32>(&S::f_uint32),
               Bind<4, K::kUint64>(&S::f_uint64),
               Bind<5, K::kSint32>(&S::f_sint32),
               Bind<6, K::kSint64>(&S::f_sint64), Bind<7, K::kBool>(&S::f_bool),
               Bind<8, K::kEnum>(&S::f_enum),
               Bind<9, K::kFixed32>(&S::f_fixed32),
               Bind<10, K::kFixed64>(&S::f_fixed64),
               Bind<11, K::kSfixed32>(&S::f_sfixed32),
               Bind<12, K::kSfixed64>(&S::f_sfixed64),
               Bind<13, K::kFloat>(&S::f_float),
               Bind<14, K::kDouble>(&S::f_double),
               Bind<15, K::kString>(&S::f_string, Utf8::kValidate),
               Bind<16, K::kBytes>(&S::f_bytes),
               Bind<41, K::kInt32>(&S::p_int32),
               Bind<42, K::kInt64>(&S::p_int64),
               Bind<43, K::kUint32>(&S::p_uint32),
               Bind<44, K::kUint64>(&S::p_uint64),
               Bind<45, K::kSint32>(&S::p_sint32),
               Bind<46, K::kSint64>(&S::p_sint64),
               Bind<47, K::kBool>(&S::p_bool), Bind<48, K::kEnum>(&S::p_enum),
               Bind<49, K::kFixed32>(&S::p_fixed32),
               Bind<50, K::kFixed64>(&S::p_fixed64),
               Bind<51, K::kSfixed32>(&S::p_sfixed32),
               Bind<52, K::kSfixed64>(&S::p_sfixed64),
               Bind<53, K::kFloat>(&S::p_float),
               Bind<54, K::kDouble>(&S::p_double),
               Bind<21, K::kInt32>(&S::r_int32),
               Bind<26, K::kSint64>(&S::r_sint64),
               Bind<28, K::kEnum>(&S::r_enum),
               Bind<29, K::kFixed32>(&S::r_fixed32),
               Bind<34, K::kDouble>(&S::r_double),
               Bind<35, K::kString>(&S::r_string, Utf8::kValidate),
               Bind<36, K::kBytes>(&S::r_bytes),
               Bind<60, K::kInt32>(&S::o_int32), extra...)
        .WithUnknown(&S::unknown);
  };
  if constexpr (R == 0) {
    return make();
  } else {
    return make(BindMessage<17>(&S::f_nested, Nested3Binding<R - 1>()),
                BindMessage<18>(&S::f_self, AllKinds3Binding<R - 1>()),
                BindMessage<37>(&S::r_nested, Nested3Binding<R - 1>()));
  }
}

inline constexpr auto kAllKinds = AllKindsBinding<kTypedDepth>();
inline constexpr auto kAllKinds3 = AllKinds3Binding<kTypedDepth>();
inline constexpr auto kNested = NestedBinding<kTypedDepth>();
inline constexpr auto kNested3 = Nested3Binding<kTypedDepth>();

}  // namespace fairwire::wire::oracle::typed_internal

#endif  // FAIRWIRE_CHECKS_WIRE_TYPED_BINDINGS_H_
