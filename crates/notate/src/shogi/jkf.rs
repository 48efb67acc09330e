//! JKF (JSON Kifu Format), the JSON record of shogi web apps: `header`, `initial` (a
//! preset or a board), `moves` (entry 0 holds the opening comments; each later entry a
//! `move`, `time`, `comments`, `special` ending and `forks` of alternatives).
//!
//! Written in full: `color`, `from`, `to`, `piece` (before the move), `same`, `promote`
//! (where promotion was a choice), `capture` and `relative` (KI2's words as JKF's letters).

/// How this format is read (every shogi format takes the same options).
pub use super::encoding::ReadOptions;
use super::encoding::{self, BadBytes};
use crate::format::{read_format, write_verbs, WriteFormat};
use serde_json::{json, Map, Value};

use super::error::{self, Error};
use super::japanese::{jkf_preset_position, preset_of, relative_words};
use super::piece::{Color, Piece, PieceKind, ALL_KINDS};
use super::position::{Move, Position};
use super::record::{
    nested_too_deep, Ending, EndingKind, MoveTime, Record, RecordMove, Variation,
    MAX_VARIATION_DEPTH,
};
use super::square::Square;

/// Reads a JKF document.
///
/// ```
/// use notate::shogi::jkf;
/// let record = jkf::read_one(r#"{"header": {}, "moves": [{},
///   {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"}},
///   {"special": "TORYO"}]}"#).unwrap();
/// assert_eq!(record.moves[0].mv.to_string(), "7g7f");
/// ```
pub(crate) fn read(text: &str) -> Result<Record, Error> {
    from_value(&error::parse_json(text)?)
}

/// Reads every JKF document of a text: one, or several one after another (one per line, as
/// notate writes them, or indented). A document that is no JSON is an error at its place,
/// and the reading goes on at the next line that opens with `{` (where the next document
/// starts, one a line or indented); a document that is JSON but not a record is its own
/// error, placed at its start, and the next is read. A document that holds bytes that were
/// not text (`bad`) fails.
pub(crate) fn read_all(text: &str, bad: &BadBytes) -> Vec<Result<Record, Error>> {
    let mut out = Vec::new();
    // Where the documents being parsed start: after a document that is no JSON, the next
    // line that opens with `{` (the next document, one a line or indented).
    let mut base = 0;
    'texts: loop {
        let mut stream = serde_json::Deserializer::from_str(&text[base..]).into_iter::<Value>();
        loop {
            let start = base + stream.byte_offset();
            match stream.next() {
                None => break 'texts,
                Some(Ok(doc)) => out.push(
                    match bad.first_within(text, start..base + stream.byte_offset()) {
                        Some(bad) => Err(bad),
                        None => from_value(&doc).map_err(|mut e| {
                            if start > 0 && e.place.is_none() {
                                let start =
                                    start + text[start..].len() - text[start..].trim_start().len();
                                e.place = Some(crate::Place {
                                    line: 0,
                                    column: 0,
                                    offset: Some(start),
                                });
                            }
                            e
                        }),
                    },
                ),
                Some(Err(e)) => {
                    let lines_before = text[..base].matches('\n').count();
                    let opened = start + text[start..].len() - text[start..].trim_start().len();
                    let next = text[opened..].find("\n{").map(|i| opened + i + 1);
                    // Bytes that were not text in the broken document are why it broke.
                    out.push(Err(bad
                        .first_within(text, start..next.unwrap_or(text.len()))
                        .unwrap_or_else(|| error::json_syntax(&e, lines_before))));
                    match next {
                        Some(next) => {
                            base = next;
                            continue 'texts;
                        }
                        None => break 'texts,
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out.push(match bad.first_within(text, 0..text.len()) {
            Some(bad) => Err(bad),
            None => read(text),
        });
    }
    out
}

/// Reads a JKF document already parsed.
fn from_value(doc: &Value) -> Result<Record, Error> {
    let top = doc
        .as_object()
        .ok_or_else(|| error::json("$", "a JKF document is an object"))?;
    let mut record = Record::default();
    if let Some(header) = top.get("header") {
        let header = header
            .as_object()
            .ok_or_else(|| error::json("$.header", "expected an object of strings"))?;
        for (k, v) in header {
            let v = v
                .as_str()
                .ok_or_else(|| error::json(&format!("$.header.{k}"), "expected a string"))?;
            record.header.push((k.clone(), v.to_string()));
        }
    }
    match read_game(top, &mut record) {
        Ok(()) => Ok(record),
        // Messages name the failed game by its players.
        Err(e) => Err(e.with_players(record.players())),
    }
}

/// Reads the start and the moves of a JKF document into `record`, which has its header.
fn read_game(top: &serde_json::Map<String, Value>, record: &mut Record) -> Result<(), Error> {
    record.start = read_initial(top.get("initial").unwrap_or(&Value::Null))?;
    let moves = top
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| error::json("$.moves", "expected an array"))?;
    if let Some(first) = moves.first() {
        if first.get("move").is_some_and(|m| !m.is_null()) {
            return Err(error::json(
                "$.moves[0]",
                "entry 0 holds the opening comments, not a move",
            ));
        }
        record.comments = read_comments(first, "$.moves[0]")?;
    }
    let start = record.start.clone();
    let mut main = Vec::new();
    let mut ending = None;
    read_line(
        record,
        0,
        1,
        moves.get(1..).unwrap_or(&[]),
        "$.moves",
        1,
        start,
        None,
        &mut main,
        &mut ending,
    )?;
    record.moves = main;
    record.ending = ending;
    record.normalize_variations();
    Ok(())
}

fn read_comments(entry: &Value, path: &str) -> Result<Vec<String>, Error> {
    match entry.get("comments") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.as_str().map(str::to_string).ok_or_else(|| {
                    error::json(&format!("{path}.comments[{i}]"), "expected a string")
                })
            })
            .collect(),
        Some(_) => Err(error::json(
            &format!("{path}.comments"),
            "expected an array of strings",
        )),
    }
}

