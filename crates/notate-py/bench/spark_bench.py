#!/usr/bin/env python3
"""Benchmark of `notate.spark.convert` in Spark's local mode, with 1 and 2 executor cores, on
the same input in one run.

    python crates/notate-py/bench/spark_bench.py [--copies N] [--split-mb M] [--rounds R] [FILE]

The input is FILE, or lichess_db_1000k.pgn (of /work/shared/corpus/pgn-reader-benches, or
NOTATE_BENCH_CORPUS) repeated `--copies` times (default 100: 100 MB, 43,800 games) with a
`[Copy "N"]` tag per copy, so every game is new (as scripts/bench-load's *unique* input). It is
a plain PGN, cut into ranges of `--split-mb` MiB (default 8: about a dozen tasks).

For `local[1]` and `local[2]`, a Spark session is started, warmed with one small run, then
`convert` runs `--rounds` times (default 3) into a new output directory each time; the
fastest is reported. Beside it, `notate.load` of the same file into Parquet on one thread and
on two, in this process, with no Spark: what the tasks' own work costs.

Output: a markdown table on stdout (games/s, moves/s, the speed-up of the second core, the
cost per million games in core-seconds), and the time the lichess database (7 billion games)
would take at the measured rate per core.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import notate
from notate import spark as notate_spark

LICHESS_GAMES = 7_000_000_000


def make_input(source: Path, copies: int, directory: Path) -> Path:
    text = source.read_text(encoding="utf-8")
    path = directory / f"unique{copies}.pgn"
    with open(path, "w", encoding="utf-8") as out:
        for copy in range(1, copies + 1):
            out.write(re.sub(r"^\[Event ", f'[Copy "{copy}"]\n[Event ', text, flags=re.M))
    return path


def session(cores: int):
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(f"notate-bench-{cores}")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", help="a plain PGN file (default: lichess x --copies)")
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--split-mb", type=float, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="notate-spark-bench-"))
    try:
        if args.file:
            path = Path(args.file)
        else:
            corpus = Path(os.environ.get("NOTATE_BENCH_CORPUS", "/work/shared/corpus/pgn-reader-benches"))
            path = make_input(corpus / "lichess_db_1000k.pgn", args.copies, scratch)
        split = max(int(args.split_mb * (1 << 20)), 1)
        tasks = len(notate_spark.split_ranges([str(path)], split))
        size = path.stat().st_size
        small = scratch / "warm.pgn"
        small.write_bytes(path.read_bytes()[: 1 << 20])

        rows = []
        # The tasks' own work, without Spark.
        for threads in (1, 2):
            best = None
            for _ in range(args.rounds):
                out = scratch / "load"
                shutil.rmtree(out, ignore_errors=True)
                started = time.perf_counter()
                result = notate.load(str(path), f"parquet:{out}", errors="collect", threads=threads)
                seconds = time.perf_counter() - started
                best = seconds if best is None else min(best, seconds)
            rows.append((f"notate.load into Parquet, {threads} thread{'s' * (threads > 1)}, no Spark", threads, result["games"], result["moves"], best))
        for cores in (1, 2):
            spark = session(cores)
            try:
                notate_spark.convert(spark, [str(small)], str(scratch / "warm"), split_bytes=1 << 18)
                best = None
                for _ in range(args.rounds):
                    out = scratch / "spark"
                    shutil.rmtree(out, ignore_errors=True)
                    report = notate_spark.convert(spark, [str(path)], str(out), split_bytes=split)
                    assert not report["failed"], report["failed"]
                    best = report["seconds"] if best is None else min(best, report["seconds"])
                rows.append((f"notate.spark.convert, local[{cores}]", cores, report["games"], report["moves"], best))
            finally:
                spark.stop()

        print(f"Input: {path.name}, {size / 1e6:.1f} MB, cut into {tasks} ranges of {args.split_mb:g} MiB; best of {args.rounds} runs.")
        print()
        print("| run | cores | games | seconds | games/s | moves/s | core-seconds per million games |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, cores, games, moves, seconds in rows:
            print(
                f"| {name} | {cores} | {games:,} | {seconds:.2f} | {games / seconds:,.0f} | "
                f"{moves / seconds:,.0f} | {cores * seconds / games * 1e6:,.0f} |"
            )
        one, two = rows[2][4], rows[3][4]
        print()
        print(f"Speed-up of the second executor core: {one / two:.2f}x (goal: at least 1.7x).")
        per_core = rows[3][2] / rows[3][4] / 2
        print()
        print(f"At {per_core:,.0f} games/s per core (local[2]), the lichess database ({LICHESS_GAMES / 1e9:.0f} billion games) takes:")
        print()
        print("| cores | hours |")
        print("|---:|---:|")
        for cores in (2, 64, 256, 1024):
            print(f"| {cores} | {LICHESS_GAMES / (per_core * cores) / 3600:,.1f} |")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
