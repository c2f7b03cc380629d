#!/bin/sh
# Builds the VS Code extension and packages it, offline once `npm ci` has run, as two files:
#   blockls-<version>.vsix            the extension alone: it starts `blockls` from PATH or from
#                                     the `blockls.serverPath` setting
#   blockls-<version>-linux-x64.vsix  the same with a Release `blockls` inside (bin/blockls), used
#                                     when `blockls.serverPath` is unset and none is on PATH: the
#                                     one file to install on Linux x86-64
# Usage: scripts/package-vsix.sh [OUT.vsix]
#   (default editors/vscode/blockls-<version>.vsix; the linux-x64 one is written beside it, named
#   <OUT without .vsix>-linux-x64.vsix)
# Environment: BLOCKLS_SERVER=FILE bundles that binary (stripped) instead of building the Release
# one in build-release/. Install either with: code --install-extension <file>.vsix
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
ext="$here/editors/vscode"
command -v npm >/dev/null 2>&1 || { echo "package-vsix: npm is needed (Node >= 18)" >&2; exit 2; }
cd "$ext"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
version=$(node -p 'require("./package.json").version')
out=${1:-"$ext/blockls-$version.vsix"}
case $out in /*) ;; *) out="$PWD/$out" ;; esac
out_x64="${out%.vsix}-linux-x64.vsix"

# bin/ holds the bundled server only while the linux-x64 package is made.
trap 'rm -rf "$ext/bin"' EXIT
rm -rf "$ext/bin"

# vsce runs `vscode:prepublish` (type check + esbuild bundle) before packaging.
vsce_package() {
  npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license "$@"
}
vsce_package --out "$out"
ls -l "$out"

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "package-vsix: not on Linux x86-64, so no linux-x64 package" >&2
  exit 0
fi
server=${BLOCKLS_SERVER:-}
if [ -z "$server" ]; then
  # GCC 12 at -O3 raises a false -Wrestrict (GCC bug 105651): a warning, not an error, here.
  cmake -S "$here" -B "$here/build-release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBLOCKLS_WERROR=ON -DBLOCKLS_TESTS=OFF -DBLOCKLS_BENCH=OFF >/dev/null
  cmake --build "$here/build-release" --target blockls -- -j"${BLOCKLS_JOBS:-2}"
  server="$here/build-release/blockls"
fi
[ -x "$server" ] || { echo "package-vsix: $server is not an executable" >&2; exit 2; }
mkdir -p "$ext/bin"
# The zip keeps the mode: the installed extension's bin/blockls is executable.
strip -o "$ext/bin/blockls" "$server" 2>/dev/null || cp "$server" "$ext/bin/blockls"
chmod 755 "$ext/bin/blockls"
vsce_package --target linux-x64 --out "$out_x64"
ls -l "$out_x64"
