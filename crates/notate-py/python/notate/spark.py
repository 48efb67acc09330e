"""notate on Spark: PGN files converted on a cluster's executors into notate's tables.

Two ways in:

- ``python -m notate.spark convert INPUTS... --out DIR`` (or :func:`convert` from Python)
  writes the hive-partitioned Parquet files ``notate load --db parquet:DIR`` writes
  (``DIR/games/year=Y/month=M/part-N.parquet`` and the same under ``DIR/moves/``), so DuckDB,
  Spark and ``notate`` read them alike. ``DIR`` must be a path every executor can write (a
  shared file system: local mode, NFS, ``/dbfs`` on Databricks).
- :func:`frame` gives a table as a Spark DataFrame, for a job of your own (write it
  anywhere Spark writes: ``frame(spark, paths).write.partitionBy("year", "month")
  .parquet("s3://...")``).

Both spread the inputs over the executors: a compressed file (``.zst``, ``.gz``,
``.bz2``, or one whose first bytes say so) is read whole by one task, since its stream cannot
be entered in the middle; a plain
``.pgn`` is cut into byte ranges of about ``split_bytes``, each read by its own task, so one
big file uses the whole cluster. A range starts at the first game that starts at or after
its first byte and ends where the next range starts (see :func:`game_start`), so every game
is read exactly once. Each task converts its range with ``notate.load`` (or ``to_arrow``)
through ``mapInArrow``.

``convert`` is idempotent per input: each task writes into a staging directory of its own;
once every range of an input is converted, its files are moved into ``DIR`` and the files an
earlier run wrote for the same input (listed in ``DIR/_notate_inputs/``) are removed, so
running an input again replaces its games instead of adding them twice. An input that cannot
be read to its end (a corrupt or truncated compressed file, a file that disappeared) is
reported with its name and the place of the failure, leaves no file behind, and the other
inputs go on. A game that cannot be read is reported with its file and byte offset and left
out, as ``notate load`` does.

>>> from notate.spark import split_ranges
>>> split_ranges(["a.pgn.zst"], 1 << 20, sizes={"a.pgn.zst": 5 << 20})
[('a.pgn.zst', 0, -1)]
>>> split_ranges(["b.pgn"], 2 << 20, sizes={"b.pgn": 5 << 20})
[('b.pgn', 0, 2097152), ('b.pgn', 2097152, 4194304), ('b.pgn', 4194304, 5242880)]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import re
import shutil
import sys
import time
import uuid
from pathlib import Path
from typing import Iterable, Iterator

COMPRESSED = (".zst", ".gz", ".bz2")
"""Extensions of inputs read whole by one task."""

SPLIT_BYTES = 128 << 20
"""The default size of a plain PGN file's byte ranges."""

MANIFESTS = "_notate_inputs"
"""The directory of ``DIR`` that lists, per input, the files ``convert`` wrote for it."""

STAGING = "_notate_staging"
"""The directory of ``DIR`` where tasks write before their input's files are moved in."""

def split_ranges(paths: Iterable[str], split_bytes: int = SPLIT_BYTES, sizes=None):
    """The byte ranges ``(path, start, end)`` the inputs are read in: one ``(path, 0, -1)``
    (the whole file) per compressed input (by its name, or by its first bytes: gzip named
    ``.pgn``), ranges of ``split_bytes`` for a plain one."""
    if split_bytes < 1:
        raise ValueError(f"split_bytes must be positive, not {split_bytes}")
    ranges = []
    for path in paths:
        if path.lower().endswith(COMPRESSED) or _compressed_bytes(path):
            ranges.append((path, 0, -1))
            continue
        size = sizes[path] if sizes is not None else os.path.getsize(path)
        starts = range(0, max(size, 1), split_bytes)
        ranges.extend((path, s, min(s + split_bytes, size)) for s in starts)
    return ranges


def _compressed_bytes(path: str) -> bool:
    """Whether a file named as plain PGN starts as zstd, gzip or bzip2 data (the magic
    numbers notate's readers go by): its byte ranges would be no text, so it is read whole.
    A file that cannot be opened is not (reading it will say why)."""
    try:
        with open(path, "rb") as file:
            head = file.read(4)
    except OSError:
        return False
    return (
        head.startswith((b"\x28\xb5\x2f\xfd", b"\x1f\x8b"))
        or (len(head) == 4 and head[:3] == b"BZh" and b"1" <= head[3:] <= b"9")
    )


