#!/usr/bin/env python3
"""cshogi's side of the shogi benchmark (issue 6): read every KIF (or CSA) file of a
directory with cshogi's reader and write the SFEN after every ply, as notate does.

Usage: shogi_bench_cshogi.py DIR kif|csa [--check EXPECTED.sfen]
Prints the best of 3 wall-clock seconds; with --check, also compares every SFEN with
notate's (the games must read the same for the comparison to be fair).
"""
import os
import sys
import time

import cshogi
import cshogi.CSA
import cshogi.KIF


def read_all(directory, kind):
    files = sorted(os.listdir(directory))
    out = []
    for name in files:
        path = os.path.join(directory, name)
        if kind == "kif":
            parser = cshogi.KIF.Parser.parse_file(path)
        else:
            parser = cshogi.CSA.Parser.parse_file(path)[0]
        board = cshogi.Board(parser.sfen)
        sfens = [board.sfen()]
        for move in parser.moves:
            board.push(move)
            sfens.append(board.sfen())
        out.append(sfens)
    return out


def main():
    directory, kind = sys.argv[1], sys.argv[2]
    best = float("inf")
    games = None
    for _ in range(3):
        t0 = time.perf_counter()
        games = read_all(directory, kind)
        best = min(best, time.perf_counter() - t0)
    if "--check" in sys.argv:
        expected = open(sys.argv[sys.argv.index("--check") + 1], encoding="utf-8").read()
        want = [g.split("\n") for g in expected.strip("\n").split("\n\n")]
        got = games
        if len(want) != len(got):
            sys.exit(f"cshogi read {len(got)} games, notate wrote {len(want)}")
        for i, (w, g) in enumerate(zip(want, got)):
            if w != g:
                bad = next(j for j, (a, b) in enumerate(zip(w, g)) if a != b) if len(w) == len(g) else min(len(w), len(g))
                sys.exit(f"game {i + 1}: cshogi and notate differ at ply {bad}: {g[bad] if bad < len(g) else 'end'} vs {w[bad] if bad < len(w) else 'end'}")
    print(f"{best:.3f}")


if __name__ == "__main__":
    main()
