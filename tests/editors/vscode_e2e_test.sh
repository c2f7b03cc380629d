#!/bin/sh
# The VS Code extension in a real VS Code (code-server 4.100.3 = VS Code 1.100.3), end to end:
# installs code-server and puppeteer-core from tests/editors/vscode-e2e/package-lock.json into
# CACHE (once per lockfile; later runs reuse it), packages the linux-x64 .vsix around BLOCKLS
# (scripts/package-vsix.sh), and runs vscode-e2e/workbench.test.mjs, which writes screenshots and
# the output channel to ARTIFACTS.
# Usage: vscode_e2e_test.sh BLOCKLS CACHE ARTIFACTS. Exit 0 pass, 1 fail, 3 timeout, 77 skipped
# (only when npm cannot reach its registry, or there is no npm at all).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vscode/common.sh"
repo=$(cd "$here/../.." && pwd) # common.sh guesses them from $0, one level too high here
ext="$repo/editors/vscode"
blockls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: the steps cd elsewhere
mkdir -p "$2" "$3" || exit 1
cache=$(cd "$2" && pwd)
artifacts=$(cd "$3" && pwd)
chromium=${CHROMIUM:-/usr/bin/chromium}
fail() { echo "FAIL: $*"; exit 1; }
# common.sh skips (77) on any failed `npm ci`; here only an unreachable registry may skip.
skip() {
  if command -v npm >/dev/null 2>&1 && timeout 30 npm ping >/dev/null 2>&1; then
    fail "$* (although npm's registry answers)"
  fi
  echo "SKIP: $*"
  exit 77
}
need_node
[ -x "$chromium" ] || fail "$chromium is missing (apt-get install chromium; scripts/install-deps.sh lists it)"
command -v rg >/dev/null 2>&1 || fail "rg is missing (apt-get install ripgrep; scripts/install-deps.sh lists it)"

# code-server's install, offline apart from the npm registry: its @vscode/ripgrep would download
# rg from GitHub (its download cache is seeded with Debian's rg instead), node-pty's install runs
# `npx node-gyp` (npm_config_yes), and native modules build against Debian's Node headers.
install_code_server() {
  mkdir -p "$cache/tmp/vscode-ripgrep-cache-1.15.11" || return 1
  tar czf "$cache/tmp/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" \
    -C "$(dirname "$(command -v rg)")" rg || return 1
  cp "$here/vscode-e2e/package.json" "$here/vscode-e2e/package-lock.json" "$cache/" || return 1
  (cd "$cache" && rm -rf node_modules &&
    TMPDIR="$cache/tmp" npm_config_yes=true npm_config_nodedir=/usr npm_config_unsafe_perm=true \
      npm ci --prefer-offline --no-audit --no-fund >"$cache/npm-ci.log" 2>&1)
}
want=$(cat "$here/vscode-e2e/package-lock.json" "$here/vscode-e2e/package.json" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$cache/node_modules/.blockls-lock-sha256" 2>/dev/null)" != "$want" ]; then
  echo "== npm ci of code-server and puppeteer-core in $cache (once per lockfile; ~300 MB)"
  start=$(date +%s)
  if ! install_code_server; then
    tail -30 "$cache/npm-ci.log" 2>/dev/null
    if ! timeout 30 npm ping >/dev/null 2>&1; then
      skip "npm cannot reach its registry ($(npm config get registry)), so code-server cannot be installed"
    fi
    fail "npm ci of code-server failed although the registry answers (log: $cache/npm-ci.log)"
  fi
  echo "$want" >"$cache/node_modules/.blockls-lock-sha256"
  echo "   installed in $(($(date +%s) - start)) s"
fi
[ -f "$cache/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] ||
  fail "code-server's install is incomplete (no ripgrep); see $cache/npm-ci.log"

# The extension: its npm dependencies (shared with editors.vscode.build), then both packages.
ensure_npm_deps "$ext"
work=$(mktemp -d /tmp/blockls-vscode-e2e-vsix-XXXXXX)
BLOCKLS_SERVER="$blockls" sh "$repo/scripts/package-vsix.sh" "$work/blockls.vsix" >"$work/package.log" 2>&1 ||
  { cat "$work/package.log"; fail "scripts/package-vsix.sh"; }
node "$here/vscode/check_vsix.mjs" "$work/blockls-linux-x64.vsix" --target linux-x64 >"$work/check.log" 2>&1 ||
  { cat "$work/check.log"; fail "check_vsix.mjs --target linux-x64"; }
echo "PASS linux-x64 .vsix with the bundled server: $(ls -l "$work/blockls-linux-x64.vsix" | awk '{print $5}') bytes"

E2E_MODULES="$cache" VSIX="$work/blockls-linux-x64.vsix" BLOCKLS="$blockls" DEMO="$repo/examples/demo.transcript.md" \
  ARTIFACTS="$artifacts" CHROMIUM="$chromium" node "$here/vscode-e2e/workbench.test.mjs"
rc=$?
rm -rf "$work"
exit $rc
