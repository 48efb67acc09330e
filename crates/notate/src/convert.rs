//! Conversion by format names: every format of every family named as the command line names
//! it (`pgn`, `egd`, `icn-json`, `kif` …), told from a file name or from the first bytes of a
//! text, and any input converted to any output of its family, game by game. The npm package
//! and the Python wheel convert through here, with options given by name.
//!
//! ```
//! use notate::convert::{Converter, Format, Options};
//! let from = Format::detect(b"[White \"Morphy\"]\n\n1. e4 e5 *")?;
//! let mut converter = Converter::new(from, Some("uci".parse()?), &Options::default())?;
//! let mut out = Vec::new();
//! for game in converter.read(b"[White \"Morphy\"]\n\n1. e4 e5 *\n\n1. d4 *") {
//!     converter.write(&game?, &mut out)?;
//! }
//! assert_eq!(out, b"e2e4 e7e5\nd2d4\n");
//! # Ok::<(), notate::Error>(())
//! ```

use std::path::Path;
use std::str::FromStr;

use crate::chess::egd::{self, Egd};
use crate::chess::json::{self, Json};
use crate::chess::jsonchess::Jsonchess;
use crate::chess::pgn::Pgn;
use crate::chess::positions::{self, PositionFormat, Positions};
use crate::chess::tracks::Tracks;
use crate::chess::uci::Uci;
use crate::chess::view::View as ChessView;
use crate::chess::ChessGame;
use crate::error::Locator;
use crate::format::{Origin, ReadFormat, Reader, WriteFormat};
use crate::infinite::long::{self, IcnJson};
use crate::infinite::short::{self, Dialect, Icn, MoveStyle};
use crate::infinite::{self, replay};
use crate::shogi::encoding::{self, Encoding};
use crate::shogi::{
    book, csa, jkf, ki2, kif, sfen, tracks as shogi_tracks, usi, view as shogi_view, western,
    Record,
};
use crate::{Error, ErrorKind};

/// A family of games: what a format holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Standard chess.
    Chess,
    /// Infinite chess.
    Infinite,
    /// Shogi.
    Shogi,
}

impl Family {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Family::Chess => "chess",
            Family::Infinite => "infinite chess",
            Family::Shogi => "shogi",
        }
    }
}

/// A format, by the name the command line gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN.
    Pgn,
    /// notate's lossless game JSON, one game per line.
    Json,
    /// EGD, one game per line.
    Egd,
    /// jsonchess: tags and packed moves, one game per line.
    Jsonchess,
    /// Piece tracks (written only).
    Tracks,
    /// Viewer documents: tracks and the facts of every position (written only).
    View,
    /// One line of UCI moves per game (written only).
    Uci,
    /// The FEN of every position (written only).
    Fen,
    /// The EPD of every position (written only).
    Epd,
    /// ICN, either dialect.
    Icn,
    /// ICN's long JSON form.
    IcnJson,
    /// Shogi: SFEN positions, one per line.
    Sfen,
    /// Shogi: USI `position` commands, one game per line.
    Usi,
    /// Shogi: KIF.
    Kif,
    /// Shogi: KI2.
    Ki2,
    /// Shogi: CSA.
    Csa,
    /// Shogi: Western (Hodges) notation (never detected).
    Western,
    /// Shogi: JSON Kifu Format.
    Jkf,
    /// Shogi: the Shogi Vibe app's opening book (read only).
    ShogiBook,
}

impl Format {
    /// Every format, in the order the command line lists them.
    pub const ALL: [Format; 19] = [
        Format::Pgn,
        Format::Json,
        Format::Egd,
        Format::Jsonchess,
        Format::Tracks,
        Format::View,
        Format::Uci,
        Format::Fen,
        Format::Epd,
        Format::Icn,
        Format::IcnJson,
        Format::Sfen,
        Format::Usi,
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Western,
        Format::Jkf,
        Format::ShogiBook,
    ];

