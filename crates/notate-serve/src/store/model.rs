//! What a store keeps and the one trait both databases implement.

use std::path::PathBuf;

use anyhow::{Context, Result};
use notate::chess::jsonchess::PackedMove;
use notate::chess::pgn;
use notate::chess::rows::{RowBatch, RowWriter};
use notate::protocol::glicko2::{PendingResults, Rating};
use notate::protocol::messages::{ByColour, TimeOptions};

use crate::game::Game;

/// Where the server keeps its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, created on the first start.
    Sqlite(PathBuf),
    /// A PostgreSQL database (`postgres://user@host:port/db`), shared by every server process
    /// started on it.
    Postgres(String),
}

impl Database {
    /// `postgres://…` or `postgresql://…` is PostgreSQL, anything else a SQLite file.
    ///
    /// ```
    /// use notate_serve::Database;
    /// assert!(matches!(Database::parse("postgres://me@localhost/chess"), Database::Postgres(_)));
    /// assert!(matches!(Database::parse("games.sqlite"), Database::Sqlite(_)));
    /// ```
    pub fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.to_string())
        } else {
            Database::Sqlite(PathBuf::from(text))
        }
    }
}

/// A player as stored.
pub struct StoredPlayer {
    pub id: String,
    pub token: String,
    pub name: String,
    /// The argon2 hash of a registered player's password.
    pub password: Option<String>,
    pub rating: Rating,
    pub pending: PendingResults,
}

/// A game in progress as stored: enough to replay it.
pub struct StoredGame {
    pub id: String,
    pub players: ByColour<String>,
    pub options: TimeOptions,
    pub start_time: u64,
    /// Time added to the clocks (ms), white then black.
    pub added: [i64; 2],
    pub history: Vec<PackedMove>,
}

/// The hub's database: every write is committed when the call returns.
pub trait Store: Send {
    /// Every player, to know their tokens and names.
    fn players(&mut self) -> Result<Vec<StoredPlayer>>;
    fn add_player(&mut self, player: &StoredPlayer) -> Result<()>;
    /// Makes a guest a registered player (fails if the name is taken).
    fn register(&mut self, player: &str, username: &str, password_hash: &str) -> Result<()>;
    /// A player's rating after a game.
    fn rate(&mut self, player: &str, rating: &Rating, pending: &PendingResults) -> Result<()>;
    fn add_game(&mut self, game: &Game, names: &ByColour<String>) -> Result<()>;
    /// Keeps the clocks' added time of a game (after a restart credited the side to move).
    fn set_added(&mut self, game: &Game) -> Result<()>;
    /// Whether a game of this id was ever stored (a restoration must not make it twice).
    fn has_game(&mut self, game: &str) -> Result<bool>;
    /// Stores ply `ply` of `game` (before it is sent to anyone).
    fn add_move(&mut self, game: &str, ply: usize, packed: &PackedMove) -> Result<()>;
    /// Marks a game over; a finished (not aborted) game is also added to `notate load`'s
    /// tables, as the PGN `pgn_text` says.
    fn finish_game(&mut self, game: &Game, pgn_text: &str) -> Result<()>;
    /// Games not over, with their moves, to go on after a restart.
    fn games_in_progress(&mut self) -> Result<Vec<StoredGame>>;
    /// The PGN of a finished game.
    fn pgn(&mut self, game: &str) -> Result<Option<String>>;
}

/// The finished games' rows in `notate load`'s tables of the server's database: made from
/// the PGN the server wrote for each game (the rows `notate load` makes of that PGN), through
/// one store kept open (opening it creates temporary tables and connections; its `finish`
/// gathers statistics: neither is done per game).
pub(super) struct FinishedRows {
    target: notate_store::Target,
    store: Option<Box<dyn notate_store::Store + Send>>,
    rows: RowWriter,
}

impl FinishedRows {
    pub(super) fn new(target: notate_store::Target) -> FinishedRows {
        FinishedRows {
            target,
            store: None,
            rows: RowWriter::new(),
        }
    }

    /// Adds the game of `pgn_text`, committed when it returns.
    pub(super) fn add(&mut self, pgn_text: &str) -> Result<()> {
        let played = pgn::read_one(pgn_text).context("the server's own PGN")?;
        let mut batch = RowBatch::new();
        self.rows.write(&played, &mut batch)?;
        // A kept connection may have been closed while idle (a proxy, a timeout): once more
        // on a new one. Adding a game twice adds it once.
        match self.add_rows(&batch) {
            Ok(()) => Ok(()),
            Err(_) => self.add_rows(&batch),
        }
    }

    fn add_rows(&mut self, batch: &RowBatch) -> Result<()> {
        let store = match &mut self.store {
            Some(store) => store,
            None => self.store.insert(self.target.open()?),
        };
        let added = store
            .insert(batch, 0..batch.len())
            .and_then(|()| store.flush());
        if added.is_err() {
            self.store = None;
        }
        added?;
        Ok(())
    }
}
