#!/usr/bin/env bash
# One call on a machine with an NVIDIA GPU and many cores (docs/performance.md#gpu):
#   tools/device_check.sh [--out DIR] [--deps DIR] [--azg PATH] [--baseline EVALS] [--quick]
# 1. builds azg against the CUDA LibTorch that python3's torch carries (16 jobs; the
#    libraries Debian would give come from --deps, made by tools/device_deps.sh);
# 2. azg bench nn --device cuda at fp32, fp16 and bf16 over a batch sweep, with the
#    precision checks, on configs/imbriqua-gpu.yaml's network;
# 3. GPU self-play for 2 minutes with configs/imbriqua-gpu.yaml as it stands (auto precision:
#    fp16 on a GPU), sampling GPU utilisation with nvidia-smi;
# 4. CPU self-play on configs/imbriqua.yaml with 1, 2, 4, 8 and 16 threads (up to the
#    cores there are), the learner idle, fp32;
# 5. every figure in DIR/figures.json and a short DIR/summary.txt (at most 8 files),
#    rewritten after each step, so that a call cut short keeps what it measured.
# --azg PATH skips the build; without a CUDA device the GPU steps are recorded as skipped.
# --baseline EVALS is the 2-core CPU's self-play evaluations/s on the same network, for
# the goal "GPU self-play at least 20 times the 2-core CPU's". --quick shortens every
# measurement to seconds: the CPU test (tests/device_check_test.sh) runs it so.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${OUT:-$root/device-check}
deps=""
azg=""
baseline=""
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --deps) deps=$2; shift 2 ;;
    --azg) azg=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    *) echo "device_check: unknown argument '$1' (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done
[ -z "$deps" ] && [ -d "$root/.device-deps" ] && deps=$root/.device-deps
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/log.txt
: >"$log"
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${smi_pid:-}" ] && kill "$smi_pid" 2>/dev/null' EXIT
cores=$(nproc)
if [ $quick = 1 ]; then
  sweep=8,32 seconds=0.2 gpu_minutes=0.1 cpu_minutes=0.05 threads_list="1 2" net=(--blocks 1 --channels 8)
else
  sweep=64,256,1024,4096 seconds=1 gpu_minutes=2 cpu_minutes=0.2 threads_list="1 2 4 8 16"
  net=(--blocks 10 --channels 128)  # configs/imbriqua-gpu.yaml's network
fi
say() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$log"; }
# Runs a step's command with its output in the log and in $work/<name>.txt.
step() {
  local name=$1
  shift
  say "\$ $*"
  "$@" >"$work/$name.txt" 2>&1
  local rc=$?
  cat "$work/$name.txt" >>"$log"
  [ $rc = 0 ] || say "$name: exit $rc"
  return $rc
}

# --- the machine -------------------------------------------------------------------
{
  echo "cores=$cores"
  echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "torch=$(python3 -c 'import torch; print(torch.__version__, torch.version.cuda)' 2>/dev/null)"
  echo "compiler=$(${CXX:-c++} --version 2>/dev/null | head -1)"
  echo "cmake=$(cmake --version 2>/dev/null | head -1)"
} >"$work/machine.txt"
cat "$work/machine.txt" | tee -a "$log"