    /// Its name (`icn-json`, `shogi-book` …).
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Json => "json",
            Format::Egd => "egd",
            Format::Jsonchess => "jsonchess",
            Format::Tracks => "tracks",
            Format::View => "view",
            Format::Uci => "uci",
            Format::Fen => "fen",
            Format::Epd => "epd",
            Format::Icn => "icn",
            Format::IcnJson => "icn-json",
            Format::Sfen => "sfen",
            Format::Usi => "usi",
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Western => "western",
            Format::Jkf => "jkf",
            Format::ShogiBook => "shogi-book",
        }
    }

    /// The family of the games it holds.
    pub fn family(self) -> Family {
        match self {
            Format::Pgn
            | Format::Json
            | Format::Egd
            | Format::Jsonchess
            | Format::Tracks
            | Format::View
            | Format::Uci
            | Format::Fen
            | Format::Epd => Family::Chess,
            Format::Icn | Format::IcnJson => Family::Infinite,
            Format::Sfen
            | Format::Usi
            | Format::Kif
            | Format::Ki2
            | Format::Csa
            | Format::Western
            | Format::Jkf
            | Format::ShogiBook => Family::Shogi,
        }
    }

    /// Whether games of `family` can be written in it: its own family's, and piece tracks
    /// and viewer documents for every family.
    ///
    /// ```
    /// use notate::convert::{Family, Format};
    /// assert!(Format::Tracks.holds(Family::Shogi));
    /// assert!(!Format::Pgn.holds(Family::Shogi));
    /// ```
    pub fn holds(self, family: Family) -> bool {
        self.family() == family || matches!(self, Format::Tracks | Format::View)
    }

    /// Whether notate reads it (every format but tracks, viewer documents, UCI, FEN and EPD).
    pub fn is_read(self) -> bool {
        !matches!(
            self,
            Format::Tracks | Format::View | Format::Uci | Format::Fen | Format::Epd
        )
    }

    /// Whether notate writes it (every format but the opening book).
    pub fn is_written(self) -> bool {
        self != Format::ShogiBook
    }

    /// Whether each game is written as one JSON value (game JSON, EGD, tracks, jsonchess,
    /// ICN's long form, JKF).
    pub fn is_json(self) -> bool {
        matches!(
            self,
            Format::Json
                | Format::Egd
                | Format::Tracks
                | Format::View
                | Format::Jsonchess
                | Format::IcnJson
                | Format::Jkf
        )
    }

    /// What is written between two games (after the first's own line ends): CSA's `/`
    /// line, a blank line between KIF, KI2 and Western records.
    pub fn separator(self) -> &'static [u8] {
        match self {
            Format::Csa => b"/\n",
            Format::Kif | Format::Ki2 | Format::Western => b"\n",
            _ => b"",
        }
    }

    /// The format a file name says (`.pgn.zst`, `.egd.jsonl`, `.icn`, `.kifu` …), if any.
    ///
    /// ```
    /// use notate::convert::Format;
    /// assert_eq!(Format::from_path("games/2016-05.pgn.zst".as_ref()), Some(Format::Pgn));
    /// assert_eq!(Format::from_path("a.kifu".as_ref()), Some(Format::Kif));
    /// assert_eq!(Format::from_path("notes.txt".as_ref()), None);
    /// ```
    pub fn from_path(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        let stem = name
            .trim_end_matches(".zst")
            .trim_end_matches(".gz")
            .trim_end_matches(".bz2");
        [
            (".pgn", Format::Pgn),
            (".egd", Format::Egd),
            (".egd.jsonl", Format::Egd),
            (".jsonchess", Format::Jsonchess),
            (".jsonchess.jsonl", Format::Jsonchess),
            (".icn", Format::Icn),
            (".icn.json", Format::IcnJson),
            (".icn.jsonl", Format::IcnJson),
            (".kif", Format::Kif),
            (".kifu", Format::Kif),
            (".ki2", Format::Ki2),
            (".ki2u", Format::Ki2),
            (".csa", Format::Csa),
            (".jkf", Format::Jkf),
            (".sfen", Format::Sfen),
            (".usi", Format::Usi),
        ]
        .into_iter()
        .find(|(ext, _)| stem.ends_with(ext))
        .map(|(_, f)| f)
    }

    /// The format of a text, told by its first bytes: shogi records by their headers and
    /// moves, JSON by its keys, ICN by what follows its tags, and PGN by what PGN may start
    /// with. Western shogi notation is never guessed. The error says why nothing fits.
    ///
    /// ```
    /// use notate::convert::Format;
    /// assert_eq!(Format::detect(b"1. e4 e5 *").unwrap(), Format::Pgn);
    /// assert_eq!(Format::detect(b"w K5,1|k5,8 5,1>5,2").unwrap(), Format::Icn);
    /// assert_eq!(Format::detect("手合割：平手\n".as_bytes()).unwrap(), Format::Kif);
    /// assert_eq!(Format::detect(b"{A game} 1. e4 *").unwrap(), Format::Pgn);
    /// assert_eq!(Format::detect(br#"{"Quoted," he said} 1. e4 *"#).unwrap(), Format::Pgn);
    /// assert_eq!(Format::detect(b"e4 e5 Nf3 *").unwrap(), Format::Pgn);
    /// assert!(Format::detect(b"hello").is_err());
    /// assert!(Format::detect(b"-- a comment of another language").is_err());
    /// assert!(Format::detect(b"a4 paper").is_err());
    /// // Compressed bytes are no format: zstd's first byte is `(`, which PGN may start with.
    /// let zstd = Format::detect(&[0x28, 0xB5, 0x2F, 0xFD, 0]).unwrap_err();
    /// assert_eq!(zstd.message, "zstd-compressed: decompress it first");
    /// ```
    pub fn detect(head: &[u8]) -> Result<Format, Error> {
        if let Some(compression) = Compression::detect(head) {
            // (The command line and the wheel decompress before they look.)
            return Err(usage(format!(
                "{compression}-compressed: decompress it first"
            )));
        }
        if let Some(format) = shogi_content(head) {
            return Ok(format);
        }
        let text = String::from_utf8_lossy(&head[..head.len().min(4096)]);
        let trimmed = text.trim_start_matches('\u{feff}').trim_start();
        if json_object_start(trimmed) {
            if icn_json_keys(trimmed) {
                return Ok(Format::IcnJson);
            }
            if trimmed.starts_with("{\"tags\"") {
                return Ok(Format::Json);
            }
            if trimmed.starts_with("{\"game_tags\"") {
                // EGD's moves are an object of plies, jsonchess's an array of packed strings
                // (piece tracks also start so, but notate does not read them back).
                return match moves_opener(trimmed) {
                    Some(b'{') => Ok(Format::Egd),
                    Some(b'[') if !trimmed.contains("\"start\":{") => Ok(Format::Jsonchess),
                    _ => Err(usage(
                        "game JSON with \"game_tags\", but neither EGD nor jsonchess",
                    )),
                };
            }
            // A PGN comment that opens like JSON (`{"Note": see below} 1. e4`) is read as
            // PGN below; anything else is JSON of no format notate reads, said so.
            if !pgn_after_comment(trimmed) {
                return Err(usage(
                    "JSON, but neither notate's game JSON, EGD, jsonchess, ICN nor JKF",
                ));
            }
        }
        if looks_like_icn(trimmed) {
            return Ok(Format::Icn);
        }
        // Tags, a move number, a comment (`{…}` that is not JSON, `;`), an escaped line, a
        // result (`*`, a game of no moves), a variation or a glyph, or movetext that opens
        // with moves (`e4 e5 *`, which PGN's import format allows).
        if trimmed.is_empty()
            || trimmed.starts_with(['[', '{', ';', '%', '*', '(', '$'])
            || trimmed.starts_with(|c: char| c.is_ascii_digit())
            || opens_with_moves(trimmed)
        {
            return Ok(Format::Pgn);
        }
        Err(usage("no format notate reads starts so"))
    }
}

