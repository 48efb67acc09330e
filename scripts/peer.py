#!/usr/bin/env python3
"""Reads every file of ../shared/peer/ the way its own project's tests do and compares.

Suites:
  pgn/*                     every file: games read and games failed, against
                            peer/pgn-expectations.tsv (what each project's tests expect)
  shogi/json-kifu-format    each record converted to JKF, equal to the JKF its tests expect
  shogi/shogi-kifu-converter  the same, with the project's X.json
  shogi/python-shogi        start SFEN, USI moves, players and winner its tests expect
  shogi/tsshogi             the positions, moves, headers and comments its tests assert
  icn/realworld             every ICN string read, written in both dialects, read back equal

Prints the agreement per suite, then every difference. Fails (exit 1) on a panic, a hang
(a run past 60 s), a difference not in peer/differences.tsv, or a listed difference that no
longer occurs (the list stays true). Usage: scripts/peer.py NOTATE_BINARY
(PEER_SHOW=1 also prints how each listed difference shows now.)
"""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER = os.path.join(ROOT, "..", "shared", "peer")
NOTATE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "notate")
SCRATCH = tempfile.mkdtemp(prefix="notate-peer-")

crashes = []


def run(args, stdin=None):
    """Runs notate; a panic or a hang is recorded (and the run goes on)."""
    try:
        out = subprocess.run(
            [NOTATE, *args], input=stdin, capture_output=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        crashes.append(f"hang: notate {' '.join(args)}")
        return None
    err = out.stderr.decode("utf-8", "replace")
    if out.returncode == 101 or "panicked" in err:
        crashes.append(f"panic: notate {' '.join(args)}: {err[-400:]}")
        return None
    return out


def summary(err):
    """(games converted, games failed) from notate's last line."""
    m = re.search(r"(?:converted|checked) ([\d,]+) games?, ([\d,]+) failed", err)
    if not m:
        return None
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def first_error(err):
    for line in err.splitlines():
        if "warning" not in line and not line.startswith(("converted", "checked")):
            return line.replace(PEER + "/", "")[:160]
    return err.strip().splitlines()[0][:160] if err.strip() else ""


# --- PGN ---------------------------------------------------------------------------------


def pgn_suite(results):
    table = os.path.join(ROOT, "peer", "pgn-expectations.tsv")
    lines = [l for l in open(table, encoding="utf-8") if not l.startswith("#")]
    for row in csv.DictReader(lines, delimiter="\t"):
        path = row["path"]
        suite = "pgn/" + path.split("/")[0]
        full = os.path.join(PEER, "pgn", path)
        # Movetext-only .txt inputs are PGN to their project (pgn-extract reads them so).
        out = run(["convert", "--quiet", "--from", "pgn", full, "--to", "uci", "-o", "/dev/null"])
        if out is None:
            results.append((suite, path, "crash"))
            continue
        err = out.stderr.decode("utf-8", "replace")
        counts = summary(err)
        if counts is None:
            results.append((suite, path, f"no summary: {first_error(err)}"))
            continue
        read, failed = counts
        expect, games = row["expect"], row["games"]
        if expect == "ok":
            agree = failed == 0 and (not games or read == int(games))
            want = f"{games or 'all'} games, none failed"
        elif expect == "error":
            agree = failed > 0 or read == 0
            want = "an error"
        elif expect == "ok-partial":
            agree = failed > 0 and read > 0
            want = "some games read, some failed"
        else:
            # Expected outputs and fragments: read without a crash, nothing to compare.
            results.append((suite, path, None))
            continue
        if agree:
            results.append((suite, path, None))
        else:
            got = f"{read} read, {failed} failed"
            detail = first_error(err) if failed or "warning" in err else ""
            results.append((suite, path, f"expected {want}; notate: {got} {detail}".strip()))


# --- shogi -------------------------------------------------------------------------------


def jkf_difference(a, b, path="$"):
    """The first place where notate's JKF `a` and the expected `b` differ, or None."""
    if type(a) is not type(b) and not (
        isinstance(a, (int, float)) and isinstance(b, (int, float))
    ):
        return f"{path}: {short(a)} where {short(b)} was expected"
    if isinstance(a, dict):
        for k in list(b) + [k for k in a if k not in b]:
            if k not in a:
                return f"{path}.{k} missing (expected {short(b[k])})"
            if k not in b:
                return f"{path}.{k} not expected (notate: {short(a[k])})"
            d = jkf_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = jkf_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path}: {len(a)} items where {len(b)} were expected"
        return None
    return None if a == b else f"{path}: {short(a)} where {short(b)} was expected"


