#!/usr/bin/env bash
# A short campaign for the fuzz-smoke tests: fuzz one target from its corpus
# for a few seconds with one engine; fail on any crash, and on an engine that
# did not run.
#   smoke.sh libfuzzer|afl BINARY CORPUS_DIR WORK_DIR SECONDS [DICT]
# The source corpus is only read: new inputs go to WORK_DIR.
set -euo pipefail
engine=$1 binary=$2 corpus=$3 work=$4 seconds=$5 dict=${6:-}

rm -rf "$work"
mkdir -p "$work/new" "$work/artifacts"
if [ -z "$(find "$corpus" -type f ! -name '.*' -print -quit 2>/dev/null)" ]; then
  echo "smoke: no corpus under $corpus" >&2
  exit 1
fi

case "$engine" in
  libfuzzer)
    args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560
          -print_final_stats=1 -artifact_prefix="$work/artifacts/")
    [ -n "$dict" ] && args+=(-dict="$dict")
    set +e
    "$binary" "${args[@]}" "$work/new" "$corpus" >"$work/log" 2>&1
    rc=$?
    set -e
    tail -n 15 "$work/log"
    if [ $rc -ne 0 ] || [ -n "$(ls -A "$work/artifacts")" ]; then
      echo "smoke: libFuzzer found a failure (exit $rc); inputs saved in $work/artifacts" >&2
      ls -l "$work/artifacts" >&2
      exit 1
    fi
    grep -q 'stat::number_of_executed_units' "$work/log" || {
      echo "smoke: libFuzzer did not report its runs" >&2; exit 1; }
    ;;
  afl)
    export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
    export AFL_NO_AFFINITY=1 AFL_NO_CRASH_README=1
    # afl-fuzz wants a flat input folder of files under its size limit. It
    # calibrates every seed several times before it fuzzes, which over a
    # corpus of thousands would take minutes: the smoke starts from an evenly
    # spread sample of at most FAIRWIRE_AFL_SMOKE_SEEDS files (every file is
    # replayed by the corpus tests, and by the libFuzzer smoke).
    mkdir -p "$work/in"
    export AFL_FAST_CAL=1
    limit=${FAIRWIRE_AFL_SMOKE_SEEDS:-64}
    find "$corpus" -type f ! -name '.*' -size -1024k -print0 | sort -z >"$work/seeds"
    count=$(tr -cd '\0' <"$work/seeds" | wc -c)
    step=$(( (count + limit - 1) / limit ))
    [ "$step" -ge 1 ] || step=1
    i=0
    while IFS= read -r -d '' f; do
      if [ $((i % step)) -eq 0 ]; then
        cp "$f" "$work/in/$(echo "$f" | md5sum | cut -c1-16)"
      fi
      i=$((i + 1))
    done <"$work/seeds"
    echo "smoke: AFL++ starts from $(ls "$work/in" | wc -l) of $count corpus files"
    args=(-V "$seconds" -m none -t 2000 -i "$work/in" -o "$work/out")
    [ -n "$dict" ] && args+=(-x "$dict")
    set +e
    afl-fuzz "${args[@]}" -- "$binary" >"$work/log" 2>&1
    rc=$?
    set -e
    tail -n 15 "$work/log"
    crashes=$(find "$work/out" -path '*/crashes/id:*' -type f 2>/dev/null | wc -l)
    if [ "$crashes" -ne 0 ]; then
      echo "smoke: AFL++ found $crashes crashing inputs:" >&2
      find "$work/out" -path '*/crashes/id:*' -type f >&2
      exit 1
    fi
    if [ $rc -ne 0 ] || [ ! -f "$work/out/default/fuzzer_stats" ]; then
      echo "smoke: afl-fuzz did not run (exit $rc)" >&2
      exit 1
    fi
    grep -E '^(execs_done|execs_per_sec|corpus_count|bitmap_cvg)' "$work/out/default/fuzzer_stats"
    ;;
  *)
    echo "smoke: unknown engine $engine" >&2
    exit 2
    ;;
esac
echo "smoke: $engine $(basename "$binary"): no crash in ${seconds}s"
