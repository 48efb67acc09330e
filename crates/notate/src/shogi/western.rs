//! Western (Hodges) notation: `P-7f`, `Bx2b=`, `B*4e`, `Bx2c+`, `G6i-5h`; squares as file
//! digit and rank letter (`7f`) or two digits (`76`). The origin is written only when two
//! pieces of the kind could go there; `+`/`=` only when promotion was a choice.
//!
//! A Western record here is the moves separated by blanks, optionally numbered
//! (`1. P-7f P-3d 2. …`), with `#` comment lines, and an optional first line
//! `sfen <position>` for a game that does not start from the even-game position.

/// How this format is read (every shogi format takes the same options).
pub use super::encoding::ReadOptions;
use super::encoding::{self, BadBytes};
use crate::format::{read_format, write_verbs, WriteFormat};
use std::fmt::Write as _;

use super::error::{self, Error};
use super::piece::PieceKind;
use super::position::{Move, Position};
use super::record::{play_checked, Record, RecordMove};
use super::sfen::STARTPOS;
use super::square::Square;

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SquareStyle {
    /// `7f` (file digit, rank letter a–i).
    #[default]
    Letter,
    /// `76` (Hosking's two digits).
    Digit,
}

fn square(sq: Square, style: SquareStyle) -> String {
    match style {
        SquareStyle::Letter => sq.to_string(),
        SquareStyle::Digit => format!("{}{}", sq.file(), sq.rank()),
    }
}

fn parse_square(b: &[u8]) -> Option<Square> {
    Square::parse_usi(b).or_else(|| Square::parse_digits(b))
}

/// The Western text of `mv` on `pos`.
///
/// ```
/// use notate::shogi::{usi, western, Position};
/// let pos = Position::startpos();
/// let mv = usi::parse_move("7g7f").unwrap();
/// assert_eq!(western::move_text(&pos, mv, western::SquareStyle::Letter), "P-7f");
/// ```
pub fn move_text(pos: &Position, mv: Move, style: SquareStyle) -> String {
    let mut s = String::with_capacity(8);
    match mv {
        Move::Drop { kind, to } => {
            let _ = write!(s, "{}*{}", kind.western(), square(to, style));
        }
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            s.push_str(kind.western());
            if pos.origins(kind, to).len() > 1 {
                s.push_str(&square(from, style));
            }
            s.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            s.push_str(&square(to, style));
            if promote {
                s.push('+');
            } else if Position::may_promote(pos.side_to_move(), kind, from, to) {
                s.push('=');
            }
        }
    }
    s
}

/// Reads a Western move on `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let promoted = b.first() == Some(&b'+');
    if promoted {
        i += 1;
    }
    let kind = b
        .get(i)
        .and_then(|&l| PieceKind::from_western(promoted, l))
        .ok_or_else(|| "expected a piece letter (P L N S G B R K, + for promoted)".to_string())?;
    i += 1;
    let mut origin = None;
    if b.get(i).is_some_and(u8::is_ascii_digit) {
        origin = Some(
            b.get(i..i + 2)
                .and_then(parse_square)
                .ok_or_else(|| "bad origin square".to_string())?,
        );
        i += 2;
    }
    let sep = *b.get(i).ok_or_else(|| "expected -, x or *".to_string())?;
    i += 1;
    let to = b
        .get(i..i + 2)
        .and_then(parse_square)
        .ok_or_else(|| "bad destination square".to_string())?;
    i += 2;
    let promote = match &b[i..] {
        [] | [b'='] => false,
        [b'+'] => true,
        _ => return Err("unexpected text after the square".to_string()),
    };
    match sep {
        b'*' => {
            if origin.is_some() || promote {
                return Err("a drop has no origin and does not promote".into());
            }
            Ok(Move::Drop { kind, to })
        }
        b'-' | b'x' => {
            let mut origins = pos.origins(kind, to);
            if let Some(o) = origin {
                origins.retain(|&s| s == o);
            }
            let from = match origins.as_slice() {
                [one] => *one,
                [] => return Err(format!("no {kind} can move to {to}")),
                _ => {
                    return Err(format!(
                        "ambiguous: {} {kind}s can move to {to}",
                        origins.len()
                    ))
                }
            };
            if sep == b'x' && pos.piece_at(to).is_none() {
                return Err(format!("x, but nothing to capture on {to}"));
            }
            Ok(Move::Normal { from, to, promote })
        }
        _ => Err("expected -, x or * between the squares".to_string()),
    }
}

