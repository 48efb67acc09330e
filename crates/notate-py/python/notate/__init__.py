"""notate: read, check and convert chess game records, at the speed of notate's Rust library.

>>> import notate
>>> game = next(notate.read_pgn('[White "Morphy"]\\n\\n1. e4 {[%clk 0:03:00]} e5 *'))
>>> game.tags["White"], [m.san for m in game.moves], game.moves[0].clock
('Morphy', ['e4', 'e5'], 180.0)
"""

from ._notate import Game, GameError, Games, Move, NotateError, __version__, read_pgn

__all__ = ["Game", "GameError", "Games", "Move", "NotateError", "__version__", "read_pgn"]
