//! What KIF and KI2 share, the two Japanese record formats: the 手合割 (handicap) presets, the
//! reader of headers, board diagrams (BOD), comments, endings and `変化` variations (each
//! format brings its own move lines), the move grammar both spell moves in (destinations,
//! `同`, `成`/`不成`/`打`, KI2's relative words), and the writer of headers, diagrams and
//! summaries. JKF uses the presets and the relative words too.
//!
//! It lives apart so that neither format imports the other.

use std::fmt::Write as _;

use super::encoding::Decoded;
use super::error::{self, Error};
use super::piece::{Color, Piece, PieceKind, HAND_ORDER};
use super::position::{Move, Position};
use super::record::{
    nested_too_deep, play_checked, Ending, EndingKind, MainLinePositions, MoveTime, Record,
    RecordMove, Variation, MAX_VARIATION_DEPTH,
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
pub(super) fn preset_position(name: &str) -> Option<Position> {
    let i = PRESETS.iter().position(|p| p.0 == name)?;
    Some(preset_positions()[i].clone())
}

/// The start position of a JKF preset name.
pub(super) fn jkf_preset_position(name: &str) -> Option<Position> {
    let i = PRESETS.iter().position(|p| p.1 == name)?;
    Some(preset_positions()[i].clone())
}

/// The 手合割 name and JKF preset of a start position, if it is one.
pub(super) fn preset_of(pos: &Position) -> Option<(&'static str, &'static str)> {
    let i = preset_positions()
        .iter()
        .position(|p| p.same_position(pos))?;
    Some((PRESETS[i].0, PRESETS[i].1))
}

/// Which of the two Japanese formats a reader or writer handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Kif,
    Ki2,
}

/// A board diagram's `手数＝N ▲７六歩 まで` line, as read.
struct MovesBefore {
    /// N: the moves played before the diagram.
    count: u32,
    /// The side that made the last of them, if the line shows it (`▲`, `△`).
    last: Option<Color>,
    /// The line's number.
    line: usize,
}

/// The state of a KIF or KI2 reader.
pub(super) struct RecordReader {
    pub record: Record,
    /// Lines of a board diagram, and whether one was seen.
    bod_rows: Vec<[Option<Piece>; 9]>,
    bod_hands: [Option<[u8; 7]>; 2],
    bod_side: Option<Color>,
    /// A diagram's `手数＝N ▲７六歩 まで` line: N, the moves played before the diagram, and
    /// the side that made the last of them (the other one is to move).
    bod_moves: Option<MovesBefore>,
    /// What a KIF numbers moves from, less one: 0, or N when the first move after a
    /// `手数＝N` diagram is numbered N + 1 (as some programs write a game's later part).
    pub number_offset: u32,
    /// Whether the offset is settled (at the first numbered line).
    numbered: bool,
    started: bool,
    /// The line being read: 0 the main line, `i` the variation `i - 1`.
    line: usize,
    /// The position at the tip of the line being read.
    pub pos: Position,
    /// The destination of the line's last move (for `同`).
    pub last_to: Option<Square>,
    ended: bool,
    pending_comments: Vec<String>,
    /// For each ply (from 1, at index ply - 1), the newest line with a move or its ending
    /// there: where a `変化：N手` branches from, found at once (looking through every
    /// variation for it made a record of many variations take quadratic time).
    covered_by: Vec<usize>,
    /// Positions of the main line, kept from the first variation on.
    main_positions: Option<MainLinePositions>,
}

impl RecordReader {
    /// Notes that the current line has a move or its ending at `ply`. Lines are read one
    /// after another, so the last to note a ply is the newest line there.
    fn cover(&mut self, ply: u32) {
        let at = ply as usize - 1;
        if self.covered_by.len() <= at {
            self.covered_by.resize(at + 1, usize::MAX);
        }
        self.covered_by[at] = self.line;
    }

    /// The line a variation starting at `first_ply` branches off, as KIF means it: the
    /// newest line (variations, then the main line) that has a move, or its ending (a
    /// variation may replace `中断`), at that ply; a line that itself starts at that ply is a
    /// sibling, so its parent is taken.
    fn branch_parent(&self, first_ply: u32) -> Option<usize> {
        let line = *self
            .covered_by
            .get((first_ply as usize).checked_sub(1)?)
            .filter(|&&line| line != usize::MAX)?;
        Some(match line {
            0 => 0,
            i if self.record.variations[i - 1].first_ply == first_ply => {
                self.record.variations[i - 1].parent
            }
            i => i,
        })
    }

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

