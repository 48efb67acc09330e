"""notate.to_arrow and notate.load: the tables of `notate load` from Python, checked against
python-chess on the repository's EGD vectors, against the Parquet files notate writes, and
through DuckDB, pandas and polars."""

import json
import sqlite3
import warnings

import chess
import chess.pgn
import duckdb
import polars
import pyarrow
import pyarrow.dataset
import pytest

import notate
from test_read_pgn import FailingAfter, python_chess_games

BAD_IN_THE_MIDDLE = "1. e4 e5 *\n\n1. e4 Ke7 2. Kxe8 *\n\n1. d4 d5 2. c4 *\n"


def legal_vector_files(egd_vectors):
    """The vector files whose every game notate and python-chess both read."""
    for path in sorted(egd_vectors.glob("c*.pgn")):
        if all(isinstance(g, notate.Game) for g in notate.read_pgn(path, errors="collect")):
            yield path


def test_moves_rows_are_python_chess_moves_and_positions(egd_vectors):
    rows_checked = 0
    for path in legal_vector_files(egd_vectors):
        table = notate.to_arrow(path).read_all()
        rows = iter(table.to_pylist())
        for reference in python_chess_games(path):
            board = reference.board()
            for ply, node in enumerate(reference.mainline(), start=1):
                row = next(rows)
                what = (path.name, ply)
                assert row["ply"] == ply, what
                assert row["move_number"] == board.fullmove_number, what
                assert row["player"] == ("w" if board.turn == chess.WHITE else "b"), what
                assert row["fen_before"] == board.fen(en_passant="fen"), what
                # The SAN as the file wrote it: check marks are not rewritten (EGD's rule),
                # is_check and is_checkmate say what the position is.
                assert row["san"].rstrip("+#") == board.san(node.move).rstrip("+#"), what
                assert row["uci"] == node.move.uci(), what
                assert row["from_square"] == chess.square_name(node.move.from_square), what
                assert row["to_square"] == chess.square_name(node.move.to_square), what
                assert (row["captured_piece"] is not None) == board.is_capture(node.move), what
                board.push(node.move)
                assert row["fen_after"] == board.fen(en_passant="fen"), what
                assert row["is_check"] == board.is_check(), what
                assert row["is_checkmate"] == board.is_checkmate(), what
                assert row["clock"] == node.clock(), what
                rows_checked += 1
        assert next(rows, None) is None, path.name
    assert rows_checked == 267


def test_games_rows_hold_the_tags(egd_vectors):
    for path in legal_vector_files(egd_vectors):
        rows = notate.to_arrow(path, table="games").read_all().to_pylist()
        games = list(notate.read_pgn(path))
        assert len(rows) == len(games), path.name
        moves = notate.to_arrow(path, columns=["game_id"]).read_all().column(0).to_pylist()
        for row, game in zip(rows, games):
            assert json.loads(row["tags"]) == game.tags, path.name
            assert row["white"] == game.tags.get("White"), path.name
            # A game without a result anywhere is stored as unfinished.
            assert row["result"] == (game.result or "*"), path.name
            assert row["ply_count"] == len(game.moves) == moves.count(row["id"]), path.name
            assert row["start_fen"] == game.start, path.name


def test_the_schema_is_the_parquet_files_schema_and_the_rows_are_the_same(egd_vectors, tmp_path):
    paths = list(legal_vector_files(egd_vectors))
    text = "\n\n".join(p.read_text(encoding="utf-8-sig") for p in paths)
    added = notate.load(text, f"parquet:{tmp_path}")
    assert (added["games"], added["moves"], added["errors"]) == (14, 267, [])
    for table, key in [("games", ["id"]), ("moves", ["game_id", "ply"])]:
        ours = notate.to_arrow(text, table=table).read_all()
        files = pyarrow.dataset.dataset(tmp_path / table, format="parquet", partitioning="hive")
        stored = files.to_table()
        # The same columns: names, types and nullability (a dataset puts the partition keys
        # last, where `games` has them after `date`).
        by_name = lambda schema: sorted((f.name, str(f.type), f.nullable) for f in schema)
        assert by_name(ours.schema) == by_name(files.schema), table
        assert len(ours.schema) == len(files.schema) == len(notate.to_arrow("", table=table).schema)
        ours = ours.sort_by([(k, "ascending") for k in key])
        stored = stored.select(ours.schema.names).sort_by([(k, "ascending") for k in key])
        assert ours.to_pylist() == stored.to_pylist(), table


