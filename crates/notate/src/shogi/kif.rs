//! KIF (Kakinoki): headers, board diagrams (BOD), 手合割, move lines with origin and times,
//! endings, comments and `変化` variations. The header, diagram, summary and variation
//! handling here are shared with KI2 ([`super::ki2`]), which differs only in its moves.
//!
//! Read leniently where real files differ from the specification (`不成`, `同` followed by
//! an ASCII space or nothing, `王`/`竜`/`全` spellings, ASCII digits), strictly everywhere
//! else: a line notate cannot read is an error naming it, and an illegal move is an error
//! naming its ply.

use std::fmt::Write as _;

use super::encoding::{self, Encoding};
use super::error::Error;
use super::piece::{Color, Piece, PieceKind, HAND_ORDER};
use super::position::{Move, Position};
use super::record::{
    branch_parent, play_checked, Ending, EndingKind, MoveTime, Record, RecordMove, Variation,
};
use super::sfen::STARTPOS;
use super::square::Square;

/// The 手合割 (handicap) names with their start positions; JKF's preset names alongside.
const PRESETS: [(&str, &str, &str); 16] = [
    ("平手", "HIRATE", STARTPOS),
    (
        "香落ち",
        "KY",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "KY_R",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "KA",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "HI",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "HIKY",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "2",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "3",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "4",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "5",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "5_L",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "6",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "7_L",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "7_R",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "8",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "10",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The start positions of [`PRESETS`], parsed once.
fn preset_positions() -> &'static [Position] {
    static POSITIONS: std::sync::OnceLock<Vec<Position>> = std::sync::OnceLock::new();
    POSITIONS.get_or_init(|| {
        PRESETS
            .iter()
            .map(|p| Position::from_sfen(p.2).expect("presets are valid"))
            .collect()
    })
}

/// The start position of a 手合割 name.
pub(crate) fn preset_position(name: &str) -> Option<Position> {
    let i = PRESETS.iter().position(|p| p.0 == name)?;
    Some(preset_positions()[i].clone())
}

/// The start position of a JKF preset name.
pub(crate) fn jkf_preset_position(name: &str) -> Option<Position> {
    let i = PRESETS.iter().position(|p| p.1 == name)?;
    Some(preset_positions()[i].clone())
}

/// The 手合割 name and JKF preset of a start position, if it is one.
pub(crate) fn preset_of(pos: &Position) -> Option<(&'static str, &'static str)> {
    let i = preset_positions()
        .iter()
        .position(|p| p.same_position(pos))?;
    Some((PRESETS[i].0, PRESETS[i].1))
}

/// How KIF is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifOptions {
    /// The encoding of [`write_bytes`].
    pub encoding: Encoding,
    /// Write `不成` on a declined promotion, as Kifu for Windows, ShogiGUI and 81Dojo do
    /// (default). The specification leaves it unmarked, and some readers (cshogi,
    /// shogi-kifu-converter, tsshogi) stop at it: `false` writes it their way.
    pub mark_declined: bool,
}

impl Default for KifOptions {
    fn default() -> KifOptions {
        KifOptions {
            encoding: Encoding::Utf8,
            mark_declined: true,
        }
    }
}

/// Reads a KIF record from text.
///
/// ```
/// use notate::shogi::kif;
/// let record = kif::read("   1 ７六歩(77)   ( 0:05/00:00:05)\n   2 投了\n").unwrap();
/// assert_eq!(record.moves[0].mv.to_string(), "7g7f");
/// assert_eq!(record.moves[0].time.unwrap().spent_ms, 5000);
/// ```
pub fn read(text: &str) -> Result<Record, Error> {
    read_japanese(text, Style::Kif)
}

/// Reads a KIF record from bytes in `encoding` (detected when `None`).
pub fn read_bytes(bytes: &[u8], encoding: Option<Encoding>) -> Result<Record, Error> {
    read(&encoding::decode(bytes, encoding)?)
}

/// Which of the two Japanese formats a reader or writer handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Kif,
    Ki2,
}

