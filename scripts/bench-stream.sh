#!/usr/bin/env bash
# One command for the stream benchmark: installs what is missing, builds blockls_bench_stream
# (Release, build-bench) and prints stream throughput at 64-byte and 4 KiB chunks beside the
# one-shot check and beside the one-shot check + its JSON text (target >= 0.8x each); the whole
# processes: the real `blockls stream` fed 64-byte and 4 KiB reads through a pipe beside
# `blockls check --format json FILE`, by CPU time, with `cat` fed the same way as the floor; and
# the block_end latency (target p99 < 1 ms), in-process and through a pipe to the real
# `blockls stream` (each block written up to its closing line, the clock stopped when its
# block_end line is read back).
# Usage: scripts/bench-stream.sh [MB (2)]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/release-build.sh"
build_targets blockls blockls_bench_stream
exec "$build_dir/bench/blockls_bench_stream" "${1:-2}" "$build_dir/blockls"
