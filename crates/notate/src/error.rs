//! The one error of every family and format: what went wrong, and where.
//!
//! Chess, infinite chess and shogi readers, replays and writers all fail with [`Error`]: its
//! [`Place`] in the text (line, column, byte offset), the JSON path for a document that does
//! not fit, the game's number in its input, the ply, the offending token, and the message in
//! words. One `Display` writes them in one order:
//!
//! ```
//! use notate::chess::pgn;
//! let games: Vec<_> = pgn::Reader::new(&b"1. d4 *\n\n1. e4 e5\n2. Ke3 *"[..]).collect();
//! let error = games[1].as_ref().unwrap_err();
//! assert!(error.to_string().starts_with("game 2, line 4, column 4, ply 3 \"Ke3\": illegal"));
//! ```

use std::fmt;

/// The players of a game as messages name it, `White – Black` (`?` for a missing name;
/// nothing when neither is known): one form for every family's errors and every store's
/// reports.
///
/// ```
/// use notate::error::players;
/// assert_eq!(players(Some("Carlsen"), None), "Carlsen – ?");
/// assert_eq!(players(None, None), "");
/// ```
pub fn players(first: Option<&str>, second: Option<&str>) -> String {
    match (first, second) {
        (None, None) => String::new(),
        (first, second) => format!("{} – {}", first.unwrap_or("?"), second.unwrap_or("?")),
    }
}

/// A place in a text: 1-based line and column (columns count characters, not bytes), and
/// the byte offset when the reader knows it.
///
/// A line of 0 is a place whose line is not known yet: a reader that works on a part of a
/// stream (the chess readers work on chunks) knows the offset first and places it in lines
/// when it hands the error out (see [`Locator`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// Line, from 1 (0: not known).
    pub line: u64,
    /// Column, from 1, in characters (0: not known).
    pub column: u64,
    /// Byte offset of the place in the text, when known.
    pub offset: Option<usize>,
}

impl Place {
    /// A place known by its line and column only.
    ///
    /// ```
    /// let place = notate::Place::at_line(3, 7);
    /// assert_eq!((place.line, place.column, place.offset), (3, 7, None));
    /// ```
    pub fn at_line(line: u64, column: u64) -> Place {
        Place {
            line,
            column,
            offset: None,
        }
    }

    /// A place known by its byte offset only (placed in lines later).
    pub fn at_offset(offset: usize) -> Place {
        Place {
            line: 0,
            column: 0,
            offset: Some(offset),
        }
    }

    /// The place of byte `offset` in `text`, whose first byte is at line `first_line`.
    ///
    /// ```
    /// use notate::Place;
    /// let place = Place::locate(b"1. e4\n2. Nf9", 9, 1);
    /// assert_eq!((place.line, place.column, place.offset), (2, 4, Some(9)));
    /// ```
    pub fn locate(text: &[u8], offset: usize, first_line: u64) -> Place {
        Locator::new(text, first_line).place(offset)
    }
}

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text is not the format: a token, a line or a document that cannot be read.
    Syntax,
    /// A move that cannot be played where it stands, or a start position that is not legal.
    Illegal,
    /// Bytes that are not text in the expected encoding.
    Encoding,
    /// Past a limit that keeps hostile input from using unbounded memory (a game, a comment,
    /// a tag, a nesting too large).
    TooLarge,
    /// The game cannot be written in the asked format.
    Unwritable,
    /// Reading or writing the stream failed.
    Io,
    /// What the caller asked for cannot be done: an unknown format, option or argument (the
    /// bindings' usage errors, raised before anything is read).
    Usage,
    /// A game a store did not add: a different game stored before has its id (ids are
    /// 64-bit hashes; see `notate::chess::rows::GameKey`).
    IdClash,
}

impl ErrorKind {
    /// The kind's name, as the bindings give it (`kind` of a JavaScript `NotateError` or a
    /// Python `GameError`).
    ///
    /// ```
    /// assert_eq!(notate::ErrorKind::TooLarge.name(), "too-large");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Illegal => "illegal",
            ErrorKind::Encoding => "encoding",
            ErrorKind::TooLarge => "too-large",
            ErrorKind::Unwritable => "unwritable",
            ErrorKind::Io => "io",
            ErrorKind::Usage => "usage",
            ErrorKind::IdClash => "id-clash",
        }
    }
}

/// The most characters an [`Error`]'s token keeps (a move with coordinates of 60 digits
/// fits).
pub const MAX_TOKEN_CHARS: usize = 200;

