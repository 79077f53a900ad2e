// wire/<workload>/fairwire: the dynamic decoder (fairwire::wire::Decode into a
// reused wire::Message), against the schema built by hand in bench_schema.cc.
// Checked once before timing: the element count, no unknown fields, and
// Serialize(message) equal to the workload's bytes (libprotobuf's encoding).
#include <cstddef>
#include <string>
#include <variant>

#include "alloc_counter.h"
#include "bench_schema.h"
#include "bench_util.h"
#include "fairwire/wire/decoder.h"
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

void FairwireDecode(benchmark::State& state, WireWorkload workload) {
  const WorkloadData& data = GetWorkload(workload);
  const wire::Schema& schema = BenchSchema();
  const std::int32_t index = schema.FindMessage(data.message_type);
  if (index < 0) {
    state.SkipWithError("message type missing from the fairwire schema");
    return;
  }
  wire::Message message(schema, index);
  const auto input = AsBytes(data.bytes);
  const wire::DecodeStatus first = wire::Decode(input, message);
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
  if (wire::Serialize(message) != data.bytes) {
    state.SkipWithError("fairwire's decoded contents re-encode differently");
    return;
  }
  const std::uint64_t before = AllocationCount();
  for (auto _ : state) {
    wire::DecodeStatus status = wire::Decode(input, message);
    benchmark::DoNotOptimize(status);
    benchmark::ClobberMemory();
  }
  ReportCounters(state, static_cast<double>(data.elements),
                 static_cast<double>(data.bytes.size()),
                 AllocationCount() - before);
}

const bool registered = (RegisterWireImpl("fairwire", &FairwireDecode), true);

}  // namespace
}  // namespace fairwire::bench
