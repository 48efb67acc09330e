//! CSA (Computer Shogi Association) records, V2.2 and V3.0: `V2.2`, `N+`/`N-`, `$KEY:`,
//! `PI` with removed pieces, `P1`–`P9`, `P+99KY00KI`, `P-00AL`, `+7776FU`, `T` times,
//! `%TORYO` and the other specials, several statements on a line separated by commas,
//! several records in a file separated by `/`.

/// How this format is read (every shogi format takes the same options).
pub use super::encoding::ReadOptions;
use crate::format::{read_format, write_verbs, WriteFormat};
use std::fmt::Write as _;

use super::encoding::{self, BadBytes, Encoding};
use super::error::{self, Error};
use super::piece::{Color, Piece, PieceKind, ALL_KINDS, HAND_ORDER};
use super::position::{Move, Position};
use super::record::{play_checked, Ending, EndingKind, MoveTime, Record, RecordMove};
use super::square::Square;

/// The CSA versions notate writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CsaVersion {
    /// V2.2 (Shift_JIS by convention, no encoding line).
    V22,
    /// V3.0 with an `'CSA encoding=UTF-8` first line.
    #[default]
    V30,
}

/// How CSA is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct WriteOptions {
    /// Which version.
    pub version: CsaVersion,
}

/// CSA's information keys and the KIF header keys notate keeps them under.
const KEYS: [(&str, &str); 8] = [
    ("N+", "先手"),
    ("N-", "後手"),
    ("$EVENT", "棋戦"),
    ("$SITE", "場所"),
    ("$START_TIME", "開始日時"),
    ("$END_TIME", "終了日時"),
    ("$TIME_LIMIT", "持ち時間"),
    ("$OPENING", "戦型"),
];

/// CSA's name line of a KIF player header: `N+` for 先手, and for 下手, who is Black in a
/// handicap game's KIF; `N-` for 後手 and 上手.
fn name_key(kif: &str) -> Option<&'static str> {
    match kif {
        "先手" | "下手" => Some("N+"),
        "後手" | "上手" => Some("N-"),
        _ => None,
    }
}

/// Reads a CSA file from bytes in `encoding` (detected when `None`): every record.
///
/// ```
/// use notate::shogi::csa;
/// let record = csa::read_one("V2.2\nPI\n+\n+7776FU,T5\n-3334FU\n%TORYO\n").unwrap();
/// assert_eq!(record.moves.len(), 2);
/// assert_eq!(record.moves[0].time.unwrap().spent_ms, 5000);
/// ```
pub(crate) fn read_bytes(bytes: &[u8], encoding: Option<Encoding>) -> Vec<Result<Record, Error>> {
    match encoding::decode_marking(bytes, encoding) {
        Ok(decoded) => {
            let mut records = read_all(&decoded.text, &decoded.bad);
            if let Some(Ok(first)) = records.first_mut() {
                first.warnings.extend(decoded.warning);
            }
            records
        }
        Err(e) => vec![Err(e)],
    }
}

/// Reads every record of a CSA file (records are separated by a `/` line); a record that
/// holds bytes that were not text (`bad`) fails.
pub(crate) fn read_all(text: &str, bad: &BadBytes) -> Vec<Result<Record, Error>> {
    let mut records = Vec::new();
    let mut reader = CsaReader::new();
    // A move and its time take about twelve bytes.
    reader.record.moves.reserve(text.len() / 12);
    let mut failed: Option<Error> = None;
    let mut any = false;
    // Lines found with memchr: CSA lines are short and many.
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut number = 0;
    let mut record_start = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let raw = &text[start..end];
        start = end + 1;
        number += 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim() == "/" {
            let bad = bad.first_within(text, record_start..end);
            record_start = end;
            let done = std::mem::replace(&mut reader, CsaReader::new());
            records.push(match bad.or(failed.take()) {
                Some(e) => Err(e),
                None => done.finish(number),
            });
            any = false;
            continue;
        }
        if failed.is_some() {
            continue;
        }
        if !line.trim().is_empty() {
            any = true;
        }
        if let Err(e) = reader.line(line, number) {
            // Messages name the failed game by its players, as far as its header was read.
            failed = Some(e.with_players(reader.record.players()));
        }
    }
    if any || records.is_empty() {
        let end = text.lines().count().max(1);
        records.push(
            match bad.first_within(text, record_start..text.len()).or(failed) {
                Some(e) => Err(e),
                None => reader.finish(end),
            },
        );
    }
    records
}

