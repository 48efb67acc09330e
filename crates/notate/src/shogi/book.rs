//! The opening books of the seed app (Shogi Vibe): a JSON array of openings, each a name and
//! its moves, in either of the book's two shapes:
//!
//! - the first: `"moves": [{"from": [6,7], "to": [5,7]}, …]` with internal `[row, col]`;
//! - the later: `"moves": {"<FEN>": [{"from": "27", "to": "26"}, …], …}` with
//!   `"file rank"` strings, drops as `{"from": "drop", "to": "23", "pieceType": "P"}` and
//!   `"promote": true`.
//!
//! Each opening becomes a [`Record`] from the even-game position, with its name as the
//! `戦型` header, so every record writer (USI, KIF, Western …) can write it. In the later
//! shape the keys are not trusted (the app's own tests skip two openings whose keys do not
//! match their moves): the line is the first move listed under each key, in order, replayed
//! from the start; an illegal move is an error naming the opening, the ply and the path.

use super::encoding;
/// How this format is read (every shogi format takes the same options).
pub use super::encoding::ReadOptions;
use crate::format::read_format;
use serde_json::Value;

use super::error::{self, Error};
use super::piece::PieceKind;
use super::position::{Move, Position};
use super::record::{Record, RecordMove};
use super::square::Square;

/// Reads a square written `[row, col]` or `"27"` (file, rank).
fn read_square(v: &Value, path: &str) -> Result<Square, Error> {
    match v {
        Value::Array(rc) if rc.len() == 2 => {
            let (Some(row), Some(col)) = (rc[0].as_i64(), rc[1].as_i64()) else {
                return Err(error::json(path, "expected [row, col] numbers"));
            };
            Square::from_row_col(row, col).map_err(|e| error::json(path, e.0))
        }
        Value::String(s) => {
            let b = s.as_bytes();
            match b {
                [f, r] if f.is_ascii_digit() && r.is_ascii_digit() => {
                    Square::from_file_rank(i64::from(f - b'0'), i64::from(r - b'0'))
                        .map_err(|e| error::json(path, e.0))
                }
                _ => Err(error::json(
                    path,
                    format!("{s:?} is not a square (file and rank digits, \"27\")"),
                )),
            }
        }
        _ => Err(error::json(path, "expected [row, col] or \"27\"")),
    }
}

fn read_move(v: &Value, path: &str) -> Result<Move, Error> {
    let to = read_square(v.get("to").unwrap_or(&Value::Null), &format!("{path}.to"))?;
    let from = v.get("from").unwrap_or(&Value::Null);
    if from.as_str() == Some("drop") {
        let kind = v
            .get("pieceType")
            .and_then(Value::as_str)
            .filter(|s| s.len() == 1)
            .and_then(|s| PieceKind::from_letter(s.as_bytes()[0]))
            .filter(|k| k.hand_index().is_some())
            .ok_or_else(|| {
                error::json(
                    &format!("{path}.pieceType"),
                    "expected P, L, N, S, G, B or R",
                )
            })?;
        return Ok(Move::Drop { kind, to });
    }
    let from = read_square(from, &format!("{path}.from"))?;
    let promote = v.get("promote").and_then(Value::as_bool).unwrap_or(false);
    Ok(Move::Normal { from, to, promote })
}

/// Reads every opening of a book; each is a record, or an error with its path.
///
/// ```
/// use notate::shogi::{book, usi};
/// let openings = book::read_str(r#"[{"name": "Aggressive Rook",
///     "moves": [{"from": [6,7], "to": [5,7]}, {"from": [2,1], "to": [3,1]}]}]"#).unwrap();
/// assert_eq!(openings[0].header_value("戦型"), Some("Aggressive Rook"));
/// assert_eq!(usi::to_string(&openings[0]).unwrap(), "position startpos moves 2g2f 8c8d\n");
/// ```
pub(crate) fn read(text: &str) -> Result<Vec<Result<Record, Error>>, Error> {
    let doc = error::parse_json(text)?;
    let openings = doc
        .as_array()
        .ok_or_else(|| error::json("$", "an opening book is an array of openings"))?;
    Ok(openings
        .iter()
        .enumerate()
        .map(|(i, o)| read_opening(o, &format!("$[{i}]")))
        .collect())
}

fn read_opening(o: &Value, path: &str) -> Result<Record, Error> {
    let name = o
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| error::json(&format!("{path}.name"), "expected the opening's name"))?;
    let moves: Vec<(String, &Value)> = match o.get("moves") {
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, m)| (format!("{path}.moves[{i}]"), m))
            .collect(),
        Some(Value::Object(by_position)) => by_position
            .iter()
            .map(|(key, candidates)| {
                let first = candidates.as_array().and_then(|c| c.first());
                (
                    format!("{path}.moves[{key:?}][0]"),
                    first.unwrap_or(&Value::Null),
                )
            })
            .collect(),
        _ => {
            return Err(error::json(
                &format!("{path}.moves"),
                "expected an array or an object of moves",
            ))
        }
    };
    let mut record = Record::new(Position::startpos());
    record.header.push(("戦型".to_string(), name.to_string()));
    let mut pos = record.start.clone();
    for (ply, (mpath, m)) in moves.iter().enumerate() {
        let mv = read_move(m, mpath)?;
        pos.play(mv)
            .map_err(|e| error::json(mpath, format!("{name}: ply {} ({mv}): {e}", ply + 1)))?;
        record.moves.push(RecordMove::new(mv));
    }
    Ok(record)
}

/// An opening book: one JSON array per text, each opening a record (read only).
#[derive(Debug, Default)]
pub struct Book;

read_format!(
    Book,
    Record,
    "an opening book",
    ReadOptions,
    whole,
    |record, options| {
        match encoding::decode(record, options.encoding).and_then(|text| read(&text)) {
            Ok(openings) => openings,
            Err(e) => vec![Err(e)],
        }
    }
);
