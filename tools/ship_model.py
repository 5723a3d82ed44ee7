#!/usr/bin/env python3
"""Ship a trained run's final model: copy RUN_DIR/models/final.pt to models/GAME.pt and
write its card, models/GAME.json, with the provenance models/README.md asks for (recipe,
seed, commit, date, machine, minutes, self-play games, learner steps). The rating is given
as measured (--rating, --elo, --elo-interval, --goal); `azg models` prints the card.

  python3 tools/ship_model.py RUN_DIR --recipe configs/lignes.yaml \
      --rating "+778 ±148 on the lignes ladder (40 paired games a pairing)"
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys


def fail(message):
    print(f"ship_model: {message}", file=sys.stderr)
    sys.exit(2)


def run_facts(run_dir):
    """The game, seed, minutes, games and steps of a finished run."""
    config = os.path.join(run_dir, "config.yaml")
    metrics = os.path.join(run_dir, "metrics.jsonl")
    model = os.path.join(run_dir, "models", "final.pt")
    for path in (config, metrics, model):
        if not os.path.isfile(path):
            fail(f"{path} is missing: is {run_dir} a finished training run?")
    facts = {}
    with open(config) as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("game", "seed") and value.strip():
                facts[key] = value.strip().strip('"')
    if "game" not in facts:
        fail(f"{config} names no game")
    last_train, final = None, None
    with open(metrics) as f:
        for number, line in enumerate(f, 1):
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                fail(f"{metrics}:{number} is not JSON")
            if entry.get("type") == "train":
                last_train = entry
            elif entry.get("type") == "final":
                final = entry
    if last_train is None or final is None:
        fail(f"{metrics} has no train or final entry: the run did not finish")
    facts["minutes"] = round(last_train["elapsed_s"] / 60, 1)
    facts["games"] = last_train["games"]
    facts["steps"] = final["step"]
    return facts, model


def machine():
    """Cores, CPU model and its widest vector unit: what decides self-play speed."""
    cores = os.cpu_count()
    name, flags = platform.processor() or "CPU", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                elif line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                if name != "CPU" and flags:
                    break
    except OSError:
        pass
    vector = next((v.upper() for v in ("avx512_bf16", "avx512f", "avx2") if v in flags), "")
    return f"{cores}-core {name}" + (f" ({vector})" if vector else "") + ", no GPU"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir")
    parser.add_argument("--recipe", required=True, help="the config the run trained with")
    parser.add_argument("--tier", default="", help="say '12-minute default' or 'two-hour'")
    parser.add_argument("--commit", default="", help="the commit azg was built from (default: HEAD)")
    parser.add_argument("--rating", default="", help="one line: Elo, interval, ladder, games")
    parser.add_argument("--elo", type=float, help="ladder Elo (UCT-400 is 0)")
    parser.add_argument("--elo-interval", type=float, help="its 95%% interval, ±")
    parser.add_argument("--goal", default="", help="the issue's goal and whether it is met")
    parser.add_argument("--out", default="models", help="the shipped models' folder")
    args = parser.parse_args()

    facts, model = run_facts(args.run_dir)
    game = facts["game"]
    size = os.path.getsize(model)
    if size > 2 << 20:
        fail(f"{model} is {size} bytes: a shipped model is at most 2 MB")
    commit = args.commit or subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True,
                                           text=True, check=True).stdout.strip()
    card = {
        "game": game,
        "file": f"{game}.pt",
        "recipe": args.recipe,
        "tier": args.tier,
        "seed": int(facts.get("seed", 1)),
        "commit": commit,
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "minutes": facts["minutes"],
        "games": facts["games"],
        "steps": facts["steps"],
        "rating": args.rating,
    }
    if args.elo is not None:
        card["elo"] = args.elo
    if args.elo_interval is not None:
        card["elo_interval"] = args.elo_interval
    if args.goal:
        card["goal"] = args.goal
    os.makedirs(args.out, exist_ok=True)
    shutil.copyfile(model, os.path.join(args.out, f"{game}.pt"))
    with open(os.path.join(args.out, f"{game}.json"), "w") as f:
        json.dump(card, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"shipped {game}: {args.out}/{game}.pt ({size // 1024} KB), {facts['minutes']} minutes, "
          f"{facts['games']} games, {facts['steps']} steps")


if __name__ == "__main__":
    main()
