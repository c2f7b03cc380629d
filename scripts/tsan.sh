#!/usr/bin/env bash
# The test suite under ThreadSanitizer (not part of the README's test command: it takes another
# ~15 minutes on 2 cores). Builds with -DBLOCKLS_TSAN=ON in build-tsan (GCC, RelWithDebInfo,
# system allocator), runs every test but the VS Code workbench (the binaries the CLI, LSP and
# stream tests start are the TSan build too), and fails when any process reported a race:
# reports go to one file per process, listed and printed at the end.
# Environment: BUILD_DIR (default build-tsan), BLOCKLS_JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

build_dir="${BUILD_DIR:-build-tsan}"
jobs="${BLOCKLS_JOBS:-2}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLOCKLS_TSAN=ON \
  -DBLOCKLS_BENCH=OFF -DBLOCKLS_WERROR=ON >/dev/null
cmake --build "$build_dir" -j "$jobs"

reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT
status=0
TSAN_OPTIONS="halt_on_error=0 log_path=$reports/tsan" \
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" -E workbench || status=$?
if compgen -G "$reports/tsan*" >/dev/null; then
  echo "== ThreadSanitizer reports:"
  for f in "$reports"/tsan*; do
    echo "-- $f"
    cat "$f"
  done
  exit 1
fi
echo "== no ThreadSanitizer report"
exit "$status"
