//! Viewer documents: what a board page needs to show a game, one JSON line per game — the
//! game's piece tracks (see [`super::tracks`]) and the facts of every position, so the page
//! animates from the tracks and shows the facts without knowing the rules.
//!
//! `positions[0]` is the start, `positions[n]` the position after ply `n`: its FEN, the EGD
//! features (`check`, `checkmate`, `halfmove_clock`, `repetition`, and those of the draw flags
//! `--egd-extended` writes that are true), and after a move its `lran`, `move_type` and annotations
//! (`nags`, `glyphs`, `comment`, `clock`, `emt`, `eval` or `mate`) when the game has them.
//!
//! ```text
//! {"family":"chess","tracks":{"game_tags":{…},"start":{…},"moves":[…]},
//!  "positions":[{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
//!                "features":{"halfmove_clock":0,"repetition":1}},
//!               {"fen":"…","features":{…},"lran":"e2-e4","move_type":"move"}]}
//! ```

use shakmaty::{Chess, EnPassantMode, Position};

use super::egd::{hash, write_annotations, write_features};
use super::game::{play, ChessGame, Played, Ply};
use super::notation::{write_lran, FenWriter, MoveFields};
use super::tracks::Tracks;
use crate::format::{write_verbs, WriteFormat};
use crate::Error;

/// Writes replayed games as viewer documents, one JSON line per game.
///
/// ```
/// use notate::chess::{pgn, view};
/// let game = pgn::read_one("1. e4 d5 2. exd5 *").unwrap();
/// let line = view::to_string(&game).unwrap();
/// assert!(line.starts_with(r#"{"family":"chess","tracks":{"game_tags":{"Result":"*"}"#));
/// assert!(line.contains(r#""fen":"rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2""#));
/// assert!(line.contains(r#""lran":"e4xd5","move_type":"capture""#));
/// ```
#[derive(Debug, Default)]
pub struct View {
    tracks: Tracks,
    text: Vec<u8>,
    fen: FenWriter,
    history: Vec<u128>,
}

impl View {
    fn write(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        self.text.clear();
        self.tracks.write_game(game, &mut self.text)?;
        out.extend_from_slice(b"{\"family\":\"chess\",\"tracks\":");
        out.extend_from_slice(self.text.trim_ascii_end());
        out.extend_from_slice(b",\"positions\":[");
        let (mut pos, mode) = (game.start.position.clone(), game.start.castling);
        self.history.clear();
        self.history.push(hash(&pos));
        self.write_position(&pos, mode, None, out);
        for ply in &game.moves.plies {
            play(&mut pos, ply.mv.mv);
            self.history.push(hash(&pos));
            out.push(b',');
            self.write_position(&pos, mode, Some(ply), out);
        }
        out.extend_from_slice(b"]}\n");
        Ok(())
    }

    /// `{"fen":…,"features":{…}}`, with the move that led here when there is one.
    fn write_position(
        &mut self,
        pos: &Chess,
        mode: shakmaty::CastlingMode,
        ply: Option<&Ply<Played>>,
        out: &mut Vec<u8>,
    ) {
        out.extend_from_slice(b"{\"fen\":\"");
        self.fen.write(pos, mode, EnPassantMode::Legal, out);
        out.extend_from_slice(b"\",\"features\":{");
        let check = pos.is_check();
        // The draw flags only when true: a viewer shows what holds, and a page of many games
        // stays a third smaller.
        write_features(
            out,
            &self.history,
            pos,
            check,
            check && pos.is_checkmate(),
            false,
        );
        out.push(b'}');
        if let Some(ply) = ply {
            if let Some(mv) = ply.mv.mv {
                out.extend_from_slice(b",\"lran\":\"");
                write_lran(mv, out);
                out.extend_from_slice(b"\",\"move_type\":\"");
                out.extend_from_slice(MoveFields::of(mv).move_type.as_bytes());
                out.push(b'"');
            }
            write_annotations(ply, out);
        }
        out.push(b'}');
    }
}

/// How viewer documents are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

impl WriteFormat for View {
    type Game = ChessGame;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> View {
        View::default()
    }

    fn write_game(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        let mark = out.len();
        self.write(game, out).inspect_err(|_| out.truncate(mark))
    }
}

write_verbs!(View, ChessGame, "viewer documents");
