//! Viewer documents for shogi, with the shape of [`crate::chess::view`]: the record's piece
//! tracks (see [`super::tracks`]) and the facts of every position, one JSON line per game.
//!
//! `positions[0]` is the start, `positions[n]` the position after ply `n`: its SFEN, `check`
//! and `checkmate` when true, and after a move its KI2 text (`ki2`, `▲７六歩`), its Western
//! text (`western`, `P-7f`), the time spent on it in milliseconds (`spent_ms`, and
//! `total_ms` when recorded) and its comment.
//!
//! ```text
//! {"family":"shogi","tracks":{"header":{…},"start":{…},"moves":[…]},
//!  "positions":[{"sfen":"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"},
//!               {"sfen":"…","ki2":"▲７六歩","western":"P-7f"}]}
//! ```

use super::position::Position;
use super::record::{Record, RecordMove};
use super::square::Square;
use super::tracks::Tracks;
use super::{ki2, western};
use crate::format::{write_verbs, WriteFormat};
use crate::json_text::{write_str, write_u64};
use crate::Error;

/// Writes records as viewer documents, one JSON line per game.
///
/// ```
/// use notate::shogi::{usi, view};
/// let record = usi::read_one("position startpos moves 7g7f 3c3d 8h2b+").unwrap();
/// let line = view::to_string(&record).unwrap();
/// assert!(line.starts_with(r#"{"family":"shogi","tracks":{"header":{},"start":{"#));
/// assert!(line.contains(r#""ki2":"▲２二角成","western":"Bx2b+"}"#));
/// ```
#[derive(Debug, Default)]
pub struct View {
    tracks: Tracks,
    text: Vec<u8>,
}

impl View {
    fn write(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        self.text.clear();
        self.tracks.write_game(record, &mut self.text)?;
        out.extend_from_slice(b"{\"family\":\"shogi\",\"tracks\":");
        out.extend_from_slice(self.text.trim_ascii_end());
        out.extend_from_slice(b",\"positions\":[");
        let mut position = record.start.clone();
        write_position(&position, None, out);
        let mut last_to: Option<Square> = None;
        for record_move in &record.moves {
            let labels = (
                ki2::move_text(&position, record_move.mv, last_to),
                western::move_text(&position, record_move.mv, western::SquareStyle::Letter),
            );
            position.play_unchecked(record_move.mv);
            last_to = Some(record_move.mv.to());
            out.push(b',');
            write_position(&position, Some((record_move, labels)), out);
        }
        out.extend_from_slice(b"]}\n");
        Ok(())
    }
}

/// `{"sfen":…}`, with the move that led here (and its KI2 and Western texts) when there is one.
fn write_position(
    position: &Position,
    played: Option<(&RecordMove, (String, String))>,
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(b"{\"sfen\":");
    write_str(out, &position.to_sfen());
    if position.in_check() {
        out.extend_from_slice(b",\"check\":true");
        if !position.has_legal_move() {
            out.extend_from_slice(b",\"checkmate\":true");
        }
    }
    if let Some((record_move, (ki2_text, western_text))) = played {
        out.extend_from_slice(b",\"ki2\":");
        write_str(out, &ki2_text);
        out.extend_from_slice(b",\"western\":");
        write_str(out, &western_text);
        if let Some(time) = record_move.time {
            out.extend_from_slice(b",\"spent_ms\":");
            write_u64(out, time.spent_ms);
            if let Some(total) = time.total_ms {
                out.extend_from_slice(b",\"total_ms\":");
                write_u64(out, total);
            }
        }
        if !record_move.comments.is_empty() {
            out.extend_from_slice(b",\"comment\":");
            write_str(out, &record_move.comments.join("\n"));
        }
    }
    out.push(b'}');
}

/// How shogi viewer documents are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

impl WriteFormat for View {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> View {
        View::default()
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        let mark = out.len();
        self.write(record, out).inspect_err(|_| out.truncate(mark))
    }
}

write_verbs!(View, Record, "shogi viewer documents");
