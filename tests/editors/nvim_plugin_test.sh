#!/bin/sh
# Headless Neovim runs the editors/nvim plugin from the repository against the real server:
# filetype detection, attach, diagnostics, code lenses, syntax, :BlocklsExecuteBlock writes the
# file, :BlocklsFixAll fixes the buffer, :BlocklsExecuteAll, :BlocklsInfo (nvim_plugin_test.lua).
# Usage: nvim_plugin_test.sh BLOCKLS_BINARY. Exit 0 pass, 1 fail, 2 Lua error, 77 skipped.
set -u
blockls=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")  # absolute: the tests cd elsewhere
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP: nvim is not installed (scripts/install-deps.sh installs the Debian 'neovim' package)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d /tmp/blockls-nvim-plugin-XXXXXX)
# Keep nvim's state (lsp.log, shada, swap) out of $HOME.
export XDG_CONFIG_HOME="$work/xdg/config" XDG_DATA_HOME="$work/xdg/data" \
       XDG_CACHE_HOME="$work/xdg/cache" XDG_STATE_HOME="$work/xdg/state"
mkdir -p "$work/ws"
git -C "$work/ws" init -q 2>/dev/null || mkdir -p "$work/ws/.git"  # the plugin's root marker
cp "$repo/examples/demo.transcript.md" "$work/ws/demo.transcript.md"
printf '#!telt [3-char SHA: abc]\n=== DELETE_FILE ===\n--PATH abc--\nx.txt\n--END abc--\n' > "$work/ws/one.telt"
printf '#!nesl [@three-char-SHA-256: k7m]\naction = "file_read"\npath = "x.txt"\n#!end_k7m\n' > "$work/ws/one.nesl"
printf '#!SHAM [@three-char-SHA-256: k7m]\naction = "file_read"\npath = "x.txt"\n#!END_SHAM_k7m\n' > "$work/ws/one.sham"
printf 'just prose\n' > "$work/ws/notes.md"
cd "$work/ws" || exit 1
BLOCKLS_BIN=$blockls BLOCKLS_WS="$work/ws" BLOCKLS_PLUGIN="$repo/editors/nvim" \
  timeout 120 nvim --headless -u "$here/nvim_plugin_init.lua" -i NONE -n \
    -c "luafile $here/nvim_plugin_test.lua"
rc=$?
if [ $rc -eq 0 ]; then
  rm -rf "$work"
else
  echo "nvim exited with $rc; workspace and server log kept in $work"
  tail -20 "$XDG_CACHE_HOME/nvim/lsp.log" 2>/dev/null
fi
exit $rc
