#!/usr/bin/env bash
# The main job: sets up (when needed), builds, then trains the default game (Imbriqua)
# with its default CPU config (about 12 minutes of training on 2 cores, then a final
# evaluation) and prints where the exported model is and how it scored. Re-running it
# after an interruption resumes the run; extra arguments go to `azg train`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
# (azg itself picks OpenBLAS's kernels on CPUs that OpenBLAS does not recognise: docs/performance.md.)
exec build/bin/azg train --config configs/imbriqua.yaml --run-dir runs/imbriqua "$@"
