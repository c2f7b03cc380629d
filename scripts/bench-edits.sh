#!/usr/bin/env bash
# One command for the edit-format workspace benchmark: installs what is missing, builds
# blockls_bench_edits (Release, build-bench) and prints the time to check 1,000 Aider edits of a
# 50,000-line file against a root, beside the target (< 50 ms).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/release-build.sh"
build_targets blockls_bench_edits
exec "$build_dir/bench/blockls_bench_edits" "$@"