fn read_initial(initial: &Value) -> Result<Position, Error> {
    if initial.is_null() {
        return Ok(Position::startpos());
    }
    let preset = initial
        .get("preset")
        .and_then(Value::as_str)
        .ok_or_else(|| error::json("$.initial.preset", "expected a preset name"))?;
    if preset != "OTHER" {
        return jkf_preset_position(preset)
            .ok_or_else(|| error::json("$.initial.preset", format!("unknown preset {preset:?}")));
    }
    let data = initial
        .get("data")
        .ok_or_else(|| error::json("$.initial.data", "preset OTHER needs data"))?;
    let mut pos = Position::empty();
    pos.set_side_to_move(read_color(data.get("color"), "$.initial.data.color")?);
    if let Some(board) = data.get("board").and_then(Value::as_array) {
        if board.len() != 9 {
            return Err(error::json("$.initial.data.board", "expected 9 files"));
        }
        for (x, file) in board.iter().enumerate() {
            let file = file.as_array().filter(|f| f.len() == 9).ok_or_else(|| {
                error::json(&format!("$.initial.data.board[{x}]"), "expected 9 squares")
            })?;
            for (y, cell) in file.iter().enumerate() {
                let path = format!("$.initial.data.board[{x}][{y}]");
                let kind = match cell.get("kind") {
                    None | Some(Value::Null) => continue,
                    Some(k) => kind_of(k, &format!("{path}.kind"))?,
                };
                let color = read_color(cell.get("color"), &format!("{path}.color"))?;
                let sq = Square::new(x as u8 + 1, y as u8 + 1).expect("9×9");
                pos.set_piece(sq, Some(Piece::new(color, kind)));
            }
        }
    }
    if let Some(hands) = data.get("hands").and_then(Value::as_array) {
        for (c, hand) in hands.iter().enumerate().take(2) {
            let color = if c == 0 { Color::Black } else { Color::White };
            let Some(hand) = hand.as_object() else {
                continue;
            };
            for (code, n) in hand {
                let path = format!("$.initial.data.hands[{c}].{code}");
                let kind = PieceKind::from_csa(code.as_bytes())
                    .filter(|k| k.hand_index().is_some())
                    .ok_or_else(|| error::json(&path, "not a piece that can be held in hand"))?;
                let n = n
                    .as_u64()
                    .filter(|&n| n <= u64::from(kind.set_count()))
                    .ok_or_else(|| error::json(&path, "expected a count"))?;
                pos.set_hand_count(color, kind, n as u8);
            }
        }
    }
    pos.validate()
        .map_err(|m| error::json("$.initial.data", format!("the start position: {m}")))?;
    Ok(pos)
}

