//! What can go wrong reading, replaying or writing an infinite chess record.

/// An error in an ICN string, a long JSON document, a replay or a write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The ICN text is malformed at `line`:`column` (1-based; the column counts characters).
    #[error("line {line}, column {column}: {message} (at {token:?})")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// The text at the place (up to the next blank, at most 40 characters).
        token: String,
        /// What is wrong.
        message: String,
    },
    /// The long JSON form is malformed at `path` (`moves[3].startCoords`).
    #[error("{path}: {message}")]
    Json {
        /// Where in the document (`$` is the top).
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Move `ply` (1-based) cannot be played.
    #[error("ply {ply} ({mv}): {message}")]
    Replay {
        /// 1-based ply.
        ply: usize,
        /// The move as minimal ICN.
        mv: String,
        /// What is wrong.
        message: String,
    },
    /// The game cannot be written in the asked form.
    #[error("cannot write: {0}")]
    Write(String),
}

impl Error {
    /// A syntax error at byte `offset` of `text`.
    pub(crate) fn syntax(text: &[u8], offset: usize, message: impl Into<String>) -> Error {
        let offset = offset.min(text.len());
        let before = &text[..offset];
        let line = 1 + memchr::memchr_iter(b'\n', before).count();
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let column = 1 + String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count();
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
        Error::Syntax {
            line,
            column,
            token,
            message: message.into(),
        }
    }

    pub(crate) fn json(path: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Json {
            path: path.into(),
            message: message.into(),
        }
    }
}
