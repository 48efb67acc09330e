"""notate.read_pgn: games, moves, comments, clocks and errors, checked against python-chess on
the repository's EGD vectors and on texts written here."""

import bz2
import contextlib
import gzip
import io
import os
import re
import threading
import time
import warnings
from pathlib import Path

import chess
import chess.pgn
import pytest
import zstandard

import notate
from conftest import generated_pgn

TWO_GAMES = '[White "A"]\n\n1. e4 e5 2. Nf3 *\n\n[White "B"]\n\n1. d4 {[%clk 0:01:02.5]} d5 1-0\n'


def python_chess_games(path: Path):
    games = []
    with open(path, encoding="utf-8-sig") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    return games


def test_every_legal_vector_game_has_python_chess_moves_and_positions(egd_vectors):
    compared_games = compared_plies = 0
    for path in sorted(egd_vectors.glob("*.pgn")):
        ours = list(notate.read_pgn(path, errors="collect"))
        theirs = [g for g in python_chess_games(path) if g.mainline_moves() or g.headers]
        good = [(o, t) for o, t in zip(ours, theirs) if isinstance(o, notate.Game) and not t.errors]
        for game, reference in good:
            board = reference.board()
            nodes = list(reference.mainline())
            assert len(game.moves) == len(nodes), path.name
            for move, node in zip(game.moves, nodes):
                assert move.fen_before == board.fen(), (path.name, move.ply)
                assert move.san == board.san(node.move), (path.name, move.ply)
                assert move.uci == node.move.uci(), (path.name, move.ply)
                board.push(node.move)
                assert move.fen == board.fen(), (path.name, move.ply)
                assert move.clock == node.clock(), (path.name, move.ply)
                compared_plies += 1
            assert game.start == reference.board().fen()
            compared_games += 1
    # Every game both read: the c* vectors (legal games) and the e* ones python-chess reads.
    assert (compared_games, compared_plies) == (35, 374)


def test_generated_games_have_python_chess_moves_and_positions(tmp_path):
    """The repository's generated games (crates/notate-testdata: Chess960 and FEN starts,
    castling both ways, en passant, under-promotions, null moves, spellings that are not SAN,
    clocks, evals, mates) read by both, their main lines compared move by move."""
    path = tmp_path / "generated.pgn"
    path.write_bytes(generated_pgn(7, 300))
    ours = list(notate.read_pgn(path, errors="collect"))
    theirs = python_chess_games(path)
    assert len(ours) == len(theirs) == 300
    seen = dict.fromkeys(["chess960", "fen", "null", "underpromotion", "castling", "en passant", "eval", "mate"], 0)
    plies = 0
    for game, reference in zip(ours, theirs):
        assert isinstance(game, notate.Game), game
        assert not reference.errors, reference.errors
        # python-chess keeps a tag's escapes (`\\"`, `\\\\`); the PGN standard's values are without.
        assert game.tags == {k: re.sub(r"\\(.)", r"\1", v) for k, v in reference.headers.items()}
        board = reference.board()
        assert game.start == board.fen()
        seen["chess960"] += board.chess960
        seen["fen"] += "FEN" in reference.headers
        nodes = list(reference.mainline())
        assert len(game.moves) == len(nodes)
        for move, node in zip(game.moves, nodes):
            where = (game.tags.get("Event"), move.ply)
            assert move.fen_before == board.fen(), where
            assert move.san == board.san(node.move), where
            assert move.uci == node.move.uci(), where
            seen["null"] += not node.move
            seen["underpromotion"] += node.move.promotion not in (None, chess.QUEEN)
            seen["castling"] += bool(node.move) and board.is_castling(node.move)
            seen["en passant"] += bool(node.move) and board.is_en_passant(node.move)
            board.push(node.move)
            assert move.fen == board.fen(), where
            assert move.clock == node.clock(), where
            score = node.eval() and node.eval().white()
            assert move.eval == (None if not score or score.is_mate() else score.score() / 100), where
            assert move.mate == (score.mate() if score and score.is_mate() else None), where
            seen["eval"] += move.eval is not None
            seen["mate"] += move.mate is not None
            plies += 1
    assert all(seen.values()), seen
    assert plies == 25_896, plies


