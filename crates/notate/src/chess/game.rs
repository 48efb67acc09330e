//! The chess game record: tags, moves with their annotations, variations and result.
//!
//! A [`Game`] is generic over what a move is, because a game is first read (each move as
//! written, with its place in the file: [`Written`]) and then replayed (each move resolved
//! on the board: [`Played`]). The tree is the same in both stages.

use std::fmt;

use serde::{Deserialize, Serialize};
use shakmaty::{
    fen::Fen, CastlingMode, Chess, EnPassantMode, FromSetup, Move, Position, PositionError,
    PositionErrorKinds,
};

use super::san::{MoveSpec, SanText};
/// The vector of a [`Ply`]'s attachments, re-exported so that callers need no `thin-vec`.
pub use thin_vec::ThinVec;

/// The tag pairs of a game, in file order, values unescaped.
///
/// Stored in one string with an index (two allocations per game, not two per tag: reading
/// tags is a large part of reading a game).
#[derive(Clone, Default)]
pub struct Tags {
    text: String,
    /// `[name start, name end, value start, value end]` into `text`.
    spans: Vec<[u32; 4]>,
}

impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Tags {}

impl std::fmt::Debug for Tags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// Whether PGN can hold `name` as a tag name and read it back: what notate's PGN reader
    /// takes for a name, that is not empty and without the blank, tab, line feed, quote or
    /// `]` that end a name, not starting with the CR or ending in the white space a reader
    /// skips there. Readers of the JSON formats refuse others, which `--to pgn` would write
    /// as some other tag. (Other bytes stay: a name PGN read with a form feed in it must
    /// come back from EGD.)
    ///
    /// ```
    /// use notate::chess::Tags;
    /// assert!(Tags::is_pgn_name("WhiteElo") && Tags::is_pgn_name("Time-Control"));
    /// assert!(!Tags::is_pgn_name("My Tag") && !Tags::is_pgn_name("") && !Tags::is_pgn_name("a]"));
    /// assert!(Tags::is_pgn_name("a\x0cb") && !Tags::is_pgn_name("ab\x0c"));
    /// ```
    pub fn is_pgn_name(name: &str) -> bool {
        let bytes = name.as_bytes();
        match (bytes.first(), bytes.last()) {
            (Some(first), Some(last)) => {
                *first != b'\r'
                    && !last.is_ascii_whitespace()
                    && !bytes
                        .iter()
                        .any(|b| matches!(b, b' ' | b'\t' | b'\n' | b'"' | b']'))
            }
            _ => false,
        }
    }

    /// Why PGN cannot hold the tag line `[name "value"]` and read it back, if it cannot: a
    /// name [`Tags::is_pgn_name`] refuses, or a line longer than PGN's reader takes. The JSON
    /// formats' readers refuse such tags (`place` names the tags' object in the message), so
    /// that `--to pgn` writes only what reads again.
    pub(crate) fn check_pgn_tag(place: &str, name: &str, value: &str) -> Result<(), crate::Error> {
        if !Tags::is_pgn_name(name) {
            return Err(crate::Error::new(
                crate::ErrorKind::Syntax,
                format!("{place}.{name:?}: not a tag name PGN can hold"),
            ));
        }
        // `[Name "value"]` with the value's escapes.
        let line = name.len() + value.len() + value.matches(['"', '\\']).count() + 5;
        let longest = crate::chess::pgn::ReadOptions::default().max_tag_bytes;
        if line > longest {
            return Err(crate::Error::new(
                crate::ErrorKind::TooLarge,
                format!("{place}.{name}: tag line longer than {longest} bytes"),
            ));
        }
        Ok(())
    }

    /// Appends a tag; a repeated name keeps its first place and takes the last value.
    ///
    /// ```
    /// use notate::chess::Tags;
    /// let mut tags = Tags::new();
    /// tags.push("White", "Kasparov");
    /// tags.push("White", "Deep Blue");
    /// assert_eq!(tags.get("White"), Some("Deep Blue"));
    /// assert_eq!(tags.len(), 1);
    /// ```
    pub fn push(&mut self, name: impl AsRef<str>, value: impl AsRef<str>) {
        let (name, value) = (name.as_ref(), value.as_ref());
        // Bytes compared, not `str`s cut from the text (each cut checks two char
        // boundaries): every tag read looks at the tags before it.
        let text = self.text.as_bytes();
        let existing = self
            .spans
            .iter()
            .position(|s| &text[s[0] as usize..s[1] as usize] == name.as_bytes());
        let mut span = [0u32; 4];
        if existing.is_none() {
            span[0] = self.text.len() as u32;
            self.text.push_str(name);
            span[1] = self.text.len() as u32;
        }
        span[2] = self.text.len() as u32;
        self.text.push_str(value);
        span[3] = self.text.len() as u32;
        match existing {
            // The old value's bytes stay behind, unused: duplicates are rare.
            Some(i) => self.spans[i][2..].copy_from_slice(&span[2..]),
            None => self.spans.push(span),
        }
    }

    /// Room for `bytes` of names and values in `tags` tags, reserved at once.
    pub(crate) fn reserve(&mut self, bytes: usize, tags: usize) {
        self.text.reserve(bytes);
        self.spans.reserve(tags);
    }

    /// The value of a tag.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The tags in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.spans.iter().map(|s| {
            (
                &self.text[s[0] as usize..s[1] as usize],
                &self.text[s[2] as usize..s[3] as usize],
            )
        })
    }

    /// How many tags.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// `White – Black` for messages, `?` for a missing name (`? – ?` when both are: a chess
    /// game's messages have always named its players so).
    pub fn players(&self) -> String {
        let (white, black) = (self.get("White"), self.get("Black"));
        crate::error::players(white.or(black.is_none().then_some("?")), black)
    }
}

