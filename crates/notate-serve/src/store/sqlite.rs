//! The server's tables in a SQLite file. SQLite runs in WAL mode with `synchronous =
//! NORMAL`: a committed move survives the process dying (not the machine losing power).

use std::path::Path;

use anyhow::{Context, Result};
use notate::chess::jsonchess::PackedMove;
use notate::protocol::glicko2::{PendingResults, Rating};
use notate::protocol::messages::{ByColour, TimeOptions};
use rusqlite::{params, Connection, OptionalExtension};

use super::model::{Database, FinishedRows, Store, StoredGame, StoredPlayer};
use crate::game::Game;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS serve_players (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    -- A registered player's name and argon2 hash (PHC string); NULL for guests.
    username TEXT UNIQUE,
    password TEXT,
    -- Glicko-2, and the games of the open rating period (JSON).
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    vol REAL NOT NULL,
    pending TEXT NOT NULL DEFAULT '{\"results\":[]}',
    -- When the player's last connection closed (ms since the epoch); NULL while one is open.
    last_seen INTEGER
);
CREATE TABLE IF NOT EXISTS serve_games (
    id TEXT PRIMARY KEY,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_name TEXT NOT NULL,
    black_name TEXT NOT NULL,
    initial_time INTEGER NOT NULL,
    time_increment INTEGER NOT NULL,
    start_time INTEGER NOT NULL,
    -- The protocol's addedTime (ms): the side to move's credit after a restart or a restoration.
    added_white INTEGER NOT NULL DEFAULT 0,
    added_black INTEGER NOT NULL DEFAULT 0,
    end_time INTEGER,
    aborted INTEGER NOT NULL DEFAULT 0,
    outcome TEXT,
    pgn TEXT
);
CREATE TABLE IF NOT EXISTS serve_moves (
    game TEXT NOT NULL,
    ply INTEGER NOT NULL,
    packed TEXT NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
-- When the hub last ran (ms since the epoch): a restart credits only the time since.
CREATE TABLE IF NOT EXISTS serve_alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL
);
";

/// The server's tables in a SQLite file.
pub struct SqliteStore {
    db: Connection,
    finished: FinishedRows,
}

impl SqliteStore {
    pub fn open(path: &Path) -> Result<SqliteStore> {
        let db =
            Connection::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        db.busy_timeout(std::time::Duration::from_secs(10))?;
        db.execute_batch(SCHEMA)?;
        // A database made before the clocks' added time was kept gets its columns.
        let has_added: bool = db
            .prepare("SELECT 1 FROM pragma_table_info('serve_games') WHERE name = 'added_white'")?
            .exists([])?;
        if !has_added {
            db.execute_batch(
                "ALTER TABLE serve_games ADD COLUMN added_white INTEGER NOT NULL DEFAULT 0;
                 ALTER TABLE serve_games ADD COLUMN added_black INTEGER NOT NULL DEFAULT 0;",
            )?;
        }
        // And one made before idle players were forgotten, its players' `last_seen`.
        let has_last_seen: bool = db
            .prepare("SELECT 1 FROM pragma_table_info('serve_players') WHERE name = 'last_seen'")?
            .exists([])?;
        if !has_last_seen {
            db.execute_batch("ALTER TABLE serve_players ADD COLUMN last_seen INTEGER")?;
        }
        Ok(SqliteStore {
            db,
            finished: FinishedRows::new(Database::Sqlite(path.to_path_buf()).target()),
        })
    }
}

