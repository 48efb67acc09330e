//! How shogi readers and writers build the crate's one [`Error`]: a line that cannot be read,
//! a move that cannot be played, a JSON document that does not fit, bytes that are not text,
//! a record that a format cannot hold.

pub use crate::Error;
use crate::{ErrorKind, Place};

/// A line that cannot be read: at byte `offset` of `line_text` (line `line`, from 1); the
/// token is the line (at most 80 characters of it).
pub(crate) fn line(
    line: usize,
    line_text: &str,
    offset: usize,
    message: impl Into<String>,
) -> Error {
    let offset = offset.min(line_text.len());
    let column = 1 + line_text.get(..offset).map_or(0, |s| s.chars().count());
    Error::new(ErrorKind::Syntax, message)
        .with_place(Place::at_line(line as u64, column as u64))
        .with_token(line_text.chars().take(80).collect::<String>())
}

/// A move that cannot be played: ply `ply`, as written `mv`, on line `line` when the format
/// has lines.
pub(crate) fn illegal(
    line: Option<usize>,
    ply: u32,
    mv: impl Into<String>,
    reason: impl Into<String>,
) -> Error {
    let mut error = Error::new(ErrorKind::Illegal, reason)
        .with_ply(ply as usize)
        .with_token(mv);
    if let Some(line) = line {
        error.place = Some(Place::at_line(line as u64, 0));
    }
    error
}

/// `error` placed at byte `offset` of `line_text` when it names only the line (a move's
/// error, found where the move's column is known: KIF and KI2).
pub(crate) fn at_column(mut error: Error, line_text: &str, offset: usize) -> Error {
    if let Some(place) = &mut error.place
        && place.column == 0
    {
        place.column = 1 + line_text.get(..offset).map_or(0, |s| s.chars().count()) as u64;
    }
    error
}

/// A JSON document that does not fit, at `path` (`$.moves[3].move.to`).
pub(crate) fn json(path: &str, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Syntax, message).with_path(path)
}

/// Parses a JSON document; a syntax error names its line and column.
pub(crate) fn parse_json(text: &str) -> Result<serde_json::Value, Error> {
    serde_json::from_str(text).map_err(|e| json_syntax(&e, 0))
}

/// serde_json's syntax error at its place, its line counted after `lines_before` lines (the
/// message without serde_json's own "at line …", which the place says).
pub(crate) fn json_syntax(e: &serde_json::Error, lines_before: usize) -> Error {
    let message = e.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(&*message, |(m, _)| m);
    Error::new(ErrorKind::Syntax, message).with_place(Place::at_line(
        (e.line() + lines_before) as u64,
        e.column() as u64,
    ))
}

/// Counts the line of `error`, of a record that starts on line `first_line + 1` of its
/// text, from the text's first line (an error without a line is left as it is).
pub(crate) fn shift_lines(error: &mut Error, first_line: usize) {
    if let Some(place) = error.place.as_mut().filter(|p| p.line > 0) {
        place.line += first_line as u64;
    }
}

/// Bytes that are not text in `encoding`, first at `line` and `column` (from 1).
pub(crate) fn encoding(line: usize, column: usize, encoding: &str) -> Error {
    Error::new(ErrorKind::Encoding, format!("not valid {encoding}"))
        .with_place(Place::at_line(line as u64, column as u64))
}

/// A record that `format` cannot hold.
pub(crate) fn unwritable(format: &str, message: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Unwritable,
        format!("cannot write {format}: {message}"),
    )
}