/// A game's result as a termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// `1-0`
    #[serde(rename = "1-0")]
    WhiteWins,
    /// `0-1`
    #[serde(rename = "0-1")]
    BlackWins,
    /// `1/2-1/2`
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// `*`: unknown or game in progress.
    #[serde(rename = "*")]
    Unknown,
}

impl GameResult {
    /// The PGN marker.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a marker (also `½-½`).
    ///
    /// ```
    /// use notate::chess::GameResult;
    /// assert_eq!(GameResult::parse("1/2-1/2"), Some(GameResult::Draw));
    /// assert_eq!(GameResult::parse("2-0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<GameResult> {
        Some(match text {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An engine evaluation from a `[%eval …]` comment command.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Eval {
    /// Advantage in pawns from White's point of view (`[%eval 0.17]`).
    Pawns(f64),
    /// Mate in N moves, negative when Black mates (`[%eval #-3]`).
    Mate(i32),
}

/// A `{comment}` or `; comment`, with the commands notate understands parsed out of it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comment {
    /// The text exactly as written between the braces (commands included).
    pub text: String,
    /// `[%clk h:mm:ss(.f)]`: the mover's remaining time, in milliseconds.
    pub clock: Option<u64>,
    /// `[%emt h:mm:ss(.f)]`: the time the move took, in milliseconds.
    pub emt: Option<u64>,
    /// `[%eval …]`.
    pub eval: Option<Eval>,
}

impl Comment {
    /// Builds a comment from its text and parses the commands in it.
    ///
    /// ```
    /// use notate::chess::{Comment, Eval};
    /// let c = Comment::new(" [%eval -0.3] [%clk 0:03:00.5] ".to_string());
    /// assert_eq!(c.clock, Some(180_500));
    /// assert_eq!(c.eval, Some(Eval::Pawns(-0.3)));
    /// ```
    pub fn new(text: String) -> Comment {
        let (clock, emt, eval) = commands(text.as_bytes(), || std::borrow::Cow::Borrowed(&text));
        Comment {
            clock,
            emt,
            eval,
            text,
        }
    }

    /// Only the commands of a comment: its `text` stays empty.
    ///
    /// ```
    /// use notate::chess::{Comment, Eval};
    /// let c = Comment::commands_of("good [%eval #2] [%clk 0:00:09]");
    /// assert_eq!((c.clock, c.eval, c.text.as_str()), (Some(9_000), Some(Eval::Mate(2)), ""));
    /// ```
    pub fn commands_of(text: &str) -> Comment {
        Comment::commands_of_bytes(text.as_bytes(), || std::borrow::Cow::Borrowed(text))
    }

    /// [`Comment::commands_of`] on a comment's bytes as read, which `decode` makes text only
    /// when a command holds other than ASCII (which the fast scan leaves to `str`'s rules).
    pub(crate) fn commands_of_bytes<'a>(
        bytes: &'a [u8],
        decode: impl FnOnce() -> std::borrow::Cow<'a, str>,
    ) -> Comment {
        let (clock, emt, eval) = commands(bytes, decode);
        Comment {
            clock,
            emt,
            eval,
            ..Comment::default()
        }
    }
}

/// What [`commands`] finds: clock, elapsed time, evaluation.
type Commands = (Option<u64>, Option<u64>, Option<Eval>);

/// The clock, elapsed time and evaluation commands of a comment's bytes. Every lichess move
/// has a `{ [%clk …] }`, so this runs once a ply and is written on bytes: scanning it with
/// `str::find` and `split_whitespace` took as long as reading and replaying the move. A
/// command with other than ASCII in it goes to [`commands_in_text`] (the rules of `str`, on
/// the text `decode` gives), which the fast scan matches on ASCII (tested against it).
fn commands<'a>(bytes: &'a [u8], decode: impl FnOnce() -> std::borrow::Cow<'a, str>) -> Commands {
    let mut found = (None, None, None);
    let mut at = 0;
    while let Some(open) = memchr::memchr(b'[', &bytes[at..]).map(|n| at + n) {
        if bytes.get(open + 1) != Some(&b'%') {
            at = open + 1;
            continue;
        }
        let Some(close) = memchr::memchr(b']', &bytes[open + 2..]).map(|n| open + 2 + n) else {
            break;
        };
        let command = &bytes[open + 2..close];
        if !command.is_ascii() {
            return commands_in_text(&decode());
        }
        // `char::is_whitespace` on ASCII: space and U+0009 to U+000D.
        let mut words = command
            .split(|&b| b == b' ' || (b'\t'..=b'\r').contains(&b))
            .filter(|w| !w.is_empty());
        if let (Some(name), Some(arg)) = (words.next(), words.next()) {
            match name {
                // The first valid one of each, as python-chess takes it.
                b"clk" => found.0 = found.0.or_else(|| parse_clock_bytes(arg)),
                b"emt" => found.1 = found.1.or_else(|| parse_clock_bytes(arg)),
                // ASCII bytes are UTF-8.
                b"eval" => {
                    found.2 = found
                        .2
                        .or_else(|| std::str::from_utf8(arg).ok().and_then(parse_eval))
                }
                _ => {}
            }
        }
        at = close + 1;
    }
    found
}

