//! notate reads, checks, converts and stores the game records of chess-family games.
//!
//! This crate is the library: no I/O beyond `Read`/`Write`, one module per game family.
//! The `notate` command (crate `notate-cli`) adds the command line and the parallel pipeline.
//!
//! Every format module of every family has the same verbs ([`format`]): `read_str`,
//! `read_one` and a streaming `Reader` over any `Read`; `to_string` and a `Writer` into any
//! `io::Write`; `ReadOptions` and `WriteOptions` with `Default`. Every failure is one
//! [`Error`], with its [`Place`]. The common case of each family is one line:
//!
//! ```
//! use notate::{chess::{pgn, uci}, infinite::{long, short}, shogi::{csa, kif}};
//! // Chess: PGN in, UCI moves out.
//! let game = pgn::read_one("[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 *")?;
//! assert_eq!(uci::to_string(&game)?, "e2e4 e7e5 g1f3 d7d6\n");
//! // Infinite chess: ICN in, the long JSON form out.
//! let game = short::read_one("w K5,1|k5,8 5,1>5,2")?;
//! assert!(long::to_string(&game)?.contains("\"moves\": [\n    \"5,1>5,2\"\n  ]"));
//! // Shogi: KIF in, CSA out.
//! let record = kif::read_one("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n")?;
//! assert!(csa::to_string(&record)?.contains("PI\n+\n+7776FU\n-3334FU\n"));
//! # Ok::<(), notate::Error>(())
//! ```
#![warn(missing_docs)]

pub mod chess;
pub mod chunk;
pub mod convert;
pub mod error;
pub mod format;
pub mod infinite;
mod json_text;
/// The chess rules library notate is built on, re-exported so callers use the same version.
pub use shakmaty;
pub mod protocol;
pub mod shogi;
mod threads;

pub use error::{Error, ErrorKind, Place, MAX_TOKEN_CHARS};
