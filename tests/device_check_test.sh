#!/usr/bin/env bash
# The CPU parts of tools/device_check.sh (the GPU machine's one call): with a built azg,
# --quick, no build and (here) no GPU, it must still measure the CPU self-play over
# threads and a bench nn sweep, and write figures.json and summary.txt that hold them.
set -u
azg=$1
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

bash "$root/tools/device_check.sh" --bogus >/dev/null 2>&1
[ $? = 2 ] || fail "an unknown argument must exit 2"

OUT= bash "$root/tools/device_check.sh" --azg "$azg" --quick --out "$out" --baseline 1000 \
  >"$out/stdout.txt" 2>&1 || { cat "$out/stdout.txt"; fail "device_check.sh exited $?"; }
for f in figures.json summary.txt log.txt bench-nn.txt cpu-scaling.jsonl; do
  [ -s "$out/$f" ] || fail "$f missing or empty"
done
[ "$(ls "$out" | grep -vc stdout.txt)" -le 8 ] || fail "more than 8 files: $(ls "$out")"
/usr/bin/python3 - "$out/figures.json" "$out/summary.txt" <<'PY' || exit 1
import json, sys
f = json.load(open(sys.argv[1]))
def need(ok, what):
    if not ok:
        print("FAIL:", what, json.dumps(f)[:2000]); sys.exit(1)
need(f["build"]["status"] == "given", "build status 'given' with --azg")
need(f["machine"]["cores"] >= 1, "cores")
scaling = f["cpu_selfplay"]["evals_per_s_by_threads"]
need(set(scaling) >= {"1"}, "CPU self-play at 1 thread")
need(all(v > 0 for v in scaling.values()), "positive evaluations/s")
bench = f["bench_nn"]
need(len(bench) == 1, "one bench nn precision")
batches = next(iter(bench.values()))["batches"]
need(set(batches) == {"8", "32"}, "the sweep's two batches")
need(f["fastest_precision"] == "fp32", "the fastest precision of a one-precision sweep")
need(all(b["evaluator_evals_per_s"] > 0 and b["bare_evals_per_s"] > 0 for b in batches.values()),
     "positive bench nn rates")
gpu = f["gpu_selfplay"]
need("skipped" in gpu or gpu["selfplay"]["evals_per_s"] > 0, "GPU self-play skipped or measured")
summary = open(sys.argv[2]).read()
need("CPU self-play evals/s by threads: 1:" in summary, "the summary's CPU line")
print("ok:", summary.strip().replace("\n", " | "))
PY