/// Reads a Western record (see the module's documentation for its shape).
///
/// ```
/// use notate::shogi::western;
/// let record = western::read_one("1. P-7f P-3d 2. Bx2b= Sx2b 3. B*4e").unwrap();
/// assert_eq!(record.moves[4].mv.to_string(), "B*4e");
/// ```
pub(crate) fn read(text: &str) -> Result<Record, Error> {
    let mut record = Record::new(Position::startpos());
    let mut pos = record.start.clone();
    let mut first = true;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if first {
            first = false;
            if let Some(sfen) = trimmed.strip_prefix("sfen ") {
                pos = Position::from_sfen(sfen).map_err(|e| {
                    // The SFEN's own place, counted in the line.
                    let at = sfen.as_ptr() as usize - line.as_ptr() as usize;
                    error::line(number, line, at + e.offset().unwrap_or(0), e.message)
                })?;
                record.start = pos.clone();
                continue;
            }
        }
        let mut at = 0;
        for word in line.split([' ', '\t']) {
            at += word.len() + 1;
            // The move's own place: after its number, when one is glued to it.
            let word = without_number(word);
            let start = at - 1 - word.len();
            if word.is_empty() || word == "..." {
                continue;
            }
            let ply = record.moves.len() as u32 + 1;
            let mv = parse_move(&pos, word).map_err(|m| {
                if m.starts_with("expected") || m.starts_with("bad") || m.starts_with("unexpected")
                {
                    error::line(number, line, start, m)
                } else {
                    error::illegal(Some(number), ply, word, m)
                }
            })?;
            play_checked(&mut pos, mv, ply, Some(number), word)?;
            record.moves.push(RecordMove::new(mv));
        }
    }
    Ok(record)
}

/// A word without the move number it starts with (`12.`, `12...`): the move glued to it
/// (`1.P-7f`), or nothing.
fn without_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    if digits > 0 && dots > 0 {
        &word[digits + dots..]
    } else {
        word
    }
}

/// Reads every game of a Western text: a game begins at an `sfen` line, or at the move
/// number `1.` after a blank line (the writer separates games so, and writes the `sfen` line
/// of a game of no moves; a game's `sfen` line and its moves are not apart by a blank line);
/// each game's error lines count from the text's first line. A text of blanks and comments
/// alone has no game; a game that holds bytes that were not text (`bad`) fails.
pub(crate) fn read_all(text: &str, bad: &BadBytes) -> Vec<Result<Record, Error>> {
    let mut parts: Vec<(usize, usize)> = Vec::new(); // (first line, byte offset)
    let (mut begun, mut blank) = (false, false);
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let start = at;
        at += line.len();
        let trimmed = line.trim();
        if trimmed.is_empty() {
            blank = true;
            continue;
        }
        if trimmed.starts_with('#') {
            continue;
        }
        let sfen = trimmed.starts_with("sfen ");
        let first = trimmed
            .split([' ', '\t'])
            .next()
            .and_then(|word| word.strip_prefix("1."))
            .is_some_and(|rest| !rest.starts_with('.'));
        if parts.is_empty() || (begun && (sfen || (first && blank))) {
            parts.push((i, start));
        }
        begun = true;
        blank = false;
    }
    parts
        .iter()
        .enumerate()
        .map(|(k, &(first_line, start))| {
            let end = parts.get(k + 1).map_or(text.len(), |&(_, next)| next);
            if let Some(bad) = bad.first_within(text, start..end) {
                return Err(bad);
            }
            read(&text[start..end]).map_err(|mut e| {
                error::shift_lines(&mut e, first_line);
                e
            })
        })
        .collect()
}

/// Writes the main line as numbered Western moves, ten plies a line (with an `sfen` line
/// first when the game does not start from the even-game position, or has no moves: so that
/// it is there to read back).
pub(crate) fn write(record: &Record, style: SquareStyle) -> String {
    let mut out = String::with_capacity(16 + record.moves.len() * 8);
    let start = record.start.to_sfen();
    if start != STARTPOS || record.moves.is_empty() {
        let _ = writeln!(out, "sfen {start}");
    }
    let mut pos = record.start.clone();
    for (i, m) in record.moves.iter().enumerate() {
        if i % 2 == 0 {
            if i % 10 != 0 {
                out.push(' ');
            }
            let _ = write!(out, "{}.", i / 2 + 1);
        }
        out.push(' ');
        out.push_str(&move_text(&pos, m.mv, style));
        if i % 10 == 9 {
            out.push('\n');
        }
        pos.play_unchecked(m.mv);
    }
    if !record.moves.len().is_multiple_of(10) {
        out.push('\n');
    }
    out
}

/// Western (Hodges) notation: the main line of each game, games apart by a blank line.
#[derive(Debug, Default)]
pub struct Western {
    options: WriteOptions,
}

/// How Western notation is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// How squares are written (default `7f`).
    pub squares: SquareStyle,
}

read_format!(
    Western,
    Record,
    "Western notation",
    ReadOptions,
    whole,
    |record, options| {
        match encoding::decode_marking(record, options.encoding) {
            Ok(decoded) => read_all(&decoded.text, &decoded.bad),
            Err(e) => vec![Err(e)],
        }
    }
);

impl WriteFormat for Western {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Western {
        Western { options }
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        out.extend_from_slice(write(record, self.options.squares).as_bytes());
        Ok(())
    }
}

write_verbs!(Western, Record, "Western notation");
