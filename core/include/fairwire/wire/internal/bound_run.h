// Runs of unpacked varint records for the typed bindings (binding.h): the
// shared run parser (varint_run.h) with a closed enum's IsValid predicate
// as the keep rule and as the AVX-512 kernel's check.
#ifndef FAIRWIRE_WIRE_INTERNAL_BOUND_RUN_H_
#define FAIRWIRE_WIRE_INTERNAL_BOUND_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/varint_run.h"

namespace fairwire::wire::internal {

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// The run kernel's check for a closed enum bound with IsValid: the values
// leave the register through an aligned (forwardable) store.
template <bool (*IsValid)(std::int32_t)>
struct PredicateRunCheck {
  static constexpr bool kChecks = true;
  struct State {};
  State Start() const { return {}; }
  [[FAIRWIRE_AVX512_TARGET]] unsigned Accept(const State&, __m512i raw,
                                             unsigned lanes) const {
    alignas(64) std::int64_t values[8];
    _mm512_store_si512(values, raw);
    for (unsigned i = 0; i < lanes; ++i) {
      if (!IsValid(static_cast<std::int32_t>(values[i]))) return i;
    }
    return lanes;
  }
};
#endif

// A run of unpacked records of repeated varint field N (kind K) with the
// one-byte tag `tag_byte`, p at the first value, into `member`.
template <std::uint32_t N, FieldKind K, bool (*IsValid)(std::int32_t)>
const std::uint8_t* ParseBoundRun(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& member,
    std::string* unknown) {
  if constexpr (IsValid != nullptr) {
    const auto keep = [unknown](std::int32_t value) {
      if (IsValid(value)) return true;
      if (unknown != nullptr) {
        AppendVarintRecord(N, static_cast<std::uint64_t>(std::int64_t{value}),
                           unknown);
      }
      return false;
    };
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
    static constexpr PredicateRunCheck<IsValid> kCheck{};
    return ParseVarintRun<K>(ctx, p, end, tag_byte, member, keep, &kCheck);
#else
    return ParseVarintRun<K>(ctx, p, end, tag_byte, member, keep,
                             static_cast<const AcceptAllRunCheck*>(nullptr));
#endif
  } else {
    static constexpr AcceptAllRunCheck kAcceptAll{};
    return ParseVarintRun<K>(
        ctx, p, end, tag_byte, member,
        [](typename KindTraits<K>::Type) { return true; }, &kAcceptAll);
  }
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_BOUND_RUN_H_
