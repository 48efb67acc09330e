//! Shogi: positions (SFEN), coordinates, full rules, and the common game-record formats.
//!
//! - [`Position`]: board, hands, side to move, ply; the rules ([`Position::play`] says why a
//!   move is illegal: two pawns, pawn-drop mate, dead piece, forced promotion);
//! - [`Square`]: internal `[row, col]`, `[file, rank]`, USI `7g`, KIF `７七`, CSA `77`;
//! - one module per format: [`sfen`] (positions, and lists of them), [`usi`], [`kif`],
//!   [`ki2`], [`csa`], [`western`], [`jkf`], and
//!   [`book`] for the seed app's opening books (what KIF and KI2 share, the Japanese move
//!   grammar, headers, diagrams and handicap presets, is the private module `japanese`);
//! - [`tracks`]: piece tracks, every piece named for its whole life (as for chess);
//! - [`encoding`]: Shift_JIS/UTF-8 detection.
//!
//! Every reader returns a [`Record`] whose moves are legal; every writer takes one. Every
//! format module has the same verbs (see [`crate::format`]); the options of every reader are
//! [`encoding::ReadOptions`] (also `kif::ReadOptions`, `csa::ReadOptions` …).
//!
//! ```
//! use notate::shogi::{csa, kif};
//! let record = kif::read_one("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n").unwrap();
//! let text = csa::to_string(&record).unwrap();
//! assert!(text.contains("PI\n+\n+7776FU\n-3334FU\n"));
//! ```

pub mod book;
pub mod csa;
pub mod encoding;
mod error;
mod japanese;
pub mod jkf;
pub mod ki2;
pub mod kif;
mod piece;
mod position;
mod record;
pub mod sfen;
mod square;
pub mod tracks;
pub mod usi;
pub mod view;
pub mod western;

pub use piece::{Color, Piece, PieceKind, ALL_KINDS, HAND_ORDER};
pub use position::{in_promotion_zone, is_dead_square, IllegalMove, Move, Played, Position};
pub use record::{
    Ending, EndingKind, MoveTime, Record, RecordMove, Variation, MAX_VARIATION_DEPTH,
};
pub use square::{CoordError, Square};
