//! Standard chess (and Chess960): the game record, PGN, replay, and the formats built on them.
//!
//! Data flows one way: bytes → [`pgn`] reader → [`WrittenGame`] → [`replay`] →
//! [`ChessGame`] → a writer. Every format module has the same verbs (see [`crate::format`]):
//! [`pgn`], [`json`], [`egd`] and [`jsonchess`] read and write; [`tracks`], [`uci`] and
//! [`positions`] write; [`rows`] turns games into table rows for databases.
//!
//! ```
//! use notate::chess::{pgn, uci};
//! let game = pgn::read_one("[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 *").unwrap();
//! assert_eq!(uci::to_string(&game).unwrap(), "e2e4 e7e5 g1f3 d7d6\n");
//! ```

pub mod egd;
pub mod error;
pub mod game;
pub mod json;
pub mod jsonchess;
pub(crate) mod notation;
pub mod pgn;
pub mod positions;
pub(crate) mod replay;
pub mod rows;
pub mod san;
pub mod tracks;
pub mod uci;
pub mod view;

pub use error::FailedGame;
pub use game::{
    format_clock, parse_clock, play, ChessGame, Comment, Eval, Game, GameResult, Line, MoveKind,
    Played, Ply, StartError, StartPosition, Tags, ThinVec, Written, WrittenGame,
};
pub use replay::replay;
pub use san::{MoveSpec, SanError, SanText};