def test_duckdb_pandas_and_polars_read_the_batches(egd_vectors):
    path = egd_vectors / "c08_lichess_clock_comments.pgn"
    reader = notate.to_arrow(path)
    slowest = duckdb.sql(
        "SELECT ply, san, clock FROM reader WHERE clock IS NOT NULL ORDER BY clock LIMIT 1"
    ).fetchall()
    game = next(notate.read_pgn(path))
    clocks = [(m.ply, m.san, m.clock) for m in game.moves if m.clock is not None]
    assert slowest == [min(clocks, key=lambda c: c[2])]

    frame = notate.to_arrow(path, columns=["san", "clock"]).read_pandas()
    assert list(frame["san"]) == [m.san for m in game.moves]
    games = polars.from_arrow(notate.to_arrow(path, table="games").read_all())
    assert games["white"].to_list() == [game.tags["White"]]


def test_a_bad_game_raises_after_the_rows_before_it_and_warn_leaves_it_out():
    batches = notate.to_arrow(BAD_IN_THE_MIDDLE, columns=["san"])
    assert next(batches).column(0).to_pylist() == ["e4", "e5"]
    with pytest.raises(notate.GameError) as raised:
        next(batches)
    assert (raised.value.game, raised.value.line, raised.value.ply) == (2, 3, 2)
    assert raised.value.token == "Ke7"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sans = notate.to_arrow(BAD_IN_THE_MIDDLE, columns=["san"], errors="warn").read_all()
    assert sans.column(0).to_pylist() == ["e4", "e5", "d4", "d5", "c4"]
    assert [w.category for w in caught] == [notate.GameWarning]
    assert "game 2, line 3, column 7" in str(caught[0].message)


def test_a_game_the_tables_cannot_hold_is_placed_in_the_source(tmp_path):
    # A null move reads, but no row can hold it: placed at its move, as a bad move is.
    text = "1. e4 e5 *\n\n1. e4 -- 2. d4 *\n"
    for make in (
        lambda: notate.to_arrow(text, columns=["san"]).read_all(),
        lambda: notate.load(text, str(tmp_path / "games.sqlite")),
    ):
        with pytest.raises(notate.GameError) as raised:
            make()
        error = raised.value
        assert (error.game, error.line, error.column, error.ply) == (2, 3, 7, 2), error


