//! KI2: KIF's header and diagram with moves in the readable form — no origin, several moves
//! per line, and the words 右 左 直 上 引 寄 (and 打, 成, 不成) wherever the position needs
//! them to tell which piece moves. Reading and writing both use the legal moves.

/// How this format is read (every shogi format takes the same options).
pub use super::encoding::ReadOptions;
use crate::format::{read_format, write_verbs, WriteFormat};
use std::fmt::Write as _;

use super::encoding::{self, Encoding};
use super::error::{self, Error};
use super::japanese::{
    self, check_declined, direction, push_destination, read_destination, read_mark, relative_words,
    rightness, straight, width, write_comment, write_head, write_summary, Mark, RecordReader,
    Style,
};
use super::piece::{Color, PieceKind};
use super::position::{Move, Position};
use super::record::{EndingKind, MainLinePositions, Record, RecordMove};
use super::square::Square;

/// Reads the KI2 records of bytes in `encoding` (detected when `None`): several records
/// written one after another read as several.
///
/// ```
/// use notate::shogi::ki2;
/// let record = ki2::read_one("▲７六歩    △３四歩    ▲２二角不成  △同　銀\n").unwrap();
/// assert_eq!(record.moves[3].mv.to_string(), "3a2b");
/// ```
pub(crate) fn read_bytes(bytes: &[u8], encoding: Option<Encoding>) -> Vec<Result<Record, Error>> {
    match encoding::decode_marking(bytes, encoding) {
        Ok(decoded) => japanese::read_all(decoded, Style::Ki2, read_move_line),
        Err(e) => vec![Err(e)],
    }
}

/// Reads the moves of a KI2 line (one or more).
fn read_move_line(r: &mut RecordReader, line: &str, number: usize) -> Result<(), Error> {
    let mut rest = line.trim_start_matches([' ', '\t', '　']);
    while !rest.is_empty() {
        let start = line.len() - rest.len();
        let mut chars = rest.chars();
        let side = match chars.next() {
            Some('▲' | '☗') => Color::Black,
            Some('△' | '☖' | '▽') => Color::White,
            _ => {
                return Err(error::line(
                    number,
                    line,
                    start,
                    "expected ▲ or △ before a move",
                ))
            }
        };
        rest = chars.as_str();
        // An ending written as a move (`△投了`, `▲千日手`), as Shogi DB2 writes them. The
        // mark is not checked: Shogi DB2 may give the side that moved last.
        let word_end = rest.find([' ', '\t', '　']).unwrap_or(rest.len());
        if let Some(kind) = EndingKind::from_kif(&rest[..word_end]) {
            r.end(kind, None);
            rest = rest[word_end..].trim_start_matches([' ', '\t', '　']);
            continue;
        }
        let (to, len) = read_destination(r, rest, line, number)?;
        rest = &rest[len..];
        let (kind, len) = PieceKind::parse_kanji(rest).ok_or_else(|| {
            error::line(number, line, line.len() - rest.len(), "expected a piece")
        })?;
        rest = &rest[len..];
        let mut words = Vec::new();
        while let Some(c) = rest
            .chars()
            .next()
            .filter(|c| "右左直上引寄行入".contains(*c))
        {
            words.push(match c {
                '行' | '入' => '上',
                c => c,
            });
            rest = &rest[c.len_utf8()..];
        }
        let (mark, after) = read_mark(rest);
        let (promote, drop) = (mark == Mark::Promotes, mark == Mark::Drops);
        rest = after;
        let written = line[start..line.len() - rest.len()].to_string();
        let ply = r.next_ply();
        // KI2 writes several moves a line: an error names the move's column.
        let place = |e: Error| error::at_column(e, line, start);
        let fail =
            |reason: String| place(error::illegal(Some(number), ply, written.clone(), reason));
        if side != r.pos.side_to_move() {
            return Err(fail(format!("{:?} is not the side to move", side)));
        }
        let mv = if drop {
            Move::Drop { kind, to }
        } else {
            let origins = r.pos.origins(kind, to);
            if origins.is_empty() {
                // A drop needs no 打 where no piece on the board could move there instead.
                let may_drop =
                    kind.hand_index().is_some() && words.is_empty() && mark == Mark::Plain;
                match (may_drop, r.pos.hand_count(side, kind) > 0) {
                    (true, true) => Move::Drop { kind, to },
                    (true, false) => {
                        return Err(fail(format!(
                            "no {kind} can move to {to}, and none is in hand to drop"
                        )))
                    }
                    (false, _) => return Err(fail(format!("no {kind} can move to {to}"))),
                }
            } else {
                let from = pick(side, to, &origins, &words).map_err(fail)?;
                check_declined(mark, side, kind, from, to).map_err(fail)?;
                Move::Normal { from, to, promote }
            }
        };
        r.push(mv, None, number, &written).map_err(place)?;
        rest = rest.trim_start_matches([' ', '\t', '　']);
    }
    Ok(())
}