/// The clock, elapsed time and evaluation commands of a comment's text, by the rules of
/// `str` (Unicode white space): the reference [`commands`] agrees with on ASCII.
fn commands_in_text(text: &str) -> Commands {
    let mut found = (None, None, None);
    for command in command_parts(text).filter_map(|p| p.err()) {
        let mut parts = command.split_whitespace();
        let (Some(name), Some(arg)) = (parts.next(), parts.next()) else {
            continue;
        };
        match name {
            "clk" => found.0 = found.0.or_else(|| parse_clock(arg)),
            "emt" => found.1 = found.1.or_else(|| parse_clock(arg)),
            "eval" => found.2 = found.2.or_else(|| parse_eval(arg)),
            _ => {}
        }
    }
    found
}

impl Comment {
    /// The first word after the name of each of the comment's `[%name …]` commands, in
    /// order ("" for a command with nothing after its name).
    ///
    /// ```
    /// use notate::chess::Comment;
    /// let c = Comment::new("[%timestamp 1700000000000] fast [%cal Ge2e4,Rd7d5]".to_string());
    /// assert_eq!(c.command("timestamp").collect::<Vec<_>>(), ["1700000000000"]);
    /// assert_eq!(c.command("cal").collect::<Vec<_>>(), ["Ge2e4,Rd7d5"]);
    /// assert_eq!(c.command("clk").count(), 0);
    /// ```
    pub fn command<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        command_parts(&self.text)
            .filter_map(|p| p.err())
            .filter_map(move |command| {
                let mut words = command.split_whitespace();
                (words.next() == Some(name)).then(|| words.next().unwrap_or(""))
            })
    }

    /// The text without its `[%…]` commands, white space squeezed to single spaces.
    ///
    /// ```
    /// use notate::chess::Comment;
    /// let c = Comment::new(" [%clk 0:01:00] good\n move [%eval 0.3]".to_string());
    /// assert_eq!(c.prose(), "good move");
    /// ```
    pub fn prose(&self) -> String {
        let mut text = String::new();
        for prose in command_parts(&self.text).filter_map(|p| p.ok()) {
            for word in prose.split_whitespace() {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(word);
            }
        }
        text
    }
}

/// A comment's text cut into prose (`Ok`) and the insides of `[%…]` commands (`Err`), in
/// order; an unclosed `[%` is prose.
fn command_parts(text: &str) -> impl Iterator<Item = Result<&str, &str>> {
    let mut rest = text;
    let mut pending: Option<&str> = None;
    std::iter::from_fn(move || {
        if let Some(command) = pending.take() {
            return Some(Err(command));
        }
        if rest.is_empty() {
            return None;
        }
        let split = rest
            .find("[%")
            .and_then(|start| rest[start..].find(']').map(|end| (start, start + end)));
        match split {
            Some((start, end)) => {
                let prose = &rest[..start];
                pending = Some(&rest[start + 2..end]);
                rest = &rest[end + 1..];
                Some(Ok(prose))
            }
            None => Some(Ok(std::mem::take(&mut rest))),
        }
    })
}

/// `h:mm:ss`, `m:ss` or `ss`, each with optional decimals, to milliseconds.
///
/// ```
/// assert_eq!(notate::chess::game::parse_clock("1:02:03.4"), Some(3_723_400));
/// ```
pub fn parse_clock(text: &str) -> Option<u64> {
    parse_clock_bytes(text.as_bytes())
}

