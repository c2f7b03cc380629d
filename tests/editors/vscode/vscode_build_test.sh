#!/bin/sh
# VS Code extension build: npm ci (once per lockfile), grammars up to date, TypeScript type
# check, esbuild bundle, `vsce package` offline, then the .vsix manifest is checked
# (check_vsix.mjs). Usage: vscode_build_test.sh. Exit 0 pass, 1 fail, 77 skipped.
set -u
. "$(dirname "$0")/common.sh"
here=$(cd "$(dirname "$0")" && pwd)
ensure_npm_deps "$ext"
work=$(mktemp -d /tmp/blockls-vsix-XXXXXX)
step() { echo "== $*"; "$@" || { echo "FAIL: $*"; exit 1; }; }
cd "$ext" || exit 1
step node syntaxes/generate.mjs --check
step npx --no-install tsc --noEmit -p .
step npm run --silent bundle
step npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license --out "$work/blockls.vsix"
step node "$here/check_vsix.mjs" "$work/blockls.vsix"
ls -l "$work/blockls.vsix"
rm -rf "$work"
echo "RESULT: PASS"