def test_tags_result_comments_nags_and_variations(egd_vectors):
    (game,) = notate.read_pgn(egd_vectors / "c10_annotated_nags_variations.pgn")
    (reference,) = python_chess_games(egd_vectors / "c10_annotated_nags_variations.pgn")
    assert game.tags == dict(reference.headers)
    assert game.result == reference.headers["Result"]
    for move, node in zip(game.moves, reference.mainline()):
        # python-chess keeps a set; notate every glyph in order (`Bxd1?? $4` is [4, 4]).
        assert sorted(set(move.nags)) == sorted(node.nags)
        assert " ".join(c.strip() for c in move.comments) == node.comment.strip()
        # notate's variations of a move are its alternatives: python-chess's other children of
        # the node before it.
        assert [[m.uci for m in v] for v in move.variations] == [
            [alternative.move.uci()] + [n.move.uci() for n in alternative.mainline()]
            for alternative in node.parent.variations[1:]
        ]
    assert sum(len(m.variations) for m in game.moves) > 0
    assert [m.nags for m in game.moves if m.nags] == [[6], [2], [3], [4, 4], [1]]


def test_clock_eval_and_mate_from_comment_commands():
    text = "1. e4 {[%eval 0.17] [%clk 0:03:00]} e5 {[%eval #-3] [%emt 0:00:01.5]} *"
    (game,) = notate.read_pgn(text)
    e4, e5 = game.moves
    assert (e4.eval, e4.mate, e4.clock, e4.emt) == (0.17, None, 180.0, None)
    assert (e5.eval, e5.mate, e5.clock, e5.emt) == (None, -3, None, 1.5)


def test_a_bad_game_raises_its_place_and_reading_goes_on(egd_vectors):
    text = TWO_GAMES.replace("2. Nf3", "2. Nf6")
    games = notate.read_pgn(text)
    with pytest.raises(notate.GameError) as raised:
        next(games)
    error = raised.value
    assert (error.kind, error.line, error.column, error.game, error.ply, error.token) == (
        "illegal", 3, 13, 1, 3, "Nf6"
    )
    assert str(error).startswith("game 1, line 3, column 13, ply 3")
    assert isinstance(error, notate.NotateError)
    assert next(games).tags == {"White": "B"}
    with pytest.raises(StopIteration):
        next(games)

    collected = list(notate.read_pgn(egd_vectors / "e03_illegal_move.pgn", errors="collect"))
    assert len(collected) == 1 and isinstance(collected[0], notate.GameError)
    assert (collected[0].line, collected[0].column, collected[0].ply) == (4, 13, 3)


def test_every_kind_of_source_gives_the_same_games(tmp_path):
    want = [[m.uci for m in g.moves] for g in notate.read_pgn(TWO_GAMES)]
    assert want == [["e2e4", "e7e5", "g1f3"], ["d2d4", "d7d5"]]
    data = TWO_GAMES.encode()
    files = {
        "games.pgn": data,
        "games.pgn.gz": gzip.compress(data),
        "games.pgn.bz2": bz2.compress(data),
        "games.pgn.zst": zstandard.ZstdCompressor().compress(data),
    }
    sources = [data, bytearray(data), io.BytesIO(data)]
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
        sources += [tmp_path / name, str(tmp_path / name)]
        # Compressed bytes, file objects and misnamed files are told by their first bytes.
        if content != data:
            misnamed = tmp_path / f"{name.split('.')[-1]}-inside.pgn"
            misnamed.write_bytes(content)
            sources += [content, io.BytesIO(content), misnamed]
    for source in sources:
        got = [[m.uci for m in g.moves] for g in notate.read_pgn(source)]
        assert got == want, source


def test_a_file_named_compressed_that_is_not_is_refused(tmp_path):
    plain = tmp_path / "games.pgn.gz"
    plain.write_bytes(TWO_GAMES.encode())
    with pytest.raises(OSError, match="not gzip data"):
        notate.read_pgn(plain)


def test_a_file_object_is_read_in_pieces():
    class Trickle(io.RawIOBase):
        """Gives at most 7 bytes per read."""

        def __init__(self, data: bytes):
            self.data = io.BytesIO(data)

        def readable(self):
            return True

        def read(self, n=-1):
            return self.data.read(min(n, 7) if n and n > 0 else 7)

    got = [g.tags for g in notate.read_pgn(Trickle(TWO_GAMES.encode()))]
    assert got == [{"White": "A"}, {"White": "B"}]


