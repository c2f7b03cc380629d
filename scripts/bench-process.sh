#!/usr/bin/env bash
# One command for the whole-process benchmark (issue #20): installs what is missing, builds
# blockls and blockls_bench_process (Release, build-bench), installs nesl-js (npm `nesl`, bench
# data only, never a product dependency) into the build directory, then times the whole
# `blockls check` (text and --format json) and a node script parsing the same 40 MB NESL
# transcript with nesl-js, side by side, and prints each target with MET / NOT MET.
# Usage: scripts/bench-process.sh [MB (40)] [REPS (5)] [NESL_JS_LIMIT_SECONDS (60)]
# Environment: BUILD_DIR (default build-bench), JOBS (default 1), NESL_VERSION.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/release-build.sh"
build_targets blockls blockls_bench_process

command -v node >/dev/null 2>&1 || { echo "bench-process: node is needed (Node >= 18)" >&2; exit 2; }
nesl_version="${NESL_VERSION:-0.1.12-beta.1}" # the only version on npm (see docs)
nesl_prefix="$build_dir/nesl-js"
if [ ! -f "$nesl_prefix/node_modules/nesl/package.json" ] ||
  [ "$(node -p "require('$nesl_prefix/node_modules/nesl/package.json').version")" != "$nesl_version" ]; then
  command -v npm >/dev/null 2>&1 || { echo "bench-process: npm is needed" >&2; exit 2; }
  mkdir -p "$nesl_prefix"
  npm install --prefix "$nesl_prefix" --no-save --no-audit --no-fund --no-package-lock \
    "nesl@$nesl_version" >&2
fi
exec "$build_dir/bench/blockls_bench_process" "$build_dir/blockls" \
  "$nesl_prefix/node_modules/nesl" "$root/bench/nesl_js_parse.js" "$@"