# A game starts with a tag line after a blank line: `\n\n[` (or `\n\r\n[`). Only the start of
# the file and such places begin games here; a text that breaks this (a comment holding a blank
# line then `[`) is cut there, and both halves are reported as bad games, never lost.
_GAME_START = re.compile(rb"\n\r?\n\[")
_BLOCK = 1 << 16


def game_start(file, at: int) -> int:
    """The offset of the first game that starts at or after byte ``at`` of a seekable binary
    ``file`` (its size when none does). Any two ranges that meet at ``at`` agree on it: the
    answer depends on the file's bytes only, not on where reading began.

    >>> import io
    >>> text = b'[Event "a"]\\n\\n1. e4 *\\n\\n[Event "b"]\\n\\n1. d4 *\\n'
    >>> game_start(io.BytesIO(text), 0), game_start(io.BytesIO(text), 1), len(text)
    (0, 22, 43)
    """
    if at <= 0:
        return 0
    # The separator may begin up to 3 bytes before `at` and still put its `[` at `at`.
    position = max(at - 3, 0)
    file.seek(position)
    tail = b""
    while True:
        block = file.read(_BLOCK)
        if not block:
            return file.seek(0, io.SEEK_END)
        data = tail + block
        base = position - len(tail)
        for match in _GAME_START.finditer(data):
            bracket = base + match.end() - 1
            if bracket >= at:
                return bracket
        # Keep the last bytes: a separator may straddle two blocks.
        tail = data[-3:]
        position = base + len(data)


class Range(io.RawIOBase):
    """The games of bytes ``[start, end)`` of a plain PGN file as a binary file object:
    from the first game starting at or after ``start`` to the first starting at or after
    ``end`` (``end`` -1: the end of the file). ``offset`` is where it begins in the file."""

    def __init__(self, path: str, start: int, end: int):
        super().__init__()
        self._file = open(path, "rb")
        self.offset = game_start(self._file, start)
        stop = self._file.seek(0, io.SEEK_END) if end < 0 else game_start(self._file, end)
        self._left = max(stop - self.offset, 0)
        self._file.seek(self.offset)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._left <= 0:
            return 0
        view = memoryview(buffer)[: min(len(buffer), self._left)]
        n = self._file.readinto(view)
        self._left -= n or 0
        return n or 0

    def close(self) -> None:
        self._file.close()
        super().close()


def _source(path: str, start: int, end: int):
    """What a task reads: a compressed file by its path (notate decompresses it), a plain
    one's range as a :class:`Range`; and where it begins in the file. (Only a compressed
    file, by its name or its first bytes, is read whole: see :func:`split_ranges`.)"""
    if end < 0:
        return path, 0
    source = Range(path, start, end)
    return source, source.offset


def _error_dict(error, path: str, base: int, compressed: bool = False) -> dict:
    """A ``GameError`` as the report names it: the file, the byte offset in the file (in the
    decompressed text of a compressed one: ``compressed``), and the line and column in the
    range (lines are counted from the range's first byte)."""
    offset = getattr(error, "offset", None)
    return {
        "input": path,
        "offset": None if offset is None else base + offset,
        "compressed": compressed,
        "range_start": base,
        "line": getattr(error, "line", None),
        "column": getattr(error, "column", None),
        "ply": getattr(error, "ply", None),
        "token": getattr(error, "token", None),
        "message": getattr(error, "message", str(error)),
    }


_STATUS_FIELDS = {
    "input": "string",
    "start": "long",
    "staging": "string",
    "games": "long",
    "known": "long",
    "moves": "long",
    "errors": "string",
    "failure": "string",
}
STATUS_SCHEMA = ", ".join(f"{name} {kind}" for name, kind in _STATUS_FIELDS.items())
"""What each task of ``convert`` reports: one row per range."""

_DONE = "_notate_done.json"
"""The file a task leaves in its staging directory once it reported: the driver reads these
when the job as a whole fails (a task that crashed outside Python), to commit the inputs
whose ranges all finished."""


