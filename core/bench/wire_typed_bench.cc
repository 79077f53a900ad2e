// wire/<workload>/fairwire_typed: the typed bindings (binding.h) decoding
// straight into plain structs, reused between iterations (DecodeInto clears
// them, keeping capacity); and wire/seed_string/fairwire_typed_view, the same
// with std::string_view members pointing into the input (zero-copy).
// Unknown fields are kept (WithUnknown), as libprotobuf keeps them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "alloc_counter.h"
#include "bench_util.h"
#include "fairwire/wire/binding.h"
#include "wire_bench.h"

namespace fairwire::bench {
namespace {

using wire::Bind;
using wire::BindClosedEnum;
using wire::FieldKind;
using wire::MakeBinding;

// fairwire.bench.Level's values (the typed side does not use libprotobuf).
bool IsLevel(std::int32_t value) {
  switch (value) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
    case 100:
    case 999:
    case 70000:
      return true;
    default:
      return false;
  }
}

// SeedInt64 and PackedInt64 (both encodings are accepted).
struct Int64s {
  std::vector<std::int64_t> values;
  std::string unknown;
};
constexpr auto kInt64s =
    MakeBinding<Int64s>(Bind<1, FieldKind::kInt64>(&Int64s::values))
        .WithUnknown(&Int64s::unknown);

// SeedString with owned strings.
struct Strings {
  std::vector<std::string> values;
  std::string unknown;
};
constexpr auto kStrings =
    MakeBinding<Strings>(Bind<1, FieldKind::kString>(&Strings::values))
        .WithUnknown(&Strings::unknown);

// SeedString with views into the input.
struct StringViews {
  std::vector<std::string_view> values;
  std::string unknown;
};
constexpr auto kStringViews =
    MakeBinding<StringViews>(Bind<1, FieldKind::kString>(&StringViews::values))
        .WithUnknown(&StringViews::unknown);

// SeedEnum and PackedEnum: the closed enum Level.
struct Levels {
  std::vector<std::int32_t> values;
  std::string unknown;
};
constexpr auto kLevels =
    MakeBinding<Levels>(BindClosedEnum<1, &IsLevel>(&Levels::values))
        .WithUnknown(&Levels::unknown);

// PackedSint32.
struct Sint32s {
  std::vector<std::int32_t> values;
  std::string unknown;
};
constexpr auto kSint32s =
    MakeBinding<Sint32s>(Bind<1, FieldKind::kSint32>(&Sint32s::values))
        .WithUnknown(&Sint32s::unknown);

// PackedFixed64.
struct Fixed64s {
  std::vector<std::uint64_t> values;
  std::string unknown;
};
constexpr auto kFixed64s =
    MakeBinding<Fixed64s>(Bind<1, FieldKind::kFixed64>(&Fixed64s::values))
        .WithUnknown(&Fixed64s::unknown);

// Mixed.
struct MixedStruct {
  std::int32_t id = 0;
  std::string name;
  double score = 0;
  bool active = false;
  std::uint64_t timestamp = 0;
  std::vector<std::int64_t> counts;
  std::vector<std::int32_t> small;
  std::vector<double> weights;
  std::vector<std::string> tags;
  std::vector<std::int32_t> levels;
  std::vector<std::uint32_t> hashes;
  std::vector<std::int64_t> deltas;
  std::string unknown;
};
constexpr auto kMixed =
    MakeBinding<MixedStruct>(
        Bind<1, FieldKind::kInt32>(&MixedStruct::id),
        Bind<2, FieldKind::kString>(&MixedStruct::name),
        Bind<3, FieldKind::kDouble>(&MixedStruct::score),
        Bind<4, FieldKind::kBool>(&MixedStruct::active),
        Bind<5, FieldKind::kUint64>(&MixedStruct::timestamp),
        Bind<6, FieldKind::kInt64>(&MixedStruct::counts),
        Bind<7, FieldKind::kInt32>(&MixedStruct::small),
        Bind<8, FieldKind::kDouble>(&MixedStruct::weights),
        Bind<9, FieldKind::kString>(&MixedStruct::tags),
        BindClosedEnum<10, &IsLevel>(&MixedStruct::levels),
        Bind<11, FieldKind::kFixed32>(&MixedStruct::hashes),
        Bind<12, FieldKind::kSint64>(&MixedStruct::deltas))
        .WithUnknown(&MixedStruct::unknown);

// The repeated elements a decoded struct holds.
template <typename S>
std::size_t CountRepeated(const S& s) {
  if constexpr (std::is_same_v<S, MixedStruct>) {
    return s.counts.size() + s.small.size() + s.weights.size() + s.tags.size() +
           s.levels.size() + s.hashes.size() + s.deltas.size();
  } else {
    return s.values.size();
  }
}

// DecodeInto the struct of kBinding, reused between iterations.
template <const auto& kBinding>
void TypedDecode(benchmark::State& state, WireWorkload workload) {
  using S = typename std::remove_cvref_t<decltype(kBinding)>::Struct;
  const WorkloadData& data = GetWorkload(workload);
  S out;
  for (const std::string& payload : data.payloads) {
    const wire::DecodeStatus first =
        wire::DecodeInto(AsBytes(payload), kBinding, out);
    if (!first.ok()) {
      state.SkipWithError(
          ("fairwire_typed rejected the workload: " + wire::ToString(first))
              .c_str());
      return;
    }
    if (CountRepeated(out) != data.elements || !out.unknown.empty()) {
      state.SkipWithError("fairwire_typed decoded a different element count");
      return;
    }
  }
  PayloadCycle payloads(data.payloads);
  const std::uint64_t before = AllocationCount();
  for (auto _ : state) {
    wire::DecodeStatus status =
        wire::DecodeInto(AsBytes(payloads.Next()), kBinding, out);
    benchmark::DoNotOptimize(status);
    benchmark::ClobberMemory();
  }
  ReportCounters(state, static_cast<double>(data.elements), data.MeanBytes(),
                 AllocationCount() - before);
  state.counters["payloads"] = static_cast<double>(data.payloads.size());
}

const bool registered = [] {
  constexpr const char* kTyped = "fairwire_typed";
  RegisterWireBenchmark(WireWorkload::kSeedInt64, kTyped,
                        &TypedDecode<kInt64s>);
  RegisterWireBenchmark(WireWorkload::kSeedString, kTyped,
                        &TypedDecode<kStrings>);
  RegisterWireBenchmark(WireWorkload::kSeedString, "fairwire_typed_view",
                        &TypedDecode<kStringViews>);
  RegisterWireBenchmark(WireWorkload::kSeedEnum, kTyped, &TypedDecode<kLevels>);
  RegisterWireBenchmark(WireWorkload::kPackedInt64_100, kTyped,
                        &TypedDecode<kInt64s>);
  RegisterWireBenchmark(WireWorkload::kPackedInt64_10k, kTyped,
                        &TypedDecode<kInt64s>);
  RegisterWireBenchmark(WireWorkload::kPackedInt64_1m, kTyped,
                        &TypedDecode<kInt64s>);
  RegisterWireBenchmark(WireWorkload::kPackedSint32, kTyped,
                        &TypedDecode<kSint32s>);
  RegisterWireBenchmark(WireWorkload::kPackedFixed64, kTyped,
                        &TypedDecode<kFixed64s>);
  RegisterWireBenchmark(WireWorkload::kPackedEnumClosed, kTyped,
                        &TypedDecode<kLevels>);
  RegisterWireBenchmark(WireWorkload::kMixed, kTyped, &TypedDecode<kMixed>);
  return true;
}();

}  // namespace
}  // namespace fairwire::bench
