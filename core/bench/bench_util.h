// Counters shared by the benchmarks: nanoseconds per element, bytes per
// second, elements per iteration and allocations per iteration.
#ifndef FAIRWIRE_CORE_BENCH_BENCH_UTIL_H_
#define FAIRWIRE_CORE_BENCH_BENCH_UTIL_H_

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string_view>

namespace fairwire::bench {

// Sets the counters every benchmark reports, after its timed loop:
//   ns_per_elem      CPU time per element (per child polled for poll/*)
//   elements         elements per iteration
//   bytes_per_second from `bytes_per_iteration` (omitted when 0)
//   allocs_per_iter  calls to operator new inside the timed loop, divided by
//                    the iterations (`allocations` is their total)
inline void ReportCounters(benchmark::State& state, double elements,
                           double bytes_per_iteration,
                           std::uint64_t allocations) {
  if (bytes_per_iteration > 0) {
    state.SetBytesProcessed(static_cast<std::int64_t>(
        static_cast<double>(state.iterations()) * bytes_per_iteration));
  }
  // Finish() computes value * iterations / time, then inverts it: seconds
  // per element; the 1e-9 makes it nanoseconds.
  state.counters["ns_per_elem"] = benchmark::Counter(
      elements * 1e-9, benchmark::Counter::kIsIterationInvariantRate |
                           benchmark::Counter::kInvert);
  state.counters["elements"] = elements;
  state.counters["allocs_per_iter"] = benchmark::Counter(
      static_cast<double>(allocations), benchmark::Counter::kAvgIterations);
}

}  // namespace fairwire::bench

#endif  // FAIRWIRE_CORE_BENCH_BENCH_UTIL_H_
