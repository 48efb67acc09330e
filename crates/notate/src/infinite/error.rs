//! How infinite chess readers, replay and writers build the crate's one [`Error`]: ICN text
//! that cannot be read, a long JSON document that does not fit, a move that cannot be
//! played, a game a form cannot hold.

pub use crate::Error;
use crate::{ErrorKind, Place};

use super::coord::Int;

/// A syntax error at byte `offset` of the ICN `text`; the token is the text there, up to the
/// next blank (at most 40 characters), or "end of input".
pub(crate) fn syntax(text: &[u8], offset: usize, message: impl Into<String>) -> Error {
    let offset = offset.min(text.len());
    let place = Place::locate(text, offset, 1);
    let token_end = text[offset..]
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .map_or(text.len(), |i| offset + i);
    let mut token: String = String::from_utf8_lossy(&text[offset..token_end])
        .chars()
        .take(40)
        .collect();
    if token.is_empty() {
        token = if offset >= text.len() {
            "end of input".into()
        } else {
            " ".into()
        };
    }
    Error::new(ErrorKind::Syntax, message)
        .with_place(place)
        .with_token(token)
}

/// `error`, placed where a number of more than [`Int::MAX_DIGITS`] digits starts, as the
/// error that says so.
pub(crate) fn too_long(mut error: Error) -> Error {
    error.kind = ErrorKind::TooLarge;
    error.message = too_long_message();
    error
}

fn too_long_message() -> String {
    format!("a number of more than {} digits", Int::MAX_DIGITS)
}

/// A number of the long form, at `path`, of more than [`Int::MAX_DIGITS`] digits.
pub(crate) fn too_long_json(path: impl Into<String>) -> Error {
    Error::new(ErrorKind::TooLarge, too_long_message()).with_path(path)
}

/// The long JSON form is malformed at `path` (`$.moves[3].startCoords`).
pub(crate) fn json(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Syntax, message).with_path(path)
}

/// Move `ply` (1-based), written `mv` in minimal ICN, cannot be played.
pub(crate) fn illegal(ply: usize, mv: String, message: String) -> Error {
    Error::new(ErrorKind::Illegal, message)
        .with_ply(ply)
        .with_token(mv)
}

/// The game cannot be written in the asked form.
pub(crate) fn unwritable(message: String) -> Error {
    Error::new(ErrorKind::Unwritable, format!("cannot write: {message}"))
}
