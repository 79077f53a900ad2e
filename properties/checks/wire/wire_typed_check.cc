// The typed bindings' entry points: DecodeTyped (DecodeInto with a fixed
// subject's binding), CheckTyped (against Decode with TypedSchema) and
// DecodeWithTyped (the typed decode as an oracle Verdict).
#include <memory>
#include <optional>
#include <string>

#include "fairwire/checks/wire_typed_subjects.h"
#include "fairwire/wire/decoder.h"
#include "fairwire/wire/serialize.h"
#include "wire_typed_bindings.h"
#include "wire_typed_internal.h"

namespace fairwire::wire::oracle {
namespace {

using typed_internal::TypedSchemaProblem;

template <typename S>
std::optional<std::string> CheckRoot(Fixed which, ByteSpan input) {
  if (auto problem = TypedSchemaProblem(which)) return problem;
  // A fresh struct per input: a failure never depends on an earlier input.
  const auto typed = std::make_unique<S>();
  const DecodeStatus typed_status = DecodeTyped(input, *typed);
  wire::Message m(TypedSchema(which), 0);
  const DecodeStatus dynamic_status = wire::Decode(input, m);
  if (auto v = CompareTypedStatus(typed_status, dynamic_status)) return v;
  if (!typed_status.ok()) return std::nullopt;
  return CompareTyped(*typed, m);
}

template <typename S>
Verdict DecodeRoot(Fixed which, ByteSpan input) {
  Verdict out;
  if (auto problem = TypedSchemaProblem(which)) {
    out.reason = *problem;
    return out;
  }
  const auto typed = std::make_unique<S>();
  const DecodeStatus status = DecodeTyped(input, *typed);
  out.ok = status.ok();
  if (!out.ok) {
    out.reason = ToString(status);
    return out;
  }
  wire::Message m(TypedSchema(which), 0);
  typed_internal::FillMessage(*typed, m);
  out.canonical = wire::Serialize(m);
  return out;
}

}  // namespace

DecodeStatus DecodeTyped(ByteSpan input, typed::AllKinds& out) {
  return DecodeInto(input, typed_internal::kAllKinds, out);
}
DecodeStatus DecodeTyped(ByteSpan input, typed::AllKinds3& out) {
  return DecodeInto(input, typed_internal::kAllKinds3, out);
}
DecodeStatus DecodeTyped(ByteSpan input, typed::Nested& out) {
  return DecodeInto(input, typed_internal::kNested, out);
}
DecodeStatus DecodeTyped(ByteSpan input, typed::Nested3& out) {
  return DecodeInto(input, typed_internal::kNested3, out);
}

std::optional<std::string> CheckTyped(Fixed which, ByteSpan input) {
  switch (which) {
    case Fixed::kAllKinds:
      return CheckRoot<typed::AllKinds>(which, input);
    case Fixed::kAllKinds3:
      return CheckRoot<typed::AllKinds3>(which, input);
    case Fixed::kNested:
      return CheckRoot<typed::Nested>(which, input);
    case Fixed::kNested3:
      return CheckRoot<typed::Nested3>(which, input);
  }
  return "typed-check: unknown subject";
}

Verdict DecodeWithTyped(Fixed which, ByteSpan input) {
  switch (which) {
    case Fixed::kAllKinds:
      return DecodeRoot<typed::AllKinds>(which, input);
    case Fixed::kAllKinds3:
      return DecodeRoot<typed::AllKinds3>(which, input);
    case Fixed::kNested:
      return DecodeRoot<typed::Nested>(which, input);
    case Fixed::kNested3:
      return DecodeRoot<typed::Nested3>(which, input);
  }
  return {};
}

}  // namespace fairwire::wire::oracle
