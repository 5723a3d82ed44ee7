#!/usr/bin/env python3
"""Scores the runs of tools/anchor_openspiel.sh on azg's solved Connect Four positions and
prints the side by side: for each run, evaluations/s, games, learner steps, the accuracy
(the share of positions where the move keeps the solved value) of its raw policy at each
minute mark and at 100 simulations at 5, 15 and 30 minutes, and the first mark at which
each run reaches a given accuracy (by default the best OpenSpiel run's at 15 minutes).

  python3 tools/anchor_openspiel/report.py WORK MINUTES [--target ACC]

WORK holds openspiel-* runs (alpha_zero_torch_example --path, checkpoint every step) and
an azg run (azg train --run-dir); BUILD = WORK/build holds score_openspiel. A checkpoint at
minute M is the last one saved at or before M minutes of training (the untrained network
when none was). Writes WORK/report.json beside the printed table.
"""
import argparse
import datetime
import glob
import json
import os
import re
import subprocess
import sys

MARKS = [1, 2, 3, 4, 5, 7.5, 10, 15, 20, 25, 30, 45, 60]
SEARCH_MARKS = [5, 15, 30]
SIMS = 100


def fail(message):
    print(f"report.py: {message}", file=sys.stderr)
    sys.exit(2)


def json_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def checkpoint_at(saved, minute):
    """The last checkpoint of `saved` (step -> seconds into training) saved by `minute`."""
    return max(s for s, t in saved.items() if t <= minute * 60)


def openspiel_run(run, build, positions, minutes):
    """Checkpoints by minute, speed and totals of an alpha_zero_torch run."""
    learner = os.path.join(run, "learner.jsonl")
    records = json_lines(learner) if os.path.isfile(learner) else []
    saved = {r["step"]: r["time_rel"] for r in records
             if os.path.isfile(os.path.join(run, f"checkpoint-{r['step']}.pt"))}
    saved.setdefault(0, 0.0)  # the untrained network, saved before the first step

    at = lambda minute: checkpoint_at(saved, minute)

    def score(step, sims):
        out = subprocess.run([os.path.join(build, "score_openspiel"), run, str(step), positions,
                              str(sims)], capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"score_openspiel {run} {step}: {out.stderr.strip()}")
        return json.loads(out.stdout)["keeping"]

    if records:
        # The network's evaluations: the inference cache's misses, self-play and any
        # evaluator threads together.
        last = records[-1]
        misses = sum(r.get("cache", {}).get("misses", 0) for r in records)
        facts = {"evals_per_s": misses / last["time_rel"], "games": last["total_trajectories"],
                 "steps": last["step"], "minutes": round(last["time_rel"] / 60, 1)}
    else:
        facts = played_without_learning(run)
    return facts, at, score


def played_without_learning(run):
    """A run that never finished a learner step logs no speed: read its actors' game lines
    instead. Evaluations/s is then an upper estimate, positions x simulations a second
    (the cache's hits not taken off), over the time its finished games took."""
    stamp = re.compile(r"^\[([\d-]+ [\d:.]+)\] (.*)$")
    to_s = lambda t: datetime.datetime.strptime(t, "%Y-%m-%d %H:%M:%S.%f").timestamp()
    start = end = None
    with open(os.path.join(run, "log-learner.txt")) as f:
        m = stamp.match(f.readline())
        start = to_s(m.group(1)) if m else None
    games = positions = 0
    for path in glob.glob(os.path.join(run, "log-actor-*.txt")):
        with open(path) as f:
            for line in f:
                m = stamp.match(line)
                if m and " Actions: " in m.group(2) and m.group(2).startswith("Game "):
                    games += 1
                    positions += len(m.group(2).split(" Actions: ")[1].split())
                    end = max(end or 0, to_s(m.group(1)))
    with open(os.path.join(run, "config.json")) as f:
        sims = json.load(f)["max_simulations"]
    seconds = (end - start) if start and end else 0
    return {"evals_per_s": positions * sims / seconds if seconds else 0.0, "games": games,
            "steps": 0, "minutes": round(seconds / 60, 1), "estimated": True}


