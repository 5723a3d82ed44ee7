#!/usr/bin/env bash
# The test command: sets up (when needed), builds, and runs every test. Each stage's wall
# time is printed at its end, so that a CI log shows where the half hour goes.
set -euo pipefail
cd "$(dirname "$0")/.."
stage() {  # stage NAME COMMAND...: runs the command, then says how long it took
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "test.sh: $name took $((SECONDS - start)) s"
}
stage setup bash tools/setup.sh
stage build bash tools/build.sh
stage ctest ctest --test-dir build --output-on-failure -j "$(nproc)"
# The engines and the search again under AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/; the LibTorch tests run under it in tools/check.sh asan, outside CI).
stage asan-quick bash tools/check.sh asan-quick
