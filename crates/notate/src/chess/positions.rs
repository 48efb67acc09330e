//! Position lists: every position of a game's main line, start first, one per line (FEN or
//! EPD), games separated by a blank line.
//!
//! ```
//! use notate::chess::{pgn, positions};
//! let game = pgn::read_one("1. e4 *").unwrap();
//! let text = positions::to_string(&game).unwrap();
//! assert_eq!(text.lines().nth(1), Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
//! ```

use std::fmt::Write as _;

use shakmaty::{fen::Epd, fen::Fen, EnPassantMode};

use super::game::{play, ChessGame};
use crate::format::{write_verbs, WriteFormat};
use crate::Error;

/// Which position notation a position list uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PositionFormat {
    /// Six-field FEN; the en-passant square only when a capture is legal (as lichess and
    /// python-chess write it).
    #[default]
    Fen,
    /// Four-field EPD; the en-passant square only when a capture is legal.
    Epd,
}

/// How position lists are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// FEN (default) or EPD.
    pub notation: PositionFormat,
}

/// Position lists (written only).
#[derive(Debug, Default)]
pub struct Positions {
    options: WriteOptions,
    /// The game's lines: FENs are formatted into a `String`, which takes a character at a
    /// time far faster than a byte writer does.
    text: String,
}

impl WriteFormat for Positions {
    type Game = ChessGame;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Positions {
        Positions {
            options,
            text: String::new(),
        }
    }

    fn write_game(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        let mut pos = game.start.position.clone();
        let notation = self.options.notation;
        let text = &mut self.text;
        text.clear();
        let emit = |pos: &shakmaty::Chess, text: &mut String| {
            let _ = match notation {
                PositionFormat::Fen => {
                    writeln!(text, "{}", Fen::from_position(pos, EnPassantMode::Legal))
                }
                PositionFormat::Epd => {
                    writeln!(text, "{}", Epd::from_position(pos, EnPassantMode::Legal))
                }
            };
        };
        emit(&pos, text);
        for ply in &game.moves.plies {
            play(&mut pos, ply.mv.mv);
            emit(&pos, text);
        }
        text.push('\n');
        out.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

write_verbs!(Positions, ChessGame, "a position list");
