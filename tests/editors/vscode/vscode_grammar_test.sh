#!/bin/sh
# TextMate grammars of the VS Code extension, tokenized with vscode-textmate (grammar.test.mjs).
# Exit 0 pass, 1 fail, 77 skipped.
set -u
. "$(dirname "$0")/common.sh"
here=$(cd "$(dirname "$0")" && pwd)
ensure_npm_deps "$ext"
(cd "$ext" && node syntaxes/generate.mjs --check) || exit 1
exec node "$here/grammar.test.mjs" "$repo/examples/demo.transcript.md"
