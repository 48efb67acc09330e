//! The PGN tokenizer and game builder.
//!
//! Why not pgn-reader's tokenizer: it gives no positions (and notate's errors must name line
//! and column), and it drops what it cannot read without a word — `g4+/-` loses `g4`, `e2-e4`
//! movetext loses every move, `^5blergh` vanishes. notate must account for every token (a
//! move, a glyph, a comment, or an error with its place), so it reads PGN itself, in one pass
//! without per-token allocation, as fast as pgn-reader (see `scripts/bench`).

use std::ops::Range;

use memchr::memchr;

use super::find::{find_any, tag_left_open, BOM, FORUM_MARKERS, MAX_TAG_LINES};
use super::line_games::next_game_from;
use super::split::{Keep, PieceLetters, ReadOptions};
use crate::chess::error::FailedGame;
use crate::{Error, ErrorKind};
use shakmaty::Chess;

use crate::chess::game::{
    play, Comment, GameResult, Line, Ply, StartPosition, Tags, Written, WrittenGame,
};
use crate::chess::san::{MoveSpec, SanText};

/// Reads the games of one stretch of PGN text (as cut by [`GameSplitter`](super::GameSplitter)).
///
/// ```
/// use notate::chess::pgn::{GameParser, ReadOptions};
/// let text = b"[White \"A\"]\n\n1. e4 {best} e5 (1... c5) 2. Nf3 1-0";
/// let mut parser = GameParser::new(text, 0..text.len(), ReadOptions::default());
/// let game = parser.next_game().unwrap().unwrap();
/// assert_eq!(game.moves.plies.len(), 3);
/// assert_eq!(game.moves.plies[1].variations.len(), 1);
/// assert!(parser.next_game().is_none());
/// ```
pub struct GameParser<'a> {
    src: &'a [u8],
    pos: usize,
    end: usize,
    limits: ReadOptions,
    game_start: usize,
    warnings: Vec<Error>,
    /// Where the first comment of the current game that holds a `{` starts.
    brace_in_comment: Option<usize>,
    /// Whether comments are read with nested braces (the second try at such a game).
    nested_comments: bool,
    /// Validating: whether the players' names are kept (see `tags_for_messages`).
    keep_names: bool,
    /// Validating: whether the game's error is a move that does not play, found with the
    /// game read to its end (the next game starts after it). Any other error ends the
    /// stretch, as it does when moves are replayed after reading.
    read_through: bool,
    /// Tokens before this offset begin no other game: [`GameParser::restarts`] looked
    /// through them already.
    no_restart_before: usize,
}

/// Decodes text that should be UTF-8; anything else is read as Latin-1 (byte = code point),
/// which is what old PGN files written on Windows mostly are. Nothing is dropped.
pub fn decode_text(bytes: &[u8]) -> String {
    decode_cow(bytes).into_owned()
}

