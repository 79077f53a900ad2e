#!/bin/bash -eu
# Builds every fairwire fuzz target for OSS-Fuzz and ClusterFuzzLite.
#
# Runs inside the base builder's `compile`, which sets CC, CXX, CFLAGS,
# CXXFLAGS (sanitizer + coverage flags), LIB_FUZZING_ENGINE, SRC, WORK and OUT;
# nothing else is read. For each fuzz target of the build it puts in $OUT:
#   <target>                 the engine binary ($LIB_FUZZING_ENGINE)
#   <target>_seed_corpus.zip corpus/<target>/ (seeds and regressions/)
#   <target>.dict            corpus/dicts/<target>.dict, when there is one
#   <target>.options         engine options ([libfuzzer] dict=..., limits)
#
# libprotobuf: when $SRC/protobuf holds protobuf's source (the Dockerfile
# clones v21.12 there), it is built here, statically, with the same flags as
# everything else, so that every sanitizer (MSan included) instruments it.
# Otherwise the installed libprotobuf is used: statically when libprotobuf.a
# exists, else the shared libraries the targets need are copied to $OUT/lib
# and the targets find them through an $ORIGIN/lib rpath, so $OUT can move.

# The repository: this script's ../.., or $SRC/fairwire when OSS-Fuzz runs a
# copy of it from $SRC.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -f "$here/../../fuzz/CMakeLists.txt" ]; then
  root=$(cd "$here/../.." && pwd)
else
  root=$SRC/fairwire
fi

jobs=$(nproc)

# ccache (CMake picks it up when installed) does not hash the AFL_* settings
# that change afl-clang-fast's instrumentation (OSS-Fuzz draws them at random
# per build): make them part of the compiler's identity.
case "$CXX" in
  *afl-clang*)
    CCACHE_COMPILERCHECK="string:$("$CXX" --version 2>&1 | head -n 1);$(env | grep '^AFL_' | sort | tr '\n' ';')"
    export CCACHE_COMPILERCHECK
    ;;
esac
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi

# --- libprotobuf, instrumented, when its source is there --------------------
cmake_extra=()
if [ -d "$SRC/protobuf" ]; then
  pb_src=$SRC/protobuf
  [ -f "$pb_src/CMakeLists.txt" ] || pb_src=$SRC/protobuf/cmake
  pb_prefix=$WORK/protobuf-install
  cmake "${generator[@]}" -S "$pb_src" -B "$WORK/protobuf-build" \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
    -DCMAKE_INSTALL_PREFIX="$pb_prefix" -DCMAKE_INSTALL_LIBDIR=lib \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -Dprotobuf_BUILD_TESTS=OFF -Dprotobuf_BUILD_SHARED_LIBS=OFF \
    -Dprotobuf_BUILD_PROTOC_BINARIES=OFF -Dprotobuf_WITH_ZLIB=OFF \
    -Dprotobuf_BUILD_LIBPROTOC=OFF
  cmake --build "$WORK/protobuf-build" -j "$jobs"
  cmake --install "$WORK/protobuf-build"
  # protoc is a build tool: the Dockerfile installs an uninstrumented one.
  cmake_extra+=(-DCMAKE_PREFIX_PATH="$pb_prefix" -DProtobuf_USE_STATIC_LIBS=ON)
else
  static=""
  for dir in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
    [ -f "$dir/libprotobuf.a" ] && static=yes
  done
  if [ -n "$static" ]; then
    cmake_extra+=(-DProtobuf_USE_STATIC_LIBS=ON)
  else
    # DT_RPATH (not RUNPATH) so that $ORIGIN/lib also serves the copied
    # libraries' own dependencies (libprotobuf's libz).
    cmake_extra+=("-DCMAKE_EXE_LINKER_FLAGS=-Wl,--disable-new-dtags")
  fi
fi

