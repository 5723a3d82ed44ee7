#!/bin/bash
# Writes the fuzz targets' seed corpora (fuzz/corpus/<target>/seed-*) from real files:
# random games of every game played by azg, the shipped configs, and a model, checkpoint,
# replay buffer and state.json from a few seconds of real training on the smallest net.
# Usage: bash fuzz/make_seeds.sh [path/to/azg]   (crash-* files found by fuzzing are kept)
set -euo pipefail
cd "$(dirname "$0")/.."
azg=${1:-build/bin/azg}
corpus=fuzz/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in actions records agent_spec config model_meta run_files model_file checkpoint web_api; do
  mkdir -p "$corpus/$t"
  rm -f "$corpus/$t"/seed-*
done

games=(imbriqua truchet imperator lignes intercept imperator3 imperator5)
byte() { printf "\\x$(printf %02x "$1")"; }  # the byte that picks game $1 (fuzz_support.hpp)
for i in "${!games[@]}"; do
  g=${games[$i]}
  for seed in 1 2; do
    out=$("$azg" play-random --game "$g" -n 1 --seed "$seed")
    header=$(head -1 <<<"$out")
    moves=$(sed -n 2p <<<"$out")
    setup=$(sed -n 's/.*, setup \(.*\)$/\1/p' <<<"$header")
    result=$(sed -n 's/^# seed [0-9]*: \([^,]*\),.*/\1/p' <<<"$header")
    { byte "$i"; printf '%s\n%s\n' "$setup" "$moves"; } > "$corpus/actions/seed-$g-$seed"
    python3 - "$setup" "$moves" "$result" > "$work/record" <<'PY'
import json, sys
setup, moves, result = sys.argv[1:4]
r = {"actions": moves.split(), "result": result, "network_step": 0}
if setup: r["setup"] = setup
print(json.dumps(r, separators=(",", ":")))
PY
    { byte "$i"; cat "$work/record"; } > "$corpus/records/seed-$g-$seed"
  done
  { byte "$i"; printf '{"player0":"a","player1":"b","actions":[],"result":"1-0","termination":"b crashed before the game"}\n'; } \
    > "$corpus/records/seed-$g-terminated"
  { byte "$i"; printf 'random'; } > "$corpus/agent_spec/seed-$g-random"
  { byte "$i"; printf 'mcts:sims=32,batch=2,cpuct=1.5'; } > "$corpus/agent_spec/seed-$g-mcts"
  { byte "$i"; printf 'mcts:sims=16,evaluator=uniform,gumbel=1,gumbel_k=4'; } > "$corpus/agent_spec/seed-$g-gumbel"
done

for f in configs/*.yaml; do cp "$f" "$corpus/config/seed-$(basename "$f" .yaml)"; done
printf 'game: lignes\n--set\nselfplay.simulations=16\nnet.policy_head=conv\nseed=7\n' > "$corpus/config/seed-set"

# Request sequences of the web board's API (web_api_fuzz.cpp): pairs of "METHOD PATH" and
# body, each request ended by a line "---".
web() { while [ $# -ge 2 ]; do printf '%s\n%s\n---\n' "$1" "$2"; shift 2; done; }
web 'POST /api/games' '{"game":"lignes","p2":"uct"}' 'POST /api/games/{id}/play' '{"action":"P0,0"}' \
  'POST /api/games/{id}/think' '{}' 'GET /api/games/{id}?ply=1' '' 'POST /api/games/{id}/undo' '{"to_human":true}' \
  'GET /api/games/{id}/record' '' > "$corpus/web_api/seed-lignes"
web 'POST /api/games' '{"game":"imbriqua","seed":3,"moves":["a1","b1","c1","d1","e1","f1","g1","h1","d4"]}' \
  'POST /api/games/{id}/think' '{"agent":"random","play":false}' 'POST /api/games/{id}/stop' '{}' \
  'POST /api/games/{id}/undo' '{}' 'DELETE /api/games/{id}' '' > "$corpus/web_api/seed-imbriqua"
web 'POST /api/games' '{"game":"truchet","seed":11}' 'POST /api/games/{id}/play' '{"action":"Fa4"}' \
  'POST /api/games' '{"game":"lignes","record":{"actions":["P0,0","P1,0"],"result":"1/2-1/2","termination":"unfinished"}}' \
  'GET /api/games' '' 'GET /api/info' '' > "$corpus/web_api/seed-records"
web 'POST /api/games' '{"game":"intercept","p1":"uct","p2":"random"}' 'POST /api/games/{id}/think' '{"simulations":8}' \
  'POST /api/games/{id}/play' '{"action":"b1-b2"}' 'POST /api/games' '{"game":"imperator","setup":"x"}' \
  > "$corpus/web_api/seed-agents"

# A real run on the smallest network: its model, meta.json, checkpoint, buffer and state.
"$azg" train --config configs/lignes.yaml --run-dir "$work/run" \
  --set run.steps=30 net.blocks=1 net.channels=8 net.value_hidden=8 net.policy_head=conv train.min_positions=30 train.batch_size=16 \
  replay.capacity=40 selfplay.threads=1 selfplay.games_per_thread=4 eval.every=0 eval.final_games=0 >/dev/null
set_dir=$work/run/checkpoints/$(cat "$work/run/checkpoints/LATEST")
"$azg" export --checkpoint "$set_dir/model.ckpt" --out "$work/model.pt" >/dev/null
{ byte 3; cat "$work/model.pt"; } > "$corpus/model_file/seed-model"
python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); n = [x for x in z.namelist() if x.endswith("extra/meta.json")][0]; sys.stdout.write(z.read(n).decode())' "$work/model.pt" > "$work/meta.json"
{ byte 3; cat "$work/meta.json"; } > "$corpus/model_meta/seed-meta"
{ byte 3; byte 0; cat "$set_dir/buffer.bin"; } > "$corpus/run_files/seed-buffer"
{ byte 3; byte 1; cat "$set_dir/state.json"; } > "$corpus/run_files/seed-state"
{ byte 3; cat "$set_dir/model.ckpt"; } > "$corpus/checkpoint/seed-checkpoint"
ls "$corpus"/* | wc -l
