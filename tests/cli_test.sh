#!/usr/bin/env bash
# The azg command-line contract: outputs, exit statuses, one-line errors.
set -u
azg=$1
reference=${2:-}  # a folder with an exported Imbriqua model (model.pt)
root=$(cd "$(dirname "$0")/.." && pwd)
# The optional parts this azg was built with (ctest passes the build options).
web=${AZG_WEB:-1}
redis=${AZG_REDIS:-1}
failures=0
check() {  # check NAME EXPECTED_STATUS PATTERN -- command...
  local name=$1 want=$2 pattern=$3
  shift 4
  local out status start=$SECONDS
  out=$("$@" 2>&1)
  status=$?
  if [ "$status" != "$want" ]; then
    echo "FAIL $name: status $status, want $want; output: $out"; failures=$((failures + 1)); return
  fi
  if ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: output does not match /$pattern/: $out"; failures=$((failures + 1)); return
  fi
  if [ "$want" = 2 ] && [ "$(wc -l <<<"$out")" != 1 ]; then
    echo "FAIL $name: the error is not one line: $out"; failures=$((failures + 1)); return
  fi
  # The slow checks say how long they took, so that CI's log shows where the test's time goes.
  local took=$((SECONDS - start))
  if [ "$took" -ge 5 ]; then echo "ok   $name ($took s)"; else echo "ok   $name"; fi
}
check games 0 '^lignes$' -- "$azg" games
check games-reference-apart 0 '^# reference games[^\n]*$' -- bash -c "\"$azg\" games | sed -n '/^connect4\$/q;p' | tail -1"
check perft-connect4 0 '^16807$' -- "$azg" perft --game connect4 --depth 5
# Published positions (Pons's Test_L1_R1) late enough to solve in about a second: after 4
# stones (6146) each move's class took the solver about 40 s.
check solve 0 'value: win in 3 plies for player 1 \(score 15\)' -- "$azg" solve --game connect4 --moves 22144426444 --table-bits 20
check solve-optimal 0 'optimal moves: 4$' -- "$azg" solve --game connect4 --moves "1 1 2 2 3 3 7 7 6 6" --table-bits 20
check solve-over 2 'the game is over in this position \(1-0\)' -- "$azg" solve --game connect4 --moves 1122334 --table-bits 20
check solve-bad-move 2 "action 1 '8': malformed" -- "$azg" solve --game connect4 --moves 48
check solve-other-game 2 'solved games only: connect4' -- "$azg" solve --game lignes
solve_dir=$(mktemp -d)
printf '22144426444 15\n17516442226766 8\n' > "$solve_dir/published.txt"
check solve-batch-agrees 0 '"score":8' -- "$azg" solve --game connect4 --batch "$solve_dir/published.txt" --table-bits 20
printf '22144426444 14\n' > "$solve_dir/wrong.txt"
check solve-batch-disagrees 1 'solved 15, the file says 14' -- "$azg" solve --game connect4 --batch "$solve_dir/wrong.txt" --table-bits 20
"$azg" solve --game connect4 --batch "$solve_dir/published.txt" --table-bits 20 > "$solve_dir/positions.jsonl" 2>/dev/null
check accuracy 0 '^all +2 ' -- "$azg" accuracy --game connect4 --agent ab:depth=2 --positions "$solve_dir/positions.jsonl"
check accuracy-bad-file 2 'published.txt:1: not a JSON object' -- "$azg" accuracy --game connect4 --agent random --positions "$solve_dir/published.txt"
rm -rf "$solve_dir"
check help 0 'perft' -- "$azg" --help
check perft-help 0 '--depth' -- "$azg" perft --help
check perft-last-line-is-count 0 '^176$' -- "$azg" perft --game lignes --depth 4
check perft-divide 0 "P1,0: 6" -- "$azg" perft --game lignes --moves P0,0 --depth 2 --divide
check perft-two-threads 0 '^176$' -- "$azg" perft --game lignes --depth 4 --threads 2
check perft-bad-threads 2 'threads must be at least 0' -- "$azg" perft --game lignes --depth 4 --threads -1
check legal 0 '^P0,0$' -- "$azg" legal --game lignes
check show 0 'to act: Dark' -- "$azg" show --game lignes --moves "P0,0"
check play-random 0 '^# seed 5: ' -- "$azg" play-random --game lignes --seed 5
check bench-env 0 'actions/s' -- "$azg" bench env --game lignes --seconds 0.2
check play-agents 0 '^mcts:sims=50: [0-9]+ wins' -- "$azg" play-agents --game lignes --agents mcts:sims=50 random --games 2
check play-agents-bad-spec 2 "unknown option 'foo'" -- "$azg" play-agents --game lignes --agents mcts:foo=1 random
check play-agents-bad-kind 2 "unknown agent kind 'alpha'" -- "$azg" play-agents --game lignes --agents alpha random
check engine-transcript 0 '^bestmove P' -- bash -c "printf 'ugi\nisready\nposition startpos moves P0,0\ngo sims 30\n' | '$azg' engine --game lignes --agent mcts:sims=50"
check engine-bad-model 2 "cannot|no such|not found|failed|error" -- "$azg" engine --game lignes --agent az:model=/nonexistent.pt
check engine-bad-spec 2 "unknown option 'warp'" -- "$azg" engine --game lignes --agent mcts:warp=1
# The shipped models (models/README.md): listed, checked, and played when --agent is omitted.
# exit status 0: every shipped model is accepted by this build (a refused one exits 1)
check models 0 '^lignes +[0-9]+K +configs/lignes' -- "$azg" models
check models-plays 0 '^imperator .* ok +symmetry=all +\+' -- "$azg" models --game imperator
check models-plays-lignes 0 '^lignes .* ok +symmetry=all +\+' -- "$azg" models --game lignes
check engine-shipped 0 '^bestmove P' -- bash -c "printf 'position startpos moves P0,0\ngo sims 30\n' | '$azg' engine --game lignes"
check analysis-shipped 0 '"moveInfos"' -- bash -c "echo '{\"id\":\"a\",\"moves\":[],\"maxVisits\":20}' | '$azg' analysis --game imbriqua"
check engine-none-shipped 2 'no shipped model for connect4: give --agent' -- "$azg" engine --game connect4
models_dir=$(mktemp -d)
check models-none 0 '^no shipped model' -- env AZG_MODELS="$models_dir" "$azg" models
if [ -n "$reference" ]; then
  printf '{"game": "lignes", "file": "lignes.pt"}\n' > "$models_dir/lignes.json"
  cp "$reference/model.pt" "$models_dir/lignes.pt"  # an Imbriqua network behind a Lignes card
  check models-refused 1 'REFUSED' -- env AZG_MODELS="$models_dir" "$azg" models --game lignes
  check engine-shipped-refused 2 'is a model for imbriqua, not lignes' -- env AZG_MODELS="$models_dir" "$azg" engine --game lignes