/// [`parse_clock`] on bytes: up to three `:`-parts of 1 to 9 digits, then a point and up to
/// 9 decimals, or a point alone.
fn parse_clock_bytes(text: &[u8]) -> Option<u64> {
    let (whole, frac) = match memchr::memchr(b'.', text) {
        Some(dot) => (&text[..dot], Some(&text[dot + 1..])),
        None => (text, None),
    };
    let mut ms = 0u64;
    for (i, part) in whole.rsplit(|&b| b == b':').enumerate() {
        if i > 2 || part.is_empty() || part.len() > 9 {
            return None;
        }
        let value = digits(part)?;
        ms = ms.checked_add(value.checked_mul(1000 * 60u64.pow(i as u32))?)?;
    }
    // A point without decimals (`0:00:07.`) is read as python-chess reads it: no fraction.
    if let Some(frac) = frac.filter(|f| !f.is_empty()) {
        if frac.len() > 9 {
            return None;
        }
        // Milliseconds, finer decimals rounded (`0:00:00.123456`, as some tools write).
        let value = digits(frac)?;
        ms += match frac.len() {
            n @ 1..=3 => value * 10u64.pow(3 - n as u32),
            n => (value + 10u64.pow(n as u32 - 3) / 2) / 10u64.pow(n as u32 - 3),
        };
    }
    Some(ms)
}

/// The value of a run of ASCII digits (short enough not to overflow), `None` for any other byte.
fn digits(text: &[u8]) -> Option<u64> {
    text.iter().try_fold(0u64, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
    })
}

/// Formats milliseconds as `h:mm:ss` with decimals only when needed.
pub fn format_clock(ms: u64) -> String {
    let secs = ms / 1000;
    let frac = ms % 1000;
    let base = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if frac == 0 {
        base
    } else {
        let f = format!("{frac:03}");
        format!("{base}.{}", f.trim_end_matches('0'))
    }
}

/// `[%eval]`'s argument, as python-chess (1.11) reads it, so that the first eval of a
/// comment is the same for both: `#N` (a sign and digits) or pawns (a sign, then up to 10
/// digits with an optional point, or up to 10 digits, a point and 1 or 2 decimals), then an
/// optional `,depth` of digits. Anything else (`1e3`, `0.123`, `inf`, `0.17,`) is no eval.
fn parse_eval(text: &str) -> Option<Eval> {
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (value, depth) = match text.split_once(',') {
        Some((value, depth)) => (value, Some(depth)),
        None => (text, None),
    };
    if depth.is_some_and(|d| d.is_empty() || !digits(d)) {
        return None;
    }
    if let Some(mate) = value.strip_prefix('#') {
        let unsigned = mate.strip_prefix(['+', '-']).unwrap_or(mate);
        return (!unsigned.is_empty() && digits(unsigned))
            .then(|| mate.parse().ok().map(Eval::Mate))
            .flatten();
    }
    let unsigned = value.strip_prefix(['+', '-']).unwrap_or(value);
    let plain = match unsigned.split_once('.') {
        Some((whole, "")) => (1..=10).contains(&whole.len()) && digits(whole),
        Some((whole, frac)) => {
            whole.len() <= 10 && digits(whole) && frac.len() <= 2 && digits(frac)
        }
        None => (1..=10).contains(&unsigned.len()) && digits(unsigned),
    };
    plain.then(|| value.parse().ok().map(Eval::Pawns)).flatten()
}

/// A move as it was read from a file: its text, what it asks for, and where it stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The token as written, without annotation glyphs.
    pub san: SanText,
    /// What the token asks for (parsed once, when read).
    pub spec: MoveSpec,
    /// Byte offset of the token in the text it was read from.
    pub offset: usize,
}

/// A move after replay: the token as written and the legal move it resolved to.
#[derive(Clone, Copy, Debug, Eq)]
pub struct Played {
    /// The token as written (or generated by a reader of a non-PGN format).
    pub san: SanText,
    /// The move; `None` is a null move (`--`).
    pub mv: Option<Move>,
    /// Byte offset of the token in the text it was read from (0 when not read from text).
    pub offset: usize,
}

/// Two played moves are equal when they are written and resolved alike, wherever they stood.
impl PartialEq for Played {
    fn eq(&self, other: &Played) -> bool {
        self.san == other.san && self.mv == other.mv
    }
}

/// One half-move with what is attached to it.
///
/// What is attached is held in [`ThinVec`]s (one word each, where a `Vec` takes three): most
/// plies have nothing attached, and a ply of 56 bytes instead of 104 made reading and
/// replaying PGN 7–10 % faster (fewer bytes written per move, and moved again by replay).
///
/// ```
/// use notate::chess::{pgn::read_written, ThinVec};
/// let game = read_written("1. e4 $1 { best by test } *").remove(0).unwrap();
/// let ply = &game.moves.plies[0];
/// assert_eq!(ply.nags, ThinVec::from([1u8]));
/// assert_eq!(ply.comments.len(), 1);
/// assert!(ply.variations.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Ply<M> {
    /// The move.
    pub mv: M,
    /// Numeric annotation glyphs (`$1` or `!`, `$14` or `+=` …), in order.
    pub nags: ThinVec<u8>,
    /// Comments after the move.
    pub comments: ThinVec<Comment>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: ThinVec<Line<M>>,
}