/// The state of a KIF or KI2 reader.
pub(crate) struct Reader {
    pub record: Record,
    /// Lines of a board diagram, and whether one was seen.
    bod_rows: Vec<[Option<Piece>; 9]>,
    bod_hands: [Option<[u8; 7]>; 2],
    bod_side: Option<Color>,
    started: bool,
    /// The line being read: 0 the main line, `i` the variation `i - 1`.
    line: usize,
    /// The position at the tip of the line being read.
    pub pos: Position,
    /// The destination of the line's last move (for `同`).
    pub last_to: Option<Square>,
    ended: bool,
    pending_comments: Vec<String>,
}

impl Reader {
    /// The 1-based ply number of the next move of the current line.
    pub fn next_ply(&self) -> u32 {
        match self.line {
            0 => self.record.moves.len() as u32 + 1,
            i => {
                let v = &self.record.variations[i - 1];
                v.first_ply + v.moves.len() as u32
            }
        }
    }

    /// Adds a move to the current line after checking it.
    pub fn push(
        &mut self,
        mv: Move,
        time: Option<MoveTime>,
        number: usize,
        written: &str,
    ) -> Result<(), Error> {
        if self.ended {
            return Err(Error::Move {
                line: Some(number),
                ply: self.next_ply(),
                mv: written.to_string(),
                reason: "a move after the end of the game".into(),
            });
        }
        let ply = self.next_ply();
        play_checked(&mut self.pos, mv, ply, Some(number), written)?;
        self.last_to = Some(mv.to());
        let m = RecordMove {
            mv,
            time,
            comments: std::mem::take(&mut self.pending_comments),
        };
        match self.line {
            0 => self.record.moves.push(m),
            i => self.record.variations[i - 1].moves.push(m),
        }
        Ok(())
    }

    /// Ends the current line.
    pub fn end(&mut self, kind: EndingKind, time: Option<MoveTime>) {
        let ending = Some(Ending { kind, time });
        match self.line {
            0 => self.record.ending = ending,
            i => self.record.variations[i - 1].ending = ending,
        }
        self.ended = true;
    }

    fn comment(&mut self, text: String) {
        let moves = match self.line {
            0 => &mut self.record.moves,
            i => &mut self.record.variations[i - 1].moves,
        };
        match moves.last_mut() {
            Some(m) => m.comments.push(text),
            None if self.line == 0 => self.record.comments.push(text),
            None => self.pending_comments.push(text),
        }
    }

    /// Settles the start position once the header is over.
    pub fn start(&mut self, number: usize, text: &str) -> Result<(), Error> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        let mut start = if !self.bod_rows.is_empty() {
            if self.bod_rows.len() != 9 {
                return Err(Error::line(
                    number,
                    text,
                    0,
                    format!("the board diagram has {} ranks, not 9", self.bod_rows.len()),
                ));
            }
            let mut pos = Position::empty();
            for (row, cells) in self.bod_rows.iter().enumerate() {
                for (col, piece) in cells.iter().enumerate() {
                    pos.set_piece(Square::from_index(row * 9 + col).expect("9×9"), *piece);
                }
            }
            pos.set_side_to_move(self.bod_side.unwrap_or(Color::Black));
            pos
        } else {
            match self.record.header_value("手合割") {
                None => Position::startpos(),
                Some(name) => preset_position(name.trim()).ok_or_else(|| {
                    Error::line(
                        number,
                        text,
                        0,
                        format!("unknown 手合割 {name:?} and no board diagram"),
                    )
                })?,
            }
        };
        for color in [Color::Black, Color::White] {
            if let Some(hand) = self.bod_hands[color.index()] {
                for (i, &n) in hand.iter().enumerate() {
                    start.set_hand_count(color, super::piece::ALL_KINDS[i], n);
                }
            }
        }
        if self.bod_rows.is_empty() {
            if let Some(side) = self.bod_side {
                start.set_side_to_move(side);
            }
        }
        start
            .validate()
            .map_err(|m| Error::line(number, text, 0, format!("the start position: {m}")))?;
        self.record.start = start.clone();
        self.pos = start;
        Ok(())
    }
}