fi
rm -rf "$models_dir"
check analysis-line 0 '"bestMove":"P' -- bash -c "echo '{\"id\":\"a\",\"moves\":[\"P0,0\"],\"maxVisits\":20}' | '$azg' analysis --game lignes --agent mcts:sims=50"
check match 0 '^1 +uct ' -- "$azg" match --game lignes --engine "uct=$azg engine --game lignes --agent mcts:sims=100" --engine "rnd=$azg engine --game lignes --agent random" --games 2
check match-one-engine 2 'at least two --engine' -- "$azg" match --game lignes --engine "$azg engine --game lignes --agent random"
check bench-mcts 0 'simulations/s' -- "$azg" bench mcts --game imbriqua --seconds 0.2 --sims 100
check bench-mcts-bad-evaluator 2 'uniform or rollout' -- "$azg" bench mcts --game imbriqua --evaluator nn
check bench-nn 0 '^ratio: ' -- "$azg" bench nn --game imbriqua --batch 8 --seconds 0.2 --blocks 1 --channels 8
check bench-nn-fp32 0 'cpu, fp32, 2 thread' -- "$azg" bench nn --game lignes --batch 8 --seconds 0.2 --blocks 1 --channels 8 --precision fp32 --threads 2
check bench-nn-profile 0 'mkldnn_convolution +oneDNN' -- "$azg" bench nn --game imbriqua --batch 8 --seconds 0.2 --blocks 1 --channels 8 --precision fp32 --profile --train-batch 16
check bench-nn-bad-precision 2 'precision must be fp32, bf16, fp16, auto or fastest' -- "$azg" bench nn --game imbriqua --precision fp8
check bench-nn-fp16-on-cpu 2 'fp16 inference needs device cuda' -- "$azg" bench nn --game imbriqua --precision fp16
check bench-nn-sweep 0 '^-- batch 16$' -- "$azg" bench nn --game imbriqua --batch 8,16 --seconds 0.1 --blocks 1 --channels 8 --precision fp32
check bench-nn-bad-sweep 2 'must be positive' -- "$azg" bench nn --game imbriqua --batch 8,0
check train-bad-precision 2 'inference_precision must be fp32, bf16, fp16 \(device cuda\) or auto' -- "$azg" train --config "$root/configs/imbriqua.yaml" --set inference_precision=half --print-config
check train-bad-nice 2 'selfplay.nice must be in \[0, 19\]' -- "$azg" train --config "$root/configs/imbriqua.yaml" --set selfplay.nice=40 --print-config
if [ -n "$reference" ]; then
  check az-agent 0 'az:model=.*: [0-9]+ wins' -- "$azg" play-agents --game imbriqua --agents "az:model=$reference/model.pt,sims=8" random --games 2
  check az-wrong-game 2 'model for imbriqua, not lignes' -- "$azg" play-agents --game lignes --agents "az:model=$reference/model.pt" random
  check az-missing-model 2 'no model at' -- "$azg" play-agents --game imbriqua --agents "az:model=/nonexistent.pt" random
  if [ "$web" = 1 ]; then
    check serve-model-wrong-game 2 "is for imbriqua, but this server plays lignes" -- "$azg" serve --port 0 --game lignes --agent "az=az:model=$reference/model.pt"
    check serve-model-missing 2 'no model at' -- "$azg" serve --port 0 --agent "az=az:model=/nonexistent.pt"
  fi
  check export-not-a-checkpoint 2 'not a readable checkpoint|not an azg checkpoint' -- "$azg" export --checkpoint "$reference/model.pt" --out /tmp/azg-cli-x.pt
  # Weight averaging and the play symmetry a model carries (nets/model_average, model_settings).
  model_dir=$(mktemp -d)
  check export-average 0 '^averaged 2 imbriqua models' -- "$azg" export --average "$reference/model.pt" "$reference/model.pt" --out "$model_dir/mean.pt"
  check export-average-one 2 'averaging needs at least two models, got 1' -- "$azg" export --average "$reference/model.pt" --out "$model_dir/one.pt"
  check export-average-no-out 2 '--average needs --out' -- "$azg" export --average "$reference/model.pt" "$reference/model.pt"
  check export-play-symmetry 0 'symmetry=all unless a spec says otherwise' -- "$azg" export --model "$model_dir/mean.pt" --play-symmetry all --out "$model_dir/mean.pt"
  check export-play-symmetry-plays 0 'az:model=.*: [0-9]+ wins' -- "$azg" play-agents --game imbriqua --agents "az:model=$model_dir/mean.pt,sims=8" random --games 2
  check export-play-symmetry-bad 2 'the play symmetry must be 0, 1 or all, got .half.' -- "$azg" export --model "$model_dir/mean.pt" --play-symmetry half --out "$model_dir/x.pt"
  rm -rf "$model_dir"
