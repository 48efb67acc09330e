"""What reading skips without failing a game (a token that is no move) is reported by every
function that reads PGN, as a `GameWarning` naming its game and place: nothing is dropped in
silence."""

import io
import os
import tempfile
import warnings

import pytest

import notate

# Game 2 holds one token that is no move, game 3 another; game 1 none.
SKIPPING = "1. e4 e5 *\n\n1. d4 ^5blergh d5 *\n\n1. c4 e5 2. ^zz Nc3 *\n"
EXPECTED = [
    'game 2, line 3, column 7, ply 2 "^5blergh": skipped: not a move, result or annotation',
    'game 3, line 5, column 13, ply 3 "^zz": skipped: not a move, result or annotation',
]


def caught(work):
    """What `work()` gives, and the messages of the GameWarnings it warned, in order."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = work()
    assert all(w.category is notate.GameWarning for w in seen), [w.category for w in seen]
    return result, [str(w.message) for w in seen]


@pytest.mark.parametrize("threads", [1, 2])
def test_read_pgn_warns_as_each_game_is_given(threads):
    games = notate.read_pgn(SKIPPING * 400, threads=threads)
    first, seen = caught(lambda: [next(games), next(games)])
    assert [m.san for m in first[1].moves] == ["d4", "d5"]
    assert seen == EXPECTED[:1]
    rest, seen = caught(lambda: list(games))
    assert len(rest) == 1198 and len(seen) == 799
    # Numbered in the whole source, across chunks.
    assert seen[-1].startswith("game 1200, line 2000, column 13, ply 3")


def test_read_pgn_warns_for_a_failed_game_before_its_error():
    read, seen = caught(lambda: list(notate.read_pgn("1. e4 ^yy e5 2. Ke3 *\n", errors="collect")))
    assert isinstance(read[0], notate.GameError) and read[0].game == 1
    assert seen == ['game 1, line 1, column 7, ply 2 "^yy": skipped: not a move, result or annotation']


def test_a_warning_filter_that_raises_stops_at_the_warning_and_loses_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error", notate.GameWarning)
        games = notate.read_pgn(SKIPPING)
        assert next(games).moves[0].san == "e4"
        with pytest.raises(notate.GameWarning, match="blergh"):
            next(games)
        # Iterating again gives the game whose warning it was.
        assert [m.san for m in next(games).moves] == ["d4", "d5"]
        with pytest.raises(notate.GameWarning, match="zz"):
            next(games)
        assert [m.san for m in next(games).moves] == ["c4", "e5", "Nc3"]
        assert next(games, None) is None
        batches = notate.to_arrow(SKIPPING)
        with pytest.raises(notate.GameWarning, match="blergh"):
            batches.read_next_batch()
        with pytest.raises(notate.GameWarning, match="zz"):
            batches.read_next_batch()
        assert batches.read_next_batch().num_rows == 7


def test_to_arrow_warns_before_the_batch_of_the_game():
    table, seen = caught(lambda: notate.to_arrow(SKIPPING).read_all())
    assert table.num_rows == 2 + 2 + 3
    assert seen == EXPECTED
    games, seen = caught(lambda: notate.to_arrow(SKIPPING * 300, "games", threads=2).read_all())
    assert games.num_rows == 900 and len(seen) == 600
    assert seen[-1].startswith("game 900, line 1500, column 13, ply 3")
    # A bad game left out with errors="warn" comes in order among them.
    bad = "1. e4 ^x e5 *\n\n1. e4 e5 2. Ke3 *\n\n1. d4 ^y *\n"
    _, seen = caught(lambda: notate.to_arrow(bad, errors="warn").read_all())
    assert [m.split(",")[0] for m in seen] == ["game 1", "game 2", "game 3"]
    assert "illegal" in seen[1] or "Ke3" in seen[1]


def test_load_warns_once_it_has_ended_and_counts(tmp_path):
    result, seen = caught(lambda: notate.load(SKIPPING, tmp_path / "w.sqlite"))
    assert (result["games"], result["warnings"]) == (3, 2)
    assert seen == EXPECTED
    # At most 10,000 listed, then how many more.
    many = "1. e4 " + "^q " * 50 + "e5 *\n\n"
    result, seen = caught(lambda: notate.load(many * 220, f"parquet:{tmp_path / 'p'}"))
    assert result["warnings"] == 11_000 and len(seen) == 10_001
    assert seen[-1] == "1000 more warnings, not listed (at most 10000 a reading are)"


def test_a_reading_reports_at_most_10000_warnings_then_their_count():
    many = "1. e4 " + "^q " * 50 + "e5 *\n\n"
    for read in (lambda: list(notate.read_pgn(many * 220)), lambda: notate.to_arrow(many * 220).read_all()):
        _, seen = caught(read)
        assert len(seen) == 10_001
        assert seen[-1] == "1000 more warnings, not listed (at most 10000 a reading are)"


class RaisingAfter(io.RawIOBase):
    """A binary file whose read() raises `error` once its games are read."""

    def __init__(self, error):
        self.data, self.error = b"1. e4 e5 *\n\n" * 10, error

    def readable(self):
        return True

    def read(self, n=-1):
        if not self.data:
            raise self.error
        chunk, self.data = self.data[:n], self.data[n:]
        return chunk


@pytest.mark.parametrize(
    "read",
    [
        lambda f: list(notate.read_pgn(f)),
        lambda f: notate.to_arrow(f).read_all(),
        lambda f: notate.load(f, os.path.join(tempfile.mkdtemp(), "r.sqlite")),
        lambda f: notate.convert(f, to="uci", from_="pgn"),
    ],
)
def test_what_a_file_objects_read_raises_is_the_cause_or_goes_on_up(read):
    with pytest.raises(notate.NotateError, match="disk gone") as raised:
        read(RaisingAfter(ValueError("disk gone")))
    assert isinstance(raised.value.__cause__, ValueError)
    # SystemExit and GeneratorExit are no failed read: they go on up as they are.
    for exit in (SystemExit(3), GeneratorExit()):
        with pytest.raises(type(exit)):
            read(RaisingAfter(exit))


def test_a_bad_game_of_a_load_is_not_caused_by_a_later_failing_read(tmp_path):
    source = RaisingAfter(ValueError("disk gone"))
    source.data = b"1. e4 e5 *\n\n1. e4 e5 2. Ke3 *\n\n" + b"1. d4 *\n\n" * 5
    with pytest.raises(notate.GameError) as raised:
        notate.load(source, tmp_path / "c.sqlite")
    assert raised.value.kind == "illegal" and raised.value.__cause__ is None
    # A path may be bytes, as os.fsdecode takes it.
    assert notate.load("1. e4 *", os.fsencode(tmp_path / "b.sqlite"))["games"] == 1


def test_collected_the_failed_read_is_the_last_item_with_its_cause():
    read = list(notate.read_pgn(RaisingAfter(ValueError("disk gone")), errors="collect"))
    # Every game ended with its result and a line break: whole, all ten come.
    assert [isinstance(g, notate.Game) for g in read] == [True] * 10 + [False]
    assert isinstance(read[-1], notate.GameError) and isinstance(read[-1].__cause__, ValueError)
    # A last game that may go on past what was read does not: only the whole ones come.
    source = RaisingAfter(ValueError("disk gone"))
    source.data += b"1. d4 d5"
    read = list(notate.read_pgn(source, errors="collect"))
    assert [isinstance(g, notate.Game) for g in read] == [True] * 10 + [False]
    with pytest.raises(SystemExit):
        list(notate.read_pgn(RaisingAfter(SystemExit(3)), errors="collect"))


def test_arguments_of_the_wrong_type_or_no_unicode_are_notate_errors(tmp_path):
    bad_calls = [
        lambda: notate.convert("1. e4 *", to=5),
        lambda: notate.convert("1. e4 *", to="\ud800"),
        lambda: notate.convert("1. e4 *", to="uci", from_=b"pgn"),
        lambda: notate.convert("1. e4 *", to="uci", errors=1),
        lambda: notate.convert("1. e4 *", to="egd", pretty=[1]),
        lambda: notate.convert("1. e4 *", to="icn", **{"dialect": "\udc80"}),
        lambda: notate.read_pgn("1. e4 *", errors="\ud800"),
        lambda: notate.read_pgn("1. e4 *", threads=True),
        lambda: notate.to_arrow("1. e4 *", table=3),
        lambda: notate.to_arrow("1. e4 *", columns="san"),
        lambda: notate.to_arrow("1. e4 *", columns=["san", 2]),
        lambda: notate.to_arrow("1. e4 *", columns=5),
        lambda: notate.to_arrow("1. e4 *", threads=False),
        lambda: notate.load("1. e4 *", 42),
        lambda: notate.load("1. e4 *", "\ud800.sqlite"),
        lambda: notate.load("1. e4 *", str(tmp_path / "x.sqlite"), errors=b"collect"),
    ]
    for call in bad_calls:
        with pytest.raises(notate.NotateError):
            call()
    # None is the default for errors, table and columns.
    assert notate.to_arrow("1. e4 *", table=None, columns=None, errors=None).read_all().num_rows == 1
    assert notate.convert("1. e4 *", to="uci", from_=None, errors=None) == "e2e4\n"