# --- fairwire's fuzz targets, with the external engine ----------------------
# Without adapters/: the third-party decoders there are Debian's prebuilt,
# uninstrumented libraries (MSan would flag every byte they write), and each
# belongs in its own project's OSS-Fuzz build, through the installed kit.
build=$WORK/fairwire-build
rm -rf "$build"
# CMake reads CXXFLAGS from the environment at this first configure.
cmake "${generator[@]}" -S "$root" -B "$build" \
  -DCMAKE_CXX_COMPILER="$CXX" \
  -DFAIRWIRE_BUILD_TESTS=OFF -DFAIRWIRE_BUILD_TOOLS=OFF \
  -DFAIRWIRE_BUILD_BENCHMARKS=OFF -DFAIRWIRE_INSTALL=OFF \
  -DFAIRWIRE_BUILD_FUZZERS=ON -DFAIRWIRE_FUZZ_ENGINE=external \
  -DFAIRWIRE_ADAPTERS=OFF \
  -DFAIRWIRE_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DCMAKE_BUILD_RPATH='$ORIGIN/lib' -DCMAKE_BUILD_RPATH_USE_ORIGIN=ON \
  "${cmake_extra[@]}"

# The targets: every fairwire_add_fuzz_target of the build, each with its
# manifest (<build>/fairwire-targets/<target>.json: binary, corpus, dict,
# options), the same files by which the fairwire command finds them.
field() {  # field MANIFEST KEY: a string value of the manifest
  sed -n "s/^[[:space:]]*\"$2\": \"\(.*\)\",\{0,1\}$/\1/p" "$1" | head -n 1
}
targets=()
for manifest in "$build"/fairwire-targets/*.json; do
  [ -f "$manifest" ] || continue
  targets+=("$(field "$manifest" name)")
done
if [ ${#targets[@]} -eq 0 ]; then
  echo "build.sh: no fuzz targets in $build/fairwire-targets" >&2
  exit 1
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

mkdir -p "$OUT"
for target in "${targets[@]}"; do
  manifest=$build/fairwire-targets/$target.json
  cp "$(field "$manifest" fuzzer)" "$OUT/$target"
  corpus=$(field "$manifest" corpus)
  dict=$(field "$manifest" dict)
  target_options=$(field "$manifest" options)

  # Seeds and regressions in one flat zip (regressions prefixed, so names
  # cannot collide); README files and dotfiles are notes, not inputs.
  stage=$WORK/seeds/$target
  rm -rf "$stage" "$OUT/${target}_seed_corpus.zip"
  mkdir -p "$stage"
  if [ -d "$corpus" ]; then
    find "$corpus" -maxdepth 1 -type f ! -name '.*' ! -name 'README*' \
      -exec cp {} "$stage/" \;
    if [ -d "$corpus/regressions" ]; then
      find "$corpus/regressions" -type f ! -name '.*' ! -name 'README*' |
        while read -r f; do cp "$f" "$stage/regression-$(basename "$f")"; done
    fi
  fi
  if [ -n "$(ls -A "$stage")" ]; then
    (cd "$stage" && zip -q -X "$OUT/${target}_seed_corpus.zip" ./*)
  fi

  options="$OUT/$target.options"
  {
    echo "[libfuzzer]"
    echo "timeout = 25"
    # The target's own flags (fuzz/<target>/<target>.options), as
    # the fairwire command's fuzz run passes them.
    if [ -n "$target_options" ]; then
      sed -n '/^\[libfuzzer\]/,/^\[/{/^\[/d;/^[[:space:]]*#/d;/^[[:space:]]*$/d;p}' \
        "$target_options"
    fi
  } >"$options"
  if [ -n "$dict" ]; then
    cp "$dict" "$OUT/$target.dict"
    echo "dict = $target.dict" >>"$options"
  fi
done

# Shared libraries the targets load from outside the system's base set go to
# $OUT/lib (found through the $ORIGIN/lib rpath), so the targets still run on
# ClusterFuzz's runner image and after $OUT is moved.
for target in "${targets[@]}"; do
  ldd "$OUT/$target" 2>/dev/null | awk '/=> \// {print $3}' |
    grep -E '/lib(protobuf|protoc|absl|z\.so|c\+\+)' || true
done | sort -u | while read -r lib; do
  mkdir -p "$OUT/lib"
  cp -L "$lib" "$OUT/lib/"
done

echo "build.sh: built ${targets[*]} into $OUT"
