#!/usr/bin/env bash
# The main job: sets up (when needed), builds, then trains the default game (Imbriqua)
# with its default CPU config (about 12 minutes of training on 2 cores, then a final
# evaluation) and prints where the exported model is and how it scored. Re-running it
# after an interruption resumes the run; extra arguments go to `azg train`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
# OpenBLAS picks its kernels from the CPU model; on CPUs it does not recognise (virtual
# machines often report a generic "Xeon Processor") it falls back to the SSE3 (Prescott)
# kernels. When that happens and the CPU has AVX2 and FMA, the Haswell kernels are safe
# and about 35% faster. (The report is read whole: piping it into `grep -q` could stop
# azg with SIGPIPE, which pipefail turns into "not Prescott".)
if [ -z "${OPENBLAS_CORETYPE:-}" ] && grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then
  blas_report=$(OPENBLAS_VERBOSE=2 build/bin/azg games 2>&1 || true)
  if [[ $blas_report == *"Core: Prescott"* ]]; then
    export OPENBLAS_CORETYPE=Haswell
  fi
fi
exec build/bin/azg train --config configs/imbriqua.yaml --run-dir runs/imbriqua "$@"
