#!/usr/bin/env bash
# Soak of the distributed roles (docs/reliability.md): a learner (rank 0), a second learner
# rank, three actors and redis-server (AOF on, loopback only), with one of them killed by
# kill -9 about once per KILL_PERIOD seconds for MINUTES, and every process that ends
# restarted by the same command. Then the kills stop, the learners train to the end of
# their clock, the actors are stopped, and the run is checked:
# - every game an actor sent is counted once by one learner rank or still waits in the
#   stream: counted + waiting = the games the actors' starts numbered, none lost, none
#   twice; no actor start sent more than its ids show (its last "games sent" report);
# - no entry read and never acknowledged; no game record twice across the ranks' games/;
# - every counted game replays legal (azg records);
# - the run's model is exported (models/final.pt, and azg export of the last checkpoint);
# - metrics.jsonl never went back (check_metrics.py).
#   bash tests/soak/distributed_kill.sh [path/to/azg] [MINUTES=30] [KILL_PERIOD=60]
# Prints a line per kill and one summary; exits 1 on the first broken promise.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
azg=$(realpath "${1:-build/bin/azg}")
minutes=${2:-30}
period=${3:-60}
command -v redis-server >/dev/null || { echo "no redis-server (bash tools/setup.sh installs it)"; exit 2; }
work=$(mktemp -d /tmp/azg-soak-dist.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
rendezvous=127.0.0.1:$(free_port)
mkdir -p "$work/redis"
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
# The learners' clock counts training time only (what kills cost is not counted), so it
# runs past the kills by a little: the learners end on their own once the kills stop.
budget=$(python3 -c "print(round($minutes + 2, 1))")
sets=(selfplay.simulations=8 selfplay.cheap_simulations=4 selfplay.threads=1 selfplay.games_per_thread=4
      net.blocks=1 net.channels=16 run.minutes="$budget" run.steps=10000000 run.checkpoint_every=20
      train.min_positions=200 selfplay.games_per_file=8 eval.every=400 eval.games=2 eval.final_games=0)

# The processes, by name: the command each is (re)started with.
names=(redis learner0 learner1 a1 a2 a3)
start() {
  local log=$work/$1.log
  case $1 in
    redis) redis-server --port "$port" --bind 127.0.0.1 --dir "$work/redis" --appendonly yes --appendfsync everysec \
             --save '' --daemonize no --loglevel warning >> "$log" 2>&1 & ;;
    learner0|learner1)
      "$azg" learner --redis "127.0.0.1:$port" --run soak --run-dir "$work/run" --learners 2 --rank "${1#learner}" \
        --rendezvous "$rendezvous" --group-timeout 60 --config "$root/configs/lignes.yaml" --set "${sets[@]}" \
        >> "$log" 2>&1 & ;;
    a*) "$azg" actor --redis "127.0.0.1:$port" --run soak --name "$1" --max-waiting 64 \
          --config "$root/configs/lignes.yaml" --set "${sets[@]}" >> "$log" 2>&1 & ;;
  esac
  pid[$1]=$!
  starts[$1]=$(( ${starts[$1]:-0} + 1 ))
}
declare -A pid starts finished
cleanup() { for n in "${names[@]}"; do kill -9 "${pid[$n]:-}" 2>/dev/null || true; done; }
trap cleanup EXIT
alive() { kill -0 "${pid[$1]}" 2>/dev/null; }
# Restarts whatever ended, except a learner that finished its run (exit 0).
supervise() {
  for n in "${names[@]}"; do
    [ -n "${finished[$n]:-}" ] && continue
    if ! alive "$n"; then
      local status=0
      wait "${pid[$n]}" 2>/dev/null || status=$?
      if [[ $n == learner* ]] && [ $status = 0 ]; then finished[$n]=1; continue; fi
      start "$n"
    fi
  done
}

start redis
python3 - "$port" <<'PY'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close(); break
    except OSError:
        time.sleep(0.1)