def short(value):
    return json.dumps(value, ensure_ascii=False)[:70]


def to_jkf(path):
    out = run(["convert", "--quiet", path, "--to", "jkf"])
    if out is None:
        return None, "crash"
    if out.returncode != 0:
        return None, first_error(out.stderr.decode("utf-8", "replace"))
    try:
        # A text of several records (CSA `/`): the projects' tests read its first.
        return json.loads(out.stdout.split(b"\n{")[0]), None
    except ValueError as e:
        return None, f"not JSON: {e}"


def jkf_suite(results):
    base = os.path.join(PEER, "shogi", "json-kifu-format")
    for entry in json.load(open(os.path.join(base, "expected-jkf.json"), encoding="utf-8")):
        name = entry["file"]
        got, error = to_jkf(os.path.join(base, name))
        diff = error or jkf_difference(got, entry["jkf"])
        results.append(("shogi/json-kifu-format", name, diff))
    base = os.path.join(PEER, "shogi", "shogi-kifu-converter", "data", "tests")
    for folder in sorted(os.listdir(base)):
        for name in sorted(os.listdir(os.path.join(base, folder))):
            if name.endswith(".json"):
                continue
            stem = os.path.splitext(name)[0]
            expected = os.path.join(base, folder, stem + ".json")
            if not os.path.exists(expected):
                continue
            got, error = to_jkf(os.path.join(base, folder, name))
            want = json.load(open(expected, encoding="utf-8"))
            diff = error or jkf_difference(got, want)
            results.append(("shogi/shogi-kifu-converter", f"{folder}/{name}", diff))


def write_record(name, text, encoding, suffix):
    # A test's string is text: written as UTF-8 it takes the UTF-8 names (`.kifu`, `.ki2u`),
    # as it would on disk; written in cp932 it keeps `.kif`.
    if encoding != "cp932" and suffix in (".kif", ".ki2"):
        suffix += "u"
    path = os.path.join(SCRATCH, re.sub(r"[^\w.-]", "_", name) + suffix)
    data = text.encode("utf-8-sig" if encoding == "utf-8-sig" else encoding)
    with open(path, "wb") as f:
        f.write(data)
    return path


def usi_of(path, fmt):
    out = run(["convert", "--quiet", "--from", fmt, path, "--to", "usi"])
    if out is None or out.returncode != 0:
        return None, (first_error(out.stderr.decode("utf-8", "replace")) if out else "crash")
    # A text of several records (CSA `/`): the projects' tests read its first.
    line = out.stdout.decode().strip().split("\n")[0]
    m = re.match(r"position (startpos|sfen (\S+ \S+ \S+ \S+))(?: moves (.*))?$", line)
    if not m:
        return None, f"not a USI line: {line[:80]}"
    sfen = (
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        if m.group(1) == "startpos"
        else m.group(2)
    )
    return (sfen, (m.group(3) or "").split()), None


def python_shogi_suite(results):
    records = json.load(open(os.path.join(PEER, "shogi", "python-shogi", "records.json"), encoding="utf-8"))
    for entry in records:
        fmt = entry["format"]
        path = write_record(entry["name"], entry["text"], entry["encoding"], "." + fmt)
        want = entry["expected"]
        usi, error = usi_of(path, fmt)
        jkf, jkf_error = to_jkf(path) if not error else (None, None)
        diff = error or jkf_error
        if not diff:
            sfen, moves = usi
            header = jkf.get("header", {})
            names = [
                header.get("先手", header.get("下手", "")),
                header.get("後手", header.get("上手", "")),
            ]
            if moves != want["moves"]:
                diff = f"moves {moves[:6]}… where {want['moves'][:6]}… were expected"
            elif sfen != want["sfen"]:
                diff = f"start {sfen} where {want['sfen']} was expected"
            elif names != want["names"]:
                diff = f"players {names} where {want['names']} were expected"
            else:
                winner = winner_of(jkf, len(moves))
                if winner != want["win"]:
                    diff = f"winner {winner} where {want['win']} was expected"
        results.append(("shogi/python-shogi", entry["name"], diff))


