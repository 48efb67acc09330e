//! Errors that belong to one game, with the place that caused them.

use super::game::Tags;

/// What went wrong in one game, and where (a byte offset into the text it was read from;
/// [`Place::locate`] turns it into line and column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct GameError {
    /// Byte offset of the offending token.
    pub offset: usize,
    /// 1-based ply of the main line (or of the variation) the error is in, when it is a move.
    pub ply: Option<usize>,
    /// The offending token, when there is one.
    pub token: Option<String>,
    /// What is wrong, in words.
    pub reason: String,
}

impl GameError {
    /// An error at `offset`.
    pub fn new(offset: usize, reason: impl Into<String>) -> GameError {
        GameError {
            offset,
            ply: None,
            token: None,
            reason: reason.into(),
        }
    }

    /// The same error naming a token.
    pub fn with_token(mut self, token: impl Into<String>) -> GameError {
        self.token = Some(token.into());
        self
    }

    /// The same error naming a ply.
    pub fn with_ply(mut self, ply: usize) -> GameError {
        self.ply = Some(ply);
        self
    }
}

/// A game that could not be read or replayed: its tags (as far as they were read) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedGame {
    /// The tags read before the error.
    pub tags: Tags,
    /// The error.
    pub error: GameError,
}

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    /// Line, from 1.
    pub line: u64,
    /// Column, from 1.
    pub column: u64,
}

impl Place {
    /// The place of byte `offset` in `text`, whose first byte is at line `first_line`.
    ///
    /// ```
    /// use notate::chess::Place;
    /// let place = Place::locate(b"1. e4\n2. Nf9", 9, 1);
    /// assert_eq!((place.line, place.column), (2, 4));
    /// ```
    pub fn locate(text: &[u8], offset: usize, first_line: u64) -> Place {
        let offset = offset.min(text.len());
        let before = &text[..offset];
        let newlines = before.iter().filter(|&&b| b == b'\n').count() as u64;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count() as u64
            + 1;
        Place {
            line: first_line + newlines,
            column,
        }
    }
}

/// Turns increasing byte offsets of one text into places, scanning each byte once (so that
/// a chunk full of bad games, or a line full of bad tokens, still costs linear time).
pub struct Locator<'a> {
    text: &'a [u8],
    first_line: u64,
    offset: usize,
    line: u64,
    column: u64,
}

impl<'a> Locator<'a> {
    /// A locator for `text`, whose first byte is on line `first_line`.
    pub fn new(text: &'a [u8], first_line: u64) -> Self {
        Locator {
            text,
            first_line,
            offset: 0,
            line: first_line,
            column: 1,
        }
    }

    /// The place of `offset` (fastest when offsets come in increasing order).
    ///
    /// ```
    /// use notate::chess::error::Locator;
    /// let mut at = Locator::new("a\nbé\nd".as_bytes(), 10);
    /// assert_eq!(at.place(3).line, 11);
    /// assert_eq!(at.place(6).column, 1);
    /// assert_eq!(at.place(5).column, 3);
    /// assert_eq!(at.place(0).line, 10);
    /// ```
    pub fn place(&mut self, offset: usize) -> Place {
        let offset = offset.min(self.text.len());
        if offset < self.offset {
            *self = Locator::new(self.text, self.first_line);
        }
        let stretch = &self.text[self.offset..offset];
        let mut from = 0;
        for i in memchr::memchr_iter(b'\n', stretch) {
            self.line += 1;
            self.column = 1;
            from = i + 1;
        }
        // Columns count characters: every byte that does not continue a UTF-8 sequence.
        self.column += stretch[from..]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count() as u64;
        self.offset = offset;
        Place {
            line: self.line,
            column: self.column,
        }
    }
}
