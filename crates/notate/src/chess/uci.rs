//! UCI move lists: one line of UCI moves per game (`0000` for a null move), as engines and
//! opening tools take them.
//!
//! ```
//! use notate::chess::{pgn, uci};
//! let game = pgn::read_one("1. e4 e5 2. Nf3 *").unwrap();
//! assert_eq!(uci::to_string(&game).unwrap(), "e2e4 e7e5 g1f3\n");
//! ```

use std::fmt::Write as _;

use super::game::ChessGame;
use crate::format::{write_verbs, WriteFormat};
use crate::Error;

/// UCI move lists (written only: a move list has no tags to read back).
#[derive(Debug, Default)]
pub struct Uci {
    /// The line being written: moves are formatted into a `String`, which takes a character
    /// at a time far faster than a byte writer does.
    line: String,
}

/// How UCI move lists are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

impl WriteFormat for Uci {
    type Game = ChessGame;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> Uci {
        Uci::default()
    }

    fn write_game(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        let mode = game.start.castling;
        let line = &mut self.line;
        line.clear();
        for (i, ply) in game.moves.plies.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            match ply.mv.mv {
                Some(m) => {
                    let _ = write!(line, "{}", m.to_uci(mode));
                }
                None => line.push_str("0000"),
            }
        }
        line.push('\n');
        out.extend_from_slice(line.as_bytes());
        Ok(())
    }
}

write_verbs!(Uci, ChessGame, "a UCI move list");