struct CsaReader {
    record: Record,
    pos: Position,
    /// Whether a `PI` or `P1`–`P9` line set the board.
    board_given: bool,
    /// Whether the start position is settled (at the first move or the side line).
    started: bool,
    side: Option<Color>,
    ended: bool,
}

impl CsaReader {
    fn new() -> CsaReader {
        CsaReader {
            record: Record::default(),
            pos: Position::empty(),
            board_given: false,
            started: false,
            side: None,
            ended: false,
        }
    }

    fn finish(mut self, number: usize) -> Result<Record, Error> {
        match self.settle(number, "") {
            Ok(()) => Ok(self.record),
            Err(e) => Err(e.with_players(self.record.players())),
        }
    }

    fn settle(&mut self, number: usize, line: &str) -> Result<(), Error> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        if !self.board_given && self.pos == Position::empty() {
            return Err(error::line(
                number,
                line,
                0,
                "no start position (PI or P1–P9) before the moves",
            ));
        }
        self.pos.set_side_to_move(self.side.unwrap_or(Color::Black));
        self.pos.set_ply(1);
        self.pos
            .validate()
            .map_err(|m| error::line(number, line, 0, format!("the start position: {m}")))?;
        self.record.start = self.pos.clone();
        Ok(())
    }

    /// A `'` remark: `'*` lines are the record's comments (kept on the last move, on the
    /// ending once there is one, or before the first move); other remarks are the file's
    /// own notes, as CSA defines them.
    fn remark(&mut self, line: &str) {
        let Some(c) = line.strip_prefix("'*") else {
            return;
        };
        let comments = match (self.record.ending.as_mut(), self.record.moves.last_mut()) {
            (Some(e), _) => &mut e.comments,
            (None, Some(m)) => &mut m.comments,
            (None, None) => &mut self.record.comments,
        };
        comments.push(c.to_string());
    }

    fn line(&mut self, line: &str, number: usize) -> Result<(), Error> {
        if line.starts_with('\'') {
            self.remark(line);
            return Ok(());
        }
        // Names and information keep their commas.
        if line.starts_with('N') || line.starts_with('$') {
            return self.statement(line, line, 0, number);
        }
        if memchr::memchr(b',', line.as_bytes()).is_none() {
            return self.statement(line, line, 0, number);
        }
        let mut at = 0;
        for part in line.split(',') {
            if part.starts_with('\'') {
                // A remark ends the line, commas and all (`%KACHI,'* -5000 win`).
                self.remark(&line[at..]);
                break;
            }
            self.statement(part, line, at, number)?;
            at += part.len() + 1;
        }
        Ok(())
    }

    fn statement(&mut self, s: &str, line: &str, at: usize, number: usize) -> Result<(), Error> {
        let s = s.trim_end();
        let fail = |offset: usize, message: &str| error::line(number, line, at + offset, message);
        if s.trim().is_empty() {
            return Ok(());
        }
        let bytes = s.as_bytes();
        match bytes[0] {
            b'V' => Ok(()),
            b'N' | b'$' => {
                let (key, value) = if let Some(v) = s.strip_prefix("N+") {
                    ("N+", v)
                } else if let Some(v) = s.strip_prefix("N-") {
                    ("N-", v)
                } else if let Some((k, v)) = s.split_once(':') {
                    (k, v)
                } else {
                    return Err(fail(0, "expected N+name, N-name or $KEY:value"));
                };
                let key = KEYS
                    .iter()
                    .find(|(csa, _)| *csa == key)
                    .map(|(_, kif)| kif.to_string())
                    .unwrap_or_else(|| match key.strip_prefix('$') {
                        Some(k) if !k.is_ascii() => k.to_string(),
                        _ => key.to_string(),
                    });
                self.record.header.push((key, value.to_string()));
                Ok(())
            }
            b'P' => self.position_statement(s, &fail),
            b'+' | b'-' if s.len() == 1 => {
                if self.started {
                    return Err(fail(0, "the side to move after the moves began"));
                }
                self.side = Some(if bytes[0] == b'+' {
                    Color::Black
                } else {
                    Color::White
                });
                self.settle(number, line)
            }
            b'+' | b'-' => {
                self.settle(number, line)?;
                self.read_move(s, line, at, number)
            }
            b'T' => {
                let time =
                    parse_seconds(&s[1..]).ok_or_else(|| fail(1, "expected seconds after T"))?;
                let t = Some(MoveTime {
                    spent_ms: time,
                    total_ms: None,
                });
                if self.ended {
                    if let Some(e) = self.record.ending.as_mut() {
                        e.time = t;
                    }
                    return Ok(());
                }
                match self.record.moves.last_mut() {
                    Some(m) => {
                        m.time = t;
                        Ok(())
                    }
                    None => Err(fail(0, "a time before any move")),
                }
            }
            b'%' => {
                self.settle(number, line)?;
                let side = self.pos.side_to_move();
                let kind = EndingKind::from_csa(&s[1..], side)
                    .ok_or_else(|| fail(0, "unknown special move"))?;
                if self.ended {
                    // Floodgate repeats a `%KACHI` after the player's own: the same ending
                    // again is read once, and said; another ending is an error.
                    if self.record.ending.as_ref().map(|e| e.kind) == Some(kind) {
                        self.record
                            .warnings
                            .push(fail(0, "the ending is repeated: read once"));
                        return Ok(());
                    }
                    return Err(fail(0, "a second ending"));
                }
                self.record.ending = Some(Ending::new(kind));
                self.ended = true;
                Ok(())
            }
            _ => Err(fail(0, "not a CSA statement")),
        }
    }

    fn position_statement(
        &mut self,
        s: &str,
        fail: &dyn Fn(usize, &str) -> Error,
    ) -> Result<(), Error> {
        if self.started {
            return Err(fail(0, "a position line after the moves began"));
        }
        let bytes = s.as_bytes();
        match bytes.get(1) {
            Some(b'I') => {
                self.pos = Position::startpos();
                self.board_given = true;
                for (k, chunk) in bytes[2..].chunks(4).enumerate() {
                    let offset = 2 + k * 4;
                    let sq = (chunk.len() == 4)
                        .then(|| Square::parse_digits(&chunk[..2]))
                        .flatten()
                        .ok_or_else(|| {
                            fail(offset, "expected a square and piece to remove (82HI)")
                        })?;
                    let kind = PieceKind::from_csa(&chunk[2..]);
                    if kind.is_none() || self.pos.piece_at(sq).map(|p| p.kind) != kind {
                        return Err(fail(offset, "no such piece there to remove"));
                    }
                    self.pos.set_piece(sq, None);
                }
                Ok(())
            }
            Some(&r @ b'1'..=b'9') => {
                let row = r - b'1';
                // Cells are ` * ` or `+FU` in three columns (V2.2), or blank-separated
                // (`P2 * -HI * * * * * -KA *`, as V3.0 files are also written): read as
                // tokens, blanks skipped, so both layouts read.
                let mut at = 2;
                for col in 0..9u8 {
                    while bytes.get(at) == Some(&b' ') {
                        at += 1;
                    }
                    let sq = Square::from_index((row * 9 + col) as usize).expect("9×9");
                    match bytes.get(at) {
                        Some(b'*') => {
                            self.pos.set_piece(sq, None);
                            at += 1;
                        }
                        Some(&c @ (b'+' | b'-')) => {
                            let color = if c == b'+' {
                                Color::Black
                            } else {
                                Color::White
                            };
                            let kind = bytes
                                .get(at + 1..at + 3)
                                .and_then(PieceKind::from_csa)
                                .ok_or_else(|| fail(at + 1, "unknown piece code"))?;
                            self.pos.set_piece(sq, Some(Piece::new(color, kind)));
                            at += 3;
                        }
                        _ => return Err(fail(at, "expected ` * `, `+FU` or `-FU`")),
                    }
                }
                if !s[at..].trim().is_empty() {
                    return Err(fail(at, "a rank line has 9 cells"));
                }
                self.board_given = true;
                Ok(())
            }
            Some(&c @ (b'+' | b'-')) => {
                let color = if c == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                for (k, chunk) in bytes[2..].chunks(4).enumerate() {
                    let offset = 2 + k * 4;
                    if chunk.len() != 4 {
                        return Err(fail(
                            offset,
                            "expected a square and a piece (99KY, 00KI, 00AL)",
                        ));
                    }
                    if chunk == b"00AL" {
                        self.give_rest(color);
                        continue;
                    }
                    let kind = PieceKind::from_csa(&chunk[2..])
                        .ok_or_else(|| fail(offset + 2, "unknown piece code"))?;
                    if &chunk[..2] == b"00" {
                        if kind.hand_index().is_none() {
                            return Err(fail(offset, "only unpromoted pieces go in hand"));
                        }
                        let n = self.pos.hand_count(color, kind);
                        self.pos.set_hand_count(color, kind, n.saturating_add(1));
                    } else {
                        let sq = Square::parse_digits(&chunk[..2])
                            .ok_or_else(|| fail(offset, "bad square"))?;
                        self.pos.set_piece(sq, Some(Piece::new(color, kind)));
                    }
                }
                Ok(())
            }
            _ => Err(fail(0, "expected PI, P1–P9, P+ or P-")),
        }
    }

    /// `00AL`: every piece not on the board and not in either hand goes to `color`'s hand.
    fn give_rest(&mut self, color: Color) {
        let mut used = [0u8; 8];
        for index in 0..81 {
            if let Some(p) = self.pos.piece_at(Square::from_index(index).expect("0..81")) {
                used[p.kind.unpromoted() as usize] += 1;
            }
        }
        for kind in HAND_ORDER {
            let held =
                self.pos.hand_count(Color::Black, kind) + self.pos.hand_count(Color::White, kind);
            let rest = kind
                .set_count()
                .saturating_sub(used[kind as usize])
                .saturating_sub(held);
            let n = self.pos.hand_count(color, kind);
            self.pos.set_hand_count(color, kind, n + rest);
        }
    }

    fn read_move(&mut self, s: &str, line: &str, at: usize, number: usize) -> Result<(), Error> {
        let b = s.as_bytes();
        let ply = self.record.moves.len() as u32 + 1;
        let fail = |reason: String| error::illegal(Some(number), ply, s, reason);
        if self.ended {
            return Err(fail("a move after the end of the game".into()));
        }
        if b.len() != 7 {
            return Err(error::line(
                number,
                line,
                at,
                "a move is +7776FU (sign, from, to, piece)",
            ));
        }
        let color = if b[0] == b'+' {
            Color::Black
        } else {
            Color::White
        };
        if color != self.pos.side_to_move() {
            return Err(fail(format!("it is {:?}'s move", self.pos.side_to_move())));
        }
        let to = Square::parse_digits(&b[3..5])
            .ok_or_else(|| error::line(number, line, at + 3, "bad destination square"))?;
        let kind = PieceKind::from_csa(&b[5..7])
            .ok_or_else(|| error::line(number, line, at + 5, "unknown piece code"))?;
        let mv = if &b[1..3] == b"00" {
            Move::Drop { kind, to }
        } else {
            let from = Square::parse_digits(&b[1..3])
                .ok_or_else(|| error::line(number, line, at + 1, "bad origin square"))?;
            let on = self.pos.piece_at(from).ok_or_else(|| {
                fail(format!("no piece on {}", String::from_utf8_lossy(&b[1..3])))
            })?;
            let promote = if on.kind == kind {
                false
            } else if on.kind.promoted() == Some(kind) {
                true
            } else {
                return Err(fail(format!(
                    "the piece on {} is {}, not {}",
                    String::from_utf8_lossy(&b[1..3]),
                    on.kind.csa(),
                    kind.csa()
                )));
            };
            Move::Normal { from, to, promote }
        };
        play_checked(&mut self.pos, mv, ply, Some(number), s)?;
        self.record.moves.push(RecordMove::new(mv));
        Ok(())
    }
}

