#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs the whole test suite
# twice — a normal build, then under AddressSanitizer + UndefinedBehaviorSanitizer.
# BLOCKLS_SKIP_SANITIZE=1 skips the second pass (for quick local runs; CI runs both).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

jobs="${BLOCKLS_JOBS:-2}"

run_suite() {
  local dir="$1"; shift
  cmake -S . -B "$dir" -G Ninja -DBLOCKLS_BENCH=OFF -DBLOCKLS_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

echo "== build and test (RelWithDebInfo)"
run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo

if [ "${BLOCKLS_SKIP_SANITIZE:-0}" != "1" ]; then
  echo "== build and test under ASan + UBSan"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite build-sanitize -DCMAKE_BUILD_TYPE=Debug -DBLOCKLS_SANITIZE=ON
fi
