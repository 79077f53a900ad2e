// The typed structs compared with Decode's Message field by field
// (CompareTyped, CompareTypedStatus in wire_typed_subjects.h): values (floats
// bit for bit), presence, counts and unknown-field bytes, each difference
// named by its path from the root.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "fairwire/checks/wire_typed_subjects.h"
#include "fairwire/scenarios/wire_records.h"
#include "wire_typed_bindings.h"
#include "wire_typed_internal.h"

namespace fairwire::wire::oracle {
namespace {

using typed_internal::FieldIndex;
using typed_internal::Shape;
using typed_internal::ValueOf;

// Where a value sits, rendered only when something differs.
struct Path {
  const Path* parent = nullptr;
  std::string_view name;
  std::ptrdiff_t index = -1;
};

FAIRWIRE_TYPED_NO_COVERAGE std::string Render(const Path* path) {
  if (path == nullptr) return "";
  std::string out = Render(path->parent);
  if (!path->name.empty()) {
    if (!out.empty()) out += '.';
    out += path->name;
  }
  if (path->index >= 0) out += "[" + std::to_string(path->index) + "]";
  return out;
}

// A member element and the Message's value are the same (floats bit for bit).
template <typename E, typename V>
FAIRWIRE_TYPED_NO_COVERAGE bool Same(const E& member, const V& value) {
  if constexpr (std::is_floating_point_v<V>) {
    using Bits =
        std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;
    return std::bit_cast<Bits>(static_cast<V>(member)) ==
           std::bit_cast<Bits>(value);
  } else if constexpr (std::is_same_v<V, std::string>) {
    return std::string_view(member) == std::string_view(value);
  } else {
    return member == static_cast<E>(value);
  }
}

template <typename T>
FAIRWIRE_TYPED_NO_COVERAGE std::string Show(const T& value) {
  if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<std::underlying_type_t<T>>(value));
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_floating_point_v<T>) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", static_cast<double>(value));
    return buf;
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    const std::string_view s(value);
    return "\"" +
           records::Hex(
               std::span(reinterpret_cast<const std::uint8_t*>(s.data()),
                         s.size()),
               48) +
           "\" (" + std::to_string(s.size()) + " bytes)";
  } else {
    return std::to_string(value);
  }
}

FAIRWIRE_TYPED_NO_COVERAGE std::string ValueDiff(const Path& path,
                                                 const std::string& typed,
                                                 const std::string& dynamic) {
  return "typed-vs-fairwire-value: " + Render(&path) + ": DecodeInto " + typed +
         ", Decode " + dynamic;
}

FAIRWIRE_TYPED_NO_COVERAGE std::string CountDiff(const Path& path,
                                                 std::size_t typed,
                                                 std::size_t dynamic) {
  return "typed-vs-fairwire-count: " + Render(&path) + ": DecodeInto holds " +
         std::to_string(typed) + " values, Decode " + std::to_string(dynamic);
}

FAIRWIRE_TYPED_NO_COVERAGE std::string PresenceDiff(const Path& path,
                                                    bool typed) {
  return "typed-vs-fairwire-presence: " + Render(&path) + ": DecodeInto " +
         (typed ? "has a value" : "has none") + ", Decode " +
         (typed ? "has none" : "has a value");
}

template <typename M, typename V>
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareValues(
    const M& member, const std::vector<V>& values, const Path& path) {
  if constexpr (Shape<M>::kVector) {
    const std::size_t n = std::min(member.size(), values.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!Same(member[i], values[i])) {
        const Path at{&path, {}, static_cast<std::ptrdiff_t>(i)};
        using E = typename M::value_type;
        return ValueDiff(at, Show(static_cast<E>(member[i])), Show(values[i]));
      }
    }
    if (member.size() != values.size()) {
      return CountDiff(path, member.size(), values.size());
    }
  } else if constexpr (Shape<M>::kOptional) {
    if (member.has_value() != !values.empty()) {
      return PresenceDiff(path, member.has_value());
    }
    if (values.size() > 1) return CountDiff(path, 1, values.size());
    if (member.has_value() && !Same(*member, values[0])) {
      return ValueDiff(path, Show(*member), Show(values[0]));
    }
  } else {
    if (values.size() > 1) return CountDiff(path, 1, values.size());
    const V absent{};
    const V& expected = values.empty() ? absent : values[0];
    if (!Same(member, expected)) {
      return ValueDiff(path, Show(member), Show(expected));
    }
  }
  return std::nullopt;
}

template <typename S, typename... F>
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareBound(
    const Binding<S, F...>& binding, const S& s, const wire::Message& m,
    const Path& path);