/// `5`, `5.123` → milliseconds.
fn parse_seconds(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    let dot = b.iter().position(|&c| c == b'.').unwrap_or(b.len());
    let (whole, frac) = (&b[..dot], b.get(dot + 1..).unwrap_or(&[]));
    if whole.is_empty() || whole.len() > 12 || frac.len() > 3 || (dot < b.len() && frac.is_empty())
    {
        return None;
    }
    let mut ms = 0u64;
    for &d in whole {
        if !d.is_ascii_digit() {
            return None;
        }
        ms = ms * 10 + u64::from(d - b'0');
    }
    for i in 0..3 {
        let d = frac.get(i).copied().unwrap_or(b'0');
        if !d.is_ascii_digit() {
            return None;
        }
        ms = ms * 10 + u64::from(d - b'0');
    }
    Some(ms)
}

/// The CSA move of `mv` on `pos`: `+7776FU`, `+3423UM`, `+0045KA`.
pub fn move_text(pos: &Position, mv: Move) -> String {
    let mut s = String::with_capacity(7);
    s.push(pos.side_to_move().csa());
    match mv {
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let after = if promote {
                kind.promoted().unwrap_or(kind)
            } else {
                kind
            };
            let (f, t) = (from.digits(), to.digits());
            let _ = write!(
                s,
                "{}{}{}{}{}",
                f[0] as char,
                f[1] as char,
                t[0] as char,
                t[1] as char,
                after.csa()
            );
        }
        Move::Drop { kind, to } => {
            let t = to.digits();
            let _ = write!(s, "00{}{}{}", t[0] as char, t[1] as char, kind.csa());
        }
    }
    s
}

