// A typed struct copied into a Message of TypedSchema (FillMessage in
// wire_typed_internal.h), so that DecodeWithTyped can re-serialise what
// DecodeInto made with Serialize.
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include "wire_typed_bindings.h"
#include "wire_typed_internal.h"

namespace fairwire::wire::oracle::typed_internal {
namespace {

template <typename V, typename E>
FAIRWIRE_TYPED_NO_COVERAGE V ToValue(const E& member) {
  if constexpr (std::is_same_v<V, std::string>) {
    return V(std::string_view(member));
  } else {
    return static_cast<V>(member);
  }
}

template <typename S, typename... F>
FAIRWIRE_TYPED_NO_COVERAGE void FillBound(const Binding<S, F...>& binding,
                                          const S& s, wire::Message& m);

template <std::uint32_t N, FieldKind Kind, typename S, typename M,
          bool (*IsValid)(std::int32_t)>
FAIRWIRE_TYPED_NO_COVERAGE void FillField(
    const BoundField<N, Kind, S, M, IsValid>& field, const S& s,
    wire::Message& m) {
  using V = typename ValueOf<Kind>::Type;
  auto& values = std::get<std::vector<V>>(m.mutable_values(*FieldIndex(m, N)));
  const M& member = s.*(field.member);
  if constexpr (Shape<M>::kVector) {
    for (std::size_t i = 0; i < member.size(); ++i) {
      values.push_back(
          ToValue<V>(static_cast<typename M::value_type>(member[i])));
    }
  } else if constexpr (Shape<M>::kOptional) {
    if (member.has_value()) values.push_back(ToValue<V>(*member));
  } else {
    values.push_back(ToValue<V>(member));
  }
}

template <std::uint32_t N, typename S, typename M, typename B>
FAIRWIRE_TYPED_NO_COVERAGE void FillField(const BoundMessage<N, S, M, B>& field,
                                          const S& s, wire::Message& m) {
  const std::size_t index = *FieldIndex(m, N);
  const std::int32_t type = m.def().fields[index].message_index;
  auto& values = std::get<std::vector<wire::Message>>(m.mutable_values(index));
  const M& member = s.*(field.member);
  auto add = [&](const auto& element) {
    values.emplace_back(m.schema(), type);
    FillBound(field.binding, element, values.back());
  };
  if constexpr (Shape<M>::kVector) {
    for (const auto& element : member) add(element);
  } else if constexpr (Shape<M>::kOptional) {
    if (member.has_value()) add(*member);
  } else {
    add(member);
  }
}

template <typename S, typename... F>
FAIRWIRE_TYPED_NO_COVERAGE void FillBound(const Binding<S, F...>& binding,
                                          const S& s, wire::Message& m) {
  std::apply([&](const auto&... field) { (FillField(field, s, m), ...); },
             binding.fields);
  if (binding.unknown != nullptr) {
    m.mutable_unknown_fields() = s.*(binding.unknown);
  }
}

}  // namespace

FAIRWIRE_TYPED_NO_COVERAGE void FillMessage(const typed::AllKinds& s,
                                            wire::Message& m) {
  FillBound(kAllKinds, s, m);
}
FAIRWIRE_TYPED_NO_COVERAGE void FillMessage(const typed::AllKinds3& s,
                                            wire::Message& m) {
  FillBound(kAllKinds3, s, m);
}
FAIRWIRE_TYPED_NO_COVERAGE void FillMessage(const typed::Nested& s,
                                            wire::Message& m) {
  FillBound(kNested, s, m);
}
FAIRWIRE_TYPED_NO_COVERAGE void FillMessage(const typed::Nested3& s,
                                            wire::Message& m) {
  FillBound(kNested3, s, m);
}

}  // namespace fairwire::wire::oracle::typed_internal
