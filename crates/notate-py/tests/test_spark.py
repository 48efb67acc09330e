"""notate.spark in Spark's local mode (pip `pyspark`, the machine's Java 17): the byte ranges
a file is cut into, `convert` into notate's Parquet files (again: replaced, not added), the
example queries on Spark SQL against SQLite's answers, a corrupt and a missing input, a bad
game's place, and `frame`.

The games are the Rust store tests' generated games (`notate-testdata 21 300 22 300`: 600
games with clocks, openings, every result, and the player the example queries ask about),
made by the crate's small command, built here with cargo.
"""

import decimal
import gzip
import json
import os
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import notate
from notate import spark as notate_spark

from conftest import REPO, generated_pgn

pytestmark = pytest.mark.filterwarnings("ignore::notate.GameWarning", "ignore::FutureWarning")

SPLIT = 64 << 10  # 1.1 MB of games in 17 ranges


# Local mode binds to the host's name by default, which a fresh machine may not resolve to an
# address of its own; the command line's run below inherits this too.
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")


@pytest.fixture(scope="module")
def games_pgn(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("games") / "games.pgn"
    path.write_bytes(generated_pgn(21, 300, 22, 300))
    return path


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # The executors run this Python, where notate is installed (PySpark's default is the
    # `python3` on PATH).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("notate-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def parquet_games(out: Path) -> dict:
    """Per partition directory: the sorted game ids, and the number of move rows."""
    result = {}
    for table in ("games", "moves"):
        for file in sorted((out / table).rglob("*.parquet")):
            partition = file.parent.relative_to(out / table).as_posix()
            entry = result.setdefault(partition, {"ids": [], "moves": 0})
            if table == "games":
                entry["ids"] += pq.read_table(file, columns=["id"]).column("id").to_pylist()
            else:
                entry["moves"] += pq.read_metadata(file).num_rows
    for entry in result.values():
        entry["ids"].sort()
    return result


@pytest.mark.parametrize("newline", [b"\n", b"\r\n"], ids=["LF", "CRLF"])
def test_ranges_hold_every_byte_once(games_pgn, newline):
    data = games_pgn.read_bytes()[:60_000].replace(b"\n", newline)
    small = games_pgn.with_name("small.pgn")
    small.write_bytes(data)
    for split in (3, 50, 1000, 4096, 65536):
        ranges = notate_spark.split_ranges([str(small)], split)
        pieces = []
        for path, start, end in ranges:
            source = notate_spark.Range(path, start, end)
            piece = source.read()
            source.close()
            # A range holds whole games: it starts where a game starts.
            assert piece == b"" or source.offset == 0 or data[source.offset - 2 : source.offset + 1] in (b"\n\n[", b"\r\n[")
            pieces.append(piece)
        assert b"".join(pieces) == data, split
    assert notate_spark.split_ranges(["x.pgn.zst"], 3, sizes={"x.pgn.zst": 10}) == [("x.pgn.zst", 0, -1)]
    # gzip named .pgn is read whole (its byte ranges would be no text), all of its games.
    misnamed = games_pgn.with_name("misnamed.pgn")
    misnamed.write_bytes(gzip.compress(data))
    assert notate_spark.split_ranges([str(misnamed)], 50) == [(str(misnamed), 0, -1)]
    whole = [repr(g) for g in notate.read_pgn(str(misnamed), errors="collect")]
    assert whole == [repr(g) for g in notate.read_pgn(data, errors="collect")] and len(whole) > 40


def test_convert_writes_what_notate_load_writes_and_spark_sql_answers_as_sqlite(spark, games_pgn, tmp_path):
    out = tmp_path / "spark"
    report = notate_spark.convert(spark, [str(games_pgn)], str(out), split_bytes=SPLIT)
    assert report["failed"] == [] and report["inputs"] == 1
    loaded = notate.load(str(games_pgn), f"parquet:{tmp_path / 'load'}", errors="collect")
    assert (report["games"], report["moves"]) == (loaded["games"], loaded["moves"])
    assert report["games"] == 590 and len(report["errors"]) == 10  # ten games with a null move
    assert all(e["message"].startswith("a null move") and e["input"] == str(games_pgn) for e in report["errors"])
    # The same games and moves in the same partitions as notate load's files.
    assert parquet_games(out) == parquet_games(tmp_path / "load")
    schema = pq.read_schema(next((out / "moves").rglob("*.parquet")))
    assert schema == pq.read_schema(next((tmp_path / "load" / "moves").rglob("*.parquet")))

    # Again: the input's files are replaced, not added to.
    before = parquet_games(out)
    again = notate_spark.convert(spark, [str(games_pgn)], str(out), split_bytes=SPLIT * 3)
    assert again["games"] == report["games"]
    assert parquet_games(out) == before
    (manifest,) = (out / notate_spark.MANIFESTS).iterdir()
    record = json.loads(manifest.read_text())
    assert record["complete"] and record["input"] == str(games_pgn)
    assert sorted(f["path"] for f in record["files"]) == sorted(str(p.relative_to(out)) for p in out.rglob("part-*.parquet"))
    assert not (out / notate_spark.STAGING).exists()

    # The example queries: Spark SQL over the Parquet files, SQLite over notate load's file.
    db = tmp_path / "games.sqlite"
    notate.load(str(games_pgn), str(db), errors="collect")
    notate_spark.views(spark, str(out))
    queries = sorted((REPO / "examples" / "queries").glob("*.sql"))
    assert len(queries) == 4
    sqlite = sqlite3.connect(db)
    for query in queries:
        spark_version = query.parent / "spark" / query.name
        sql = (spark_version if spark_version.exists() else query).read_text()
        got = [tuple(row) for row in spark.sql(sql).collect()]
        want = sqlite.execute(query.read_text()).fetchall()
        assert len(want) > 0, query.name
        assert [tuple(map(plain, row)) for row in got] == [tuple(map(plain, row)) for row in want], query.name


def plain(value):
    """A query's value as both engines should agree on it: decimals and floats as floats
    rounded to 9 places."""
    if isinstance(value, (decimal.Decimal, float)):
        return round(float(value), 9)
    return value


def test_notate_load_and_convert_take_turns_on_one_directory(spark, games_pgn, tmp_path):
    """The files are notate load's: a load after convert finds every game there, and a
    convert after a load numbers its files after the load's. An input named twice is read
    once; a directory is not an input."""
    data = games_pgn.read_bytes()
    cut = data.index(b"\n\n[Event", len(data) // 2) + 2
    first, second = tmp_path / "first.pgn", tmp_path / "second.pgn"
    first.write_bytes(data[:cut])
    second.write_bytes(data[cut:])
    out = tmp_path / "out"
    loaded = notate.load(str(first), f"parquet:{out}", errors="collect")
    report = notate_spark.convert(
        spark, [str(second), f"{tmp_path}/./second.pgn", str(tmp_path)], str(out), split_bytes=SPLIT
    )
    assert report["inputs"] == 1 and report["failed"] == [{"input": str(tmp_path), "failure": f"{tmp_path}: not a file"}]
    again = notate.load(str(games_pgn), f"parquet:{out}", errors="collect")
    assert again["games"] == 0 and again["known"] == loaded["games"] + report["games"]
    ids = [i for entry in parquet_games(out).values() for i in entry["ids"]]
    assert len(ids) == len(set(ids)) == loaded["games"] + report["games"] == 590


def test_a_corrupt_or_missing_input_leaves_no_file_and_the_others_go_on(spark, games_pgn, tmp_path):
    import zstandard

    data = games_pgn.read_bytes()
    good = tmp_path / "good.pgn"
    good.write_bytes(data[: data.index(b"\n\n[Event", 200_000) + 1])
    compressed = zstandard.ZstdCompressor().compress(data)
    cut = tmp_path / "cut.pgn.zst"
    cut.write_bytes(compressed[: len(compressed) // 2])
    gz = tmp_path / "bad.pgn.gz"
    gz.write_bytes(zlib.compress(data)[:5000])  # not even a gzip header
    missing = tmp_path / "missing.pgn"
    out = tmp_path / "out"
    report = notate_spark.convert(spark, [str(good), str(cut), str(gz), str(missing)], str(out), split_bytes=SPLIT)
    failed = {f["input"]: f["failure"] for f in report["failed"]}
    assert set(failed) == {str(cut), str(gz), str(missing)}
    for name, failure in failed.items():
        assert failure.startswith(name), failure
    assert "no such file" in failed[str(missing)]
    assert report["inputs"] == 1
    assert report["games"] == notate.load(str(good), f"parquet:{tmp_path / 'ref'}", errors="collect")["games"]
    # Only the good input's files: one manifest, and the games it holds.
    assert len(list((out / notate_spark.MANIFESTS).iterdir())) == 1
    assert parquet_games(out) == parquet_games(tmp_path / "ref")
    assert not (out / notate_spark.STAGING).exists()


def test_a_bad_game_is_named_by_its_file_and_byte_and_left_out(spark, tmp_path):
    games = [f'[Event "g{i}"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(40)]
    games[25] = '[Event "bad"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n'
    text = "".join(games).encode()
    path = tmp_path / "one-bad.pgn"
    path.write_bytes(text)
    report = notate_spark.convert(spark, [str(path)], str(tmp_path / "out"), split_bytes=300)
    assert report["games"] == 39 and report["failed"] == []
    (error,) = report["errors"]
    start = text.index(b'[Event "bad"]')
    assert start <= error["offset"] < text.index(b'[Event "g26"]')
    assert text[error["offset"] :].startswith(b"Ke3")
    assert error["input"] == str(path) and error["ply"] == 3


def test_frame_is_the_moves_table(spark, games_pgn, tmp_path):
    frame = notate_spark.frame(spark, [str(games_pgn)], "moves", split_bytes=SPLIT)
    expected = notate.to_arrow(str(games_pgn), errors="warn").read_all()
    assert frame.columns == expected.schema.names
    assert frame.count() == expected.num_rows
    games = notate_spark.frame(spark, [str(games_pgn)], "games", ["id", "white", "year"], split_bytes=SPLIT)
    assert sorted(r.id for r in games.collect()) == sorted(
        notate.to_arrow(str(games_pgn), "games", ["id"], errors="warn").read_all().column("id").to_pylist()
    )


def test_the_command_line(games_pgn, tmp_path):
    out = tmp_path / "cli"
    run = subprocess.run(
        [sys.executable, "-m", "notate.spark", "convert", str(games_pgn), "--out", str(out), "--master", "local[2]", "--split-mb", "0.25"],
        capture_output=True,
        text=True,
        # Without PYSPARK_PYTHON: the command sets it to its own Python.
        env={k: v for k, v in os.environ.items() if k != "PYSPARK_PYTHON"},
    )
    # Ten games with a null move are reported: exit status 1, as notate load's.
    assert run.returncode == 1, run.stderr[-2000:]
    assert "converted 1 of 1 inputs: 590 games with" in run.stderr
    assert run.stderr.count("a null move") == 10
    assert sum(len(e["ids"]) for e in parquet_games(out).values()) == 590