fi
check export-play-symmetry-alone 2 '--play-symmetry rewrites an exported model' -- "$azg" export --play-symmetry all --out /tmp/x.pt
if [ "$web" = 1 ]; then
  # With no --agent: each game's shipped model first (the server stops when timeout ends it).
  check serve-shipped 0 'agents: shipped \(az:model=shipped: imbriqua, truchet, imperator, lignes, intercept\), uct \(mcts:sims=800\), random' -- bash -c "timeout 10 '$azg' serve --port 0 | head -1"
  check serve-bad-agent 2 'NAME=SPEC' -- "$azg" serve --port 0 --agent mcts:sims=10
  check serve-bad-spec 2 "unknown option 'warp'" -- "$azg" serve --port 0 --agent "u=mcts:warp=1"
  check serve-two-names 2 "two agents are named 'u'" -- "$azg" serve --port 0 --agent u=random --agent u=random
  check serve-unknown-game 2 "unknown game 'chess'" -- "$azg" serve --port 0 --game chess
  check serve-port-in-use 2 "cannot listen on 127.0.0.1:" -- bash -c "python3 -c 'import socket,subprocess,sys; s=socket.socket(); s.bind((\"127.0.0.1\",0)); s.listen(); sys.exit(subprocess.call([\"$azg\",\"serve\",\"--port\",str(s.getsockname()[1])]))'"