# --- the figures, written after every step (a run cut short keeps what it measured) ---
write_figures() {
  touch "$work/bench-nn.txt" "$work/cpu-scaling.txt"
  python3 - "$work" "$out" "$build_status" "$build_seconds" "$gpu" "$baseline" \
    "$gpu_minutes" "$1" <<'PY'

import json, os, re, sys
work, out, build_status, build_seconds, gpu, baseline, gpu_minutes, quiet = sys.argv[1:]
fig = {"machine": {}, "build": {"status": build_status, "seconds": int(build_seconds)}}
for line in open(os.path.join(work, "machine.txt")):
    key, _, value = line.rstrip("\n").partition("=")
    fig["machine"][key] = int(value) if key == "cores" else value

# bench nn: per precision, per batch, the bare forward and the evaluator, and the checks.
bench, precision, batch = {}, None, None
for line in open(os.path.join(work, "bench-nn.txt")):
    if line.startswith("== "):
        precision, batch = line.split()[1], None
        bench[precision] = {"batches": {}}
    elif line.startswith("-- batch "):
        batch = line.split()[2]
        bench[precision]["batches"][batch] = {}
    elif precision and line.startswith("bare forward:"):
        bench[precision]["batches"].setdefault(batch or "single", {})["bare_evals_per_s"] = float(line.split()[2])
    elif precision and line.startswith("evaluator:"):
        bench[precision]["batches"].setdefault(batch or "single", {})["evaluator_evals_per_s"] = float(line.split()[1])
    elif precision and " against fp32 on " in line:
        m = re.search(r"policy KL mean (\S+) max (\S+), value error mean (\S+) max (\S+), same top action (\S+)%", line)
        if m:
            bench[precision]["check"] = {"kl_mean": float(m[1]), "kl_max": float(m[2]),
                                         "value_error_mean": float(m[3]), "value_error_max": float(m[4]),
                                         "same_top_action_pct": float(m[5])}
    elif precision and ("Error" in line or line.startswith("azg:")):
        bench[precision]["error"] = line.strip()
fig["bench_nn"] = bench
# The precision whose evaluator was fastest at batch 1024 (the sweep's largest below it
# otherwise): a figure to compare with what auto chooses.
def evaluator_at(batches):
    sizes = [int(k) for k in batches if k.isdigit()]
    key = str(1024 if 1024 in sizes else max([b for b in sizes if b < 1024] or sizes or [0]))
    return batches.get(key, {}).get("evaluator_evals_per_s", 0.0)
rates = {p: evaluator_at(b["batches"]) for p, b in bench.items()}
fig["fastest_precision"] = max(rates, key=rates.get) if rates and max(rates.values()) > 0 else None

def selfplay_row(path):
    try:
        rows = [json.loads(l) for l in open(path) if l.strip()]
    except (OSError, ValueError):
        return None
    sp = [r for r in rows if r.get("type") == "selfplay"]
    train = [r for r in rows if r.get("type") == "train"]
    if not sp:
        return None
    r = dict(sp[-1])
    r["training_steps"] = train[-1]["step"] if train else 0
    return r

if gpu == "1":
    sp = selfplay_row(os.path.join(work, "gpu-metrics.jsonl"))
    util, mem = [], []
    try:
        for line in open(os.path.join(out, "gpu-util.csv")):
            parts = [p.strip() for p in line.split(",")]
            if len(parts) == 2 and parts[0].isdigit():
                util.append(int(parts[0])); mem.append(int(parts[1]))
    except OSError:
        pass
    ran = re.search(r"self-play network in (\w+)", open(os.path.join(work, "gpu-selfplay.txt")).read()
                    if os.path.exists(os.path.join(work, "gpu-selfplay.txt")) else "")
    fig["gpu_selfplay"] = {"config": "configs/imbriqua-gpu.yaml", "precision": ran[1] if ran else None,
                           "minutes": float(gpu_minutes), "selfplay": sp,
                           "gpu_util_mean_pct": sum(util) / len(util) if util else None,
                           "gpu_util_samples": len(util),
                           "gpu_memory_max_mib": max(mem) if mem else None}
else:
    fig["gpu_selfplay"] = {"skipped": "no CUDA device (nvidia-smi) or no azg"}

scaling = {}
for line in open(os.path.join(work, "cpu-scaling.txt")):
    r = json.loads(line)
    scaling[str(r["threads"])] = r["evals_per_s"]
fig["cpu_selfplay"] = {"config": "configs/imbriqua.yaml", "precision": "fp32",
                       "evals_per_s_by_threads": scaling}
goals = {}
if "2" in scaling and "16" in scaling and scaling["2"] > 0:
    goals["cpu_16_over_2_threads"] = scaling["16"] / scaling["2"]
gsp = fig["gpu_selfplay"].get("selfplay") if gpu == "1" else None
if gsp and baseline:
    goals["gpu_over_2core_cpu"] = gsp["evals_per_s"] / float(baseline)
fig["goals"] = goals
json.dump(fig, open(os.path.join(out, "figures.json"), "w"), indent=1)

s = [f"machine: {fig['machine'].get('cores')} cores, {fig['machine'].get('cpu')}; GPU: {fig['machine'].get('gpu') or 'none'}",
     f"torch {fig['machine'].get('torch')}; build {build_status} ({build_seconds} s)"]
for p, b in bench.items():
    rows = ", ".join(f"{k}: {v.get('evaluator_evals_per_s', 0):.0f}" for k, v in b["batches"].items())
    s.append(f"bench nn {p}: evaluator evals/s by batch {rows}" + (f"; {b['error']}" if "error" in b else ""))
    if "check" in b:
        c = b["check"]
        s.append(f"  {p} against fp32: KL mean {c['kl_mean']:.1e}, value error max {c['value_error_max']:.1e}, same top action {c['same_top_action_pct']}%")
if gsp:
    g = fig["gpu_selfplay"]
    s.append(f"GPU self-play ({fig['gpu_selfplay']['precision']}): {gsp['evals_per_s']:.0f} evals/s, {gsp['games_per_s']:.2f} games/s, "
             f"{gsp['training_steps']} training steps; GPU utilisation {g['gpu_util_mean_pct'] or 0:.0f}% mean")
else:
    s.append("GPU self-play: " + fig["gpu_selfplay"].get("skipped", "no figure (see log.txt)"))
s.append("CPU self-play evals/s by threads: " + ", ".join(f"{k}: {v:.0f}" for k, v in scaling.items()))
for k, v in goals.items():
    s.append(f"goal {k}: {v:.1f}x")
open(os.path.join(out, "summary.txt"), "w").write("\n".join(s) + "\n")
if quiet != "quiet":
    print("\n".join(s))
PY
}
gpu=0