/// [`decode_text`] without a copy when the bytes are UTF-8 already.
fn decode_cow(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => std::borrow::Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// The most plies reserved for a game's main line before reading it (a long game grows).
const MAX_RESERVED_PLIES: usize = 512;

/// A game with more skipped tokens than this is not PGN: it fails instead.
pub const MAX_WARNINGS_PER_GAME: usize = 100;

/// Evaluation and move glyphs people write instead of `$n`, longest first.
const GLYPHS: &[(&str, u8)] = &[
    ("+/=", 14),
    ("=/+", 15),
    ("+/-", 16),
    ("-/+", 17),
    ("=/∞", 44),
    ("=∞", 44),
    ("+=", 14),
    ("=+", 15),
    ("+-", 18),
    ("-+", 19),
    ("+−", 18),
    ("−+", 19),
    ("⩲", 14),
    ("⩱", 15),
    ("±", 16),
    ("∓", 17),
    ("∞", 13),
    ("□", 7),
    ("⨀", 22),
    ("⊙", 22),
    ("⟳", 32),
    ("↑", 36),
    ("→", 40),
    ("⇆", 132),
    ("⊕", 138),
    ("∆", 140),
    ("Δ", 140),
    ("N", 146),
    ("=", 10),
];

fn glyph_nag(word: &[u8]) -> Option<u8> {
    GLYPHS
        .iter()
        .find(|(g, _)| g.as_bytes() == word)
        .map(|(_, n)| *n)
}

/// `!`, `?`, `!!`, `??`, `!?`, `?!` as NAGs 1 to 6.
fn punctuation_nag(word: &[u8]) -> Option<u8> {
    Some(match word {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        b"?!" => 6,
        _ => return None,
    })
}

/// Bytes that end a word (a move, number, result or glyph), as a table: the word scan is
/// the innermost loop of reading.
const WORD_END: [bool; 256] = {
    let mut table = [false; 256];
    let ends = b" \t\n\r\x0b\x0c{}();$!?[]";
    let mut i = 0;
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    table
};

/// The lines being built: the main line at the bottom, open variations above it.
struct Builder {
    stack: Vec<Frame>,
    /// Validate-only: the first bad move. Reading goes on to the end of the game (so that a
    /// game after it in the same stretch is still found) without checking more moves.
    failed: Option<Error>,
}

/// An open line: its plies so far, the ply number before its first move, and whether it is
/// a variation with no move to hang on (read, then dropped with a warning).
struct Frame {
    line: Line<Written>,
    base: usize,
    orphan: bool,
    /// In validate-only reading: the board of this line (moves are played, not kept).
    board: Option<Board>,
}

/// A line's position before its last move (where a variation starts) and that move, kept
/// unplayed until the next move comes: so no position is ever copied for a move.
#[derive(Clone)]
struct Board {
    before_last: Chess,
    last: Option<Option<shakmaty::Move>>,
    /// The moves read in the line, played or not (after a bad one, none is): plies are
    /// numbered as they are when the moves are kept and replayed after.
    plies: usize,
}

impl Builder {
    fn top(&mut self) -> &mut Line<Written> {
        let last = self.stack.len() - 1;
        &mut self.stack[last].line
    }

    /// The 1-based ply number the next move of the open line would have.
    fn next_ply(&self) -> usize {
        let frame = self.stack.last().expect("main line");
        let plies = match &frame.board {
            Some(board) => board.plies,
            None => frame.line.plies.len(),
        };
        frame.base + plies + 1
    }

    /// Whether the open line has a move yet.
    fn has_ply(&self) -> bool {
        let frame = self.stack.last().expect("main line");
        match &frame.board {
            Some(board) => board.plies > 0,
            None => !frame.line.plies.is_empty(),
        }
    }

    /// Adds a move (`token`, read as `spec`, at `offset`) to the open line: kept, or
    /// (validate-only) checked at once without keeping its text.
    fn push(&mut self, token: &[u8], spec: MoveSpec, offset: usize) -> Result<(), Error> {
        let next = self.next_ply();
        // An `Option` here, the error built apart: a `Result` with the error inline would be
        // several times the size of the move, copied on every move.
        let written =
            |token: &[u8]| SanText::from_ascii(token).map(|san| Written { san, spec, offset });
        let frame = self.stack.last_mut().expect("main line");
        match &mut frame.board {
            None => match written(token) {
                Some(w) => {
                    frame.line.plies.push(Ply::new(w));
                    Ok(())
                }
                None => Err(too_long(token, offset, next)),
            },
            Some(board) if self.failed.is_some() => {
                board.plies += 1;
                Ok(())
            }
            Some(board) => {
                if let Some(last) = board.last.take() {
                    play(&mut board.before_last, last);
                }
                match spec.resolve(&board.before_last) {
                    Ok(mv) => {
                        board.last = Some(mv);
                        board.plies += 1;
                    }
                    Err(e) => {
                        board.plies += 1;
                        self.failed = Some(match written(token) {
                            Some(w) => {
                                crate::chess::replay::move_error(&board.before_last, e, &w, next)
                            }
                            None => too_long(token, offset, next),
                        });
                    }
                }
                Ok(())
            }
        }
    }

    /// Opens a variation on the open line's last move.
    fn open_variation(&mut self, orphan: bool) {
        let base = self.next_ply().saturating_sub(2);
        // An orphan's moves are read, not played: it is dropped, never replayed.
        let board = self
            .stack
            .last()
            .filter(|_| !orphan)
            .and_then(|f| f.board.as_ref())
            .map(|b| Board {
                before_last: b.before_last.clone(),
                last: None,
                plies: 0,
            });
        self.stack.push(Frame {
            line: Line::default(),
            base,
            orphan,
            board,
        });
    }

    /// Closes the innermost variation and hangs it on its move.
    fn close_variation(&mut self) {
        let frame = self.stack.pop().expect("a variation is open");
        let empty = frame.line.plies.is_empty() && frame.line.comments.is_empty();
        if frame.orphan || empty {
            return;
        }
        if let Some(parent) = self.top().plies.last_mut() {
            parent.variations.push(frame.line);
        }
    }
}

/// A move token longer than SAN allows: at `offset`, ply `ply`.
#[cold]
fn too_long(token: &[u8], offset: usize, ply: usize) -> Error {
    Error::at(offset, "move token too long")
        .with_kind(ErrorKind::TooLarge)
        .with_token(decode_text(token))
        .with_ply(ply)
}

impl<'a> GameParser<'a> {
    /// A parser for `src[range]` (offsets in errors and moves are offsets into `src`).
    pub fn new(src: &'a [u8], range: Range<usize>, limits: ReadOptions) -> Self {
        GameParser {
            src,
            pos: range.start,
            end: range.end.min(src.len()),
            limits,
            game_start: range.start,
            warnings: Vec::new(),
            brace_in_comment: None,
            nested_comments: false,
            keep_names: false,
            read_through: false,
            no_restart_before: 0,
        }
    }

    /// The next game of the stretch, `None` when only blank text is left.
    pub fn next_game(&mut self) -> Option<Result<WrittenGame, FailedGame>> {
        self.skip_blank();
        if self.pos >= self.end {
            return None;
        }
        self.game_start = self.pos;
        self.warnings.clear();
        self.brace_in_comment = None;
        self.nested_comments = false;
        self.read_through = false;
        let mut game = WrittenGame::default();
        let mut result = self.read_game(&mut game);
        // A move that does not play is no stumble: reading the moves without playing them
        // (then replaying them) would not have met it.
        let stumbled = (result.is_err() && !self.read_through) || !self.warnings.is_empty();
        if stumbled
            && memchr(
                b'{',
                &self.src[self.game_start..self.pos.max(self.game_start)],
            )
            .is_some()
        {
            // Some programs write comments with `{…}` inside (`{ see (1. c5 {English}) }`),
            // which the standard reads as a comment that ends early and garbage after it.
            // When that reading stumbles, the game is read again with nested braces, and the
            // second reading is taken only if it is clean and did meet a nested brace (a
            // game without one reads the same both ways).
            let first_pos = self.pos;
            let first_warnings = std::mem::take(&mut self.warnings);
            let first_read_through = std::mem::take(&mut self.read_through);
            self.pos = self.game_start;
            self.nested_comments = true;
            // The looks ahead so far read comments without nesting.
            self.no_restart_before = 0;
            let mut second = WrittenGame::default();
            let retry = self.read_game(&mut second);
            // Clean as reading without playing would find it: a bad move found while
            // validating is replay's to report.
            let read = retry.is_ok() || self.read_through;
            if let (true, true, Some(at)) = (read, self.warnings.is_empty(), self.brace_in_comment)
            {
                self.warnings.push(Error::at(
                    at,
                    "a comment holds `{…}`: read with nested braces",
                ));
                game = second;
                result = retry;
            } else {
                self.pos = first_pos;
                self.warnings = first_warnings;
                self.read_through = first_read_through;
                self.nested_comments = false;
                self.no_restart_before = 0;
            }
        }
        if self.limits.validates_only() && (result.is_err() || !self.warnings.is_empty()) {
            game.tags = self.tags_for_messages();
        }
        Some(match result {
            Ok(()) => Ok(game),
            Err(error) if self.read_through => {
                // A bad move found while validating: the game was read to its end.
                Err(FailedGame {
                    tags: game.tags,
                    error,
                })
            }
            Err(error) => {
                // A syntax error: the failed game runs to the next game without tags on its
                // lines (where the splitter cuts a long line of games, so that the games
                // read do not depend on the line's length), or to the stretch's end.
                self.pos = next_game_from(&self.src[..self.end], self.game_start, self.pos)
                    .unwrap_or(self.end);
                Err(FailedGame {
                    tags: game.tags,
                    error,
                })
            }
        })
    }

    /// The tags of the game being read that replay and messages use. Validating keeps only
    /// those replay needs (`FEN`, `SetUp`, `Variant`): the players' names would be two
    /// strings to allocate per game, and only a game with something to report needs them, so
    /// its tag lines are read again for them.
    pub(super) fn tags_for_messages(&mut self) -> Tags {
        let (pos, warnings) = (self.pos, std::mem::take(&mut self.warnings));
        self.pos = self.game_start;
        // Past the comments before the tags, as `read_game` reads them.
        while self.pos < self.end
            && matches!(self.src[self.pos], b'{' | b';')
            && self.comment_span().is_ok()
        {
            self.skip_blank();
        }
        self.keep_names = true;
        let mut game = WrittenGame::default();
        // A broken tag line ends the tags as it did the first time (the error is known).
        let _ = self.read_tags(&mut game);
        self.keep_names = false;
        self.pos = pos;
        self.warnings = warnings;
        game.tags
    }

    /// What was skipped in the game [`GameParser::next_game`] returned last: tokens that are
    /// neither moves, comments nor annotations (each with its place), which the game
    /// survives. Call after each game.
    pub fn take_warnings(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.warnings)
    }

    /// Offset of the first byte of the game [`GameParser::next_game`] returned last.
    pub fn game_start(&self) -> usize {
        self.game_start
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.src[self.pos - 1] == b'\n'
    }

    fn skip_to_line_end(&mut self) {
        self.pos = match memchr(b'\n', &self.src[self.pos..self.end]) {
            Some(n) => self.pos + n + 1,
            None => self.end,
        };
    }

    /// Skips white space and `%` escape lines.
    fn skip_blank(&mut self) {
        while self.pos < self.end {
            match self.src[self.pos] {
                white_space!() => self.pos += 1,
                b'%' if self.at_line_start() => self.skip_to_line_end(),
                0xEF if self.src[self.pos..self.end].starts_with(BOM) => self.pos += BOM.len(),
                b'[' => match forum_marker(&self.src[self.pos..self.end]) {
                    Some(len) => self.pos += len,
                    None => break,
                },
                _ => break,
            }
        }
    }

    fn read_game(&mut self, game: &mut WrittenGame) -> Result<(), Error> {
        // A comment before the tags (`; from my database` at the top of a file) is the
        // game's: kept as a comment before its first move.
        while self.pos < self.end && matches!(self.src[self.pos], b'{' | b';') {
            let comment = self.read_comment()?;
            if self.limits.keeps_comments() {
                game.moves.comments.push(comment);
            }
            self.skip_blank();
        }
        self.read_tags(game)?;
        self.read_movetext(game)
    }

    fn read_tags(&mut self, game: &mut WrittenGame) -> Result<(), Error> {
        if !self.limits.validates_only() && self.pos < self.end && self.src[self.pos] == b'[' {
            // Most of the tags of a lichess or TWIC game (16 to 19 tags, names and values of
            // 250 to 380 bytes) reserved at once: growing the tags' text and index from
            // nothing took a twentieth of reading a lichess game. (Reserving all of it was
            // faster still on lichess, and a third slower on TWIC: glibc's malloc.) Capped
            // by what is left to read (a tag line takes at least 3 bytes). A game of few tags
            // holds up to twice what growing would have given it.
            let left = self.end - self.pos;
            game.tags.reserve(left.min(256), (left / 3).min(16));
        }
        while self.pos < self.end {
            match self.src[self.pos] {
                b'[' => self.read_tag_line(game)?,
                // A `;` line among the tags (python-chess reads past it): the game's comment
                // before its first move, as one before its tags is; its tags go on after it
                // (the splitter keeps them in the game).
                b';' => {
                    let comment = self.read_comment()?;
                    if self.limits.keeps_comments() {
                        game.moves.comments.push(comment);
                    }
                }
                _ => break,
            }
            self.skip_blank();
        }
        Ok(())
    }

    fn read_tag_line(&mut self, game: &mut WrittenGame) -> Result<(), Error> {
        // Tests read each text both ways (`plain_tag_tests`).
        #[cfg(test)]
        let quick = !plain_tag_tests::GENERAL_ONLY.get();
        #[cfg(not(test))]
        let quick = true;
        if let Some((name, value, next)) = self.plain_tag_line().filter(|_| quick) {
            if self.keeps_tag(name) {
                game.tags.push(decode_cow(name), decode_cow(value));
            }
            self.pos = next;
            return Ok(());
        }
        let line_start = self.pos;
        let mut line_end =
            find_any([b'\n'], &self.src[self.pos..self.end]).map_or(self.end, |n| self.pos + n);
        // A tag split over lines (`[Site` ⏎ `"Here"]`) is read as one: while a tag is left
        // open, the next line belongs to it, unless it is blank or starts a tag of its own.
        // The next line is looked at only for a tag left open.
        for _ in 0..MAX_TAG_LINES {
            if !tag_left_open(&self.src[line_start..line_end]) {
                break;
            }
            let next = (line_end + 1).min(self.end);
            let next_end =
                find_any([b'\n'], &self.src[next..self.end]).map_or(self.end, |n| next + n);
            if matches!(
                self.src[next..next_end].trim_ascii_start().first(),
                None | Some(b'[')
            ) {
                break;
            }
            line_end = next_end;
        }
        if line_end - line_start > self.limits.max_tag_bytes {
            return Err(Error::at(
                line_start,
                format!("tag line longer than {} bytes", self.limits.max_tag_bytes),
            )
            .with_kind(ErrorKind::TooLarge));
        }
        let line = &self.src[..line_end];
        let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
        let mut i = line_start;
        loop {
            // At a `[`. Blanks may stand around the name (`[ Event "x" ]`).
            let open = i;
            i += 1;
            while i < line_end && blank(line[i]) {
                i += 1;
            }
            let name_start = i;
            i = find_any([b' ', b'\t', b'"', b']', b'\n'], &line[i..line_end])
                .map_or(line_end, |n| i + n);
            let name = line[name_start..i].trim_ascii_end();
            if name.is_empty() {
                return Err(Error::at(open, "tag without a name"));
            }
            while i < line_end && blank(line[i]) {
                i += 1;
            }
            let keep = self.keeps_tag(name);
            let value = if i < line_end && line[i] == b'"' {
                match tag_value(line, i + 1, line_end) {
                    Some((raw, close)) => {
                        i = close;
                        if keep {
                            unescape(raw)
                        } else {
                            std::borrow::Cow::Borrowed("")
                        }
                    }
                    None => {
                        // `[Annotator "Krush, I]`: the value runs to the last `]`.
                        let close = memchr::memrchr(b']', &line[i..line_end])
                            .map(|n| i + n)
                            .ok_or_else(|| Error::at(open, "tag is not closed by `]`"))?;
                        self.warnings.push(
                            Error::at(i, "tag value has no closing quote; read up to `]`")
                                .with_token(decode_text(&line[open..=close])),
                        );
                        let value = decode_cow(&line[i + 1..close]);
                        i = close;
                        value
                    }
                }
            } else {
                // `[Event S ]`: no quotes; take the text up to `]` as the value.
                let close = memchr(b']', &line[i..line_end])
                    .map(|n| i + n)
                    .ok_or_else(|| Error::at(open, "tag is not closed by `]`"))?;
                let value = decode_cow(line[i..close].trim_ascii());
                i = close;
                value
            };
            // At the `]`.
            i += 1;
            if keep {
                game.tags.push(decode_cow(name), value);
            }
            while i < line_end && matches!(line[i], b' ' | b'\t' | b'\r') {
                i += 1;
            }
            if i >= line_end {
                break;
            }
            if line[i] != b'[' {
                // `[Event "x"] 1. e4 e5 *`: the movetext starts on the tag's line.
                self.pos = i;
                return Ok(());
            }
        }
        self.pos = (line_end + 1).min(self.end);
        Ok(())
    }

    /// Whether a tag is kept. Validating needs only the tags that replay and messages use:
    /// decoding the others (a lichess game has 17) would be most of the cost of its tags.
    fn keeps_tag(&self, name: &[u8]) -> bool {
        !self.limits.validates_only()
            || [&b"FEN"[..], b"SetUp", b"Variant"]
                .iter()
                .any(|kept| name.eq_ignore_ascii_case(kept))
            || (self.keep_names && matches!(name, b"White" | b"Black"))
    }

    /// The tag line at `pos` when it is written the plain way, `[Name "value"]` and its line's
    /// end, with no escape in its value: its name, its value and where the next line starts.
    /// Such a line reads the same through `read_tag_line`'s general path (one tag, nothing
    /// left open, no warning), which looks for the line's end, for the name's end, for the
    /// closing quote and for escapes, each a scan of its own. Reading and replaying
    /// lichess_db_1000k and twic1599_1000k takes 3 % less time with this one pass over a
    /// plain line. `None`: take the general path.
    fn plain_tag_line(&self) -> Option<(&'a [u8], &'a [u8], usize)> {
        let src = &self.src[..self.end];
        let name_start = self.pos + 1;
        let mut i = name_start;
        while src
            .get(i)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
        {
            i += 1;
        }
        let name_end = i;
        if name_end == name_start || src.get(i..i + 2)? != b" \"" {
            return None;
        }
        let value_start = i + 2;
        i = value_start;
        loop {
            match *src.get(i)? {
                b'"' => break,
                b'\\' | b'\n' => return None,
                _ => i += 1,
            }
        }
        let value_end = i;
        i += 1;
        if src.get(i) != Some(&b']') {
            return None;
        }
        i += 1;
        if src.get(i) == Some(&b'\r') {
            i += 1;
        }
        if src.get(i) != Some(&b'\n') || i - self.pos > self.limits.max_tag_bytes {
            return None;
        }
        Some((
            &src[name_start..name_end],
            &src[value_start..value_end],
            i + 1,
        ))
    }

    fn read_movetext(&mut self, game: &mut WrittenGame) -> Result<(), Error> {
        let mut line = std::mem::take(&mut game.moves);
        // A game that cannot start (bad FEN, unknown variant) fails here, at its movetext,
        // however it is read.
        let (start, note) = StartPosition::from_tags_noting(&game.tags)
            .map_err(|e| Error::at(self.pos, e.to_string()))?;
        self.warnings
            .extend(note.map(|note| Error::at(self.pos, note)));
        let start = start.position;
        let board = if self.limits.validates_only() {
            Some(Board {
                before_last: start,
                last: None,
                plies: 0,
            })
        } else {
            // Typical movetext spends 8 to 40 bytes per ply: reserve once instead of growing.
            // Capped: a stretch of many games without tags is not one long game.
            line.plies
                .reserve(((self.end - self.pos) / 12).min(MAX_RESERVED_PLIES));
            None
        };
        let mut b = Builder {
            stack: vec![Frame {
                line,
                base: 0,
                orphan: false,
                board,
            }],
            failed: None,
        };
        let mut result = self.read_moves(game, &mut b);
        if let (Ok(()), Some(failed)) = (&result, b.failed.take()) {
            result = Err(failed);
            self.read_through = true;
        }
        // (A game read to its end, its bad move found while validating, too.)
        if (result.is_ok() || self.read_through) && b.stack.len() > 1 {
            self.warnings.push(Error::at(
                self.pos.saturating_sub(1),
                "variation not closed by `)`: closed at the end of the game",
            ));
        }
        while b.stack.len() > 1 {
            b.close_variation();
        }
        game.moves = b.stack.swap_remove(0).line;
        result
    }

    fn read_comment(&mut self) -> Result<Comment, Error> {
        let text = self.comment_span()?;
        if !self.limits.keeps_comments() {
            return Ok(Comment::default());
        }
        if self.limits.keep == Keep::Annotations {
            let bytes = &self.src[text];
            return Ok(Comment::commands_of_bytes(bytes, || decode_cow(bytes)));
        }
        Ok(Comment::new(decode_text(&self.src[text])))
    }

    /// Reads past a comment and checks it; its text's range (a small return value: in
    /// validation the comments of a lichess file are a large part of the movetext).
    fn comment_span(&mut self) -> Result<Range<usize>, Error> {
        let start = self.pos;
        let text = if self.src[start] == b'{' {
            let close = if self.nested_comments {
                self.nested_comment_end(start)
            } else {
                find_any([b'}'], &self.src[start + 1..self.end]).map(|n| start + 1 + n)
            }
            .ok_or_else(|| Error::at(start, "comment is not closed by `}`"))?;
            self.pos = close + 1;
            let text = &self.src[start + 1..close];
            // Only the second reading looks for braces inside (see `next_game`).
            if self.nested_comments
                && self.brace_in_comment.is_none()
                && memchr(b'{', text).is_some()
            {
                self.brace_in_comment = Some(start);
            }
            start + 1..close
        } else {
            // `;` to the end of the line.
            let close = find_any([b'\n'], &self.src[start + 1..self.end])
                .map_or(self.end, |n| start + 1 + n);
            self.pos = close;
            let end = if close > start + 1 && self.src[close - 1] == b'\r' {
                close - 1
            } else {
                close
            };
            start + 1..end
        };
        if text.len() > self.limits.max_comment_bytes {
            return Err(Error::at(
                start,
                format!(
                    "comment longer than {} bytes",
                    self.limits.max_comment_bytes
                ),
            )
            .with_kind(ErrorKind::TooLarge));
        }
        Ok(text)
    }

    /// The `}` that closes the `{` at `start`, counting the pairs inside.
    fn nested_comment_end(&self, start: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (i, &b) in self.src[start..self.end].iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(start + i);
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn read_moves(&mut self, game: &mut WrittenGame, b: &mut Builder) -> Result<(), Error> {
        while self.pos < self.end {
            let start = self.pos;
            if self.warnings.len() > MAX_WARNINGS_PER_GAME {
                return Err(Error::at(
                    start,
                    format!("more than {MAX_WARNINGS_PER_GAME} unreadable tokens: is this PGN?"),
                ));
            }
            if matches!(self.src[start], b'1' | b'{' | b';' | b'%') && self.restarts(b, start) {
                // `1. e4 e5` ⏎⏎ `1. d4 d5 *`: a game without a result, and the next (which
                // may open with comments: ⏎⏎ `{Game 2} 1. d4 d5 *`).
                return Ok(());
            }
            match self.src[start] {
                white_space!() => self.pos += 1,
                b'%' if self.at_line_start() => self.skip_to_line_end(),
                0xEF if self.src[start..self.end].starts_with(BOM) => self.pos += BOM.len(),
                b'{' | b';' => {
                    if !self.limits.keeps_comments() {
                        self.comment_span()?;
                        continue;
                    }
                    let comment = self.read_comment()?;
                    if b.has_ply() {
                        if let Some(ply) = b.top().plies.last_mut() {
                            ply.comments.push(comment);
                        }
                    } else {
                        b.top().comments.push(comment);
                    }
                }
                b'(' => {
                    let orphan = !b.has_ply();
                    if orphan {
                        self.warnings.push(
                            Error::at(start, "variation before any move: skipped").with_token("("),
                        );
                    }
                    if b.stack.len() > self.limits.max_variation_depth {
                        return Err(Error::at(
                            start,
                            format!(
                                "variations nested deeper than {}",
                                self.limits.max_variation_depth
                            ),
                        )
                        .with_kind(ErrorKind::TooLarge));
                    }
                    b.open_variation(orphan);
                    self.pos += 1;
                }
                b')' => {
                    if b.stack.len() == 1 {
                        self.warnings
                            .push(Error::at(start, "`)` without `(`: skipped").with_token(")"));
                    } else {
                        b.close_variation();
                    }
                    self.pos += 1;
                }
                b'$' => {
                    let digits_end = self.src[start + 1..self.end]
                        .iter()
                        .position(|c| !c.is_ascii_digit())
                        .map_or(self.end, |n| start + 1 + n);
                    let digits = &self.src[start + 1..digits_end];
                    let token = decode_text(&self.src[start..digits_end]);
                    self.pos = digits_end;
                    match std::str::from_utf8(digits)
                        .ok()
                        .and_then(|d| d.parse::<u8>().ok())
                    {
                        Some(nag) => self.attach_nag(b, nag, start, &token),
                        None => self.warnings.push(
                            Error::at(start, "skipped: a NAG is `$` and a number from 0 to 255")
                                .with_token(token),
                        ),
                    }
                }
                b'!' | b'?' => {
                    let run_end = self.src[start..self.end]
                        .iter()
                        .position(|c| !matches!(c, b'!' | b'?'))
                        .map_or(self.end, |n| start + n);
                    self.pos = run_end;
                    // `???` and the like: read as the longest known glyphs, left to right.
                    let mut at = start;
                    while at < run_end {
                        let len = if at + 2 <= run_end
                            && punctuation_nag(&self.src[at..at + 2]).is_some()
                        {
                            2
                        } else {
                            1
                        };
                        let glyph = &self.src[at..at + len];
                        let nag = punctuation_nag(glyph).expect("! and ? are glyphs");
                        self.attach_nag(b, nag, at, &decode_text(glyph));
                        at += len;
                    }
                }
                b'*' => {
                    self.pos += 1;
                    if self.end_with_result(game, b, GameResult::Unknown, start)? {
                        return Ok(());
                    }
                }
                _ => {
                    if let Some(end) = self.move_number_end(start) {
                        self.pos = end;
                        continue;
                    }
                    let word_end = self.src[start..self.end]
                        .iter()
                        .position(|&c| WORD_END[c as usize])
                        .map_or(self.end, |n| start + n);
                    // A word always has at least one byte: the byte at `start` ends no word
                    // unless it is `[`, `]` or `}` (handled as unreadable below).
                    let word_end = word_end.max(start + 1);
                    self.pos = word_end;
                    if self.read_word(game, b, start, word_end)? {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether the token at `start` begins another game: it stands after a blank line, the
    /// game has moves, and it is the move number `1.`, or comments and `%` lines before it
    /// (a game's own numbers never go back to 1).
    fn restarts(&mut self, b: &Builder, start: usize) -> bool {
        if start < self.no_restart_before || b.stack.len() != 1 || !b.has_ply() {
            return false;
        }
        let text = &self.src[..self.end];
        // Blanks, and byte-order marks (files joined with `cat`), up to the token.
        let before = &text[self.game_start..start];
        let mut kept = before;
        loop {
            kept = kept.trim_ascii_end();
            match kept.strip_suffix(BOM) {
                Some(rest) => kept = rest,
                None => break,
            }
        }
        if memchr::memchr_iter(b'\n', &before[kept.len()..]).count() < 2 {
            return false;
        }
        match self.first_move_number_after_notes(start) {
            Ok(()) => true,
            Err(reached) => {
                // Every start between here and `reached` looks ahead to the same token: a
                // run of comments is looked through once, not once per comment.
                self.no_restart_before = reached;
                false
            }
        }
    }

    /// Looks past comments, `%` lines, blanks and byte-order marks from `at`: `Ok` when the
    /// move number `1.` (not `1...`) comes next, else where the look stopped.
    fn first_move_number_after_notes(&self, mut at: usize) -> Result<(), usize> {
        let text = &self.src[..self.end];
        while at < text.len() {
            match text[at] {
                white_space!() => at += 1,
                0xEF if text[at..].starts_with(BOM) => at += BOM.len(),
                b'%' if at == 0 || text[at - 1] == b'\n' => {
                    at = memchr(b'\n', &text[at..]).map_or(text.len(), |n| at + n + 1);
                }
                b';' => at = memchr(b'\n', &text[at..]).map_or(text.len(), |n| at + n + 1),
                b'{' => {
                    let close = if self.nested_comments {
                        self.nested_comment_end(at)
                    } else {
                        memchr(b'}', &text[at..]).map(|n| at + n)
                    };
                    match close {
                        Some(close) => at = close + 1,
                        None => return Err(text.len()),
                    }
                }
                b'1' if text.get(at + 1) == Some(&b'.') && text.get(at + 2) != Some(&b'.') => {
                    return Ok(());
                }
                _ => return Err(at),
            }
        }
        Err(at)
    }

    /// Where a move number standing alone (`12.`, `12...`) starting at `start` ends: the
    /// most common word after moves. `None` for anything else (`1-0`, `12.e4`, `12`), which
    /// is read as a word.
    fn move_number_end(&self, start: usize) -> Option<usize> {
        let text = &self.src[..self.end];
        if !text[start].is_ascii_digit() {
            return None;
        }
        let mut i = start + 1;
        while i < text.len() && text[i].is_ascii_digit() {
            i += 1;
        }
        let digits_end = i;
        while i < text.len() && text[i] == b'.' {
            i += 1;
        }
        if i == digits_end || (i < text.len() && !WORD_END[text[i] as usize]) {
            return None;
        }
        Some(i)
    }

    /// Reads one word; `true` when it ended the game (a result).
    fn read_word(
        &mut self,
        game: &mut WrittenGame,
        b: &mut Builder,
        start: usize,
        end: usize,
    ) -> Result<bool, Error> {
        let mut word = &self.src[start..end];
        let mut translated = [0u8; 16];
        if self.limits.piece_letters != PieceLetters::English && word.len() <= translated.len() {
            for (to, &from) in translated.iter_mut().zip(word) {
                *to = self.limits.piece_letters.to_english(from);
            }
            word = &translated[..word.len()];
        }
        let mut dashes = [0u8; 16];
        if matches!(word.first(), Some(b'O' | b'0')) && memchr(0xE2, word).is_some() {
            // Castling written with a typographic dash (`O‑O`, `0–0–0`: word processors,
            // some sites): read as `-`.
            let len = ascii_dashes(word, &mut dashes);
            word = &dashes[..len];
        }
        let mut offset = start;
        // The common case first: a plain move.
        if word[0].is_ascii_alphabetic()
            && let Ok(spec) = MoveSpec::parse(word)
        {
            b.push(word, spec, offset)?;
            return Ok(false);
        }
        if let Some(result) = result_marker(word) {
            return self.end_with_result(game, b, result, start);
        }
        // Move numbers: `12.`, `12...`, `12` and glued forms `12.e4`, `12...Nf6`, and the
        // black-move marks `..`, `...`, `…` (also glued: `...Nf6`).
        let digits = word.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == word.len() {
            if word == b"0000" {
                // UCI's null move, not a move number: no game has move 0.
                b.push(word, MoveSpec::Null, offset)?;
            }
            return Ok(false);
        }
        let dots = word[digits..].iter().take_while(|&&c| c == b'.').count();
        if digits == 0 || dots > 0 {
            word = &word[digits + dots..];
            offset += digits + dots;
        } else if split_move(word).is_none() {
            // A number glued to its move without a dot (`10a5`, `9:h3`, `2…Nc6`), or with
            // other marks alone (`2:`), as python-chess reads them: skipping the word would
            // give every later move to the other side.
            let marks = word[digits..]
                .iter()
                .take_while(|&&c| matches!(c, b':' | b','))
                .count();
            let rest = &word[digits + marks..];
            let rest = rest.strip_prefix("…".as_bytes()).unwrap_or(rest);
            if rest.is_empty() || split_move(rest).is_some() {
                offset += word.len() - rest.len();
                word = rest;
            }
        }
        if let Some(rest) = word.strip_prefix("…".as_bytes()) {
            word = rest;
            offset += 3;
        }
        if word.is_empty() {
            return Ok(false);
        }
        let has_ply = b.has_ply();
        if matches!(word, b"e.p." | b"ep" | b"e.p" | b"+" | b"#" | b"++") {
            // An en passant or check mark written apart from its move: part of that move.
            if !has_ply {
                self.warnings.push(
                    Error::at(offset, "skipped: a move mark before any move")
                        .with_token(decode_text(word)),
                );
            }
            return Ok(false);
        }
        if let Some(nag) = glyph_nag(word) {
            self.attach_nag(b, nag, offset, &decode_text(word));
            return Ok(false);
        }
        let ply = b.next_ply();
        let Some((mv, nag, result)) = split_move(word) else {
            let error = Error::at(offset, "not a move, result or annotation")
                .with_token(decode_text(word))
                .with_ply(ply);
            if looks_like_move(word) {
                return Err(error);
            }
            self.warnings.push(Error {
                message: "skipped: not a move, result or annotation".into(),
                ..error
            });
            return Ok(false);
        };
        let spec = MoveSpec::parse(mv).expect("split_move checked it");
        b.push(mv, spec, offset)?;
        if let Some(nag) = nag {
            self.attach_nag(b, nag, offset, &decode_text(word));
        }
        match result {
            Some(result) => self.end_with_result(game, b, result, offset + mv.len()),
            None => Ok(false),
        }
    }

    fn attach_nag(&mut self, b: &mut Builder, nag: u8, at: usize, token: &str) {
        if !b.has_ply() {
            self.warnings
                .push(Error::at(at, "skipped: an annotation before any move").with_token(token));
        } else if let Some(ply) = b.top().plies.last_mut() {
            ply.nags.push(nag);
        }
    }

    /// Handles a termination marker; `true` when it ends the game.
    fn end_with_result(
        &mut self,
        game: &mut WrittenGame,
        b: &mut Builder,
        result: GameResult,
        at: usize,
    ) -> Result<bool, Error> {
        if b.stack.len() > 1 {
            self.warnings.push(
                Error::at(at, "skipped: a result inside a variation").with_token(result.as_str()),
            );
            return Ok(false);
        }
        game.result = Some(result);
        // Comments after the result still belong to this game.
        loop {
            self.skip_blank();
            if self.pos >= self.end {
                return Ok(true);
            }
            if matches!(self.src[self.pos], b'{' | b';') {
                let comment = self.read_comment()?;
                if self.limits.keeps_comments() {
                    game.final_comments.push(comment);
                }
                continue;
            }
            // A result written twice (`1-0 0-1`), or a draw spelt `1/2 - 1/2`: the results
            // and dashes after the result are skipped with a warning, not read as a game of
            // their own (with no tags and no moves).
            let start = self.pos;
            let end = self.src[start..self.end]
                .iter()
                .position(|&c| WORD_END[c as usize])
                .map_or(self.end, |n| start + n)
                .max(start + 1);
            let word = &self.src[start..end];
            if result_marker(word).is_none() && word != b"-" {
                return Ok(true);
            }
            self.warnings.push(
                Error::at(start, "skipped: a result after the game's result")
                    .with_token(decode_text(word)),
            );
            self.pos = end;
        }
    }
}

/// The length of a forum's `[pgn]` or `[/pgn]` marker (any case) at the start of `text`:
/// pasted from a forum post, they wrap the games and are not tags.
fn forum_marker(text: &[u8]) -> Option<usize> {
    FORUM_MARKERS.into_iter().find_map(|marker| {
        text.get(..marker.len())
            .filter(|head| head.eq_ignore_ascii_case(marker))
            .map(|_| marker.len())
    })
}

/// Writes `word` into `out` with every Unicode dash (U+2010 to U+2015, U+2212) made `-`;
/// the length written (a word too long for `out` is cut, and then reads as no move).
fn ascii_dashes(word: &[u8], out: &mut [u8; 16]) -> usize {
    let (mut i, mut len) = (0, 0);
    while i < word.len() && len < out.len() {
        let dash = matches!(
            word[i..],
            [0xE2, 0x80, 0x90..=0x95, ..] | [0xE2, 0x88, 0x92, ..]
        );
        out[len] = if dash { b'-' } else { word[i] };
        i += if dash { 3 } else { 1 };
        len += 1;
    }
    len
}

/// A termination marker, also `1/2` (a draw, as some old files write it).
fn result_marker(word: &[u8]) -> Option<GameResult> {
    if !matches!(word.first(), Some(b'0' | b'1' | b'*' | 0xC2)) {
        return None;
    }
    if word == b"1/2" {
        return Some(GameResult::Draw);
    }
    std::str::from_utf8(word).ok().and_then(GameResult::parse)
}

/// Whether an unreadable word was meant as a move (`Nf9`, `e9`): then it fails the game
/// instead of being skipped, so that a typo never shifts every later move to the other side.
///
/// A capital letter counts as a piece in any language (`Dxf7#`, `Ta5`: German), so a game in
/// other piece letters fails at its first piece move instead of losing it; `--piece-letters`
/// reads it.
fn looks_like_move(word: &[u8]) -> bool {
    matches!(word.first(), Some(b'A'..=b'Z' | b'a'..=b'h' | b'0'))
        && word.iter().any(|c| c.is_ascii_digit() || *c == b'-')
        && word.len() <= 10
}

/// Splits a word into a move, an optional glued glyph (`g4+/-`) and an optional glued
/// result (`Qh81-0`), dropping a glued en passant mark (`exd6e.p.`, `axb6ep`) and trailing
/// punctuation (`f5.`, `Bc1,`).
fn split_move(word: &[u8]) -> Option<(&[u8], Option<u8>, Option<GameResult>)> {
    if MoveSpec::parse(word).is_ok() {
        return Some((word, None, None));
    }
    let mut w = word;
    let mut result = None;
    for marker in ["1/2-1/2", "1-0", "0-1", "1/2"] {
        if let Some(rest) = w.strip_suffix(marker.as_bytes())
            && rest.len() >= 2
        {
            result = result_marker(marker.as_bytes());
            w = rest;
            break;
        }
    }
    if let Some(rest) = w.strip_suffix(b".").or_else(|| w.strip_suffix(b","))
        && MoveSpec::parse(rest).is_ok()
    {
        w = rest;
    }
    for mark in [&b"e.p."[..], b"e.p", b"ep"] {
        for suffix in [&b""[..], b"+", b"#"] {
            let mut tail = mark.to_vec();
            tail.extend_from_slice(suffix);
            if let Some(rest) = w.strip_suffix(tail.as_slice())
                && MoveSpec::parse(rest).is_ok()
            {
                w = rest;
            }
        }
    }
    if MoveSpec::parse(w).is_ok() {
        return Some((w, None, result));
    }
    for (glyph, nag) in GLYPHS {
        if let Some(rest) = w.strip_suffix(glyph.as_bytes())
            && !rest.is_empty()
            && MoveSpec::parse(rest).is_ok()
        {
            return Some((rest, Some(*nag), result));
        }
    }
    None
}

/// Finds the end of a quoted tag value starting at `from`: the first `"` followed by
/// optional blanks and `]`, honouring `\"` escapes; failing that, ignoring them (so that
/// `[Event "Tournament \"]` still reads). Returns the raw value and the `]` offset.
fn tag_value(line: &[u8], from: usize, end: usize) -> Option<(&[u8], usize)> {
    for escapes in [true, false] {
        let mut i = from;
        while i < end {
            let next = if escapes {
                find_any([b'"', b'\\'], &line[i..end])
            } else {
                find_any([b'"'], &line[i..end])
            };
            let Some(n) = next else { break };
            i += n;
            match line[i] {
                b'\\' if i + 1 < end => i += 2,
                b'"' => {
                    let mut j = i + 1;
                    while j < end && matches!(line[j], b' ' | b'\t' | b'\r' | b'\n') {
                        j += 1;
                    }
                    if j < end && line[j] == b']' {
                        return Some((&line[from..i], j));
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
    }
    None
}

fn unescape(raw: &[u8]) -> std::borrow::Cow<'_, str> {
    if !raw.contains(&b'\\') {
        return decode_cow(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && i + 1 < raw.len() && matches!(raw[i + 1], b'"' | b'\\') {
            out.push(raw[i + 1]);
            i += 2;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    std::borrow::Cow::Owned(decode_text(&out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::pgn::read_written;

    fn sans(text: &str) -> Vec<String> {
        let game = read_written(text).remove(0).expect("reads");
        game.moves
            .plies
            .iter()
            .map(|p| p.mv.san.to_string())
            .collect()
    }

    fn warnings(text: &str) -> Vec<String> {
        let bytes = text.as_bytes();
        let mut parser = GameParser::new(bytes, 0..bytes.len(), ReadOptions::default());
        let _ = parser.next_game();
        parser
            .take_warnings()
            .into_iter()
            .map(|w| format!("{} {:?}", w.offset().unwrap(), w.token))
            .collect()
    }

    #[test]
    fn tolerant_of_real_exports() {
        assert_eq!(
            sans("\u{feff}[A \"b\"]\r\n\r\n1. e4 e5 2. 0-0 *"),
            ["e4", "e5", "0-0"]
        );
        assert_eq!(
            sans("1.e4 e5 2.Nf3 ; rest of line {\n Nc6 *"),
            ["e4", "e5", "Nf3", "Nc6"]
        );
        assert_eq!(
            sans("1. e4 {c} Nf6 2. e5 d5 3. exd6 e.p. *"),
            ["e4", "Nf6", "e5", "d5", "exd6"]
        );
        assert_eq!(
            sans("1. e4 e5 2. Nf3 2... Nc6 3. .. a6"),
            ["e4", "e5", "Nf3", "Nc6", "a6"]
        );
        assert_eq!(sans("{before} 1. e2-e4 e7e5 *"), ["e2-e4", "e7e5"]);
        assert_eq!(
            sans("1. e4 Nf6 2. e5 d5 3. exd6e.p. *"),
            ["e4", "Nf6", "e5", "d5", "exd6"]
        );
    }

    #[test]
    fn glyphs_are_read_not_dropped() {
        let game = read_written("1. g4+/- e5!? 2. Nf3 $14 ± *")
            .remove(0)
            .unwrap();
        let plies = &game.moves.plies;
        assert_eq!(plies[0].mv.san.as_str(), "g4");
        assert_eq!(plies[0].nags, [16]);
        assert_eq!(plies[1].nags, [5]);
        assert_eq!(plies[2].nags, [14, 16]);
    }

    #[test]
    fn garbage_is_a_warning_with_its_place() {
        assert_eq!(warnings("1. e4 ^5blergh e5 *"), ["6 Some(\"^5blergh\")"]);
        assert_eq!(sans("1. e4 ^5blergh e5 *"), ["e4", "e5"]);
        // A typo that looks like a move fails the game instead.
        let failed = read_written("1. e4 Nf9 2. d4 *").remove(0).unwrap_err();
        assert_eq!(failed.error.token.as_deref(), Some("Nf9"));
        assert_eq!(failed.error.ply, Some(2));
    }

    #[test]
    fn comments_with_nested_braces_are_read_again() {
        let text = "1. e4 c5 { Also (1. c5 { English } ) and (1.d4 (1..d5 c3)) } 2. e5 *";
        assert_eq!(sans(text), ["e4", "c5", "e5"]);
        assert_eq!(warnings(text), ["9 None"], "the second reading is reported");
        // A brace in a well-formed game changes nothing.
        assert_eq!(sans("1. e4 { a { b } 2. e5 { c } *"), ["e4", "e5"]);
        assert!(warnings("1. e4 { a { b } 2. e5 { c } *").is_empty());
    }

    #[test]
    fn tags_with_quotes_brackets_and_backslashes() {
        let games = read_written(concat!(
            "[Event \"The \\\"Big\\\" Match\"]\n[Site \"Room [A]\"]\n",
            "[White \"Smith, John \"The King\"\"]\n[Black \"Tournament \\\"]\n[Round S ]\n\n1. e4 *"
        ));
        let tags = &games[0].as_ref().unwrap().tags;
        assert_eq!(tags.get("Event"), Some("The \"Big\" Match"));
        assert_eq!(tags.get("Site"), Some("Room [A]"));
        assert_eq!(tags.get("White"), Some("Smith, John \"The King\""));
        assert_eq!(tags.get("Black"), Some("Tournament \\"));
        assert_eq!(tags.get("Round"), Some("S"));
    }

    #[test]
    fn games_without_moves_and_several_games() {
        let games = read_written("[A \"1\"]\n\n[A \"2\"]\n\n1-0\n\n[A \"3\"]\n1. e4 *\n1. d4 *");
        assert_eq!(games.len(), 4);
        assert!(games[0].as_ref().unwrap().moves.plies.is_empty());
        assert_eq!(
            games[1].as_ref().unwrap().result,
            Some(GameResult::WhiteWins)
        );
        assert_eq!(games[3].as_ref().unwrap().tags.len(), 0);
    }

    #[test]
    fn a_result_after_the_result_is_no_game_of_its_own() {
        for (text, stray) in [
            (
                "1. e4 1-0 0-1\n\n[A \"2\"]\n\n1. d4 *",
                vec!["10 Some(\"0-1\")"],
            ),
            (
                "1. e4 1/2 - 1/2 {after}\n\n[A \"2\"]\n\n1. d4 *",
                vec!["10 Some(\"-\")", "12 Some(\"1/2\")"],
            ),
            ("1. e4 * *\n1. d4 *", vec!["8 Some(\"*\")"]),
        ] {
            let games = read_written(text);
            assert_eq!(games.len(), 2, "{text}");
            let first = games[0].as_ref().unwrap();
            assert_eq!(first.moves.plies.len(), 1, "{text}");
            assert_eq!(warnings(text), stray, "{text}");
            assert_eq!(games[1].as_ref().unwrap().moves.plies.len(), 1, "{text}");
        }
        // A comment after the stray result is still the game's.
        let game = read_written("1. e4 1-0 0-1 {end}").remove(0).unwrap();
        assert_eq!(game.final_comments.len(), 1);
        assert_eq!(game.result, Some(GameResult::WhiteWins));
    }

    #[test]
    fn variations_nest_and_comments_follow_their_move() {
        let game = read_written("1. e4 {a} (1. d4 {b} (1. c4) d5) 1... e5 {c} 1-0 {after}")
            .remove(0)
            .unwrap();
        let e4 = &game.moves.plies[0];
        assert_eq!(e4.comments[0].text, "a");
        assert_eq!(e4.variations[0].plies.len(), 2);
        assert_eq!(e4.variations[0].plies[0].variations.len(), 1);
        assert_eq!(game.final_comments[0].text, "after");
    }

    #[test]
    fn unclosed_comment_fails_the_game() {
        let failed = read_written("1. e4 {never closed e5 *")
            .remove(0)
            .unwrap_err();
        assert_eq!(failed.error.offset(), Some(6));
    }
}

/// The plain tag line's quick path (`plain_tag_line`) against the general one.
#[cfg(test)]
mod plain_tag_tests {
    use super::*;
    use proptest::prelude::*;
    use std::cell::Cell;

    thread_local! {
        /// Set: every tag line takes the general path.
        pub(super) static GENERAL_ONLY: Cell<bool> = const { Cell::new(false) };
    }

    /// `read` with the general path only.
    fn read_general(text: &[u8], options: ReadOptions) -> String {
        /// Puts the quick path back, even when `read` panics (proptest then shrinks on).
        struct Restore;
        impl Drop for Restore {
            fn drop(&mut self) {
                GENERAL_ONLY.set(false);
            }
        }
        GENERAL_ONLY.set(true);
        let _restore = Restore;
        read(text, options)
    }

    /// Every game of `text` as the parser gives it: tags, moves with their offsets, the error
    /// with its place, kind, ply and token, the warnings with theirs; for a failed game read
    /// validating, the players' names for its message (which read its tag lines again).
    fn read(text: &[u8], options: ReadOptions) -> String {
        let mut parser = GameParser::new(text, 0..text.len(), options);
        let mut out = String::new();
        while let Some(game) = parser.next_game() {
            match game {
                Ok(game) => {
                    let moves: Vec<_> = game
                        .moves
                        .plies
                        .iter()
                        .map(|p| (p.mv.san, p.mv.offset))
                        .collect();
                    out += &format!("{:?} {moves:?}", game.tags.iter().collect::<Vec<_>>());
                }
                Err(failed) => {
                    let e = &failed.error;
                    out += &format!(
                        "{:?} failed at {:?}: {:?} {} ply {:?} token {:?}",
                        failed.tags.iter().collect::<Vec<_>>(),
                        e.offset(),
                        e.kind,
                        e.message,
                        e.ply,
                        e.token,
                    );
                    if options.validates_only() {
                        let names = parser.tags_for_messages();
                        out += &format!(" names {:?}", names.iter().collect::<Vec<_>>());
                    }
                }
            }
            let warnings: Vec<_> = parser
                .take_warnings()
                .into_iter()
                .map(|w| (w.offset(), w.message, w.token))
                .collect();
            out += &format!("; warnings {warnings:?}\n");
        }
        out
    }

    #[test]
    fn a_plain_tag_line_longer_than_the_limit_fails_as_before() {
        let options = ReadOptions {
            max_tag_bytes: 12,
            ..ReadOptions::default()
        };
        let text = b"[Event \"x\"]\n[Site \"far away\"]\n\n1. e4 *";
        assert!(read(text, options).contains("TooLarge tag line longer than 12 bytes"));
        assert_eq!(read(text, options), read_general(text, options));
        let short = b"[Event \"x\"]\n\n1. e4 *";
        assert!(read(short, options).contains("[(\"Event\", \"x\")]"));
    }

    proptest! {
        /// Every tag line reads the same with and without the quick path, whatever its name,
        /// value, line end and what stands before it, under any tag length limit, kept or
        /// validated, in a game that plays or fails.
        #[test]
        fn a_tag_line_reads_the_same_on_both_paths(
            before in prop_oneof![Just(""), Just("  "), Just("\u{feff}"), Just("{c}\n"),
                                  Just("%x\n"), Just("[Event \"e\"]")],
            name in "[A-Za-z0-9_ \\[\\]\"é]{0,8}",
            value in proptest::collection::vec(
                prop_oneof![Just(&b"\""[..]), Just(&b"\\"[..]), Just(&b"]"[..]), Just(&b"["[..]),
                            Just(&b"\r"[..]), Just(&b"\n"[..]), Just(&b"\xe9"[..]),
                            Just(&b"\xc3"[..]), Just("é".as_bytes()), Just(&b" "[..]),
                            Just(&b"a"[..])], 0..8),
            end in prop_oneof![Just(&b"\n"[..]), Just(&b"\r\n"[..]), Just(&b""[..]),
                               Just(&b"\n\n"[..]), Just(&b"\r\r\n"[..])],
            max_tag_bytes in prop_oneof![Just(64 << 10), 4usize..24],
            validate in any::<bool>(),
            moves in prop_oneof![Just("1. e4 e5 *"), Just("1. e4 e5 2. Ke3 *"), Just("1. e4 Zz *")],
        ) {
            let options = ReadOptions {
                keep: if validate { Keep::Nothing } else { Keep::Everything },
                max_tag_bytes,
                ..ReadOptions::default()
            };
            let text = [before.as_bytes(), b"[", name.as_bytes(), b" \"", &value.concat(), b"\"]",
                        end, b"[White \"w\"]\n[Black \"b\"]\n\n", moves.as_bytes(),
                        b"\n\n[Event \"next\"]\n1. d4 *"].concat();
            prop_assert_eq!(read(&text, options), read_general(&text, options));
        }
    }
}

#[cfg(test)]
mod validate_tests {
    use super::*;

    /// A parser validating `text` (as `notate check` reads).
    fn validating(text: &str) -> GameParser<'_> {
        let options = ReadOptions {
            keep: Keep::Nothing,
            ..ReadOptions::default()
        };
        GameParser::new(text.as_bytes(), 0..text.len(), options)
    }

    fn validate(text: &str) -> Vec<Result<usize, (Option<usize>, String)>> {
        let mut parser = validating(text);
        let mut out = Vec::new();
        while let Some(game) = parser.next_game() {
            out.push(
                game.map(|g| g.tags.len())
                    .map_err(|f| (f.error.ply, f.error.token.unwrap_or_default())),
            );
        }
        out
    }

    #[test]
    fn a_bad_move_fails_only_its_game() {
        assert_eq!(
            validate("1. e4 e5 2. Ke3 *\n"),
            [Err((Some(3), "Ke3".into()))]
        );
        assert_eq!(
            validate("1. e4 e5 2. Ke3 *\n\n1. d4 d5 *"),
            [Err((Some(3), "Ke3".into())), Ok(0)]
        );
        // Variations are checked too, from the position before their move.
        assert_eq!(
            validate("1. e4 (1. d4 d5 2. Ke3) e5 *"),
            [Err((Some(3), "Ke3".into()))]
        );
        assert_eq!(validate("1. e4 (1. d4 d5 (1... e5)) e5 *"), [Ok(0)]);
    }

    /// What reading the moves and replaying them after gives for `text`, as `validate` does.
    fn read_then_replay(text: &str) -> Vec<Result<usize, (Option<usize>, String)>> {
        let mut parser = GameParser::new(text.as_bytes(), 0..text.len(), ReadOptions::default());
        let mut out = Vec::new();
        while let Some(game) = parser.next_game() {
            out.push(
                game.and_then(crate::chess::replay)
                    .map(|_| 0)
                    .map_err(|f| (f.error.ply, f.error.token.unwrap_or_default())),
            );
        }
        out
    }

    #[test]
    fn an_error_after_a_bad_move_is_placed_and_ends_the_stretch_as_replay_does() {
        // An unreadable move ends its game: its rest was read as a second game, whose
        // first move (`e5`, White's) failed. The failed game runs to the next game on its
        // lines (a `1.` after a result), which is read.
        let text = "1. e4 Zz9x e5 2. Nf3 *\n\n1. d4 *";
        let d4 = read_then_replay("1. d4 *").remove(0);
        assert_eq!(validate(text), [Err((Some(2), "Zz9x".into())), d4]);
        assert_eq!(validate(text), read_then_replay(text));
        // Moves after a bad one are counted, unplayed: the ply of a later error is its own
        // (it was 2, the plies played).
        let text = "1. e4 Ke5 2. Nf3 Zz9x *";
        assert_eq!(validate(text), [Err((Some(4), "Zz9x".into()))]);
        assert_eq!(validate(text), read_then_replay(text));
        // A variation on a move that did not play is not one before any move.
        let text = "1. Ke2 (1. Kd2 Qc3) e5 *";
        assert_eq!(validate(text), [Err((Some(1), "Ke2".into()))]);
        let mut parser = validating(text);
        assert!(parser.next_game().unwrap().is_err());
        assert_eq!(parser.take_warnings(), []);
    }

    #[test]
    fn a_bad_move_is_no_reason_to_read_comments_again_with_nested_braces() {
        // Read with nested braces, the first line is one comment and the game has no bad
        // move; but read as the standard says, nothing stumbles but `Ke5`, which is
        // replay's to report: validating did read it again, and passed the game.
        let text = "1. e4 {a {b} Ke5 ; }\ne5 *";
        assert_eq!(read_then_replay(text), [Err((Some(2), "Ke5".into()))]);
        assert_eq!(validate(text), read_then_replay(text));
        // Read again for a stumble, the nested reading is taken with its bad move, as
        // replaying it would.
        let text = "1. e4 {a {b} c} Ke5 *";
        assert_eq!(read_then_replay(text), [Err((Some(2), "Ke5".into()))]);
        assert_eq!(validate(text), read_then_replay(text));
    }

    #[test]
    fn a_failed_game_names_its_players_after_a_comment_before_its_tags() {
        let text = "{from my database}\n[White \"W\"]\n[Black \"B\"]\n\n1. e4 e4 *";
        let mut parser = validating(text);
        let failed = parser.next_game().unwrap().unwrap_err();
        assert_eq!(failed.tags.get("White"), Some("W"));
        assert_eq!(failed.tags.get("Black"), Some("B"));
    }

    #[test]
    fn validating_keeps_only_the_tags_replay_and_messages_use() {
        let text = "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n[WhiteElo \"2000\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *";
        assert_eq!(validate(text), [Ok(1)]);
        // A game with something to report has its players' names for the message.
        let text = "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n\n1. e4 e4 *";
        let mut parser = validating(text);
        let failed = parser.next_game().unwrap().unwrap_err();
        assert_eq!(failed.tags.get("White"), Some("W"));
        assert_eq!(failed.tags.get("Black"), Some("B"));
        assert_eq!(failed.tags.get("Event"), None);
        let text = "[White \"W\"]\n[Black \"B\"]\n\n1. e4 ^5blergh e5 *";
        let mut parser = validating(text);
        let game = parser.next_game().unwrap().unwrap();
        assert_eq!(game.tags.get("White"), Some("W"));
        assert_eq!(parser.take_warnings().len(), 1);
        // A broken tag is still a warning, kept or not.
        let text = "[Event \"E]\n[White \"W\"]\n\n1. e4 *";
        assert_eq!(validate(text), [Ok(1)]);
        let mut parser = validating(text);
        assert!(parser.next_game().unwrap().is_ok());
        assert_eq!(parser.take_warnings().len(), 1);
    }
}