/// A compression a stream of games may come in, told by its first bytes (the decoders are
/// the callers': the command line and the Python wheel have them, the WebAssembly package
/// does not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Zstandard (`.zst`, as the lichess database ships).
    Zstd,
    /// gzip (`.gz`).
    Gzip,
    /// bzip2 (`.bz2`).
    Bzip2,
}

impl Compression {
    /// The compression whose magic number `head` starts with (4 bytes suffice), whatever the
    /// file's name says.
    ///
    /// ```
    /// use notate::convert::Compression;
    /// assert_eq!(Compression::detect(&[0x1F, 0x8B, 8, 0]), Some(Compression::Gzip));
    /// assert_eq!(Compression::detect(b"[Event \"?\"]"), None);
    /// ```
    pub fn detect(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
            Some(Compression::Zstd)
        } else if head.starts_with(&[0x1F, 0x8B]) {
            Some(Compression::Gzip)
        } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
            // With its block size digit: "BZh" alone may start a text.
            Some(Compression::Bzip2)
        } else {
            None
        }
    }

    /// The compression a file name's extension says (`.zst`, `.gz`, `.bz2`), if any: a file
    /// so named whose bytes do not start as [`Compression::detect`] knows it is corrupt.
    ///
    /// ```
    /// use notate::convert::Compression;
    /// assert_eq!(Compression::from_path("2016-05.pgn.zst".as_ref()), Some(Compression::Zstd));
    /// assert_eq!(Compression::from_path("games.pgn".as_ref()), None);
    /// ```
    pub fn from_path(path: &Path) -> Option<Compression> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        [
            (".zst", Compression::Zstd),
            (".gz", Compression::Gzip),
            (".bz2", Compression::Bzip2),
        ]
        .into_iter()
        .find(|(ext, _)| name.ends_with(ext))
        .map(|(_, compression)| compression)
    }
}

impl std::fmt::Display for Compression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        })
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    /// A format by its name (as [`Format::name`] gives it; `_` may stand for `-`).
    fn from_str(name: &str) -> Result<Format, Error> {
        let name = name.to_ascii_lowercase().replace('_', "-");
        Format::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                usage(format!("unknown format {name:?}: {}", names.join(", ")))
            })
    }
}

/// A usage error: a bad name or option.
fn usage(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Usage, message)
}

