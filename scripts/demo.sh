#!/usr/bin/env bash
# The README's first command: installs what is missing, builds blockls and checks the bundled
# example transcript, printing compiler-style diagnostics. (Exit status 1 from `check` is
# expected: the example contains broken blocks on purpose.)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBLOCKLS_BENCH=OFF -DBLOCKLS_WERROR=ON >/dev/null
cmake --build build -j "${BLOCKLS_JOBS:-2}" --target blockls

echo
echo "== ./build/blockls check examples/mixed.transcript.md"
status=0
./build/blockls check --color=auto examples/mixed.transcript.md || status=$?
echo
echo "(exit status $status: 0 = no errors, 1 = errors found, 2 = usage or I/O error)"
[ "$status" -le 1 ]
