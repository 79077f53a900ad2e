#include "workloads.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <system_error>
#include <utility>

#include "fairwire_bench.pb.h"

namespace fairwire::bench {
namespace {

// Fixed seeds: the workloads are the same bytes in every run (a random
// workload's further payloads too: their seeds follow from these). mt19937_64's
// output sequence is fixed by the standard; no std distribution is used
// (their output is implementation-defined).
constexpr std::uint64_t kInt64Seed = 0x5eed'1a7e'0000'0001;
constexpr std::uint64_t kSint32Seed = 0x5eed'1a7e'0000'0002;
constexpr std::uint64_t kFixed64Seed = 0x5eed'1a7e'0000'0003;
constexpr std::uint64_t kEnumSeed = 0x5eed'1a7e'0000'0004;
constexpr std::uint64_t kMixedSeed = 0x5eed'1a7e'0000'0005;

constexpr int kSeedCount = 500'000;

// A random workload's further payloads come from seed + i * kSeedStep.
constexpr std::uint64_t kSeedStep = 0x9e37'79b9'7f4a'7c15;

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
  data.payloads.push_back(m.SerializeAsString());
  data.elements = elements;
  return data;
}

// The most payloads a workload gets: kMaxPayloads, or
// FAIRWIRE_BENCH_PAYLOADS when it is set to a number from 1 up (1 is the
// measurement before payloads were cycled: one payload, decoded again and
// again).
std::size_t MostPayloads() {
  const char* text = std::getenv("FAIRWIRE_BENCH_PAYLOADS");
  if (text == nullptr) return kMaxPayloads;
  std::size_t most = 0;
  const char* end = text + std::strlen(text);
  const auto [at, error] = std::from_chars(text, end, most);
  if (error != std::errc() || at != end || most == 0) {
    std::fprintf(stderr,
                 "FAIRWIRE_BENCH_PAYLOADS=%s is not a number from 1 up; "
                 "using %zu\n",
                 text, kMaxPayloads);
    return kMaxPayloads;
  }
  return most;
}

// The payloads of a random workload: make(seed) first, then as many more
// from other seeds as fit in kPayloadWorkingSetBytes, up to MostPayloads().
WorkloadData MakeRandom(
    std::uint64_t seed,
    const std::function<WorkloadData(std::uint64_t)>& make) {
  WorkloadData data = make(seed);
  const std::size_t size = std::max<std::size_t>(data.payloads[0].size(), 1);
  const std::size_t count = std::clamp<std::size_t>(
      kPayloadWorkingSetBytes / size, 1, MostPayloads());
  for (std::size_t i = 1; i < count; ++i) {
    data.payloads.push_back(std::move(make(seed + i * kSeedStep).payloads[0]));
  }
  return data;
}

WorkloadData MakePackedInt64(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  PackedInt64 m;
  for (int i = 0; i < count; ++i) m.add_values(MixedInt64(rng));
  return Make(m, static_cast<std::size_t>(count));
}

WorkloadData MakePackedSint32(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  PackedSint32 m;
  for (int i = 0; i < 10'000; ++i) m.add_values(MixedSint32(rng));
  return Make(m, 10'000);
}

WorkloadData MakePackedFixed64(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  PackedFixed64 m;
  for (int i = 0; i < 10'000; ++i) m.add_values(rng());
  return Make(m, 10'000);
}

WorkloadData MakePackedEnum(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  PackedEnum m;
  for (int i = 0; i < 10'000; ++i) m.add_values(PickLevel(rng));
  return Make(m, 10'000);
}

WorkloadData MakeMixed(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
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

WorkloadData BuildWorkload(WireWorkload workload) {
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
      return MakeRandom(kInt64Seed, [](std::uint64_t seed) {
        return MakePackedInt64(100, seed);
      });
    case WireWorkload::kPackedInt64_10k:
      return MakeRandom(kInt64Seed, [](std::uint64_t seed) {
        return MakePackedInt64(10'000, seed);
      });
    case WireWorkload::kPackedInt64_1m:
      return MakeRandom(kInt64Seed, [](std::uint64_t seed) {
        return MakePackedInt64(1'000'000, seed);
      });
    case WireWorkload::kPackedSint32:
      return MakeRandom(kSint32Seed, &MakePackedSint32);
    case WireWorkload::kPackedFixed64:
      return MakeRandom(kFixed64Seed, &MakePackedFixed64);
    case WireWorkload::kPackedEnumClosed:
      return MakeRandom(kEnumSeed, &MakePackedEnum);
    case WireWorkload::kMixed:
      return MakeRandom(kMixedSeed, &MakeMixed);
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

double WorkloadData::MeanBytes() const {
  double total = 0;
  for (const std::string& payload : payloads) {
    total += static_cast<double>(payload.size());
  }
  return payloads.empty() ? 0 : total / static_cast<double>(payloads.size());
}

const WorkloadData& GetWorkload(WireWorkload workload) {
  static std::map<WireWorkload, WorkloadData> cache;
  auto it = cache.find(workload);
  if (it == cache.end()) {
    WorkloadData data = BuildWorkload(workload);
    data.name = WorkloadName(workload);
    it = cache.emplace(workload, std::move(data)).first;
  }
  return it->second;
}

}  // namespace fairwire::bench
