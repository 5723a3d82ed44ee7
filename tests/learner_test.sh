#!/usr/bin/env bash
# azg learner and azg actor on a redis-server of their own (AOF on): the learner is killed
# with kill -9 twice and resumed by the same command; at the end every game the actor sent
# is counted once by the learner or still waits in the stream: none lost, none twice.
# Exit 77 (skipped) where redis-server is not installed.
set -u
azg=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/redis_fixture.sh" --appendonly yes --appendfsync always
sets=(selfplay.simulations=8 selfplay.cheap_simulations=4 selfplay.threads=1 selfplay.games_per_thread=2
      net.blocks=1 net.channels=8 run.steps=150 run.checkpoint_every=10 train.min_positions=64 train.batch_size=32
      eval.every=0 eval.final_games=0)
learner() {
  "$azg" learner --redis "127.0.0.1:$port" --run t --run-dir "$work/run" --config "$root/configs/lignes.yaml" \
    --set "${sets[@]}" >> "$work/learner.log" 2>&1 &
  learner_pid=$!
  pids+=($learner_pid)
}
learner
"$azg" actor --redis "127.0.0.1:$port" --run t --name a1 --games 80 --config "$root/configs/lignes.yaml" \
  --set "${sets[@]}" > "$work/actor.log" 2>&1 &
actor_pid=$!
pids+=($actor_pid)
# Two kills, each once the learner has checkpointed past where it started.
for kill in 1 2; do
  wait_until 60 '[ "$(grep -c "^step " "$work/learner.log")" -ge $((kill * 2 - 1)) ]'
  sleep 0.$((RANDOM % 9))
  kill -9 $learner_pid
  wait $learner_pid 2>/dev/null
  echo "killed the learner ($(grep '^step ' "$work/learner.log" | tail -1 | cut -d' ' -f2))"
  learner
done
wait $actor_pid || fail "the actor exited with $?: $(tail -2 "$work/actor.log")"
wait $learner_pid || fail "the learner exited with $?: $(tail -3 "$work/learner.log")"
grep -q "resuming" "$work/learner.log" || fail "the learner never resumed: $(tail -3 "$work/learner.log")"
sent=$(sed -n 's/.*stopped after \([0-9]*\) games.*/\1/p' "$work/actor.log")
set_dir=$work/run/checkpoints/$(cat "$work/run/checkpoints/LATEST")
counted=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["games"])' "$set_dir/state.json")
waiting=$(redis-cli -p "$port" xlen azg:t:games)
pending=$(redis-cli -p "$port" xpending azg:t:games learners | head -1)
echo "actor sent $sent games; the learner counted $counted; $waiting still in the stream ($pending unacknowledged)"
[ -n "$sent" ] && [ $((counted + waiting)) = "$sent" ] || fail "counted $counted + waiting $waiting != sent $sent"
[ "$pending" = 0 ] || fail "$pending entries read and never acknowledged"
grep -qE "^model: |is already complete" "$work/learner.log" || fail "the learner did not finish: $(tail -2 "$work/learner.log")"

# Backpressure counts the games no learner has taken: a learner that needs many more games
# than the actor's bound before its first checkpoint (which acknowledges them) still gets
# them. (Counting read and unacknowledged games too, they waited on each other for ever.)
small=(selfplay.simulations=8 selfplay.cheap_simulations=4 selfplay.threads=1 selfplay.games_per_thread=2
       net.blocks=1 net.channels=8 run.steps=60 run.checkpoint_every=1000 train.min_positions=64 train.batch_size=32
       train.reuse=1 eval.every=0 eval.final_games=0)
"$azg" actor --redis "127.0.0.1:$port" --run bp --name a1 --max-waiting 2 --config "$root/configs/lignes.yaml" \
  --set "${small[@]}" > "$work/bp-actor.log" 2>&1 &
pids+=($!)
if timeout 300 "$azg" learner --redis "127.0.0.1:$port" --run bp --run-dir "$work/bp" \
    --config "$root/configs/lignes.yaml" --set "${small[@]}" > "$work/bp-learner.log" 2>&1; then
  echo "backpressure: $(grep -c . "$work/bp-learner.log") learner lines, $(tail -1 "$work/bp-learner.log")"
else
  fail "the learner under an actor's --max-waiting 2 did not finish: $(tail -2 "$work/bp-learner.log")"
fi
[ $failures = 0 ] && echo "PASS: azg learner survives kill -9 with every game counted once" || exit 1
