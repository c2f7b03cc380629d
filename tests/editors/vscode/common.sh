# Sourced by the VS Code extension tests. Provides ensure_npm_deps DIR: `npm ci` once per
# package-lock.json (a stamp in node_modules records which), exit 77 (CTest skip) when node/npm
# are missing or the install fails (no registry and no cache). Afterwards everything is offline.
repo=$(cd "$(dirname "$0")/../../.." && pwd)
ext="$repo/editors/vscode"
export npm_config_cache="${npm_config_cache:-${BLOCKLS_NPM_CACHE:-$HOME/.npm}}"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

skip() { echo "SKIP: $*"; exit 77; }

need_node() {
  command -v node >/dev/null 2>&1 || skip "node is not installed (Node 20 + npm are needed for the VS Code extension)"
  command -v npm >/dev/null 2>&1 || skip "npm is not installed"
  major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge 18 ] || skip "node $major is too old (need >= 18)"
}

ensure_npm_deps() {
  dir=$1
  need_node
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  have=$(cat "$dir/node_modules/.blockls-lock-sha256" 2>/dev/null || true)
  if [ "$want" != "$have" ]; then
    echo "npm ci in $dir"
    if ! (cd "$dir" && npm ci --prefer-offline --no-audit --no-fund 2>&1 | grep -v 'Unknown user config'); then
      :
    fi
    [ -d "$dir/node_modules" ] && (cd "$dir" && npm ls --depth=0 >/dev/null 2>&1) ||
      skip "npm ci failed in $dir (no npm registry and no cache?); run 'npm ci' there once with network"
    echo "$want" > "$dir/node_modules/.blockls-lock-sha256"
  fi
}

# build_protocol OUT.mjs: editors/vscode/src/protocol.ts as an ES module for the Node tests,
# so they send exactly what the extension sends.
build_protocol() {
  (cd "$ext" && npx --no-install esbuild src/protocol.ts --bundle --format=esm --platform=node \
     --log-level=warning --outfile="$1") || { echo "FAIL: esbuild src/protocol.ts"; exit 1; }
}