/// A shogi format told by content: CSA's version, name or position lines, KIF's and KI2's
/// headers and moves, JKF's keys, an opening book's array of named openings, USI's
/// `position`, an SFEN.
fn shogi_content(head: &[u8]) -> Option<Format> {
    let head = if head.len() > 8192 {
        // Cut after a line: never inside a character (no byte of a Shift_JIS or EUC-JP
        // character is a line feed), so a legacy encoding still decodes.
        let head = &head[..8192];
        head.iter()
            .rposition(|&b| b == b'\n')
            .map_or(head, |end| &head[..=end])
    } else {
        head
    };
    let text = match std::str::from_utf8(head) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        // Cut inside a character.
        Err(e) if e.error_len().is_none() => String::from_utf8_lossy(&head[..e.valid_up_to()]),
        // Shift_JIS or EUC-JP: what the record's own detection reads.
        Err(_) => encoding::decode(head, Some(encoding::detect(head)))
            .map(|t| std::borrow::Cow::Owned(t.into_owned()))
            .unwrap_or_else(|_| String::from_utf8_lossy(head)),
    };
    let text = text.trim_start_matches('\u{feff}');
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    if text.starts_with("#KIF") || text.contains("手数----") {
        return Some(Format::Kif);
    }
    // (`'` opens a comment line, `$EVENT:` and the like an information line: a PGN glyph is
    // `$` and digits.)
    let information = first.strip_prefix('$').is_some_and(|rest| {
        rest.starts_with(|c: char| c.is_ascii_uppercase()) && rest.contains(':')
    });
    if first.starts_with('\'')
        || information
        || first.starts_with("V2")
        || first.starts_with("V3")
        || first.starts_with("PI")
        || first.starts_with("N+")
        || first.starts_with("N-")
        || (first.starts_with("P1") && first.len() > 20)
    {
        return Some(Format::Csa);
    }
    if first.starts_with('{')
        && text.contains("\"moves\"")
        && (text.contains("\"header\"") || text.contains("\"initial\""))
    {
        return Some(Format::Jkf);
    }
    if first.starts_with('[') && first[1..].trim_start().starts_with('{')
        || first == "[" && text.contains("\"name\"")
    {
        return Some(Format::ShogiBook);
    }
    if first.starts_with("position ") || first.starts_with("startpos") {
        return Some(Format::Usi);
    }
    // `sfen BOARD SIDE HANDS [N] moves …`, a USI command without `position` (without moves,
    // it is also how Western notation opens a game that does not start from the even-game
    // position, which is never guessed).
    let board = |text: &str| {
        text.split_whitespace()
            .next()
            .is_some_and(|b| b.matches('/').count() == 8)
    };
    if first.strip_prefix("sfen ").is_some_and(board)
        && first.split_whitespace().any(|word| word == "moves")
    {
        return Some(Format::Usi);
    }
    let fields: Vec<&str> = first.split_whitespace().collect();
    if fields.len() >= 3 && fields[0].matches('/').count() == 8 && matches!(fields[1], "b" | "w") {
        return Some(if fields.contains(&"moves") {
            Format::Usi
        } else {
            Format::Sfen
        });
    }
    let lines = || text.lines().map(str::trim_start);
    if lines().any(|l| l.starts_with(['▲', '△', '☗', '☖'])) {
        return Some(Format::Ki2);
    }
    if lines()
        .any(|l| l.starts_with("手合割") || l.starts_with("先手：") || l.starts_with("開始日時"))
    {
        return Some(Format::Kif);
    }
    None
}

/// ICN's long form starts with one of its own top-level keys.
fn icn_json_keys(text: &str) -> bool {
    let body = text[1..].trim_start();
    [
        "\"gameRules\"",
        "\"metadata\"",
        "\"turn\"",
        "\"startingPosition\"",
    ]
    .iter()
    .any(|k| body.starts_with(k))
}

/// ICN, not PGN: after the tags comes a turn (`w `, `b `, `w:b`), a piece on a square
/// (`K5,1`) or a move between squares (`4,2>4,4`), where PGN has move numbers and SAN.
fn looks_like_icn(text: &str) -> bool {
    let mut rest = text;
    while rest.starts_with('[') {
        match rest.find(']') {
            Some(i) => rest = rest[i + 1..].trim_start(),
            None => return false,
        }
    }
    let token = rest.split_whitespace().next().unwrap_or("");
    if matches!(token, "w" | "b" | "w:b" | "b:w") {
        return true;
    }
    // A PGN game that opens with its result (an unplayed draw, `1/2-1/2`, or `1/2` as PGN
    // reads it) is no move rule `N/M`.
    if token == "1/2" || crate::chess::GameResult::parse(token).is_some() {
        return false;
    }
    let letters = token.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let digits = letters.trim_start_matches('-');
    let first_number = digits.trim_start_matches(|c: char| c.is_ascii_digit());
    first_number.len() < digits.len()
        && (first_number.starts_with(',') || first_number.starts_with('/'))
        && !token.contains('.')
}

/// Whether a text opens with a move that is not a null move, followed by the end, another
/// such move, a move number or a result: movetext without numbers (`e4 e5 *`), and not a
/// word that happens to be SAN (`a4 paper`, `-- note`).
fn opens_with_moves(text: &str) -> bool {
    use shakmaty::san::{San, SanPlus};
    let is_move = |word: &str| {
        SanPlus::from_ascii(word.as_bytes()).is_ok_and(|m| !matches!(m.san, San::Null))
    };
    let mut words = text.split_whitespace();
    words.next().is_some_and(is_move)
        && words.next().is_none_or(|word| {
            is_move(word)
                || crate::chess::GameResult::parse(word).is_some()
                || word.starts_with(|c: char| c.is_ascii_digit()) && word.ends_with('.')
        })
}

/// Whether PGN follows the first `}` of a text that opens with `{`: tags, a move number,
/// moves, a result or a `;` comment, as after a comment before a game's first move.
fn pgn_after_comment(text: &str) -> bool {
    let Some((_, rest)) = text.split_once('}') else {
        return false;
    };
    let rest = rest.trim_start();
    rest.starts_with(['[', ';', '*'])
        || rest.starts_with(|c: char| c.is_ascii_digit())
        || opens_with_moves(rest)
}

/// Whether a text opens a JSON object (`{` then `}` or a key and its colon), not a PGN
/// comment (`{Good}`, `{"Quoted" he said}`).
fn json_object_start(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('{').map(str::trim_start) else {
        return false;
    };
    if rest.starts_with('}') {
        return true;
    }
    let Some(key) = rest.strip_prefix('"') else {
        return false;
    };
    // The key's closing quote (one not escaped), then a colon.
    let mut escaped = false;
    for (i, c) in key.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return key[i + 1..].trim_start().starts_with(':'),
            _ => {}
        }
    }
    // A key longer than the text looked at: JSON's is the likelier reading.
    true
}

