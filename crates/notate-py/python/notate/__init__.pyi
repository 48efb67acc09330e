"""Type stubs of notate (the extension module `notate._notate`)."""

import os
from typing import TYPE_CHECKING, BinaryIO, Iterator, List, Literal, Optional, Sequence, TypedDict, Union

if TYPE_CHECKING:
    import pyarrow

__version__: str

Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]", "os.PathLike[bytes]", BinaryIO]

class NotateError(Exception):
    """Everything notate refuses: a bad argument, an unreadable source, a bad game."""

class GameError(NotateError):
    """A game that cannot be read or replayed, with its place (1-based, as the command line
    prints it); each field is None when unknown (and every one on a GameError made by
    hand)."""

    kind: Optional[str]
    message: Optional[str]
    line: Optional[int]
    column: Optional[int]
    offset: Optional[int]
    game: Optional[int]
    ply: Optional[int]
    token: Optional[str]

class GameWarning(UserWarning):
    """What reading skipped without failing a game (a token that is no move), reported by
    `read_pgn`, `to_arrow`, `load` and `convert`; or a bad game left out by
    `to_arrow(..., errors="warn")` or `convert(..., errors="warn")`. Its text is the command line's message, with the place."""

class Move:
    """One move of a line; SAN, UCI and FEN are computed when asked."""

    @property
    def san(self) -> str:
        """Canonical SAN with its check or mate mark (`--` for a null move)."""
    @property
    def written(self) -> str:
        """The move as the file wrote it (`e2-e4`, `0-0`)."""
    @property
    def uci(self) -> str:
        """UCI (`e2e4`, `e7e8q`, `0000` for a null move)."""
    @property
    def fen(self) -> str:
        """The FEN of the position after the move."""
    @property
    def fen_before(self) -> str:
        """The FEN of the position before the move."""
    @property
    def ply(self) -> int:
        """1-based ply of the move in its line."""
    @property
    def nags(self) -> list[int]:
        """Numeric annotation glyphs."""
    @property
    def comments(self) -> list[str]:
        """The comments after the move, as written."""
    @property
    def clock(self) -> Optional[float]:
        """`[%clk]`: the mover's remaining time, in seconds."""
    @property
    def emt(self) -> Optional[float]:
        """`[%emt]`: the time the move took, in seconds."""
    @property
    def eval(self) -> Optional[float]:
        """`[%eval]` in pawns from White's side (None for a mate score)."""
    @property
    def mate(self) -> Optional[int]:
        """`[%eval #n]`: mate in n moves, negative when Black mates."""
    @property
    def variations(self) -> list[list["Move"]]:
        """The alternatives to this move, each from the position before it."""

class Game:
    """A game read and replayed."""

    @property
    def tags(self) -> dict[str, str]:
        """The tags, in file order."""
    @property
    def moves(self) -> list[Move]:
        """The moves of the main line."""
    @property
    def uci_moves(self) -> list[str]:
        """The UCI of every move of the main line, built at once (no Move objects)."""
    @property
    def san_moves(self) -> list[str]:
        """The canonical SAN of every move of the main line, built at once."""
    @property
    def fens(self) -> list[str]:
        """The FEN after every move of the main line, built at once."""
    @property
    def result(self) -> Optional[str]:
        """`1-0`, `0-1`, `1/2-1/2` or `*` from the movetext, else the `Result` tag."""
    @property
    def start(self) -> str:
        """The FEN of the position the game starts from."""
    @property
    def comments(self) -> list[str]:
        """The comments before the first move."""
    @property
    def final_comments(self) -> list[str]:
        """The comments after the result."""

class Games(Iterator[Union[Game, GameError]]):
    """The games of a source, one at a time."""

    def __iter__(self) -> "Games": ...
    def __next__(self) -> Union[Game, GameError]: ...

def read_pgn(
    source: Source,
    *,
    errors: Literal["raise", "collect"] = "raise",
    threads: Optional[int] = None,
    live: bool = False,
) -> Games:
    """The games of a PGN source, in order: text, bytes, a binary file object or a path
    (`.pgn`, `.pgn.zst`, `.gz`, `.bz2`), read ahead on `threads` threads (1 to 256;
    default: every core) without the GIL. A bad game raises GameError (iterating again goes on); with
    `errors="collect"` it is given in the game's place. What reading skipped without failing
    a game is reported by `warnings.warn` (GameWarning) as the game is given. A file object's
    games are given at each pause of its bytes; `live=True` gives a game at a pause once its
    result came (a broadcast's)."""

def to_arrow(
    source: Source,
    table: Literal["games", "moves"] = "moves",
    columns: Optional[Sequence[str]] = None,
    *,
    errors: Literal["raise", "warn"] = "raise",
    threads: Optional[int] = None,
) -> "pyarrow.RecordBatchReader":
    """The `games` or `moves` table of a PGN source as a `pyarrow.RecordBatchReader` with
    the columns of `notate load`'s tables (`columns` picks some). Built on every core;
    batches reach pyarrow through the Arrow C data interface."""

class LoadResult(TypedDict):
    games: int
    known: int
    moves: int
    errors: List[GameError]
    warnings: int

def load(
    source: Source,
    db: Union[str, "os.PathLike[str]"],
    *,
    errors: Literal["raise", "collect"] = "raise",
    threads: Optional[int] = None,
) -> LoadResult:
    """Loads the games of a PGN source into `db` as `notate load --db` does (a SQLite path,
    `postgres://…`, `parquet:DIR`); games already stored are not added again, and a game
    whose id a different game stored before has (64-bit hashes) is not stored: a GameError
    of kind `id-clash` with no place, raised once the load is committed or, with
    errors="collect", listed after the bad games. An error that ends the load carries the
    failures found before it in `__notes__`. Rows are
    built on `threads` threads (1 to 256; default: every core). Ctrl-C stops the load after
    the batch in hand, which is committed whole, and raises KeyboardInterrupt. What reading
    skipped without failing a game is reported by `warnings.warn` (GameWarning) once the
    load has ended (at most 10,000, then their count); `warnings` in the result counts it."""

def convert(
    data: Source,
    to: str,
    *,
    from_: Optional[str] = None,
    errors: Literal["raise", "warn"] = "raise",
    **options: Union[bool, str, float],
) -> Union[str, List[dict]]:
    """Converts every game of `data` to the format `to` (a name of the command line's
    `--to`); the input format is `from_`, else told by the path's name or the first bytes.
    JSON formats (json, egd, tracks, jsonchess, icn-json, jkf) give a dict per game, the
    others the text. Options by the command line's names in snake case (`egd_extended`,
    `moves`, `dialect`, `csa_version` …)."""
