//! PGN: reading (split → parse) and writing.

mod find;
mod parse;
mod split;
mod write;

use std::io::Read;

pub use parse::{decode_text, GameParser};
pub use split::{GameSplitter, ReadOptions};

use crate::chunk::Chunk;
pub use write::{write_pgn, PgnWriter};

use super::error::{FailedGame, GameError, Locator, Place};
use super::game::WrittenGame;

/// One game read from a stream, or why it could not be read, with where it starts.
#[derive(Debug)]
pub struct ReadGame {
    /// The game or the failure.
    pub game: Result<WrittenGame, FailedGame>,
    /// The place of the error (when there is one), in the whole stream.
    pub error_place: Option<Place>,
    /// Byte offset of the game's first byte in its chunk.
    pub start: usize,
    /// What was skipped while reading the game (see [`GameParser::take_warnings`]).
    pub warnings: Vec<(Place, GameError)>,
}

/// Reads the games of a chunk in order, with error places in the whole stream.
///
/// ```
/// use notate::chess::pgn::{read_chunk, GameSplitter, ReadOptions};
/// let mut splitter = GameSplitter::new(&b"1. e4 e5 *\n\n[X \"y\"]\n1. Nf9 *"[..], 1 << 16);
/// let chunk = splitter.next_chunk().unwrap().unwrap();
/// let games = read_chunk(&chunk, ReadOptions::default());
/// assert!(games[0].game.is_ok());
/// assert_eq!(games[1].error_place.unwrap().line, 4);
/// ```
pub fn read_chunk(chunk: &Chunk, limits: ReadOptions) -> Vec<ReadGame> {
    let mut out = Vec::new();
    let mut locator = Locator::new(&chunk.bytes, chunk.first_line);
    for (index, range) in chunk.games.iter().enumerate() {
        let mut parser = GameParser::new(&chunk.bytes, range.clone(), limits);
        if chunk.oversized.contains(&index) {
            let tags = match parser.next_game() {
                Some(Ok(game)) => game.tags,
                Some(Err(failed)) => failed.tags,
                None => Default::default(),
            };
            // Its head may read cleanly: validating then kept no names for the message.
            let tags = if limits.validate_only {
                parser.tags_for_messages()
            } else {
                tags
            };
            let error = GameError::new(
                range.start,
                format!("game longer than {} bytes, skipped", limits.max_game_bytes),
            );
            out.push(ReadGame {
                error_place: Some(locator.place(error.offset)),
                game: Err(FailedGame { tags, error }),
                start: range.start,
                warnings: Vec::new(),
            });
            continue;
        }
        while let Some(game) = parser.next_game() {
            let start = parser.game_start();
            let warnings: Vec<_> = parser
                .take_warnings()
                .into_iter()
                .map(|w| (locator.place(w.offset), w))
                .collect();
            let error_place = game.as_ref().err().map(|f| locator.place(f.error.offset));
            out.push(ReadGame {
                game,
                error_place,
                start,
                warnings,
            });
        }
    }
    out
}

/// Reads every game of a stream, one at a time, in order (single-threaded; the `notate`
/// command does the same on all cores).
///
/// ```
/// use notate::chess::pgn::PgnReader;
/// let pgn = "[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 *\n";
/// let games: Vec<_> = PgnReader::new(pgn.as_bytes()).collect::<Result<_, _>>().unwrap();
/// assert_eq!(games.len(), 2);
/// assert!(games[1].game.is_ok());
/// ```
pub struct PgnReader<R> {
    splitter: GameSplitter<R>,
    pending: std::collections::VecDeque<ReadGame>,
    limits: ReadOptions,
}

impl<R: Read> PgnReader<R> {
    /// A reader with default limits.
    pub fn new(input: R) -> Self {
        Self::with_limits(input, ReadOptions::default())
    }

    /// A reader with the given limits.
    pub fn with_limits(input: R, limits: ReadOptions) -> Self {
        PgnReader {
            splitter: GameSplitter::with_limits(input, 256 << 10, limits),
            pending: Default::default(),
            limits,
        }
    }
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = std::io::Result<ReadGame>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(game) = self.pending.pop_front() {
                return Some(Ok(game));
            }
            match self.splitter.next_chunk() {
                Ok(Some(chunk)) => self.pending.extend(read_chunk(&chunk, self.limits)),
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// Reads all games of a string (each a game or a failure), for tests and small inputs.
///
/// ```
/// use notate::chess::pgn::read_pgn_games;
/// let games = read_pgn_games("1. e4 Nf9 *");
/// let failed = games[0].as_ref().unwrap_err();
/// assert_eq!(failed.error.token.as_deref(), Some("Nf9"));
/// ```
pub fn read_pgn_games(text: &str) -> Vec<Result<WrittenGame, FailedGame>> {
    PgnReader::new(text.as_bytes())
        .map(|r| r.expect("reading from memory cannot fail").game)
        .collect()
}