def test_bad_sources_and_arguments_raise_notate_errors(tmp_path):
    with pytest.raises(OSError):
        notate.read_pgn(tmp_path / "missing.pgn")
    with pytest.raises(OSError):
        notate.read_pgn("missing.pgn.zst")
    with pytest.raises(IsADirectoryError):
        notate.read_pgn(tmp_path)
    with pytest.raises(IsADirectoryError):
        notate.read_pgn(str(tmp_path))
    with pytest.raises(notate.NotateError):
        notate.read_pgn(42)
    with pytest.raises(notate.NotateError):
        notate.read_pgn("1. e4 *", errors="ignore")
    # A text-mode file gives str: an error that says so, not a crash.
    (tmp_path / "t.pgn").write_text(TWO_GAMES)
    with open(tmp_path / "t.pgn") as text_file:
        with pytest.raises(notate.GameError, match="binary mode"):
            list(notate.read_pgn(text_file))
    # A lone surrogate is no Unicode text: notate's error, not UnicodeEncodeError.
    for call in (notate.read_pgn, notate.to_arrow, lambda s: notate.convert(s, to="uci")):
        with pytest.raises(notate.NotateError, match="lone surrogate"):
            call("1. e4 \ud800 *")
    # threads: 1 to 256, else notate's error (not OverflowError, TypeError, a panic, or a
    # million threads started).
    for threads in (0, -1, 257, 2**62, 2**70, 2.5, "2"):
        for call in (notate.read_pgn, notate.to_arrow):
            with pytest.raises(notate.NotateError, match="threads: a whole number from 1 to 256"):
                call("1. e4 *", threads=threads)
    assert len(list(notate.read_pgn("1. e4 *", threads=256))) == 1


def test_a_file_object_with_no_data_yet_is_an_error_not_the_end():
    """A non-blocking stream's read() gives None for "nothing yet": reading on as if it
    were the end would cut the input short in silence."""

    class NonBlocking(io.RawIOBase):
        def __init__(self):
            self.calls = 0

        def readable(self):
            return True

        def read(self, n=-1):
            self.calls += 1
            return b"1. e4 e5 *\n\n" if self.calls == 1 else None

    # The game read before it ended with its result and a line break: whole, given first.
    game, error = list(notate.read_pgn(NonBlocking(), errors="collect"))
    assert [m.san for m in game.moves] == ["e4", "e5"]
    assert isinstance(error, notate.GameError)
    assert "gave None" in str(error) and "non-blocking" in str(error)


class FailingAfter(io.RawIOBase):
    """A binary source that gives `data`, then fails its next read with "disk gone"."""

    def __init__(self, data):
        self.data = data

    def readable(self):
        return True

    def read(self, n=-1):
        if not self.data:
            raise ValueError("disk gone")
        chunk, self.data = self.data[:n], self.data[n:]
        return chunk


def test_the_games_read_before_a_failing_read_come_first():
    for threads in (1, 2):
        failing = FailingAfter(b"1. e4 e5 *\n\n" * 10 + b"1. d4 d5 2. c4")
        read = list(notate.read_pgn(failing, errors="collect", threads=threads))
        assert [isinstance(g, notate.Game) for g in read] == [True] * 10 + [False]
        assert "disk gone" in str(read[-1])


def test_a_game_error_made_by_hand_has_every_field():
    error = notate.GameError("by hand")
    for field in ("kind", "message", "line", "column", "offset", "game", "ply", "token"):
        assert getattr(error, field) is None, field
    (read,) = list(notate.read_pgn("1. e4 e5 2. Ke3 *", errors="collect"))
    assert (read.kind, read.line, read.column, read.ply) == ("illegal", 1, 13, 3)


