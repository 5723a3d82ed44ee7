#!/usr/bin/env python3
"""Checks a training run directory's invariants after a kill (tests/soak/).

usage: check_run.py RUN_DIR [MEMORY_JSON]

- checkpoints/LATEST names a complete set (model.ckpt, buffer.bin, state.json);
- the games/ files numbered below the set's game_files hold exactly its `games` games,
  every line JSON with actions and a result;
- no game line appears twice anywhere under games/ (uncounted/ included);
- metrics.jsonl never goes back (check_metrics.py);
- with MEMORY_JSON (where the previous check left the state it saw): step, games,
  positions and elapsed_seconds did not go back; the state seen now is left there.
Prints one line of figures; exits 1 with the reason on the first broken invariant.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_metrics import check_metrics  # noqa: E402


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    run = sys.argv[1]
    latest_path = os.path.join(run, "checkpoints", "LATEST")
    if not os.path.exists(latest_path):
        print("no checkpoint yet")
        return
    name = open(latest_path).read().strip()
    set_dir = os.path.join(run, "checkpoints", name)
    for f in ("model.ckpt", "buffer.bin", "state.json"):
        if not os.path.isfile(os.path.join(set_dir, f)):
            fail(f"LATEST names {name}, which lacks {f}")
    state = json.load(open(os.path.join(set_dir, "state.json")))
    games_dir = os.path.join(run, "games")
    counted = 0
    seen = set()
    duplicates = 0
    for root, _, files in os.walk(games_dir):
        for f in sorted(files):
            if not f.endswith(".jsonl"):
                continue
            number = int(f[:6]) if f[:6].isdigit() else 0
            in_count = root == games_dir and 0 < number < state["game_files"]
            for line in open(os.path.join(root, f)):
                record = json.loads(line)
                if "actions" not in record or "result" not in record:
                    fail(f"{f}: a line without actions or result")
                if line in seen:
                    duplicates += 1
                seen.add(line)
                counted += in_count
    if duplicates:
        fail(f"{duplicates} game lines appear twice under games/")
    if counted != state["games"]:
        fail(f"state.json counts {state['games']} games, the files below {state['game_files']} hold {counted}")
    metrics = os.path.join(run, "metrics.jsonl")
    if os.path.exists(metrics):
        why = check_metrics(metrics)
        if why:
            fail(f"metrics.jsonl: {why}")
    if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
        before = json.load(open(sys.argv[2]))
        for key in ("step", "games", "positions", "elapsed_seconds"):
            if state[key] < before[key]:
                fail(f"{key} went back from {before[key]} to {state[key]}")
    if len(sys.argv) > 2:
        json.dump(state, open(sys.argv[2], "w"))
    print(f"ok: {name}, {state['games']} games counted and found, {len(seen)} game lines in all")


main()
