#!/usr/bin/env python3
"""Benchmark of the Python wheel against python-chess and rust_pgn_reader_python_binding, side
by side in one process on the same files.

    python crates/notate-py/bench/bench.py [--rounds N] [--corpus DIR] [--memory] [FILE ...]

The work, for every game of each file: read it, replay it, and take the UCI of every move of
the main line (and, for the "+ SAN and FEN" rows, also each move's SAN and the FEN after it).

- python-chess: `chess.pgn.read_game` over the open file, then `move.uci()` per mainline move
  (`board.san(move)`, `board.push(move)`, `board.fen()` for the second work).
- rust_pgn_reader_python_binding: the text split into game strings at `\\n\\n[Event ` (timed),
  `parse_games_from_strings` (its parallel parser), then `moves_uci()` per game. It has no SAN
  or FEN strings: it is timed on the first work only.
- notate: `notate.read_pgn(path)` on every core, then `game.uci_moves` (and `game.san_moves`,
  `game.fens`) per game; and the same through `game.moves`, a `Move` object per move
  (`m.uci`, `m.san`, `m.fen`).

Peers are not dependencies of the wheel: `pip install chess rust_pgn_reader_python_binding`.
Files default to lichess_db_1000k.pgn and twic1599_1000k.pgn of
/work/shared/corpus/pgn-reader-benches (`--corpus` or NOTATE_BENCH_CORPUS to change it).
Output: markdown tables on stdout (the median of the rounds, which run interleaved). A round
runs a library's work over a file as many times as take a quarter of a second (one pass of
notate takes a few milliseconds, less than the kernel's time slice) and counts the time per
pass.

`--tables` instead times `notate.to_arrow` (every batch of the moves table taken, all columns
and four of them; the games table) and `notate.load` into Parquet and SQLite, on the first
file repeated 20 times with a `[Copy "N"]` tag per copy (every game new, as
scripts/bench-load's *unique* input), with 1 and 2 threads: rows/s.

`--memory` instead reads a 10 MB and a 100 MB PGN (the first file repeated, written to a
temporary folder) with `read_pgn(path)`, each in a fresh Python process, and reports the
peak resident memory of each: flat means the same for both.
"""

import argparse
import gc
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess
import chess.pgn
import rust_pgn_reader_python_binding as rust_binding

import notate

# The least time a library's passes over a file take in one round (see main()).
PASS_SECONDS = 0.25


def python_chess(path: Path, full: bool):
    games = plies = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            board = game.board()
            for move in game.mainline_moves():
                move.uci()
                if full:
                    board.san(move)
                    board.push(move)
                    board.fen()
                plies += 1
    return games, plies


def rust_pgn_reader(path: Path, full: bool):
    text = path.read_text(encoding="utf-8", errors="replace")
    parts = text.split("\n\n[Event ")
    strings = [parts[0]] + ["[Event " + p for p in parts[1:]]
    parsed = rust_binding.parse_games_from_strings(strings)
    games = plies = 0
    for game in parsed:
        games += 1
        plies += len(game.moves_uci())
    return games, plies


def notate_wheel(path: Path, full: bool):
    games = plies = 0
    for game in notate.read_pgn(path, errors="collect"):
        games += 1
        if isinstance(game, notate.GameError):
            continue
        plies += len(game.uci_moves)
        if full:
            game.san_moves
            game.fens
    return games, plies


def notate_move_objects(path: Path, full: bool):
    games = plies = 0
    for game in notate.read_pgn(path, errors="collect"):
        games += 1
        if isinstance(game, notate.GameError):
            continue
        for move in game.moves:
            move.uci
            if full:
                move.san
                move.fen
            plies += 1
    return games, plies


