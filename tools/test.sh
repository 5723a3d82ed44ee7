#!/usr/bin/env bash
# The test command: sets up (when needed), builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
# The engines and the search again under AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/; the LibTorch tests run under it in tools/check.sh asan, outside CI).
bash tools/check.sh asan-quick