else
  check serve-not-built 2 'azg serve is not in this build \(configured with -DAZG_WEB=OFF\)' -- "$azg" serve --port 0
fi
check export-model-without-onnx 2 'add --onnx or --play-symmetry' -- "$azg" export --model /tmp/m.pt
check export-nothing 2 'give --checkpoint C --out M.pt, --average M1.pt M2.pt... --out M.pt, or --model M.pt with --onnx or --play-symmetry' -- "$azg" export
check export-onnx-missing 2 'no model at /nonexistent.pt' -- "$azg" export --model /nonexistent.pt --onnx
check export-missing 2 'no checkpoint at' -- "$azg" export --checkpoint /nonexistent.ckpt --out /tmp/x.pt
check arena 0 '^1 +mcts' -- "$azg" arena --game lignes --agent r=random --agent mcts=mcts:sims=100 --games 2 --anchor r
check arena-bad-agent 2 "NAME=SPEC" -- "$azg" arena --game lignes --agent random --agent m=mcts
check arena-bad-format 2 "round-robin or gauntlet" -- "$azg" arena --game lignes --agent a=random --agent b=random --format swiss
check arena-bad-opening-plies 2 "--opening-plies: Value -1 not in range 0 to 100" -- "$azg" arena --game lignes --agent a=random --agent b=random --opening-plies -1
records_dir=$(mktemp -d)
"$azg" arena --game lignes --agent r=random --agent m=mcts:sims=10 --games 4 --out "$records_dir" >/dev/null 2>&1
check records 0 'games.jsonl: 4 games, [0-9]+ actions' -- "$azg" records --game lignes "$records_dir/games.jsonl"
head -1 "$records_dir/games.jsonl" | sed 's/"1-0"/"0-1"/; t; s/"0-1"/"1-0"/; t; s|"1/2-1/2"|"1-0"|' > "$records_dir/bad.jsonl"
check records-bad-result 2 'bad.jsonl:1: the moves end' -- "$azg" records --game lignes "$records_dir/bad.jsonl"
check records-wrong-game 2 'games.jsonl:1: action 0' -- "$azg" records --game imbriqua "$records_dir/games.jsonl"
check records-missing 2 "cannot read '/nonexistent.jsonl'" -- "$azg" records --game lignes /nonexistent.jsonl
check sprt 0 'H1 accepted' -- "$azg" sprt --game lignes --agent m=mcts:sims=100 --agent r=random --elo0 0 --elo1 200
check sprt-bad-bounds 2 "elo1 > elo0" -- "$azg" sprt --game lignes --agent m=random --agent r=random --elo0 10 --elo1 5
check report-missing 2 "cannot read config" -- "$azg" report --run-dir /nonexistent
gate_run=$(mktemp -d)/run
check train-sprt-gate 0 'model: ' -- "$azg" train --run-dir "$gate_run" --set game=lignes --set run.steps=40 \
  --set run.minutes=0 --set net.blocks=1 --set net.channels=8 --set net.value_hidden=8 --set train.batch_size=32 \
  --set train.min_positions=100 --set train.reuse=8 --set selfplay.games_per_thread=8 --set selfplay.simulations=8 \
  --set selfplay.cheap_simulations=4 --set eval.every=20 --set eval.gate=sprt --set eval.sprt_max_games=4 \
  --set eval.simulations=4 --set eval.games=2 --set eval.baseline_simulations=10 --set eval.final_games=2 \
  --set eval.final_simulations=4
if grep -q '"policy_kl":[0-9]' "$gate_run/metrics.jsonl" 2>/dev/null; then echo "ok   train-policy-kl-metric"; else
  echo "FAIL train-policy-kl-metric: no policy_kl in metrics.jsonl"; failures=$((failures + 1)); fi