/// The first byte of the value of the first line's top-level `"moves"` key: `{` for EGD, `[`
/// for jsonchess. Found by a scan that skips strings, so a tag value cannot fool it.
fn moves_opener(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let key = bytes.get(start..i)?;
                i += 1;
                if depth == 1 && key == b"moves" {
                    let rest = &bytes[i.min(bytes.len())..];
                    let after_colon = rest.iter().position(|&b| b == b':')?;
                    return rest[after_colon + 1..]
                        .iter()
                        .copied()
                        .find(|b| !b.is_ascii_whitespace());
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'\n' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The value of an option given by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A switch.
    Bool(bool),
    /// A name or a number written as text (`"compact"`, `"2.2"`).
    Text(String),
}

/// The options of a conversion, for every format at once (those of other formats are not
/// used). [`Options::set`] sets one by its name.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Shogi input's encoding (detected when `None`).
    pub encoding: Option<Encoding>,
    /// Game JSON.
    pub json: json::WriteOptions,
    /// EGD.
    pub egd: egd::WriteOptions,
    /// ICN.
    pub icn: short::WriteOptions,
    /// ICN's long form.
    pub icn_json: long::WriteOptions,
    /// KIF (always UTF-8 here).
    pub kif: kif::WriteOptions,
    /// CSA (V2.2 too in UTF-8 here).
    pub csa: csa::WriteOptions,
    /// Western shogi notation.
    pub western: western::WriteOptions,
    /// JKF.
    pub jkf: jkf::WriteOptions,
}

impl Options {
    /// The option names [`Options::set`] takes.
    pub const NAMES: [&'static str; 15] = [
        "encoding",
        "egd_extended",
        "pretty",
        "fens",
        "moves",
        "single_line",
        "position",
        "dialect",
        "spaces",
        "move_numbers",
        "comments",
        "legacy_moves",
        "csa_version",
        "western_squares",
        "mark_declined",
    ];

    /// Sets an option by its snake-case name (see [`Options::NAMES`]); an unknown name or a
    /// value of the wrong kind is an error that says what it takes.
    ///
    /// ```
    /// use notate::convert::{OptionValue, Options};
    /// use notate::infinite::short::MoveStyle;
    /// let mut options = Options::default();
    /// options.set("moves", OptionValue::Text("compact".into()))?;
    /// assert_eq!(options.icn.moves, MoveStyle::Compact);
    /// assert!(options.set("colour", OptionValue::Bool(true)).is_err());
    /// # Ok::<(), notate::Error>(())
    /// ```
    pub fn set(&mut self, name: &str, value: OptionValue) -> Result<(), Error> {
        let flag = |value: &OptionValue| match value {
            OptionValue::Bool(b) => Ok(*b),
            OptionValue::Text(t) => Err(usage(format!("{name}: true or false, not {t:?}"))),
        };
        let text = |value: &OptionValue| match value {
            OptionValue::Text(t) => Ok(t.clone()),
            OptionValue::Bool(b) => Err(usage(format!("{name}: a name, not {b}"))),
        };
        match name {
            "encoding" => {
                self.encoding = Some(match text(&value)?.to_ascii_lowercase().as_str() {
                    "utf-8" | "utf8" => Encoding::Utf8,
                    "shift_jis" | "shift-jis" | "sjis" | "cp932" => Encoding::ShiftJis,
                    "euc-jp" | "eucjp" => Encoding::EucJp,
                    other => {
                        return Err(usage(format!(
                            "encoding {other:?}: utf-8, shift_jis or euc-jp"
                        )))
                    }
                })
            }
            "egd_extended" => self.egd.extended = flag(&value)?,
            "pretty" => {
                let pretty = flag(&value)?;
                self.egd.pretty = pretty;
                self.jkf.pretty = pretty;
            }
            "fens" => self.json.fens = flag(&value)?,
            "moves" => {
                self.icn.moves = match text(&value)?.as_str() {
                    "pretty" => MoveStyle::Pretty,
                    "compact" => MoveStyle::Compact,
                    "minimal" => MoveStyle::Minimal,
                    other => {
                        return Err(usage(format!(
                            "moves {other:?}: pretty, compact or minimal"
                        )))
                    }
                }
            }
            "single_line" => {
                let one_line = flag(&value)?;
                self.icn.single_line = one_line;
                self.icn_json.pretty = !one_line;
            }
            "position" => self.icn.position = flag(&value)?,
            "dialect" => {
                let dialect = match text(&value)?.as_str() {
                    "2024" => Dialect::V2024,
                    "2025" => Dialect::V2025,
                    other => return Err(usage(format!("dialect {other:?}: 2024 or 2025"))),
                };
                self.icn.dialect = dialect;
                self.icn_json.dialect = dialect;
            }
            "spaces" => self.icn.spaces = Some(flag(&value)?),
            "move_numbers" => self.icn.move_numbers = Some(flag(&value)?),
            "comments" => self.icn.comments = flag(&value)?,
            "legacy_moves" => self.icn_json.legacy_moves = flag(&value)?,
            "csa_version" => {
                self.csa.version = match text(&value)?.as_str() {
                    "2.2" => csa::CsaVersion::V22,
                    "3.0" => csa::CsaVersion::V30,
                    other => return Err(usage(format!("csa_version {other:?}: 2.2 or 3.0"))),
                }
            }
            "western_squares" => {
                self.western.squares = match text(&value)?.as_str() {
                    "letter" => western::SquareStyle::Letter,
                    "digit" => western::SquareStyle::Digit,
                    other => {
                        return Err(usage(format!("western_squares {other:?}: letter or digit")))
                    }
                }
            }
            "mark_declined" => self.kif.mark_declined = flag(&value)?,
            other => {
                return Err(usage(format!(
                    "unknown option {other:?}: {}",
                    Options::NAMES.join(", ")
                )))
            }
        }
        Ok(())
    }
}