impl<M> Ply<M> {
    /// A ply with nothing attached.
    pub fn new(mv: M) -> Ply<M> {
        Ply {
            mv,
            nags: ThinVec::new(),
            comments: ThinVec::new(),
            variations: ThinVec::new(),
        }
    }
}

/// A sequence of plies: the main line or a variation.
#[derive(Clone, Debug, PartialEq)]
pub struct Line<M> {
    /// Comments before the first move of the line.
    pub comments: Vec<Comment>,
    /// The plies.
    pub plies: Vec<Ply<M>>,
}

impl<M> Default for Line<M> {
    fn default() -> Self {
        Line {
            comments: Vec::new(),
            plies: Vec::new(),
        }
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Written {}
    impl Sealed for super::Played {}
}

/// What a game's moves are: as written in a file ([`Written`]) or replayed ([`Played`]).
/// A replayed game knows the position it starts from; a written one only has its tags.
pub trait MoveKind: sealed::Sealed {
    /// What the game knows of its start: `()` before replay, a [`StartPosition`] after.
    type Start: Clone + fmt::Debug + PartialEq + Default;
}

impl MoveKind for Written {
    type Start = ();
}

impl MoveKind for Played {
    type Start = StartPosition;
}

/// A game record.
#[derive(Clone, Debug, PartialEq)]
pub struct Game<M: MoveKind> {
    /// Tag pairs.
    pub tags: Tags,
    /// Where the game starts: for a replayed game, the position its tags give (the `FEN`
    /// tag's, else the standard start), read once, so that writers never read tags again.
    pub start: M::Start,
    /// The main line and its variations.
    pub moves: Line<M>,
    /// The termination marker of the movetext, if there was one.
    pub result: Option<GameResult>,
    /// Comments after the termination marker.
    pub final_comments: Vec<Comment>,
}

impl<M: MoveKind> Default for Game<M> {
    fn default() -> Self {
        Game {
            tags: Tags::new(),
            start: M::Start::default(),
            moves: Line::default(),
            result: None,
            final_comments: Vec::new(),
        }
    }
}

/// The position a game starts from, and how its castling is written (Chess960 or standard).
///
/// ```
/// use notate::chess::{StartPosition, Tags};
/// use shakmaty::Position;
/// let mut tags = Tags::new();
/// tags.push("FEN", "4k3/8/8/8/8/8/8/4K2R b K - 3 40");
/// let start = StartPosition::from_tags(&tags).unwrap();
/// assert_eq!(start.position.fullmoves().get(), 40);
/// ```
#[derive(Clone, Debug)]
pub struct StartPosition {
    /// The position before the first move.
    pub position: Chess,
    /// Chess960 when the `Variant` tag says so or the FEN needs it.
    pub castling: CastlingMode,
}

/// The standard start.
impl Default for StartPosition {
    fn default() -> StartPosition {
        StartPosition {
            position: Chess::default(),
            castling: CastlingMode::Standard,
        }
    }
}

/// Equal when the positions are the same to the last field (move counters included), not
/// only by the rules of repetition as `Chess` compares them.
impl PartialEq for StartPosition {
    fn eq(&self, other: &StartPosition) -> bool {
        let setup = |s: &StartPosition| s.position.to_setup(EnPassantMode::Always);
        self.castling == other.castling && setup(self) == setup(other)
    }
}

impl StartPosition {
    /// The start position a game's tags give: the `FEN` tag's (with `SetUp "1"` or without
    /// it, as most programs read it), else the standard start. Chess960 castling rights are
    /// read in X-FEN and Shredder-FEN. A `Variant` other than standard chess and Chess960 is
    /// an error. An en passant square no double step made, and castling rights whose king or
    /// rook is not there, are dropped (the PGN reader warns of them).
    pub fn from_tags(tags: &Tags) -> Result<StartPosition, StartError> {
        Self::from_tags_noting(tags).map(|(start, _)| start)
    }

