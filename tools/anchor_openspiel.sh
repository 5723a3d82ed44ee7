#!/usr/bin/env bash
# Connect Four side by side with OpenSpiel's C++ AlphaZero (alpha_zero_torch), on this
# machine, one run after the other (issue #60, clauses 4-5; docs/connect4.md):
#   1. builds OpenSpiel's alpha_zero_torch from the checkout SRC against Debian's abseil,
#      libnop, nlohmann-json and LibTorch (tools/anchor_openspiel/CMakeLists.txt), on a
#      patched copy of the few files it needs (the patches below); SRC is left untouched;
#   2. trains connect_four for MINUTES with OpenSpiel's documented settings (its example's
#      defaults) and with a variant tuned for this machine (below), then azg's
#      configs/connect4.yaml for the same minutes;
#   3. scores every run on data/connect4/positions.jsonl with azg's metric (the share of
#      positions where the move keeps the solved value), its raw policy at each minute mark
#      and 100 simulations at 5, 15 and 30 minutes (tools/anchor_openspiel/report.py).
# A benchmark run by hand, never by CI; run nothing else beside it.
#
#   bash tools/anchor_openspiel.sh SRC [MINUTES] [WORK]
#     SRC: an open_spiel checkout (git clone https://github.com/google-deepmind/open_spiel)
#     MINUTES: training minutes of each run (default 30: the marks go to 30 minutes)
#     WORK: where builds and runs go (default runs/anchor-openspiel; must not hold runs)
#   ONLY=openspiel-tuned (or openspiel-default, azg, report): run one stage of 2-3 only.
#
# Measured with OpenSpiel commit 112b7770 (2025, "lanctot_release_201") on Debian 12:
# abseil 20220623 is built with its own optional and MutexLock(Mutex*), where that commit
# writes for a newer abseil, so the copy gets two textual patches:
#   absl::optional / nullopt / make_optional  ->  std::...   (Debian's absl::optional is not
#                                                              std::optional)
#   absl::MutexLock lock(m)                   ->  absl::MutexLock lock(&m)
# and "open_spiel/abseil-cpp", "open_spiel/json/include" point at /usr/include.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: tools/anchor_openspiel.sh SRC [MINUTES] [WORK]}
minutes=${2:-30}
work=${3:-runs/anchor-openspiel}
only=${ONLY:-}
[ -f "$src/open_spiel/algorithms/alpha_zero_torch/alpha_zero.cc" ] ||
  { echo "anchor_openspiel.sh: $src is not an open_spiel checkout (no alpha_zero_torch)" >&2; exit 2; }
[[ "$minutes" =~ ^[0-9]+$ ]] && [ "$minutes" -ge 1 ] ||
  { echo "anchor_openspiel.sh: MINUTES must be a whole number of minutes, not '$minutes'" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)
log() { echo "$(date +%T) $*" | tee -a "$work/anchor.log"; }

# Setup: what OpenSpiel's build needs beside azg's own (tools/setup.sh).
missing=()
for p in libabsl-dev libnop-dev; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "anchor_openspiel.sh: needs ${missing[*]}: run as root or install them" >&2; exit 2; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
[ -x build/bin/azg ] || bash tools/build.sh