template <std::uint32_t N, FieldKind Kind, typename S, typename M,
          bool (*IsValid)(std::int32_t)>
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareField(
    const BoundField<N, Kind, S, M, IsValid>& field, const S& s,
    const wire::Message& m, const Path& parent) {
  const auto index = FieldIndex(m, N);
  if (!index) {
    return "typed-vs-fairwire-schema: " + Render(&parent) + ": field " +
           std::to_string(N) + " is bound but not in the schema";
  }
  const Path path{&parent, m.def().fields[*index].name, -1};
  using V = typename ValueOf<Kind>::Type;
  const auto* values = std::get_if<std::vector<V>>(&m.values(*index));
  if (values == nullptr) {
    return "typed-vs-fairwire-schema: " + Render(&path) +
           ": bound as another kind than the schema's";
  }
  return CompareValues(s.*(field.member), *values, path);
}

template <std::uint32_t N, typename S, typename M, typename B>
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareField(
    const BoundMessage<N, S, M, B>& field, const S& s, const wire::Message& m,
    const Path& parent) {
  const auto index = FieldIndex(m, N);
  if (!index) {
    return "typed-vs-fairwire-schema: " + Render(&parent) + ": field " +
           std::to_string(N) + " is bound but not in the schema";
  }
  const FieldDef& def = m.def().fields[*index];
  const Path path{&parent, def.name, -1};
  const auto* values =
      std::get_if<std::vector<wire::Message>>(&m.values(*index));
  if (values == nullptr) {
    return "typed-vs-fairwire-schema: " + Render(&path) +
           ": bound as a message, the schema's is not";
  }
  const M& member = s.*(field.member);
  if constexpr (Shape<M>::kVector) {
    const std::size_t n = std::min(member.size(), values->size());
    for (std::size_t i = 0; i < n; ++i) {
      const Path at{&path, {}, static_cast<std::ptrdiff_t>(i)};
      if (auto v = CompareBound(field.binding, member[i], (*values)[i], at)) {
        return v;
      }
    }
    if (member.size() != values->size()) {
      return CountDiff(path, member.size(), values->size());
    }
  } else if constexpr (Shape<M>::kOptional) {
    if (member.has_value() != !values->empty()) {
      return PresenceDiff(path, member.has_value());
    }
    if (values->size() > 1) return CountDiff(path, 1, values->size());
    if (member.has_value()) {
      return CompareBound(field.binding, *member, (*values)[0], path);
    }
  } else {
    if (values->size() > 1) return CountDiff(path, 1, values->size());
    if (values->empty()) {
      const wire::Message absent(m.schema(), def.message_index);
      return CompareBound(field.binding, member, absent, path);
    }
    return CompareBound(field.binding, member, (*values)[0], path);
  }
  return std::nullopt;
}

template <typename S, typename... F>
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareBound(
    const Binding<S, F...>& binding, const S& s, const wire::Message& m,
    const Path& path) {
  if (sizeof...(F) != m.def().fields.size()) {
    return "typed-vs-fairwire-schema: " + Render(&path) + ": " +
           std::to_string(sizeof...(F)) + " fields bound, " +
           std::to_string(m.def().fields.size()) + " in the schema";
  }
  std::optional<std::string> diff;
  std::apply(
      [&](const auto&... field) {
        (void)((diff = CompareField(field, s, m, path), !diff.has_value()) &&
               ...);
      },
      binding.fields);
  if (diff) return diff;
  if (binding.unknown != nullptr &&
      s.*(binding.unknown) != m.unknown_fields()) {
    return "typed-vs-fairwire-unknown: " + Render(&path) +
           ": unknown-field bytes differ\n  DecodeInto " +
           Show(s.*(binding.unknown)) + "\n  Decode     " +
           Show(m.unknown_fields());
  }
  return std::nullopt;
}

template <typename S, typename B>
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareRoot(
    const B& binding, const S& s, const wire::Message& m) {
  const std::string& full = m.def().name;
  const Path root{nullptr, std::string_view(full).substr(full.rfind('.') + 1),
                  -1};
  return CompareBound(binding, s, m, root);
}

}  // namespace

FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTyped(
    const typed::AllKinds& typed, const wire::Message& message) {
  return CompareRoot(typed_internal::kAllKinds, typed, message);
}
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTyped(
    const typed::AllKinds3& typed, const wire::Message& message) {
  return CompareRoot(typed_internal::kAllKinds3, typed, message);
}
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTyped(
    const typed::Nested& typed, const wire::Message& message) {
  return CompareRoot(typed_internal::kNested, typed, message);
}
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTyped(
    const typed::Nested3& typed, const wire::Message& message) {
  return CompareRoot(typed_internal::kNested3, typed, message);
}

FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTypedStatus(
    const DecodeStatus& typed, const DecodeStatus& dynamic) {
  if (typed == dynamic) return std::nullopt;
  const char* kind = typed.ok() != dynamic.ok() ? "typed-vs-fairwire-accept: "
                                                : "typed-vs-fairwire-status: ";
  return kind + std::string("DecodeInto ") +
         (typed.ok() ? "accepts" : "rejects (" + ToString(typed) + ")") +
         ", Decode " +
         (dynamic.ok() ? "accepts" : "rejects (" + ToString(dynamic) + ")");
}

}  // namespace fairwire::wire::oracle
