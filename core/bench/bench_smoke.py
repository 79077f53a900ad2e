#!/usr/bin/env python3
"""Runs every benchmark of fairwire_bench for one iteration and fails if one
reported an error, or if one the binary must hold is missing.

Each wire benchmark decodes every payload of its workload before timing, and
reports an error instead of a time when its decoder rejected a payload,
found other elements than libprotobuf did, or (fairwire) re-encoded a
payload to other bytes. This test turns those checks into a test, on the
builds that run tests (Debug, sanitizers), where the times mean nothing.

    bench_smoke.py BINARY
"""

import json
import os
import subprocess
import sys
import tempfile

WORKLOADS = [
    "seed_int64", "seed_string", "seed_enum", "packed_int64_100",
    "packed_int64_10k", "packed_int64_1m", "packed_sint32", "packed_fixed64",
    "packed_enum_closed", "mixed",
]
# The workloads of random values, which cycle through several payloads
# (workloads.h); packed_int64_1m is larger than the working set: one payload.
CYCLED = {"packed_int64_100", "packed_int64_10k", "packed_sint32",
          "packed_fixed64", "packed_enum_closed", "mixed"}
POLL_IMPLS = ["roundrobin", "sticky", "priority", "budgeted", "nested"]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "smoke.json")
        # Every payload, whatever the caller's environment asks of a timed run.
        env = {k: v for k, v in os.environ.items()
               if k != "FAIRWIRE_BENCH_PAYLOADS"}
        run = subprocess.run(
            [binary, "--benchmark_min_time=0",
             f"--benchmark_out={out}", "--benchmark_out_format=json"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=env, check=False)
        if run.returncode != 0:
            print(run.stdout)
            print(f"bench_smoke: {binary} exited with {run.returncode}")
            return 1
        with open(out) as f:
            data = json.load(f)

    runs = {b["name"]: b for b in data.get("benchmarks", [])}
    problems = []
    for name, b in sorted(runs.items()):
        if b.get("error_occurred"):
            problems.append(f"{name}: {b.get('error_message', 'error')}")

    levels = data.get("context", {}).get("fairwire_kernel_levels", "").split()
    if not levels:
        problems.append("the context names no kernel level measured")
    impls = ["libprotobuf", "fairwire", "fairwire_typed"]
    impls += [f"fairwire@{level}" for level in levels]
    for workload in WORKLOADS:
        for impl in impls:
            name = f"wire/{workload}/{impl}"
            b = runs.get(name)
            if b is None:
                problems.append(f"{name}: missing")
                continue
            payloads = b.get("payloads")
            if workload in CYCLED and not (payloads and payloads > 1):
                problems.append(f"{name}: {payloads} payloads; a random "
                                "workload cycles through several")
    for shape in ("1x10", "20x100"):
        for impl in POLL_IMPLS:
            if f"poll/{shape}/{impl}" not in runs:
                problems.append(f"poll/{shape}/{impl}: missing")

    print(f"bench_smoke: {len(runs)} benchmarks ran once; kernel levels "
          f"measured: {' '.join(levels) or 'none'}")
    if problems:
        print("bench_smoke: FAILED")
        for p in problems:
            print(f"  {p}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
