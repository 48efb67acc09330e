//! PGN: reading (split → parse → replay) and writing export format.
//!
//! ```
//! use notate::chess::pgn;
//! let games = pgn::read_str("[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 *\n\n1. d4 *").unwrap();
//! assert_eq!(games.len(), 2);
//! assert!(pgn::to_string(&games[1]).unwrap().ends_with("1. d4 *\n\n"));
//! ```
//!
//! The chunk-level reading the `notate` command runs on every core ([`GameSplitter`],
//! [`read_chunk`], [`replay_chunk`], [`ReadGame`], [`GameParser`]) is public for other pipelines; a program
//! that reads games uses [`Reader`] or [`read_str`].

/// The bytes PGN reads as white space inside a line, as a pattern: ASCII's white space
/// without the line feed, and with the line tabulation, which Rust's `is_ascii_whitespace`
/// leaves out. The splitter, the parser and the look for games without tags must agree on
/// it, or a game is cut where the parser reads on (a byte-order mark is blank too, where a
/// word would start: each reader says how it takes one).
macro_rules! blank_in_line {
    () => {
        b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c'
    };
}

/// PGN's white space, the line feed included, as a pattern (see `blank_in_line`).
macro_rules! white_space {
    () => {
        blank_in_line!() | b'\n'
    };
}

mod find;
mod line_games;
mod parse;
mod split;
mod write;

use std::io::Read;

pub use parse::{decode_text, GameParser};
pub use split::{GameSplitter, Keep, PieceLetters, ReadOptions};
pub use write::{Pgn, WriteOptions, SEVEN_TAG_ROSTER};

use super::game::ChessGame;
use super::replay::replay;
use crate::chunk::Chunk;
use crate::format::{read_verbs, write_verbs, Origin, ReadFormat, WriteFormat};

use super::error::FailedGame;
use super::game::WrittenGame;
use crate::{Error, ErrorKind};

/// The splitter of [`Pgn`]'s readers: chunks of 128 KiB, the first of 16 KiB (see
/// [`GameSplitter::starting_at`]). The last chunks of a file are what one thread reads
/// while the others have nothing left: chunks of 256 KiB made a 1 MB file 12–14 % slower on
/// two threads (`read_pgn` in Python), and on 20 MB 128 KiB is as fast.
///
/// ```
/// let mut splitter = notate::chess::pgn::splitter(&b"1. e4 *\n"[..], Default::default());
/// assert_eq!(splitter.next_chunk().unwrap().unwrap().games.len(), 1);
/// ```
pub fn splitter<R: Read>(input: R, options: ReadOptions) -> GameSplitter<R> {
    GameSplitter::with_limits(input, 128 << 10, options).starting_at(FIRST_CHUNK_BYTES)
}

/// The first chunk a reader of PGN cuts when it starts small ([`GameSplitter::starting_at`]):
/// every thread has work within the first milliseconds.
pub const FIRST_CHUNK_BYTES: usize = 16 << 10;

/// One game read from a stream, or why it could not be read, with where it starts.
#[derive(Debug)]
pub struct ReadGame {
    /// The game or the failure (whose error is placed in the whole stream).
    pub game: Result<WrittenGame, FailedGame>,
    /// Byte offset of the game's first byte in its chunk.
    pub start: usize,
    /// What was skipped while reading the game (see [`GameParser::take_warnings`]), placed.
    pub warnings: Vec<Error>,
}

/// Reads the games of a chunk in order, with error places in the whole stream.
///
/// ```
/// use notate::chess::pgn::{read_chunk, GameSplitter, ReadOptions};
/// let mut splitter = GameSplitter::new(&b"1. e4 e5 *\n\n[X \"y\"]\n1. Nf9 *"[..], 1 << 16);
/// let chunk = splitter.next_chunk().unwrap().unwrap();
/// let games = read_chunk(&chunk, ReadOptions::default());
/// assert!(games[0].game.is_ok());
/// let failed = games[1].game.as_ref().unwrap_err();
/// assert_eq!(failed.error.place.unwrap().line, 4);
/// ```
pub fn read_chunk(chunk: &Chunk, limits: ReadOptions) -> Vec<ReadGame> {
    let mut out = Vec::new();
    read_chunk_into(chunk, limits, &mut out);
    out
}

/// Reads and replays the games of a chunk, as [`Pgn`]'s readers give them, each with the
/// bytes of the chunk it was read from: from its first byte to the next game's (a text that
/// reads as the same game, for a caller that reads it again for more, such as its comments).
///
/// ```
/// use notate::chess::pgn::{replay_chunk, GameSplitter, ReadOptions};
/// let mut splitter = GameSplitter::new(&b"1. e4 e5 *\n\n[X \"y\"]\n1. Nf9 *"[..], 1 << 16);
/// let chunk = splitter.next_chunk().unwrap().unwrap();
/// let games: Vec<_> = replay_chunk(&chunk, ReadOptions::default()).collect();
/// assert_eq!(&chunk.bytes[games[0].1.clone()], b"1. e4 e5 *\n\n");
/// assert_eq!(games[1].0.as_ref().unwrap_err().place.unwrap().line, 4);
/// ```
pub fn replay_chunk(
    chunk: &Chunk,
    options: ReadOptions,
) -> impl Iterator<Item = (Result<ChessGame, Error>, std::ops::Range<usize>)> + '_ {
    replay_chunk_with_warnings(chunk, options).map(|(game, range, _)| (game, range))
}

