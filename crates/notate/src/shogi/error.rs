//! What can go wrong reading or writing a shogi record.

/// An error in a shogi record, with its place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A line notate cannot read: its 1-based number, the 1-based character column, the
    /// line's text and what is wrong.
    #[error("line {line}, column {column}: {message}: {text:?}")]
    Line {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// The line (at most 80 characters of it).
        text: String,
        /// What is wrong.
        message: String,
    },
    /// A move that cannot be played: its ply, the move as written and why.
    #[error("{}ply {ply} ({mv}): {reason}", line.map_or(String::new(), |l| format!("line {l}, ")))]
    Move {
        /// The line it is on, when the format has lines.
        line: Option<usize>,
        /// 1-based ply number.
        ply: u32,
        /// The move as written.
        mv: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// A JSON document (JKF, opening book) that does not fit: where and why.
    #[error("{path}: {message}")]
    Json {
        /// Where (`$.moves[3].move.to`).
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Bytes that are not text in the encoding.
    #[error("line {line}: not valid {encoding}")]
    Encoding {
        /// 1-based line of the first bad byte.
        line: usize,
        /// The encoding the bytes were read in.
        encoding: &'static str,
    },
    /// The record cannot be written in the asked format.
    #[error("cannot write {format}: {message}")]
    Write {
        /// The format.
        format: &'static str,
        /// Why.
        message: String,
    },
}

impl Error {
    /// A line error at byte `offset` of `line_text`.
    pub(crate) fn line(
        line: usize,
        line_text: &str,
        offset: usize,
        message: impl Into<String>,
    ) -> Error {
        let offset = offset.min(line_text.len());
        let column = 1 + line_text.get(..offset).map_or(0, |s| s.chars().count());
        Error::Line {
            line,
            column,
            text: line_text.chars().take(80).collect(),
            message: message.into(),
        }
    }

    /// A JSON error at `path`.
    pub(crate) fn json(path: &str, message: impl Into<String>) -> Error {
        Error::Json {
            path: path.to_string(),
            message: message.into(),
        }
    }

    /// Parses a JSON document; a syntax error names its line and column.
    pub(crate) fn parse_json(text: &str) -> Result<serde_json::Value, Error> {
        serde_json::from_str(text).map_err(|e| {
            Error::json(
                &format!("line {}, column {}", e.line(), e.column()),
                e.to_string(),
            )
        })
    }

    /// The error's line number, if it has one.
    pub fn line_number(&self) -> Option<usize> {
        match self {
            Error::Line { line, .. } | Error::Encoding { line, .. } => Some(*line),
            Error::Move { line, .. } => *line,
            _ => None,
        }
    }
}
