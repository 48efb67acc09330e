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
    /// A `--db` as `notate load` reads it (`postgres://…` or `postgresql://…` is PostgreSQL,
    /// a path a SQLite file); Parquet files cannot hold games being played.
    ///
    /// ```
    /// use notate_serve::Database;
    /// assert!(matches!(Database::parse("postgres://me@localhost/chess"), Ok(Database::Postgres(_))));
    /// assert!(matches!(Database::parse("games.sqlite"), Ok(Database::Sqlite(_))));
    /// assert!(Database::parse("parquet:games").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Database> {
        Ok(match notate_store::Target::parse(text)? {
            notate_store::Target::Sqlite(path) => Database::Sqlite(path),
            notate_store::Target::Postgres(url) => Database::Postgres(url),
            notate_store::Target::Parquet(_) => anyhow::bail!(
                "notate serve stores into a SQLite file or PostgreSQL, not Parquet \
                 (--db games.sqlite or --db postgres://…)"
            ),
        })
    }

    /// The same database as `notate load`'s target, for the finished games' rows.
    pub fn target(&self) -> notate_store::Target {
        match self {
            Database::Sqlite(path) => notate_store::Target::Sqlite(path.clone()),
            Database::Postgres(url) => notate_store::Target::Postgres(url.clone()),
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
    /// When its last connection closed (ms since the epoch); `None` while one was open (or
    /// for a player stored before this was kept).
    pub last_seen: Option<u64>,
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
    /// Forgets guests (players without a password; a registered player named is kept), all
    /// in one transaction: the games they played keep their ids and names.
    fn remove_guests(&mut self, players: &[String]) -> Result<()>;
    /// Gives players new session tokens (the old ones no longer name them), all in one
    /// transaction, noting them idle from `now`.
    fn set_tokens(&mut self, tokens: &[(String, String)], now: u64) -> Result<()>;
    /// Notes when a player's last connection closed (ms since the epoch), or that one is
    /// open (`None`).
    fn set_last_seen(&mut self, player: &str, at: Option<u64>) -> Result<()>;
    /// A player's rating after a game.
    fn rate(&mut self, player: &str, rating: &Rating, pending: &PendingResults) -> Result<()>;
    fn add_game(&mut self, game: &Game, names: &ByColour<String>) -> Result<()>;
    /// Keeps the clocks' added time of a game (after a restart credited the side to move).
    fn set_added(&mut self, game: &Game) -> Result<()>;
    /// Whether a game of this id was ever stored (a restoration must not make it twice).
    fn has_game(&mut self, game: &str) -> Result<bool>;
    /// Stores ply `ply` of `game` (before it is sent to anyone).
    fn add_move(&mut self, game: &str, ply: usize, packed: &PackedMove) -> Result<()>;
    /// Marks a game over: its end time, whether it was aborted, its result (JSON) and the PGN
    /// of a game that was played.
    fn end_game(&mut self, game: &Game, outcome: Option<&str>, pgn: Option<&str>) -> Result<()>;
    /// Where finished games' rows go.
    fn finished_rows(&mut self) -> &mut FinishedRows;
    /// Marks a game over; a finished (not aborted) game is also added to `notate load`'s
    /// tables, as the PGN `pgn_text` says.
    fn finish_game(&mut self, game: &Game, pgn_text: &str) -> Result<()> {
        let outcome = game
            .result
            .as_ref()
            .map(serde_json::to_string)
            .transpose()?;
        let played = (!game.aborted).then_some(pgn_text);
        self.end_game(game, outcome.as_deref(), played)?;
        match played {
            Some(pgn_text) => self.finished_rows().add(pgn_text),
            None => Ok(()),
        }
    }
    /// Games not over, with their moves, to go on after a restart.
    fn games_in_progress(&mut self) -> Result<Vec<StoredGame>>;
    /// The PGN of a finished game.
    fn pgn(&mut self, game: &str) -> Result<Option<String>>;
    /// Notes that the hub ran at `now` (ms since the epoch): written every second, so that the
    /// next hub knows when the last one stopped, even after a `kill -9`.
    fn set_alive(&mut self, now: u64) -> Result<()>;
    /// When a hub last ran on this database, if one ever noted it.
    fn alive_at(&mut self) -> Result<Option<u64>>;
}

/// The finished games' rows in `notate load`'s tables of the server's database: made from
/// the PGN the server wrote for each game (the rows `notate load` makes of that PGN), through
/// one store kept open (opening it creates temporary tables and connections; its `finish`
/// gathers statistics: neither is done per game).
pub struct FinishedRows {
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
        // A different game with the same id (64-bit hashes) is said, not taken for this one;
        // the game is over all the same, and the server goes on.
        for clash in added?.clashes {
            eprintln!("notate serve: {clash}");
        }
        Ok(())
    }
}
