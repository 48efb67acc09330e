"""notate.read_pgn against python-chess on every PGN file of ../shared/corpus/ (other
projects' files, which the repository never holds): run by scripts/shared-suites, after the
README's test command.

The two readers' games are paired by their tags (python-chess splits a file differently after
some errors, and merges tag-only blocks). For every pair that both read without an error,
each move's SAN, UCI, FEN before and after, and clock must be the same. The differences that
remain are counted and pinned, each with its reason, so that a change on either side shows:

- notate refuses the variants it does not play (Antichess, Crazyhouse);
- where a game fails, python-chess may cut the file into other games than notate does, and
  it makes one game of a run of tag-only blocks (scalachess's broadcast exports);
- python-chess reads a Latin-1 file as UTF-8 (the tags it pairs by are compared on their
  ASCII characters); notate tells the encoding.
"""

import difflib
import re
from pathlib import Path

import chess
import chess.pgn

import notate

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO.parent / "shared" / "corpus"


# python-chess's tags for a game without any (`Result` it takes from the movetext).
PLACEHOLDER_TAGS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}


def python_chess_games(path: Path, totals: dict):
    """python-chess's games of a file, as (tags, game, cut). python-chess ends a game at a
    blank line in or before its movetext (the PGN standard ends it at its result), and reads
    what follows as a game of its own, under placeholder tags. Such a piece is put back: as
    the game's moves when none came before it, else dropped, the game marked `cut` (only the
    moves before the blank line compare). Both are counted."""
    games = []
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            piece = {k: v for k, v in game.headers.items() if k != "Result"} == PLACEHOLDER_TAGS
            if piece and not game.errors and not list(game.mainline_moves()):
                # Text after a game's result, with no move in it.
                totals["pieces without moves"] += 1
                continue
            if piece and games and not games[-1][1].errors:
                tags, before, _ = games[-1]
                if not list(before.mainline_moves()):
                    games[-1] = (tags, game, False)
                    totals["moves after a blank line"] += 1
                else:
                    games[-1] = (tags, before, True)
                    totals["cut at a blank line"] += 1
                continue
            games.append((dict(game.headers), game, False))
    return games


def key(tags: dict) -> tuple:
    """A game's tags as the pairing compares them: unescaped, ASCII characters only, without
    `Result` and the placeholders python-chess gives a game for the Seven Tag Roster's tags
    it lacks."""
    plain = lambda v: re.sub(r"[^\x20-\x7e]", "", re.sub(r"\\(.)", r"\1", v))
    return tuple(sorted((k, plain(v)) for k, v in tags.items() if k != "Result" and v not in ("?", "????.??.??")))


def compare_file(path: Path, totals: dict, differences: dict, read_by_notate_only: list):
    ours = list(notate.read_pgn(path, errors="collect"))
    theirs = python_chess_games(path, totals)
    read = [g for g in ours if isinstance(g, notate.Game)]
    failed = (len(ours) - len(read), sum(bool(g.errors) for _, g, _ in theirs))
    # Paired by their tags; the games notate failed have none, and are counted above.
    matcher = difflib.SequenceMatcher(
        a=[key(g.tags) for g in read], b=[key(tags) for tags, _, _ in theirs], autojunk=False
    )
    pairs, unpaired = [], (0, 0)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            pairs += zip(range(a0, a1), range(b0, b1))
        else:
            unpaired = (unpaired[0] + a1 - a0, unpaired[1] + b1 - b0)
    if failed + unpaired != (0, 0, 0, 0):
        differences[path.name] = failed + unpaired
    for i, j in pairs:
        game, (_, reference, cut) = read[i], theirs[j]
        if reference.errors:
            read_by_notate_only.append(f"{path.name}: {game.tags.get('White')}: {reference.errors[0]}")
            continue
        if j > 0 and theirs[j - 1][1].errors:
            # After a game it fails, python-chess goes on at the next line it can read, which
            # may be inside this game: its copy of this game may start late.
            totals["after a python-chess failure"] += 1
            continue
        board = reference.board()
        where = (path.name, game.tags.get("White"))
        assert game.start == board.fen(), where
        nodes = list(reference.mainline())
        if cut:
            assert len(game.moves) > len(nodes), where
        else:
            assert len(game.moves) == len(nodes), where
        for move, node in zip(game.moves, nodes):
            at = (*where, move.ply)
            assert move.fen_before == board.fen(), at
            assert move.san == board.san(node.move), at
            assert move.uci == node.move.uci(), at
            board.push(node.move)
            assert move.fen == board.fen(), at
            assert move.clock == node.clock(), at
            totals["plies"] += 1
        totals["games"] += 1