/// A game of any family.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A chess game, replayed.
    Chess(ChessGame),
    /// An infinite chess game, as read (boxed: it is the largest).
    Infinite(Box<infinite::Game>),
    /// A shogi record, replayed.
    Shogi(Record),
}

/// Writes one game at the end of a buffer.
type WriteGame<G> = Box<dyn FnMut(&G, &mut Vec<u8>) -> Result<(), Error> + Send>;

fn boxed<W: WriteFormat + Send + 'static>(mut writer: W) -> WriteGame<W::Game> {
    Box::new(move |game, out| writer.write_game(game, out))
}

/// The writer of a run, for the input's family.
enum AnyWriter {
    Chess(WriteGame<ChessGame>),
    Infinite(WriteGame<infinite::Game>),
    Shogi(WriteGame<Record>),
}

/// One conversion, its formats and options checked once: reads games of one format and
/// writes them in another of the same family (or only reads and replays them).
pub struct Converter {
    from: Format,
    to: Option<Format>,
    read: encoding::ReadOptions,
    writer: AnyWriter,
}

impl Converter {
    /// A conversion from `from` to `to` (`None`: read and replay only, as `notate check`).
    /// Refuses a format that is not read (or not written), and formats of two families.
    pub fn new(from: Format, to: Option<Format>, options: &Options) -> Result<Converter, Error> {
        if !from.is_read() {
            return Err(usage(format!("{from} is written, not read")));
        }
        if let Some(to) = to {
            if !to.is_written() {
                return Err(usage(format!("{to} is read, not written")));
            }
            if !to.holds(from.family()) {
                return Err(usage(format!(
                    "{from} holds {} games: it cannot be converted to {to}",
                    from.family().name()
                )));
            }
        }
        let positions = |notation| boxed(Positions::new(positions::WriteOptions { notation }));
        let writer = match from.family() {
            Family::Chess => AnyWriter::Chess(match to {
                None => Box::new(|_, _| Ok(())),
                Some(Format::Pgn) => boxed(Pgn::default()),
                Some(Format::Json) => boxed(Json::new(options.json)),
                Some(Format::Egd) => boxed(Egd::new(options.egd)),
                Some(Format::Tracks) => boxed(Tracks::default()),
                Some(Format::View) => boxed(ChessView::default()),
                Some(Format::Jsonchess) => boxed(Jsonchess),
                Some(Format::Uci) => boxed(Uci::default()),
                Some(Format::Fen) => positions(PositionFormat::Fen),
                Some(Format::Epd) => positions(PositionFormat::Epd),
                Some(other) => unreachable!("{other} is not chess"),
            }),
            Family::Infinite => AnyWriter::Infinite(match to {
                None => Box::new(|game, _| replay::replay(game).map(|_| ())),
                Some(Format::Icn) => boxed(Icn::new(options.icn)),
                Some(Format::IcnJson) => boxed(IcnJson::new(options.icn_json)),
                Some(Format::Tracks) => boxed(infinite::tracks::Tracks),
                Some(Format::View) => boxed(infinite::view::View::default()),
                Some(other) => unreachable!("{other} is not infinite chess"),
            }),
            Family::Shogi => AnyWriter::Shogi(match to {
                None => Box::new(|_, _| Ok(())),
                Some(Format::Sfen) => boxed(sfen::Sfen),
                Some(Format::Usi) => boxed(usi::Usi),
                Some(Format::Kif) => boxed(kif::Kif::new(kif::WriteOptions {
                    encoding: Encoding::Utf8,
                    ..options.kif
                })),
                Some(Format::Ki2) => boxed(ki2::Ki2::new(ki2::WriteOptions {
                    encoding: Encoding::Utf8,
                })),
                // Text, as every output here: V2.2's Shift_JIS is for a file (the command
                // line's `--to-encoding`); a binding's string holds the characters.
                Some(Format::Csa) => {
                    let mut csa = csa::Csa::new(options.csa);
                    Box::new(move |record, out| csa.write_text(record, out))
                }
                Some(Format::Western) => boxed(western::Western::new(options.western)),
                Some(Format::Jkf) => boxed(jkf::Jkf::new(options.jkf)),
                Some(Format::Tracks) => boxed(shogi_tracks::Tracks::default()),
                Some(Format::View) => boxed(shogi_view::View::default()),
                Some(other) => unreachable!("{other} is not shogi"),
            }),
        };
        Ok(Converter {
            from,
            to,
            read: encoding::ReadOptions {
                encoding: options.encoding,
            },
            writer,
        })
    }

