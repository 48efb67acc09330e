//! Infinite chess (infinitechess.org): ICN, its long JSON form, and replay.
//!
//! Its own model, independent of the chess core: the board is unbounded
//! ([`Coord`] holds exact integers of up to [`Int::MAX_DIGITS`] digits) and the pieces are fairy pieces ([`PieceKind`]).
//!
//! - [`short`]: ICN strings, both dialects (2024 reference, 2025 site converter);
//! - [`long`]: the long JSON form, with the reference's key order, and legacy move objects;
//!
//! both with the verbs of every format module (see [`crate::format`]);
//! - [`replay`]: the position after N plies.
//!
//! ```
//! use notate::infinite::{long, short};
//! let game = short::read_one("w K5,1|k5,8 5,1>5,2").unwrap();
//! let json = long::to_string(&game).unwrap();
//! assert!(json.contains("\"moves\": [\n    \"5,1>5,2\"\n  ]"));
//! ```

mod coord;
mod error;
mod game;
pub mod long;
mod piece;
pub mod replay;
pub mod short;
pub mod tracks;
pub mod view;

pub use coord::{Coord, Int, ParseIntError};

pub use game::{
    Game, Layout, Move, MoveNotes, MoveRule, Position, Presets, PromotionRule, Promotions, Ray,
    RuleKey, TopKey, WinCondition, WinConditions, WorldBorder,
};
pub use piece::{Piece, PieceKind, Player};