    /// [`StartPosition::from_tags`], with what was read past: an en passant square that no
    /// pawn's double step made (`8/8/8/8/8/8/8/K6k w - e6`) and castling rights whose king
    /// or rook is not there, which python-chess and lichess also drop, are dropped with this
    /// note (the PGN reader gives it as a warning).
    pub(crate) fn from_tags_noting(
        tags: &Tags,
    ) -> Result<(StartPosition, Option<String>), StartError> {
        let StartTags { variant, fen } = StartTags::of(tags);
        let mut chess960 = false;
        if let Some(variant) = variant {
            chess960 = match variant_kind(variant) {
                Some(chess960) => chess960,
                None => return Err(StartError::Variant(variant.to_string())),
            };
        }
        let Some(text) = fen else {
            let start = StartPosition {
                position: Chess::default(),
                castling: castling_mode(chess960, None),
            };
            return Ok((start, None));
        };
        let fen: Fen = text
            .trim()
            .parse()
            .map_err(|_| StartError::BadFen(text.to_string()))?;
        let castling = castling_mode(chess960, Some(&fen));
        // An en passant square no double step made, and castling rights without their king
        // or rook, are read past with a note (python-chess and lichess drop them too); any
        // other fault of the position fails the game.
        let mut setup = fen.into_setup();
        let (written_ep, written_rights) = (setup.ep_square, setup.castling_rights);
        let position: Chess = match Chess::from_setup(setup.clone(), castling) {
            Err(e) if e.kinds().contains(PositionErrorKinds::INVALID_EP_SQUARE) => {
                setup.ep_square = None;
                Chess::from_setup(setup, castling)
            }
            other => other,
        }
        .or_else(PositionError::ignore_invalid_castling_rights)
        .map_err(|e| StartError::IllegalFen(text.to_string(), e.to_string()))?;
        let mut notes = Vec::new();
        if let Some(square) = written_ep
            && position.ep_square(EnPassantMode::Always).is_none()
        {
            notes.push(format!(
                "the FEN's en passant square {square} follows no pawn's double step: ignored"
            ));
        }
        if position.castles().castling_rights() != written_rights {
            let field = |fen: &str| {
                fen.split_ascii_whitespace()
                    .nth(2)
                    .unwrap_or("-")
                    .to_string()
            };
            let kept = field(&Fen::from_position(&position, EnPassantMode::Legal).to_string());
            notes.push(format!(
                "the FEN's castling rights {} name a king or rook that is not there: read as {kept}",
                field(text)
            ));
        }
        let note = (!notes.is_empty()).then(|| notes.join("; "));
        Ok((StartPosition { position, castling }, note))
    }
}

/// A game as read from a file, not yet replayed.
pub type WrittenGame = Game<Written>;
/// A replayed game: every move resolved and legal.
pub type ChessGame = Game<Played>;

/// The tags that decide the start position, their names in any case (`fEn`, as some
/// programs write it: a reader that missed it would replay the game from the wrong
/// position); a name in its own case first. Found in one look through the tags: every game
/// read asks for them.
struct StartTags<'t> {
    variant: Option<&'t str>,
    fen: Option<&'t str>,
}

impl<'t> StartTags<'t> {
    fn of(tags: &'t Tags) -> StartTags<'t> {
        // Per name: the value under its own spelling, else the first in another case.
        let mut exact: [Option<&str>; 2] = [None, None];
        let mut any_case: [Option<&str>; 2] = [None, None];
        for (name, value) in tags.iter() {
            for (i, wanted) in ["Variant", "FEN"].into_iter().enumerate() {
                if name == wanted {
                    exact[i] = Some(value);
                } else if any_case[i].is_none() && name.eq_ignore_ascii_case(wanted) {
                    any_case[i] = Some(value);
                }
            }
        }
        StartTags {
            variant: exact[0].or(any_case[0]),
            fen: exact[1].or(any_case[1]),
        }
    }
}

/// Whether a `Variant` tag names Chess960 (`Some(true)`: python-chess's names, and `960`,
/// `Fischer Random Chess`, `Freestyle`), standard chess (`Some(false)`: python-chess's
/// names of it, `Standard`, `Chess`, `Classical`, `Normal`, `Illegal`, `From Position`,
/// FICS's `wild/0` to `wild/8a`, or an empty tag) or neither (`None`). Case, blanks, `-` and `_` do not count.
/// The names are whole: `Atomic960` and `Crazyhouse960` are other variants, not Chess960.
fn variant_kind(variant: &str) -> Option<bool> {
    let name: String = variant
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '_'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match name.as_str() {
        // FICS's wild variants are chess from other starts, which their FEN gives.
        "" | "standard" | "chess" | "classical" | "normal" | "illegal" | "fromposition"
        | "wild/0" | "wild/1" | "wild/2" | "wild/3" | "wild/4" | "wild/5" | "wild/6" | "wild/7"
        | "wild/8" | "wild/8a" => Some(false),
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess"
        | "freestyle" | "freestylechess" => Some(true),
        _ => None,
    }
}

/// The castling mode of a game: Chess960 when its `Variant` tag says so or its FEN needs it.
fn castling_mode(chess960: bool, fen: Option<&Fen>) -> CastlingMode {
    if chess960 {
        return CastlingMode::Chess960;
    }
    match fen {
        Some(fen) => CastlingMode::detect(fen.as_setup()),
        None => CastlingMode::Standard,
    }
}

/// Why a game's start position cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The `FEN` tag does not parse.
    #[error("FEN tag {0:?} is not a FEN")]
    BadFen(String),
    /// The FEN describes an impossible position.
    #[error("FEN tag {0:?} is not a legal position: {1}")]
    IllegalFen(String, String),
    /// A variant notate does not play.
    #[error("variant {0:?} is not supported (standard chess and Chess960 are)")]
    Variant(String),
}

