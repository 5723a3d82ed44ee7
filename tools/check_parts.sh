#!/usr/bin/env bash
# The optional parts really are optional: builds and tests azg with them left out.
#   bash tools/check_parts.sh floor   build-floor/: -DAZG_TORCH=OFF, the rules and search with a
#                                     compiler and GoogleTest alone (CI's asan-quick also builds so)
#   bash tools/check_parts.sh core    build-core/: LibTorch, but no web, Redis or Gloo
#   bash tools/check_parts.sh         both
# Outside CI (the second one is a whole second build): run it after touching a CMakeLists.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

check() {  # DIR CMAKE-OPTIONS...
  local dir=$1
  shift
  [ -f "$dir/build.ninja" ] || cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" -E soak
}

case "${1:-all}" in
  floor) check build-floor -DAZG_TORCH=OFF ;;
  core) check build-core -DAZG_WEB=OFF -DAZG_REDIS=OFF -DAZG_GLOO=OFF ;;
  all) check build-floor -DAZG_TORCH=OFF; check build-core -DAZG_WEB=OFF -DAZG_REDIS=OFF -DAZG_GLOO=OFF ;;
  *) echo "usage: bash tools/check_parts.sh [floor|core|all]" >&2; exit 2 ;;
esac
echo "check_parts.sh ${1:-all}: the parts left out build and test"
