#!/usr/bin/env bash
# Soak: a training run killed with kill -9 at random moments, KILLS times over MINUTES,
# resumes every time; after each kill the run directory is checked (check_run.py:
# LATEST complete, counters monotone, every counted game in games/ exactly once, none
# twice), and after the last the run trains to its end.
#   bash tests/soak/kill_resume.sh [path/to/azg] [KILLS=50] [MINUTES=60]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
azg=$(realpath "${1:-build/bin/azg}")
kills=${2:-50}
minutes=${3:-60}
work=$(mktemp -d /tmp/azg-soak-kill.XXXXXX)
# The run ends on its clock (the training time its checkpoints count), set past what the
# kills leave it: time lost to start-ups and to work after the last checkpoint is never
# counted, so it cannot end before the last kill, and the final resume trains it to its end.
budget=$(python3 -c "print(round($minutes * 1.1 + 2, 1))")
run=$work/run
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
train() {
  exec "$azg" train --config "$here/../../configs/lignes.yaml" --run-dir "$run" --set run.minutes="$budget" \
    --set run.steps=10000000 --set run.checkpoint_every=20 --set net.blocks=1 --set net.channels=16 \
    --set selfplay.games_per_file=8 --set selfplay.games_per_thread=4 \
    --set selfplay.simulations=8 --set selfplay.cheap_simulations=4 --set train.min_positions=200 --set eval.every=200 --set eval.games=2 --set eval.final_games=2 "$@"
}
period=$(( minutes * 60 / kills ))
echo "soak: $kills kills over $minutes minutes (one every ~${period}s) in $work"
survived=0
for k in $(seq "$kills"); do
  (train) > "$work/log.$k" 2>&1 &
  pid=$!
  sleep "$(python3 -c "import random; print(round(random.uniform(0.3, 1.7) * $period, 2))")"
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "FAIL: the run stopped by itself before kill $k: $(tail -2 "$work/log.$k")"; exit 1
  fi
  kill -9 "$pid"; wait "$pid" 2>/dev/null || true
  if [ "$k" -gt 1 ] && ! grep -q "^resuming" "$work/log.$k"; then
    # Killed before it could even resume (a very short draw): the next round resumes.
    echo "kill $k: before the resume line"
  fi
  result=$(python3 "$here/check_run.py" "$run" "$work/soak-last-state.json") || { echo "$result"; exit 1; }
  survived=$((survived + 1))
  echo "kill $k: $result"
done
# The end: resume and train to the end of the run's clock, then check once more.
(train) > "$work/log.final" 2>&1 || { echo "FAIL: the final resume: $(tail -3 "$work/log.final")"; exit 1; }
grep -q "^resuming" "$work/log.final" || { echo "FAIL: the final run did not resume"; exit 1; }
result=$(python3 "$here/check_run.py" "$run") || { echo "$result"; exit 1; }
records=$("$azg" records --game lignes "$run"/games/*.jsonl | tail -1)
uncounted=$( (ls "$run/games/uncounted" 2>/dev/null || true) | wc -l)
echo "PASS: $survived kills survived; final $result; $records; $uncounted file(s) set apart in games/uncounted/"
