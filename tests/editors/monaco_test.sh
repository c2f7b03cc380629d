#!/bin/sh
# The VS Code extension's client code (editors/vscode/src/features.ts) in Monaco with the real
# VS Code API, in headless Chromium, against the real `blockls lsp` (tests/editors/monaco).
# Builds the page with vite into a temporary directory, runs bridge.mjs, and saves the screenshot
# (diagnostics, code lenses, the quick-fix menu) to SCREENSHOT.
# Usage: monaco_test.sh BLOCKLS [SCREENSHOT.png]. Exit 0 pass, 1 fail, 3 timeout, 77 skipped.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vscode/common.sh"
repo=$(cd "$here/../.." && pwd)
blockls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")  # absolute: the tests cd elsewhere
shot=${2:-}
chromium=${CHROMIUM:-chromium}
command -v "$chromium" >/dev/null 2>&1 ||
  skip "chromium is not installed (apt-get install chromium; scripts/install-deps.sh lists it)"
ensure_npm_deps "$here/monaco"
work=$(mktemp -d /tmp/blockls-monaco-XXXXXX)
cd "$here/monaco" || exit 1
DIST="$work/dist" npx --no-install vite build >"$work/vite.log" 2>&1 || { cat "$work/vite.log"; echo "FAIL: vite build"; exit 1; }
DIST="$work/dist" CHROMIUM=$chromium node bridge.mjs "$blockls" "$repo/examples/demo.transcript.md" ${shot:+"$shot"}
rc=$?
rm -rf "$work"
exit $rc