def _convert_range(path: str, start: int, end: int, staging: str) -> dict:
    """Loads one range into ``staging``: the status row of ``convert``."""
    import notate

    status = {"input": path, "start": start, "staging": staging, "games": 0, "known": 0, "moves": 0, "errors": "[]", "failure": None}
    base = 0
    compressed = end < 0
    try:
        source, base = _source(path, start, end)
        try:
            loaded = notate.load(source, f"parquet:{staging}", errors="collect", threads=1)
        finally:
            if hasattr(source, "close"):
                source.close()
        errors = [_error_dict(e, path, base, compressed) for e in loaded["errors"]]
        status.update(games=loaded["games"], known=loaded["known"], moves=loaded["moves"], errors=json.dumps(errors))
    except notate.GameError as error:
        # Reading stopped: the input is not whole.
        place = _error_dict(error, path, base, compressed)
        where = "its end" if place["offset"] is None else _byte(place["offset"], compressed)
        status["failure"] = f"{path}: {error} (at {where})"
    except Exception as error:  # noqa: BLE001 - any failure of a task is its input's
        status["failure"] = f"{path}: {type(error).__name__}: {error}"
    return status


def _convert_ranges(batches):
    """The ``mapInArrow`` function of ``convert``: loads each range into a staging directory
    of this task attempt's own (a retried or speculative attempt never meets another's
    files), and yields one status row per range."""
    import pyarrow as pa
    from pyspark import TaskContext

    context = TaskContext.get()
    attempt = context.taskAttemptId() if context is not None else uuid.uuid4().int
    types = {"long": pa.int64(), "string": pa.string()}
    schema = pa.schema([(name, types[kind]) for name, kind in _STATUS_FIELDS.items()])
    for batch in batches:
        statuses = []
        for row in batch.to_pylist():
            staging = os.path.join(row["staging"], f"attempt-{attempt}")
            status = _convert_range(row["input"], row["start"], row["end"], staging)
            os.makedirs(staging, exist_ok=True)
            _write_json(Path(staging) / _DONE, status)
            statuses.append(status)
        yield pa.RecordBatch.from_pylist(statuses, schema=schema)


def _byte(offset: int, compressed: bool) -> str:
    return f"byte {offset} of the decompressed text" if compressed else f"byte {offset}"


def _input_key(path: str) -> str:
    """A stable name for an input: the hash of its real path."""
    return hashlib.sha256(os.path.realpath(path).encode()).hexdigest()[:24]


def _part_number(name: str):
    match = re.fullmatch(r"part-(\d+)\.parquet", name)
    return int(match.group(1)) if match else None


def _next_part(out: Path, partition: str) -> int:
    """The next free file number of a partition, over both tables (files are paired by
    number: ``moves/P/part-N`` holds the moves of ``games/P/part-N``)."""
    numbers = [-1]
    for table in ("games", "moves"):
        directory = out / table / partition
        if directory.is_dir():
            numbers += [n for n in map(_part_number, os.listdir(directory)) if n is not None]
    return max(numbers) + 1