def winner_of(jkf, plies):
    """python-shogi's winner: `b`, `w` or `-`, from the record's end."""
    last = jkf.get("moves", [{}])[-1]
    special = last.get("special")
    # The side to move at the end: black after an even number of plies from a black start.
    start_black = jkf.get("initial", {}).get("data", {}).get("color", 0) == 0
    mover_black = (plies % 2 == 0) == start_black
    # The side to move loses by resigning, time, an illegal move or being mated, and wins
    # by declaring (KACHI).
    if special in ("TORYO", "TIME_UP", "ILLEGAL_MOVE", "TSUMI"):
        return "w" if mover_black else "b"
    if special == "KACHI":
        return "b" if mover_black else "w"
    return "-"


def tsshogi_suite(results):
    data = json.load(open(os.path.join(PEER, "shogi", "tsshogi", "records.json"), encoding="utf-8"))
    for entry in data["records"]:
        fmt = entry["format"]
        path = write_record(entry["name"], entry["text"], "utf-8", "." + fmt)
        usi, error = usi_of(path, fmt)
        jkf, jkf_error = to_jkf(path) if not error else (None, None)
        diff = error or jkf_error
        if not diff:
            diff = tsshogi_check(entry["expect"], usi, jkf, path, fmt)
        results.append(("shogi/tsshogi", entry["name"], diff))


# What of a tsshogi assertion notate is asked about; the others (bookmarks, the node count
# and clock of tsshogi's own record tree, a square's contents) are about tsshogi's model.
TSSHOGI_COMPARED = ("header", "comment", "sfen", "special", "usi_at", "usi", "to")


def tsshogi_check(expects, usi, jkf, path, fmt):
    """The first of a tsshogi test's assertions that notate's reading fails, or None."""
    sfen, moves = usi
    header = jkf.get("header", {})
    main = jkf.get("moves", [])
    node = lambda ply: main[ply] if ply < len(main) else {}
    for e in expects:
        kind = e[0]
        if kind == "header" and len(e) == 3 and header.get(e[2]) != e[1]:
            return f"header {e[2]}: {short(header.get(e[2]))} where {short(e[1])} was expected"
        if kind == "header" and len(e) == 2 and e[1] not in header.values():
            return f"no header with the value {short(e[1])}"
        if kind == "comment":
            # tsshogi ends every comment line with a newline; a KIF `&` line is a bookmark
            # to tsshogi, and a comment line that keeps its `&` to notate.
            lines = [c for c in node(e[1]).get("comments", []) if not c.startswith("&")]
            got = "".join(c + "\n" for c in lines)
            if got != e[2]:
                return f"ply {e[1]}: comment {short(got)} where {short(e[2])} was expected"
        if kind == "special" and node(e[1]).get("special") != e[2]:
            return f"ply {e[1]}: end {short(node(e[1]).get('special'))} where {e[2]} was expected"
        if kind == "usi_at":
            got = moves[e[1] - 1] if 0 < e[1] <= len(moves) else None
            if got != e[2]:
                return f"move {e[1]}: {got} where {e[2]} was expected"
        if kind == "to":
            got = moves[e[1] - 1][2:4] if 0 < e[1] <= len(moves) else None
            want = f"{e[2]}{'abcdefghi'[e[3] - 1]}"
            if got != want:
                return f"move {e[1]} to {got} where {want} was expected"
        if kind == "usi":
            line = f"position sfen {sfen} moves {' '.join(moves)}"
            if line != e[1]:
                return f"{line[:70]}… where {e[1][:70]}… was expected"
        if kind == "sfen":
            out = run(["position", "--quiet", "--from", fmt, path, "--ply", str(e[1]), "--to", "sfen"])
            got = out.stdout.decode().strip() if out else "crash"
            # The move number of tsshogi's SFEN counts in its own record (a record that
            # starts from a position numbers on from it): board, turn and hands compared.
            if got.split()[:3] != e[2].split()[:3]:
                return f"after ply {e[1]}: {got} where {e[2]} was expected"
    return None


