# The checks of OSS-Fuzz's bad_build_check and test_all
# (infra/base-images/base-runner), rewritten for check-build, which sources
# this file. Each check prints one line: PASS|FAIL CONFIG TARGET CHECK: detail.
# shellcheck shell=bash disable=SC2154,SC2034
# Globals shared with check-build: root, work (the work folder), results
# (set to 1 on any FAIL), logdir (set by check_config).

# Thresholds, as in bad_build_check.
readonly kMinRuns=4
readonly kMinEdges=100
readonly kAsanCallsInAsanBuild=1000
readonly kUbsanCallsInUbsanBuild=168
readonly kUbsanCallsInOtherBuild=200
readonly kMsanCallsInOtherBuild=3
readonly kAflReadySeconds=35

# report PASS|FAIL CONFIG TARGET CHECK DETAIL
report() {
  local line
  line=$(printf '%s %-20s %-22s %-9s %s' "$1" "$2" "$3" "$4:" "$5")
  echo "$line"
  echo "$line" >>"$work/results"
  [ "$1" = FAIL ] && results=1
  return 0
}

# The fuzz targets in OUT, found as test_all finds them: executable ELF files
# at the top of OUT that contain LLVMFuzzerTestOneInput, not afl-*.
find_targets() {
  local out=$1 f
  for f in "$out"/*; do
    if [ ! -f "$f" ] || [ ! -x "$f" ]; then continue; fi
    case "$(basename "$f")" in afl-*) continue ;; esac
    grep -q LLVMFuzzerTestOneInput "$f" 2>/dev/null || continue
    file "$f" | grep -q ELF || continue
    basename "$f"
  done
}

# libFuzzer options from the [libfuzzer] section of TARGET.options, plus the
# dictionary, as run_fuzzer passes them.
libfuzzer_args() {
  local out=$1 target=$2
  local options=$out/$target.options
  if [ -f "$options" ]; then
    awk -F'=' '
      /^\[/ { in_lf = ($0 ~ /^\[libfuzzer\]/); next }
      in_lf && NF >= 2 {
        key = $1; val = substr($0, index($0, "=") + 1)
        gsub(/[ \t]/, "", key); gsub(/^[ \t]+|[ \t]+$/, "", val)
        print "-" key "=" val
      }' "$options"
  fi
  if [ -f "$out/$target.dict" ] && ! grep -qE '^[[:space:]]*dict[[:space:]]*=' "$options" 2>/dev/null; then
    echo "-dict=$target.dict"
  fi
}

# check_libfuzzer CONFIG OUT TARGET: 4 runs with seed 1337, edge count.
check_libfuzzer() {
  local config=$1 out=$2 target=$3 log=$logdir/$3.runs.log
  local -a args
  mapfile -t args < <(libfuzzer_args "$out" "$target")
  (cd "$out" && "./$target" -rss_limit_mb=2560 -timeout=25 "${args[@]}" \
     -seed=1337 -runs=$kMinRuns </dev/null) >"$log" 2>&1
  local done_runs
  done_runs=$(grep -c "Done $kMinRuns runs" "$log")
  if [ "$done_runs" -gt 0 ]; then
    report PASS "$config" "$target" runs "Done $kMinRuns runs with -seed=1337"
  else
    report FAIL "$config" "$target" runs "startup crash or exit (log: $log)"
    tail -n 20 "$log" | sed 's/^/    /'
  fi
  local edges
  edges=$(grep -Po 'INFO: Loaded [[:digit:]]+ module.*\(.*(counters|guards)\):[[:space:]]+\K[[:digit:]]+' "$log" | head -n 1)
  if [ -z "$edges" ]; then
    report FAIL "$config" "$target" edges "no 'INFO: Loaded N modules' line (not instrumented?)"
  elif [ "$edges" -lt $kMinEdges ]; then
    report FAIL "$config" "$target" edges "$edges < $kMinEdges: partial coverage instrumentation"
  else
    report PASS "$config" "$target" edges "$edges >= $kMinEdges"
  fi
}

# check_seed_corpus CONFIG OUT TARGET: every seed replays with -runs=0.
check_seed_corpus() {
  local config=$1 out=$2 target=$3 log=$logdir/$3.seeds.log
  local zip=$out/${target}_seed_corpus.zip
  if [ ! -f "$zip" ]; then
    report FAIL "$config" "$target" seeds "no ${target}_seed_corpus.zip"
    return
  fi
  local corpus
  corpus=$(mktemp -d)
  unzip -q -o -d "$corpus" "$zip"
  local count
  count=$(find "$corpus" -type f | wc -l)
  local -a args
  mapfile -t args < <(libfuzzer_args "$out" "$target")
  if (cd "$out" && "./$target" -rss_limit_mb=2560 -timeout=25 "${args[@]}" \
        -runs=0 "$corpus" </dev/null) >"$log" 2>&1; then
    report PASS "$config" "$target" seeds "$count inputs replayed with -runs=0"
  else
    report FAIL "$config" "$target" seeds "a seed crashes (log: $log)"
    grep -E 'fairwire:|ERROR|SUMMARY' "$log" | head -n 10 | sed 's/^/    /'
  fi
  rm -rf "$corpus"
}

# check_afl CONFIG OUT TARGET: afl-fuzz reaches its ready message within 35s
# (OSS-Fuzz's run_fuzzer environment, without the seed corpus), and the
# target neither crashes nor exits at startup. Stops afl-fuzz once ready.
check_afl() {
  local config=$1 out=$2 target=$3 log=$logdir/$3.afl.log
  local dir
  dir=$(mktemp -d)
  mkdir -p "$dir/in"
  echo input >"$dir/in/input"
  local -a dict=()
  [ -f "$out/$target.dict" ] && dict=(-x "$out/$target.dict")
  local t0
  t0=$(date +%s)
  : >"$log"
  (
    cd "$out" || exit 1
    export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
    export AFL_FORKSRV_INIT_TMOUT=30000 AFL_FAST_CAL=1 AFL_IGNORE_PROBLEMS=1
    export AFL_IGNORE_UNKNOWN_ENVS=1 AFL_NO_AFFINITY=1
    export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_odr_violation=0
    export UBSAN_OPTIONS=silence_unsigned_overflow=1:symbolize=0
    exec timeout --preserve-status -s INT ${kAflReadySeconds}s \
      afl-fuzz -t 5000+ -i "$dir/in" -o "$dir/out" "${dict[@]}" -- "$out/$target"
  ) >"$log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if grep -q "All set and ready to roll" "$log"; then
      kill -INT "$pid" 2>/dev/null
      break
    fi
    sleep 1
  done
  wait "$pid" 2>/dev/null
  local seconds=$(( $(date +%s) - t0 ))
  if grep -q "All set and ready to roll" "$log"; then
    report PASS "$config" "$target" afl-ready "'All set and ready to roll' after ${seconds}s (limit ${kAflReadySeconds}s)"
  else
    report FAIL "$config" "$target" afl-ready "no ready message within ${kAflReadySeconds}s (log: $log)"
    grep -E 'PROGRAM ABORT|Whoops|Hmm|ERROR' "$log" | head -n 5 | sed 's/^/    /'
  fi
  if grep -qE "target binary (crashed|terminated)" "$log"; then
    report FAIL "$config" "$target" startup "the target crashed or terminated at startup (log: $log)"
  else
    report PASS "$config" "$target" startup "no crash or exit at startup under afl-fuzz"
  fi
  rm -rf "$dir"
}

# check_sanitizer_calls CONFIG OUT TARGET SANITIZER: calls to each sanitizer
# runtime counted in objdump's disassembly, against bad_build_check's limits.
check_sanitizer_calls() {
  local config=$1 out=$2 target=$3 sanitizer=$4 engine=${1%%-*}
  local counts asan dfsan msan ubsan
  counts=$(objdump -dC "$out/$target" | awk '
    /callq?[ \t]+[0-9a-f]+[ \t]+<__asan/  { a++ }
    /callq?[ \t]+[0-9a-f]+[ \t]+<__dfsan/ { d++ }
    /callq?[ \t]+[0-9a-f]+[ \t]+<__msan/  { m++ }
    /callq?[ \t]+[0-9a-f]+[ \t]+<__ubsan/ { u++ }
    END { printf "%d %d %d %d", a, d, m, u }')
  read -r asan dfsan msan ubsan <<<"$counts"
  local detail="asan $asan, ubsan $ubsan, msan $msan, dfsan $dfsan calls"
  local problem=""
  case "$sanitizer" in
    address)
      [ "$asan" -lt $kAsanCallsInAsanBuild ] && problem="asan < $kAsanCallsInAsanBuild: not built with ASan"
      [ "$dfsan" -gt 0 ] && problem="built with DFSan too"
      [ "$msan" -gt $kMsanCallsInOtherBuild ] && problem="built with MSan too"
      [ "$ubsan" -gt $kUbsanCallsInOtherBuild ] && problem="ubsan > $kUbsanCallsInOtherBuild: built with UBSan too"
      ;;
    undefined)
      if [ "$engine" != libfuzzer ]; then
        report PASS "$config" "$target" sanitizer "$detail (not checked for $engine, as in OSS-Fuzz)"
        return
      fi
      [ "$asan" -gt 0 ] && problem="built with ASan too"
      [ "$dfsan" -gt 0 ] && problem="built with DFSan too"
      [ "$msan" -gt $kMsanCallsInOtherBuild ] && problem="built with MSan too"
      [ "$ubsan" -lt $kUbsanCallsInUbsanBuild ] && problem="ubsan < $kUbsanCallsInUbsanBuild: not built with UBSan"
      ;;
  esac
  if [ -n "$problem" ]; then
    report FAIL "$config" "$target" sanitizer "$detail: $problem"
  else
    report PASS "$config" "$target" sanitizer "$detail"
  fi
}

# check_coverage CONFIG OUT TARGET: a coverage build replays its seed corpus
# and writes a raw profile (what the coverage task merges into its report).
check_coverage() {
  local config=$1 out=$2 target=$3 log=$logdir/$3.coverage.log
  local corpus
  corpus=$(mktemp -d)
  mkdir -p "$corpus/in" "$corpus/profile"
  [ -f "$out/${target}_seed_corpus.zip" ] &&
    unzip -q -o -d "$corpus/in" "$out/${target}_seed_corpus.zip"
  if (cd "$out" && LLVM_PROFILE_FILE="$corpus/profile/%m.profraw" \
        "./$target" -runs=0 "$corpus/in" </dev/null) >"$log" 2>&1 &&
     [ -n "$(find "$corpus/profile" -name '*.profraw' -size +0)" ]; then
    report PASS "$config" "$target" coverage "seed corpus replayed, raw profile written"
  else
    report FAIL "$config" "$target" coverage "no replay or no profile (log: $log)"
  fi
  rm -rf "$corpus"
}

# check_moved CONFIG OUT OLD_OUT WORK TARGET: after the move, every shared
# library the target needs resolves, and none from the old $OUT, $WORK or any
# folder the runner image lacks (only the C/C++ runtime may come from the
# system; anything else must be in $OUT/lib).
check_moved() {
  local config=$1 out=$2 old_out=$3 workdir=$4 target=$5
  local deps bad=""
  deps=$(ldd "$out/$target" 2>&1)
  if grep -q 'not found' <<<"$deps"; then
    bad="missing: $(grep 'not found' <<<"$deps" | awk '{print $1}' | tr '\n' ' ')"
  fi
  local lib
  while read -r lib; do
    [ -z "$lib" ] && continue
    case "$lib" in
      "$out"/*) ;;
      "$old_out"/* | "$workdir"/*) bad="$bad from the build: $lib" ;;
      */libc.so.* | */libm.so.* | */libstdc++.so.* | */libgcc_s.so.* | \
        */libpthread.so.* | */libdl.so.* | */librt.so.* | */ld-linux*) ;;
      *) bad="$bad not on the runner: $lib" ;;
    esac
  done < <(awk '/=> \// {print $3} /^\t\// {print $1}' <<<"$deps")
  if [ -n "$bad" ]; then
    report FAIL "$config" "$target" moved "$bad"
  else
    local n
    n=$(grep -c '=> /' <<<"$deps")
    report PASS "$config" "$target" moved "runs from a moved \$OUT; $n shared libraries, all C/C++ runtime or in \$OUT/lib"
  fi
}

