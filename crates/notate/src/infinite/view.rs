//! Viewer documents for infinite chess, with the shape of [`crate::chess::view`]: the game's
//! piece tracks (see [`super::tracks`]), the world border, and the facts of every position,
//! one JSON line per game.
//!
//! `border` holds the edges the game sets (`left`, `right`, `bottom`, `top`, as decimal
//! strings: coordinates have no size limit), or is `null`. `positions[0]` is the start,
//! `positions[n]` the position after ply `n`: whose turn it is, `check` and `checkmate` as
//! the record marks the move, and its annotation, comment and clock (`clock_ms`) when
//! recorded. No position text: an infinite-chess position can be large, and the tracks hold
//! every piece.
//!
//! ```text
//! {"family":"infinite","tracks":{"metadata":{…},"start":{…},"moves":[…]},"border":null,
//!  "positions":[{"turn":"w"},{"turn":"b","check":true}]}
//! ```

use super::game::{Game, Move, WorldBorder};
use super::piece::Player;
use super::tracks::Tracks;
use crate::format::{write_verbs, WriteFormat};
use crate::json_text::{write_str, write_u64};
use crate::Error;

/// Writes games as viewer documents, one JSON line per game.
///
/// ```
/// use notate::infinite::{short, view};
/// let game = short::read_one("w P1,2+|k5,8|K5,1 1,2>1,4").unwrap();
/// let line = view::to_string(&game).unwrap();
/// assert!(line.starts_with(r#"{"family":"infinite","tracks":{"metadata":{},"start":{"#));
/// assert!(line.ends_with("\"border\":null,\"positions\":[{\"turn\":\"w\"},{\"turn\":\"b\"}]}\n"));
/// ```
#[derive(Debug, Default)]
pub struct View {
    tracks: Tracks,
    text: Vec<u8>,
}

impl View {
    fn write(&mut self, game: &Game, out: &mut Vec<u8>) -> Result<(), Error> {
        self.text.clear();
        self.tracks.write_game(game, &mut self.text)?;
        out.extend_from_slice(b"{\"family\":\"infinite\",\"tracks\":");
        out.extend_from_slice(self.text.trim_ascii_end());
        out.extend_from_slice(b",\"border\":");
        write_border(game.world_border.as_ref(), out);
        out.extend_from_slice(b",\"positions\":[");
        let mut turn = game.turn.unwrap_or(Player::White);
        write_position(turn, None, out);
        for mv in game.moves.iter().flatten() {
            turn = turn.opponent();
            out.push(b',');
            write_position(turn, Some(mv), out);
        }
        out.extend_from_slice(b"]}\n");
        Ok(())
    }
}

fn write_border(border: Option<&WorldBorder>, out: &mut Vec<u8>) {
    let Some(border) = border else {
        out.extend_from_slice(b"null");
        return;
    };
    out.push(b'{');
    let edges = [
        ("left", &border.left),
        ("right", &border.right),
        ("bottom", &border.bottom),
        ("top", &border.top),
    ];
    let mut first = true;
    for (name, edge) in edges {
        if let Some(value) = edge {
            if !first {
                out.push(b',');
            }
            first = false;
            write_str(out, name);
            out.push(b':');
            write_str(out, &value.to_string());
        }
    }
    out.push(b'}');
}

fn write_position(turn: Player, mv: Option<&Move>, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"turn\":");
    write_str(out, if turn == Player::Black { "b" } else { "w" });
    if let Some(mv) = mv {
        if mv.check || mv.mate {
            out.extend_from_slice(b",\"check\":true");
        }
        if mv.mate {
            out.extend_from_slice(b",\"checkmate\":true");
        }
        if let Some(notes) = &mv.notes {
            if !notes.annotation.is_empty() {
                out.extend_from_slice(b",\"annotation\":");
                write_str(out, &notes.annotation);
            }
            if let Some(comment) = &notes.comment {
                out.extend_from_slice(b",\"comment\":");
                write_str(out, comment);
            }
            if let Some(ms) = notes.clock_ms {
                out.extend_from_slice(b",\"clock_ms\":");
                write_u64(out, ms);
            }
        }
    }
    out.push(b'}');
}

/// How infinite-chess viewer documents are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

impl WriteFormat for View {
    type Game = Game;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> View {
        View::default()
    }

    fn write_game(&mut self, game: &Game, out: &mut Vec<u8>) -> Result<(), Error> {
        let mark = out.len();
        self.write(game, out).inspect_err(|_| out.truncate(mark))
    }
}

write_verbs!(View, Game, "infinite-chess viewer documents");
