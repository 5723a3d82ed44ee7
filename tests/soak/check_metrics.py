#!/usr/bin/env python3
"""Checks that a run's metrics.jsonl never goes back (tests/soak/, tests/crash_resume_test.sh).

usage: check_metrics.py METRICS_JSONL

- every complete line is a JSON object (a kill may leave a torn last line, without its
  newline, until the run resumes);
- train lines hold each step at most once, in increasing order, and their games,
  positions and elapsed_s never decrease;
- the step of any line never decreases, nor its wall-clock time;
- at most one final line, and it is the last line.
Prints one line of figures; exits 1 with the first broken rule.
"""
import json
import sys


def check_metrics(path):
    """None when the log keeps its rules, else the first broken one, as a sentence."""
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")[:-1]  # the last piece is "" or a torn line
    last = {"step": -1, "time": -1}
    last_train = {"step": -1, "games": -1, "positions": -1, "elapsed_s": -1.0}
    finals = 0
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except ValueError:
            return f"line {number} is not JSON"
        if not isinstance(record, dict):
            return f"line {number} is not a JSON object"
        if finals:
            return f"line {number} comes after the final line"
        for key in ("step", "time"):
            if key in record:
                if record[key] < last[key]:
                    return f"line {number}: {key} went back from {last[key]} to {record[key]}"
                last[key] = record[key]
        kind = record.get("type")
        if kind == "final":
            finals += 1
        if kind != "train":
            continue
        if record["step"] <= last_train["step"]:
            return f"line {number}: train step {record['step']} again (after {last_train['step']})"
        for key in ("games", "positions", "elapsed_s"):
            if key in record:
                if record[key] < last_train[key]:
                    return f"line {number}: {key} went back from {last_train[key]} to {record[key]}"
                last_train[key] = record[key]
        last_train["step"] = record["step"]
    return None


def summary(path):
    steps = [json.loads(l).get("step", -1) for l in open(path, encoding="utf-8")
             if l.endswith("\n") and '"train"' in l]
    return f"{len(steps)} train lines up to step {max(steps, default=0)}"


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip())
        return 2
    why = check_metrics(sys.argv[1])
    if why:
        print(f"FAIL: {sys.argv[1]}: {why}")
        return 1
    print(f"ok: metrics.jsonl never went back ({summary(sys.argv[1])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
