#include "workloads.h"

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>

#include "fairwire_bench.pb.h"

namespace fairwire::bench {
namespace {

// Fixed seeds: the workloads are the same bytes in every run. mt19937_64's
// output sequence is fixed by the standard; no std distribution is used
// (their output is implementation-defined).
constexpr std::uint64_t kInt64Seed = 0x5eed'1a7e'0000'0001;
constexpr std::uint64_t kSint32Seed = 0x5eed'1a7e'0000'0002;
constexpr std::uint64_t kFixed64Seed = 0x5eed'1a7e'0000'0003;
constexpr std::uint64_t kEnumSeed = 0x5eed'1a7e'0000'0004;
constexpr std::uint64_t kMixedSeed = 0x5eed'1a7e'0000'0005;

constexpr int kSeedCount = 500'000;

// The values of fairwire.bench.Level.
constexpr std::array<int, 11> kLevels = {0, 1, 2,   3,   4,    5,
                                         6, 7, 100, 999, 70000};

// Mixed magnitudes: half below 2^7, 30% below 2^21, the rest any 64-bit
// value (negatives included, which encode as 10 bytes).
std::int64_t MixedInt64(std::mt19937_64& rng) {
  const std::uint64_t pick = rng() % 100;
  const std::uint64_t raw = rng();
  if (pick < 50) return static_cast<std::int64_t>(raw & 0x7f);
  if (pick < 80) return static_cast<std::int64_t>(raw & 0x1f'ffff);
  return static_cast<std::int64_t>(raw);
}

// The same shape for sint32: half below 2^6 in magnitude (one byte after
// zigzag), 30% below 2^20, the rest any int32; both signs.
std::int32_t MixedSint32(std::mt19937_64& rng) {
  const std::uint64_t pick = rng() % 100;
  const std::uint64_t raw = rng();
  const bool negative = (raw >> 63) != 0;
  std::int32_t magnitude;
  if (pick < 50) {
    magnitude = static_cast<std::int32_t>(raw & 0x3f);
  } else if (pick < 80) {
    magnitude = static_cast<std::int32_t>(raw & 0xf'ffff);
  } else {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(raw));
  }
  return negative ? -magnitude : magnitude;
}

fairwire::bench::Level PickLevel(std::mt19937_64& rng) {
  return static_cast<fairwire::bench::Level>(kLevels[rng() % kLevels.size()]);
}

WorkloadData Make(const google::protobuf::Message& m, std::size_t elements) {
  WorkloadData data;
  data.message_type = m.GetDescriptor()->full_name();
  data.bytes = m.SerializeAsString();
  data.elements = elements;
  return data;
}

WorkloadData MakePackedInt64(int count) {
  std::mt19937_64 rng(kInt64Seed);
  PackedInt64 m;
  for (int i = 0; i < count; ++i) m.add_values(MixedInt64(rng));
  return Make(m, static_cast<std::size_t>(count));
}

WorkloadData MakeMixed() {
  std::mt19937_64 rng(kMixedSeed);
  Mixed m;
  m.set_id(123456);
  m.set_name("a mixed workload of scalars and repeated fields");
  m.set_score(3.25);
  m.set_active(true);
  m.set_timestamp(1'795'000'000'000ULL);
  std::size_t elements = 0;
  for (int i = 0; i < 3000; ++i, ++elements) m.add_counts(MixedInt64(rng));
  for (int i = 0; i < 2000; ++i, ++elements) {
    m.add_small(static_cast<std::int32_t>(rng() % 300));
  }
  for (int i = 0; i < 1000; ++i, ++elements) {
    m.add_weights(static_cast<double>(rng() % 1'000'000) / 1000.0);
  }
  for (int i = 0; i < 1000; ++i, ++elements) {
    m.add_tags("tag-" + std::to_string(rng() % 100'000));
  }
  for (int i = 0; i < 1500; ++i, ++elements) m.add_levels(PickLevel(rng));
  for (int i = 0; i < 1000; ++i, ++elements) {
    m.add_hashes(static_cast<std::uint32_t>(rng()));
  }
  for (int i = 0; i < 500; ++i, ++elements) {
    m.add_deltas(static_cast<std::int64_t>(rng() % 20'001) - 10'000);
  }
  return Make(m, elements);
}

WorkloadData BuildBytes(WireWorkload workload) {
  switch (workload) {
    case WireWorkload::kSeedInt64: {
      SeedInt64 m;
      for (int i = 0; i < kSeedCount; ++i) m.add_values(i);
      return Make(m, kSeedCount);
    }
    case WireWorkload::kSeedString: {
      SeedString m;
      for (int i = 0; i < kSeedCount; ++i) m.add_values(std::to_string(i));
      return Make(m, kSeedCount);
    }
    case WireWorkload::kSeedEnum: {
      SeedEnum m;
      for (int i = 0; i < kSeedCount; ++i) {
        m.add_values(LEVEL_THOUSAND_MINUS_ONE);
      }
      return Make(m, kSeedCount);
    }
    case WireWorkload::kPackedInt64_100:
      return MakePackedInt64(100);
    case WireWorkload::kPackedInt64_10k:
      return MakePackedInt64(10'000);
    case WireWorkload::kPackedInt64_1m:
      return MakePackedInt64(1'000'000);
    case WireWorkload::kPackedSint32: {
      std::mt19937_64 rng(kSint32Seed);
      PackedSint32 m;
      for (int i = 0; i < 10'000; ++i) m.add_values(MixedSint32(rng));
      return Make(m, 10'000);
    }
    case WireWorkload::kPackedFixed64: {
      std::mt19937_64 rng(kFixed64Seed);
      PackedFixed64 m;
      for (int i = 0; i < 10'000; ++i) m.add_values(rng());
      return Make(m, 10'000);
    }
    case WireWorkload::kPackedEnumClosed: {
      std::mt19937_64 rng(kEnumSeed);
      PackedEnum m;
      for (int i = 0; i < 10'000; ++i) m.add_values(PickLevel(rng));
      return Make(m, 10'000);
    }
    case WireWorkload::kMixed:
      return MakeMixed();
  }
  return {};
}

}  // namespace

std::string_view WorkloadName(WireWorkload workload) {
  switch (workload) {
    case WireWorkload::kSeedInt64:
      return "seed_int64";
    case WireWorkload::kSeedString:
      return "seed_string";
    case WireWorkload::kSeedEnum:
      return "seed_enum";
    case WireWorkload::kPackedInt64_100:
      return "packed_int64_100";
    case WireWorkload::kPackedInt64_10k:
      return "packed_int64_10k";
    case WireWorkload::kPackedInt64_1m:
      return "packed_int64_1m";
    case WireWorkload::kPackedSint32:
      return "packed_sint32";
    case WireWorkload::kPackedFixed64:
      return "packed_fixed64";
    case WireWorkload::kPackedEnumClosed:
      return "packed_enum_closed";
    case WireWorkload::kMixed:
      return "mixed";
  }
  return "unknown";
}

const WorkloadData& GetWorkload(WireWorkload workload) {
  static std::map<WireWorkload, WorkloadData> cache;
  auto it = cache.find(workload);
  if (it == cache.end()) {
    WorkloadData data = BuildBytes(workload);
    data.name = WorkloadName(workload);
    it = cache.emplace(workload, std::move(data)).first;
  }
  return it->second;
}

}  // namespace fairwire::bench