def test_every_corpus_file_reads_as_python_chess_reads_it():
    assert CORPUS.is_dir(), f"{CORPUS} is missing: scripts/shared-suites needs ../shared beside the project"
    files = sorted(CORPUS.rglob("*.pgn"))
    assert len(files) == 76
    totals = dict.fromkeys(
        ["games", "plies", "after a python-chess failure", "moves after a blank line", "cut at a blank line", "pieces without moves"], 0
    )
    differences, read_by_notate_only = {}, []
    for path in files:
        compare_file(path, totals, differences, read_by_notate_only)
    assert totals == {
        "games": 11759,
        "plies": 754718,
        "after a python-chess failure": 12,
        "moves after a blank line": 1,
        "cut at a blank line": 3,
        "pieces without moves": 1,
    }
    # Files where the readers differ: (games notate failed, games python-chess failed, games
    # of notate's left unpaired, of python-chess's). notate refuses the variants it does not
    # play (antichess-programfox: Antichess; the two zh-lichess files: Crazyhouse). Failed
    # games have no tags to pair by: python-chess's count as unpaired. FWWRC and uzchesscup
    # are runs of tag-only blocks, which python-chess reads as one game; in
    # chessbase-empty-line, python-chess ends the first game at the empty line after its
    # tags and reads the rest under the second game's tags; in chessdoctor, python-chess's
    # fifth failure is a piece of a game it cut at a blank line; in europe_echecs, a game cut
    # short inside a comment swallows the next two games in python-chess, while notate ends
    # the comment at the next game's tags and reads them.
    assert differences == {
        "black2move.pgn": (1, 1, 0, 1),
        "antichess-programfox.pgn": (2, 0, 0, 2),
        "knightvuillaume-jannlee-zh-lichess.pgn": (1, 0, 0, 1),
        "saturs-jannlee-zh-lichess.pgn": (1, 0, 0, 1),
        "ambiguous.pgn": (1, 1, 0, 1),
        "chessdoctor.pgn": (4, 5, 0, 4),
        "europe_echecs.pgn": (2, 2, 2, 2),
        "hayes.pgn": (1, 1, 0, 1),
        "immortal_games.pgn": (4, 4, 0, 4),
        "perle.pgn": (1, 1, 0, 1),
        "chessbase-empty-line.pgn": (0, 0, 2, 1),
        "FWWRC.pgn": (0, 0, 604, 0),
        "uzchesscup.pgn": (0, 0, 45, 1),
        "GM_games.pgn": (0, 0, 1, 1),
        "d00_chess_informant.pgn": (0, 0, 1, 0),
        "hartwig.pgn": (0, 0, 1, 1),
    }
    # notate reads what python-chess does not: castling written `o-o-o` (W30), and
    # `18....g8-e7`, a move from square to square after four dots (W45).
    assert read_by_notate_only == [
        "chessdoctor.pgn: W30: no matching legal move for h8h7 (h8 -> h7) in "
        "r3kb1r/pppqppp1/3p1n1p/n7/5B1N/2NPP2b/PPPQBP1P/R3K1R1 w Qkq - 4 11",
        "chessdoctor.pgn: W45: no matching legal move for g8e7 (g8 -> e7) in "
        "r5nr/3k4/p2bpp1p/3p2p1/1P1N4/P3P2P/2PB1PP1/R3K2R w KQ - 0 18",
    ]
