#!/usr/bin/env bash
# Gathers, on this Debian 12 machine, the libraries azg builds with besides LibTorch
# (yaml-cpp, CLI11, nlohmann-json, Eigen, oneTBB) into one folder that travels to a GPU machine
# which has PyTorch and a compiler but no Debian packages and no network:
#   tools/device_deps.sh [DIR]        (default .device-deps)
# The packages are downloaded (apt-get download, no root) and unpacked, not installed:
# DIR/usr then works as a CMake prefix (tools/device_check.sh --deps DIR). Their CMake
# files find everything relative to themselves, so the folder can move.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.device-deps}
packages=(libyaml-cpp-dev libyaml-cpp0.7 libcli11-dev nlohmann-json3-dev libeigen3-dev libtbb-dev
  libtbb12 libtbbmalloc2 libtbbbind-2-5)

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
  echo "device_deps: needs Debian's apt-get and dpkg-deb (run it on the Debian machine)" >&2
  exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "${packages[@]}" >/dev/null) || {
  echo "device_deps: apt-get download ${packages[*]} failed (no package lists? apt-get update)" >&2
  exit 1
}
rm -rf "$dir"
mkdir -p "$dir"
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$dir"; done
# What the build does not read: documentation, Eigen's unsupported modules.
rm -rf "$dir/usr/share/doc" "$dir/usr/share/pkgconfig" "$dir/usr/include/eigen3/unsupported"
echo "device_deps: ${packages[*]} in $dir ($(du -sh "$dir" | cut -f1)); carry it and pass --deps $dir"
