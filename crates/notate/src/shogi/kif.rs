//! KIF (Kakinoki): headers, board diagrams (BOD), 手合割, move lines with origin and times,
//! endings, comments and `変化` variations. The header, diagram, summary and variation
//! handling, and the move grammar, are shared with KI2 (in `japanese.rs`); KI2 differs only
//! in its move lines.
//!
//! Read leniently where real files differ from the specification (`不成`, `同` followed by
//! an ASCII space or nothing, `王`/`竜`/`全` spellings, ASCII digits), strictly everywhere
//! else: a line notate cannot read is an error naming it, and an illegal move is an error
//! naming its ply.

/// How this format is read (every shogi format takes the same options).
pub use super::encoding::ReadOptions;
use crate::format::{read_format, write_verbs, WriteFormat};
use std::fmt::Write as _;

use super::encoding::{self, Encoding};
use super::error::{self, Error};
use super::japanese::{
    self, check_declined, push_destination, read_destination, read_mark, width, write_comment,
    write_head, write_summary, Mark, RecordReader, Style,
};
use super::piece::PieceKind;
use super::position::{Move, Position};
use super::record::{Ending, EndingKind, MainLinePositions, MoveTime, Record, RecordMove};
use super::square::Square;

/// How KIF is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The encoding of what a [`Writer`] writes ([`to_string`] is UTF-8).
    pub encoding: Encoding,
    /// Write `不成` on a declined promotion, as Kifu for Windows, ShogiGUI and 81Dojo do
    /// (default). The specification leaves it unmarked, and some readers (cshogi,
    /// shogi-kifu-converter, tsshogi) stop at it: `false` writes it their way.
    pub mark_declined: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            encoding: Encoding::Utf8,
            mark_declined: true,
        }
    }
}

/// Reads the KIF records of bytes in `encoding` (detected when `None`): several records
/// written one after another read as several.
///
/// ```
/// use notate::shogi::kif;
/// let record = kif::read_one("   1 ７六歩(77)   ( 0:05/00:00:05)\n   2 投了\n").unwrap();
/// assert_eq!(record.moves[0].mv.to_string(), "7g7f");
/// assert_eq!(record.moves[0].time.unwrap().spent_ms, 5000);
/// ```
pub(crate) fn read_bytes(bytes: &[u8], encoding: Option<Encoding>) -> Vec<Result<Record, Error>> {
    match encoding::decode_marking(bytes, encoding) {
        Ok(decoded) => japanese::read_all(decoded, Style::Kif, read_move_line),
        Err(e) => vec![Err(e)],
    }
}

/// Reads `( 0:05/00:00:05)` (or `(0:05)`) from the start of `text`: spent and total.
pub(crate) fn parse_time(text: &str) -> Option<(MoveTime, usize)> {
    let close = text.find(')')?;
    let inner = text.get(1..close)?.trim();
    let (now, total) = match inner.split_once('/') {
        Some((a, b)) => (a.trim(), Some(b.trim())),
        None => (inner, None),
    };
    // In milliseconds; a time whose milliseconds a `u64` cannot hold is no time.
    let millis = |s: &str| -> Option<u64> {
        let mut total = 0u64;
        let mut parts = 0;
        for p in s.split(':') {
            parts += 1;
            let n: u64 = p.trim().parse().ok()?;
            total = total.checked_mul(60)?.checked_add(n)?;
        }
        (2..=3).contains(&parts).then_some(total)?.checked_mul(1000)
    };
    let spent_ms = millis(now)?;
    let total_ms = match total {
        Some(t) => Some(millis(t)?),
        None => None,
    };
    Some((MoveTime { spent_ms, total_ms }, close + 1))
}