impl WrittenGame {
    /// The position the game's tags say it starts from ([`StartPosition::from_tags`]).
    ///
    /// ```
    /// use notate::chess::WrittenGame;
    /// use shakmaty::Position;
    /// let mut game = WrittenGame::default();
    /// game.tags.push("FEN", "4k3/8/8/8/8/8/8/4K2R b K - 3 40");
    /// let start = game.start_position().unwrap();
    /// assert_eq!(start.position.fullmoves().get(), 40);
    /// ```
    pub fn start_position(&self) -> Result<StartPosition, StartError> {
        StartPosition::from_tags(&self.tags)
    }
}

impl<M: MoveKind> Game<M> {
    /// The number of plies in the main line.
    pub fn ply_count(&self) -> usize {
        self.moves.plies.len()
    }

    /// The result: the movetext's marker, else the `Result` tag, else `*`.
    pub fn outcome(&self) -> GameResult {
        self.result
            .or_else(|| self.tags.get("Result").and_then(GameResult::parse))
            .unwrap_or(GameResult::Unknown)
    }

    /// The `Termination` tag (`normal`, `time forfeit`, …), if any.
    pub fn termination(&self) -> Option<&str> {
        self.tags.get("Termination")
    }
}

impl ChessGame {
    /// The main line's moves (`None` for null moves) with the position before each.
    ///
    /// ```
    /// use notate::chess::pgn;
    /// let game = pgn::read_str("1. e4 e5 2. Nf3 *").unwrap().remove(0);
    /// let positions: Vec<_> = game.mainline_positions().collect();
    /// assert_eq!(positions.len(), 3);
    /// ```
    pub fn mainline_positions(&self) -> impl Iterator<Item = (Chess, Option<Move>)> + '_ {
        let mut pos = self.start.position.clone();
        self.moves.plies.iter().map(move |ply| {
            let before = pos.clone();
            play(&mut pos, ply.mv.mv);
            (before, ply.mv.mv)
        })
    }
}

