#!/usr/bin/env bash
# Installs fairwire into a fresh prefix, then builds examples/consumer against
# it as a user's project: the cores, and a fuzz target of its own built with
# clang-14, libFuzzer and ASan+UBSan; runs the consumer's ctest (the cores,
# the corpus replay, a 5 s fuzz smoke) and the installed `fairwire` command.
#   install_test.sh SOURCE_DIR WORK_DIR CXX CLANGXX
set -euo pipefail
src=$1 work=$2 cxx=$3 clangxx=$4
rm -rf "$work"
mkdir -p "$work"
step() { echo "=== install_test: $*"; }
step "install fairwire ($cxx, Release) into $work/prefix"
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DFAIRWIRE_BUILD_TESTS=OFF -DFAIRWIRE_BUILD_TOOLS=ON -DFAIRWIRE_WERROR=ON \
  -DCMAKE_INSTALL_PREFIX="$work/prefix" >"$work/configure.log"
cmake --build "$work/build" >"$work/build.log" || { tail -50 "$work/build.log"; exit 1; }
cmake --install "$work/build" >"$work/install.log"

step "configure and build examples/consumer ($clangxx, libFuzzer, ASan+UBSan)"
cmake -S "$src/examples/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$clangxx" \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DFAIRWIRE_BUILD_FUZZERS=ON -DFAIRWIRE_FUZZ_ENGINE=libfuzzer \
  -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/consumer.log" || { cat "$work/consumer.log"; exit 1; }
cmake --build "$work/consumer"

step "ctest in the consumer"
ctest --test-dir "$work/consumer" --output-on-failure | tee "$work/ctest.log"
for t in consumer.uses_the_cores consumer.regressions corpus.consumer_int64_list \
         fuzz-smoke.libfuzzer.consumer_int64_list known-divergences.int64_list \
         corpus.int64_list_decode_diff fuzz-smoke.libfuzzer.int64_list_decode_diff \
         corpus.int64_list_packed_unpacked kit-properties.int64_list \
         corpus.ring_poll_fuzz fuzz-smoke.libfuzzer.ring_poll_fuzz kit-properties.ring_poll; do
  grep -q "Test *#[0-9]*: $t .*Passed" "$work/ctest.log" || { echo "install_test: $t did not pass"; exit 1; }
done

step "the installed fairwire command finds the consumer's target"
PATH="$work/prefix/bin:$PATH" fairwire fuzz list --build-dir "$work/consumer" | tee "$work/list.log"
grep -q consumer_int64_list "$work/list.log"
step "the installed fairwire mutate: mutants of the consumer's decoder against its kit's checks"
# A copy of examples/consumer (g++, Debug, no fuzzers) with a sample of
# int64_list.cc's mutants built in, run against its kit and corpus tests.
PATH="$work/prefix/bin:$PATH" fairwire mutate --root "$src/examples/consumer" \
  --cmake-arg=-DCMAKE_PREFIX_PATH="$work/prefix" --labels 'kit|corpus' \
  --sample 8 --seed 1 --jobs 2 --out "$work/mutate" int64_list.cc 2>&1 | tee "$work/mutate.log"
grep -qE 'mutate: score [0-9.]+% \([1-9][0-9]*/8 killed\)' "$work/mutate.log" ||
  { echo "install_test: fairwire mutate killed no mutant of the consumer's decoder"; exit 1; }
echo "install_test: passed"
