# Sourced by the benchmark scripts: installs what is missing and configures the Release build
# directory they share. Sets `root` and `build_dir`, `jobs`; then call `build_targets T...`.
# Environment: BUILD_DIR (default build-bench), JOBS (default 1: the machines are shared).

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="${BUILD_DIR:-$root/build-bench}"
jobs="${JOBS:-1}"

"$root/scripts/install-deps.sh"

cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" -DBLOCKLS_WERROR=ON \
  -DBLOCKLS_BENCH=ON -DBLOCKLS_TESTS=OFF -DBLOCKLS_FUZZ=OFF -DBLOCKLS_SANITIZE=OFF >/dev/null

build_targets() {
  cmake --build "$build_dir" --target "$@" -- -j"$jobs"
}
