// wire/<workload>/libprotobuf: the workload's payloads decoded by
// libprotobuf's generated parser; and the registration helpers. Each wire
// benchmark (here and in wire_fairwire_bench.cc, wire_typed_bench.cc) first
// decodes every payload once outside the timed loop and checks that the
// decoder accepted it and found every element (and put none in the unknown
// fields); if not, it is skipped with an error instead of timed. The timed
// loop decodes the payloads in turn (PayloadCycle).
#include "wire_bench.h"

#include <google/protobuf/message.h>

#include <cstddef>
#include <string>

#include "alloc_counter.h"
#include "bench_util.h"
#include "fairwire_bench.pb.h"
#include "workloads.h"

namespace fairwire::bench {
namespace {

// The number of elements in every repeated field of `message`.
std::size_t CountRepeated(const google::protobuf::Message& message) {
  const google::protobuf::Descriptor* d = message.GetDescriptor();
  const google::protobuf::Reflection* r = message.GetReflection();
  std::size_t count = 0;
  for (int i = 0; i < d->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = d->field(i);
    if (f->is_repeated()) {
      count += static_cast<std::size_t>(r->FieldSize(message, f));
    }
  }
  return count;
}

// libprotobuf's generated parser for `Proto`, the message reused and cleared
// (ParseFromArray clears it) between iterations.
template <typename Proto>
void LibprotobufDecode(benchmark::State& state, WireWorkload workload) {
  const WorkloadData& data = GetWorkload(workload);
  Proto message;
  for (const std::string& payload : data.payloads) {
    if (!message.ParseFromArray(payload.data(),
                                static_cast<int>(payload.size()))) {
      state.SkipWithError("libprotobuf rejected the workload");
      return;
    }
    if (CountRepeated(message) != data.elements ||
        !message.GetReflection()->GetUnknownFields(message).empty()) {
      state.SkipWithError("libprotobuf decoded a different element count");
      return;
    }
  }
  PayloadCycle payloads(data.payloads);
  const std::uint64_t before = AllocationCount();
  for (auto _ : state) {
    const std::string& payload = payloads.Next();
    message.Clear();
    const bool ok = message.ParseFromArray(payload.data(),
                                           static_cast<int>(payload.size()));
    benchmark::DoNotOptimize(ok);
    benchmark::ClobberMemory();
  }
  ReportCounters(state, static_cast<double>(data.elements), data.MeanBytes(),
                 AllocationCount() - before);
  state.counters["payloads"] = static_cast<double>(data.payloads.size());
}

// libprotobuf's benchmark for each workload: the generated message type.
const bool registered = [] {
  RegisterWireBenchmark(WireWorkload::kSeedInt64, "libprotobuf",
                        &LibprotobufDecode<SeedInt64>);
  RegisterWireBenchmark(WireWorkload::kSeedString, "libprotobuf",
                        &LibprotobufDecode<SeedString>);
  RegisterWireBenchmark(WireWorkload::kSeedEnum, "libprotobuf",
                        &LibprotobufDecode<SeedEnum>);
  RegisterWireBenchmark(WireWorkload::kPackedInt64_100, "libprotobuf",
                        &LibprotobufDecode<PackedInt64>);
  RegisterWireBenchmark(WireWorkload::kPackedInt64_10k, "libprotobuf",
                        &LibprotobufDecode<PackedInt64>);
  RegisterWireBenchmark(WireWorkload::kPackedInt64_1m, "libprotobuf",
                        &LibprotobufDecode<PackedInt64>);
  RegisterWireBenchmark(WireWorkload::kPackedSint32, "libprotobuf",
                        &LibprotobufDecode<PackedSint32>);
  RegisterWireBenchmark(WireWorkload::kPackedFixed64, "libprotobuf",
                        &LibprotobufDecode<PackedFixed64>);
  RegisterWireBenchmark(WireWorkload::kPackedEnumClosed, "libprotobuf",
                        &LibprotobufDecode<PackedEnum>);
  RegisterWireBenchmark(WireWorkload::kMixed, "libprotobuf",
                        &LibprotobufDecode<Mixed>);
  return true;
}();

}  // namespace

void RegisterWireBenchmark(WireWorkload workload, const char* impl,
                           WireBenchFn fn) {
  const std::string name =
      "wire/" + std::string(WorkloadName(workload)) + "/" + impl;
  benchmark::RegisterBenchmark(name.c_str(), fn, workload);
}

void RegisterWireImpl(const char* impl, WireBenchFn fn) {
  for (WireWorkload workload : kAllWireWorkloads) {
    RegisterWireBenchmark(workload, impl, fn);
  }
}

}  // namespace fairwire::bench
