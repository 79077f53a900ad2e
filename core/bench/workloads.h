// The decoder benchmark workloads: the encoded bytes of each message in
// fairwire_bench.proto, built once from fixed seeds with libprotobuf's
// generated serializer, so that every decoder reads exactly the same bytes.
#ifndef FAIRWIRE_CORE_BENCH_WORKLOADS_H_
#define FAIRWIRE_CORE_BENCH_WORKLOADS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace fairwire::bench {

// One workload of the wire benchmarks.
enum class WireWorkload {
  kSeedInt64,         // unpacked repeated int64, 0..499,999
  kSeedString,        // repeated string, decimal text of 0..499,999
  kSeedEnum,          // unpacked repeated closed enum, 500,000 x 999
  kPackedInt64_100,   // packed int64, mixed magnitudes, 100 elements
  kPackedInt64_10k,   // ... 10,000 elements
  kPackedInt64_1m,    // ... 1,000,000 elements
  kPackedSint32,      // packed sint32, mixed magnitudes, 10,000
  kPackedFixed64,     // packed fixed64, any value, 10,000
  kPackedEnumClosed,  // packed closed enum, values inside it, 10,000
  kMixed,             // scalars and 7 repeated fields, 10,000 elements
};

// Every workload, in the order the benchmarks are registered.
inline constexpr WireWorkload kAllWireWorkloads[] = {
    WireWorkload::kSeedInt64,        WireWorkload::kSeedString,
    WireWorkload::kSeedEnum,         WireWorkload::kPackedInt64_100,
    WireWorkload::kPackedInt64_10k,  WireWorkload::kPackedInt64_1m,
    WireWorkload::kPackedSint32,     WireWorkload::kPackedFixed64,
    WireWorkload::kPackedEnumClosed, WireWorkload::kMixed,
};

// The workload's name in benchmark names: "seed_int64", "packed_int64_10k".
std::string_view WorkloadName(WireWorkload workload);

// The encoded bytes of a workload and what they hold.
struct WorkloadData {
  std::string_view name;     // "seed_int64", "packed_int64_10k", ...
  std::string message_type;  // "fairwire.bench.SeedInt64", ...
  std::string bytes;         // the serialized message
  std::size_t elements = 0;  // repeated elements in all fields
};

// The workload's data, built on first use (not thread-safe to build; the
// benchmarks are single-threaded) and kept for the life of the process.
const WorkloadData& GetWorkload(WireWorkload workload);

// The bytes of a workload as a span, as the fairwire decoder takes them.
inline std::span<const std::uint8_t> AsBytes(const std::string& bytes) {
  return {reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()};
}

}  // namespace fairwire::bench

#endif  // FAIRWIRE_CORE_BENCH_WORKLOADS_H_