/// `T` and the seconds spent; fractions of a second only from V3.0 on (V2.2's are whole:
/// cut, as KIF's are).
fn write_time(out: &mut String, t: MoveTime, version: CsaVersion) {
    let _ = write!(out, "T{}", t.spent_ms / 1000);
    if version == CsaVersion::V30 && !t.spent_ms.is_multiple_of(1000) {
        let _ = write!(out, ".{:03}", t.spent_ms % 1000);
        while out.ends_with('0') {
            out.pop();
        }
    }
    out.push('\n');
}

fn write_position(out: &mut String, pos: &Position) {
    let start = Position::startpos();
    let removed: Option<Vec<Square>> = (pos.hands_empty()).then(|| {
        (0..81)
            .filter_map(Square::from_index)
            .filter(|&sq| pos.piece_at(sq) != start.piece_at(sq))
            .collect()
    });
    let removal_only = removed
        .as_ref()
        .is_some_and(|r| r.iter().all(|&sq| pos.piece_at(sq).is_none()));
    if removal_only {
        out.push_str("PI");
        for sq in removed.unwrap_or_default() {
            let d = sq.digits();
            let kind = start.piece_at(sq).map_or(PieceKind::Pawn, |p| p.kind);
            let _ = write!(out, "{}{}{}", d[0] as char, d[1] as char, kind.csa());
        }
        out.push('\n');
    } else {
        for row in 0..9u8 {
            let _ = write!(out, "P{}", row + 1);
            for col in 0..9u8 {
                match pos.piece_at(Square::from_index((row * 9 + col) as usize).expect("9×9")) {
                    None => out.push_str(" * "),
                    Some(p) => {
                        out.push(p.color.csa());
                        out.push_str(p.kind.csa());
                    }
                }
            }
            out.push('\n');
        }
        for color in [Color::Black, Color::White] {
            let mut line = String::new();
            for kind in ALL_KINDS
                .iter()
                .copied()
                .filter(|k| k.hand_index().is_some())
                .rev()
            {
                for _ in 0..pos.hand_count(color, kind) {
                    let _ = write!(line, "00{}", kind.csa());
                }
            }
            if !line.is_empty() {
                let _ = writeln!(out, "P{}{line}", color.csa());
            }
        }
    }
    out.push(pos.side_to_move().csa());
    out.push('\n');
}

