"""Every kind of source Python code hands over reads, and what a source gets wrong (a path
object, a file object) is notate's error with the exception as its cause."""

import os
import pathlib

import pytest

import notate

GAMES = b"1. e4 e5 *\n\n1. d4 *\n"


class PathOf:
    """An `os.PathLike` whose `__fspath__` gives `value`, or raises it."""

    def __init__(self, value):
        self.value = value

    def __fspath__(self):
        if isinstance(self.value, Exception):
            raise self.value
        return self.value


def test_a_path_object_may_give_bytes(tmp_path):
    path = tmp_path / "two.pgn"
    path.write_bytes(GAMES)
    assert len(list(notate.read_pgn(PathOf(bytes(path))))) == 2
    assert notate.load(PathOf(str(path)), PathOf(bytes(tmp_path / "g.sqlite")))["games"] == 2


def test_a_file_name_that_is_not_utf8_opens(tmp_path):
    name = os.fsencode(tmp_path) + b"/\xff.pgn"
    with open(name, "wb") as f:
        f.write(GAMES)
    for source in (pathlib.Path(os.fsdecode(name)), PathOf(name)):
        assert len(list(notate.read_pgn(source))) == 2


def test_a_released_memoryview_is_a_notate_error():
    view = memoryview(GAMES)
    view.release()
    with pytest.raises(notate.NotateError, match="the memoryview could not be read") as raised:
        list(notate.read_pgn(view))
    assert isinstance(raised.value.__cause__, ValueError)


@pytest.mark.parametrize(
    "read",
    [
        lambda source: list(notate.read_pgn(source)),
        lambda source: notate.to_arrow(source),
        lambda source: notate.convert(source, to="uci", from_="pgn"),
        lambda source: notate.load("1. e4 *", source),
    ],
)
def test_a_path_object_that_fails_is_a_notate_error_with_its_cause(read):
    with pytest.raises(notate.NotateError, match="the path could not be read") as raised:
        read(PathOf(5))
    assert isinstance(raised.value.__cause__, TypeError)
    cause = RuntimeError("no path today")
    with pytest.raises(notate.NotateError, match="no path today") as raised:
        read(PathOf(cause))
    assert raised.value.__cause__ is cause


class Pieces:
    """A file object whose read() gives these pieces, then the end."""

    def __init__(self, *pieces):
        self.pieces = list(pieces)

    def read(self, n=-1):
        return self.pieces.pop(0) if self.pieces else b""


def test_read_may_give_a_bytearray_or_a_memoryview_and_so_may_the_source():
    source = Pieces(bytearray(GAMES[:12]), memoryview(GAMES[12:]))
    assert [len(game.moves) for game in notate.read_pgn(source)] == [2, 1]
    assert [len(game.moves) for game in notate.read_pgn(memoryview(GAMES))] == [2, 1]
    assert notate.convert(memoryview(GAMES), to="uci", from_="pgn") == "e2e4 e7e5\nd2d4\n"


def test_a_read_attribute_that_raises_is_the_cause():
    cause = RuntimeError("no read")

    class Broken:
        @property
        def read(self):
            raise cause

    with pytest.raises(notate.NotateError, match="no read") as raised:
        list(notate.read_pgn(Broken()))
    assert raised.value.__cause__ is cause


def test_a_column_asked_twice_is_refused():
    with pytest.raises(notate.NotateError, match='columns: "san" given twice'):
        notate.to_arrow("1. e4 *", columns=["san", "ply", "san"])


def test_numbers_read_from_json_are_the_doubles_written():
    # Doubles that serde_json's quick parsing rounded one ulp off (found by fuzzing).
    for x in (0.39217527067594915, 189.67303681636994, -9.039535415048791e166):
        long = notate.convert(f'w {{"x": {x!r}}} K5,1|k5,8', to="icn-json")
        assert long[0]["gameRules"]["x"] == x
