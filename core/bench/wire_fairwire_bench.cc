// wire/<workload>/fairwire: the dynamic decoder (fairwire::wire::Decode into a
// reused wire::Message), against the schema built by hand in bench_schema.cc,
// at the level the CPU's dispatch picks; wire/<workload>/fairwire@<level>:
// the same, forced to each kernel level this CPU supports (DecodeOptions).
// Checked once before timing: the element count, no unknown fields, and
// Serialize(message) equal to each payload (libprotobuf's encoding).
#include <cstddef>
#include <iterator>
#include <string>
#include <variant>

#include "alloc_counter.h"
#include "bench_schema.h"
#include "bench_util.h"
#include "fairwire/wire/decoder.h"
#include "fairwire/wire/kernel_level.h"
#include "fairwire/wire/message.h"
#include "fairwire/wire/serialize.h"
#include "wire_bench.h"

namespace fairwire::bench {
namespace {

// The number of values in every repeated field of `message`.
std::size_t CountRepeated(const wire::Message& message) {
  std::size_t count = 0;
  const auto& fields = message.def().fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!fields[i].repeated) continue;
    count +=
        std::visit([](const auto& v) { return v.size(); }, message.values(i));
  }
  return count;
}

void FairwireDecode(benchmark::State& state, WireWorkload workload,
                    const wire::DecodeOptions& options) {
  const WorkloadData& data = GetWorkload(workload);
  const wire::Schema& schema = BenchSchema();
  const std::int32_t index = schema.FindMessage(data.message_type);
  if (index < 0) {
    state.SkipWithError("message type missing from the fairwire schema");
    return;
  }
  wire::Message message(schema, index);
  for (const std::string& payload : data.payloads) {
    const wire::DecodeStatus first =
        wire::Decode(AsBytes(payload), message, options);
    if (!first.ok()) {
      state.SkipWithError(
          ("fairwire rejected the workload: " + wire::ToString(first)).c_str());
      return;
    }
    if (CountRepeated(message) != data.elements ||
        !message.unknown_fields().empty()) {
      state.SkipWithError("fairwire decoded a different element count");
      return;
    }
    // Stronger: the canonical re-encoding is libprotobuf's serialization, so
    // the decoded contents are the ones libprotobuf encoded.
    if (wire::Serialize(message) != payload) {
      state.SkipWithError("fairwire's decoded contents re-encode differently");
      return;
    }
  }
  PayloadCycle payloads(data.payloads);
  const std::uint64_t before = AllocationCount();
  for (auto _ : state) {
    wire::DecodeStatus status =
        wire::Decode(AsBytes(payloads.Next()), message, options);
    benchmark::DoNotOptimize(status);
    benchmark::ClobberMemory();
  }
  ReportCounters(state, static_cast<double>(data.elements), data.MeanBytes(),
                 AllocationCount() - before);
  state.counters["payloads"] = static_cast<double>(data.payloads.size());
}

template <wire::KernelLevel kLevel>
void FairwireDecodeAt(benchmark::State& state, WireWorkload workload) {
  FairwireDecode(state, workload, wire::DecodeOptions{.kernel = kLevel});
}

// Whether the run measures `level`: the CPU supports it and it is not above
// the process's level. FAIRWIRE_WIRE_KERNEL=avx2 on an AVX-512 machine makes
// a run as an AVX2-only machine would have it (ci/bench --without-avx512).
bool Measured(wire::KernelLevel level) {
  return wire::CpuSupports(level) && level <= wire::DefaultKernelLevel();
}

// The kernel levels for which `which` holds, for the JSON's context
// (bench_report.py).
template <typename Which>
std::string LevelList(Which which) {
  std::string list;
  for (const wire::KernelLevel level : wire::kKernelLevels) {
    if (!which(level)) continue;
    if (!list.empty()) list += " ";
    list += wire::KernelLevelName(level);
  }
  return list;
}

const bool registered = [] {
  RegisterWireImpl("fairwire", [](benchmark::State& state, WireWorkload w) {
    FairwireDecode(state, w, wire::DecodeOptions{});
  });
  constexpr WireBenchFn kAt[] = {
      &FairwireDecodeAt<wire::KernelLevel::kPortable>,
      &FairwireDecodeAt<wire::KernelLevel::kAvx2>,
      &FairwireDecodeAt<wire::KernelLevel::kAvx512>};
  static_assert(std::size(kAt) == wire::kKernelLevels.size());
  for (const wire::KernelLevel level : wire::kKernelLevels) {
    if (!Measured(level)) continue;
    const std::string impl = "fairwire@" + std::string(KernelLevelName(level));
    RegisterWireImpl(impl.c_str(), kAt[static_cast<std::size_t>(level)]);
  }
  benchmark::AddCustomContext("fairwire_kernel_levels", LevelList(&Measured));
  benchmark::AddCustomContext(
      "fairwire_kernel_levels_off", LevelList([](wire::KernelLevel level) {
        return wire::CpuSupports(level) && !Measured(level);
      }));
  benchmark::AddCustomContext("fairwire_kernel_levels_missing",
                              LevelList([](wire::KernelLevel level) {
                                return !wire::CpuSupports(level);
                              }));
  benchmark::AddCustomContext(
      "fairwire_default_kernel_level",
      std::string(KernelLevelName(wire::DefaultKernelLevel())));
  return true;
}();

}  // namespace
}  // namespace fairwire::bench
