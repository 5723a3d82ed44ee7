#!/usr/bin/env bash
# Games per second of a distributed run on this machine against `azg train`: the same
# config for the same time, first in one process, then as a learner with 1, 2 and 4 actor
# processes (one self-play thread each) on a redis-server of its own. Also the data
# plane's cost per game (payload bytes, milliseconds to encode and send).
#   bash tools/bench_distributed.sh [SECONDS] [CONFIG] [KEY=VALUE...]   (KEEP=1 keeps the logs)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
config=${2:-configs/lignes.yaml}
shift 2 2>/dev/null || shift $#
azg=${AZG:-build/bin/azg}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
work=$(mktemp -d)
pids=()
cleanup() {
  local rc=$?
  kill ${pids[@]+"${pids[@]}"} 2>/dev/null || true
  if [ -n "${KEEP:-}" ]; then echo "logs in $work"; else rm -rf "$work"; fi
  exit $rc
}
trap cleanup EXIT
minutes=$(python3 -c "print($seconds / 60)")
sets=(run.minutes="$minutes" run.steps=10000000 eval.every=0 eval.final_games=0 "$@")
last_rate() { grep '^step ' "$1" | tail -1 | sed -n 's/.*  \([0-9.]*\) games\/s.*/\1/p'; }

"$azg" train --config "$config" --run-dir "$work/train" --set "${sets[@]}" > "$work/train.log" 2>&1
echo "azg train (1 process):            $(last_rate "$work/train.log") games/s"

for n in 1 2 4; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  redis-server --port "$port" --bind 127.0.0.1 --dir "$work" --save '' --appendonly no --daemonize no \
    > "$work/redis-$n.log" 2>&1 &
  redis=$!
  pids=("$redis")
  for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  "$azg" learner --redis "127.0.0.1:$port" --run "bench$n" --run-dir "$work/learner-$n" --config "$config" \
    --set "${sets[@]}" > "$work/learner-$n.log" 2>&1 &
  learner=$!
  for a in $(seq "$n"); do
    "$azg" actor --redis "127.0.0.1:$port" --run "bench$n" --name "a$a" --threads 1 --max-waiting 100000 \
      --config "$config" --set "${sets[@]}" > "$work/actor-$n-$a.log" 2>&1 &
    pids+=($!)
  done
  wait "$learner" || { echo "the learner failed: $(tail -2 "$work/learner-$n.log")"; exit 1; }
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  cost=$(grep -h "per game" "$work"/actor-$n-*.log | tail -1 | sed 's/.*per game //' || true)
  printf 'learner + %d actor process(es):   %s games/s (per game %s)\n' "$n" "$(last_rate "$work/learner-$n.log")" "$cost"
done
