#!/usr/bin/env python3
"""Generates the Connect Four accuracy test set: positions from varied play, solved.

1. Games: azg arenas among agents of very different strength (random, UCT, heuristic
   MCTS, alpha-beta at depths 2 to 8), each couple of games opening with N shared random
   moves (N = 2, 6 and 10: random openings, then stronger play).
2. Candidates: every position of those games that is not over and holds at least
   --min-stones stones (default 8: below that, solving a position's seven moves takes
   minutes on two cores), mirror images and transpositions merged, drawn at random in
   equal numbers from the three phases (opening: up to 14 stones, middle: 15 to 28, end:
   29 and more).
3. Solved: `azg solve --batch` gives each the exact score, every move's class (win, draw
   or loss), the optimal moves and the moves that keep the value. Positions where every move keeps the
   value (nothing to get wrong) are left out, so the set measures choices.

Usage: connect4_positions.py --azg build/bin/azg --out data/connect4 [--count 1200]
       [--seed 1] [--games 24]
Writes OUT/positions.jsonl and OUT/provenance.json (the commands, the commit, the date,
the counts). Needs a few minutes on two cores for ~1,200 positions.
"""
import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from connect4_perft import COLS, Position  # noqa: E402  (the independent plain-grid engine)

AGENTS = ["r=random", "u100=mcts:sims=100", "u800=mcts:sims=800",
          "h200=mcts:sims=200,evaluator=heuristic", "ab2=ab:depth=2", "ab4=ab:depth=4",
          "ab8=ab:depth=8"]
OPENINGS = [2, 6, 10]
PHASES = [("opening", 0, 14), ("middle", 15, 28), ("end", 29, 42)]


def phase_of(stones):
    return next(name for name, lo, hi in PHASES if lo <= stones <= hi)


def canonical(moves):
    """The position's grid, mirror images merged; None when the game is over."""
    pos = Position("".join(moves))
    if pos.over:
        return None
    grid = tuple(tuple(col) for col in pos.grid)
    return min(grid, grid[::-1])


def run(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, check=True, text=True, **kw)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--azg", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=1200, help="positions to solve (before the filter)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=24, help="games per pair of agents per opening")
    ap.add_argument("--min-stones", type=int, default=8, help="the fewest stones of a position")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    commands = []

    with tempfile.TemporaryDirectory() as tmp:
        games = []
        for plies in OPENINGS:
            out = os.path.join(tmp, f"games-{plies}")
            cmd = [args.azg, "arena", "--game", "connect4", "--games", str(args.games),
                   "--opening-plies", str(plies), "--seed", str(args.seed + plies),
                   "--threads", "2", "--out", out]
            for a in AGENTS:
                cmd += ["--agent", a]
            run(cmd, stdout=subprocess.DEVNULL)
            commands.append(" ".join(cmd[1:]))
            with open(os.path.join(out, "games.jsonl")) as f:
                games += [json.loads(line)["actions"] for line in f if line.strip()]

        seen, by_phase = set(), {name: [] for name, _, _ in PHASES}
        for actions in games:
            for n in range(args.min_stones, len(actions)):
                key = canonical(actions[:n])
                if key is None or key in seen:
                    continue
                seen.add(key)
                by_phase[phase_of(n)].append(actions[:n])
        candidates = []
        for name, _, _ in PHASES:
            rng.shuffle(by_phase[name])
            candidates += by_phase[name][: args.count // len(PHASES)]

        batch = os.path.join(tmp, "candidates.txt")
        with open(batch, "w") as f:
            for moves in candidates:
                f.write("".join(moves) + "\n")
        solved = run([args.azg, "solve", "--game", "connect4", "--batch", batch],
                     stdout=subprocess.PIPE).stdout
        commands.append("solve --game connect4 --batch candidates.txt")

    positions = [json.loads(line) for line in solved.splitlines() if line.strip()]
    kept = [p for p in positions if len(p["keeping"]) < len(p["move_classes"])]
    kept.sort(key=lambda p: (p["stones"], "".join(p["moves"])))
    with open(os.path.join(args.out, "positions.jsonl"), "w") as f:
        for p in kept:
            f.write(json.dumps(p, separators=(",", ":")) + "\n")

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    counts = {name: sum(p["phase"] == name for p in kept) for name, _, _ in PHASES}
    values = {v: sum(p["value"] == v for p in kept) for v in ("win", "draw", "loss")}
    provenance = {
        "generated": datetime.date.today().isoformat(),
        "commit": commit,
        "script": "tools/connect4_positions.py " + " ".join(sys.argv[1:]),
        "azg_commands": commands,
        "games": len(games),
        "solved": len(positions),
        "left_out_every_move_keeps_the_value": len(positions) - len(kept),
        "positions": len(kept),
        "by_phase": counts,
        "by_value": values,
        "phases": {name: [max(lo, args.min_stones), hi] for name, lo, hi in PHASES},
    }
    with open(os.path.join(args.out, "provenance.json"), "w") as f:
        json.dump(provenance, f, indent=2)
        f.write("\n")
    print(json.dumps(provenance, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
