//! Standard chess (and Chess960): the game record, PGN, replay, and the formats built on them.
//!
//! Data flows one way: bytes → [`pgn`] reader → [`WrittenGame`] → [`replay`] →
//! [`ChessGame`] → a writer ([`pgn::PgnWriter`], [`write_uci`], [`write_positions`],
//! [`json`], [`egd`], [`tracks`], [`jsonchess`], [`rows`] for databases).

pub mod egd;
pub mod error;
pub mod game;
pub mod json;
pub mod jsonchess;
pub(crate) mod notation;
pub mod pgn;
mod positions;
pub(crate) mod replay;
pub mod rows;
pub mod san;
pub mod tracks;

pub use error::{FailedGame, GameError, Place};
pub use game::{
    format_clock, parse_clock, play, ChessGame, Comment, Eval, Game, GameResult, Line, MoveKind,
    Played, Ply, StartError, StartPosition, Tags, Written, WrittenGame,
};
pub use positions::{write_positions, write_uci, PositionFormat};
pub use replay::replay;
pub use san::{MoveSpec, SanError, SanText};

/// Reads and replays every game of a PGN string; the first failure is the error.
///
/// ```
/// let games = notate::chess::read_pgn_str("1. e4 e5 *\n\n1. d4 d5 *").unwrap();
/// assert_eq!(games.len(), 2);
/// ```
pub fn read_pgn_str(text: &str) -> Result<Vec<ChessGame>, FailedGame> {
    pgn::read_pgn_games(text)
        .into_iter()
        .map(|g| g.and_then(replay))
        .collect()
}