/// The text after a move or ending: an optional time, an optional `+` (a variation
/// follows), nothing else.
pub(crate) fn read_tail(rest: &str, line: &str, number: usize) -> Result<Option<MoveTime>, Error> {
    let at = line.len() - rest.len();
    let mut rest = rest.trim_start();
    let mut time = None;
    if rest.starts_with('(') {
        let (t, len) = parse_time(rest).ok_or_else(|| {
            error::line(
                number,
                line,
                line.len() - rest.len(),
                "expected a time ( m:ss/hh:mm:ss)",
            )
        })?;
        time = Some(t);
        rest = rest[len..].trim_start();
    }
    let rest = rest.trim_end_matches('+').trim();
    if !rest.is_empty() {
        return Err(error::line(
            number,
            line,
            at.max(line.len() - rest.len()),
            "unexpected text after the move",
        ));
    }
    Ok(time)
}

fn read_move_line(r: &mut RecordReader, line: &str, number: usize) -> Result<(), Error> {
    let trimmed = line.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let ply: u32 = trimmed[..digits]
        .parse()
        .map_err(|_| error::line(number, line, 0, "a move number too large"))?;
    let body = trimmed[digits..].trim_start_matches([' ', '\t', '　']);
    let read = r.ply_of_number(ply);
    // Messages name numbers as the file writes them.
    let expected = r.next_ply();
    let written_expected = expected.saturating_add(r.number_offset);
    if read > expected {
        // A move is missing: never skipped in silence.
        return Err(error::line(
            number,
            line,
            line.len() - trimmed.len(),
            format!("move number {ply}, expected {written_expected}"),
        ));
    }
    if read < expected {
        // A number repeated (`5`, `5`): a slip of the writer, since the moves go on in
        // order. The move is read where it stands, as other KIF readers do, and the slip
        // is said.
        r.record.warnings.push(error::line(
            number,
            line,
            line.len() - trimmed.len(),
            format!(
                "move number {ply}, expected {written_expected}: read as move {written_expected}"
            ),
        ));
    }
    let word_end = body.find([' ', '\t', '(', '　', '+']).unwrap_or(body.len());
    if let Some(kind) = EndingKind::from_kif(&body[..word_end]) {
        let time = read_tail(&body[word_end..], line, number)?;
        r.end(kind, time);
        return Ok(());
    }
    // A move's error names its column.
    let at_move = |e: Error| error::at_column(e, line, line.len() - body.len());
    let (to, len) = read_destination(r, body, line, number)?;
    let rest = &body[len..];
    let (kind, len) = PieceKind::parse_kanji(rest).ok_or_else(|| {
        error::line(
            number,
            line,
            line.len() - rest.len(),
            "expected a piece (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)",
        )
    })?;
    let (mark, rest) = read_mark(&rest[len..]);
    let (promote, drop) = (mark == Mark::Promotes, mark == Mark::Drops);
    // Some writers pad the piece to a fixed width before the origin (`同銀　(79)`).
    let mut rest = rest.trim_start_matches(['　', ' ']);
    let mv = if drop {
        Move::Drop { kind, to }
    } else if let Some(after) = rest.strip_prefix("(00)").filter(|_| !promote) {
        // Some programs write a drop with the origin 00 instead of 打 (cshogi reads it so).
        rest = after;
        Move::Drop { kind, to }
    } else {
        let from = rest
            .strip_prefix('(')
            .and_then(|s| s.get(..3))
            .and_then(|s| s.strip_suffix(')'))
            .and_then(|s| Square::parse_digits(s.as_bytes()))
            .ok_or_else(|| {
                error::line(
                    number,
                    line,
                    line.len() - rest.len(),
                    "expected the origin (77) or 打",
                )
            })?;
        rest = &rest[4..];
        if let Some(on_board) = r.pos.piece_at(from).map(|p| p.kind).filter(|&k| k != kind) {
            return Err(at_move(error::illegal(
                Some(number),
                ply,
                body[..body.len() - rest.len()].trim_end(),
                format!(
                    "the piece on {} is a {on_board}, not a {kind}",
                    String::from_utf8_lossy(&from.digits()),
                ),
            )));
        }
        check_declined(mark, r.pos.side_to_move(), kind, from, to).map_err(|reason| {
            let written = body[..body.len() - rest.len()].trim_end();
            at_move(error::illegal(Some(number), ply, written, reason))
        })?;
        Move::Normal { from, to, promote }
    };
    let time = read_tail(rest, line, number)?;
    r.push(mv, time, number, body[..body.len() - rest.len()].trim_end())
        .map_err(at_move)
}

