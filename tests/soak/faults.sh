#!/usr/bin/env bash
# Fault soak (not in CI; root for the tmpfs mounts): a full disk during training, a
# read-only run directory, two trainers on one run directory and the lock after a crash,
# and a 10,000-game arena whose every game must be in games.jsonl exactly once.
#   bash tests/soak/faults.sh [path/to/azg] [ARENA_GAMES=10000]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
azg=$(realpath "${1:-build/bin/azg}")
arena_games=${2:-10000}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
work=$(mktemp -d /tmp/azg-soak-faults.XXXXXX)
mnt=$work/mnt
mkdir -p "$mnt"
cleanup() { umount "$mnt" 2>/dev/null || true; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
latest_step() {  # RUN_DIR: the step of the checkpoint set LATEST names (-1: none)
  python3 -c "import json, os, sys; d = sys.argv[1] + '/checkpoints/'
print(json.load(open(d + open(d + 'LATEST').read().strip() + '/state.json'))['step'] if os.path.exists(d + 'LATEST') else -1)" "$1"
}
# Resumes the run in RUN_DIR with the same command (a resume must not change the config)
# until it checkpoints past its LATEST step, then kills it: it resumed and trained on.
resume_and_train_on() {  # RUN_DIR LOG
  local before pid
  before=$(latest_step "$1")
  "$azg" train --run-dir "$1" "${small_run[@]}" > "$2" 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    [ "$(latest_step "$1")" -gt "$before" ] && { kill -9 "$pid"; wait "$pid" 2>/dev/null || true; return 0; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -9 "$pid" 2>/dev/null || true
  return 1
}
small_run=(--set game=lignes --set net.blocks=1 --set net.channels=8 --set net.value_hidden=8 --set net.policy_head=conv
  --set run.minutes=0 --set run.checkpoint_every=10 --set train.min_positions=200 --set selfplay.games_per_thread=8
  --set selfplay.games_per_file=8 --set eval.every=0 --set eval.final_games=2 --set eval.final_simulations=8
  --set run.steps=100000 --set replay.capacity=20000)

if [ "$(id -u)" = 0 ]; then
  # 1. A full disk: a tmpfs too small for the run fills during a write. The error names
  # the full disk; LATEST still names a complete set, which resumes once there is room.
  mount -t tmpfs -o size=3m tmpfs "$mnt"
  if "$azg" train --run-dir "$mnt/run" "${small_run[@]}" > "$work/full.log" 2>&1; then
    fail "the run on a 3 MB disk did not fail"
  fi
  error=$(grep "azg: error" "$work/full.log" || true)
  echo "full disk: $error"
  grep -q "disk is full\|No space left" <<<"$error" || fail "the error does not say the disk is full: $(tail -2 "$work/full.log")"
  python3 "$here/check_run.py" "$mnt/run" > /dev/null || fail "the run directory is damaged after the full disk"
  step=$(latest_step "$mnt/run")
  mount -o remount,size=256m "$mnt"
  resume_and_train_on "$mnt/run" "$work/full-resume.log" || fail "no resume after the full disk: $(tail -2 "$work/full-resume.log")"
  grep -q "^resuming .* at step $step " "$work/full-resume.log" || fail "did not resume at step $step"
  echo "full disk: the last complete checkpoint (step $step) resumed and trained on to step $(latest_step "$mnt/run")"

  # 2. A read-only run directory: one clear line.
  mount -o remount,ro "$mnt"
  if "$azg" train --run-dir "$mnt/run" "${small_run[@]}" > "$work/ro.log" 2>&1; then
    fail "training in a read-only directory did not fail"
  fi
  [ "$(wc -l < "$work/ro.log")" = 1 ] || fail "more than one line: $(cat "$work/ro.log")"
  grep -q "Read-only file system" "$work/ro.log" || fail "the error does not say why: $(cat "$work/ro.log")"
  echo "read-only: $(cat "$work/ro.log")"
  umount "$mnt"
else
  echo "full disk and read-only: skipped (needs root for the tmpfs mounts)"
fi

# 3. Two trainers on one run directory: the second is refused; after the first is killed
# with kill -9 the lock is free again.
run=$work/locked
"$azg" train --run-dir "$run" "${small_run[@]}" > "$work/first.log" 2>&1 &
first=$!
for _ in $(seq 300); do [ -f "$run/checkpoints/LATEST" ] && break; sleep 0.1; done
if "$azg" train --run-dir "$run" "${small_run[@]}" > "$work/second.log" 2>&1; then
  fail "a second trainer ran on the same run directory"
fi
grep -q "is in use by another azg train (process $first)" "$work/second.log" || fail "$(cat "$work/second.log")"
echo "two trainers: $(cat "$work/second.log")"
kill -9 "$first"; wait "$first" 2>/dev/null || true
resume_and_train_on "$run" "$work/third.log" || fail "the lock was not reclaimed after kill -9: $(tail -2 "$work/third.log")"
echo "two trainers: after kill -9 of the first, a new trainer took the lock, resumed and checkpointed step $(latest_step "$run")"

# 4. A long arena on 2 threads: every game in games.jsonl exactly once, each one legal.
"$azg" arena --game lignes --agent r=random --agent u=mcts:sims=2 --games "$arena_games" --threads 2 --seed 5 \
  --out "$work/arena" > "$work/arena.log" 2>&1 || fail "the arena failed: $(tail -2 "$work/arena.log")"
lines=$(wc -l < "$work/arena/games.jsonl")
[ "$lines" = "$arena_games" ] || fail "games.jsonl has $lines lines for $arena_games games"
"$azg" records --game lignes "$work/arena/games.jsonl" > "$work/records.log" || fail "$(cat "$work/records.log")"
python3 - "$work/arena" "$arena_games" <<'PY' || fail "the arena's tallies and records disagree"
import json, sys
folder, n = sys.argv[1], int(sys.argv[2])
ratings = json.load(open(folder + "/ratings.json"))
games = sum(a["games"] for a in ratings["agents"]) / 2
records = [json.loads(line) for line in open(folder + "/games.jsonl")]
assert games == n, (games, n)
assert len(records) == n
points = {a["name"]: a["points"] for a in ratings["agents"]}
won = {"r": 0.0, "u": 0.0}
for r in records:
    s = {"1-0": 1.0, "0-1": 0.0}.get(r["result"], 0.5)
    won[r["player0"]] += s
    won[r["player1"]] += 1 - s
assert abs(won["r"] - points["r"]) < 1e-6 and abs(won["u"] - points["u"]) < 1e-6, (won, points)
PY
echo "arena: $arena_games games on 2 threads, each in games.jsonl once: $(cat "$work/records.log")"
echo "PASS"