/// Reads KIF or KI2 text; `style` says how move lines look.
pub(crate) fn read_japanese(text: &str, style: Style) -> Result<Record, Error> {
    let mut r = Reader {
        record: Record::default(),
        bod_rows: Vec::new(),
        bod_hands: [None, None],
        bod_side: None,
        started: false,
        line: 0,
        pos: Position::startpos(),
        last_to: None,
        ended: false,
        pending_comments: Vec::new(),
    };
    let mut summary: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim_end_matches(['\r', ' ', '\t', '　']);
        let trimmed = line.trim_start_matches([' ', '\t', '　']);
        if trimmed.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(c) = line.strip_prefix('*') {
            r.comment(c.to_string());
            continue;
        }
        if line.starts_with('&') {
            r.comment(line.to_string());
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("変化") {
            r.start(number, line)?;
            let n = rest
                .trim_start_matches([':', '：', ' ', '　'])
                .trim_end_matches('手')
                .trim();
            let first_ply: u32 = n
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| Error::line(number, line, 0, "expected 変化：N手"))?;
            let parent = branch_parent(&r.record, first_ply).ok_or_else(|| {
                Error::line(
                    number,
                    line,
                    0,
                    format!("no line has a move {first_ply} to branch from"),
                )
            })?;
            let (pos, last_to) = r.record.position_before(parent, first_ply);
            r.record.variations.push(Variation {
                parent,
                first_ply,
                moves: Vec::new(),
                ending: None,
            });
            r.line = r.record.variations.len();
            r.pos = pos;
            r.last_to = last_to;
            r.ended = false;
            continue;
        }
        if trimmed.starts_with("まで") {
            if r.line == 0 {
                summary = Some((number, trimmed.to_string()));
            }
            // KI2 has no ending line: the summary is the only place the ending is written.
            if style == Style::Ki2 && !r.ended {
                r.start(number, line)?;
                if let Some(kind) = parse_summary(trimmed) {
                    r.end(kind, None);
                }
            }
            continue;
        }
        if trimmed.starts_with("手数----") || trimmed.starts_with("手数＝") {
            if trimmed.starts_with("手数----") {
                r.start(number, line)?;
            }
            continue;
        }
        if !r.started && read_diagram_line(&mut r, line, number)? {
            continue;
        }
        let first = trimmed.as_bytes()[0];
        let is_move = match style {
            Style::Kif => first.is_ascii_digit(),
            Style::Ki2 => trimmed.starts_with(['▲', '△', '☗', '☖', '▽']),
        };
        if is_move {
            r.start(number, line)?;
            match style {
                Style::Kif => read_move_line(&mut r, line, number)?,
                Style::Ki2 => super::ki2::read_move_line(&mut r, line, number)?,
            }
            continue;
        }
        if let Some((key, value)) = split_header(line) {
            r.record.header.push((key.to_string(), value.to_string()));
            continue;
        }
        return Err(Error::line(number, line, 0, "not a KIF line"));
    }
    let end = text.lines().count();
    r.start(end, "")?;
    r.record.normalize_variations();
    // A summary that disagrees with the moves read means moves went missing.
    if let Some((number, text)) = summary {
        if let Some(n) = summary_plies(&text) {
            if n != r.record.moves.len() {
                return Err(Error::line(
                    number,
                    &text,
                    0,
                    format!(
                        "the summary says {n} moves, the main line has {}",
                        r.record.moves.len()
                    ),
                ));
            }
        }
    }
    Ok(r.record)
}

/// `key：value` (full-width or ASCII colon).
fn split_header(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once('：').or_else(|| line.split_once(':'))?;
    let key = key.trim();
    (!key.is_empty() && !key.contains([' ', '　'])).then_some((key, value.trim()))
}

