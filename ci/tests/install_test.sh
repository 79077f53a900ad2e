#!/usr/bin/env bash
# Installs fairwire's core libraries into a fresh prefix and builds a consumer
# project against it with find_package(fairwire), then runs the consumer.
#   install_test.sh SOURCE_DIR WORK_DIR CXX
set -euo pipefail
src=$1 work=$2 cxx=$3
rm -rf "$work"
mkdir -p "$work"
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DFAIRWIRE_BUILD_TESTS=OFF -DFAIRWIRE_BUILD_TOOLS=ON \
  -DCMAKE_INSTALL_PREFIX="$work/prefix" >"$work/configure.log"
cmake --build "$work/build" --target fairwire_wire fairwire_protobuf >"$work/build.log"
cmake --install "$work/build" >"$work/install.log"
cmake -S "$src/ci/tests/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/consumer.log"
cmake --build "$work/consumer"
"$work/consumer/consumer"
