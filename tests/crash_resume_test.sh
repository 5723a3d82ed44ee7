#!/usr/bin/env bash
# Crash safety of `azg train`: kill -9 during self-play and during a checkpoint write,
# re-run the same command, and check the run completes with nothing lost or corrupted.
set -u
azg=$1
run=$(mktemp -d)/run
fail() { echo "FAIL: $*"; exit 1; }
source "$(dirname "$0")/wait_until.sh"
# Runs azg in this shell's process (exec), so that `train &` gives azg's own pid to kill.
train() {
  exec "$azg" train --run-dir "$run" --set game=lignes --set run.steps=60 --set run.minutes=0 \
    --set run.checkpoint_every=10 --set run.log_every=10 --set net.blocks=1 --set net.channels=8 \
    --set net.value_hidden=8 --set train.batch_size=32 --set train.min_positions=100 --set train.reuse=8 \
    --set selfplay.games_per_thread=8 --set selfplay.simulations=8 --set selfplay.cheap_simulations=4 \
    --set selfplay.games_per_file=4 --set eval.every=30 --set eval.games=2 --set eval.baseline_simulations=20 \
    --set eval.final_games=2 --set eval.final_simulations=8 "$@"
}
latest_step() { sed -E 's/step-0*([0-9]+)/\1/' "$run/checkpoints/LATEST" 2>/dev/null || echo -1; }
json_lines_ok() {  # every line of every file parses as JSON
  /usr/bin/python3 -c '
import json, sys
for path in sys.argv[1:]:
    for n, line in enumerate(open(path), 1):
        json.loads(line)
' "$@"
}

# 1. Kill during self-play, once a checkpoint beyond step 0 exists.
(train) > "$run.log1" 2>&1 &
pid=$!
wait_until 60 '[ "$(latest_step)" -ge 10 ]'
kill -9 $pid; wait $pid 2>/dev/null
step_before=$(latest_step)
[ "$step_before" -ge 10 ] || fail "no checkpoint before the kill"
echo "killed during self-play at checkpoint step $step_before"

# 2. Resume, and kill inside the next checkpoint write (the pause sits between the
# model file and the rest of the set).
export AZG_TEST_CHECKPOINT_PAUSE_MS=4000
(train) > "$run.log2" 2>&1 &
pid=$!
unset AZG_TEST_CHECKPOINT_PAUSE_MS
# Wait until it has resumed (stale sets from the first kill are removed by then).
wait_until 60 'grep -q "resuming" "$run.log2"'
target=$((step_before + 10))
partial=$(printf "%s/checkpoints/step-%08d" "$run" "$target")
wait_until 120 '[ -f "$partial/model.ckpt" ]' || fail "the checkpoint at step $target never started"
kill -9 $pid; wait $pid 2>/dev/null
[ -f "$partial/state.json" ] && fail "the kill came too late: the set was complete"
[ "$(latest_step)" -lt "$target" ] || fail "LATEST points at a partial checkpoint set"
grep -q "resuming $run at step $step_before" "$run.log2" || fail "did not resume from step $step_before: $(head -3 "$run.log2")"
echo "killed during the checkpoint write of step $target"

# 3. Resume to the end.
(train) > "$run.log3" 2>&1 || fail "the final run failed: $(tail -5 "$run.log3")"
grep -q "resuming" "$run.log3" || fail "the final run did not resume"
[ -f "$run/models/final.pt" ] || fail "no final model"
[ ! -d "$partial" ] || [ -f "$partial/state.json" ] || fail "the partial checkpoint set was left behind"
[ "$(latest_step)" = 60 ] || fail "the run did not reach step 60 (LATEST: $(latest_step))"
json_lines_ok "$run/metrics.jsonl" "$run"/games/*.jsonl || fail "a metrics or game-record line is corrupt"
grep -q '"type": *"final"\|"type":"final"' "$run/metrics.jsonl" || fail "no final evaluation in metrics.jsonl"
steps=$(/usr/bin/python3 -c '
import json, sys
steps = [json.loads(l)["step"] for l in open(sys.argv[1]) if json.loads(l)["type"] == "train"]
print(max(steps))' "$run/metrics.jsonl")
[ "$steps" = 60 ] || fail "metrics stop at step $steps"
# Two kills, and the log still holds each step once with its counters never going back:
# the resumes cut it back to their checkpoints' lines (the second kill came after the
# line of step $target and before its checkpoint was complete).
/usr/bin/python3 "$(dirname "$0")/soak/check_metrics.py" "$run/metrics.jsonl" || fail "metrics.jsonl went back"
grep -q "dropped [0-9]* metrics line(s) written after the last checkpoint (step $step_before)" "$run.log3" ||
  fail "the last resume did not cut the killed run's metrics lines: $(head -3 "$run.log3")"
# A fourth run of the same command reports the finished run.
(train) 2>&1 | grep -q "already complete" || fail "a finished run is not recognised"
# Another configuration in the same run directory is refused.
out=$(train --set seed=2 2>&1); status=$?  # $( ) is a subshell already
[ $status = 2 ] && grep -q "another configuration" <<<"$out" || fail "a changed config was not refused: $out"
echo "1 passed, 0 failed"
