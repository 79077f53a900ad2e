// The decoder never allocates more than a small constant factor of its
// input's size: this binary replaces the global operator new/delete with a
// counting allocator and measures the peak of live bytes during Decode.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <variant>
#include <vector>

#include "fairwire/wire/decoder.h"
#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/writer.h"
#include "test_schema.h"

namespace {

std::size_t live_bytes = 0;
std::size_t peak_bytes = 0;
// Every allocation counts; while `recording`, the first kRecorded sizes are
// kept in order (in a fixed array: recording must not allocate).
std::size_t allocations = 0;
constexpr std::size_t kRecorded = 512;
std::size_t recorded_sizes[kRecorded];
std::size_t recorded = 0;
bool recording = false;

// Each block carries its size in a 16-byte header (keeps 16-byte alignment).
constexpr std::size_t kHeader = 16;

void* CountedAllocNoThrow(std::size_t size) noexcept {
  void* block = std::malloc(size + kHeader);
  if (block == nullptr) return nullptr;
  *static_cast<std::size_t*>(block) = size;
  ++allocations;
  if (recording && recorded < kRecorded) recorded_sizes[recorded++] = size;
  live_bytes += size;
  if (live_bytes > peak_bytes) peak_bytes = live_bytes;
  return static_cast<char*>(block) + kHeader;
}

void* CountedAlloc(std::size_t size) {
  void* p = CountedAllocNoThrow(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void CountedFree(void* p) {
  if (p == nullptr) return;
  void* block = static_cast<char*>(p) - kHeader;
  live_bytes -= *static_cast<std::size_t*>(block);
  std::free(block);
}

}  // namespace

void* operator new(std::size_t size) { return CountedAlloc(size); }
void* operator new[](std::size_t size) { return CountedAlloc(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return CountedAllocNoThrow(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return CountedAllocNoThrow(size);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  CountedFree(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  CountedFree(p);
}
void operator delete(void* p) noexcept { CountedFree(p); }
void operator delete[](void* p) noexcept { CountedFree(p); }
void operator delete(void* p, std::size_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::size_t) noexcept { CountedFree(p); }

namespace fairwire::wire {
namespace {

using testing::B;

// Decodes `input` into a fresh root message; returns the peak of bytes
// allocated during the decode (beyond those live before it).
std::size_t PeakDuringDecode(const Schema& schema,
                             const std::vector<std::uint8_t>& input,
                             DecodeStatus* status) {
  Message msg(schema, testing::kRoot);
  const std::size_t base = live_bytes;
  peak_bytes = live_bytes;
  *status = Decode(input, msg);
  return peak_bytes - base;
}

TEST(AllocTest, TenByteInputClaimingTwoGiBPackedFieldFailsWithoutAllocating) {
  const Schema schema = testing::MakeTestSchema();
  // Field 2 (packed int64), length 2^31 - 1, then 4 bytes of payload.
  const auto input = B({0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 1, 2, 3, 4});
  DecodeStatus status;
  const std::size_t peak = PeakDuringDecode(schema, input, &status);
  EXPECT_EQ(status, (DecodeStatus{DecodeError::kLengthPastEnd, 1}));
  EXPECT_EQ(peak, 0u);
}

TEST(AllocTest, TruncatedPackedRecordsAllocateNothing) {
  const Schema schema = testing::MakeTestSchema();
  for (auto input : {B({0x32, 0xFC, 0xFF, 0xFF, 0xFF, 0x07, 0, 0, 0, 0}),
                     B({0x1A, 0x80, 0x80, 0x80, 0x80, 0x07, 1, 1, 1, 1}),
                     B({0x5A, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x08, 0x01})}) {
    DecodeStatus status;
    EXPECT_EQ(PeakDuringDecode(schema, input, &status), 0u);
    EXPECT_EQ(status.error, DecodeError::kLengthPastEnd);
  }
}

// Valid inputs of every shape that turns few bytes into many: the peak stays
// below `factor` times the input size (plus a small constant for the first
// allocations).
TEST(AllocTest, ValidInputsAllocateAConstantFactorOfTheirSize) {
  const Schema schema = testing::MakeTestSchema();
  struct Case {
    const char* name;
    std::string bytes;
    std::size_t factor;
  };
  std::vector<Case> cases;
  {
    Writer w;  // one packed record of 100000 one-byte int64 elements
    std::vector<std::int64_t> v(100000, 1);
    w.WritePacked(testing::kPackedInt64, FieldKind::kInt64,
                  std::span<const std::int64_t>(v));
    cases.push_back({"packed int64", std::move(w).Take(), 9});
  }
  {
    Writer w;  // 50000 unpacked two-byte records
    for (int i = 0; i < 50000; ++i) w.WriteInt64(testing::kPackedInt64, 1);
    cases.push_back({"unpacked int64", std::move(w).Take(), 13});
  }
  {
    Writer w;  // 50000 empty strings
    for (int i = 0; i < 50000; ++i) w.WriteBytes(testing::kBlobs, "");
    cases.push_back({"empty bytes", std::move(w).Take(), 50});
  }
  {
    Writer w;  // 50000 empty nested messages
    for (int i = 0; i < 50000; ++i) w.WriteMessage(testing::kChildren, "");
    cases.push_back({"empty messages", std::move(w).Take(), 200});
  }
  {
    Writer w;  // 50000 unknown closed-enum values, packed
    std::vector<std::int32_t> v(50000, 9);
    w.WritePacked(testing::kColors, FieldKind::kEnum,
                  std::span<const std::int32_t>(v));
    cases.push_back({"closed enum unknowns", std::move(w).Take(), 8});
  }
  for (const Case& c : cases) {
    DecodeStatus status;
    const std::size_t peak = PeakDuringDecode(schema, B(c.bytes), &status);
    ASSERT_TRUE(status.ok()) << c.name << ": " << ToString(status);
    std::printf(
        "%-22s input %7zu bytes, peak %8zu bytes (%.1fx)\n", c.name,
        c.bytes.size(), peak,
        static_cast<double>(peak) / static_cast<double>(c.bytes.size()));
    EXPECT_LE(peak, c.factor * c.bytes.size() + 4096) << c.name;
  }
}

// Decoding into the same message again reuses the buffer of a singular
// string that Clear() kept aside: once the message has held the string (and
// been cleared once), a decode of a string of the same length allocates
// nothing.
TEST(AllocTest, DecodingAgainReusesASingularStringsBuffer) {
  const Schema schema = testing::MakeTestSchema();
  Writer w;  // field 8 (optional string) of 100 bytes: past any inline buffer
  w.WriteString(testing::kText2, std::string(100, 'x'));
  const std::vector<std::uint8_t> input = B(w.data());
  Message msg(schema, testing::kRoot);
  const std::size_t index = static_cast<std::size_t>(
      schema.FindField(testing::kRoot, testing::kText2) -
      msg.def().fields.data());
  for (int i = 0; i < 3; ++i) {
    const std::size_t before = allocations;
    ASSERT_TRUE(Decode(input, msg).ok());
    const std::size_t allocated = allocations - before;
    ASSERT_EQ(std::get<std::vector<std::string>>(msg.values(index)),
              std::vector<std::string>{std::string(100, 'x')});
    if (i == 2) {
      EXPECT_EQ(allocated, 0u) << "the third decode allocated";
    }
  }
}

// The sizes of the blocks allocated, in order, while `decode` runs.
template <typename Decode>
std::vector<std::size_t> AllocationsDuring(const Decode& decode) {
  recorded = 0;
  recording = true;
  decode();
  recording = false;
  return std::vector<std::size_t>(recorded_sizes, recorded_sizes + recorded);
}

// DecodeOptions::kernel decides the level of its call, over the level the
// thread has forced. A long unpacked run shows the level in its allocations
// (the AVX-512 kernel grows its output by chunks, the others append blocks
// of buffered values): with options of level L inside a scope of another
// level, the decode allocates exactly as one at level L.
TEST(AllocTest, DecodeOptionsKernelDecidesTheLevelOfTheCall) {
  const Schema schema = testing::MakeTestSchema();
  Writer w;  // 3000 unpacked records of field 2, values of 1 to 3 bytes
  for (int i = 0; i < 3000; ++i) {
    w.WriteInt64(testing::kPackedInt64, (i % 3 == 0) ? i * 7 : i % 100);
  }
  const std::vector<std::uint8_t> input = B(w.data());
  std::vector<KernelLevel> levels;
  for (const KernelLevel level : kKernelLevels) {
    if (CpuSupports(level)) levels.push_back(level);
  }
  std::vector<std::vector<std::size_t>> at_level;
  for (const KernelLevel level : levels) {
    const ScopedKernelLevel forced(level);
    Message msg(schema, testing::kRoot);
    at_level.push_back(
        AllocationsDuring([&] { ASSERT_TRUE(Decode(input, msg).ok()); }));
  }
  bool told_apart = false;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    for (std::size_t m = 0; m < levels.size(); ++m) {
      if (m == l) continue;
      told_apart |= at_level[l] != at_level[m];
      const ScopedKernelLevel outer(levels[m]);
      Message msg(schema, testing::kRoot);
      const std::vector<std::size_t> got = AllocationsDuring([&] {
        ASSERT_TRUE(
            Decode(input, msg, DecodeOptions{.kernel = levels[l]}).ok());
      });
      EXPECT_EQ(got, at_level[l])
          << "options " << KernelLevelName(levels[l]) << " in a scope of "
          << KernelLevelName(levels[m]);
    }
  }
  if (!told_apart) {
    GTEST_SKIP() << "untested: the levels this CPU runs allocate alike";
  }
}

}  // namespace
}  // namespace fairwire::wire