def test_a_source_that_cannot_be_read_on_is_raised_even_when_bad_games_are_warned(tmp_path):
    import zstandard

    text = "".join(f'[Round "{i}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(20000))
    packed = zstandard.ZstdCompressor().compress(text.encode())
    cut = tmp_path / "cut.pgn.zst"
    cut.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(notate.GameError) as raised:
        notate.to_arrow(cut, errors="warn").read_all()
    assert raised.value.kind == "io"


def test_columns_threads_and_bad_arguments():
    text = "".join(f'[Round "{i}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(3000))
    one = notate.to_arrow(text, threads=1).read_all()
    two = notate.to_arrow(text, threads=2).read_all()
    assert one.num_rows == 12000 and one.equals(two)
    picked = notate.to_arrow(text, columns=["uci", "game_id"]).read_all()
    assert picked.schema.names == ["uci", "game_id"]
    assert picked.column("uci").to_pylist()[:4] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    for bad in [
        dict(table="plies"),
        dict(columns=["nope"]),
        dict(columns=[]),
        dict(errors="ignore"),
        dict(threads=0),
    ]:
        with pytest.raises(notate.NotateError):
            notate.to_arrow(text, **bad)

    def failing():
        yield "san"
        raise ValueError("no more names")

    with pytest.raises(notate.NotateError, match="columns could not be read") as raised:
        notate.to_arrow(text, columns=failing())
    assert isinstance(raised.value.__cause__, ValueError)


def test_load_adds_once_commits_before_a_bad_game_and_collects_errors(tmp_path):
    db = tmp_path / "games.sqlite"
    first = notate.load(BAD_IN_THE_MIDDLE, str(db), errors="collect")
    assert (first["games"], first["known"], first["moves"]) == (2, 0, 5)
    (error,) = first["errors"]
    assert isinstance(error, notate.GameError) and error.game == 2
    again = notate.load(BAD_IN_THE_MIDDLE, str(db), errors="collect")
    assert (again["games"], again["known"], again["moves"]) == (0, 2, 0)
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM moves").fetchone() == (5,)

    raising = tmp_path / "raise.sqlite"
    with pytest.raises(notate.GameError):
        notate.load(BAD_IN_THE_MIDDLE, str(raising))
    with sqlite3.connect(raising) as connection:
        # The game before the bad one was committed.
        assert connection.execute("SELECT san FROM moves ORDER BY ply").fetchall() == [
            ("e4",),
            ("e5",),
        ]
    with pytest.raises(notate.NotateError):
        notate.load("1. e4 *", "parquet:")
    # A path object names a SQLite file as its text does.
    assert notate.load(BAD_IN_THE_MIDDLE, db, errors="collect")["known"] == 2
    with pytest.raises(notate.NotateError, match="db: a SQLite path"):
        notate.load("1. e4 *", 42)
    with pytest.raises(notate.NotateError, match="^db is empty"):
        notate.load("1. e4 *", " ")


def test_a_game_whose_id_a_different_stored_game_has_is_an_error(tmp_path):
    # A stored game with another check stands for a different game with the same id (two
    # 64-bit hashes that are equal, which no test can find by chance).
    db = str(tmp_path / "games.sqlite")
    two = '[White "X"]\n[Black "Y"]\n\n1. e4 e5 *\n\n[White "Z"]\n\n1. d4 *\n'
    assert notate.load(two, db)["games"] == 2
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET id_check = id_check + 1 WHERE white = 'X'")
    loaded = notate.load(two, db, errors="collect")
    assert (loaded["games"], loaded["known"], loaded["moves"]) == (0, 1, 0)
    [error] = loaded["errors"]
    assert isinstance(error, notate.GameError)
    assert (error.kind, error.line, error.game) == ("id-clash", None, None)
    assert str(error).startswith("X – Y: not stored: a different game stored before has its id "), str(error)
    with pytest.raises(notate.GameError, match="^X – Y: not stored"):
        notate.load(two, db)
    # Ended by a bad game, the load raises that one, with the clash as its note (in
    # `__notes__`, which Python before 3.11 keeps without printing).
    with pytest.raises(notate.GameError, match="illegal") as raised:
        notate.load(two + "\n1. e4 Ke7 2. Kxe8 *\n", db)
    assert [note[:17] for note in raised.value.__notes__] == ["X – Y: not stored"]


def test_a_load_ended_by_its_source_keeps_the_bad_games_found_before_as_notes(tmp_path):
    failing = FailingAfter(b"1. e4 e5 *\n\n1. e4 Ke7 2. Kxe8 *\n\n" + b"1. d4 d5 *\n\n" * 50)
    with pytest.raises(notate.GameError) as raised:
        notate.load(failing, str(tmp_path / "games.sqlite"), errors="collect")
    assert "disk gone" in str(raised.value.__cause__) + str(raised.value)
    (note,) = raised.value.__notes__
    assert note.startswith('game 2, line 3, column 7, ply 2 "Ke7": illegal move'), note