if grep -q '"sprt_games"' "$gate_run/metrics.jsonl" 2>/dev/null; then echo "ok   train-sprt-gate-metrics"; else
  echo "FAIL train-sprt-gate-metrics: no SPRT gate in metrics.jsonl"; failures=$((failures + 1)); fi
# A run that goes on training a model: it starts from the model's weights; another
# network or a missing file is refused with one line.
init_args=(--set game=lignes --set run.steps=10 --set run.minutes=0 --set net.blocks=1 --set net.value_hidden=8
  --set train.batch_size=32 --set train.min_positions=100 --set train.reuse=8 --set selfplay.games_per_thread=8
  --set selfplay.simulations=8 --set selfplay.cheap_simulations=4 --set eval.every=0 --set eval.final_games=0)
check train-init-model 0 "starting from the weights of $gate_run/models/final.pt" -- "$azg" train \
  --run-dir "$(dirname "$gate_run")/init" "${init_args[@]}" --set net.channels=8 --set run.init_model="$gate_run/models/final.pt"
check train-init-model-other-net 2 "its net.channels is 8, the run's 16 \(set the run's keys to the model's\)" -- \
  "$azg" train --run-dir "$(dirname "$gate_run")/init16" "${init_args[@]}" --set net.channels=16 \
  --set run.init_model="$gate_run/models/final.pt"
check train-init-model-missing 2 "no model at /nonexistent.pt" -- "$azg" train --run-dir "$(dirname "$gate_run")/init0" \
  "${init_args[@]}" --set net.channels=8 --set run.init_model=/nonexistent.pt
ladder_cache=$(mktemp -d)
check ladder 0 '^agent +[-+][0-9]+ +[0-9]+ ' -- env AZG_CACHE_DIR="$ladder_cache" "$azg" ladder --game lignes \
  --agent "az:model=$gate_run/models/final.pt,sims=8,rollout_mix=0.5" --rungs 10,400 --games 2 --threads 2
if [ -s "$ladder_cache/ladder-lignes.json" ]; then echo "ok   ladder-calibration-kept"; else
  echo "FAIL ladder-calibration-kept: no $ladder_cache/ladder-lignes.json"; failures=$((failures + 1)); fi
check ladder-calibration-reused 0 'pairing\(s\) from' -- env AZG_CACHE_DIR="$ladder_cache" "$azg" ladder \
  --game lignes --agent random --rungs 10,400 --games 2
check ladder-needs-anchor 2 "must include UCT-400" -- "$azg" ladder --game lignes --agent random --rungs 100,1600
check ladder-bad-rung 2 "'x' is not a simulation count" -- "$azg" ladder --game lignes --agent random --rungs x,400
check ladder-rungs-alone 0 '^AB-1 +[-+][0-9]+ ' -- env AZG_CACHE_DIR="$ladder_cache" "$azg" ladder --game lignes \
  --rungs "uct:5,400 ab:1" --round-robin --opening-plies 2 --games 2 --threads 2
check ladder-missing-model 2 "model rung 'no-such-model': no models/ladder/no-such-model.pt" -- "$azg" ladder \
  --game lignes --rungs "uct:400 model:no-such-model"
check bench-agent 0 'lignes ab:depth=1: [0-9.]+ ms per decision \(mean\)' -- "$azg" bench agent --game lignes \
  --agent ab:depth=1 --moves 3
check bench-agent-bad-spec 2 "unknown agent" -- "$azg" bench agent --game lignes --agent nonsense
check ladder-rung-name 2 "may not be named like a rung" -- "$azg" ladder --game lignes --agent UCT-400=random --rungs 400
check ladder-bad-mix 2 "rollout_mix" -- "$azg" ladder --game lignes --agent "az:model=$gate_run/models/final.pt,rollout_mix=2" --rungs 400
check report-ladder 0 'wrote .*ladder-curve' -- env AZG_CACHE_DIR="$ladder_cache" "$azg" report --run-dir "$gate_run" \
  --ladder --rungs 10,400 --games 2 --models 2 --sims 4 --threads 2