    /// The input format.
    pub fn from(&self) -> Format {
        self.from
    }

    /// The output format (`None`: only read and replay).
    pub fn to(&self) -> Option<Format> {
        self.to
    }

    /// The games of `input`, in order, each error naming its game's number; an error a
    /// writer then finds in a game is placed by [`Games::place`].
    pub fn read<'a>(&self, input: &'a [u8]) -> Games<'a> {
        fn all<'a, F: ReadFormat + 'a>(
            input: &'a [u8],
            options: F::ReadOptions,
            wrap: fn(F::Game) -> AnyGame,
        ) -> Box<dyn Source + 'a> {
            Box::new(Wrapped::<F, _> {
                reader: Reader::with_options(input, options),
                wrap,
            })
        }
        let read = self.read;
        let games = match self.from {
            Format::Pgn => all::<Pgn>(input, Default::default(), AnyGame::Chess),
            Format::Json => all::<Json>(input, Default::default(), AnyGame::Chess),
            Format::Egd => all::<Egd>(input, Default::default(), AnyGame::Chess),
            Format::Jsonchess => all::<Jsonchess>(input, Default::default(), AnyGame::Chess),
            Format::Icn => all::<Icn>(input, Default::default(), |g| {
                AnyGame::Infinite(Box::new(g))
            }),
            Format::IcnJson => all::<IcnJson>(input, Default::default(), |g| {
                AnyGame::Infinite(Box::new(g))
            }),
            Format::Sfen => all::<sfen::Sfen>(input, read, AnyGame::Shogi),
            Format::Usi => all::<usi::Usi>(input, read, AnyGame::Shogi),
            Format::Kif => all::<kif::Kif>(input, read, AnyGame::Shogi),
            Format::Ki2 => all::<ki2::Ki2>(input, read, AnyGame::Shogi),
            Format::Csa => all::<csa::Csa>(input, read, AnyGame::Shogi),
            Format::Western => all::<western::Western>(input, read, AnyGame::Shogi),
            Format::Jkf => all::<jkf::Jkf>(input, read, AnyGame::Shogi),
            Format::ShogiBook => all::<book::Book>(input, read, AnyGame::Shogi),
            Format::Tracks | Format::View | Format::Uci | Format::Fen | Format::Epd => {
                unreachable!("Converter::new refuses formats that are not read")
            }
        };
        Games {
            games,
            locator: Locator::new(input, 1),
            // A shogi writer's errors name a ply, not a place, and a CSA record may hold
            // several games: a shogi game's origin could not be told from its record's.
            placed: self.from.family() != Family::Shogi,
        }
    }

    /// Writes one game at the end of `out` (nothing when only checking). On an error, what
    /// was written of it is cut.
    pub fn write(&mut self, game: &AnyGame, out: &mut Vec<u8>) -> Result<(), Error> {
        let mark = out.len();
        let result = match (&mut self.writer, game) {
            (AnyWriter::Chess(write), AnyGame::Chess(game)) => write(game, out),
            (AnyWriter::Infinite(write), AnyGame::Infinite(game)) => write(game, out),
            (AnyWriter::Shogi(write), AnyGame::Shogi(record)) => write(record, out),
            _ => Err(usage("a game of another family than the converter's")),
        };
        if result.is_err() {
            out.truncate(mark);
        }
        result
    }

    /// What a game says without failing: a shogi record's warnings (a record that lies
    /// about its encoding), and variations or a start's move number the output cannot hold.
    pub fn notes(&self, game: &AnyGame) -> Vec<Error> {
        match game {
            AnyGame::Shogi(record) => {
                let mut notes = record.warnings.clone();
                if matches!(
                    self.to,
                    Some(Format::Sfen | Format::Usi | Format::Csa | Format::Western)
                ) {
                    notes.extend(record.unwritten_variations());
                }
                if matches!(self.to, Some(Format::Csa | Format::Jkf)) {
                    notes.extend(record.unwritten_move_number());
                }
                notes
            }
            AnyGame::Chess(_) | AnyGame::Infinite(_) => Vec::new(),
        }
    }
}

/// The games of a [`Converter`]'s input, in order (see [`Converter::read`]).
pub struct Games<'a> {
    games: Box<dyn Source + 'a>,
    locator: Locator<'a>,
    placed: bool,
}

impl Games<'_> {
    /// Places an error a writer found in the game last given, as the command line places
    /// it: a move's error at the move, an error of the whole game at its start.
    ///
    /// ```
    /// use notate::convert::{Converter, Format, Options};
    /// let input = b"1. e4 *\n\n1. e4 -- 2. d4 *\n";
    /// let mut converter = Converter::new(Format::Pgn, Some(Format::Egd), &Options::default())?;
    /// let mut games = converter.read(input);
    /// let mut out = Vec::new();
    /// converter.write(&games.next().unwrap()?, &mut out)?;
    /// let mut error = converter.write(&games.next().unwrap()?, &mut out).unwrap_err();
    /// games.place(&mut error);
    /// assert_eq!((error.place.unwrap().line, error.place.unwrap().column), (3, 7));
    /// # Ok::<(), notate::Error>(())
    /// ```
    pub fn place(&mut self, error: &mut Error) {
        if let (true, Some(origin)) = (self.placed, self.games.origin()) {
            origin.place(error, &mut self.locator);
        }
    }
}