# --- 1. the build --------------------------------------------------------------------
build_status=given
build_seconds=0
if [ -z "$azg" ]; then
  build_status=failed
  prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>>"$log")
  yaml=()
  if [ -n "$deps" ]; then
    prefix="$deps/usr;$prefix"
    # Debian keeps yaml-cpp's and TBB's CMake files under lib/<arch>/, which CMake searches only
    # where the compiler names an architecture directory (Debian, Ubuntu): name it.
    yaml=("-Dyaml-cpp_DIR=$(ls -d "$deps"/usr/lib/*/cmake/yaml-cpp | head -1)"
      "-DTBB_DIR=$(ls -d "$deps"/usr/lib/*/cmake/TBB | head -1)")
  fi
  cuda_root=()
  [ -d /usr/local/cuda ] && cuda_root=(-DCUDAToolkit_ROOT=/usr/local/cuda -DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda)
  start=$(date +%s)
  # Only what the measurements need: no tests, no web board, no Redis, no Gloo.
  if step configure cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release \
      "-DCMAKE_PREFIX_PATH=$prefix" "${yaml[@]}" "${cuda_root[@]}" -DAZG_BUILD_TESTS=OFF -DAZG_WEB=OFF \
      -DAZG_REDIS=OFF -DAZG_GLOO=OFF -DAZG_NATIVE=ON &&
    step build ninja -C build-device -j "$cores" -k 0 azg; then
    build_status=ok
    azg=$root/build-device/bin/azg
  else
    # The errors first: what a fix needs when the whole log is long.
    grep -E 'error|Error|CMake Error' "$log" | head -60 >"$out/build-errors.txt"
  fi
  build_seconds=$(($(date +%s) - start))
  say "build: $build_status in ${build_seconds}s"
fi
write_figures quiet

# --- 2. the network on the GPU -------------------------------------------------------
gpu=0
if [ -n "$azg" ] && [ -x "$azg" ] && nvidia-smi >/dev/null 2>&1; then gpu=1; fi
: >"$work/bench-nn.txt"
if [ $gpu = 1 ]; then
  for p in fp32 fp16 bf16; do
    step "bench-nn-$p" "$azg" bench nn --game imbriqua --device cuda --precision "$p" \
      --batch "$sweep" --seconds "$seconds" "${net[@]}" --positions 512
    { echo "== $p"; cat "$work/bench-nn-$p.txt"; } >>"$work/bench-nn.txt"
  done
elif [ -n "$azg" ] && [ -x "$azg" ]; then
  # No GPU: the same sweep on the CPU at fp32, so the figures' path is exercised.
  step bench-nn-cpu "$azg" bench nn --game imbriqua --device cpu --precision fp32 \
    --batch "$sweep" --seconds "$seconds" "${net[@]}" --positions 64
  { echo "== fp32 (cpu)"; cat "$work/bench-nn-cpu.txt"; } >>"$work/bench-nn.txt"
fi
cp "$work/bench-nn.txt" "$out/bench-nn.txt"

write_figures quiet

# --- 3. GPU self-play ------------------------------------------------------------------
if [ $gpu = 1 ]; then
  nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader,nounits -lms 500 \
    >"$out/gpu-util.csv" 2>/dev/null &
  smi_pid=$!
  # The preset as a user runs it (inference_precision auto: fp16 on a GPU).
  step gpu-selfplay "$azg" train --config configs/imbriqua-gpu.yaml --run-dir "$work/gpu-run" \
    --set device=cuda run.minutes="$gpu_minutes" eval.every=0 eval.final_games=0
  kill "$smi_pid" 2>/dev/null
  smi_pid=""
  cp "$work/gpu-run/metrics.jsonl" "$work/gpu-metrics.jsonl" 2>/dev/null
  write_figures quiet
fi

# --- 4. CPU self-play over threads ---------------------------------------------------
: >"$work/cpu-scaling.txt"
if [ -n "$azg" ] && [ -x "$azg" ]; then
  for t in $threads_list; do
    [ "$t" -gt "$cores" ] && { say "cpu self-play: $t threads skipped ($cores cores)"; continue; }
    # train.min_positions out of reach: the learner never steps, self-play has the cores.
    step "cpu-$t" "$azg" train --config configs/imbriqua.yaml --run-dir "$work/cpu-$t" \
      --set device=cpu inference_precision=fp32 selfplay.threads="$t" selfplay.nice=0 \
      run.minutes="$cpu_minutes" train.min_positions=2000000000 eval.every=0 eval.final_games=0
    grep '"selfplay"' "$work/cpu-$t/metrics.jsonl" >>"$work/cpu-scaling.txt" 2>/dev/null
    write_figures quiet
  done
fi
cp "$work/cpu-scaling.txt" "$out/cpu-scaling.jsonl"

write_figures final
say "figures in $out (figures.json, summary.txt, log.txt)"
