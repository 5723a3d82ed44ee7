#!/usr/bin/env bash
# Data-parallel learners against one learner at N times the batch: for each seed, a run
# with `azg learner --learners 2` at train.batch_size=B and a run with one learner at 2B,
# each fed by two actor processes on a redis-server of its own, for the same number of
# steps (the same learning-rate schedule). Then the final losses, and every final model
# against the UCT baseline (a gauntlet: network against network would replay one game,
# since Lignes has no chance and the search none either), which also shows how far runs
# of one setup on two seeds differ (the noise the comparison has to beat).
# Give train.reuse a value that keeps the learners waiting for games (2 here): then both
# setups train on the same number of positions per step whatever share of the cores the
# learner processes take from the actors.
#   bash tools/compare_learners.sh [STEPS] [SEEDS] [GAMES] [CONFIG] [B] [KEY=VALUE...]
#   (KEEP=1 keeps the runs in runs/compare-learners)
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-3000}
seeds=${2:-2}
games=${3:-100}
config=${4:-configs/lignes.yaml}
batch=${5:-64}
shift 5 2>/dev/null || shift $#
extra=("$@")
azg=${AZG:-build/bin/azg}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
work=${KEEP:+runs/compare-learners}
work=${work:-$(mktemp -d)}
[ -z "${KEEP:-}" ] || [ ! -e "$work/one-s1" ] || { echo "compare_learners.sh: $work holds runs already: move it away" >&2; exit 2; }
mkdir -p "$work"
pids=()
cleanup() {
  local rc=$?
  kill ${pids[@]+"${pids[@]}"} 2>/dev/null || true
  [ -n "${KEEP:-}" ] && echo "runs in $work" || rm -rf "$work"
  exit $rc
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
game=$(sed -n 's/^game: *//p' "$config")

# run NAME LEARNERS BATCH SEED: a learner group and two actors until run.steps.
run() {
  local name=$1 learners=$2 b=$3 seed=$4
  local sets=(seed="$seed" run.steps="$steps" run.minutes=0 train.batch_size="$b" eval.every=0 eval.final_games=0
              ${extra[@]+"${extra[@]}"})
  local port
  port=$(free_port)
  redis-server --port "$port" --bind 127.0.0.1 --dir "$work" --save '' --appendonly no --daemonize no \
    > "$work/redis-$name.log" 2>&1 &
  pids=($!)
  for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  local start=$SECONDS
  "$azg" learner --redis "127.0.0.1:$port" --run "$name" --run-dir "$work/$name" --learners "$learners" \
    --rendezvous "127.0.0.1:$(free_port)" --config "$config" --set "${sets[@]}" > "$work/$name.log" 2>&1 &
  local learner=$!
  for a in 1 2; do
    "$azg" actor --redis "127.0.0.1:$port" --run "$name" --name "a$a" --threads 1 --config "$config" \
      --set "${sets[@]}" > "$work/actor-$name-$a.log" 2>&1 &
    pids+=($!)
  done
  wait "$learner" || { echo "$name failed: $(tail -2 "$work/$name.log")"; exit 1; }
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  python3 - "$work/$name/metrics.jsonl" "$name" $((SECONDS - start)) <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if '"train"' in l]
tail = lines[-8:]  # the last 200 steps: a mean, losses are noisy step to step
mean = lambda k: sum(l[k] for l in tail) / len(tail)
print(f"{sys.argv[2]:>10}: step {lines[-1]['step']}, {lines[-1]['games']} games, {sys.argv[3]} s; "
      f"loss policy {mean('loss_policy'):.3f} value {mean('loss_value'):.3f} (mean of the last {len(tail)} logs)")
PY
}

agents=()
for seed in $(seq "$seeds"); do
  run "one-s$seed" 1 $((2 * batch)) "$seed"
  run "two-s$seed" 2 "$batch" "$seed"
  agents+=(--agent "one-s$seed=az:model=$work/one-s$seed/models/final.pt,sims=100"
           --agent "two-s$seed=az:model=$work/two-s$seed/models/final.pt,sims=100")
done
"$azg" arena --game "$game" --agent uct400=mcts:sims=400 "${agents[@]}" --format gauntlet --games "$games" \
  --threads 2 --seed 1007 --anchor uct400 > "$work/arena.log" 2>&1
echo "$games games per model against UCT-400:"
sed -n '/Elo/,$p' "$work/arena.log"
