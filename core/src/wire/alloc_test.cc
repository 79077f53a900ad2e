// The decoder never allocates more than a small constant factor of its
// input's size: this binary replaces the global operator new/delete with a
// counting allocator and measures the peak of live bytes during Decode.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "fairwire/wire/decoder.h"
#include "fairwire/wire/writer.h"
#include "test_schema.h"

namespace {

std::size_t live_bytes = 0;
std::size_t peak_bytes = 0;

// Each block carries its size in a 16-byte header (keeps 16-byte alignment).
constexpr std::size_t kHeader = 16;

void* CountedAllocNoThrow(std::size_t size) noexcept {
  void* block = std::malloc(size + kHeader);
  if (block == nullptr) return nullptr;
  *static_cast<std::size_t*>(block) = size;
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

}  // namespace
}  // namespace fairwire::wire