/// The one origin among `origins` that the words `words` describe.
fn pick(side: Color, to: Square, origins: &[Square], words: &[char]) -> Result<Square, String> {
    let mut set: Vec<Square> = origins.to_vec();
    for &w in words {
        match w {
            '上' | '寄' | '引' => set.retain(|&c| direction(side, c, to) == w),
            '直' => set.retain(|&c| straight(side, c, to)),
            _ => {}
        }
    }
    for &w in words {
        if w == '右' || w == '左' {
            let best = set.iter().map(|&c| rightness(side, c));
            let target = if w == '右' { best.max() } else { best.min() };
            set.retain(|&c| Some(rightness(side, c)) == target);
        }
    }
    match set.as_slice() {
        [one] => Ok(*one),
        [] => Err("no piece fits the words written".to_string()),
        many => Err(format!(
            "ambiguous: {} pieces can move there ({})",
            many.len(),
            many.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The KI2 text of a move: `▲７六歩`, `△同　銀`, `▲５八金右`, `▲４五角打`.
pub(crate) fn move_text(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    let side = pos.side_to_move();
    let mut s = String::with_capacity(24);
    s.push(side.triangle());
    push_destination(&mut s, mv, last_to);
    match mv {
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            s.push_str(kind.kanji());
            let origins = pos.origins(kind, to);
            s.push_str(&relative_words(side, kind, from, to, &origins));
            if promote {
                s.push('成');
            } else if Position::may_promote(side, kind, from, to) {
                s.push_str("不成");
            }
        }
        Move::Drop { kind, to } => {
            s.push_str(kind.kanji());
            if !pos.origins(kind, to).is_empty() {
                s.push('打');
            }
        }
    }
    s
}

fn write_moves(
    out: &mut String,
    moves: &[RecordMove],
    mut pos: Position,
    mut last_to: Option<Square>,
) -> Position {
    let (mut on_line, mut count) = (0, 0);
    for m in moves {
        let text = move_text(&pos, m.mv, last_to);
        if on_line > 0 {
            // Columns of 12 (▲ and kanji count two), at least two spaces apart.
            out.push_str(&" ".repeat(12usize.saturating_sub(on_line).max(2)));
        }
        out.push_str(&text);
        on_line = width(&text);
        count += 1;
        if count == 6 || !m.comments.is_empty() {
            out.push('\n');
            on_line = 0;
            count = 0;
            for c in &m.comments {
                write_comment(out, c);
            }
        }
        pos.play_unchecked(m.mv);
        last_to = Some(m.mv.to());
    }
    if on_line > 0 {
        out.push('\n');
    }
    pos
}

/// Writes a record as KI2 (UTF-8 text).
///
/// ```
/// use notate::shogi::{ki2, usi};
/// let record = usi::read_one("position startpos moves 7g7f 3c3d 8h2b 3a2b").unwrap();
/// assert!(ki2::to_string(&record).unwrap().contains("▲７六歩    △３四歩    ▲２二角不成  △同　銀\n"));
/// ```
pub(crate) fn write(record: &Record) -> String {
    let mut out = String::with_capacity(64 + record.moves.len() * 16);
    write_head(&mut out, record);
    out.push('\n');
    let end = write_moves(&mut out, &record.moves, record.start.clone(), None);
    if let Some(e) = &record.ending {
        write_summary(
            &mut out,
            record,
            record.moves.len(),
            e.kind,
            end.side_to_move(),
        );
        for c in &e.comments {
            write_comment(&mut out, c);
        }
    }
    let kept = MainLinePositions::new(record);
    for i in record.listing_order() {
        let v = &record.variations[i];
        let _ = write!(out, "\n変化：{}手\n", v.first_ply);
        let (pos, last_to) = record.position_before_with(&kept, v.parent, v.first_ply);
        let end = write_moves(&mut out, &v.moves, pos, last_to);
        if let Some(e) = &v.ending {
            let plies = v.first_ply as usize - 1 + v.moves.len();
            write_summary(&mut out, record, plies, e.kind, end.side_to_move());
            for c in &e.comments {
                write_comment(&mut out, c);
            }
        }
    }
    out
}

/// Writes a record as KI2 in `encoding`.
pub(crate) fn write_bytes(record: &Record, encoding: Encoding) -> Result<Vec<u8>, Error> {
    Ok(encoding::encode(&write(record), encoding)?.into_owned())
}

/// KI2: one record per file, read from UTF-8 or Shift_JIS, written in the encoding asked.
#[derive(Debug, Default)]
pub struct Ki2 {
    options: WriteOptions,
}

/// How KI2 is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The encoding of what a [`Writer`] writes ([`to_string`] is UTF-8; default UTF-8).
    pub encoding: Encoding,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            encoding: Encoding::Utf8,
        }
    }
}

read_format!(Ki2, Record, "KI2", ReadOptions, whole, |record, options| {
    read_bytes(record, options.encoding)
});

impl WriteFormat for Ki2 {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Ki2 {
        Ki2 { options }
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        japanese::check_writable(record, "KI2")?;
        out.extend_from_slice(&write_bytes(record, self.options.encoding)?);
        Ok(())
    }

    fn write_text(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        japanese::check_writable(record, "KI2")?;
        out.extend_from_slice(write(record).as_bytes());
        Ok(())
    }
}

write_verbs!(Ki2, Record, "KI2");