fn read_color(v: Option<&Value>, path: &str) -> Result<Color, Error> {
    match v.and_then(Value::as_u64) {
        Some(0) => Ok(Color::Black),
        Some(1) => Ok(Color::White),
        _ => match v.and_then(Value::as_bool) {
            // Early JKF wrote the colour as a boolean (true: White).
            Some(false) => Ok(Color::Black),
            Some(true) => Ok(Color::White),
            None => Err(error::json(path, "expected 0 (先手) or 1 (後手)")),
        },
    }
}

fn kind_of(v: &Value, path: &str) -> Result<PieceKind, Error> {
    v.as_str()
        .and_then(|s| PieceKind::from_csa(s.as_bytes()))
        .ok_or_else(|| error::json(path, "expected a CSA piece code (FU, KY … RY)"))
}

fn read_place(v: Option<&Value>, path: &str) -> Result<Square, Error> {
    let v = v.ok_or_else(|| error::json(path, "missing"))?;
    let x = v.get("x").and_then(Value::as_i64);
    let y = v.get("y").and_then(Value::as_i64);
    match (x, y) {
        (Some(x), Some(y)) => Square::from_file_rank(x, y).map_err(|e| error::json(path, e.0)),
        _ => Err(error::json(path, "expected {\"x\": file, \"y\": rank}")),
    }
}

fn read_time(v: &Value, path: &str) -> Result<Option<MoveTime>, Error> {
    let Some(t) = v.get("time").filter(|t| !t.is_null()) else {
        return Ok(None);
    };
    let secs = |part: &str| -> Result<Option<u64>, Error> {
        let Some(p) = t.get(part) else {
            return Ok(None);
        };
        let field = |k: &str| p.get(k).and_then(Value::as_u64).unwrap_or(0);
        if !p.is_object() {
            return Err(error::json(
                &format!("{path}.time.{part}"),
                "expected {h, m, s}",
            ));
        }
        // Milliseconds a `u64` cannot hold (hours of 20 digits) are an error, not a wrong
        // time (the multiplication wrapped; a debug build panicked).
        let ms = field("h")
            .checked_mul(3600)
            .and_then(|s| s.checked_add(field("m").checked_mul(60)?))
            .and_then(|s| s.checked_add(field("s")))
            .and_then(|s| s.checked_mul(1000));
        match ms {
            Some(ms) => Ok(Some(ms)),
            None => Err(error::json(
                &format!("{path}.time.{part}"),
                "a time too long to hold in milliseconds",
            )),
        }
    };
    let now = secs("now")?.ok_or_else(|| error::json(&format!("{path}.time.now"), "missing"))?;
    Ok(Some(MoveTime {
        spent_ms: now,
        total_ms: secs("total")?,
    }))
}