def azg_run(run, azg, positions, minutes):
    """Checkpoints by minute, speed and totals of an azg training run."""
    train = [m for m in json_lines(os.path.join(run, "metrics.jsonl")) if m.get("type") == "train"]
    elapsed = {m["step"]: m["elapsed_s"] for m in train}
    saved = {0: 0.0}
    for path in glob.glob(os.path.join(run, "models", "step-*.pt")):
        step = int(re.search(r"step-(\d+)\.pt$", path).group(1))
        logged = [s for s in elapsed if s <= step]
        if logged:
            saved[step] = elapsed[max(logged)]

    at = lambda minute: checkpoint_at(saved, minute)

    def score(step, sims):
        if step == 0:
            return None  # azg keeps no untrained network; no mark falls before its first save
        model = os.path.join(run, "models", f"step-{step:08d}.pt")
        agent = f"az:model={model},raw=1" if sims == 0 else f"az:model={model},sims={sims}"
        out = subprocess.run([azg, "accuracy", "--game", "connect4", "--agent", agent,
                              "--positions", positions], capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"azg accuracy {model}: {out.stderr.strip()}")
        line = next(l for l in out.stdout.splitlines() if l.startswith("all "))
        return float(line.split()[2].rstrip("%")) / 100

    last = train[-1]
    facts = {"evals_per_s": sum(m["evals_per_s"] for m in train) / len(train),
             "games": last["games"], "steps": last["step"],
             "minutes": round(last["elapsed_s"] / 60, 1)}
    return facts, at, score


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("work")
    parser.add_argument("minutes", type=float)
    parser.add_argument("--target", type=float, help="accuracy to reach (default: the best "
                        "OpenSpiel run's raw policy at 15 minutes)")
    parser.add_argument("--positions", default="data/connect4/positions.jsonl")
    parser.add_argument("--azg", default="build/bin/azg")
    args = parser.parse_args()
    build = os.path.join(args.work, "build")
    runs = sorted(d for d in glob.glob(os.path.join(args.work, "openspiel-*"))
                  if os.path.isfile(os.path.join(d, "config.json")))  # not openspiel-src
    runs.append(os.path.join(args.work, "azg"))
    # Scores already measured (a checkpoint's accuracy does not change): a rerun of the
    # report scores only what is new.
    saved_path = os.path.join(args.work, "scores.json")
    saved = json.load(open(saved_path)) if os.path.isfile(saved_path) else {}
    marks = [m for m in MARKS if m <= args.minutes]
    report = {}
    for run in runs:
        if not os.path.isdir(run):
            fail(f"{run} is missing: did its training run?")
        name = os.path.basename(run)
        kind = openspiel_run if name.startswith("openspiel-") else azg_run
        facts, at, score = kind(run, build if kind is openspiel_run else args.azg,
                                args.positions, args.minutes)
        def scored(step, sims):
            key = f"{name} {step} {sims}"
            if key not in saved:
                saved[key] = score(step, sims)
                with open(saved_path, "w") as f:
                    json.dump(saved, f, indent=1)
            return saved[key]

        facts["raw"] = {str(m): scored(at(m), 0) for m in marks}
        facts["search"] = {str(m): scored(at(m), SIMS) for m in SEARCH_MARKS if m <= args.minutes}
        report[name] = facts
        print(f"scored {name}", file=sys.stderr)

    openspiel = [r for n, r in report.items() if n.startswith("openspiel-")]
    target = args.target
    if target is None and 15 in marks:
        target = max((r["raw"]["15"] or 0) for r in openspiel) if openspiel else None
    print_table(report, marks, target)
    report["target"] = target
    with open(os.path.join(args.work, "report.json"), "w") as f:
        json.dump(report, f, indent=2)


def percent(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def print_table(report, marks, target):
    names = list(report)
    width = max(len(n) for n in names) + 2
    print(f"{'':{width}}" + "".join(f"{n:>16}" for n in ["evals/s", "games", "steps", "minutes"]))
    for n in names:
        r = report[n]
        evals = f"{'<= ' if r.get('estimated') else ''}{r['evals_per_s']:,.0f}"
        print(f"{n:{width}}{evals:>16}{r['games']:>16}{r['steps']:>16}{r['minutes']:>16}")
    print(f"\nraw policy: accuracy (keeps the solved value) at minute")
    print(f"{'':{width}}" + "".join(f"{m:>8}" for m in marks))
    for n in names:
        print(f"{n:{width}}" + "".join(f"{percent(report[n]['raw'][str(m)]):>8}" for m in marks))
    print(f"\n{SIMS} simulations: accuracy at minute")
    search_marks = [m for m in SEARCH_MARKS if str(m) in report[names[0]]["search"]]
    print(f"{'':{width}}" + "".join(f"{m:>8}" for m in search_marks))
    for n in names:
        print(f"{n:{width}}" + "".join(f"{percent(report[n]['search'][str(m)]):>8}"
                                       for m in search_marks))
    if target is not None:
        print(f"\nfirst minute mark where the raw policy reaches {percent(target)}:")
        for n in names:
            reached = [m for m in marks if (report[n]["raw"][str(m)] or 0) >= target]
            print(f"  {n:{width}}{reached[0] if reached else 'not within the run'}")


if __name__ == "__main__":
    main()
