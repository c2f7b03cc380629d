#!/bin/sh
# The extension's requests (editors/vscode/src/protocol.ts) against the real `blockls lsp`
# from Node (vscode-jsonrpc): lsp_client.test.mjs. Usage: vscode_lsp_client_test.sh BLOCKLS.
# Exit 0 pass, 1 fail, 2 exception, 3 timeout, 77 skipped.
set -u
. "$(dirname "$0")/common.sh"
here=$(cd "$(dirname "$0")" && pwd)
blockls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")  # absolute: the tests cd elsewhere
ensure_npm_deps "$ext"
work=$(mktemp -d /tmp/blockls-vscode-lsp-XXXXXX)
build_protocol "$work/protocol.mjs"
PROTOCOL_MJS="$work/protocol.mjs" node "$here/lsp_client.test.mjs" "$blockls" "$repo/examples/demo.transcript.md"
rc=$?
rm -rf "$work"
exit $rc