fn write_time(out: &mut String, t: MoveTime, total_ms: u64) {
    let s = t.spent_ms / 1000;
    let total = t.total_ms.unwrap_or(total_ms) / 1000;
    let _ = write!(
        out,
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        s / 60,
        s % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    );
}

/// The KIF text of a move (without number and time): `７六歩(77)`, `同　銀(31)`, `４五角打`,
/// `２二角不成(88)`.
pub(crate) fn move_text(
    pos: &Position,
    mv: Move,
    last_to: Option<Square>,
    mark_declined: bool,
) -> String {
    let mut s = String::with_capacity(24);
    push_destination(&mut s, mv, last_to);
    match mv {
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            s.push_str(kind.kanji());
            if promote {
                s.push('成');
            } else if mark_declined && Position::may_promote(pos.side_to_move(), kind, from, to) {
                s.push_str("不成");
            }
            let d = from.digits();
            let _ = write!(s, "({}{})", d[0] as char, d[1] as char);
        }
        Move::Drop { kind, .. } => {
            s.push_str(kind.kanji());
            s.push('打');
        }
    }
    s
}

/// Writes a line of moves (the main line or a variation) as KIF move lines, a `+` after each
/// move (or ending) that a variation replaces, as Kifu for Windows marks them (`forks`: the
/// plies of the line where one branches). Returns the position at its end.
#[allow(clippy::too_many_arguments)]
fn write_line(
    out: &mut String,
    options: &WriteOptions,
    first_ply: u32,
    moves: &[RecordMove],
    ending: Option<&Ending>,
    mut pos: Position,
    mut last_to: Option<Square>,
    forks: &[u32],
) -> Position {
    let mut totals = [0u64; 2];
    for (i, m) in moves.iter().enumerate() {
        let ply = first_ply + i as u32;
        let text = move_text(&pos, m.mv, last_to, options.mark_declined);
        let _ = write!(out, "{ply:>4} {text}");
        let side = pos.side_to_move().index();
        if let Some(t) = m.time {
            totals[side] += t.spent_ms;
            out.push_str(&" ".repeat(13usize.saturating_sub(width(&text)).max(1)));
            write_time(out, t, totals[side]);
        }
        if forks.contains(&ply) {
            if m.time.is_none() {
                // Where the time would be, as Kifu for Windows pads it.
                out.push_str(&" ".repeat(13usize.saturating_sub(width(&text)).max(1)));
            }
            out.push('+');
        }
        out.push('\n');
        for c in &m.comments {
            write_comment(out, c);
        }
        pos.play_unchecked(m.mv);
        last_to = Some(m.mv.to());
    }
    if let Some(e) = ending {
        let ply = first_ply + moves.len() as u32;
        let word = e.kind.kif();
        let _ = write!(out, "{ply:>4} {word}");
        if let Some(t) = e.time {
            let side = pos.side_to_move().index();
            totals[side] += t.spent_ms;
            out.push_str(&" ".repeat(13usize.saturating_sub(width(word)).max(1)));
            write_time(out, t, totals[side]);
        }
        if forks.contains(&ply) {
            if e.time.is_none() {
                out.push_str(&" ".repeat(13usize.saturating_sub(width(word)).max(1)));
            }
            out.push('+');
        }
        out.push('\n');
        for c in &e.comments {
            write_comment(out, c);
        }
    }
    pos
}

