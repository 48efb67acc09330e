//! notate reads, checks, converts and stores the game records of chess-family games.
//!
//! This crate is the library: no I/O beyond `Read`/`Write`, one module per game family.
//! The `notate` command (crate `notate-cli`) adds the command line and the parallel pipeline.
//!
//! ```
//! use notate::chess::{read_pgn_str, write_uci};
//! let games = read_pgn_str("[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 *").unwrap();
//! let mut uci = String::new();
//! write_uci(&games[0], &mut uci);
//! assert_eq!(uci, "e2e4 e7e5 g1f3 d7d6\n");
//! ```
#![warn(missing_docs)]

pub mod chess;
pub mod chunk;
pub mod infinite;
/// The chess rules library notate is built on, re-exported so callers use the same version.
pub use shakmaty;
pub mod protocol;
pub mod shogi;