PY
for n in learner0 learner1 a1 a2 a3; do start "$n"; done
echo "soak: kill -9 about every ${period}s for $minutes minutes in $work (redis on 127.0.0.1:$port)"
end=$((SECONDS + minutes * 60))
kills=0
declare -A killed
while [ $SECONDS -lt $end ]; do
  next=$((SECONDS + $(python3 -c "import random; print(round(random.uniform(0.5, 1.5) * $period))")))
  while [ $SECONDS -lt $next ] && [ $SECONDS -lt $end ]; do supervise; sleep 1; done
  [ $SECONDS -lt $end ] || break
  victim=${names[$((RANDOM % ${#names[@]}))]}
  [ -n "${finished[$victim]:-}" ] && continue
  alive "$victim" || continue
  kill -9 "${pid[$victim]}"
  kills=$((kills + 1)); killed[$victim]=$(( ${killed[$victim]:-0} + 1 ))
  echo "$(date +%T) kill $kills: $victim (start ${starts[$victim]})"
done
echo "kills over: $kills; waiting for the learners to end their run"
deadline=$((SECONDS + 900))
while [ -z "${finished[learner0]:-}" ] || [ -z "${finished[learner1]:-}" ]; do
  [ $SECONDS -lt $deadline ] || { echo "FAIL: the learners did not finish in 15 minutes: $(tail -2 "$work/learner0.log")"; exit 1; }
  supervise; sleep 2
done
for n in a1 a2 a3; do kill -9 "${pid[$n]}" 2>/dev/null || true; wait "${pid[$n]}" 2>/dev/null || true; finished[$n]=1; done

# The accounting, with redis still up.
latest=$(cat "$work/run/checkpoints/LATEST")
redis-cli -p "$port" --raw xrange azg:soak:games - + > "$work/stream.txt"
pending=$(redis-cli -p "$port" xpending azg:soak:games learners | head -1)
cat "$work"/a?.log > "$work/actors.log"
python3 - "$work/run" "$latest" "$work/stream.txt" "$work/actors.log" "$pending" <<'PY' || exit 1
import json, os, re, sys
run, latest, stream_file, actors_log, pending = sys.argv[1:6]
def fail(why): print("FAIL: " + why); sys.exit(1)
counted, top = 0, {}
for rank_dir in (run, os.path.join(run, "rank-1")):
    set_dir = os.path.join(rank_dir, "checkpoints", latest)
    state = json.load(open(os.path.join(set_dir, "state.json")))
    counted += state["games"]
    taken = json.load(open(os.path.join(set_dir, "learner.json")))["taken"]
    for actor, seq in taken.items():
        top[actor] = max(top.get(actor, 0), seq)
# xrange --raw: id, then the fields and values one per line (actor, A, seq, S, data, ...).
lines = open(stream_file, "rb").read().split(b"\n")
waiting = set()
for i, line in enumerate(lines):
    if line == b"actor" and i + 3 < len(lines) and lines[i + 2] == b"seq":
        actor, seq = lines[i + 1].decode(), int(lines[i + 3])
        waiting.add((actor, seq))
        top[actor] = max(top.get(actor, 0), seq)
numbered = sum(top.values())
reported = {}
for m in re.finditer(r"actor (\S+): (\d+) games sent", open(actors_log).read()):
    reported[m.group(1)] = max(reported.get(m.group(1), 0), int(m.group(2)))
short = {a: (n, top.get(a, 0)) for a, n in reported.items() if n > top.get(a, 0)}
if short:
    fail(f"actor starts reported more games sent than the run holds: {short}")
if pending != "0":
    fail(f"{pending} entries read and never acknowledged")
if counted + len(waiting) != numbered:
    fail(f"counted {counted} + waiting {len(waiting)} != {numbered} games numbered by {len(top)} actor starts")
print(f"ok: {len(top)} actor starts numbered {numbered} games: {counted} counted once by the two ranks, "
      f"{len(waiting)} waiting in the stream, none lost, none twice")
PY
# No game record twice across the ranks' counted files; every counted game replays legal.
python3 - "$work/run" <<'PY' || exit 1
import glob, os, sys
seen, twice = set(), 0
files = sorted(glob.glob(os.path.join(sys.argv[1], "games", "*.jsonl")) +
               glob.glob(os.path.join(sys.argv[1], "rank-1", "games", "*.jsonl")))
for f in files:
    for line in open(f):
        twice += line in seen
        seen.add(line)
if twice: print(f"FAIL: {twice} game records appear twice"); sys.exit(1)
print(f"ok: {len(seen)} game records in {len(files)} files, none twice")
PY
records=$("$azg" records --game lignes "$work"/run/games/*.jsonl "$work"/run/rank-1/games/*.jsonl | tail -1) ||
  { echo "FAIL: azg records: $records"; exit 1; }
[ -f "$work/run/models/final.pt" ] || { echo "FAIL: no models/final.pt"; exit 1; }
"$azg" export --checkpoint "$work/run/checkpoints/$latest/model.ckpt" --out "$work/exported.pt" > /dev/null ||
  { echo "FAIL: azg export of the last checkpoint"; exit 1; }
metrics=$(python3 "$here/check_metrics.py" "$work/run/metrics.jsonl") || { echo "$metrics"; exit 1; }
summary=""
for n in "${names[@]}"; do summary+="$n ${killed[$n]:-0}/${starts[$n]}, "; done
echo "records: $records"
echo "$metrics"
echo "PASS: $kills kills in $minutes minutes (kills/starts: ${summary%, }); model exported; work in $work"
