// Registration of the wire benchmarks: every decoder registers itself once
// per workload as "wire/<workload>/<impl>", each in its own source file.
#ifndef FAIRWIRE_CORE_BENCH_WIRE_BENCH_H_
#define FAIRWIRE_CORE_BENCH_WIRE_BENCH_H_

#include <benchmark/benchmark.h>

#include "workloads.h"

namespace fairwire::bench {

// A benchmark body: decodes `workload` in its timed loop.
using WireBenchFn = void (*)(benchmark::State&, WireWorkload);

// Registers "wire/<workload>/<impl>" running fn(state, workload), for every
// workload in kAllWireWorkloads. Call it from a static initializer.
void RegisterWireImpl(const char* impl, WireBenchFn fn);

// Registers one benchmark "wire/<workload>/<impl>".
void RegisterWireBenchmark(WireWorkload workload, const char* impl,
                           WireBenchFn fn);

}  // namespace fairwire::bench

#endif  // FAIRWIRE_CORE_BENCH_WIRE_BENCH_H_
