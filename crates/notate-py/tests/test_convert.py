"""notate.convert: every input vector of every family, converted to every output of its
family, gives what the `notate` command gives on the same file (the command is the one the
Rust suites check against the vectors, deliberate differences from the references
included), with the same games failing."""

import json
import os
import re
import subprocess
import warnings
from pathlib import Path

import pytest

import notate
from conftest import REPO

CHESS_OUT = ["pgn", "uci", "fen", "epd", "json", "egd", "tracks", "jsonchess"]
SHOGI_OUT = ["sfen", "usi", "kif", "ki2", "csa", "western", "jkf", "tracks"]
JSON_OUT = {"json", "egd", "tracks", "jsonchess", "icn-json", "jkf"}


def cli_path() -> str:
    """The `notate` command of this checkout (built by `cargo test --release`, or
    $NOTATE_CLI), as the npm package's tests find it."""
    candidates = [
        os.environ.get("NOTATE_CLI"),
        os.environ.get("CARGO_TARGET_DIR") and os.path.join(os.environ["CARGO_TARGET_DIR"], "release", "notate"),
        str(REPO / "target" / "release" / "notate"),
    ]
    for candidate in filter(None, candidates):
        if os.path.exists(candidate):
            return candidate
    raise RuntimeError(f"the notate command is not built (looked at {candidates}): cargo build --release")


def command(path: Path, to: str, *options: str):
    """What `notate convert PATH --to TO` writes, and how many games it says failed."""
    done = subprocess.run(
        [cli_path(), "convert", str(path), "--to", to, *options], capture_output=True
    )
    stderr = done.stderr.decode()
    failed = re.search(r"(\d[\d,]*) failed", stderr)
    # The places of the failed games: FILE:LINE:COLUMN: game N (warnings end "(warning)").
    places = [
        (int(m.group(3)), int(m.group(1)), int(m.group(2)))
        for line in stderr.splitlines()
        if not line.endswith("(warning)") and (m := re.search(r":(\d+):(\d+): game (\d+) ", line))
    ]
    return done.stdout.decode(), int(failed.group(1).replace(",", "")) if failed else 0, places


def json_values(text: str):
    """The JSON values of a text, one after another."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return values
        value, at = decoder.raw_decode(text, at)
        values.append(value)


def python(path: Path, to: str, **options):
    """notate.convert of the file, with its bad games as warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = notate.convert(path, to=to, errors="warn", **options)
    return out, caught


def assert_same(path: Path, to: str, options=(), **kwargs):
    ours, caught = python(path, to, **kwargs)
    theirs, failed, places = command(path, to, *options)
    what = f"{path.name} --to {to}"
    if to in JSON_OUT:
        assert ours == json_values(theirs), what
    else:
        assert ours == theirs, what
    # A failed game is one warning; shogi notes are warnings too, so at least as many.
    assert len(caught) >= failed, what
    # Each failed game is placed where the command line places it, a writer's error (a null
    # move EGD cannot hold) included.
    said = [str(w.message) for w in caught]
    for game, line, column in places:
        where = f"game {game}, line {line}, column {column}"
        assert any(text.startswith(where) for text in said), f"{what}: {where} not in {said}"
    return ours


def test_every_egd_vector_to_every_chess_format():
    compared = 0
    for path in sorted((REPO / "vectors" / "egd").glob("*.pgn")):
        for to in CHESS_OUT:
            assert_same(path, to)
            compared += 1
    assert compared == 36 * len(CHESS_OUT)


def test_every_icn_vector_to_both_forms():
    inputs = sorted((REPO / "vectors" / "icn").glob("*.input.*"))
    for path in inputs:
        # Said, not told: some error vectors (an unclosed tag bracket) would pass for PGN.
        from_ = "icn-json" if path.suffix == ".json" else "icn"
        for to in ["icn", "icn-json"]:
            assert_same(path, to, ("--from", from_), from_=from_)
    assert len(inputs) == 100


def test_every_shogi_vector_to_every_shogi_format():
    compared = 0
    for path in sorted((REPO / "vectors" / "shogi").iterdir()):
        if path.suffix not in {".csa", ".kif", ".kifu", ".ki2"}:
            continue
        for to in SHOGI_OUT:
            assert_same(path, to)
            compared += 1
    assert compared == 16 * len(SHOGI_OUT)


def test_options_by_name_and_json_outputs_as_dicts():
    pgn = '[White "A"]\n\n1. e4 e5 2. Nf3 *\n\n1. d4 *\n'
    assert notate.convert(pgn, to="uci") == "e2e4 e7e5 g1f3\nd2d4\n"
    games = notate.convert(pgn, to="egd", egd_extended=True)
    assert [g["game_tags"].get("White") for g in games] == ["A", None]
    # The extended EGD's position features; without the option, none.
    assert games[0]["moves"]["1w"]["end_position"]["features"]["halfmove_clock"] == 0
    assert games[0]["moves"]["2w"]["end_position"]["features"]["halfmove_clock"] == 1
    assert notate.convert(pgn, to="egd")[0]["moves"]["1w"]["end_position"]["features"] == {}
    assert notate.convert(pgn, to="json", fens=True)[1]["moves"][0]["fen"].startswith("rnbqkbnr/pppppppp/8/8/3P4")
    icn = notate.convert("w K5,1|k5,8 5,1>5,2", to="icn", moves="compact", dialect="2025")
    assert "5,1>5,2" in icn
    kif = notate.convert("position startpos moves 7g7f 3c3d", to="csa", csa_version=2.2)
    assert kif.startswith("V2.2")
    # V2.2 is Shift_JIS in a file (the command line's); a string holds its characters.
    named = "先手：羽生\n後手：渡辺\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n"
    assert notate.convert(named, to="csa", csa_version="2.2") == "V2.2\nN+羽生\nN-渡辺\nPI\n+\n+7776FU\n"
    for three in (3, 3.0, "3.0"):
        csa = notate.convert("position startpos moves 7g7f 3c3d", to="csa", csa_version=three)
        assert "\nV3.0\n" in csa, three
    for bad in [dict(to="mp3"), dict(to="kif"), dict(to="uci", from_="tracks"), dict(to="uci", colour=True),
                dict(to="icn", moves="tiny"), dict(to="uci", errors="ignore")]:
        with pytest.raises(notate.NotateError):
            notate.convert(pgn, **bad)
    with pytest.raises(notate.NotateError, match="cannot tell"):
        notate.convert("hello", to="uci")


