#!/usr/bin/env bash
# The test command: sets up (when needed), builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