impl Games<'_> {
    /// What was noticed reading the game last given (or failed) without failing it, placed
    /// and numbered (PGN's skipped tokens); taken.
    ///
    /// ```
    /// use notate::convert::{Converter, Format, Options};
    /// let converter = Converter::new(Format::Pgn, Some(Format::Uci), &Options::default())?;
    /// let mut games = converter.read(b"1. e4 ^5 e5 *\n");
    /// games.next();
    /// let warnings = games.take_warnings();
    /// assert_eq!(warnings[0].token.as_deref(), Some("^5"));
    /// assert_eq!(warnings[0].place.unwrap().column, 7);
    /// # Ok::<(), notate::Error>(())
    /// ```
    pub fn take_warnings(&mut self) -> Vec<Error> {
        self.games.take_warnings()
    }
}

impl Iterator for Games<'_> {
    type Item = Result<AnyGame, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.games.next()
    }
}

/// A reader of one format whose games are wrapped as [`AnyGame`], and that says where the
/// last one came from.
trait Source: Iterator<Item = Result<AnyGame, Error>> {
    fn origin(&self) -> Option<Origin>;
    fn take_warnings(&mut self) -> Vec<Error>;
}

struct Wrapped<F: ReadFormat, R: std::io::Read + Send> {
    reader: Reader<F, R>,
    wrap: fn(F::Game) -> AnyGame,
}

impl<F: ReadFormat, R: std::io::Read + Send> Iterator for Wrapped<F, R> {
    type Item = Result<AnyGame, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.reader.next()?.map(self.wrap))
    }
}

impl<F: ReadFormat, R: std::io::Read + Send> Source for Wrapped<F, R> {
    fn origin(&self) -> Option<Origin> {
        self.reader.origin()
    }

    fn take_warnings(&mut self) -> Vec<Error> {
        self.reader.take_warnings()
    }
}

#[cfg(test)]
mod tests {
    use super::{moves_opener, Format};

    #[test]
    fn pgn_that_opens_like_icn_or_json_is_pgn() {
        for text in [
            "[Event \"a\"]\n\n1/2-1/2\n\n[Event \"b\"]\n\n1. e4 e5 1/2-1/2\n",
            "1/2-1/2\n",
            "[Event \"x\"]\n\n1/2 *\n",
            "{} 1. e4 *",
            "{ } 1. e4 *",
            "{\"Note\": see below} 1. e4 *",
            "{\"Note\": \"see below\"} [Event \"x\"] 1. e4 *",
            "*",
            "$1 e4 *",
        ] {
            assert_eq!(
                Format::detect(text.as_bytes()).ok(),
                Some(Format::Pgn),
                "{text}"
            );
        }
        // Still ICN and JSON: a move rule, a game, and JSON of no format notate reads.
        assert_eq!(Format::detect(b"0/100 K5,1|k5,8").ok(), Some(Format::Icn));
        assert_eq!(
            Format::detect(br#"{"metadata":{},"moves":[]}"#).ok(),
            Some(Format::IcnJson)
        );
        // JSON, broken or not, that no PGN follows is said to be JSON of no known format.
        for json in [
            r#"{"Note": "see below"}"#,
            r#"{"foo": bar}"#,
            r#"{"foo": 1,}"#,
            "{}",
        ] {
            assert!(Format::detect(json.as_bytes()).is_err(), "{json}");
        }
        assert!(Format::detect(b"{\"a\":1}\n{\"b\":2}\n").is_err());
        // JSON cut where the head ends is taken for JSON.
        let long = format!(r#"{{"Note": "{}"#, "x".repeat(5000));
        assert!(Format::detect(long.as_bytes()).is_err());
    }

    #[test]
    fn shogi_records_are_told_by_their_first_lines() {
        for (text, format) in [
            (
                "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
                Format::Usi,
            ),
            ("$EVENT:x\nPI\n+\n+7776FU\n", Format::Csa),
            ("' a comment\nPI\n+\n", Format::Csa),
            ("$1 e4 *", Format::Pgn),
        ] {
            assert_eq!(Format::detect(text.as_bytes()).ok(), Some(format), "{text}");
        }
        // Western notation opens a game from another start so, and is never guessed.
        let western =
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS1L w - 1\n1. P-8d P-7f\n";
        assert!(Format::detect(western.as_bytes()).is_err());
    }

    #[test]
    fn moves_opener_skips_strings() {
        assert_eq!(
            moves_opener(r#"{"game_tags":{"moves":"["},"moves":{"1w":{}}}"#),
            Some(b'{')
        );
        assert_eq!(
            moves_opener(r#"{"game_tags":{"a\"moves":"x"},"moves": ["1,0"]}"#),
            Some(b'[')
        );
        assert_eq!(moves_opener(r#"{"game_tags":{}}"#), None);
    }
}
