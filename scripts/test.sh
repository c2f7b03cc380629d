#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs the whole test suite
# twice — a GCC Release build (what a user's plain `cmake -DCMAKE_BUILD_TYPE=Release` gets),
# then a clang Release build (with -g) under AddressSanitizer + UndefinedBehaviorSanitizer.
# So CI builds Release with both compilers, each with -Werror: a warning either raises fails.
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

echo "== build and test (GCC, Release)"
run_suite build -DCMAKE_BUILD_TYPE=Release

if [ "${BLOCKLS_SKIP_SANITIZE:-0}" != "1" ]; then
  echo "== build and test with clang, Release, under ASan + UBSan"
  CC=clang CXX=clang++ \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite build-clang-sanitize -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-g \
    -DBLOCKLS_SANITIZE=ON
fi
