// Allocation counting for the benchmarks: the benchmark binary replaces the
// global operator new (alloc_counter.cc), and every benchmark reports the
// allocations made inside its timed loop, per iteration, as a counter.
#ifndef FAIRWIRE_CORE_BENCH_ALLOC_COUNTER_H_
#define FAIRWIRE_CORE_BENCH_ALLOC_COUNTER_H_

#include <cstdint>

namespace fairwire::bench {

// The number of calls to any global operator new since the process started.
std::uint64_t AllocationCount();

}  // namespace fairwire::bench

#endif  // FAIRWIRE_CORE_BENCH_ALLOC_COUNTER_H_