def test_ctrl_c_in_a_file_objects_read_is_keyboard_interrupt(tmp_path):
    class Interrupted(io.RawIOBase):
        def readable(self):
            return True

        def read(self, n=-1):
            raise KeyboardInterrupt

    def loop(source):
        for _ in notate.read_pgn(source):
            pass

    works = [
        lambda source: next(notate.read_pgn(source)),
        lambda source: list(notate.read_pgn(source, errors="collect")),
        loop,
        lambda source: notate.convert(source, to="uci", from_="pgn"),
        lambda source: notate.load(source, str(tmp_path / "games.sqlite")),
        lambda source: notate.to_arrow(source).read_all(),
    ]
    for number, work in enumerate(works):
        # Raised as itself, once: not a failed game first (and the interrupt later, outside
        # the caller's try).
        seen = []
        try:
            try:
                work(Interrupted())
            except KeyboardInterrupt:
                seen.append("interrupt")
            except notate.NotateError as e:
                seen.append(f"notate's error: {e!r}")
            time.sleep(0.05)
        except KeyboardInterrupt:
            seen.append("a second interrupt")
        assert seen == ["interrupt"], number


def _read_all(source, tmp_path):
    for _ in notate.read_pgn(source):
        pass


def _to_arrow(source, tmp_path):
    notate.to_arrow(source).read_all()


def _load(source, tmp_path):
    notate.load(source, str(tmp_path / "games.sqlite"))


def _convert(source, tmp_path):
    notate.convert(source, to="uci", from_="pgn")


@contextlib.contextmanager
def _silent_pipe():
    """A pipe whose writer says one game, then nothing: Ctrl-C is simulated after 0.3 s.
    Were Ctrl-C not noticed, the input ends after 10 s. Gives both ends' descriptors."""
    import _thread

    read_end, write_end = os.pipe()
    os.write(write_end, b'[White "x"]\n\n1. e4 *\n\n')
    ctrl_c = threading.Timer(0.3, _thread.interrupt_main)
    closed = []

    def end_input():
        os.close(write_end)
        closed.append(True)

    ender = threading.Timer(10, end_input)
    ctrl_c.start()
    ender.start()
    try:
        yield read_end, write_end
    finally:
        ctrl_c.cancel()
        ender.cancel()
        ender.join()
        if not closed:
            os.close(write_end)
        os.close(read_end)


@pytest.mark.parametrize("work", [_read_all, _to_arrow, _load, _convert])
def test_ctrl_c_while_the_source_is_silent_is_keyboard_interrupt(work, tmp_path):
    # The wait for the next game notices Ctrl-C at once, not when the next bytes come (the
    # input's end, after 10 s, would fail the time below).
    started = time.monotonic()
    with _silent_pipe() as (read_end, _):
        with os.fdopen(read_end, "rb", buffering=0, closefd=False) as silent:
            with pytest.raises(KeyboardInterrupt):
                work(silent, tmp_path)
        assert time.monotonic() - started < 3
    if work is _load:
        # The interrupted load gave its database back whole: a load after it works.
        assert notate.load("1. d4 *", str(tmp_path / "games.sqlite"))["games"] == 1


def test_ctrl_c_stops_a_long_conversion_before_its_end():
    import _thread

    # 22 MB: a second or two of FENs after every move (text, so no list to make after).
    text = "\n\n".join(['[White "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *'] * 400000)
    # The time of the whole, at its shortest (the first run also faults its memory in).
    whole = float("inf")
    for _ in range(2):
        started = time.monotonic()
        fens = notate.convert(text, to="fen")
        whole = min(whole, time.monotonic() - started)
    assert fens.count("\n") == 400000 * 10  # the start and 8 moves, and a blank line
    del fens
    fired = []

    def ctrl_c():
        fired.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(whole / 4, ctrl_c)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            notate.convert(text, to="fen")
        # Stopped before the next game, not at the end: the rest of the conversion took
        # three quarters of `whole`; signals are looked at every tenth of a second.
        assert time.monotonic() - fired[0] < 0.5, whole
    finally:
        timer.cancel()


def test_an_interrupted_convert_reads_its_source_no_more():
    with _silent_pipe() as (read_end, write_end):
        with os.fdopen(read_end, "rb", buffering=0, closefd=False) as silent:
            with pytest.raises(KeyboardInterrupt):
                notate.convert(silent, to="uci", from_="pgn")
        # The read under way when Ctrl-C came takes what comes next; then no more is read,
        # and what the writer says after is left for the caller (had the input ended, the
        # writes would fail).
        os.write(write_end, b"taken by the read under way")
        time.sleep(0.3)
        os.write(write_end, b"left")
        time.sleep(0.3)
        os.set_blocking(read_end, False)
        assert os.read(read_end, 100) == b"left"