/// Reads a line of a board diagram (or its hands, side or frame); `false` if it is none.
fn read_diagram_line(r: &mut Reader, line: &str, number: usize) -> Result<bool, Error> {
    let trimmed = line.trim_start();
    for (prefix, color) in [
        ("先手の持駒", Color::Black),
        ("下手の持駒", Color::Black),
        ("後手の持駒", Color::White),
        ("上手の持駒", Color::White),
    ] {
        if let Some(rest) = trimmed.strip_prefix(prefix) {
            let rest = rest.trim_start_matches(['：', ':']);
            r.bod_hands[color.index()] =
                Some(parse_hand(rest).map_err(|(at, m)| {
                    Error::line(number, line, line.len() - rest.len() + at, m)
                })?);
            return Ok(true);
        }
    }
    match trimmed {
        "先手番" | "下手番" => {
            r.bod_side = Some(Color::Black);
            return Ok(true);
        }
        "後手番" | "上手番" => {
            r.bod_side = Some(Color::White);
            return Ok(true);
        }
        _ => {}
    }
    if trimmed.starts_with("+---") || trimmed.starts_with('９') {
        return Ok(true);
    }
    if let Some(body) = trimmed.strip_prefix('|') {
        let cells: Vec<char> = body.chars().take_while(|&c| c != '|').collect();
        if cells.len() != 18 {
            return Err(Error::line(
                number,
                line,
                0,
                "a board diagram rank has 9 squares of 2 characters",
            ));
        }
        let mut row = [None; 9];
        for (col, pair) in cells.chunks(2).enumerate() {
            let color = match pair[0] {
                ' ' | '^' => Color::Black,
                'v' | 'V' => Color::White,
                _ => {
                    return Err(Error::line(
                        number,
                        line,
                        0,
                        format!("{:?} is not a side mark", pair[0]),
                    ))
                }
            };
            if pair[1] == '・' {
                continue;
            }
            let mut buf = [0u8; 4];
            let (kind, _) =
                PieceKind::parse_kanji(pair[1].encode_utf8(&mut buf)).ok_or_else(|| {
                    Error::line(number, line, 0, format!("{:?} is not a piece", pair[1]))
                })?;
            row[col] = Some(Piece::new(color, kind));
        }
        if r.bod_rows.len() == 9 {
            return Err(Error::line(
                number,
                line,
                0,
                "a tenth rank in the board diagram",
            ));
        }
        r.bod_rows.push(row);
        return Ok(true);
    }
    Ok(false)
}

/// A kanji number 1–18 (`二`, `十`, `十六`) at the start of `text`, and its length.
fn kanji_count(text: &str) -> Option<(u8, usize)> {
    const DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let digit = |c: char| DIGITS.iter().position(|&d| d == c).map(|i| i as u8 + 1);
    let mut chars = text.chars();
    match chars.next()? {
        '十' => match chars.next().and_then(digit) {
            Some(d) => Some((10 + d, 6)),
            None => Some((10, 3)),
        },
        c => digit(c).map(|d| (d, 3)),
    }
}

/// Writes a count of pieces in hand: nothing for 1, `二`…`九`, `十`, `十一`….
fn write_kanji_count(out: &mut String, n: u8) {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0 | 1 => {}
        2..=9 => out.push_str(DIGITS[n as usize]),
        _ => {
            out.push('十');
            out.push_str(DIGITS[(n % 10) as usize]);
        }
    }
}