if head -1 "$gate_run/ladder-curve.csv" 2>/dev/null | grep -q '^model,step,minutes,games,elo,interval95$' &&
   [ "$(wc -l < "$gate_run/ladder-curve.csv")" = 3 ] && [ -s "$gate_run/ladder-curve.svg" ]; then
  echo "ok   report-ladder-files"; else echo "FAIL report-ladder-files"; failures=$((failures + 1)); fi
check report-ladder-agent-games 0 '4 paired games per pairing, 2 per agent pairing' -- env AZG_CACHE_DIR="$ladder_cache" \
  "$azg" report --run-dir "$gate_run" --ladder --rungs 10,400 --games 4 --agent-games 2 --models 2 --sims 4 --threads 2 \
  --out "$ladder_cache/curve"
check ladder-bad-agent-games 2 "agent-games" -- "$azg" ladder --game lignes --agent random --rungs 400 --agent-games 0
rm -rf "$ladder_cache"
check train-bad-mix 2 "rollout_mix must be in" -- "$azg" train --set selfplay.rollout_mix=1.5 --print-config
check train-bad-key 2 "unknown key 'selfplay.simulation'" -- "$azg" train --set selfplay.simulation=3 --print-config
check train-bad-gate 2 "eval.gate must be score or sprt" -- "$azg" train --set eval.gate=elo --print-config
check unknown-game 2 "unknown game 'chess'" -- "$azg" legal --game chess
check unknown-command 2 "unknown command 'frobnicate'" -- "$azg" frobnicate
check illegal-action 2 "action 1 'P5,5': illegal" -- "$azg" show --game lignes --moves "P0,0 P5,5"
check malformed-action 2 "action 0 'Q1': malformed" -- "$azg" legal --game lignes --moves "Q1"
check truchet-perft 0 '^81$' -- "$azg" perft --game truchet --setup 0000000000000000000000000000000000000000000000000 --depth 1
check truchet-bad-setup 2 "49 characters 0/1" -- "$azg" show --game truchet --setup 0120
check truchet-record-has-setup 0 'setup [01]{49}' -- "$azg" play-random --game truchet --seed 2
check imperator-perft 0 '^9120$' -- "$azg" perft --game imperator --depth 2
check imperator-bad-cell 2 "action 0 'a10': malformed" -- "$azg" show --game imperator --moves a10
check imperator3-perft 0 '^2862$' -- "$azg" perft --game imperator3 --depth 2
check imperator5-top-row 0 'placements 1/20' -- "$azg" show --game imperator5 --moves j11
check imperator5-no-row-k 2 "action 0 'k1': malformed" -- "$azg" show --game imperator5 --moves k1
check games-lists-variants 0 '^imperator5$' -- "$azg" games
margin_dir=$(mktemp -d)
check train-margin-needs-points 2 "lignes is not decided by points: train.margin_mix must be 0" -- \
  "$azg" train --set game=lignes --set train.margin_mix=0.5 --run-dir "$margin_dir/run"
if [ -e "$margin_dir/run" ]; then echo "FAIL train-margin-needs-points: a run directory was created"; failures=$((failures + 1)); fi
check train-progress-needs-hook 2 "lignes has no progress\(\) heuristic: train.draw_progress must be 0" -- \
  "$azg" train --set game=lignes --set train.draw_progress=0.5 --run-dir "$margin_dir/progress"
if [ -e "$margin_dir/progress" ]; then echo "FAIL train-progress-needs-hook: a run directory was created"; failures=$((failures + 1)); fi
check train-ownership-needs-targets 2 "lignes has no ownership targets: net.ownership must be false" -- \
  "$azg" train --set game=lignes --set net.ownership=true --run-dir "$margin_dir/own"
if [ -e "$margin_dir/own" ]; then echo "FAIL train-ownership-needs-targets: a run directory was created"; failures=$((failures + 1)); fi
check train-score-head-needs-points 2 "lignes is not decided by points: net.score_head must be false" -- \
  "$azg" train --set game=lignes --set net.score_head=true --run-dir "$margin_dir/score"
if [ -e "$margin_dir/score" ]; then echo "FAIL train-score-head-needs-points: a run directory was created"; failures=$((failures + 1)); fi
check train-score-utility-needs-head 2 "net.score_utility needs net.score_head" -- \
  "$azg" train --set net.score_utility=0.1 --print-config
