#!/bin/bash -eu
# ClusterFuzzLite (and OSS-Fuzz's projects/fairwire/build.sh): runs the
# repository's own build script, so there is one copy of it.
exec "$SRC/fairwire/ci/oss-fuzz/build.sh" "$@"