/// Refuses a header CSA cannot hold: a line break, or a `:` in a key (it would split there).
fn check_header(record: &Record) -> Result<(), Error> {
    for (key, value) in &record.header {
        let csa_name = KEYS.iter().any(|(_, kif)| kif == key);
        let key_breaks = !csa_name && (key.contains(':') || key.is_empty());
        if key_breaks || key.contains(['\n', '\r']) || value.contains(['\n', '\r']) {
            return Err(error::unwritable(
                "CSA",
                format!("the header {key:?}: {value:?} would not read back as one"),
            ));
        }
    }
    Ok(())
}

/// Writes a CSA comment: one `'*` line per line of it.
fn write_comment(out: &mut String, comment: &str) {
    for line in comment.split('\n') {
        let _ = writeln!(out, "'*{}", line.strip_suffix('\r').unwrap_or(line));
    }
}

/// Writes a record as CSA. CSA has no variations: only the main line is written.
///
/// ```
/// use notate::shogi::{csa, usi};
/// let record = usi::read_one("position startpos moves 7g7f 3c3d 8h2b+").unwrap();
/// let text = csa::to_string(&record).unwrap();
/// assert!(text.ends_with("PI\n+\n+7776FU\n-3334FU\n+8822UM\n"));
/// ```
pub(crate) fn write(record: &Record, options: &WriteOptions) -> String {
    let mut out = String::with_capacity(64 + record.moves.len() * 12);
    match options.version {
        CsaVersion::V30 => out.push_str("'CSA encoding=UTF-8\nV3.0\n"),
        CsaVersion::V22 => out.push_str("V2.2\n"),
    }
    // Names first, as CSA orders its information.
    let name = |line| {
        record
            .header
            .iter()
            .filter(move |(k, _)| name_key(k) == Some(line))
    };
    let names = name("N+").chain(name("N-"));
    let others = record.header.iter().filter(|(k, _)| name_key(k).is_none());
    for (key, value) in names.chain(others) {
        if key == "手合割" {
            continue;
        }
        if let Some(csa) = name_key(key) {
            let _ = writeln!(out, "{csa}{value}");
            continue;
        }
        match KEYS.iter().find(|(_, kif)| kif == key) {
            Some((csa, _)) => {
                let _ = writeln!(out, "{csa}:{value}");
            }
            None if key.starts_with('$') => {
                let _ = writeln!(out, "{key}:{value}");
            }
            None => {
                let _ = writeln!(out, "${key}:{value}");
            }
        }
    }
    for c in &record.comments {
        write_comment(&mut out, c);
    }
    write_position(&mut out, &record.start);
    let mut pos = record.start.clone();
    for m in &record.moves {
        out.push_str(&move_text(&pos, m.mv));
        out.push('\n');
        if let Some(t) = m.time {
            write_time(&mut out, t, options.version);
        }
        for c in &m.comments {
            write_comment(&mut out, c);
        }
        pos.play_unchecked(m.mv);
    }
    if let Some(e) = &record.ending {
        let word = match (options.version, e.kind) {
            // V2.2 predates `%MAX_MOVES`: the draw it is.
            (CsaVersion::V22, EndingKind::MaxMoves) => Some("HIKIWAKE"),
            (_, kind) => kind.csa(pos.side_to_move()),
        };
        if let Some(word) = word {
            let _ = writeln!(out, "%{word}");
            if let Some(t) = e.time {
                write_time(&mut out, t, options.version);
            }
            for c in &e.comments {
                write_comment(&mut out, c);
            }
        }
    }
    out
}

/// Writes a record as CSA bytes: V3.0 in UTF-8, V2.2 in Shift_JIS (its convention).
pub(crate) fn write_bytes(record: &Record, options: &WriteOptions) -> Result<Vec<u8>, Error> {
    let text = write(record, options);
    let encoding = match options.version {
        CsaVersion::V30 => Encoding::Utf8,
        CsaVersion::V22 => Encoding::ShiftJis,
    };
    Ok(encoding::encode(&text, encoding)?.into_owned())
}

/// CSA: a file of records separated by `/` lines, read from UTF-8 or Shift_JIS; V3.0
/// written in UTF-8, V2.2 in Shift_JIS.
#[derive(Debug, Default)]
pub struct Csa {
    options: WriteOptions,
}

read_format!(Csa, Record, "CSA", ReadOptions, whole, |record, options| {
    read_bytes(record, options.encoding)
});

impl WriteFormat for Csa {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Csa {
        Csa { options }
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        check_header(record)?;
        out.extend_from_slice(&write_bytes(record, &self.options)?);
        Ok(())
    }

    fn write_text(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        check_header(record)?;
        out.extend_from_slice(write(record, &self.options).as_bytes());
        Ok(())
    }
}

write_verbs!(Csa, Record, "CSA");
