#!/usr/bin/env bash
# One command for the throughput benchmark: installs what is missing (scripts/install-deps.sh),
# configures a Release build in build-bench, builds blockls_bench, runs it and prints the report
# (MB/s of memchr vs parse+validate, the ratio, the multiple of nesl-js, peak heap / input).
# Usage: scripts/bench.sh [blockls_bench flags...]   e.g. --benchmark_filter=mixed
#        --transcript_mb=N (default 10), --seed=N, --write_transcripts=DIR
# Environment: BUILD_DIR (default build-bench), JOBS (default 1: the machines are shared).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build-bench}"
jobs="${JOBS:-1}"

"$root/scripts/install-deps.sh"

# GCC 12 at -O3 (Release only) raises a false -Wrestrict on std::string assignments (GCC bug
# 105651); keep it a warning here so a compiler bug cannot stop the benchmark build.
extra_flags=""
if ! echo | "${CXX:-c++}" -dM -E -x c++ - 2>/dev/null | grep -q __clang__; then
  extra_flags="-Wno-error=restrict"
fi
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="${CXXFLAGS:-} $extra_flags" \
  -DBLOCKLS_BENCH=ON -DBLOCKLS_TESTS=OFF -DBLOCKLS_FUZZ=OFF -DBLOCKLS_SANITIZE=OFF >/dev/null
cmake --build "$build_dir" --target blockls_bench -- -j"$jobs"

bench="$build_dir/bench/blockls_bench"
if [ ! -x "$bench" ]; then
  echo "bench.sh: $bench was not built (is libbenchmark-dev installed?)" >&2
  exit 1
fi
exec "$bench" "$@"
