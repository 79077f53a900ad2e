// The closed-enum check of the typed bindings (binding.h): a user's IsValid
// predicate as the enum check of the shared record loops
// (field_records.h), with its answers for 0..1023 cached as a bitmap for
// the bulk checks and the AVX-512 run kernel's check, and the first far
// members each thread meets remembered for the avx2 bulk check.
#ifndef FAIRWIRE_WIRE_INTERNAL_BOUND_RUN_H_
#define FAIRWIRE_WIRE_INTERNAL_BOUND_RUN_H_

#include <cstddef>
#include <cstdint>

#include "fairwire/wire/internal/enum_avx512.h"
#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/enum_bitmap_avx2.h"
#include "fairwire/wire/internal/enum_bitmap_portable.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/internal/varint_run.h"

namespace fairwire::wire::internal {

// The values in [0, kValidBitmapBits) that IsValid accepts, as an enum
// bitmap, computed on first use (IsValid must be a pure function, as
// generated enum predicates are). A filter: values past it ask IsValid.
inline constexpr std::int32_t kValidBitmapBits = 1024;
template <bool (*IsValid)(std::int32_t)>
const EnumBitmap& ValidBitmap() {
  static const EnumBitmap bitmap = [] {
    EnumBitmap b;
    b.bits.assign(kValidBitmapBits / 64, 0);
    for (std::int32_t v = 0; v < kValidBitmapBits; ++v) {
      if (IsValid(v)) {
        b.bits[static_cast<std::size_t>(v) / 64] |= std::uint64_t{1}
                                                    << (v % 64);
      }
    }
    FillEnumSlots(b);
    return b;
  }();
  return bitmap;
}

// The far members (values past ValidBitmap's span that IsValid accepted)
// that the calling thread's checks have met, the first kHeld of them: the
// avx2 check holds them in registers beside the bitmap, so that a member
// such as 70000 in an enum of 0..7 and 70000 costs a compare, not a call of
// IsValid. Sound because IsValid is a pure function (binding.h); bounded
// (kHeld values per predicate and thread).
struct FarMembersMet {
  static constexpr std::size_t kHeld = 4;
  std::int32_t values[kHeld] = {};
  std::size_t count = 0;

  // Adds v (a far member) if it is new and there is room.
  void Remember(std::int32_t v) {
    for (std::size_t k = 0; k < count; ++k) {
      if (values[k] == v) return;
    }
    if (count < kHeld) values[count++] = v;
  }
};
template <bool (*IsValid)(std::int32_t)>
inline thread_local FarMembersMet far_members_met;

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
static_assert(FarMembersMet::kHeld <= EnumBitmapAvx2::kHeldFar);
#endif

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// AllValid's AVX-512 path.
template <bool (*IsValid)(std::int32_t)>
[[FAIRWIRE_AVX512_TARGET]] bool AllValidAvx512(const std::int32_t* values,
                                               std::size_t count) {
  return AllKnownAvx512(MakeEnumTableAvx512(ValidBitmap<IsValid>()), values,
                        count,
                        [](std::int32_t value) { return IsValid(value); });
}

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
  // True if IsValid accepts all of values[0, count) (DecodeRunBulk).
  bool AllKnown(const std::int32_t* values, std::size_t count) const {
    return AllValidAvx512<IsValid>(values, count);
  }
};
#endif

// True if IsValid accepts every one of values[0, count): by the bitmap of
// ValidBitmap sixteen at a time where the CPU has AVX-512 VBMI, eight at a
// time at the avx2 level (with the far members the thread has met,
// far_members_met) and, in scalar code, at the portable level, asking
// IsValid only about values the bitmap does not hold.
template <bool (*IsValid)(std::int32_t)>
bool AllValid(const std::int32_t* values, std::size_t count) {
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  if (ActiveKernelLevel() == KernelLevel::kAvx512) {
    return AllValidAvx512<IsValid>(values, count);
  }
#endif
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
  if (ActiveKernelLevel() != KernelLevel::kPortable) {
    FarMembersMet& met = far_members_met<IsValid>;
    EnumBitmapView view = ViewOf(ValidBitmap<IsValid>());
    view.far = met.values;
    view.far_count = met.count;
    return AllKnownAvx2(view, values, count, [&met](std::int32_t value) {
      if (!IsValid(value)) return false;
      met.Remember(value);
      return true;
    });
  }
#endif
  return AllKnownPortable(ViewOf(ValidBitmap<IsValid>()), values, count,
                          [](std::int32_t value) { return IsValid(value); });
}

// The enum check (field_records.h) of a closed enum bound with IsValid.
template <bool (*IsValid)(std::int32_t)>
struct PredicateEnumCheck {
  static constexpr bool kMayReject = true;
  static constexpr bool Closed() { return true; }
  static bool Contains(std::int32_t value) { return IsValid(value); }
  static bool ContainsInline(std::int32_t value) { return IsValid(value); }
  // IsValid's answers for 0..1023: values past them go to the record loop.
  static EnumBitmapView InlineBitmap() {
    return ViewOf(ValidBitmap<IsValid>());
  }
  static bool AllKnown(const std::int32_t* values, std::size_t count) {
    return AllValid<IsValid>(values, count);
  }
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  static const PredicateRunCheck<IsValid>* RunCheck() {
    static constexpr PredicateRunCheck<IsValid> kCheck{};
    return &kCheck;
  }
#else
  static const AcceptAllRunCheck* RunCheck() { return nullptr; }
#endif
};

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_BOUND_RUN_H_
