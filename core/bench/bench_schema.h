// The fairwire schema of fairwire_bench.proto, built by hand with
// SchemaBuilder (the benchmark does not depend on the descriptor adapter).
#ifndef FAIRWIRE_CORE_BENCH_BENCH_SCHEMA_H_
#define FAIRWIRE_CORE_BENCH_BENCH_SCHEMA_H_

#include "fairwire/wire/schema.h"

namespace fairwire::bench {

// The schema of every message in fairwire_bench.proto, with the same names
// ("fairwire.bench.SeedInt64", ...). Built on first use; a schema that
// SchemaBuilder refuses is reported on stderr and leaves an empty schema
// (the benchmarks then skip with an error).
const wire::Schema& BenchSchema();

}  // namespace fairwire::bench

#endif  // FAIRWIRE_CORE_BENCH_BENCH_SCHEMA_H_