def test_a_bad_game_raises_or_is_left_out_with_a_warning():
    text = "1. e4 e5 *\n\n1. e4 Ke7 *\n\n1. d4 *\n"
    with pytest.raises(notate.GameError) as raised:
        notate.convert(text, to="uci")
    assert (raised.value.game, raised.value.line, raised.value.token) == (2, 3, "Ke7")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert notate.convert(text, to="uci", errors="warn") == "e2e4 e7e5\nd2d4\n"
    assert [w.category for w in caught] == [notate.GameWarning]


def test_a_token_skipped_in_reading_is_a_warning_with_its_place():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert notate.convert("1. e4 e5 *\n\n1. d4 ^5blergh d5 *\n", to="uci") == (
            "e2e4 e7e5\nd2d4 d7d5\n"
        )
    (warning,) = caught
    assert warning.category is notate.GameWarning
    assert str(warning.message) == (
        'game 2, line 3, column 7, ply 2 "^5blergh": skipped: not a move, result or annotation'
    )


def test_a_long_shift_jis_record_is_told_from_its_bytes():
    # Longer than the 8 KiB head that detection reads, with two-byte characters across it.
    comments = "".join(f"*第{i}局の感想：序盤は互角\n" for i in range(600))
    kif = "手合割：平手\n" + comments + "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n"
    data = kif.encode("shift_jis")
    assert len(data) > 8192
    assert notate.convert(data, to="usi") == notate.convert(data, to="usi", from_="kif")
    assert "moves 7g7f 3c3d" in notate.convert(data, to="usi")


def test_every_jsonchess_game_vector_both_ways():
    """The jsonchess vectors' games (crates/notate/tests/jsonchess_vectors.rs checks every
    field of every packed move): written as jsonchess records, each move's fields are the
    reference's but the time (a record of a PGN has none: 0) and field 7, where notate writes
    the castling rights the mover really lost; read back, they replay to the vector's moves.
    The reference's own strings read back too, except where its field 7 differs, which
    notate refuses there, at that ply."""
    folder = REPO / "vectors" / "jsonchess"
    names = sorted(p.name[: -len(".packed.txt")] for p in folder.glob("*.packed.txt"))
    assert len(names) == 7
    differing_field_7 = 0
    for name in names:
        vector = json.loads((folder / f"{name}.json").read_text())
        reference = (folder / f"{name}.packed.txt").read_text().split()
        # The q vectors end with a castling the reference allows and chess does not.
        plies = vector["plies"][: vector["python_first_illegal_ply"]]
        reference = reference[: len(plies)]
        pgn = " ".join(p["python_san"] for p in plies) + " *\n"
        [record] = notate.convert(pgn, to="jsonchess")
        ours = record["moves"]
        assert len(ours) == len(plies), name
        differs = []
        for i, (a, b) in enumerate(zip(ours, reference)):
            a, b = a.split(","), b.split(",")
            assert a[3] == "0", (name, i)
            assert a[:3] + a[4:6] + a[7:] == b[:3] + b[4:6] + b[7:], (name, i, a, b)
            if a[6] != b[6]:
                differs.append(i + 1)
        differing_field_7 += len(differs)
        uci = " ".join(p["uci"] for p in plies) + "\n"
        assert notate.convert(json.dumps(record), from_="jsonchess", to="uci") == uci, name
        theirs = json.dumps({"game_tags": {}, "moves": reference})
        if not differs:
            assert notate.convert(theirs, from_="jsonchess", to="uci") == uci, name
        else:
            with pytest.raises(notate.GameError) as refused:
                notate.convert(theirs, from_="jsonchess", to="uci")
            assert refused.value.ply == differs[0], (name, differs)
    assert differing_field_7 > 0


def test_variations_nested_past_32_are_refused_not_a_crash():
    """A KIF whose every variation branches off the one before (a fuzzer's input crashed the
    JKF writer at 8,000 deep): 32 deep convert to JKF and back; deeper is notate's error."""
    cycle = ["４八飛(28)", "６二飛(82)", "２八飛(48)", "８二飛(62)"]

    def nested(depth):
        text = "手合割：平手\n1 ４八飛(28)\n2 ６二飛(82)\n"
        for k in range(2, depth + 2):
            text += f"変化：{k}手\n{k} {cycle[(k - 1) % 4]}\n{k + 1} {cycle[k % 4]}\n"
        return text

    [jkf] = notate.convert(nested(32), to="jkf", from_="kif")
    assert notate.convert(json.dumps(jkf), to="kif", from_="jkf") == notate.convert(nested(32), to="kif", from_="kif")
    for depth in (33, 8000):
        with pytest.raises(notate.GameError, match="variations nested deeper than 32") as raised:
            notate.convert(nested(depth), to="jkf", from_="kif")
        assert raised.value.kind == "too-large"
