#!/usr/bin/env bash
# One command for the hostile-input benchmark: installs what is missing, builds blockls and
# blockls_bench_hostile (Release, build-bench), then times `blockls check`, `check --format
# feedback` and `stream` on transcripts that are all mistakes (the shapes that once made them
# quadratic) at 256 KB and 1 MB: seconds per MB and the growth (4x is linear), against the aim
# (growth <= 6x, <= 1 s per MB).
# Usage: scripts/bench-hostile.sh
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/release-build.sh"
build_targets blockls blockls_bench_hostile
exec "$build_dir/bench/blockls_bench_hostile" "$build_dir/blockls"