MEMORY_CHILD = """
import resource, sys, notate
plies = sum(len(g.uci_moves) for g in notate.read_pgn(sys.argv[1], errors="collect")
            if isinstance(g, notate.Game))
print(plies, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def memory(first: Path):
    """Peak RSS of a fresh process reading 10 MB and 100 MB of PGN through read_pgn(path)."""
    text = first.read_bytes()
    print("| input | plies | peak RSS of the reading process |")
    print("|---|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for megabytes in (10, 100):
            path = Path(folder) / f"{megabytes}mb.pgn"
            with open(path, "wb") as out:
                while out.tell() < megabytes << 20:
                    out.write(text)
                    out.write(b"\n\n")
            child = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(path)],
                                   check=True, capture_output=True, text=True)
            plies, peak_kib = child.stdout.split()
            size = path.stat().st_size
            print(f"| {first.name} repeated: {size / (1 << 20):,.0f} MiB | {int(plies):,} | "
                  f"{int(peak_kib) / 1024:,.0f} MiB |")


def tables(first: Path, rounds: int):
    """Rows per second of to_arrow and load on the first file ×20, every game made new."""
    text = first.read_text(encoding="utf-8", errors="replace")
    copies = "".join(text.replace("[Event ", f'[Copy "{i}"]\n[Event ') + "\n\n"
                     for i in range(20))
    print(f"| work ({first.name} ×20, every game new) | threads | rows | median s | rows/s |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "unique.pgn"
        path.write_text(copies, encoding="utf-8")

        def arrow(table, columns, threads):
            rows = 0
            for batch in notate.to_arrow(path, table=table, columns=columns, threads=threads):
                rows += batch.num_rows
            return rows

        def load(db, threads):
            for leftover in Path(folder).glob("db*"):
                subprocess.run(["rm", "-rf", str(leftover)], check=True)
            added = notate.load(path, db, threads=threads)
            return added["games"] + added["moves"]

        works = [
            ("to_arrow moves, all 23 columns", lambda t: arrow("moves", None, t)),
            ("to_arrow moves: game_id, ply, san, clock",
             lambda t: arrow("moves", ["game_id", "ply", "san", "clock"], t)),
            ("to_arrow games", lambda t: arrow("games", None, t)),
            ("load into Parquet (games + moves rows)",
             lambda t: load(f"parquet:{folder}/db-parquet", t)),
            ("load into SQLite (games + moves rows)", lambda t: load(f"{folder}/db.sqlite", t)),
        ]
        for name, run in works:
            for threads in (1, 2):
                times = []
                for _ in range(rounds):
                    start = time.perf_counter()
                    rows = run(threads)
                    times.append(time.perf_counter() - start)
                median = statistics.median(times)
                print(f"| {name} | {threads} | {rows:,} | {median:.3f} | {rows / median:,.0f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory", action="store_true", help="the memory test instead")
    parser.add_argument("--tables", action="store_true", help="to_arrow and load instead")
    parser.add_argument(
        "--corpus",
        default=os.environ.get("NOTATE_BENCH_CORPUS", "/work/shared/corpus/pgn-reader-benches"),
    )
    args = parser.parse_args()
    files = [Path(f) for f in args.files] or [
        Path(args.corpus) / name for name in ("lichess_db_1000k.pgn", "twic1599_1000k.pgn")
    ]
    libraries = [
        ("python-chess " + chess.__version__, python_chess, True),
        ("rust_pgn_reader_python_binding", rust_pgn_reader, False),
        ("notate, Move objects", notate_move_objects, True),
        ("notate " + notate.__version__, notate_wheel, True),
    ]
    if args.memory:
        memory(files[0])
        return
    if args.tables:
        tables(files[0], args.rounds)
        return
    print("# notate Python wheel benchmark\n")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.rounds} rounds, "
          f"interleaved, median reported; a round runs a library's work over a file as many "
          f"times as take {PASS_SECONDS} s, and the time is per pass.\n")
    print("| file | work | library | games | plies | median s | plies/s | notate speed-up |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for path in files:
        for full in (False, True):
            work = "read + replay + UCI" + (" + SAN + FEN" if full else "")
            entries = [(name, run) for name, run, both in libraries if both or not full]
            times = {name: [] for name, _ in entries}
            counts = {}
            # A pass of a fast library takes a few milliseconds, less than the kernel's time
            # slice: one pass a round measured the machine's other load as much as the
            # library. A library runs as many passes a round as make PASS_SECONDS, and its time
            # is the time per pass. The passes are counted from warm passes (after one that
            # starts threads and fills caches, as many as take a twentieth of a second): a
            # cold first pass of notate takes several times a warm one, and counting from it
            # made rounds of a fraction of PASS_SECONDS, where the first, cold pass after
            # another library's round weighed the most.
            passes = {}
            for name, run in entries:
                gc.collect()
                run(path, full)
                count, start = 0, time.perf_counter()
                while (elapsed := time.perf_counter() - start) < PASS_SECONDS / 5 or count == 0:
                    run(path, full)
                    count += 1
                passes[name] = max(1, math.ceil(PASS_SECONDS / (elapsed / count)))
            for round_ in range(args.rounds):
                order = entries[round_ % len(entries):] + entries[:round_ % len(entries)]
                for name, run in order:
                    print(f"{path.name} {work}: {name} x{passes[name]}", file=sys.stderr)
                    # The garbage of the library before (python-chess's game trees are cycles)
                    # is collected now, not in the next library's time.
                    gc.collect()
                    start = time.perf_counter()
                    for _ in range(passes[name]):
                        counts[name] = run(path, full)
                    times[name].append((time.perf_counter() - start) / passes[name])
            ours = statistics.median(times[entries[-1][0]])
            for name, _ in entries:
                median = statistics.median(times[name])
                games, plies = counts[name]
                ratio = "-" if name.startswith("notate") else f"{median / ours:.1f}×"
                print(f"| {path.name} | {work} | {name} | {games:,} | {plies:,} | "
                      f"{median:.3f} | {plies / median:,.0f} | {ratio} |")


if __name__ == "__main__":
    main()