/// Writes a record as KIF text with `options` (the encoding aside).
///
/// ```
/// use notate::shogi::{kif, usi};
/// let record = usi::read_one("position startpos moves 7g7f 3c3d 8h2b").unwrap();
/// let text = kif::to_string(&record).unwrap();
/// assert!(text.contains("   3 ２二角不成(88)\n"));
/// ```
pub(crate) fn write_with(record: &Record, options: &WriteOptions) -> String {
    let mut out = String::with_capacity(64 + record.moves.len() * 40);
    write_head(&mut out, record);
    out.push_str("手数----指手---------消費時間--\n");
    // The plies of each line (0: the main line) whose move another follows as an alternative,
    // as a reader attaches each `変化：N手` (see `RecordReader::branch_parent`): to the newest
    // line listed so far that has a move (or its ending) at ply N. That line's move at N gets
    // the `+`: Kifu for Windows marks every alternative but the last.
    let mut forks = vec![Vec::new(); record.variations.len() + 1];
    // (The newest line at each ply, from 1.)
    let mut covered_by: Vec<usize> = Vec::new();
    fn cover(covered_by: &mut Vec<usize>, line: usize, first: u32, plies: usize) {
        let (start, end) = (first as usize - 1, first as usize - 1 + plies);
        if covered_by.len() < end {
            covered_by.resize(end, line);
        }
        covered_by[start..end].fill(line);
    }
    let main_plies = record.moves.len() + usize::from(record.ending.is_some());
    cover(&mut covered_by, 0, 1, main_plies);
    for i in record.listing_order() {
        let v = &record.variations[i];
        if let Some(&line) = covered_by.get(v.first_ply as usize - 1) {
            forks[line].push(v.first_ply);
        }
        let plies = v.moves.len() + usize::from(v.ending.is_some());
        cover(&mut covered_by, i + 1, v.first_ply, plies);
    }
    let end = write_line(
        &mut out,
        options,
        1,
        &record.moves,
        record.ending.as_ref(),
        record.start.clone(),
        None,
        &forks[0],
    );
    if let Some(e) = &record.ending {
        write_summary(
            &mut out,
            record,
            record.moves.len(),
            e.kind,
            end.side_to_move(),
        );
    }
    let kept = MainLinePositions::new(record);
    for i in record.listing_order() {
        let v = &record.variations[i];
        let _ = write!(out, "\n変化：{}手\n", v.first_ply);
        let (pos, last_to) = record.position_before_with(&kept, v.parent, v.first_ply);
        let end = write_line(
            &mut out,
            options,
            v.first_ply,
            &v.moves,
            v.ending.as_ref(),
            pos,
            last_to,
            &forks[i + 1],
        );
        // Each line's own summary, as Kifu for Windows writes it (readers take only the
        // main line's).
        if let Some(e) = &v.ending {
            let plies = v.first_ply as usize - 1 + v.moves.len();
            write_summary(&mut out, record, plies, e.kind, end.side_to_move());
        }
    }
    out
}

/// Writes a record as KIF in `options.encoding`.
pub(crate) fn write_bytes(record: &Record, options: &WriteOptions) -> Result<Vec<u8>, Error> {
    let text = write_with(record, options);
    Ok(encoding::encode(&text, options.encoding)?.into_owned())
}

/// KIF: one record per file, read from UTF-8 or Shift_JIS, written in the encoding asked.
#[derive(Debug, Default)]
pub struct Kif {
    options: WriteOptions,
}

read_format!(Kif, Record, "KIF", ReadOptions, whole, |record, options| {
    read_bytes(record, options.encoding)
});

impl WriteFormat for Kif {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Kif {
        Kif { options }
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        japanese::check_writable(record, "KIF")?;
        out.extend_from_slice(&write_bytes(record, &self.options)?);
        Ok(())
    }

    fn write_text(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        japanese::check_writable(record, "KIF")?;
        out.extend_from_slice(write_with(record, &self.options).as_bytes());
        Ok(())
    }
}

write_verbs!(Kif, Record, "KIF");