/// Reads the entries of one line (ply `first_ply` on) from `pos`, forks included.
#[allow(clippy::too_many_arguments)]
fn read_line(
    record: &mut Record,
    line: usize,
    first_ply: u32,
    entries: &[Value],
    path: &str,
    offset: usize,
    mut pos: Position,
    mut last_to: Option<Square>,
    out: &mut Vec<RecordMove>,
    ending: &mut Option<Ending>,
) -> Result<(), Error> {
    for (i, entry) in entries.iter().enumerate() {
        let ply = first_ply + i as u32;
        let here = format!("{path}[{}]", i + offset);
        if ending.is_some() {
            return Err(error::json(
                &here,
                "an entry after the special move that ended the line",
            ));
        }
        if let Some(forks) = entry.get("forks").and_then(Value::as_array) {
            for (f, fork) in forks.iter().enumerate() {
                let fork = fork.as_array().ok_or_else(|| {
                    error::json(&format!("{here}.forks[{f}]"), "expected an array of moves")
                })?;
                if record.depth_below(line) > MAX_VARIATION_DEPTH {
                    return Err(nested_too_deep().with_path(format!("{here}.forks[{f}]")));
                }
                record.variations.push(Variation {
                    parent: line,
                    first_ply: ply,
                    moves: Vec::new(),
                    ending: None,
                });
                let index = record.variations.len();
                let (mut moves, mut end) = (Vec::new(), None);
                read_line(
                    record,
                    index,
                    ply,
                    fork,
                    &format!("{here}.forks[{f}]"),
                    0,
                    pos.clone(),
                    last_to,
                    &mut moves,
                    &mut end,
                )?;
                record.variations[index - 1].moves = moves;
                record.variations[index - 1].ending = end;
            }
        }
        let comments = read_comments(entry, &here)?;
        let time = read_time(entry, &here)?;
        if let Some(special) = entry.get("special").and_then(Value::as_str) {
            let kind = EndingKind::from_csa(special, pos.side_to_move()).ok_or_else(|| {
                error::json(
                    &format!("{here}.special"),
                    format!("unknown special {special:?}"),
                )
            })?;
            *ending = Some(Ending {
                kind,
                time,
                comments,
            });
            continue;
        }
        let m = entry
            .get("move")
            .filter(|m| !m.is_null())
            .ok_or_else(|| error::json(&here, "expected a move or a special"))?;
        let mp = format!("{here}.move");
        let color = read_color(m.get("color"), &format!("{mp}.color"))?;
        if color != pos.side_to_move() {
            return Err(error::json(
                &format!("{mp}.color"),
                format!("ply {ply}: not the side to move"),
            ));
        }
        let same = m.get("same").and_then(Value::as_bool) == Some(true);
        let to = if same && m.get("to").is_none() {
            last_to.ok_or_else(|| error::json(&mp, "same with no previous move"))?
        } else {
            read_place(m.get("to"), &format!("{mp}.to"))?
        };
        // What a move says of itself besides is checked too, as `piece` and `color` are.
        if same && last_to != Some(to) {
            return Err(error::json(
                &format!("{mp}.same"),
                format!("ply {ply}: same, but the last move went elsewhere"),
            ));
        }
        if let Some(capture) = m.get("capture").filter(|c| !c.is_null()) {
            let taken = pos.piece_at(to).filter(|p| p.color != color);
            if capture.as_str() != taken.map(|p| p.kind.csa()) {
                let what = taken.map_or("nothing", |p| p.kind.csa());
                return Err(error::json(
                    &format!("{mp}.capture"),
                    format!(
                        "ply {ply}: capture {:?}, but the move takes {what}",
                        capture.as_str().unwrap_or("?")
                    ),
                ));
            }
        }
        let kind = kind_of(
            m.get("piece").unwrap_or(&Value::Null),
            &format!("{mp}.piece"),
        )?;
        let mv = match m.get("from").filter(|f| !f.is_null()) {
            None => Move::Drop { kind, to },
            Some(f) => {
                let from = read_place(Some(f), &format!("{mp}.from"))?;
                match pos.piece_at(from) {
                    Some(p) if p.kind == kind => {}
                    Some(p) => {
                        return Err(error::json(
                            &format!("{mp}.piece"),
                            format!(
                                "ply {ply}: the piece on {from} is {}, not {}",
                                p.kind.csa(),
                                kind.csa()
                            ),
                        ))
                    }
                    None => {
                        return Err(error::json(
                            &format!("{mp}.from"),
                            format!("ply {ply}: no piece on {from}"),
                        ))
                    }
                }
                Move::Normal {
                    from,
                    to,
                    promote: m.get("promote").and_then(Value::as_bool) == Some(true),
                }
            }
        };
        pos.play(mv)
            .map_err(|e| error::json(&mp, format!("ply {ply} ({mv}): {e}")))?;
        last_to = Some(to);
        out.push(RecordMove { mv, time, comments });
    }
    Ok(())
}

