#!/usr/bin/env python3
"""A client of azg's engine protocol in plain Python (standard library only).

It starts `azg engine`, plays one game against it with random legal moves (the engine's
`legal` answer is the rulebook), and prints the moves and the result. Chance outcomes are
drawn here, from the probabilities `legal` gives, and told to the engine like any move.

  python3 tools/clients/ugi_client.py --azg build/bin/azg --game lignes --agent mcts:sims=100
"""
import argparse
import random
import subprocess
import sys


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        """Lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine ended while we waited for '%s'" % prefix)
            line = line.rstrip("\n")
            if line.startswith("info string error"):
                raise RuntimeError(line)
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ask(self, command, prefix):
        self.send(command)
        return self.read_until(prefix)[-1]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--azg", default="build/bin/azg", help="path to the azg binary")
    parser.add_argument("--game", default="lignes")
    parser.add_argument("--agent", default="mcts:sims=100", help="the engine's agent spec")
    parser.add_argument("--seed", type=int, default=1, help="seed of our random moves and chance draws")
    parser.add_argument("--engine-plays", choices=["p1", "p2"], default="p2", help="the engine's side")
    parser.add_argument("--max-moves", type=int, default=2000, help="give up after this many actions")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    engine = Engine([args.azg, "engine", "--game", args.game, "--agent", args.agent])
    engine.send("ugi")
    name = next(l for l in engine.read_until("ugiok") if l.startswith("id name "))[len("id name "):]
    print("engine:", name)
    engine.ask("isready", "readyok")
    engine.send("uginewgame")

    moves = []
    while len(moves) < args.max_moves:
        engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        if engine.ask("query gameover", "response") == "response true":
            break
        to_move = engine.ask("query tomove", "response").split()[1]
        if to_move == "chance":
            outcomes = [item.rsplit(":", 1) for item in engine.ask("legal", "legal").split()[1:]]
            move = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
            who = "chance"
        elif to_move == args.engine_plays:
            move = engine.ask("go", "bestmove").split()[1]
            who = "engine"
        else:
            move = rng.choice(engine.ask("legal", "legal").split()[1:])
            who = "client"
        moves.append(move)
        print("%4d %-6s %s" % (len(moves), who, move))
    result = engine.ask("query result", "response").split()[1]
    print("result:", result, "after", len(moves), "actions")
    engine.close()
    return 0 if result in ("p1win", "p2win", "draw") else 1


if __name__ == "__main__":
    sys.exit(main())