impl Store for SqliteStore {
    fn players(&mut self) -> Result<Vec<StoredPlayer>> {
        let mut stmt = self.db.prepare(
            "SELECT id, token, name, password, rating, rd, vol, pending, last_seen FROM serve_players",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                StoredPlayer {
                    id: r.get(0)?,
                    token: r.get(1)?,
                    name: r.get(2)?,
                    password: r.get(3)?,
                    rating: Rating {
                        rating: r.get(4)?,
                        rd: r.get(5)?,
                        vol: r.get(6)?,
                    },
                    pending: PendingResults::default(),
                    last_seen: r.get::<_, Option<i64>>(8)?.map(|at| at.max(0) as u64),
                },
                r.get::<_, String>(7)?,
            ))
        })?;
        let mut players = Vec::new();
        for row in rows {
            let (mut player, pending) = row?;
            player.pending = serde_json::from_str(&pending)?;
            players.push(player);
        }
        Ok(players)
    }

    fn add_player(&mut self, player: &StoredPlayer) -> Result<()> {
        self.db.execute(
            "INSERT INTO serve_players (id, token, name, rating, rd, vol) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                player.id,
                player.token,
                player.name,
                player.rating.rating,
                player.rating.rd,
                player.rating.vol
            ],
        )?;
        Ok(())
    }

    fn register(&mut self, player: &str, username: &str, password_hash: &str) -> Result<()> {
        self.db.execute(
            "UPDATE serve_players SET name = ?2, username = ?2, password = ?3 WHERE id = ?1",
            params![player, username, password_hash],
        )?;
        Ok(())
    }

    fn remove_guests(&mut self, players: &[String]) -> Result<()> {
        let transaction = self.db.transaction()?;
        {
            let mut delete = transaction
                .prepare("DELETE FROM serve_players WHERE id = ?1 AND password IS NULL")?;
            for player in players {
                delete.execute([player])?;
            }
        }
        transaction.commit()?;
        Ok(())
    }

    fn set_tokens(&mut self, tokens: &[(String, String)], now: u64) -> Result<()> {
        let transaction = self.db.transaction()?;
        {
            let mut update = transaction
                .prepare("UPDATE serve_players SET token = ?2, last_seen = ?3 WHERE id = ?1")?;
            for (player, token) in tokens {
                update.execute(params![player, token, now as i64])?;
            }
        }
        transaction.commit()?;
        Ok(())
    }

    fn set_last_seen(&mut self, player: &str, at: Option<u64>) -> Result<()> {
        self.db.execute(
            "UPDATE serve_players SET last_seen = ?2 WHERE id = ?1",
            params![player, at.map(|at| at as i64)],
        )?;
        Ok(())
    }

    fn rate(&mut self, player: &str, rating: &Rating, pending: &PendingResults) -> Result<()> {
        self.db.execute(
            "UPDATE serve_players SET rating = ?2, rd = ?3, vol = ?4, pending = ?5 WHERE id = ?1",
            params![
                player,
                rating.rating,
                rating.rd,
                rating.vol,
                serde_json::to_string(pending)?
            ],
        )?;
        Ok(())
    }

    fn add_game(&mut self, game: &Game, names: &ByColour<String>) -> Result<()> {
        self.db.execute(
            "INSERT INTO serve_games (id, white, black, white_name, black_name, initial_time, \
             time_increment, start_time, added_white, added_black) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                game.id,
                game.players.w,
                game.players.b,
                names.w,
                names.b,
                game.options.initial_time as i64,
                game.options.time_increment as i64,
                game.start_time as i64,
                game.added[0],
                game.added[1]
            ],
        )?;
        Ok(())
    }

    fn set_alive(&mut self, now: u64) -> Result<()> {
        self.db.execute(
            "INSERT INTO serve_alive (id, at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET at = ?1",
            [i64::try_from(now)?],
        )?;
        Ok(())
    }

    fn alive_at(&mut self) -> Result<Option<u64>> {
        let at: Option<i64> = self
            .db
            .query_row("SELECT at FROM serve_alive WHERE id = 1", [], |r| r.get(0))
            .optional()?;
        Ok(at.and_then(|at| u64::try_from(at).ok()))
    }

    fn set_added(&mut self, game: &Game) -> Result<()> {
        self.db.execute(
            "UPDATE serve_games SET added_white = ?2, added_black = ?3 WHERE id = ?1",
            params![game.id, game.added[0], game.added[1]],
        )?;
        Ok(())
    }

    fn has_game(&mut self, game: &str) -> Result<bool> {
        Ok(self
            .db
            .prepare("SELECT 1 FROM serve_games WHERE id = ?1")?
            .exists([game])?)
    }

    fn add_move(&mut self, game: &str, ply: usize, packed: &PackedMove) -> Result<()> {
        self.db.execute(
            "INSERT INTO serve_moves (game, ply, packed) VALUES (?1, ?2, ?3)",
            params![game, ply as i64, packed.to_string()],
        )?;
        Ok(())
    }

    fn end_game(&mut self, game: &Game, outcome: Option<&str>, pgn: Option<&str>) -> Result<()> {
        self.db.execute(
            "UPDATE serve_games SET end_time = ?2, aborted = ?3, outcome = ?4, pgn = ?5 WHERE id = ?1",
            params![
                game.id,
                game.end_time.map(|t| t as i64),
                game.aborted,
                outcome,
                pgn
            ],
        )?;
        Ok(())
    }

    fn finished_rows(&mut self) -> &mut FinishedRows {
        &mut self.finished
    }

    fn games_in_progress(&mut self) -> Result<Vec<StoredGame>> {
        let mut stmt = self.db.prepare(
            "SELECT id, white, black, initial_time, time_increment, start_time, added_white, \
             added_black FROM serve_games WHERE end_time IS NULL ORDER BY start_time",
        )?;
        let games = stmt
            .query_map([], |r| {
                Ok(StoredGame {
                    id: r.get(0)?,
                    players: ByColour {
                        w: r.get(1)?,
                        b: r.get(2)?,
                    },
                    options: TimeOptions {
                        initial_time: r.get::<_, i64>(3)? as u64,
                        time_increment: r.get::<_, i64>(4)? as u64,
                    },
                    start_time: r.get::<_, i64>(5)? as u64,
                    added: [r.get(6)?, r.get(7)?],
                    history: Vec::new(),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut moves = self
            .db
            .prepare("SELECT packed FROM serve_moves WHERE game = ?1 ORDER BY ply")?;
        let mut out = Vec::with_capacity(games.len());
        for mut game in games {
            for packed in moves.query_map([&game.id], |r| r.get::<_, String>(0))? {
                game.history.push(PackedMove::parse(&packed?)?);
            }
            out.push(game);
        }
        Ok(out)
    }

    fn pgn(&mut self, game: &str) -> Result<Option<String>> {
        Ok(self
            .db
            .query_row("SELECT pgn FROM serve_games WHERE id = ?1", [game], |r| {
                r.get::<_, Option<String>>(0)
            })
            .optional()?
            .flatten())
    }
}
