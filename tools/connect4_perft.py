#!/usr/bin/env python3
"""An independent Connect Four perft, for checking azg's bitboard engine outside CI.

A plain 7 x 6 grid and a four-in-a-row scan from the last stone, written apart from
env/connect4 (no shared code, no bitboards): the leaf counts at each depth from a
position must equal `azg perft --game connect4`'s. A finished game is a leaf that is not
counted past its end, as azg's perft does.

Usage: connect4_perft.py DEPTH [MOVES]       prints "depth N: COUNT" for 1..DEPTH
       connect4_perft.py --check AZG DEPTH   compares with `AZG perft` from the start
                                             and from two mid-game positions
"""
import subprocess
import sys

COLS, ROWS = 7, 6


def wins(grid, col, row):
    me = grid[col][row]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < COLS and 0 <= r < ROWS and grid[c][r] == me:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


class Position:
    def __init__(self, moves=""):
        self.grid = [[0] * ROWS for _ in range(COLS)]
        self.heights = [0] * COLS
        self.player = 1
        self.over = False
        for ch in moves:
            col = int(ch) - 1
            if self.over or not 0 <= col < COLS or self.heights[col] == ROWS:
                raise SystemExit(f"bad move {ch!r} in {moves!r}")
            self.play(col)

    def play(self, col):
        row = self.heights[col]
        self.grid[col][row] = self.player
        self.heights[col] += 1
        won = wins(self.grid, col, row)
        self.player = 3 - self.player
        self.over = won or sum(self.heights) == COLS * ROWS
        return row, won

    def undo(self, col, was_over):
        self.heights[col] -= 1
        self.grid[col][self.heights[col]] = 0
        self.player = 3 - self.player
        self.over = was_over


def perft(pos, depth):
    if depth == 0:
        return 1
    if pos.over:
        return 0
    total = 0
    for col in range(COLS):
        if pos.heights[col] < ROWS:
            was_over = pos.over
            pos.play(col)
            total += perft(pos, depth - 1)
            pos.undo(col, was_over)
    return total


def azg_perft(azg, depth, moves):
    args = [azg, "perft", "--game", "connect4", "--depth", str(depth)]
    if moves:
        args += ["--moves", " ".join(moves)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return int(out.split()[-1].replace(",", ""))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--check":
        azg, depth = sys.argv[2], int(sys.argv[3])
        ok = True
        for moves in ("", "4453", "4334445563211"):
            for d in range(1, depth + 1):
                ours, theirs = perft(Position(moves), d), azg_perft(azg, d, moves)
                same = "ok" if ours == theirs else "DIFFERENT"
                ok &= ours == theirs
                print(f"{moves or 'start'} depth {d}: python {ours}, azg {theirs} {same}")
        return 0 if ok else 1
    depth = int(sys.argv[1])
    moves = sys.argv[2] if len(sys.argv) > 2 else ""
    for d in range(1, depth + 1):
        print(f"depth {d}: {perft(Position(moves), d)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