class _DirectoryLock:
    """The lock ``notate load --db parquet:DIR`` takes (``flock`` of ``DIR/.notate-load.lock``),
    held while files are moved in, so that a load and a commit never number files at once."""

    def __init__(self, out: Path):
        self._file = open(out / ".notate-load.lock", "a+b")

    def __enter__(self):
        import fcntl

        fcntl.flock(self._file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        import fcntl

        # Given back explicitly, not by closing: a process another thread starts meanwhile
        # holds a copy of the open file between its fork and exec, and the lock with it.
        try:
            fcntl.flock(self._file, fcntl.LOCK_UN)
        finally:
            self._file.close()


def _write_json(path: Path, value) -> None:
    """Writes JSON whole or not at all (a temporary file, then a rename)."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    temporary.write_text(json.dumps(value, indent=1))
    os.replace(temporary, path)


def _identity(path: Path):
    """What tells a file from another that later took its name: device, inode and size (a
    rename keeps them)."""
    st = path.stat()
    return [st.st_dev, st.st_ino, st.st_size]


def _unlink_if_same(path: Path, identity) -> None:
    """Removes ``path`` if it is still the file ``identity`` describes."""
    try:
        if _identity(path) == list(identity):
            path.unlink()
    except FileNotFoundError:
        pass


def _commit(out: Path, path: str, stagings: list[Path]) -> int:
    """Moves an input's staged files into ``out`` and removes the files an earlier run wrote
    for it. The manifest first lists the old files and the new ones (each with its identity,
    so that a name another writer took meanwhile is never removed), so that a run stopped
    half-way is undone by running the input again. Returns the number of new files."""
    manifests = out / MANIFESTS
    manifests.mkdir(parents=True, exist_ok=True)
    manifest = manifests / f"{_input_key(path)}.json"
    with _DirectoryLock(out):
        old = json.loads(manifest.read_text())["files"] if manifest.exists() else []
        moves = []  # (source, destination): a moves file before its games file
        numbers: dict[str, int] = {}
        for staging in stagings:
            games_root = staging / "games"
            if not games_root.is_dir():
                continue
            for games_file in sorted(games_root.rglob("part-*.parquet")):
                partition = games_file.parent.relative_to(games_root).as_posix()
                if partition not in numbers:
                    numbers[partition] = _next_part(out, partition)
                target = f"part-{numbers[partition]}.parquet"
                numbers[partition] += 1
                moves_file = staging / "moves" / partition / games_file.name
                if moves_file.exists():
                    moves.append((moves_file, out / "moves" / partition / target))
                moves.append((games_file, out / "games" / partition / target))
        new = [{"path": str(d.relative_to(out)), "identity": _identity(s)} for s, d in moves]
        record = {"input": os.path.realpath(path), "files": old + new, "complete": False}
        _write_json(manifest, record)
        for source, destination in moves:
            destination.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, destination)
        for file in old:
            _unlink_if_same(out / file["path"], file["identity"])
        _write_json(manifest, {"input": record["input"], "files": new, "complete": True})
    return len(new)


def _spark_session(master: str | None = None):
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("notate")
    if master:
        builder = builder.master(master)
    # The executors' Python is this one (notate and pyarrow installed), unless set already:
    # PySpark reads it from the environment when the session starts (else `python3`).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # The report is notate's lines on stderr, not Spark's progress bars.
    builder = builder.config("spark.ui.showConsoleProgress", "false")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def views(spark, out: str) -> None:
    """Makes the tables of ``out`` (``convert``'s, or ``notate load --db parquet:``'s) Spark
    SQL's temporary views ``games`` and ``moves``, ``year`` and ``month`` read from the paths.

    >>> views(spark, "games")  # doctest: +SKIP
    >>> spark.sql(open("examples/queries/queen_trades.sql").read()).show()  # doctest: +SKIP
    """
    for table in ("games", "moves"):
        path = os.path.join(out, table)
        # Merged: games files written before `id_check` lack that last column.
        reader = spark.read.option("basePath", path).option("mergeSchema", str(table == "games").lower())
        reader.parquet(path).createOrReplaceTempView(table)


def convert(spark, inputs: list[str], out: str, *, split_bytes: int = SPLIT_BYTES) -> dict:
    """Converts the PGN files ``inputs`` into notate's Parquet tables under ``out`` on the
    cluster of ``spark``, one task per byte range (see the module's docs). Returns a dict:
    ``games``, ``known`` (already in the same input's range, as ``notate load`` counts),
    ``moves``, ``inputs`` (converted), ``errors`` (bad games: file, byte offset, message),
    ``failed`` (inputs that could not be read, with why; none of this run's files of them is
    kept, an earlier run's stay), ``files`` (written), ``seconds``.
    """
    started = time.perf_counter()
    out_dir = Path(out).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    report = {"games": 0, "known": 0, "moves": 0, "inputs": 0, "errors": [], "failed": [], "files": 0}
    present = []
    for path in inputs:
        if not os.path.exists(path):
            report["failed"].append({"input": path, "failure": f"{path}: no such file"})
        elif not os.path.isfile(path):
            report["failed"].append({"input": path, "failure": f"{path}: not a file"})
        elif os.path.realpath(path) not in present:  # the same file named twice is read once
            present.append(os.path.realpath(path))
    run = out_dir / STAGING / uuid.uuid4().hex
    rows = [
        {"input": path, "start": start, "end": end, "staging": str(run / _input_key(path) / str(start))}
        for path, start, end in split_ranges(present, split_bytes)
    ]
    try:
        job_failure = None
        statuses = []
        if rows:
            frame = spark.createDataFrame(rows, "input string, start long, end long, staging string")
            try:
                statuses = [r.asDict() for r in frame.repartition(len(rows)).mapInArrow(_convert_ranges, STATUS_SCHEMA).collect()]
            except Exception as error:  # noqa: BLE001 - a task that died outside Python
                # The job failed as a whole: what finished is in the tasks' files.
                job_failure = f"the Spark job failed: {str(error).splitlines()[0] if str(error) else type(error).__name__}"
                statuses = [json.loads(p.read_text()) for p in sorted(run.glob(f"*/*/attempt-*/{_DONE}"))]
        by_range: dict[tuple, dict] = {}
        for status in statuses:
            # One status per range: a speculative attempt's second answer is not counted.
            by_range.setdefault((status["input"], status["start"]), status)
        for path in present:
            ranges = [r for r in rows if r["input"] == path]
            done = [by_range[(path, r["start"])] for r in ranges if (path, r["start"]) in by_range]
            failures = [s["failure"] for s in done if s["failure"]]
            if len(done) != len(ranges) and not failures:
                failures.append(job_failure or f"{path}: {len(ranges) - len(done)} of its ranges never reported")
            if failures:
                report["failed"].append({"input": path, "failure": "; ".join(failures)})
                continue
            report["files"] += _commit(out_dir, path, [Path(s["staging"]) for s in done])
            report["inputs"] += 1
            for s in done:
                report["games"] += s["games"]
                report["known"] += s["known"]
                report["moves"] += s["moves"]
                report["errors"] += json.loads(s["errors"])
    finally:
        shutil.rmtree(run, ignore_errors=True)
        try:
            (out_dir / STAGING).rmdir()
        except OSError:
            pass
    report["seconds"] = time.perf_counter() - started
    return report


def _frame_batches(table: str, columns):
    def convert_ranges(batches):
        import notate

        for batch in batches:
            for row in batch.to_pylist():
                source, _ = _source(row["input"], row["start"], row["end"])
                try:
                    yield from notate.to_arrow(source, table, columns, errors="warn", threads=1)
                finally:
                    if hasattr(source, "close"):
                        source.close()

    return convert_ranges


def spark_schema(table: str = "moves", columns=None) -> str:
    """The Spark DDL of a notate table (as ``to_arrow`` gives it, ``year`` and ``month``
    included).

    >>> spark_schema("games", ["id", "white", "white_elo"])
    'id bigint, white string, white_elo int'
    """
    import pyarrow as pa

    import notate

    schema = notate.to_arrow("", table, columns).schema
    names = {pa.int64(): "bigint", pa.int32(): "int", pa.float64(): "double", pa.bool_(): "boolean", pa.string(): "string"}
    return ", ".join(f"{f.name} {names[f.type]}" for f in schema)


def frame(spark, inputs: list[str], table: str = "moves", columns=None, *, split_bytes: int = SPLIT_BYTES):
    """The ``games`` or ``moves`` table of PGN files as a Spark DataFrame (columns as
    :func:`notate.to_arrow` gives them), read on the executors in byte ranges. Bad games
    are left out with a warning in the executor's log.

    >>> df = frame(spark, ["lichess_db_standard_rated_2024-01.pgn"])  # doctest: +SKIP
    >>> df.write.partitionBy("year", "month").parquet("s3://bucket/moves")  # doctest: +SKIP
    """
    paths = [os.path.abspath(p) for p in inputs]
    rows = [{"input": p, "start": s, "end": e} for p, s, e in split_ranges(paths, split_bytes)]
    ranges = spark.createDataFrame(rows, "input string, start long, end long").repartition(max(len(rows), 1))
    return ranges.mapInArrow(_frame_batches(table, columns), spark_schema(table, columns))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m notate.spark",
        description="Convert PGN files into notate's Parquet tables on Spark.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("convert", help="PGN files (.pgn, .zst, .gz, .bz2) into DIR")
    run.add_argument("inputs", nargs="+", help="PGN files, on a file system every executor reads")
    run.add_argument("--out", required=True, help="the output directory (as notate load --db parquet:DIR)")
    run.add_argument("--split-mb", type=float, default=SPLIT_BYTES / (1 << 20), help="byte range of a plain PGN per task, in MiB (default 128)")
    run.add_argument("--master", help="Spark master (default: spark-submit's, or local[*])")
    args = parser.parse_args(argv)
    spark = _spark_session(args.master)
    try:
        report = convert(spark, args.inputs, args.out, split_bytes=max(int(args.split_mb * (1 << 20)), 1))
    finally:
        spark.stop()
    for error in report["errors"]:
        where = "" if error["offset"] is None else _byte(error["offset"], error["compressed"]) + ": "
        print(f"{error['input']}: {where}{error['message']}", file=sys.stderr)
    for failed in report["failed"]:
        print(f"failed: {failed['failure']}", file=sys.stderr)
    print(
        f"converted {report['inputs']} of {report['inputs'] + len(report['failed'])} inputs: "
        f"{report['games']:,} games with {report['moves']:,} moves in {report['files']} files, "
        f"{len(report['errors'])} bad games, {report['seconds']:.1f} s",
        file=sys.stderr,
    )
    return 1 if report["failed"] or report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
