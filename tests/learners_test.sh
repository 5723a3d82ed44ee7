#!/usr/bin/env bash
# azg learner --learners 2 (data-parallel on Gloo) fed by azg actor on a redis-server of its
# own. Rank 1 (started by rank 0) is killed with kill -9: rank 0 stops at once with one
# line, and the same command resumes both from the last complete set. At the end:
# - every game the actor sent is counted once by one rank or still waits in the stream;
# - only rank 0's directory holds model checkpoints; rank 1's holds its shard;
# - resuming with another --learners is refused with one line.
# Exit 77 (skipped) where redis-server is not installed.
set -u
azg=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/redis_fixture.sh" --appendonly yes --appendfsync always
rendezvous=127.0.0.1:$(free_port)
on_exit() { pkill -9 -f -- "--rendezvous $rendezvous" 2>/dev/null; }  # rank 1, started by rank 0
sets=(selfplay.simulations=8 selfplay.cheap_simulations=4 selfplay.threads=1 selfplay.games_per_thread=2
      net.blocks=1 net.channels=8 run.steps=150 run.checkpoint_every=10 train.min_positions=64 train.batch_size=16
      eval.every=0 eval.final_games=0)
learners() {
  "$azg" learner --redis "127.0.0.1:$port" --run t --run-dir "$work/run" --learners "$1" --rendezvous "$rendezvous" \
    --config "$root/configs/lignes.yaml" --set "${sets[@]}" >> "$work/learner.log" 2>&1 &
  learner_pid=$!
  pids+=($learner_pid)
}
learners 2
"$azg" actor --redis "127.0.0.1:$port" --run t --name a1 --games 80 --config "$root/configs/lignes.yaml" \
  --set "${sets[@]}" > "$work/actor.log" 2>&1 &
actor_pid=$!
pids+=($actor_pid)
# Once the group has checkpointed past its start, kill rank 1 (rank 0's child).
wait_until 60 '[ "$(grep -c "^step " "$work/learner.log")" -ge 2 ]'
sleep 0.$((RANDOM % 9))
rank1=$(pgrep -f -- "--rendezvous $rendezvous .*--rank 1")
[ -n "$rank1" ] || fail "no rank 1 process"
kill -9 $rank1
wait $learner_pid
status=$?
echo "killed rank 1 at step $(grep '^step ' "$work/learner.log" | tail -1 | cut -d' ' -f2); rank 0 exited with $status:"
tail -1 "$work/learner.log"
[ $status != 0 ] || fail "rank 0 went on without rank 1"
[ "$(tail -1 "$work/learner.log" | grep -c '^azg: error: learner group: .* failed, a learner is gone or silent')" = 1 ] ||
  fail "rank 0's last line is not the group's one-line error"
learners 2
wait $actor_pid || fail "the actor exited with $?: $(tail -2 "$work/actor.log")"
wait $learner_pid || fail "the learners exited with $?: $(tail -3 "$work/learner.log")"
grep -q "^resuming" "$work/learner.log" || fail "rank 0 never resumed: $(tail -3 "$work/learner.log")"
grep -q "^learner rank 1 of 2: shard in .* at step [1-9]" "$work/learner.log" || fail "rank 1 never resumed its shard"
sent=$(sed -n 's/.*stopped after \([0-9]*\) games.*/\1/p' "$work/actor.log")
games() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["games"])' "$1/checkpoints/$(cat "$1/checkpoints/LATEST")/state.json"; }
counted0=$(games "$work/run")
counted1=$(games "$work/run/rank-1")
waiting=$(redis-cli -p "$port" xlen azg:t:games)
pending=$(redis-cli -p "$port" xpending azg:t:games learners | head -1)
echo "actor sent $sent games; rank 0 counted $counted0, rank 1 $counted1; $waiting still in the stream ($pending unacknowledged)"
[ -n "$sent" ] && [ $((counted0 + counted1 + waiting)) = "$sent" ] ||
  fail "counted $counted0 + $counted1 + waiting $waiting != sent $sent"
[ "$counted0" -gt 0 ] && [ "$counted1" -gt 0 ] || fail "a rank got no games"
[ "$pending" = 0 ] || fail "$pending entries read and never acknowledged"
grep -q "^model: " "$work/learner.log" || fail "the learners did not finish: $(tail -2 "$work/learner.log")"
[ -z "$(find "$work/run/rank-1" -name model.ckpt)" ] || fail "rank 1 wrote a model checkpoint"
[ -n "$(find "$work/run/checkpoints" -name model.ckpt)" ] || fail "rank 0 wrote no model checkpoint"
[ -f "$work/run/rank-1/checkpoints/$(cat "$work/run/checkpoints/LATEST")/buffer.bin" ] ||
  fail "rank 1 has no shard of rank 0's latest set"
# The run is complete; another group size is refused before anything is touched.
"$azg" learner --redis "127.0.0.1:$port" --run t --run-dir "$work/run" --config "$root/configs/lignes.yaml" \
  --set "${sets[@]}" > "$work/one.log" 2>&1
echo "resumed by one learner: $(tail -1 "$work/one.log")"
grep -q "was trained by 2 learner(s): resume it with --learners 2" "$work/one.log" || fail "a change of --learners was not refused"
[ $failures = 0 ] && echo "PASS: two data-parallel learners survive kill -9 of a rank with every game counted once" || exit 1