rm -rf "$margin_dir"
# A short Imbriqua run with a score head searched with a score utility: the score loss is
# logged, and its model plays with the utility it trained with or with another.
score_run=$(mktemp -d)/run
check train-score-head 0 'model: ' -- "$azg" train --run-dir "$score_run" --set game=imbriqua --set run.steps=30 \
  --set run.minutes=0 --set net.blocks=1 --set net.channels=8 --set net.value_hidden=8 --set train.batch_size=32 \
  --set train.min_positions=100 --set train.reuse=8 --set selfplay.games_per_thread=8 --set selfplay.simulations=8 \
  --set selfplay.cheap_simulations=4 --set net.score_head=true --set net.score_utility=0.2 --set eval.every=0 \
  --set eval.final_games=0
if grep -q '"loss_score":0\.[0-9]*[1-9]' "$score_run/metrics.jsonl" 2>/dev/null; then echo "ok   train-score-loss-metric"; else
  echo "FAIL train-score-loss-metric: no non-zero loss_score in metrics.jsonl"; failures=$((failures + 1)); fi
check arena-score-utility 0 '^1 ' -- "$azg" arena --game imbriqua --agent "s=az:model=$score_run/models/final.pt,sims=8" \
  --agent "n=az:model=$score_run/models/final.pt,sims=8,score_utility=0" --games 2
check arena-score-utility-needs-head 2 "score_utility needs a network with a score head" -- "$azg" arena --game lignes \
  --agent "a=az:model=$gate_run/models/final.pt,sims=4,score_utility=0.2" --agent r=random --games 2
rm -rf "$(dirname "$score_run")"
check intercept-perft 0 '^1854$' -- "$azg" perft --game intercept --depth 2
check intercept-bad-square 2 "action 0 'n1-n2': malformed" -- "$azg" show --game intercept --moves n1-n2
check malformed-setup 2 "takes no setup" -- "$azg" show --game lignes --setup 0101
check missing-depth 2 "depth" -- "$azg" perft --game lignes
check bad-depth 2 "at least 0" -- "$azg" perft --game lignes --depth -1
check bad-count 2 "at least 1" -- "$azg" play-random --game lignes --count 0
# Data-parallel learners: bad group options fail before Redis or the run directory is touched.
if [ "$redis" = 1 ]; then
  check learner-bad-rank 2 "^azg: error: --rank must be in 0..1, got 2$" -- "$azg" learner --redis 127.0.0.1:1 --run t \
    --config "$root/configs/lignes.yaml" --learners 2 --rank 2
  check learner-bad-rendezvous 2 "^azg: error: --rendezvous needs a port in 1..65535, got 'host:0'$" -- "$azg" learner \
    --redis 127.0.0.1:1 --run t --config "$root/configs/lignes.yaml" --learners 2 --rendezvous host:0
  check learner-bad-learners 2 "learners" -- "$azg" learner --redis 127.0.0.1:1 --run t \
    --config "$root/configs/lignes.yaml" --learners 0
else
  check learner-not-built 2 'azg learner is not in this build \(configured with -DAZG_REDIS=OFF\)' -- "$azg" learner --learners 2
  check actor-not-built 2 'azg actor is not in this build' -- "$azg" actor
fi
# Same seed, same game.
a=$("$azg" play-random --game lignes --seed 11); b=$("$azg" play-random --game lignes --seed 11)
if [ "$a" = "$b" ]; then echo "ok   same-seed-same-game"; else echo "FAIL same-seed-same-game"; failures=$((failures + 1)); fi
# A record replays: its moves give a finished game with the printed result.
record=$("$azg" play-random --game lignes --seed 12)
result=$(head -1 <<<"$record" | sed -E 's/^# seed 12: ([^,]*),.*/\1/')
moves=$(sed -n 2p <<<"$record")
if "$azg" show --game lignes --moves "$moves" | grep -qF "result: $result"; then
  echo "ok   record-replays"; else echo "FAIL record-replays"; failures=$((failures + 1)); fi
echo "$failures failures"
[ "$failures" = 0 ]
