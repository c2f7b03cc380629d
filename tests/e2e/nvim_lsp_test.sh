#!/bin/sh
# End to end with a real client: headless Neovim 0.7 drives `blockls lsp` (see
# nvim_lsp_test.lua). Usage: nvim_lsp_test.sh BLOCKLS_BINARY. Exit 0 pass, 1 fail, 2 Lua error,
# 77 skipped (CTest SKIP_RETURN_CODE) when nvim is not installed.
set -u
blockls=$1
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP: nvim is not installed (scripts/install-deps.sh installs the Debian 'neovim' package)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/blockls-nvim-XXXXXX)
# Keep nvim's state (lsp.log, shada, swap) out of $HOME.
export XDG_CONFIG_HOME="$work/xdg/config" XDG_DATA_HOME="$work/xdg/data" \
       XDG_CACHE_HOME="$work/xdg/cache" XDG_STATE_HOME="$work/xdg/state"
mkdir -p "$work/ws"
printf 'Teh project is nice.\n' > "$work/ws/README.md"
printf 'old config\n' > "$work/ws/a.txt"
mkdir -p "$work/ws/src"
printf 'def hello():\n    print("hello")\n' > "$work/ws/src/app.py"
BLOCKLS_BIN=$blockls BLOCKLS_WS="$work/ws" \
  timeout 90 nvim --headless --clean -u NONE -i NONE -n -c "luafile $here/nvim_lsp_test.lua"
rc=$?
if [ $rc -eq 0 ]; then
  rm -rf "$work"
else
  echo "nvim exited with $rc; server log: $XDG_CACHE_HOME/nvim/lsp.log"
  cat "$XDG_CACHE_HOME/nvim/lsp.log" 2>/dev/null | tail -20
fi
exit $rc
