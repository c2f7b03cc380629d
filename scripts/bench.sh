#!/usr/bin/env bash
# One command for the throughput benchmark: installs what is missing (scripts/install-deps.sh),
# configures a Release build in build-bench, builds blockls_bench, runs it and prints the report
# (MB/s of memchr vs parse+validate, the ratio, the multiple of nesl-js, peak heap / input).
# Usage: scripts/bench.sh [blockls_bench flags...]   e.g. --benchmark_filter=mixed
#        --transcript_mb=N (default 10), --seed=N, --write_transcripts=DIR
# Environment: BUILD_DIR (default build-bench), JOBS (default 1: the machines are shared).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/release-build.sh"
build_targets blockls_bench

bench="$build_dir/bench/blockls_bench"
if [ ! -x "$bench" ]; then
  echo "bench.sh: $bench was not built (is libbenchmark-dev installed?)" >&2
  exit 1
fi
exec "$bench" "$@"