# --- ICN ---------------------------------------------------------------------------------


def icn_suite(results):
    """The site's tests read these strings; notate reads each, and what it writes in either
    dialect reads back to the same pieces and moves, and writes again byte for byte (the
    first writing may add what the site's converter also adds: `w 1` for a bare position)."""
    entries = json.load(open(os.path.join(PEER, "icn", "realworld.json"), encoding="utf-8"))
    to_long = ["convert", "--quiet", "--from", "icn", "--to", "icn-json"]
    for entry in entries:
        long = run(to_long, entry["icn"].encode())
        if long is None or long.returncode != 0:
            err = long.stderr.decode("utf-8", "replace") if long else "crash"
            results.append(("icn/realworld", entry["id"], f"not read: {first_error(err)}"))
            continue
        first = json.loads(long.stdout)
        diff = None
        for dialect in ("2024", "2025"):
            to_short = ["convert", "--quiet", "--from", "icn-json", "--to", "icn", "--dialect", dialect]
            written = run(to_short, long.stdout)
            back = written and written.returncode == 0 and run(to_long, written.stdout)
            again = back and back.returncode == 0 and run(to_short, back.stdout)
            if not (again and again.returncode == 0):
                diff = f"the {dialect} dialect does not write or read back"
                break
            second = json.loads(back.stdout)
            if any(first.get(k) != second.get(k) for k in ("startingPosition", "moves", "metadata")):
                diff = f"the {dialect} dialect reads back other pieces, moves or tags"
                break
            if again.stdout != written.stdout:
                diff = f"the {dialect} dialect writes differently a second time"
                break
        results.append(("icn/realworld", entry["id"], diff))


# --- the run -----------------------------------------------------------------------------


def main():
    results = []
    for suite in (pgn_suite, jkf_suite, python_shogi_suite, tsshogi_suite, icn_suite):
        suite(results)
    listed = {}
    lines = [
        l for l in open(os.path.join(ROOT, "peer", "differences.tsv"), encoding="utf-8")
        if not l.startswith("#")
    ]
    for row in csv.DictReader(lines, delimiter="\t"):
        listed[(row["suite"], row["file"])] = row
    per_suite = {}
    unlisted, stale = [], []
    seen = set()
    for suite, name, diff in results:
        counts = per_suite.setdefault(suite, [0, 0, 0])
        key = (suite, name)
        seen.add(key)
        if diff is None:
            counts[0] += 1
            if key in listed:
                stale.append(f"{suite}\t{name}: listed as a difference, but now agrees")
        elif key in listed:
            counts[1 if listed[key]["kind"] == "deliberate" else 2] += 1
        else:
            unlisted.append(f"{suite}\t{name}\t{diff}")
    for key in listed:
        if key not in seen:
            stale.append(f"{key[0]}\t{key[1]}: listed, but no such file was read")
    total = [0, 0, 0, 0]
    print("| suite | files | read as the project expects | deliberate differences | open differences | unlisted |")
    print("|---|---|---|---|---|---|")
    for suite in per_suite:
        n = sum(1 for s, _, _ in results if s == suite)
        agree, deliberate, known = per_suite[suite]
        other = n - agree - deliberate - known
        print(f"| {suite} | {n} | {agree} | {deliberate} | {known} | {other} |")
        for i, v in enumerate((n, agree, deliberate, known)):
            total[i] += v
    print(f"| all | {total[0]} | {total[1]} | {total[2]} | {total[3]} | {total[0] - sum(total[1:])} |")
    for title, items in (("crashes", crashes), ("differences not in peer/differences.tsv", unlisted), ("stale entries of peer/differences.tsv", stale)):
        if items:
            print(f"\n{title}:")
            for item in items:
                print("  " + item)
    if os.environ.get("PEER_SHOW"):
        # Every listed difference as it occurs now, to work on them.
        print("\nlisted differences as they occur:")
        for suite, name, diff in results:
            if diff is not None and (suite, name) in listed:
                print(f"  {suite}\t{name}\t{diff}")
    return 1 if crashes or unlisted or stale else 0


if __name__ == "__main__":
    try:
        status = main()
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    sys.exit(status)
