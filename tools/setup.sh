#!/usr/bin/env bash
# Installs everything azg needs on Debian 12, skipping packages already present.
# Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  g++ cmake ninja-build
  libtorch-dev          # LibTorch 1.13 (CPU): networks, training, export
  libopenblas0-pthread  # an optimised libblas.so.3 under LibTorch (the reference BLAS is ~3x slower)
  python3-torch         # the Python round-trip test of exported models; ONNX export
  python3-onnx          # ONNX export: meta.json in the file, the checker
  libeigen3-dev         # rating fits (Elo confidence intervals)
  libyaml-cpp-dev       # configs
  libgtest-dev          # tests
  clang-format          # the format check (tests/format_check.sh)
  libcli11-dev          # command-line parsing with subcommands and --help
  libtbb-dev            # fork-join tasks (tasks/): azg perft over threads
  nlohmann-json3-dev    # meta.json, game records, metrics.jsonl
  libcpp-httplib-dev pkg-config  # azg serve's HTTP server
  chromium nodejs       # the web board's browser test (tests/browser/, puppeteer-core)
  libhiredis-dev redis-server  # distributed runs: the Redis data plane and its tests
  libgloo-dev           # data-parallel learners: the Gloo headers under LibTorch's c10d
)
# Extra groups on request: `bash tools/setup.sh fuzz` adds clang and its libFuzzer
# runtime (tools/fuzz.sh).
for extra in "$@"; do
  case "$extra" in
    fuzz) packages+=(clang libclang-rt-14-dev) ;;
    *) echo "setup: unknown group '$extra' (known: fuzz)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian's npm, unless a Node.js that brings its own (NodeSource's) is there.
command -v npm >/dev/null || missing+=(npm)

# The browser test's npm packages, pinned by tests/browser/package-lock.json.
install_browser_test_packages() {
  local dir=tests/browser
  [ -f "$dir/node_modules/.package-lock.json" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ] && return 0
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
}
cd "$(dirname "$0")/.."
if [ ${#missing[@]} -eq 0 ]; then
  install_browser_test_packages
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_browser_test_packages
