#!/usr/bin/env bash
# One command for the language server latency benchmark: installs what is missing
# (scripts/install-deps.sh), configures a Release build in build-bench, builds blockls and
# lsp_latency, then runs lsp_latency against the real binary and prints the report
# (p50/p90/p99 of didChange -> publishDiagnostics at 1 MB and 10 MB, with and without a
# workspace root, and the verdict on the target p99 < 5 ms at 1 MB).
# Usage: scripts/bench-lsp.sh [MEGABYTES...] [--edits N] [--no-root | --root] [benchmark flags]
#        e.g. scripts/bench-lsp.sh 1 --edits 500
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
cmake --build "$build_dir" --target blockls lsp_latency -- -j"$jobs"

bench="$build_dir/bench/lsp/lsp_latency"
if [ ! -x "$bench" ]; then
  echo "bench-lsp.sh: $bench was not built (is libbenchmark-dev installed?)" >&2
  exit 1
fi
exec "$bench" "$build_dir/blockls" "$@"