/// What went wrong in one game, and where.
///
/// Every field but the message is optional: a reader fills what it knows. [`Error::at`],
/// [`Error::new`] and the `with_…` methods build one:
///
/// ```
/// use notate::{Error, ErrorKind, Place};
/// let error = Error::new(ErrorKind::Illegal, "two pawns on one file")
///     .with_place(Place::at_line(12, 3))
///     .with_ply(31)
///     .with_token("５五歩打");
/// assert_eq!(error.to_string(), "line 12, column 3, ply 31 \"５五歩打\": two pawns on one file");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// Where in the text, when the format has a text place.
    pub place: Option<Place>,
    /// Where in a JSON document (`$.moves[3].move.to`), for the JSON formats.
    pub path: Option<String>,
    /// The game's 1-based number in its input, when the input holds several.
    pub game: Option<u64>,
    /// The 1-based ply of the line (main line or variation) the error is in, for a move.
    pub ply: Option<usize>,
    /// The offending token (a move as written, a line of a record), when there is one: a
    /// longer one than [`MAX_TOKEN_CHARS`] characters is cut there and ended with `…`.
    pub token: Option<String>,
    /// What is wrong, in words.
    pub message: String,
    /// Who played the failed game (`A – B`, see [`players`]), when its reader had read that
    /// far: messages name the game by it.
    pub players: Option<Box<str>>,
}

impl Error {
    /// An error of `kind`, with no place yet.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            place: None,
            path: None,
            game: None,
            ply: None,
            token: None,
            message: message.into(),
            players: None,
        }
    }

    /// The same error, naming the players of its game (see [`players`]).
    ///
    /// ```
    /// let error = notate::Error::at(7, "no move").with_players("A – B".into());
    /// assert_eq!(error.players.as_deref(), Some("A – B"));
    /// ```
    pub fn with_players(mut self, players: String) -> Error {
        self.players = (!players.is_empty()).then(|| players.into_boxed_str());
        self
    }

    /// A syntax error at byte `offset` (placed in lines later).
    ///
    /// ```
    /// let error = notate::Error::at(7, "a tag without a value");
    /// assert_eq!(error.offset(), Some(7));
    /// ```
    pub fn at(offset: usize, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Syntax, message).with_place(Place::at_offset(offset))
    }

    /// An I/O error of the stream.
    pub fn io(error: &std::io::Error) -> Error {
        Error::new(ErrorKind::Io, error.to_string())
    }

    /// The same error of another kind.
    pub fn with_kind(mut self, kind: ErrorKind) -> Error {
        self.kind = kind;
        self
    }

    /// The same error at `place`.
    pub fn with_place(mut self, place: Place) -> Error {
        self.place = Some(place);
        self
    }

    /// The same error at a JSON path.
    pub fn with_path(mut self, path: impl Into<String>) -> Error {
        self.path = Some(path.into());
        self
    }

    /// The same error naming the game's number.
    pub fn with_game(mut self, game: u64) -> Error {
        self.game = Some(game);
        self
    }

    /// The same error naming a ply.
    pub fn with_ply(mut self, ply: usize) -> Error {
        self.ply = Some(ply);
        self
    }

    /// The same error naming a token (cut to [`MAX_TOKEN_CHARS`] characters: a skipped
    /// stretch of a megabyte would otherwise be printed whole in its message).
    ///
    /// ```
    /// use notate::{Error, ErrorKind, MAX_TOKEN_CHARS};
    /// let error = Error::new(ErrorKind::Syntax, "skipped").with_token("x".repeat(1 << 20));
    /// let token = error.token.unwrap();
    /// assert_eq!(token.chars().count(), MAX_TOKEN_CHARS + 1);
    /// assert!(token.ends_with('…'));
    /// ```
    pub fn with_token(mut self, token: impl Into<String>) -> Error {
        let mut token = token.into();
        if let Some((cut, _)) = token.char_indices().nth(MAX_TOKEN_CHARS) {
            token.truncate(cut);
            token.push('…');
        }
        self.token = Some(token);
        self
    }

    /// The byte offset of the place, when known.
    pub fn offset(&self) -> Option<usize> {
        self.place.and_then(|p| p.offset)
    }

    /// Moves the error to byte `offset` (its line is placed later).
    pub fn set_offset(&mut self, offset: usize) {
        self.place = Some(Place::at_offset(offset));
    }

    /// Places an error known by its offset in lines, with `locator` over the text the offset
    /// counts in.
    pub fn locate(&mut self, locator: &mut Locator<'_>) {
        if let Some(Place {
            line: 0,
            offset: Some(offset),
            ..
        }) = self.place
        {
            self.place = Some(locator.place(offset));
        }
    }

    /// The line of the error when known, with its column when known (0 in a [`Place`] is
    /// not known): what messages and the bindings' `line` and `column` give.
    ///
    /// ```
    /// use notate::{Error, ErrorKind, Place};
    /// let error = Error::new(ErrorKind::Encoding, "not valid Shift_JIS").with_place(Place::at_line(4, 0));
    /// assert_eq!(error.line_and_column(), Some((4, None)));
    /// ```
    pub fn line_and_column(&self) -> Option<(u64, Option<u64>)> {
        self.place
            .filter(|p| p.line > 0)
            .map(|p| (p.line, (p.column > 0).then_some(p.column)))
    }

    /// Writes everything but the message: `game 2, line 5, column 3, $.moves[1], ply 4
    /// "Nf9"` (empty when nothing is known), as the command line prints it after a file name.
    pub fn write_where(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let mut sep = "";
        if let Some(game) = self.game {
            write!(out, "game {game}")?;
            sep = ", ";
        }
        if let Some((line, column)) = self.line_and_column() {
            write!(out, "{sep}line {line}")?;
            if let Some(column) = column {
                write!(out, ", column {column}")?;
            }
            sep = ", ";
        }
        if let Some(path) = &self.path {
            write!(out, "{sep}{path}")?;
            sep = ", ";
        }
        if let Some(ply) = self.ply {
            write!(out, "{sep}ply {ply}")?;
        }
        // The token follows what it belongs to: `ply 4 "Nf9"`, `line 5, column 1 "XYZ"`.
        if !sep.is_empty() || self.ply.is_some() {
            sep = " ";
        }
        if let Some(token) = &self.token {
            write!(out, "{sep}{}", quoted(token))?;
        }
        Ok(())
    }
}

