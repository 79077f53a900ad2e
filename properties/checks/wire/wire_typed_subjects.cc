#include "fairwire/checks/wire_typed_subjects.h"

#include <array>
#include <bit>
#include <cstdio>
#include <map>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "fairwire/scenarios/wire_records.h"
#include "fairwire/wire/binding.h"
#include "fairwire/wire/decoder.h"
#include "fairwire/wire/serialize.h"
#include "fairwire_test.pb.h"

namespace fairwire::wire::oracle {
namespace {

// The comparison is the oracle, not code under test: it is left out of
// libFuzzer's coverage (and comparison tracing), which stays on the decoders
// and costs most of the check's time when applied to it.
#if defined(__clang__) && __clang_major__ >= 13
#define FAIRWIRE_TYPED_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FAIRWIRE_TYPED_NO_COVERAGE
#endif

using K = FieldKind;

// Closed-enum membership as libprotobuf's generated code decides it.
bool IsColor(std::int32_t value) {
  return ::fairwire::test::Color_IsValid(value);
}

// --- Bindings ---------------------------------------------------------------
// Each builder binds the fields of its type; message fields only above the
// bottom level (R > 0), to the bindings one level down.

template <int R>
constexpr auto NestedBinding() {
  using S = typed::NestedT<R>;
  auto make = [](auto... extra) {
    return MakeBinding<S>(Bind<1, K::kInt32>(&S::id),
                          Bind<2, K::kSint64>(&S::deltas),
                          Bind<3, K::kString>(&S::label),
                          BindClosedEnum<4, &IsColor>(&S::color), extra...)
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
                          Bind<3, K::kEnum>(&S::shades), extra...)
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

constexpr auto kAllKinds = AllKindsBinding<kTypedDepth>();
constexpr auto kAllKinds3 = AllKinds3Binding<kTypedDepth>();
constexpr auto kNested = NestedBinding<kTypedDepth>();
constexpr auto kNested3 = Nested3Binding<kTypedDepth>();

// --- The unrolled dynamic schema --------------------------------------------

// Copies `full`'s message types reachable from message 0 as the typed structs
// see them: type t at R levels above the bottom is (t, R); its message
// fields point to (u, R - 1) and are left out at R == 0.
class Unroller {
 public:
  explicit Unroller(const wire::Schema& full) : full_(full) {
    for (const EnumDef& e : full.enums()) builder_.AddEnum(e);
  }

  std::int32_t Add(std::int32_t type, int levels) {
    const auto key = std::make_pair(type, levels);
    if (const auto it = made_.find(key); it != made_.end()) return it->second;
    const MessageDef& def = full_.messages()[static_cast<std::size_t>(type)];
    std::string name = def.name;
    if (levels != kTypedDepth) name += "@" + std::to_string(levels);
    const std::int32_t index = builder_.AddMessage(std::move(name));
    made_.emplace(key, index);
    for (FieldDef field : def.fields) {
      if (field.kind == FieldKind::kMessage) {
        if (levels == 0) continue;
        field.message_index = Add(field.message_index, levels - 1);
      }
      builder_.AddField(index, std::move(field));
    }
    return index;
  }

  std::optional<wire::Schema> Build(SchemaError* error) {
    return std::move(builder_).Build(error);
  }

 private:
  const wire::Schema& full_;
  SchemaBuilder builder_;
  std::map<std::pair<std::int32_t, int>, std::int32_t> made_;
};

struct TypedSchemas {
  std::array<std::optional<wire::Schema>, kFixedCount> schemas;
  std::array<std::string, kFixedCount> errors;
};

const TypedSchemas& AllTypedSchemas() {
  static const TypedSchemas* const all = [] {
    auto* t = new TypedSchemas();
    for (int i = 0; i < kFixedCount; ++i) {
      const Subject& subject = FixedSubject(static_cast<Fixed>(i));
      if (!subject.fairwire) {
        t->errors[i] = "adapter refused " + subject.name;
        continue;
      }
      Unroller unroller(*subject.fairwire);
      unroller.Add(0, kTypedDepth);
      SchemaError error;
      t->schemas[i] = unroller.Build(&error);
      t->errors[i] = error.message;
    }
    return t;
  }();
  return *all;
}

// --- Field-by-field comparison ----------------------------------------------

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

FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::size_t> FieldIndex(
    const wire::Message& m, std::uint32_t number) {
  const FieldDef* field = m.schema().FindField(m.message_index(), number);
  if (field == nullptr) return std::nullopt;
  return static_cast<std::size_t>(field - m.def().fields.data());
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
FAIRWIRE_TYPED_NO_COVERAGE FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string>
CompareField(const BoundMessage<N, S, M, B>& field, const S& s,
             const wire::Message& m, const Path& parent) {
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

// --- Typed struct to Message ------------------------------------------------

template <typename V, typename E>
FAIRWIRE_TYPED_NO_COVERAGE V ToValue(const E& member) {
  if constexpr (std::is_same_v<V, std::string>) {
    return V(std::string_view(member));
  } else {
    return static_cast<V>(member);
  }
}

template <typename S, typename... F>
FAIRWIRE_TYPED_NO_COVERAGE void Fill(const Binding<S, F...>& binding,
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
    Fill(field.binding, element, values.back());
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
FAIRWIRE_TYPED_NO_COVERAGE void Fill(const Binding<S, F...>& binding,
                                     const S& s, wire::Message& m) {
  std::apply([&](const auto&... field) { (FillField(field, s, m), ...); },
             binding.fields);
  if (binding.unknown != nullptr) {
    m.mutable_unknown_fields() = s.*(binding.unknown);
  }
}

// --- Checks -----------------------------------------------------------------

std::optional<std::string> SchemaProblem(Fixed which) {
  const auto i = static_cast<std::size_t>(which);
  if (AllTypedSchemas().schemas[i]) return std::nullopt;
  return "typed-schema-refused: " + AllTypedSchemas().errors[i];
}

template <typename S, typename B>
std::optional<std::string> CheckRoot(Fixed which, const B& binding,
                                     ByteSpan input) {
  if (auto problem = SchemaProblem(which)) return problem;
  // A fresh struct per input: a failure never depends on an earlier input.
  const auto typed = std::make_unique<S>();
  const DecodeStatus typed_status = DecodeInto(input, binding, *typed);
  wire::Message m(TypedSchema(which), 0);
  const DecodeStatus dynamic_status = wire::Decode(input, m);
  if (auto v = CompareTypedStatus(typed_status, dynamic_status)) return v;
  if (!typed_status.ok()) return std::nullopt;
  return CompareRoot(binding, *typed, m);
}

template <typename S, typename B>
Verdict DecodeRoot(Fixed which, const B& binding, ByteSpan input) {
  Verdict out;
  if (auto problem = SchemaProblem(which)) {
    out.reason = *problem;
    return out;
  }
  const auto typed = std::make_unique<S>();
  const DecodeStatus status = DecodeInto(input, binding, *typed);
  out.ok = status.ok();
  if (!out.ok) {
    out.reason = ToString(status);
    return out;
  }
  wire::Message m(TypedSchema(which), 0);
  Fill(binding, *typed, m);
  out.canonical = wire::Serialize(m);
  return out;
}

}  // namespace

const wire::Schema& TypedSchema(Fixed which) {
  return *AllTypedSchemas().schemas[static_cast<std::size_t>(which)];
}

DecodeStatus DecodeTyped(ByteSpan input, typed::AllKinds& out) {
  return DecodeInto(input, kAllKinds, out);
}
DecodeStatus DecodeTyped(ByteSpan input, typed::AllKinds3& out) {
  return DecodeInto(input, kAllKinds3, out);
}
DecodeStatus DecodeTyped(ByteSpan input, typed::Nested& out) {
  return DecodeInto(input, kNested, out);
}
DecodeStatus DecodeTyped(ByteSpan input, typed::Nested3& out) {
  return DecodeInto(input, kNested3, out);
}

FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTyped(
    const typed::AllKinds& typed, const wire::Message& message) {
  return CompareRoot(kAllKinds, typed, message);
}
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTyped(
    const typed::AllKinds3& typed, const wire::Message& message) {
  return CompareRoot(kAllKinds3, typed, message);
}
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTyped(
    const typed::Nested& typed, const wire::Message& message) {
  return CompareRoot(kNested, typed, message);
}
FAIRWIRE_TYPED_NO_COVERAGE std::optional<std::string> CompareTyped(
    const typed::Nested3& typed, const wire::Message& message) {
  return CompareRoot(kNested3, typed, message);
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

std::optional<std::string> CheckTyped(Fixed which, ByteSpan input) {
  switch (which) {
    case Fixed::kAllKinds:
      return CheckRoot<typed::AllKinds>(which, kAllKinds, input);
    case Fixed::kAllKinds3:
      return CheckRoot<typed::AllKinds3>(which, kAllKinds3, input);
    case Fixed::kNested:
      return CheckRoot<typed::Nested>(which, kNested, input);
    case Fixed::kNested3:
      return CheckRoot<typed::Nested3>(which, kNested3, input);
  }
  return "typed-check: unknown subject";
}

Verdict DecodeWithTyped(Fixed which, ByteSpan input) {
  switch (which) {
    case Fixed::kAllKinds:
      return DecodeRoot<typed::AllKinds>(which, kAllKinds, input);
    case Fixed::kAllKinds3:
      return DecodeRoot<typed::AllKinds3>(which, kAllKinds3, input);
    case Fixed::kNested:
      return DecodeRoot<typed::Nested>(which, kNested, input);
    case Fixed::kNested3:
      return DecodeRoot<typed::Nested3>(which, kNested3, input);
  }
  return {};
}

}  // namespace fairwire::wire::oracle
