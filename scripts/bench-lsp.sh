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

source "$(dirname "${BASH_SOURCE[0]}")/lib/release-build.sh"
build_targets blockls lsp_latency

bench="$build_dir/bench/lsp/lsp_latency"
if [ ! -x "$bench" ]; then
  echo "bench-lsp.sh: $bench was not built (is libbenchmark-dev installed?)" >&2
  exit 1
fi
exec "$bench" "$build_dir/blockls" "$@"