/// A token as messages quote it: in `"`, with `"`, `\`, control characters and characters
/// that cannot be seen (zero-width spaces and joiners, a byte-order mark, direction marks and
/// isolates, variation selectors, fillers, tag characters) escaped as
/// Rust writes them, and every other character as it is: a shogi move's ideographic space
/// (`同　歩`) is one to read, not `\u{3000}` (as Rust's `{:?}` wrote it).
///
/// ```
/// let token = "同　歩\t\u{200b}\"x\"";
/// assert_eq!(notate::error::quoted(token), r#""同　歩\t\u{200b}\"x\"""#);
/// ```
pub fn quoted(token: &str) -> String {
    let mut out = String::with_capacity(token.len() + 2);
    out.push('"');
    for c in token.chars() {
        let hidden = matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'..='\u{1160}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e007f}'
        );
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || hidden => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut head = String::new();
        self.write_where(&mut head)?;
        if head.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{head}: {}", self.message)
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(error: std::io::Error) -> Error {
        Error::io(&error)
    }
}

/// Turns increasing byte offsets of one text into places, scanning each byte once (so that
/// a chunk full of bad games, or a line full of bad tokens, still costs linear time).
///
/// ```
/// use notate::error::Locator;
/// let mut at = Locator::new("a\nbé\nd".as_bytes(), 10);
/// assert_eq!(at.place(3).line, 11);
/// assert_eq!(at.place(6).column, 1);
/// assert_eq!(at.place(5).column, 3);
/// assert_eq!(at.place(0).line, 10);
/// ```
pub struct Locator<'a> {
    text: &'a [u8],
    first_line: u64,
    first_byte: usize,
    /// The column of `text[0]`.
    first_column: u64,
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
            first_byte: 0,
            first_column: 1,
            offset: 0,
            line: first_line,
            column: 1,
        }
    }

    /// The same locator for a `text` whose first byte comes after `chars` characters of its
    /// line (a part of a stream cut inside a line): its first line's columns count on.
    ///
    /// ```
    /// let mut at = notate::error::Locator::new(b"ab\ncd", 1).after_chars(3);
    /// assert_eq!((at.place(1).column, at.place(4).column), (5, 2));
    /// ```
    pub fn after_chars(mut self, chars: u64) -> Self {
        self.first_column = chars + 1;
        if self.offset == 0 {
            self.column = self.first_column;
        }
        self
    }

    /// A locator for a part of a stream: `text` starts on line `first_line` at byte
    /// `first_byte` of the stream, and the places it gives count lines and bytes in the stream.
    ///
    /// ```
    /// let mut at = notate::error::Locator::in_stream(b"x\ny", 41, 1000);
    /// assert_eq!(at.place(2), notate::Place { line: 42, column: 1, offset: Some(1002) });
    /// ```
    pub fn in_stream(text: &'a [u8], first_line: u64, first_byte: usize) -> Self {
        Locator {
            first_byte,
            ..Locator::new(text, first_line)
        }
    }

    /// The place of `offset` (fastest when offsets come in increasing order).
    pub fn place(&mut self, offset: usize) -> Place {
        let offset = offset.min(self.text.len());
        if offset < self.offset {
            *self = Locator::in_stream(self.text, self.first_line, self.first_byte)
                .after_chars(self.first_column - 1);
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
            offset: Some(self.first_byte + offset),
        }
    }
}
