#!/usr/bin/env bash
# One command for the many-files benchmark: installs what is missing, builds blockls and
# blockls_bench_files (Release, build-bench), then times `blockls check` over 400 generated
# transcripts (40 MB) with -j 1 and -j 2 as a user runs it, beside the target (-j 2 <= 0.6x).
# Usage: scripts/bench-files.sh [FILES (400)] [KB_PER_FILE (100)]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/release-build.sh"
build_targets blockls blockls_bench_files
exec "$build_dir/bench/blockls_bench_files" "$build_dir/blockls" "$@"