    /// The ply a KIF move number `written` stands for. The first numbered line settles how
    /// the record numbers its moves: from 1, or, after a `手数＝N` diagram, from N + 1 when
    /// its first number is that. Numbers at or below the offset give 0 (no ply).
    pub fn ply_of_number(&mut self, written: u32) -> u32 {
        if !self.numbered {
            self.numbered = true;
            if let Some(&MovesBefore { count, .. }) = self.bod_moves.as_ref()
                && count > 0
                && self.line == 0
                && written == count.saturating_add(1)
            {
                self.number_offset = count;
            }
        }
        written.saturating_sub(self.number_offset)
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
            return Err(error::illegal(
                Some(number),
                self.next_ply(),
                written,
                "a move after the end of the game",
            ));
        }
        let ply = self.next_ply();
        play_checked(&mut self.pos, mv, ply, Some(number), written)?;
        self.cover(ply);
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
        self.cover(self.next_ply());
        let ending = Some(Ending {
            kind,
            time,
            comments: Vec::new(),
        });
        match self.line {
            0 => self.record.ending = ending,
            i => self.record.variations[i - 1].ending = ending,
        }
        self.ended = true;
    }

    fn comment(&mut self, text: String) {
        let (moves, ending) = match self.line {
            0 => (&mut self.record.moves, &mut self.record.ending),
            i => {
                let v = &mut self.record.variations[i - 1];
                (&mut v.moves, &mut v.ending)
            }
        };
        // A comment after the ending (`投了`, or KI2's summary) belongs to it.
        if let Some(e) = ending.as_mut().filter(|_| self.ended) {
            e.comments.push(text);
            return;
        }
        match moves.last_mut() {
            Some(m) => m.comments.push(text),
            None if self.line == 0 => self.record.comments.push(text),
            None => self.pending_comments.push(text),
        }
    }

    /// The side to move a diagram names: its `先手番`/`後手番` line, else the side that did not
    /// make the last move of its `手数＝` line (Kifu for Windows writes `後手番` when it is
    /// 後手's move, but diagrams copied from pages often keep only the `手数＝` line). When the
    /// two disagree the side line is kept, and the disagreement said.
    fn side_given(&mut self) -> Option<Color> {
        let Some(before) = &self.bod_moves else {
            return self.bod_side;
        };
        // Only a diagram's: after a preset (`手合割：平手`) the line cannot describe the start.
        let after_last = before
            .last
            .filter(|_| !self.bod_rows.is_empty())
            .map(Color::flip);
        match (self.bod_side, after_last) {
            (Some(side), Some(other)) if side != other => {
                let message = "手数＝ and the side line disagree: the side line is kept";
                self.record
                    .warnings
                    .push(error::line(before.line, "", 0, message));
                Some(side)
            }
            (side, other) => side.or(other),
        }
    }

    /// Settles the start position once the header is over.
    pub fn start(&mut self, number: usize, text: &str) -> Result<(), Error> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        let side = self.side_given();
        let mut start = if !self.bod_rows.is_empty() {
            if self.bod_rows.len() != 9 {
                return Err(error::line(
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
            pos.set_side_to_move(side.unwrap_or(Color::Black));
            pos
        } else {
            match self.record.header_value("手合割") {
                None => Position::startpos(),
                Some(name) => preset_position(name.trim()).ok_or_else(|| {
                    error::line(
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
        if self.bod_rows.is_empty()
            && let Some(side) = side
        {
            start.set_side_to_move(side);
        }
        // SFEN's move number: the diagram's moves before it, plus one.
        if let Some(before) = &self.bod_moves {
            start.set_ply(before.count.saturating_add(1));
        }
        start
            .validate()
            .map_err(|m| error::line(number, text, 0, format!("the start position: {m}")))?;
        self.record.start = start.clone();
        self.pos = start;
        Ok(())
    }
}

/// What a line of a KIF or KI2 text is, as far as cutting the text into records goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LineClass {
    Blank,
    /// A move line, `手数----`, a summary `まで…` or `変化`: the record's moves.
    Moves,
    /// A board diagram's frame or rank.
    Diagram,
    /// A line a record may start with: a header `key：value`, a `#` line, a diagram's hand.
    Opening,
    Other,
}

/// The labels of a board diagram's hands, and whose hand each is.
const HAND_LABELS: [(&str, Color); 4] = [
    ("先手の持駒", Color::Black),
    ("下手の持駒", Color::Black),
    ("後手の持駒", Color::White),
    ("上手の持駒", Color::White),
];

/// Whether a (trimmed, non-empty) line is a move line of `style`: a KIF move starts with its
/// number, KI2 moves with the side's mark.
fn is_move_line(trimmed: &str, style: Style) -> bool {
    match style {
        Style::Kif => trimmed.as_bytes()[0].is_ascii_digit(),
        Style::Ki2 => trimmed.starts_with(['▲', '△', '☗', '☖', '▽']),
    }
}

fn classify(line: &str, style: Style) -> LineClass {
    let trimmed = line.trim_matches([' ', '\t', '　', '\r', '\n']);
    if trimmed.is_empty() {
        return LineClass::Blank;
    }
    if line.starts_with(['*', '&']) {
        return LineClass::Other;
    }
    if is_move_line(trimmed, style)
        || ["手数----", "まで", "変化"]
            .iter()
            .any(|p| trimmed.starts_with(p))
    {
        return LineClass::Moves;
    }
    if trimmed.starts_with(['+', '|']) {
        return LineClass::Diagram;
    }
    let opens = line.starts_with('#')
        || HAND_LABELS.iter().any(|(p, _)| trimmed.starts_with(p))
        || split_header(line).is_some();
    if opens {
        LineClass::Opening
    } else {
        LineClass::Other
    }
}

/// Headers that open a record, never written after its moves (as `終了日時` may be).
const RECORD_STARTS: [&str; 8] = [
    "手合割",
    "開始日時",
    "棋戦",
    "先手",
    "後手",
    "下手",
    "上手",
    "場所",
];

/// Cuts a KIF or KI2 text into its records, each with the index of its first line. A record
/// ends where, once its moves began, a blank line is followed by a line a record opens with
/// (a header, a `#` line, a diagram's hand) and moves or a diagram follow, or a header only a
/// record's start has (`手合割`), or where a blank line is followed by a header the record
/// already has: so several records written one after
/// another read back as several (games of no moves too), while a header after a record's
/// moves with nothing after it (`終了日時：…`) stays in that record. A text of blanks alone
/// has no record.
fn split_records(text: &str, style: Style) -> Vec<(usize, &str)> {
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len();
            Some((start, line))
        })
        .collect();
    let classes: Vec<LineClass> = lines.iter().map(|(_, l)| classify(l, style)).collect();
    if classes.iter().all(|&c| c == LineClass::Blank) {
        // Nothing at all: no game (not an even game of no moves).
        return Vec::new();
    }
    let mut cuts = vec![0usize];
    let (mut began, mut blank) = (false, false);
    // The header keys of the record being cut: one given again after a blank line opens the
    // next record, even when this one has no moves (a KI2 game of no moves is headers only).
    let mut keys: Vec<&str> = Vec::new();
    for (i, &class) in classes.iter().enumerate() {
        match class {
            LineClass::Blank => {
                blank = true;
                continue;
            }
            LineClass::Opening => {
                let key = split_header(lines[i].1).map(|(key, _)| key);
                let again = blank && key.is_some_and(|key| keys.contains(&key));
                let more = || {
                    classes[i..]
                        .iter()
                        .any(|&c| matches!(c, LineClass::Moves | LineClass::Diagram))
                };
                // A header only a record's start has (`手合割`, the players, the event).
                let opening = key.is_some_and(|key| RECORD_STARTS.contains(&key));
                if again || (began && blank && (opening || more())) {
                    cuts.push(i);
                    began = false;
                    keys.clear();
                }
                keys.extend(key);
            }
            LineClass::Moves => began = true,
            _ => {}
        }
        blank = false;
    }
    cuts.iter()
        .enumerate()
        .map(|(k, &first)| {
            let start = lines.get(first).map_or(text.len(), |l| l.0);
            let end = cuts.get(k + 1).map_or(text.len(), |&next| lines[next].0);
            (first, &text[start..end])
        })
        .collect()
}

/// Reads every record of a KIF or KI2 text (see [`split_records`]); the decoding's warning
/// goes with the first, and a record that holds bytes that were not text fails. Error and
/// warning lines count from the text's first line.
pub(super) fn read_all(
    decoded: Decoded,
    style: Style,
    read_move_line: fn(&mut RecordReader, &str, usize) -> Result<(), Error>,
) -> Vec<Result<Record, Error>> {
    let Decoded {
        text,
        mut warning,
        bad,
    } = decoded;
    let text = &*text;
    split_records(text, style)
        .into_iter()
        .map(|(first_line, part)| {
            let start = part.as_ptr() as usize - text.as_ptr() as usize;
            if let Some(bad) = bad.first_within(text, start..start + part.len()) {
                return Err(bad);
            }
            let shift = |e: &mut Error| error::shift_lines(e, first_line);
            let mut result = read_japanese(part, style, read_move_line);
            match &mut result {
                Ok(record) => {
                    record.warnings.iter_mut().for_each(shift);
                    record.warnings.splice(0..0, warning.take());
                }
                Err(e) => shift(e),
            }
            result
        })
        .collect()
}

/// Reads a KIF or KI2 record: everything but the move lines, which `read_move_line` reads.
pub(super) fn read_japanese(
    text: &str,
    style: Style,
    read_move_line: fn(&mut RecordReader, &str, usize) -> Result<(), Error>,
) -> Result<Record, Error> {
    let mut r = RecordReader {
        record: Record::default(),
        bod_rows: Vec::new(),
        bod_hands: [None, None],
        bod_side: None,
        bod_moves: None,
        number_offset: 0,
        numbered: false,
        started: false,
        line: 0,
        pos: Position::startpos(),
        last_to: None,
        ended: false,
        pending_comments: Vec::new(),
        covered_by: Vec::new(),
        main_positions: None,
    };
    match read_lines(&mut r, text, style, read_move_line) {
        Ok(()) => Ok(r.record),
        // Messages name the failed game by its players, as far as its header was read.
        Err(error) => Err(error.with_players(r.record.players())),
    }
}

/// Reads the lines of a KIF or KI2 record into `r`.
fn read_lines(
    r: &mut RecordReader,
    text: &str,
    style: Style,
    read_move_line: fn(&mut RecordReader, &str, usize) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut summary: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        // Comments and header values keep their trailing blanks (`平手　　`, a comment line
        // ending in spaces): only the line end goes.
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let line = raw.trim_end_matches([' ', '\t', '　']);
        let trimmed = line.trim_start_matches([' ', '\t', '　']);
        if let Some(c) = raw.strip_prefix('*') {
            if c.starts_with('&') {
                // Bookmarks (`&` lines) are kept as comments that start with `&`, as
                // json-kifu-format keeps them in JKF: this comment becomes one.
                let message = "a comment starting with & is a bookmark (an & line)";
                r.record
                    .warnings
                    .push(error::line(number, line, 0, message));
            }
            r.comment(c.to_string());
            continue;
        }
        if trimmed.is_empty() || line.starts_with('#') {
            continue;
        }
        if raw.starts_with('&') {
            r.comment(raw.to_string());
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("変化") {
            r.start(number, line)?;
            let n = rest
                .trim_start_matches([':', '：', ' ', '　'])
                .trim_end_matches('手')
                .trim();
            let written: u32 = n
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| error::line(number, line, 0, "expected 変化：N手"))?;
            // Numbered as the main line's moves are (from N + 1 after a `手数＝N` diagram).
            let first_ply = written.saturating_sub(r.number_offset);
            let parent = r.branch_parent(first_ply).ok_or_else(|| {
                error::line(
                    number,
                    line,
                    0,
                    format!("no line has a move {written} to branch from"),
                )
            })?;
            if r.record.depth_below(parent) > MAX_VARIATION_DEPTH {
                let too_deep = nested_too_deep();
                return Err(error::line(number, line, 0, too_deep.message).with_kind(too_deep.kind));
            }
            // The main line is whole once variations start.
            let kept = r
                .main_positions
                .get_or_insert_with(|| MainLinePositions::new(&r.record));
            let (pos, last_to) = r.record.position_before_with(kept, parent, first_ply);
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
            // KI2 has no ending line, and a KIF may leave it out: then the summary is the
            // only place the ending is written. A summary whose winner is not the ending
            // line's is said.
            if (style == Style::Ki2 || r.line == 0) && !r.ended {
                r.start(number, line)?;
                match summary_ending(trimmed, r.pos.side_to_move(), &r.record) {
                    Some(Ok(kind)) => r.end(kind, None),
                    Some(Err(message)) => {
                        r.record
                            .warnings
                            .push(error::line(number, line, 0, message));
                    }
                    None => {}
                }
            } else if r.line == 0 {
                let side = r.pos.side_to_move();
                let read = r.record.ending.as_ref().and_then(|e| e.kind.winner(side));
                let named = parse_summary(trimmed).and_then(|(_, winner)| winner);
                if named.is_some() && named != read {
                    let message = "the summary names another winner than the ending line: \
                                   the ending line is kept";
                    r.record
                        .warnings
                        .push(error::line(number, line, 0, message));
                }
            }
            continue;
        }
        if trimmed.starts_with("手数----") {
            r.start(number, line)?;
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("手数＝") {
            if !r.started {
                read_moves_before(r, rest, line, number);
            }
            continue;
        }
        if !r.started && read_diagram_line(r, line, number)? {
            continue;
        }
        if is_move_line(trimmed, style) {
            r.start(number, line)?;
            read_move_line(r, line, number)?;
            continue;
        }
        if let Some((key, value)) = split_header(raw) {
            r.record.header.push((key.to_string(), value.to_string()));
            continue;
        }
        return Err(error::line(number, line, 0, "not a KIF line"));
    }
    let end = text.lines().count();
    r.start(end, "")?;
    r.record.normalize_variations();
    // A summary that disagrees with the moves read is said: moves may have gone missing
    // from the file. Said, not failed: every move read was played, and some programs count
    // otherwise (cshogi writes `まで79手で持将棋` after 77 moves).
    if let Some((number, text)) = summary
        && let Some(n) = summary_plies(&text)
    {
        // A summary may count the moves before a `手数＝N` diagram too.
        let moves = r.record.moves.len();
        let before = r.bod_moves.as_ref().map_or(0, |b| b.count as usize);
        if n != moves && n != moves + before {
            let message = format!("the summary says {n} moves, the main line has {moves}");
            r.record
                .warnings
                .push(error::line(number, &text, 0, message));
        }
    }
    Ok(())
}

/// A diagram's `手数＝N ▲７六歩 まで` line (`rest` follows the `＝`): the moves played before
/// the position, and who made the last. Digits may be full-width. A line without a number
/// is said and left out.
fn read_moves_before(r: &mut RecordReader, rest: &str, line: &str, number: usize) {
    let rest = rest.trim_start_matches([' ', '\t', '　']);
    let (mut count, mut length) = (0u32, 0);
    for c in rest.chars() {
        let digit = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '０'..='９' => c as u32 - '０' as u32,
            _ => break,
        };
        count = count.saturating_mul(10).saturating_add(digit);
        length += c.len_utf8();
    }
    // The move number after them (N + 1) must be one too.
    if length == 0 || count == u32::MAX {
        let at = line.len() - rest.len();
        let message = "expected 手数＝N, a move count: line left out";
        r.record
            .warnings
            .push(error::line(number, line, at, message));
        return;
    }
    // `手数＝25手 ▲３七銀 まで`, as some pages write it.
    let after = rest[length..]
        .strip_prefix('手')
        .unwrap_or(&rest[length..])
        .trim_start_matches([' ', '\t', '　']);
    let last = match after.chars().next() {
        Some('▲' | '☗') => Some(Color::Black),
        Some('△' | '☖' | '▽') => Some(Color::White),
        _ => None,
    };
    r.bod_moves = Some(MovesBefore {
        count,
        last,
        line: number,
    });
}

/// `key：value` (full-width or ASCII colon), on a line that is not indented. A key may hold
/// blanks: a CSA record's `$START_T2 10IME:…` is kept under that key, and its KIF must read
/// back (found by fuzzing).
fn split_header(line: &str) -> Option<(&str, &str)> {
    if line.starts_with([' ', '　', '\t']) {
        return None;
    }
    let (key, value) = line.split_once('：').or_else(|| line.split_once(':'))?;
    let key = key.trim();
    // A key never starts with a digit: such a line is a KIF move line (`1 ７六歩 ( 0:16)`),
    // and a KI2 reader must not take it for a header.
    let misread = key.is_empty() || key.starts_with(|c: char| c.is_ascii_digit());
    (!misread).then_some((key, value))
}

/// Reads a line of a board diagram (or its hands, side or frame); `false` if it is none.
fn read_diagram_line(r: &mut RecordReader, line: &str, number: usize) -> Result<bool, Error> {
    let trimmed = line.trim_start();
    for (prefix, color) in HAND_LABELS {
        if let Some(rest) = trimmed.strip_prefix(prefix) {
            let rest = rest.trim_start_matches(['：', ':']);
            r.bod_hands[color.index()] =
                Some(parse_hand(rest).map_err(|(at, m)| {
                    error::line(number, line, line.len() - rest.len() + at, m)
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
            return Err(error::line(
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
                    return Err(error::line(
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
                    error::line(number, line, 0, format!("{:?} is not a piece", pair[1]))
                })?;
            row[col] = Some(Piece::new(color, kind));
        }
        if r.bod_rows.len() == 9 {
            return Err(error::line(
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

/// `同` (and the full-width or ASCII spaces after it), or a square: the destination.
pub(super) fn read_destination(
    r: &RecordReader,
    body: &str,
    line: &str,
    number: usize,
) -> Result<(Square, usize), Error> {
    let at = line.len() - body.len();
    if let Some(rest) = body.strip_prefix('同') {
        let to = r.last_to.ok_or_else(|| {
            error::line(number, line, at, "同 with no previous move")
                .with_ply(r.next_ply() as usize)
        })?;
        let skipped = rest.len() - rest.trim_start_matches([' ', '　']).len();
        return Ok((to, '同'.len_utf8() + skipped));
    }
    Square::parse_kif(body)
        .ok_or_else(|| error::line(number, line, at, "expected a square (７六) or 同"))
}

/// The mark after a piece.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    /// None.
    Plain,
    /// `成`: promotes.
    Promotes,
    /// `不成` or `生`: declines to promote (only where it could).
    Declines,
    /// `打`: a drop.
    Drops,
}

/// The mark after a piece, and the rest.
pub(super) fn read_mark(rest: &str) -> (Mark, &str) {
    if let Some(r) = rest
        .strip_prefix("不成")
        .or_else(|| rest.strip_prefix('生'))
    {
        (Mark::Declines, r)
    } else if let Some(r) = rest.strip_prefix('成') {
        (Mark::Promotes, r)
    } else if let Some(r) = rest.strip_prefix('打') {
        (Mark::Drops, r)
    } else {
        (Mark::Plain, rest)
    }
}

/// Refuses `不成` on a move that could not promote (as `成` there is refused).
pub(super) fn check_declined(
    mark: Mark,
    side: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
) -> Result<(), String> {
    if mark == Mark::Declines && !Position::may_promote(side, kind, from, to) {
        return Err(format!("不成 on a move where the {kind} could not promote"));
    }
    Ok(())
}

/// The ending a summary line (`まで10手で後手の勝ち`, `まで49手詰`) names, as its words say it
/// for the side to move (`の勝ち` is a resignation), and the winner it names, if any: the side
/// named last (`後手の時間切れにより先手の勝ち`), `先手`/`下手` Black, `後手`/`上手` White; the
/// loser when the line ends in `負け`, `不戦敗` or `時間切れ`.
fn parse_summary(text: &str) -> Option<(EndingKind, Option<Color>)> {
    let tail = text.strip_prefix("まで")?.split_once('手')?.1;
    let tail = tail.strip_prefix('で').unwrap_or(tail).trim();
    let kind = if tail.contains("時間切れ") || tail.contains("切れ負け") {
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
    } else if tail == "詰" {
        // Problem collections write `まで49手詰` (and `まで3手で詰`) for 詰み.
        EndingKind::Mate
    } else {
        return Some((EndingKind::from_kif(tail.trim())?, None));
    };
    let named = [
        ("先手", Color::Black),
        ("下手", Color::Black),
        ("後手", Color::White),
        ("上手", Color::White),
    ]
    .into_iter()
    .filter_map(|(word, color)| Some((tail.rfind(word)?, color)))
    .max()
    .map(|(_, color)| color);
    let loser_named = ["負け", "不戦敗", "時間切れ"]
        .iter()
        .any(|end| tail.ends_with(end));
    Some((kind, named.map(|c| if loser_named { c.flip() } else { c })))
}

/// The ending a summary line gives a line whose side to move is `side`: the kind its words
/// say, turned to the winner it names. `後手の反則勝ち` with 先手 to move is 先手's foul (cshogi
/// names the side that moved last so), not 後手's. `Err` when that winner cannot end the line
/// so (a resignation, a loss on time and an entering-king declaration are the side to
/// move's): the message says why, naming the sides as `record` does.
fn summary_ending(text: &str, side: Color, record: &Record) -> Option<Result<EndingKind, String>> {
    let (kind, winner) = parse_summary(text)?;
    let Some(winner) = winner.filter(|&w| kind.winner(side) != Some(w)) else {
        return Some(Ok(kind));
    };
    let turned = match kind {
        EndingKind::IllegalWin => EndingKind::IllegalAction,
        EndingKind::IllegalLoss => EndingKind::IllegalWin,
        EndingKind::DefaultWin => EndingKind::DefaultLoss,
        EndingKind::DefaultLoss => EndingKind::DefaultWin,
        _ => {
            return Some(Err(format!(
                "the summary names {} the winner, but {} is to move, and only the side to \
                 move can resign, lose on time or declare: the ending is left out",
                side_name(record, winner),
                side_name(record, side)
            )));
        }
    };
    Some(Ok(turned))
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
/// Whether a record's sides are 上手 and 下手: a handicap game, where 上手 moves first, from
/// its start or from a later position of it (a handicap preset, or a side line or SFEN with
/// 上手 to move and no moves before). A diagram of a later position of another game with
/// 後手 to move (`手数＝25`, SFEN `w - 26`) keeps 先手 and 後手.
fn uses_handicap_names(record: &Record) -> bool {
    let preset = preset_of(&record.start).is_some_and(|(name, _)| name != "平手");
    record.white_starts() && (record.start.ply() <= 1 || preset)
}

fn side_name(record: &Record, color: Color) -> &'static str {
    match (uses_handicap_names(record), color) {
        (false, Color::Black) => "先手",
        (false, Color::White) => "後手",
        (true, Color::Black) => "下手",
        (true, Color::White) => "上手",
    }
}

/// The summary line of a line of `plies` moves that ended with `kind` (side to move
/// `side`).
pub(super) fn write_summary(
    out: &mut String,
    record: &Record,
    plies: usize,
    kind: EndingKind,
    side: Color,
) {
    let _ = write!(out, "まで{plies}手で");
    let winner = kind.winner(side).map(|c| side_name(record, c));
    match (kind, winner) {
        // `まで3手で詰`, as Kifu for Windows writes it (the ending line says 詰み).
        (EndingKind::Mate, _) => out.push('詰'),
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
        // The side to move's illegal action, as cshogi writes it: the other side's
        // 反則勝ち (which reads back as this, where `反則負け` would read as a foul move).
        (EndingKind::IllegalAction, Some(w)) => {
            let _ = write!(out, "{w}の反則勝ち");
        }
        (EndingKind::DefaultLoss, _) => {
            let _ = write!(out, "{}の不戦敗", side_name(record, side));
        }
        _ => out.push_str(kind.kif()),
    }
    out.push('\n');
}

/// Display width as KIF aligns it: two columns for anything outside ASCII.
pub(super) fn width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Writes the header, the 手合割 or board diagram and the game comments (shared with KI2).
pub(super) fn write_head(out: &mut String, record: &Record) {
    let preset = preset_of(&record.start);
    let mut placed = false;
    let place = |out: &mut String, had: Option<&str>| match preset {
        // The value as read when it names the start (`平手　　` keeps its blanks).
        Some((name, _)) => {
            let value = had.filter(|v| v.trim() == name).unwrap_or(name);
            let _ = writeln!(out, "手合割：{value}");
        }
        None => {
            if had.is_some() {
                out.push_str("手合割：その他\n");
            }
            write_diagram(out, &record.start);
        }
    };
    for (key, value) in &record.header {
        if key == "手合割" {
            if !placed {
                place(out, Some(value));
                placed = true;
            }
            continue;
        }
        let _ = writeln!(out, "{key}：{value}");
    }
    if !placed {
        place(out, None);
    }
    // A diagram has the line in it; after a preset it follows the headers.
    if preset.is_some() {
        write_moves_before(out, &record.start);
    }
    for c in &record.comments {
        write_comment(out, c);
    }
}

/// Writes a comment as `*` lines: one per line of it, so that a comment holding line breaks
/// (JKF allows them) cannot turn into lines of another kind.
pub(super) fn write_comment(out: &mut String, comment: &str) {
    for (i, line) in comment.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if i > 0 || !line.starts_with('&') {
            out.push('*');
        }
        out.push_str(line);
        out.push('\n');
    }
}

/// Refuses a record that KIF or KI2 text cannot hold: variations nested deeper than
/// [`MAX_VARIATION_DEPTH`] ([`Record::check_depth`]), or a header with a line break in a key
/// or value, or a key that would read back as another kind of line (a move, a comment, a
/// diagram, the move section) or split at another colon. Written anyway, the record would
/// not read back.
pub(super) fn check_writable(record: &Record, format: &str) -> Result<(), Error> {
    record.check_depth()?;
    // `手数：N` (a tsume record's move count, as tsshogi writes it) is a header; only the
    // move section's `手数----` and a diagram's `手数＝N` lines are other lines.
    const OTHER_LINES: [&str; 8] = ["変化", "まで", "手数----", "手数＝", "+", "|", "９", "#"];
    for (key, value) in &record.header {
        let misread = key.is_empty()
            || key.trim_matches([' ', '\t', '　']) != key
            || key.contains(['：', '\n', '\r'])
            || key.starts_with(|c: char| c.is_ascii_digit() || "*&▲△☗☖▽".contains(c))
            || OTHER_LINES.iter().any(|p| key.starts_with(p))
            || HAND_LABELS.iter().any(|(p, _)| key.starts_with(p));
        if misread || value.contains(['\n', '\r']) {
            return Err(error::unwritable(
                format,
                format!("the header {key:?}: {value:?} would not read back as one"),
            ));
        }
    }
    Ok(())
}

/// A board diagram (BOD) of `pos`.
pub(super) fn write_diagram(out: &mut String, pos: &Position) {
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
    write_moves_before(out, pos);
    if pos.side_to_move() == Color::White {
        out.push_str("後手番\n");
    }
}

/// A start position's move number past 1 as the `手数＝N` line of a diagram: the moves played
/// before it (the last one is not known: `まで` alone follows).
fn write_moves_before(out: &mut String, pos: &Position) {
    if pos.ply() > 1 {
        let _ = writeln!(out, "手数＝{}　まで", pos.ply() - 1);
    }
}

/// Appends a move's destination as KIF and KI2 write it: `同　` when it is the previous
/// move's, else the square (`７六`).
pub(super) fn push_destination(s: &mut String, mv: Move, last_to: Option<Square>) {
    if last_to == Some(mv.to()) {
        s.push_str("同　");
    } else {
        s.push_str(&mv.to().kif());
    }
}

/// Which way a move goes from the mover's point of view: 上 forward, 寄 sideways, 引 back.
pub(super) fn direction(side: Color, from: Square, to: Square) -> char {
    let dr = to.row() as i8 - from.row() as i8;
    let forward = if side == Color::Black { dr < 0 } else { dr > 0 };
    if forward {
        '上'
    } else if dr == 0 {
        '寄'
    } else {
        '引'
    }
}

/// How far right a square is from the mover's point of view (higher is further right).
pub(super) fn rightness(side: Color, sq: Square) -> i8 {
    match side {
        Color::Black => -(sq.file() as i8),
        Color::White => sq.file() as i8,
    }
}

/// Whether the move goes straight forward one square (直).
pub(super) fn straight(side: Color, from: Square, to: Square) -> bool {
    from.col() == to.col()
        && direction(side, from, to) == '上'
        && from.row().abs_diff(to.row()) == 1
}

/// Rooks, bishops, dragons and horses never take 直: their two pieces are told apart by
/// 右 and 左.
fn is_major(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
    )
}

/// The words that tell the moving piece from the other `candidates` (which include it).
pub(super) fn relative_words(
    side: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
    candidates: &[Square],
) -> String {
    if candidates.len() < 2 {
        return String::new();
    }
    let dir = direction(side, from, to);
    let same_dir: Vec<Square> = candidates
        .iter()
        .copied()
        .filter(|&c| direction(side, c, to) == dir)
        .collect();
    if same_dir.len() == 1 {
        return dir.to_string();
    }
    if !is_major(kind) && straight(side, from, to) {
        return "直".to_string();
    }
    let mine = rightness(side, from);
    let extreme = |set: &[Square]| -> Option<char> {
        let others = set
            .iter()
            .filter(|&&c| c != from)
            .map(|&c| rightness(side, c));
        let others: Vec<i8> = others.collect();
        if others.iter().all(|&o| o < mine) {
            Some('右')
        } else if others.iter().all(|&o| o > mine) {
            Some('左')
        } else {
            None
        }
    };
    match extreme(candidates) {
        Some(word) => word.to_string(),
        None => match extreme(&same_dir) {
            Some(word) => format!("{word}{dir}"),
            // Three in a row moving the same way: the middle one moves straight.
            None => dir.to_string(),
        },
    }
}