/// [`replay_chunk`], with each game's warnings (what was skipped reading it, placed).
pub fn replay_chunk_with_warnings(
    chunk: &Chunk,
    options: ReadOptions,
) -> impl Iterator<Item = (Result<ChessGame, Error>, std::ops::Range<usize>, Vec<Error>)> + '_ {
    let reads = read_chunk(chunk, options);
    let ends: Vec<usize> = reads
        .iter()
        .skip(1)
        .map(|read| read.start)
        .chain([chunk.bytes.len()])
        .collect();
    let mut locator = chunk.locator();
    reads.into_iter().zip(ends).map(move |(read, end)| {
        let range = read.start..end;
        let game = read.game.and_then(replay).map_err(|failed| {
            let mut error = failed.error;
            error.locate(&mut locator);
            error
        });
        (game, range, read.warnings)
    })
}

/// [`read_chunk`] into `out` (appended), so that a reader of many chunks reuses one vector:
/// a chunk's games take tens of kilobytes, and allocating and freeing them per chunk makes
/// the allocator give memory back to the system and fault it in again.
pub fn read_chunk_into(chunk: &Chunk, limits: ReadOptions, out: &mut Vec<ReadGame>) {
    let mut locator = chunk.locator();
    for (index, range) in chunk.games.iter().enumerate() {
        let mut parser = GameParser::new(&chunk.bytes, range.clone(), limits);
        if chunk.oversized.contains(&index) {
            let tags = match parser.next_game() {
                Some(Ok(game)) => game.tags,
                Some(Err(failed)) => failed.tags,
                None => Default::default(),
            };
            // Its head may read cleanly: validating then kept no names for the message.
            let tags = if limits.validates_only() {
                parser.tags_for_messages()
            } else {
                tags
            };
            let mut error = Error::at(
                range.start,
                format!("game longer than {} bytes, skipped", limits.max_game_bytes),
            )
            .with_kind(ErrorKind::TooLarge);
            error.locate(&mut locator);
            out.push(ReadGame {
                game: Err(FailedGame { tags, error }),
                start: range.start,
                warnings: Vec::new(),
            });
            continue;
        }
        while let Some(mut game) = parser.next_game() {
            let start = parser.game_start();
            let mut warnings = parser.take_warnings();
            for warning in &mut warnings {
                warning.locate(&mut locator);
            }
            if let Err(failed) = &mut game {
                failed.error.locate(&mut locator);
            }
            out.push(ReadGame {
                game,
                start,
                warnings,
            });
        }
    }
}

impl ReadFormat for Pgn {
    type Game = ChessGame;
    type ReadOptions = ReadOptions;
    type Splitter<R: Read + Send> = GameSplitter<R>;

    fn splitter<R: Read + Send>(input: R, options: &ReadOptions) -> GameSplitter<R> {
        splitter(input, *options)
    }

    fn read_record(record: &[u8], options: &ReadOptions) -> Vec<Result<ChessGame, Error>> {
        let chunk = Chunk {
            bytes: record.to_vec(),
            games: std::iter::once(0..record.len()).collect(),
            ..Chunk::default()
        };
        let mut out = Vec::new();
        Self::read_chunk(&chunk, options, &mut out);
        out
    }

    /// PGN cuts its own chunks (a range may hold several games): every game is read and
    /// replayed, and its error placed in the stream.
    fn read_chunk(chunk: &Chunk, options: &ReadOptions, out: &mut Vec<Result<ChessGame, Error>>) {
        out.extend(replay_chunk(chunk, *options).map(|(game, _)| game));
    }

    /// Moves' offsets count from the chunk's start, as PGN reads a chunk as one text.
    fn read_chunk_with_origins(
        chunk: &Chunk,
        options: &ReadOptions,
        out: &mut Vec<Result<ChessGame, Error>>,
        origins: &mut Vec<Option<Origin>>,
    ) {
        Self::read_chunk_with_warnings(chunk, options, out, origins, &mut Vec::new());
    }

    fn read_chunk_with_warnings(
        chunk: &Chunk,
        options: &ReadOptions,
        out: &mut Vec<Result<ChessGame, Error>>,
        origins: &mut Vec<Option<Origin>>,
        warnings: &mut Vec<Vec<Error>>,
    ) {
        let first_byte = chunk.first_byte as usize;
        for (game, range, noticed) in replay_chunk_with_warnings(chunk, *options) {
            out.push(game);
            origins.push(Some(Origin {
                start: first_byte + range.start,
                moves_from: first_byte,
            }));
            warnings.push(noticed);
        }
    }
}

impl WriteFormat for Pgn {
    type Game = ChessGame;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> Pgn {
        Pgn::default()
    }

    fn write_game(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        self.write(game, out);
        Ok(())
    }
}

read_verbs!(Pgn, ChessGame, "PGN");
write_verbs!(Pgn, ChessGame, "PGN");

/// Reads every game of a text (bytes or a string) without replaying it (each a game as written, or a failure
/// with the tags read before it): for tools that look at the text of a game.
///
/// ```
/// use notate::chess::pgn::read_written;
/// let games = read_written("1. e4 e5 2. Ke3 *");
/// let written = games[0].as_ref().unwrap();
/// assert_eq!(written.moves.plies[2].mv.san.as_str(), "Ke3");
/// ```
pub fn read_written(text: impl AsRef<[u8]>) -> Vec<Result<WrittenGame, FailedGame>> {
    let mut splitter = GameSplitter::new(text.as_ref(), 256 << 10);
    let mut games = Vec::new();
    while let Some(chunk) = splitter
        .next_chunk()
        .expect("reading from memory cannot fail")
    {
        games.extend(
            read_chunk(&chunk, ReadOptions::default())
                .into_iter()
                .map(|r| r.game),
        );
    }
    games
}
