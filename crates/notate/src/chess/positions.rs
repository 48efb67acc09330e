//! Position-per-line formats: `uci` (one line of UCI moves per game), `fen` and `epd` (one
//! position per line, start position first, games separated by a blank line).

use std::fmt::Write as _;

use shakmaty::{fen::Epd, fen::Fen, EnPassantMode};

use super::game::{play, ChessGame};

/// Appends the main line as one line of UCI moves (`0000` for a null move).
///
/// ```
/// use notate::chess::{pgn::read_pgn_games, replay, write_uci};
/// let game = replay(read_pgn_games("1. e4 e5 2. O-O *").remove(0).unwrap());
/// assert!(game.is_err()); // castling is illegal here
/// let game = replay(read_pgn_games("1. e4 e5 *").remove(0).unwrap()).unwrap();
/// let mut out = String::new();
/// write_uci(&game, &mut out);
/// assert_eq!(out, "e2e4 e7e5\n");
/// ```
pub fn write_uci(game: &ChessGame, out: &mut String) {
    let mode = game.start.castling;
    for (i, ply) in game.moves.plies.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match ply.mv.mv {
            Some(m) => {
                let _ = write!(out, "{}", m.to_uci(mode));
            }
            None => out.push_str("0000"),
        }
    }
    out.push('\n');
}

/// Which position notation [`write_positions`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionFormat {
    /// Six-field FEN; the en-passant square only when a capture is legal (as lichess and
    /// python-chess write it).
    Fen,
    /// Four-field EPD; the en-passant square only when a capture is legal.
    Epd,
}

/// Appends every position of the main line, start first, then a blank line.
///
/// ```
/// use notate::chess::{pgn::read_pgn_games, replay, write_positions, PositionFormat};
/// let game = replay(read_pgn_games("1. e4 *").remove(0).unwrap()).unwrap();
/// let mut out = String::new();
/// write_positions(&game, PositionFormat::Fen, &mut out);
/// assert_eq!(out.lines().nth(1), Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
/// ```
pub fn write_positions(game: &ChessGame, format: PositionFormat, out: &mut String) {
    let mut pos = game.start.position.clone();
    let emit = |pos: &shakmaty::Chess, out: &mut String| {
        let _ = match format {
            PositionFormat::Fen => {
                writeln!(out, "{}", Fen::from_position(pos, EnPassantMode::Legal))
            }
            PositionFormat::Epd => {
                writeln!(out, "{}", Epd::from_position(pos, EnPassantMode::Legal))
            }
        };
    };
    emit(&pos, out);
    for ply in &game.moves.plies {
        play(&mut pos, ply.mv.mv);
        emit(&pos, out);
    }
    out.push('\n');
}
