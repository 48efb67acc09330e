"""notate: read, check and convert chess game records, at the speed of notate's Rust library.

>>> import notate
>>> game = next(notate.read_pgn('[White "Morphy"]\\n\\n1. e4 {[%clk 0:03:00]} e5 *'))
>>> game.tags["White"], [m.san for m in game.moves], game.moves[0].clock
('Morphy', ['e4', 'e5'], 180.0)
"""

from ._notate import (
    Game,
    GameError,
    Games,
    GameWarning,
    Move,
    NotateError,
    __version__,
    _arrow_batches,
    convert,
    load,
    read_pgn,
)

__all__ = [
    "Game",
    "GameError",
    "GameWarning",
    "Games",
    "Move",
    "NotateError",
    "__version__",
    "convert",
    "load",
    "read_pgn",
    "to_arrow",
]


def to_arrow(source, table="moves", columns=None, *, errors="raise", threads=None):
    """The `games` or `moves` table of a PGN source as a `pyarrow.RecordBatchReader`, with
    exactly the columns (names, types, nullability) of `notate load`'s tables, `year` and
    `month` included; `columns` picks some of them, in the order given.

    Rows and Arrow columns are built on `threads` threads (1 to 256; default: every core), without
    the GIL; each batch reaches pyarrow through the Arrow C data interface, without a copy.
    pandas (`reader.read_pandas()`), polars (`polars.from_arrow(reader.read_all())`) and
    DuckDB (`duckdb.sql("SELECT ... FROM reader")`) read it directly.

    A bad game raises `GameError` where its rows would be; with `errors="warn"` it is
    reported by `warnings.warn` (category `GameWarning`) and left out. What reading skipped
    without failing a game (a token that is no move) is reported the same way, before the
    batch that holds the game.

    >>> import notate
    >>> moves = notate.to_arrow("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0").read_all()
    >>> moves.num_rows, moves.column("san")[-1].as_py(), moves.column("is_checkmate")[-1].as_py()
    (7, 'Qxf7#', True)
    """
    import pyarrow

    batches = _arrow_batches(source, table, columns, errors, threads)
    return pyarrow.RecordBatchReader.from_batches(batches.schema, batches)
