#!/usr/bin/env bash
# Self-play throughput of two builds side by side, on the same machine, for every game:
#   tools/bench_selfplay.sh BUILD_A BUILD_B [MINUTES] [GAMES...]
# BUILD_A and BUILD_B are build folders (each with bin/azg) inside checkouts; each build
# trains with its own checkout's configs (BUILD/../configs/<game>.yaml; a game without a
# config there uses that checkout's imbriqua.yaml with game=<game>). Each run trains for
# MINUTES (default 2) with no evaluations, A and B alternating per game, and prints
# self-play evaluations/s, games, training steps and the mean training loss (policy +
# value) over steps 401..600 (LOSS_STEP=600), the same steps for both builds, so faster
# self-play can be seen not to cost learning.
# Nothing else should run on the machine meanwhile.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: tools/bench_selfplay.sh BUILD_A BUILD_B [MINUTES] [GAMES...]" >&2
  exit 2
fi
build_a=$(cd "$1" && pwd)
build_b=$(cd "$2" && pwd)
minutes=${3:-2}
shift $(( $# >= 3 ? 3 : 2 ))
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(imbriqua lignes truchet imperator intercept)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # build game -> one result line
  local build=$1 game=$2 configs config extra=()
  configs="$build/../configs"
  config="$configs/$game.yaml"
  if [ ! -f "$config" ]; then config="$configs/imbriqua.yaml"; extra=(game="$game"); fi
  local dir="$work/run"
  rm -rf "$dir"
  "$build/bin/azg" train --config "$config" --run-dir "$dir" \
    --set run.minutes="$minutes" eval.every=0 eval.final_games=0 "${extra[@]}" >"$work/log" 2>&1 || {
    echo "failed: $(tail -1 "$work/log")"
    return
  }
  python3 - "$dir/metrics.jsonl" "${LOSS_STEP:-600}" <<'PY'
import json, os, sys
if not os.path.exists(sys.argv[1]):
    print("no training step logged (a longer MINUTES lets self-play fill train.min_positions)")
    sys.exit()
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
train = [r for r in rows if r.get("type") == "train"]
if not train:
    print("no training step logged")
    sys.exit()
last, at = train[-1], int(sys.argv[2])
window = [r for r in train if at - 200 < r["step"] <= at]
loss = ("loss %.3f at steps %d..%d" % (sum(r["loss_policy"] + r["loss_value"] for r in window) / len(window),
        at - 199, at)) if last["step"] >= at and window else "loss: step %d not reached" % at
print("%8.0f evals/s  %6d games  %6d steps  %s" % (last["evals_per_s"], last["games"], last["step"], loss))
PY
}

echo "A: $build_a"
echo "B: $build_b"
echo "$minutes minute(s) of training per run; $(nproc) cores"
for game in "${games[@]}"; do
  echo "$game"
  echo "  A $(run "$build_a" "$game")"
  echo "  B $(run "$build_b" "$game")"
done
