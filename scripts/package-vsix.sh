#!/bin/sh
# Builds the VS Code extension and packages it as a .vsix, offline once `npm ci` has run:
#   scripts/package-vsix.sh [OUT.vsix]     (default: editors/vscode/blockls-<version>.vsix)
# Install it with: code --install-extension <file>.vsix
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
# vsce runs `vscode:prepublish` (type check + esbuild bundle) before packaging.
npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license --out "$out"
ls -l "$out"