/// `金　歩二　` or `なし` → counts by hand index.
fn parse_hand(text: &str) -> Result<[u8; 7], (usize, String)> {
    let mut hand = [0u8; 7];
    let mut at = 0;
    let text_trim = text.trim_matches([' ', '　']);
    if text_trim == "なし" || text_trim.is_empty() {
        return Ok(hand);
    }
    while at < text.len() {
        let rest = &text[at..];
        if rest.starts_with([' ', '　']) {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let (kind, len) = PieceKind::parse_kanji(rest)
            .filter(|(k, _)| k.hand_index().is_some())
            .ok_or_else(|| (at, "not a piece that can be held in hand".to_string()))?;
        at += len;
        let (n, len) = kanji_count(&text[at..]).unwrap_or((1, 0));
        at += len;
        let i = kind.hand_index().expect("filtered");
        hand[i] = hand[i].saturating_add(n);
    }
    Ok(hand)
}

/// Reads `( 0:05/00:00:05)` (or `(0:05)`) from the start of `text`: spent and total.
pub(crate) fn parse_time(text: &str) -> Option<(MoveTime, usize)> {
    let close = text.find(')')?;
    let inner = text.get(1..close)?.trim();
    let (now, total) = match inner.split_once('/') {
        Some((a, b)) => (a.trim(), Some(b.trim())),
        None => (inner, None),
    };
    let seconds = |s: &str| -> Option<u64> {
        let mut total = 0u64;
        let mut parts = 0;
        for p in s.split(':') {
            parts += 1;
            let n: u64 = p.trim().parse().ok()?;
            total = total.checked_mul(60)?.checked_add(n)?;
        }
        (2..=3).contains(&parts).then_some(total)
    };
    let spent = seconds(now)?;
    let total = match total {
        Some(t) => Some(seconds(t)? * 1000),
        None => None,
    };
    Some((
        MoveTime {
            spent_ms: spent * 1000,
            total_ms: total,
        },
        close + 1,
    ))
}

/// The text after a move or ending: an optional time, an optional `+` (a variation
/// follows), nothing else.
pub(crate) fn read_tail(rest: &str, line: &str, number: usize) -> Result<Option<MoveTime>, Error> {
    let at = line.len() - rest.len();
    let mut rest = rest.trim_start();
    let mut time = None;
    if rest.starts_with('(') {
        let (t, len) = parse_time(rest).ok_or_else(|| {
            Error::line(
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
        return Err(Error::line(
            number,
            line,
            at.max(line.len() - rest.len()),
            "unexpected text after the move",
        ));
    }
    Ok(time)
}

/// `同` (and the full-width or ASCII spaces after it), or a square: the destination.
pub(crate) fn read_destination(
    r: &Reader,
    body: &str,
    line: &str,
    number: usize,
) -> Result<(Square, usize), Error> {
    let at = line.len() - body.len();
    if let Some(rest) = body.strip_prefix('同') {
        let to = r
            .last_to
            .ok_or_else(|| Error::line(number, line, at, "同 with no previous move"))?;
        let skipped = rest.len() - rest.trim_start_matches([' ', '　']).len();
        return Ok((to, '同'.len_utf8() + skipped));
    }
    Square::parse_kif(body)
        .ok_or_else(|| Error::line(number, line, at, "expected a square (７六) or 同"))
}

fn read_move_line(r: &mut Reader, line: &str, number: usize) -> Result<(), Error> {
    let trimmed = line.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let ply: u32 = trimmed[..digits]
        .parse()
        .map_err(|_| Error::line(number, line, 0, "a move number too large"))?;
    let body = trimmed[digits..].trim_start_matches([' ', '\t', '　']);
    let expected = r.next_ply();
    if ply != expected {
        return Err(Error::line(
            number,
            line,
            line.len() - trimmed.len(),
            format!("move number {ply}, expected {expected}"),
        ));
    }
    let word_end = body.find([' ', '\t', '(', '　', '+']).unwrap_or(body.len());
    if let Some(kind) = EndingKind::from_kif(&body[..word_end]) {
        let time = read_tail(&body[word_end..], line, number)?;
        r.end(kind, time);
        return Ok(());
    }
    let (to, len) = read_destination(r, body, line, number)?;
    let rest = &body[len..];
    let (kind, len) = PieceKind::parse_kanji(rest).ok_or_else(|| {
        Error::line(
            number,
            line,
            line.len() - rest.len(),
            "expected a piece (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)",
        )
    })?;
    let (promote, drop, mut rest) = read_mark(&rest[len..]);
    let mv = if drop {
        Move::Drop { kind, to }
    } else {
        let from = rest
            .strip_prefix('(')
            .and_then(|s| s.get(..3))
            .and_then(|s| s.strip_suffix(')'))
            .and_then(|s| Square::parse_digits(s.as_bytes()))
            .ok_or_else(|| {
                Error::line(
                    number,
                    line,
                    line.len() - rest.len(),
                    "expected the origin (77) or 打",
                )
            })?;
        rest = &rest[4..];
        if let Some(on_board) = r.pos.piece_at(from).map(|p| p.kind).filter(|&k| k != kind) {
            return Err(Error::Move {
                line: Some(number),
                ply,
                mv: body[..body.len() - rest.len()].trim_end().to_string(),
                reason: format!(
                    "the piece on {} is a {on_board}, not a {kind}",
                    String::from_utf8_lossy(&from.digits()),
                ),
            });
        }
        Move::Normal { from, to, promote }
    };
    let time = read_tail(rest, line, number)?;
    r.push(mv, time, number, body[..body.len() - rest.len()].trim_end())
}

/// The mark after a piece: `成` (promotes), `不成`/`生` (declines), `打` (drop), or none.
/// Returns (promotes, drops, the rest).
pub(crate) fn read_mark(rest: &str) -> (bool, bool, &str) {
    if let Some(r) = rest
        .strip_prefix("不成")
        .or_else(|| rest.strip_prefix('生'))
    {
        (false, false, r)
    } else if let Some(r) = rest.strip_prefix('成') {
        (true, false, r)
    } else if let Some(r) = rest.strip_prefix('打') {
        (false, true, r)
    } else {
        (false, false, rest)
    }
}

/// The ending a summary line (`まで10手で後手の勝ち`) names.
pub(crate) fn parse_summary(text: &str) -> Option<EndingKind> {
    let tail = text.split_once("手で").map(|(_, t)| t)?;
    Some(if tail.contains("時間切れ") || tail.contains("切れ負け") {
        EndingKind::TimeUp
    } else if tail.ends_with("反則勝ち") {
        EndingKind::IllegalWin
    } else if tail.ends_with("反則負け") {
        EndingKind::IllegalLoss
    } else if tail.ends_with("入玉勝ち") {
        EndingKind::EnteringKing
    } else if tail.ends_with("不戦勝") {
        EndingKind::DefaultWin
    } else if tail.ends_with("不戦敗") {
        EndingKind::DefaultLoss
    } else if tail.ends_with("の勝ち") {
        EndingKind::Resign
    } else {
        EndingKind::from_kif(tail.trim())?
    })
}

/// The number of moves a summary line states.
fn summary_plies(text: &str) -> Option<usize> {
    text.strip_prefix("まで")?
        .split_once("手")?
        .0
        .trim()
        .parse()
        .ok()
}

/// `先手`/`後手`, or `下手`/`上手` in a handicap game.
fn side_name(record: &Record, color: Color) -> &'static str {
    match (record.white_starts(), color) {
        (false, Color::Black) => "先手",
        (false, Color::White) => "後手",
        (true, Color::Black) => "下手",
        (true, Color::White) => "上手",
    }
}

/// The summary line of a line of `plies` moves that ended with `kind` (side to move
/// `side`).
pub(crate) fn write_summary(
    out: &mut String,
    record: &Record,
    plies: usize,
    kind: EndingKind,
    side: Color,
) {
    let _ = write!(out, "まで{plies}手で");
    let winner = kind.winner(side).map(|c| side_name(record, c));
    match (kind, winner) {
        (EndingKind::Mate, _) => out.push_str("詰み"),
        (EndingKind::Resign, Some(w)) => {
            let _ = write!(out, "{w}の勝ち");
        }
        (EndingKind::TimeUp, Some(w)) => {
            let _ = write!(out, "時間切れにより{w}の勝ち");
        }
        (EndingKind::IllegalLoss, _) => {
            let _ = write!(out, "{}の反則負け", side_name(record, side));
        }
        (EndingKind::IllegalWin | EndingKind::EnteringKing | EndingKind::DefaultWin, Some(w)) => {
            let _ = write!(out, "{w}の{}", kind.kif());
        }
        (EndingKind::DefaultLoss, _) => {
            let _ = write!(out, "{}の不戦敗", side_name(record, side));
        }
        _ => out.push_str(kind.kif()),
    }
    out.push('\n');
}

/// Display width as KIF aligns it: two columns for anything outside ASCII.
pub(crate) fn width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Writes the header, the 手合割 or board diagram and the game comments (shared with KI2).
pub(crate) fn write_head(out: &mut String, record: &Record) {
    let preset = preset_of(&record.start);
    let mut placed = false;
    let place = |out: &mut String, had_key: bool| match preset {
        Some((name, _)) => {
            let _ = writeln!(out, "手合割：{name}");
        }
        None => {
            if had_key {
                out.push_str("手合割：その他\n");
            }
            write_diagram(out, &record.start);
        }
    };
    for (key, value) in &record.header {
        if key == "手合割" {
            if !placed {
                place(out, true);
                placed = true;
            }
            continue;
        }
        let _ = writeln!(out, "{key}：{value}");
    }
    if !placed {
        place(out, false);
    }
    for c in &record.comments {
        write_comment(out, c);
    }
}

fn write_comment(out: &mut String, comment: &str) {
    if !comment.starts_with('&') {
        out.push('*');
    }
    out.push_str(comment);
    out.push('\n');
}

/// A board diagram (BOD) of `pos`.
pub(crate) fn write_diagram(out: &mut String, pos: &Position) {
    let hand = |out: &mut String, color: Color, label: &str| {
        let _ = write!(out, "{label}の持駒：");
        let mut any = false;
        for kind in HAND_ORDER {
            let n = pos.hand_count(color, kind);
            if n > 0 {
                any = true;
                out.push(kind.bod());
                write_kanji_count(out, n);
                out.push('　');
            }
        }
        if !any {
            out.push_str("なし");
        }
        out.push('\n');
    };
    hand(out, Color::White, "後手");
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for row in 0..9u8 {
        out.push('|');
        for col in 0..9u8 {
            match pos.piece_at(Square::from_index((row * 9 + col) as usize).expect("9×9")) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(p.kind.bod());
                }
            }
        }
        out.push('|');
        out.push_str(Square::kanji_numeral(row + 1));
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    hand(out, Color::Black, "先手");
    if pos.side_to_move() == Color::White {
        out.push_str("後手番\n");
    }
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

/// Appends a move's destination as KIF and KI2 write it: `同　` when it is the previous
/// move's, else the square (`７六`).
pub(crate) fn push_destination(s: &mut String, mv: Move, last_to: Option<Square>) {
    if last_to == Some(mv.to()) {
        s.push_str("同　");
    } else {
        s.push_str(&mv.to().kif());
    }
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

/// Writes a line of moves (the main line or a variation) as KIF move lines.
fn write_line(
    out: &mut String,
    options: &KifOptions,
    first_ply: u32,
    moves: &[RecordMove],
    ending: Option<&Ending>,
    mut pos: Position,
    mut last_to: Option<Square>,
) {
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
        out.push('\n');
    }
}

/// Writes a record as KIF (UTF-8 text).
///
/// ```
/// use notate::shogi::{kif, usi};
/// let record = usi::read_game("position startpos moves 7g7f 3c3d 8h2b").unwrap();
/// let text = kif::write(&record);
/// assert!(text.contains("   3 ２二角不成(88)\n"));
/// ```
pub fn write(record: &Record) -> String {
    write_with(record, &KifOptions::default())
}

/// Writes a record as KIF text with `options` (the encoding aside).
pub fn write_with(record: &Record, options: &KifOptions) -> String {
    let mut out = String::with_capacity(64 + record.moves.len() * 40);
    write_head(&mut out, record);
    out.push_str("手数----指手---------消費時間--\n");
    write_line(
        &mut out,
        options,
        1,
        &record.moves,
        record.ending.as_ref(),
        record.start.clone(),
        None,
    );
    if let Some(e) = &record.ending {
        let side = record.end_position().side_to_move();
        write_summary(&mut out, record, record.moves.len(), e.kind, side);
    }
    for i in record.listing_order() {
        let v = &record.variations[i];
        let _ = write!(out, "\n変化：{}手\n", v.first_ply);
        let (pos, last_to) = record.position_before(v.parent, v.first_ply);
        write_line(
            &mut out,
            options,
            v.first_ply,
            &v.moves,
            v.ending.as_ref(),
            pos,
            last_to,
        );
    }
    out
}

/// Writes a record as KIF in `options.encoding`.
pub fn write_bytes(record: &Record, options: &KifOptions) -> Result<Vec<u8>, Error> {
    let text = write_with(record, options);
    Ok(encoding::encode(&text, options.encoding)?.into_owned())
}