# check_files CONFIG OUT TARGET: the files OSS-Fuzz picks up next to it.
check_files() {
  local config=$1 out=$2 target=$3
  local missing=""
  [ -f "$out/${target}_seed_corpus.zip" ] || missing="$missing ${target}_seed_corpus.zip"
  [ -f "$out/$target.options" ] || missing="$missing $target.options"
  if [ -f "$root/corpus/dicts/$target.dict" ] && [ ! -f "$out/$target.dict" ]; then
    missing="$missing $target.dict"
  fi
  if [ -n "$missing" ]; then
    report FAIL "$config" "$target" files "missing:$missing"
  else
    local have="seed corpus, options"
    [ -f "$out/$target.dict" ] && have="$have, dict"
    report PASS "$config" "$target" files "$have"
  fi
}

# check_config CONFIG OUT OLD_OUT WORK: every check on every target in OUT.
check_config() {
  local config=$1 out=$2 old_out=$3 workdir=$4
  local engine=${config%%-*} sanitizer=${config#*-}
  logdir=$work/$config/logs
  rm -rf "$logdir" && mkdir -p "$logdir"
  local -a targets expected
  mapfile -t targets < <(find_targets "$out")
  mapfile -t expected < <(sed -n 's/^[[:space:]]*fairwire_add_fuzz_target([[:space:]]*\([A-Za-z0-9_-]*\).*/\1/p' \
                           "$root"/fuzz/*/CMakeLists.txt 2>/dev/null | sort)
  local found
  found=$(printf '%s\n' "${targets[@]}" | sort | tr '\n' ' ')
  if [ ${#targets[@]} -eq 0 ]; then
    report FAIL "$config" - targets "no fuzz targets in \$OUT"
    return
  elif [ "$found" != "$(printf '%s\n' "${expected[@]}" | tr '\n' ' ')" ]; then
    report FAIL "$config" - targets "in \$OUT: $found; in fuzz/*/CMakeLists.txt: ${expected[*]}"
  else
    report PASS "$config" - targets "${#targets[@]}: $found"
  fi
  local target
  for target in "${targets[@]}"; do
    if [[ "$target" =~ ^[A-Za-z0-9_-]+$ ]]; then
      report PASS "$config" "$target" name "matches [A-Za-z0-9_-]+"
    else
      report FAIL "$config" "$target" name "does not match [A-Za-z0-9_-]+"
    fi
    if file "$out/$target" | grep -q 'x86-64'; then
      report PASS "$config" "$target" arch "x86-64 ELF"
    else
      report FAIL "$config" "$target" arch "not an x86-64 ELF: $(file -b "$out/$target")"
    fi
    check_files "$config" "$out" "$target"
    check_moved "$config" "$out" "$old_out" "$workdir" "$target"
    if [ "$sanitizer" = coverage ]; then
      check_coverage "$config" "$out" "$target"
      continue
    elif [ "$engine" = libfuzzer ]; then
      check_libfuzzer "$config" "$out" "$target"
      check_seed_corpus "$config" "$out" "$target"
    else
      check_afl "$config" "$out" "$target"
    fi
    check_sanitizer_calls "$config" "$out" "$target" "$sanitizer"
  done
}