def test_an_unknown_column_is_none():
    # A CSA move that cannot be played is placed at its line only (KIF's and KI2's at their
    # column too).
    with pytest.raises(notate.GameError) as raised:
        notate.convert("PI\n+\n+5554FU\n".encode(), to="usi", from_="csa")
    assert (raised.value.line, raised.value.column, raised.value.ply) == (3, None, 1)
    with pytest.raises(notate.GameError) as raised:
        notate.convert("   1 ５五歩(57)\n".encode(), to="usi", from_="kif")
    assert (raised.value.line, raised.value.column, raised.value.ply) == (1, 6, 1)
    # Bytes that are not text are placed at their column.
    with pytest.raises(notate.GameError) as raised:
        notate.convert(b"\xff\xff\n", to="usi", from_="kif")
    assert (raised.value.line, raised.value.column) == (1, 1)


def test_other_threads_run_while_games_are_read():
    text = "\n\n".join(['[White "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *'] * 20000)
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        assert sum(1 for _ in notate.read_pgn(text)) == 20000
    finally:
        done.set()
        counter.join()
    assert ticks > 0


def _count_games(text, queue):
    queue.put(sum(1 for _ in notate.read_pgn(text, threads=2)))


def test_a_forked_child_reads_after_its_parent_has_read():
    # The parent's reading threads wait for the next job; a child made by fork has none of
    # them, and must start its own (a job sent to one of the parent's would never run).
    import multiprocessing

    text = "\n\n".join(['[White "x"]\n\n1. e4 e5 2. Nf3 Nc6 *'] * 3000)
    assert sum(1 for _ in notate.read_pgn(text, threads=2)) == 3000
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_count_games, args=(text, queue))
    with warnings.catch_warnings():
        # Python 3.12+ warns that forking a process with threads may deadlock.
        warnings.simplefilter("ignore", DeprecationWarning)
        child.start()
    child.join(timeout=60)
    alive = child.is_alive()
    if alive:
        child.kill()
    assert not alive, "the child never finished reading"
    assert child.exitcode == 0 and queue.get(timeout=5) == 3000


def test_moves_are_made_once_and_repr_is_useful():
    (game,) = notate.read_pgn('[White "W"]\n[Black "B"]\n\n1. e4 e5 1-0')
    assert game.moves == game.moves and game.moves[1] is game.moves[1]
    assert repr(game) == "<notate.Game W - B 1-0, 2 plies>"
    assert repr(game.moves[1]) == "<notate.Move 2 e5>" and str(game.moves[0]) == "e4"
    # Each call's list is the caller's own: changing one changes no other.
    game.moves.clear()
    assert len(game.moves) == 2