# 1. The patched copy and its build.
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo "unknown (not a git checkout)")
if [ -z "$only" ]; then
  log "OpenSpiel $commit from $src (measured with 112b7770)"
  rm -rf "$work/openspiel-src"
  mkdir -p "$work/openspiel-src/open_spiel"
  (cd "$src/open_spiel" && cp --parents *.cc *.h utils/*.cc utils/*.h algorithms/mcts.cc \
    algorithms/mcts.h algorithms/alpha_zero_torch/*.cc algorithms/alpha_zero_torch/*.h \
    games/connect_four/connect_four.cc games/connect_four/connect_four.h \
    examples/alpha_zero_torch_example.cc "$work/openspiel-src/open_spiel/")
  find "$work/openspiel-src" -name '*.cc' -o -name '*.h' | xargs sed -i -E \
    -e 's/absl::(optional|nullopt|make_optional)\b/std::\1/g' \
    -e 's/(MutexLock [a-z_]+)\(([a-z_][a-z0-9_]*)\)/\1(\&\2)/g'
  cmake -S tools/anchor_openspiel -B "$work/build" -G Ninja -DOPEN_SPIEL_SRC="$work/openspiel-src" > "$work/cmake.log"
  log "building OpenSpiel's alpha_zero_torch (log: $work/build.log)"
  cmake --build "$work/build" -j"$(nproc)" > "$work/build.log" 2>&1 ||
    { tail -20 "$work/build.log" >&2; echo "anchor_openspiel.sh: the OpenSpiel build failed" >&2; exit 1; }
fi

# Clause 1's independent count: OpenSpiel's connect_four perft against azg's, from the
# start and from two mid-game positions, 1 to 8 moves deep.
if [ -z "$only" ]; then
  for moves in "" 4453 4334445563211; do
    for depth in 1 2 3 4 5 6 7 8; do
      theirs=$("$work/build/perft_openspiel" "$depth" "$moves")
      ours=$(build/bin/azg perft --game connect4 --depth "$depth" ${moves:+--moves "$(echo "$moves" | sed 's/./& /g')"} | awk '{print $NF}' | tr -d ,)
      [ "$theirs" = "$ours" ] ||
        { echo "anchor_openspiel.sh: perft ${moves:-start} depth $depth: OpenSpiel $theirs, azg $ours" >&2; exit 1; }
    done
  done
  log "perft: azg's connect4 agrees with OpenSpiel's connect_four to depth 8 from 3 positions"
fi

# 2. Training, one run after the other. alpha_zero_torch stops at SIGINT (it finishes its
# learner step); every step's checkpoint is kept, to read its accuracy by the minute.
train_openspiel() {
  local name=$1; shift
  [ -z "$only" ] || [ "$only" = "$name" ] || return 0
  [ ! -e "$work/$name" ] || { echo "anchor_openspiel.sh: $work/$name exists: move it away" >&2; exit 2; }
  mkdir -p "$work/$name"
  log "training $name for $minutes minutes: $*"
  timeout -s INT -k 300 $((minutes * 60)) "$work/build/alpha_zero_torch_example" \
    --game=connect_four --path="$work/$name" --checkpoint_freq=1 "$@" > "$work/$name/stdout.log" 2>&1 || true
  [ -s "$work/$name/learner.jsonl" ] || log "$name: no learner step in $minutes minutes"
}
# OpenSpiel's documented settings: its example's defaults (a 10 x 128 resnet, 300
# simulations, 4 actors and 2 evaluators, inference one position at a time).
train_openspiel openspiel-default
# Tuned for 2 cores: azg's network shape (2 residual blocks of 32 channels), batched
# inference from 16 actors over 2 inference threads, no evaluator threads (the report
# scores the checkpoints), fewer simulations and a smaller buffer so that learning starts
# within the first minutes.
train_openspiel openspiel-tuned --nn_depth=2 --nn_width=32 --actors=16 --evaluators=0 \
  --inference_batch_size=16 --inference_threads=2 --max_simulations=100 \
  --replay_buffer_size=16384 --replay_buffer_reuse=4 --train_batch_size=256 --learning_rate=0.001

if [ -z "$only" ] || [ "$only" = azg ]; then
  [ ! -e "$work/azg" ] || { echo "anchor_openspiel.sh: $work/azg exists: move it away" >&2; exit 2; }
  log "training azg's configs/connect4.yaml for $minutes minutes"
  build/bin/azg train -c configs/connect4.yaml --run-dir "$work/azg" --set run.minutes="$minutes" \
    > "$work/azg.log" 2>&1
fi

# 3. The side by side.
if [ -z "$only" ] || [ "$only" = report ]; then
  log "scoring (azg $(git rev-parse --short HEAD), OpenSpiel $commit)"
  python3 tools/anchor_openspiel/report.py "$work" "$minutes" | tee "$work/report.txt"
fi
