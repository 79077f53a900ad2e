// The bulk closed-enum checks of every kernel level (a packed record's
// values, decoded first, then checked all at once) find an unknown value
// wherever it sits: one unknown value, at every position of every length up
// to 150 (two 64-value blocks of the AVX-512 check, its 16-value steps, the
// avx2 check's groups of four, and every tail), among members from both
// ends of the bitmap and past it. The random properties of
// run_kernel_simd_test.cc rarely build a long run of members with a single
// unknown value in it: a check that skipped a lane there went unseen.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fairwire/wire/internal/bound_run.h"
#include "fairwire/wire/internal/enum_avx512.h"
#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/internal/enum_bitmap_avx2.h"
#include "fairwire/wire/internal/enum_bitmap_portable.h"
#include "fairwire/wire/kernel_level.h"

namespace fairwire::wire::internal {
namespace {

// The enum: in [-3, 1021) every value whose offset from -3 is not 1 mod 3
// (a 1024-bit bitmap, the most the AVX-512 check holds), and four values
// past it (the most it compares directly).
constexpr std::int32_t kBase = -3;
constexpr std::int32_t kBits = 1024;
const std::vector<std::int32_t> kFar = {-100000, 5000, 70000, INT32_MAX};

bool IsMember(std::int32_t v) {
  const std::int64_t offset = std::int64_t{v} - kBase;
  if (offset >= 0 && offset < kBits) return offset % 3 != 1;
  for (std::int32_t f : kFar) {
    if (v == f) return true;
  }
  return false;
}

EnumBitmap Bitmap() {
  EnumBitmap b;
  b.base = kBase;
  b.bits.assign(kBits / 64, 0);
  for (std::int32_t offset = 0; offset < kBits; ++offset) {
    if (IsMember(kBase + offset)) {
      b.bits[static_cast<std::size_t>(offset) / 64] |= std::uint64_t{1}
                                                       << (offset % 64);
    }
  }
  b.outliers = true;
  b.far_values = kFar;
  FillEnumSlots(b);
  return b;
}

// Members from the bitmap's first and last bits, its middle, and past it.
const std::vector<std::int32_t> kMembers = {
    -3, 0, 2, 500, 1020, 17, -100000, 5000, 70000, INT32_MAX};
// Unknown values: a clear bit, one below the bitmap, one past it, a far
// value's neighbour, the extremes.
const std::vector<std::int32_t> kUnknowns = {
    -2, -4, 1021, 1022, 5001, INT32_MIN, INT32_MAX - 1};

struct NamedCheck {
  std::string name;
  std::function<bool(const std::int32_t*, std::size_t)> all_known;
};

bool IsValidForBinding(std::int32_t v) { return IsMember(v); }

// The bulk checks this CPU runs, each level's.
std::vector<NamedCheck> Checks([[maybe_unused]] const EnumBitmap& bitmap) {
  std::vector<NamedCheck> checks;
  for (KernelLevel level : kKernelLevels) {
    if (!CpuSupports(level)) continue;
    // The typed bindings' check of a user's IsValid, at this level.
    checks.push_back({"AllValid@" + std::string(KernelLevelName(level)),
                      [level](const std::int32_t* v, std::size_t n) {
                        ScopedKernelLevel scoped(level);
                        return AllValid<&IsValidForBinding>(v, n);
                      }});
  }
  // The portable check with the bitmap's slot table, and with none (every
  // value of a group then goes to IsMember).
  checks.push_back(
      {"AllKnownPortable", [&bitmap](const std::int32_t* v, std::size_t n) {
         return AllKnownPortable(ViewOf(bitmap), v, n, IsMember);
       }});
  checks.push_back({"AllKnownPortable without slots",
                    [&bitmap](const std::int32_t* v, std::size_t n) {
                      EnumBitmapView view = ViewOf(bitmap);
                      view.slots = nullptr;
                      return AllKnownPortable(view, v, n, IsMember);
                    }});
#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
  if (CpuSupports(KernelLevel::kAvx2)) {
    checks.push_back(
        {"AllKnownAvx2", [&bitmap](const std::int32_t* v, std::size_t n) {
           return AllKnownAvx2(ViewOf(bitmap), v, n, IsMember);
         }});
  }
#endif
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  if (CpuSupports(KernelLevel::kAvx512)) {
    checks.push_back(
        {"AllInEnumAvx512", [&bitmap](const std::int32_t* v, std::size_t n) {
           return AllInEnumAvx512(v, n, bitmap);
         }});
    checks.push_back({"EnumRunCheckAvx512::AllKnown",
                      [&bitmap](const std::int32_t* v, std::size_t n) {
                        return EnumRunCheckAvx512{&bitmap}.AllKnown(v, n);
                      }});
    // With an exact predicate that refuses everything: only the table
    // decides.
    checks.push_back(
        {"AllKnownAvx512", [&bitmap](const std::int32_t* v, std::size_t n) {
           return AllKnownAvx512(MakeEnumTableAvx512(bitmap), v, n,
                                 [](std::int32_t) { return false; });
         }});
  }
#endif
  return checks;
}

TEST(EnumChecks, TheSweepsEnumIsWhatItsBitmapSays) {
  const EnumBitmap bitmap = Bitmap();
  EXPECT_TRUE(FitsEnumAvx512(bitmap));
  for (std::int32_t m : kMembers) EXPECT_TRUE(IsMember(m)) << m;
  for (std::int32_t u : kUnknowns) EXPECT_FALSE(IsMember(u)) << u;
  // Every level the CPU has runs its checks here (none passes vacuously).
  std::size_t expected = 0;
  for (KernelLevel level : kKernelLevels) expected += CpuSupports(level);
  expected += 2;  // AllKnownPortable with and without slots
  expected += CpuSupports(KernelLevel::kAvx2) ? 1 : 0;
  expected += CpuSupports(KernelLevel::kAvx512) ? 3 : 0;
  EXPECT_EQ(Checks(bitmap).size(), expected);
}

TEST(EnumChecks, EveryCheckFindsOneUnknownValueAtEveryPosition) {
  const EnumBitmap bitmap = Bitmap();
  for (const NamedCheck& check : Checks(bitmap)) {
    SCOPED_TRACE(check.name);
    for (std::size_t n = 0; n <= 150; ++n) {
      std::vector<std::int32_t> values(n);
      for (std::size_t i = 0; i < n; ++i) {
        values[i] = kMembers[(i * 7 + n) % kMembers.size()];
      }
      // An exact-size vector: a read past the values is an ASan failure.
      ASSERT_TRUE(check.all_known(values.data(), n)) << n << " members";
      for (std::size_t pos = 0; pos < n; ++pos) {
        std::vector<std::int32_t> with_unknown = values;
        with_unknown[pos] = kUnknowns[(pos + n) % kUnknowns.size()];
        ASSERT_FALSE(check.all_known(with_unknown.data(), n))
            << "unknown " << with_unknown[pos] << " at " << pos << " of " << n;
      }
    }
  }
}

// What a check holds of a view: the bitmap's members and its first
// `held_far` far values.
bool HeldMember(const EnumBitmapView& view, std::int32_t v,
                std::size_t held_far) {
  const std::int64_t offset = std::int64_t{v} - view.base;  // no overflow
  if (offset >= 0 && static_cast<std::uint64_t>(offset) < view.span &&
      ((view.bits[offset / 64] >> (offset % 64)) & 1) != 0) {
    return true;
  }
  for (std::size_t k = 0; k < std::min(view.far_count, held_far); ++k) {
    if (view.far[k] == v) return true;
  }
  return false;
}

// The bitmaps the exactness tests read: the sweep's (1024 bits, four far
// values), one of the 4096 bits a schema builds, one of 64 bits with more
// far values than a check holds, and an empty one.
std::vector<EnumBitmap> ExactnessBitmaps() {
  std::vector<EnumBitmap> bitmaps(4);
  bitmaps[0] = Bitmap();
  bitmaps[1].base = 100;
  bitmaps[1].bits.assign(4096 / 64, 0);
  for (std::size_t i = 0; i < 4096; i += 5) {
    bitmaps[1].bits[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  bitmaps[1].bits.back() |= std::uint64_t{1} << 63;  // the last bit
  bitmaps[1].far_values = {-7, 9000};
  bitmaps[2].base = 0;
  // 110 and 120 are more far values than the avx2 check holds; in a slot
  // table of 64 slots, 64 shares member 0's slot and 134 shares 70's.
  bitmaps[2].bits = {0x8000000000000005ull};
  bitmaps[2].far_values = {64, 70, 80, 90, 100, 110, 120, 134};
  bitmaps[3].far_values = {-1, 42};  // no bitmap at all
  for (EnumBitmap& b : bitmaps) FillEnumSlots(b);
  return bitmaps;
}

// The values whose membership the exactness tests ask of a view: both ends
// of its bitmap and just past them, its middle, the int32 extremes, and
// each far value with its neighbours.
std::vector<std::int32_t> Candidates(const EnumBitmapView& view) {
  const std::int64_t base = view.base;
  const auto span = static_cast<std::int64_t>(view.span);
  std::vector<std::int64_t> wide = {base - 1,        base,
                                    base + 1,        base + 2,
                                    base + 5,        base + span / 2,
                                    base + span - 1, base + span,
                                    INT32_MIN,       INT32_MAX};
  for (std::size_t k = 0; k < view.far_count; ++k) {
    const std::int64_t f = view.far[k];
    wide.insert(wide.end(), {f - 1, f, f + 1});
  }
  std::vector<std::int32_t> candidates;
  for (std::int64_t w : wide) {
    if (w >= INT32_MIN && w <= INT32_MAX) {
      candidates.push_back(static_cast<std::int32_t>(w));
    }
  }
  return candidates;
}

// What a slot table (FillEnumSlots) holds of a view: every member of its
// bitmap, and each far value, in order, whose slot (its offset from the
// base modulo the table's size) no member and no far value before it has.
bool SlotHeld(const EnumBitmapView& view, std::int32_t v) {
  const std::uint64_t size = std::uint64_t{view.slot_mask} + 1;
  const auto slot = [&](std::int32_t x) {
    const std::int64_t offset = std::int64_t{x} - view.base;
    return static_cast<std::uint64_t>(
        ((offset % static_cast<std::int64_t>(size)) +
         static_cast<std::int64_t>(size)) %
        static_cast<std::int64_t>(size));
  };
  const auto in_bitmap = [&](std::uint64_t offset) {
    return offset < view.span &&
           ((view.bits[offset / 64] >> (offset % 64)) & 1) != 0;
  };
  if (HeldMember(view, v, 0)) return true;
  for (std::size_t k = 0; k < view.far_count; ++k) {
    const std::uint64_t s = slot(view.far[k]);
    bool taken = in_bitmap(s);
    for (std::size_t j = 0; j < k; ++j) taken |= slot(view.far[j]) == s;
    if (!taken && view.far[k] == v) return true;
  }
  return false;
}

// The portable level's membership test answers exactly what its slot table
// holds, for every bitmap of ExactnessBitmaps (the far values that share a
// slot among them), and a view without a table holds nothing.
TEST(EnumChecks, ThePortableSlotsAnswerExactly) {
  for (const EnumBitmap& b : ExactnessBitmaps()) {
    EnumBitmapView view = ViewOf(b);
    SCOPED_TRACE("bitmap of " + std::to_string(view.span) + " bits from " +
                 std::to_string(view.base));
    ASSERT_NE(view.slots, nullptr);
    ASSERT_GE(std::uint64_t{view.slot_mask} + 1,
              std::max<std::uint64_t>(view.span, 2));
    const PortableEnumSlots slots(view);
    std::size_t held = 0;
    for (std::int32_t v : Candidates(view)) {
      EXPECT_EQ(slots.Holds(v), SlotHeld(view, v)) << v;
      held += SlotHeld(view, v) ? 1 : 0;
    }
    EXPECT_GT(held, 0u);
    view.slots = nullptr;
    const PortableEnumSlots none(view);
    for (std::int32_t v : Candidates(view)) EXPECT_FALSE(none.Holds(v)) << v;
    for (std::int32_t v : {0, 1, 2, 3}) EXPECT_FALSE(none.Holds(v)) << v;
  }
  // The bitmap of 64 bits: 64 and 134 share a slot, the other far values
  // have their own.
  const std::vector<EnumBitmap> bitmaps = ExactnessBitmaps();
  const PortableEnumSlots slots(ViewOf(bitmaps[2]));
  for (std::int32_t v : {0, 2, 63, 70, 80, 90, 100, 110, 120}) {
    EXPECT_TRUE(slots.Holds(v)) << v;
  }
  EXPECT_FALSE(slots.Holds(64));
  EXPECT_FALSE(slots.Holds(134));
  EXPECT_FALSE(slots.Holds(1));
}

#ifdef FAIRWIRE_WIRE_HAVE_AVX2_PATH
// EnumBitmapAvx2::MemberLanes of eight values.
[[FAIRWIRE_AVX2_TARGET]] unsigned Avx2MemberLanes(
    const EnumBitmapAvx2& bitmap, const std::int32_t (&lanes)[8]) {
  return bitmap.MemberLanes(
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lanes)));
}

[[FAIRWIRE_AVX2_TARGET]] std::size_t Avx2MembersBefore(
    const EnumBitmapAvx2& bitmap, const std::int32_t* values,
    std::size_t count) {
  return bitmap.MembersBefore(values, count);
}

// The avx2 level's membership filter answers exactly, not only safely: a
// group of members is recognised as such (a filter that said "not all
// members" too often would only be slower, which no verdict shows), for a
// bitmap held in registers (at most 1024 bits), one read by gathers (up to
// the 4096 bits a schema builds), one of 64 bits with more far values than
// it holds, and an empty one; MembersBefore finds the first value not held
// at every position, and reads nothing past its values.
TEST(EnumChecks, TheAvx2BitmapAnswersExactly) {
  if (!CpuSupports(KernelLevel::kAvx2)) {
    GTEST_SKIP() << "avx2 level untested: this CPU cannot run it";
  }
  for (const EnumBitmap& b : ExactnessBitmaps()) {
    const EnumBitmapView view = ViewOf(b);
    SCOPED_TRACE("bitmap of " + std::to_string(view.span) + " bits from " +
                 std::to_string(view.base));
    const EnumBitmapAvx2 avx2(view);
    constexpr std::size_t kHeld = EnumBitmapAvx2::kHeldFar;
    const std::vector<std::int32_t> candidates = Candidates(view);
    std::vector<std::int32_t> members;
    for (std::int32_t v : candidates) {
      if (HeldMember(view, v, kHeld)) members.push_back(v);
    }
    ASSERT_FALSE(members.empty());
    std::int32_t outsider = INT32_MIN;
    while (HeldMember(view, outsider, kHeld)) ++outsider;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      for (unsigned lane = 0; lane < 8; ++lane) {
        std::int32_t lanes[8];
        for (unsigned k = 0; k < 8; ++k) {
          lanes[k] = members[(c + k) % members.size()];
        }
        ASSERT_EQ(Avx2MemberLanes(avx2, lanes), 0xFFu);
        lanes[lane] = candidates[c];
        const unsigned held = HeldMember(view, candidates[c], kHeld) ? 1u : 0u;
        ASSERT_EQ(Avx2MemberLanes(avx2, lanes), 0xFFu & ~((1u - held) << lane))
            << candidates[c] << " in lane " << lane;
        lanes[lane] = outsider;
        ASSERT_EQ(Avx2MemberLanes(avx2, lanes), 0xFFu & ~(1u << lane))
            << "the outsider " << outsider << " in lane " << lane;
      }
    }
    // MembersBefore: the position of the first value not held, in runs of
    // every length to 20 (each in a vector of its own size, so that ASan
    // sees a read past it), or the length when every value is held.
    for (std::size_t count = 0; count <= 20; ++count) {
      std::vector<std::int32_t> values(count);
      for (std::size_t k = 0; k < count; ++k) {
        values[k] = members[k % members.size()];
      }
      ASSERT_EQ(Avx2MembersBefore(avx2, values.data(), count), count);
      for (std::size_t pos = 0; pos < count; ++pos) {
        std::vector<std::int32_t> with = values;
        with[pos] = outsider;
        ASSERT_EQ(Avx2MembersBefore(avx2, with.data(), count), pos)
            << "the outsider at " << pos << " of " << count;
      }
    }
  }
}
#endif

// The AVX-512 check holds an enum of at most 1024 bitmap bits and four far
// values, and no more: a bigger one goes to the avx2 check.
TEST(EnumChecks, TheAvx512CheckHoldsUpTo1024BitsAndFourFarValues) {
  EnumBitmap b = Bitmap();
  EXPECT_TRUE(FitsEnumAvx512(b));
  b.bits.push_back(0);
  EXPECT_FALSE(FitsEnumAvx512(b)) << "17 words";
  b.bits.pop_back();
  b.far_values.push_back(INT32_MAX);
  EXPECT_FALSE(FitsEnumAvx512(b)) << "five far values";
}

}  // namespace
}  // namespace fairwire::wire::internal
