#!/usr/bin/env python3
"""Writes a seed corpus for every fuzz target into fuzz/corpus/TARGET/ (not committed).

Seeds come from the repository's own vectors, from what notate writes for them in other
formats (EGD, jsonchess, JKF, KIF, KI2, CSA, ICN JSON), and, when ../shared/peer/ is there,
from other projects' test files: those are read at run time and never copied into the
repository. Usage: scripts/fuzz-seeds.py NOTATE_BINARY
"""

import glob
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER = os.path.join(ROOT, "..", "shared", "peer")
NOTATE = sys.argv[1]
# libFuzzer mutates small inputs best; larger files are left out.
MAX_SEED = 32 * 1024
MAX_SEEDS = 600

corpus = {}


def seed(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data or len(data) > MAX_SEED:
        return
    seeds = corpus.setdefault(target, {})
    if len(seeds) < MAX_SEEDS:
        seeds[hashlib.sha1(data).hexdigest()] = data


def files(*patterns):
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            if os.path.isfile(path):
                yield path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def convert(data, args):
    """What notate writes for `data` (empty when it fails)."""
    out = subprocess.run([NOTATE, "convert", "--quiet", *args], input=data, capture_output=True, timeout=60)
    return out.stdout if out.returncode == 0 else b""


def main():
    pgns = [read(p) for p in files("vectors/egd/*.pgn")]
    pgns += [read(p) for p in files("../shared/peer/pgn/**/*.pgn")][:400]
    for data in pgns:
        seed("read_pgn", data)
    for data in pgns[:60]:
        if len(data) > MAX_SEED:
            continue
        seed("read_egd", convert(data, ["--from", "pgn", "--to", "egd"]))
        seed("read_jsonchess", convert(data, ["--from", "pgn", "--to", "jsonchess"]))
    for path in files("vectors/egd/*.json", "vectors/egd/*.txt"):
        seed("read_egd", read(path))
    for path in files("vectors/jsonchess/*"):
        seed("read_jsonchess", read(path))
        seed("protocol", read(path))
    # Protocol messages: each JSON value of the vectors is a candidate message or update.
    for path in files("vectors/jsonchess/*.json"):
        try:
            doc = json.loads(read(path))
        except ValueError:
            continue
        values = doc if isinstance(doc, list) else list(doc.values()) if isinstance(doc, dict) else []
        for value in values[:50]:
            seed("protocol", json.dumps(value))
    seed("protocol", '{"topic":"move","data":"1,0,e4,1407781768400,e2,e4,N,e3"}')
    seed("protocol", '{"op":"add","path":["l"],"value":{"id":4}}')
    for path in files("vectors/icn/*"):
        seed("read_icn", read(path))
    realworld = os.path.join(PEER, "icn", "realworld.json")
    if os.path.exists(realworld):
        for entry in json.load(open(realworld, encoding="utf-8")):
            seed("read_icn", entry["icn"])
    shogi = [read(p) for p in files("vectors/shogi/*.csa", "vectors/shogi/*.ki*")]
    for suffix in ("kif", "kifu", "ki2", "ki2u", "csa", "jkf"):
        shogi += [read(p) for p in files(f"../shared/peer/shogi/**/*.{suffix}")]
    for name in ("python-shogi/records.json", "tsshogi/records.json"):
        path = os.path.join(PEER, "shogi", name)
        if os.path.exists(path):
            doc = json.load(open(path, encoding="utf-8"))
            for entry in doc if isinstance(doc, list) else doc["records"]:
                shogi.append(entry["text"].encode("utf-8"))
    for data in shogi:
        seed("read_shogi", data)
    for data in shogi[:40]:
        for to in ("jkf", "usi", "western"):
            seed("read_shogi", convert(data, ["--to", to]))
    for target, seeds in sorted(corpus.items()):
        folder = os.path.join(ROOT, "fuzz", "corpus", target)
        os.makedirs(folder, exist_ok=True)
        for name, data in seeds.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        print(f"{target}: {len(seeds)} seeds")


if __name__ == "__main__":
    main()