/// Plays a move, or passes for a null move (legal by construction: replay checked it).
///
/// A pass counts as a ply that is neither a capture nor a pawn move: the halfmove clock
/// goes on, and so does the move number after Black's pass (as python-chess counts them;
/// shakmaty's `swap_turn` keeps both).
///
/// ```
/// use notate::chess::game::play;
/// use shakmaty::{fen::Fen, Chess, EnPassantMode};
/// let mut pos = Chess::default();
/// play(&mut pos, None);
/// play(&mut pos, None);
/// let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
/// assert_eq!(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2 2");
/// ```
pub fn play(pos: &mut Chess, mv: Option<Move>) {
    match mv {
        Some(m) => pos.play_unchecked(m),
        None => {
            let mut setup = pos.to_setup(EnPassantMode::Legal);
            setup.ep_square = None;
            setup.halfmoves = setup.halfmoves.saturating_add(1);
            if setup.turn == shakmaty::Color::Black {
                setup.fullmoves = setup.fullmoves.saturating_add(1);
            }
            setup.turn = !setup.turn;
            // Refused only when the side that passes is in check, which replay refuses first.
            if let Ok(passed) = Chess::from_setup(setup, pos.castles().mode()) {
                *pos = passed;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move read is written as a ply, then moved by replay into a ply of the same size
    /// in place (the vector is reused): the smaller, the faster (see [`Ply`]).
    #[test]
    fn a_ply_stays_small_and_replay_keeps_its_size() {
        use std::mem::size_of;
        assert_eq!(size_of::<Ply<Written>>(), size_of::<Ply<Played>>());
        #[cfg(target_pointer_width = "64")]
        assert_eq!(size_of::<Ply<Played>>(), 56);
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("0:03:00"), Some(180_000));
        assert_eq!(parse_clock("1:02:03.4"), Some(3_723_400));
        assert_eq!(parse_clock("59.25"), Some(59_250));
        assert_eq!(parse_clock("0:00:00.123456"), Some(123));
        assert_eq!(parse_clock("0:00:00.1235"), Some(124));
        assert_eq!(parse_clock("0:00:09.999999999"), Some(10_000));
        assert_eq!(parse_clock("0:00:00.1234567890"), None);
        assert_eq!(parse_clock("x"), None);
        assert_eq!(parse_clock("1:2:3:4"), None);
        assert_eq!(format_clock(3_723_400), "1:02:03.4");
        assert_eq!(format_clock(180_000), "0:03:00");
    }

    #[test]
    fn comment_commands() {
        // The first valid command of each name counts, as in python-chess.
        let c = Comment::new("[%clk x] [%clk 0:00:04] [%clk 0:00:05] [%eval 1.5] [%eval 2]".into());
        assert_eq!((c.clock, c.eval), (Some(4000), Some(Eval::Pawns(1.5))));
        let c = Comment::new("[%clk\u{a0}x] [%clk 0:00:04] [%clk\u{a0}0:00:05]".into());
        assert_eq!(c.clock, Some(4000));
        let c = Comment::new("[%eval #-3] [%emt 0:00:05] hello".into());
        assert_eq!(c.eval, Some(Eval::Mate(-3)));
        assert_eq!(c.emt, Some(5000));
        assert_eq!(c.clock, None);
        let c = Comment::new("[%eval 0.17,20]".into());
        assert_eq!(c.eval, Some(Eval::Pawns(0.17)));
        // Valid as python-chess has it: a point without decimals in a clock; in an eval, up
        // to 10 digits and 2 decimals, a depth of digits, no exponent.
        let c = Comment::new("[%clk 0:00:07.] [%clk 0:00:05]".into());
        assert_eq!(c.clock, Some(7000));
        for late in [
            "12345678901",
            "0.123",
            "1e3",
            "inf",
            "0.17,",
            "0.17,x",
            "#",
            "+",
            ".",
        ] {
            let c = Comment::new(format!("[%eval {late}] [%eval -1.5]"));
            assert_eq!(c.eval, Some(Eval::Pawns(-1.5)), "{late}");
        }
        for (text, eval) in [
            ("+1234567890", Eval::Pawns(1_234_567_890.0)),
            ("1.", Eval::Pawns(1.0)),
            (".5", Eval::Pawns(0.5)),
            ("-0.25,30", Eval::Pawns(-0.25)),
            ("0.5,123456", Eval::Pawns(0.5)),
            ("#+3", Eval::Mate(3)),
            ("#-123456,9", Eval::Mate(-123_456)),
        ] {
            assert_eq!(
                Comment::new(format!("[%eval {text}]")).eval,
                Some(eval),
                "{text}"
            );
        }
        // Unicode white space is white space; a command with no `]` is prose.
        let c = Comment::new("[%clk\u{a0}0:00:07] [%eval 1".into());
        assert_eq!((c.clock, c.eval), (Some(7000), None));
        let c = Comment::commands_of_bytes(b"\xe9 [%emt\x0b0:01] [%clk 0:00:09.25]", || {
            "\u{e9} [%emt\u{b}0:01] [%clk 0:00:09.25]".into()
        });
        assert_eq!((c.emt, c.clock), (Some(1000), Some(9250)));
    }

    proptest::proptest! {
        /// The byte scan finds what the rules of `str` find, on any text made of the pieces
        /// commands are made of.
        #[test]
        fn byte_scan_agrees_with_str(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "[%", "[", "]", "%", "clk", "emt", "eval", " ", "\t", "\u{b}", "\u{a0}", "\n",
                ":", ".", "0", "1", "59", "123456789", "#", "-", ",", "e", "é", "x",
            ]), 0..24)
        ) {
            let text = pieces.concat();
            let fast = commands(text.as_bytes(), || text.as_str().into());
            let slow = commands_in_text(&text);
            proptest::prop_assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        }
    }

    #[test]
    fn variants() {
        let mut g = WrittenGame::default();
        g.tags.push("Variant", "Crazyhouse");
        assert!(matches!(g.start_position(), Err(StartError::Variant(_))));
        let mut g = WrittenGame::default();
        g.tags.push("Variant", "Chess960");
        g.tags.push(
            "FEN",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        );
        assert_eq!(g.start_position().unwrap().castling, CastlingMode::Chess960);
        // Whole names only: another variant played from Chess960's starts is not Chess960.
        let kind = |name: &str| {
            let mut g = WrittenGame::default();
            g.tags.push("Variant", name);
            g.start_position().ok().map(|s| s.castling)
        };
        for other in [
            "Atomic960",
            "Crazyhouse960",
            "Antichess 960",
            "Fischer",
            "960x",
        ] {
            assert_eq!(kind(other), None, "{other}");
        }
        for chess960 in [
            "Chess960",
            "chess 960",
            "Fischer Random",
            "fischerandom",
            "960",
        ] {
            assert_eq!(kind(chess960), Some(CastlingMode::Chess960), "{chess960}");
        }
        // python-chess's names of standard chess.
        for standard in ["Chess", "Classical", "Illegal", "From Position", "wild/8a"] {
            assert_eq!(kind(standard), Some(CastlingMode::Standard), "{standard}");
        }
    }
}
