#!/usr/bin/env bash
# Installs the Debian 12 packages blockls needs to build and test (idempotent: only
# what is missing is installed). Called by scripts/demo.sh and scripts/test.sh.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config git patch
  nlohmann-json3-dev libboost1.81-dev libfmt-dev catch2 libcli11-dev libutfcpp-dev
  libbenchmark-dev libdtl-dev libyaml-cpp-dev libjemalloc-dev
  clang libclang-rt-14-dev
  neovim chromium
  ripgrep libkrb5-dev
  python3
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