fn place(sq: Square) -> Value {
    json!({"x": sq.file(), "y": sq.rank()})
}

fn time_value(t: MoveTime, total_ms: u64) -> Value {
    let now = t.spent_ms / 1000;
    let total = t.total_ms.unwrap_or(total_ms) / 1000;
    json!({
        "now": {"m": now / 60, "s": now % 60},
        "total": {"h": total / 3600, "m": total / 60 % 60, "s": total % 60},
    })
}

/// JKF's letters for KI2's words.
fn relative_letters(words: &str) -> String {
    words
        .chars()
        .map(|c| match c {
            '左' => 'L',
            '直' => 'C',
            '右' => 'R',
            '上' => 'U',
            '寄' => 'M',
            '引' => 'D',
            _ => 'H',
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn write_line(
    record: &Record,
    branches: &[Vec<usize>],
    line: usize,
    first_ply: u32,
    moves: &[RecordMove],
    ending: Option<&Ending>,
    mut pos: Position,
    mut last_to: Option<Square>,
) -> Vec<Value> {
    let mut entries = Vec::with_capacity(moves.len() + 1);
    let mut totals = [0u64; 2];
    // The line's branches not written yet: the last first ply first, so the next ply's are
    // at the end (in their order) as the plies go up.
    let mut left: &[usize] = &branches[line];
    let mut forks_at = |ply: u32, pos: &Position, last_to: Option<Square>| -> Vec<Value> {
        let first = |i: &usize| record.variations[*i].first_ply;
        // Branches before this ply have no move to hang on: not written, as before.
        while left.last().is_some_and(|i| first(i) < ply) {
            left = &left[..left.len() - 1];
        }
        let at = left
            .iter()
            .rposition(|i| first(i) != ply)
            .map_or(0, |k| k + 1);
        let (rest, here) = left.split_at(at);
        left = rest;
        here.iter()
            .map(|&i| {
                let v = &record.variations[i];
                Value::Array(write_line(
                    record,
                    branches,
                    i + 1,
                    ply,
                    &v.moves,
                    v.ending.as_ref(),
                    pos.clone(),
                    last_to,
                ))
            })
            .collect()
    };
    for (i, m) in moves.iter().enumerate() {
        let ply = first_ply + i as u32;
        let side = pos.side_to_move();
        let mut mv = Map::new();
        mv.insert("color".into(), json!(side.index()));
        match m.mv {
            Move::Normal { from, to, promote } => {
                let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                mv.insert("from".into(), place(from));
                mv.insert("to".into(), place(to));
                mv.insert("piece".into(), json!(kind.csa()));
                if last_to == Some(to) {
                    mv.insert("same".into(), json!(true));
                }
                if Position::may_promote(side, kind, from, to) {
                    mv.insert("promote".into(), json!(promote));
                }
                if let Some(c) = pos.piece_at(to) {
                    mv.insert("capture".into(), json!(c.kind.csa()));
                }
                let words = relative_words(side, kind, from, to, &pos.origins(kind, to));
                if !words.is_empty() {
                    mv.insert("relative".into(), json!(relative_letters(&words)));
                }
            }
            Move::Drop { kind, to } => {
                mv.insert("to".into(), place(to));
                mv.insert("piece".into(), json!(kind.csa()));
                if last_to == Some(to) {
                    mv.insert("same".into(), json!(true));
                }
                if !pos.origins(kind, to).is_empty() {
                    mv.insert("relative".into(), json!("H"));
                }
            }
        }
        let mut entry = Map::new();
        if !m.comments.is_empty() {
            entry.insert("comments".into(), json!(m.comments));
        }
        entry.insert("move".into(), Value::Object(mv));
        if let Some(t) = m.time {
            totals[side.index()] += t.spent_ms;
            entry.insert("time".into(), time_value(t, totals[side.index()]));
        }
        let forks = forks_at(ply, &pos, last_to);
        if !forks.is_empty() {
            entry.insert("forks".into(), Value::Array(forks));
        }
        entries.push(Value::Object(entry));
        pos.play_unchecked(m.mv);
        last_to = Some(m.mv.to());
    }
    let ply = first_ply + moves.len() as u32;
    let forks = forks_at(ply, &pos, last_to);
    if let Some(e) = ending {
        let mut entry = Map::new();
        let side = pos.side_to_move();
        let special = e.kind.csa(side).unwrap_or("CHUDAN");
        entry.insert("special".into(), json!(special));
        if !e.comments.is_empty() {
            entry.insert("comments".into(), json!(e.comments));
        }
        if let Some(t) = e.time {
            totals[side.index()] += t.spent_ms;
            entry.insert("time".into(), time_value(t, totals[side.index()]));
        }
        if !forks.is_empty() {
            entry.insert("forks".into(), Value::Array(forks));
        }
        entries.push(Value::Object(entry));
    }
    entries
}

/// The JKF document of a record, as a JSON value.
pub fn to_value(record: &Record) -> Value {
    let mut top = Map::new();
    let header: Map<String, Value> = record
        .header
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    top.insert("header".into(), Value::Object(header));
    let initial = match preset_of(&record.start) {
        Some((_, preset)) => json!({"preset": preset}),
        None => {
            let pos = &record.start;
            let board: Vec<Value> = (1..=9u8)
                .map(|x| {
                    Value::Array(
                        (1..=9u8)
                            .map(|y| match pos.piece_at(Square::new(x, y).expect("9×9")) {
                                Some(p) => json!({"color": p.color.index(), "kind": p.kind.csa()}),
                                None => json!({}),
                            })
                            .collect(),
                    )
                })
                .collect();
            let hand = |color: Color| -> Value {
                let mut h = Map::new();
                for kind in ALL_KINDS
                    .iter()
                    .copied()
                    .filter(|k| k.hand_index().is_some())
                {
                    h.insert(kind.csa().into(), json!(pos.hand_count(color, kind)));
                }
                Value::Object(h)
            };
            json!({
                "preset": "OTHER",
                "data": {
                    "color": pos.side_to_move().index(),
                    "board": board,
                    "hands": [hand(Color::Black), hand(Color::White)],
                }
            })
        }
    };
    top.insert("initial".into(), initial);
    let mut moves = vec![if record.comments.is_empty() {
        json!({})
    } else {
        json!({"comments": record.comments})
    }];
    moves.extend(write_line(
        record,
        &record.branches(),
        0,
        1,
        &record.moves,
        record.ending.as_ref(),
        record.start.clone(),
        None,
    ));
    top.insert("moves".into(), Value::Array(moves));
    Value::Object(top)
}

/// Writes a record as JKF: indented when `pretty`, else one line.
///
/// ```
/// use notate::shogi::{jkf, usi};
/// let record = usi::read_one("position startpos moves 7g7f").unwrap();
/// let text = jkf::to_string(&record).unwrap();
/// assert!(text.contains(r#""move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}"#));
/// assert_eq!(jkf::read_one(&text).unwrap(), record);
/// ```
pub(crate) fn write(record: &Record, pretty: bool) -> String {
    let value = to_value(record);
    if pretty {
        serde_json::to_string_pretty(&value).unwrap_or_default()
    } else {
        serde_json::to_string(&value).unwrap_or_default()
    }
}

/// JSON Kifu Format: one document per text, written one per line (or indented).
#[derive(Debug, Default)]
pub struct Jkf {
    options: WriteOptions,
}

/// How JKF is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Indented, one key per line (default: one line).
    pub pretty: bool,
}

read_format!(Jkf, Record, "JKF", ReadOptions, whole, |record, options| {
    match encoding::decode_marking(record, options.encoding) {
        Ok(decoded) => read_all(&decoded.text, &decoded.bad),
        Err(e) => vec![Err(e)],
    }
});

impl WriteFormat for Jkf {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Jkf {
        Jkf { options }
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        record.check_depth()?;
        out.extend_from_slice(write(record, self.options.pretty).as_bytes());
        out.push(b'\n');
        Ok(())
    }
}

write_verbs!(Jkf, Record, "JKF");
