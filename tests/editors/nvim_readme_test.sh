#!/bin/sh
# The Neovim setup exactly as README.md shows it: its ```lua block (the one that calls
# require("blockls").setup), with /path/to/blockls replaced by this checkout, is the whole user
# config (`nvim -u`, empty XDG directories: nothing else on 'runtimepath'), and `blockls` is found
# on PATH as the snippet's cmd says. nvim_readme_test.lua then opens the demo transcript.
# Usage: nvim_readme_test.sh BLOCKLS_BINARY. Exit 0 pass, 1 fail, 2 Lua error, 77 skipped.
set -u
blockls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP: nvim is not installed (scripts/install-deps.sh installs the Debian 'neovim' package)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d /tmp/blockls-nvim-readme-XXXXXX)
export XDG_CONFIG_HOME="$work/xdg/config" XDG_DATA_HOME="$work/xdg/data" \
       XDG_CACHE_HOME="$work/xdg/cache" XDG_STATE_HOME="$work/xdg/state"
# The README's Lua block that calls setup(), verbatim but for the checkout's path.
awk '/^```lua$/ { inside = 1; block = ""; next }
     /^```$/ && inside { inside = 0; if (block ~ /require\("blockls"\)\.setup/) { printf "%s", block; exit } next }
     inside { block = block $0 "\n" }' "$repo/README.md" | sed "s|/path/to/blockls|$repo|g" > "$work/init.lua"
if ! grep -q 'setup' "$work/init.lua"; then
  echo "FAIL: README.md has no \`\`\`lua block calling require(\"blockls\").setup"
  exit 1
fi
echo "== the README's Neovim config:"; cat "$work/init.lua"
mkdir -p "$work/ws" "$work/bin"
git -C "$work/ws" init -q 2>/dev/null || mkdir -p "$work/ws/.git"
cp "$repo/examples/demo.transcript.md" "$work/ws/"
ln -s "$blockls" "$work/bin/blockls" # the README's cmd is { "blockls", "lsp" }: found on PATH
cd "$work/ws" || exit 1
PATH="$work/bin:$PATH" BLOCKLS_WORK="$work" BLOCKLS_BIN="$blockls" \
  timeout 120 nvim --headless -u "$work/init.lua" -i NONE -n -c "luafile $here/nvim_readme_test.lua"
rc=$?
if [ $rc -eq 0 ]; then
  rm -rf "$work"
else
  echo "nvim exited with $rc; kept $work"
  tail -20 "$XDG_CACHE_HOME/nvim/lsp.log" 2>/dev/null
fi
exit $rc
