// The decoder benchmark workloads: the encoded bytes of each message in
// fairwire_bench.proto, built once from fixed seeds with libprotobuf's
// generated serializer, so that every decoder reads exactly the same bytes.
//
// A workload of random values is several payloads of one shape (the same
// generator from other seeds), and every timed loop decodes them in turn. One
// payload decoded again and again is a pattern a branch predictor can learn:
// on an AMD Zen 5, libprotobuf decoded the one 10,000-element packed int64
// payload at 2.3 ns an element and the 1,000,000-element one, the same
// distribution, at 10.2 (core/bench/RESULTS.md, notes). A decoder meets
// fresh payloads; so does the benchmark.
#ifndef FAIRWIRE_CORE_BENCH_WORKLOADS_H_
#define FAIRWIRE_CORE_BENCH_WORKLOADS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

// The working set of a random workload's payloads: as many payloads as fit
// in it, up to kMaxPayloads. About a core's L2 cache (1 MiB on Zen 4 and 5,
// 2 MiB on Sapphire Rapids), and far more branches than a predictor holds:
// with it, libprotobuf's packed_int64_10k costs what packed_int64_1m does
// per element.
inline constexpr std::size_t kPayloadWorkingSetBytes = 1u << 20;
inline constexpr std::size_t kMaxPayloads = 1024;

// The encoded payloads of a workload and what each holds.
struct WorkloadData {
  std::string_view name;     // "seed_int64", "packed_int64_10k", ...
  std::string message_type;  // "fairwire.bench.SeedInt64", ...
  // Serialized messages of the same shape; one for a workload whose values
  // are fixed (seed_*) or that is larger than the working set.
  std::vector<std::string> payloads;
  std::size_t elements = 0;  // repeated elements in all fields, per payload

  // The payloads' mean size in bytes: what one iteration decodes.
  double MeanBytes() const;
};

// The timed loops' walk over a workload's payloads: Next() gives each in
// turn, round and round.
class PayloadCycle {
 public:
  explicit PayloadCycle(const std::vector<std::string>& payloads)
      : payloads_(payloads) {}

  const std::string& Next() {
    const std::string& payload = payloads_[next_];
    next_ = next_ + 1 == payloads_.size() ? 0 : next_ + 1;
    return payload;
  }

 private:
  const std::vector<std::string>& payloads_;
  std::size_t next_ = 0;
};

// The workload's data, built on first use (not thread-safe to build; the
// benchmarks are single-threaded) and kept for the life of the process.
const WorkloadData& GetWorkload(WireWorkload workload);

// A payload as a span, as the fairwire decoder takes it.
inline std::span<const std::uint8_t> AsBytes(const std::string& bytes) {
  return {reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()};
}

}  // namespace fairwire::bench

#endif  // FAIRWIRE_CORE_BENCH_WORKLOADS_H_