def test_any_number_of_threads_gives_the_same_games_in_order():
    games = [f'[Round "{i}"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a{6 - i % 2} *' for i in range(5000)]
    games[1234] = '[Round "bad"]\n\n1. e4 Ke7 *'
    text = "\n\n".join(games)

    def read(threads):
        return [
            (g.tags["Round"], [m.uci for m in g.moves])
            if isinstance(g, notate.Game)
            else (g.game, g.ply, g.line)
            for g in notate.read_pgn(text, errors="collect", threads=threads)
        ]

    one = read(1)
    assert len(one) == 5000 and one[1234] == (1235, 2, 1234 * 4 + 3)
    assert one[4999] == ("4999", ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a5"])
    assert read(2) == one and read(5) == one
    with pytest.raises(notate.NotateError):
        notate.read_pgn(text, threads=0)


def comments_of_line(moves):
    """Per move: its comments' texts, clock (ms), NAGs and the same of its variations."""
    return [
        (
            m.comments,
            None if m.clock is None else round(m.clock * 1000),
            m.nags,
            [comments_of_line(v) for v in m.variations],
        )
        for m in moves
    ]


def comments_of_json_line(moves):
    """The same, from a game of `convert(..., to="json")` (comments read with the game)."""
    def clock(m):
        clocks = [c["clock"] for c in m.get("comments", []) if "clock" in c]
        return clocks[-1] if clocks else None

    return [
        (
            [c["text"] for c in m.get("comments", [])],
            clock(m),
            m.get("nags", []),
            [comments_of_json_line(v["moves"]) for v in m.get("variations", [])],
        )
        for m in moves
    ]


# The tricky text's nested braces and `%x` are warned of (tests/test_warnings.py checks them).
@pytest.mark.filterwarnings("ignore::notate.GameWarning")
def test_comments_read_on_demand_are_those_read_with_the_game(egd_vectors):
    # Games are read without their comments and read again for them when asked: every
    # vector game's comments, clocks, NAGs and variations equal those of the JSON writer,
    # which reads them with the game.
    tricky = (
        b'[White "x"]\n\n{before} 1. e4 {a {nested} b} ; to the line end\n'
        b"e5 {caf\xe9 [%clk 0:00:09.5]} (1... c5 {v1} (1... e6 {v2}) 2. Nf3) 2. Nf3 $1 {x} {y} "
        b"1-0 {after}\n\n%escaped line\n{first} 1. d4 {[%eval #-3] [%emt 0:00:02]} *\n"
        # A `%` in mid-line is not an escape: read again, the game must start as it did.
        b"\n1. e4 1-0 %x 1. d4 {seen} *\n"
    )
    sources = sorted(egd_vectors.glob("*.pgn")) + [tricky]
    compared = 0
    for source in sources:
        name = getattr(source, "name", "tricky")
        ours = [g for g in notate.read_pgn(source, errors="collect") if isinstance(g, notate.Game)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", notate.GameWarning)
            theirs = notate.convert(source, to="json", from_="pgn", errors="warn")
        assert len(ours) == len(theirs), name
        for game, reference in zip(ours, theirs):
            assert game.comments == [c["text"] for c in reference.get("comments", [])]
            assert game.final_comments == [c["text"] for c in reference.get("final_comments", [])]
            assert comments_of_line(game.moves) == comments_of_json_line(reference["moves"]), name
            compared += 1
    assert compared == 39
    (first, second, _, fourth) = notate.read_pgn(tricky)
    assert fourth.moves[0].comments == ["seen"]
    assert first.moves[0].comments == ["a {nested} b", " to the line end"]
    assert first.moves[1].comments[0] == "café [%clk 0:00:09.5]"
    assert first.moves[1].variations[0][0].variations[0][0].comments == ["v2"]
    assert second.moves[0].mate == -3 and second.moves[0].emt == 2.0


@contextlib.contextmanager
def _open_pipe():
    """A pipe the test writes into as it goes: the read end as a buffered binary file (as
    `sys.stdin.buffer` is), and a function that writes bytes. Closed whatever happens."""
    read_end, write_end = os.pipe()
    closed = []

    def close():
        if not closed:
            closed.append(True)
            os.close(write_end)

    with os.fdopen(read_end, "rb") as source:
        try:
            yield source, (lambda data: os.write(write_end, data)), close
        finally:
            close()


def _next_within(games, seconds=30):
    """The next game, which must come while the pipe is still open."""
    got = []
    reader = threading.Thread(target=lambda: got.append(next(games)), daemon=True)
    reader.start()
    reader.join(seconds)
    assert got, "no game while the pipe is open"
    return got[0]


def test_a_pipes_games_come_at_its_pauses():
    with _open_pipe() as (source, write, close):
        games = notate.read_pgn(source)
        write(b'[White "a"]\n\n1. e4 e5 1-0\n\n[White "b"]\n\n1. d4')
        assert [m.san for m in _next_within(games).moves] == ["e4", "e5"]
        # A note after a result, sent later, stays with its game.
        write(b" *\n")
        write(b"{a note}\n\n1. c4 *\n")
        second = _next_within(games)
        assert second.tags == {"White": "b"} and second.final_comments == ["a note"]
        close()
        assert [[m.san for m in g.moves] for g in games] == [["c4"]]


def test_live_gives_a_game_once_its_result_came():
    with _open_pipe() as (source, write, close):
        games = notate.read_pgn(source, live=True)
        write(b'[White "a"]\n\n1. e4 e5 1-0\n')
        assert [m.san for m in _next_within(games).moves] == ["e4", "e5"]
        write(b'\n[White "a"]\n\n1. e4 e5 2. Nf3')
        write(b" *\n")
        assert len(_next_within(games).moves) == 3
        close()
        assert list(games) == []
    with pytest.raises(notate.NotateError, match="live is True or False, not str"):
        notate.read_pgn("1. e4 *", live="yes")
    # Text and files read as ever: live changes nothing when nothing pauses.
    assert len(list(notate.read_pgn(TWO_GAMES, live=True))) == 2
