//! The server's tables in PostgreSQL, where several server processes may share them (see
//! [`crate::cluster`]): the one that leads writes, any of them reads a finished game's PGN.
//! Each call is its own transaction, committed (so durable, with the server's default
//! `synchronous_commit`) before it returns.

use anyhow::{Context, Result};
use notate::chess::jsonchess::PackedMove;
use notate::protocol::glicko2::{PendingResults, Rating};
use notate::protocol::messages::{ByColour, TimeOptions};
use postgres::{Client, NoTls};

use super::model::{Database, FinishedRows, Store, StoredGame, StoredPlayer};
use crate::game::Game;

/// The server's tables, and the pieces of the cluster's mail: `serve_mail` holds a message too
/// long for a notification's payload (PostgreSQL's limit is 8,000 bytes), `serve_nodes`
/// numbers the processes.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS serve_players (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    username TEXT UNIQUE,
    password TEXT,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    vol DOUBLE PRECISION NOT NULL,
    pending TEXT NOT NULL DEFAULT '{\"results\":[]}',
    -- When the player's last connection closed (ms since the epoch); NULL while one is open.
    last_seen BIGINT
);
-- A database made before idle players were forgotten.
ALTER TABLE serve_players ADD COLUMN IF NOT EXISTS last_seen BIGINT;
CREATE TABLE IF NOT EXISTS serve_games (
    id TEXT PRIMARY KEY,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_name TEXT NOT NULL,
    black_name TEXT NOT NULL,
    initial_time BIGINT NOT NULL,
    time_increment BIGINT NOT NULL,
    start_time BIGINT NOT NULL,
    added_white BIGINT NOT NULL DEFAULT 0,
    added_black BIGINT NOT NULL DEFAULT 0,
    end_time BIGINT,
    aborted BOOLEAN NOT NULL DEFAULT FALSE,
    outcome TEXT,
    pgn TEXT
);
CREATE TABLE IF NOT EXISTS serve_moves (
    game TEXT NOT NULL,
    ply INTEGER NOT NULL,
    packed TEXT NOT NULL,
    PRIMARY KEY (game, ply)
);
CREATE TABLE IF NOT EXISTS serve_mail (
    id BIGSERIAL PRIMARY KEY,
    body TEXT NOT NULL,
    -- Mail to a process that died is never fetched: the leader removes it after a minute.
    sent TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE SEQUENCE IF NOT EXISTS serve_nodes;
CREATE TABLE IF NOT EXISTS serve_alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at BIGINT NOT NULL
);
";

/// The advisory lock under which a server creates its tables (the bytes of "serve"): two
/// processes starting together on a new database would otherwise both create them, and one
/// would fail on the catalog's unique index.
const SCHEMA_LOCK: i64 = 0x73_6572_7665;

/// Connects to `url` for `role`, the connection's `application_name` (`notate serve hub`,
/// `… mail`: what `pg_stat_activity` shows of it).
pub fn connect_as(url: &str, role: &str) -> Result<Client> {
    let mut config: postgres::Config = url
        .parse()
        .with_context(|| format!("not a PostgreSQL address: {}", without_password(url)))?;
    config.application_name(&format!("notate serve {role}"));
    // A connection to a server that went away fails in seconds rather than hangs.
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(std::time::Duration::from_secs(10));
    }
    config.keepalives_idle(std::time::Duration::from_secs(30));
    config
        .connect(NoTls)
        .with_context(|| format!("cannot connect to PostgreSQL at {}", without_password(url)))
}

/// Connects to `url` for `role` (see [`connect_as`]) and creates the server's tables when
/// they are missing.
pub fn connect(url: &str, role: &str) -> Result<Client> {
    let mut client = connect_as(url, role)?;
    let mut transaction = client.transaction()?;
    transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])?;
    transaction.batch_execute(SCHEMA)?;
    transaction.commit()?;
    Ok(client)
}

/// `url` as it may be shown: without a password.
pub fn without_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = &url[scheme + 3..at];
            match user.split_once(':') {
                Some((name, _)) => format!("{}{name}:…{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The PGN of a finished game, read on `client`, a connection of the caller's (the leader's
/// store may be in another process), made when there is none or the last one failed.
pub fn finished_pgn(client: &mut Option<Client>, url: &str, game: &str) -> Result<Option<String>> {
    let connection = match client {
        Some(connection) => connection,
        None => client.insert(connect_as(url, "pgn")?),
    };
    let pgn = read_pgn(connection, game);
    if pgn.is_err() {
        *client = None;
    }
    pgn
}

/// The PGN of a finished game (none for a game not over, aborted, or not there).
fn read_pgn(client: &mut Client, game: &str) -> Result<Option<String>> {
    let row = client.query_opt("SELECT pgn FROM serve_games WHERE id = $1", &[&game])?;
    Ok(row.and_then(|r| r.get::<_, Option<String>>(0)))
}

/// The server's tables in PostgreSQL.
pub struct PostgresStore {
    client: Client,
    finished: FinishedRows,
}

impl PostgresStore {
    pub fn open(url: &str) -> Result<PostgresStore> {
        Ok(PostgresStore {
            client: connect(url, "hub")?,
            finished: FinishedRows::new(Database::Postgres(url.to_string()).target()),
        })
    }
}

impl Store for PostgresStore {
    fn players(&mut self) -> Result<Vec<StoredPlayer>> {
        let rows = self.client.query(
            "SELECT id, token, name, password, rating, rd, vol, pending, last_seen FROM serve_players",
            &[],
        )?;
        rows.iter()
            .map(|r| {
                Ok(StoredPlayer {
                    id: r.get(0),
                    token: r.get(1),
                    name: r.get(2),
                    password: r.get(3),
                    rating: Rating {
                        rating: r.get(4),
                        rd: r.get(5),
                        vol: r.get(6),
                    },
                    pending: serde_json::from_str(r.get(7))?,
                    last_seen: r.get::<_, Option<i64>>(8).map(|at| at.max(0) as u64),
                })
            })
            .collect()
    }

    fn add_player(&mut self, player: &StoredPlayer) -> Result<()> {
        self.client.execute(
            "INSERT INTO serve_players (id, token, name, rating, rd, vol) VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &player.id,
                &player.token,
                &player.name,
                &player.rating.rating,
                &player.rating.rd,
                &player.rating.vol,
            ],
        )?;
        Ok(())
    }

    fn register(&mut self, player: &str, username: &str, password_hash: &str) -> Result<()> {
        self.client.execute(
            "UPDATE serve_players SET name = $2, username = $2, password = $3 WHERE id = $1",
            &[&player, &username, &password_hash],
        )?;
        Ok(())
    }

    fn remove_guests(&mut self, players: &[String]) -> Result<()> {
        self.client.execute(
            "DELETE FROM serve_players WHERE id = ANY($1) AND password IS NULL",
            &[&players],
        )?;
        Ok(())
    }

    fn set_tokens(&mut self, tokens: &[(String, String)], now: u64) -> Result<()> {
        let (players, tokens): (Vec<&str>, Vec<&str>) = tokens
            .iter()
            .map(|(player, token)| (player.as_str(), token.as_str()))
            .unzip();
        self.client.execute(
            "UPDATE serve_players SET token = t.token, last_seen = $3 \
             FROM unnest($1::text[], $2::text[]) AS t(id, token) WHERE serve_players.id = t.id",
            &[&players, &tokens, &(now as i64)],
        )?;
        Ok(())
    }

    fn set_last_seen(&mut self, player: &str, at: Option<u64>) -> Result<()> {
        self.client.execute(
            "UPDATE serve_players SET last_seen = $2 WHERE id = $1",
            &[&player, &at.map(|at| at as i64)],
        )?;
        Ok(())
    }

    fn rate(&mut self, player: &str, rating: &Rating, pending: &PendingResults) -> Result<()> {
        self.client.execute(
            "UPDATE serve_players SET rating = $2, rd = $3, vol = $4, pending = $5 WHERE id = $1",
            &[
                &player,
                &rating.rating,
                &rating.rd,
                &rating.vol,
                &serde_json::to_string(pending)?,
            ],
        )?;
        Ok(())
    }

    fn add_game(&mut self, game: &Game, names: &ByColour<String>) -> Result<()> {
        self.client.execute(
            "INSERT INTO serve_games (id, white, black, white_name, black_name, initial_time, \
             time_increment, start_time, added_white, added_black) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            &[
                &game.id,
                &game.players.w,
                &game.players.b,
                &names.w,
                &names.b,
                &(game.options.initial_time as i64),
                &(game.options.time_increment as i64),
                &(game.start_time as i64),
                &game.added[0],
                &game.added[1],
            ],
        )?;
        Ok(())
    }

    fn set_alive(&mut self, now: u64) -> Result<()> {
        self.client.execute(
            "INSERT INTO serve_alive (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = $1",
            &[&i64::try_from(now)?],
        )?;
        Ok(())
    }

    fn alive_at(&mut self) -> Result<Option<u64>> {
        let row = self
            .client
            .query_opt("SELECT at FROM serve_alive WHERE id = 1", &[])?;
        Ok(row.and_then(|r| u64::try_from(r.get::<_, i64>(0)).ok()))
    }

    fn set_added(&mut self, game: &Game) -> Result<()> {
        self.client.execute(
            "UPDATE serve_games SET added_white = $2, added_black = $3 WHERE id = $1",
            &[&game.id, &game.added[0], &game.added[1]],
        )?;
        Ok(())
    }

    fn has_game(&mut self, game: &str) -> Result<bool> {
        Ok(self
            .client
            .query_opt("SELECT 1 FROM serve_games WHERE id = $1", &[&game])?
            .is_some())
    }

    fn add_move(&mut self, game: &str, ply: usize, packed: &PackedMove) -> Result<()> {
        self.client.execute(
            "INSERT INTO serve_moves (game, ply, packed) VALUES ($1, $2, $3)",
            &[&game, &(ply as i32), &packed.to_string()],
        )?;
        Ok(())
    }

    fn end_game(&mut self, game: &Game, outcome: Option<&str>, pgn: Option<&str>) -> Result<()> {
        self.client.execute(
            "UPDATE serve_games SET end_time = $2, aborted = $3, outcome = $4, pgn = $5 WHERE id = $1",
            &[
                &game.id,
                &game.end_time.map(|t| t as i64),
                &game.aborted,
                &outcome,
                &pgn,
            ],
        )?;
        Ok(())
    }

    fn finished_rows(&mut self) -> &mut FinishedRows {
        &mut self.finished
    }

    fn games_in_progress(&mut self) -> Result<Vec<StoredGame>> {
        let rows = self.client.query(
            "SELECT id, white, black, initial_time, time_increment, start_time, added_white, \
             added_black, coalesce((SELECT array_agg(packed ORDER BY ply) FROM serve_moves \
             WHERE game = g.id), '{}') FROM serve_games g WHERE end_time IS NULL \
             ORDER BY start_time",
            &[],
        )?;
        rows.iter()
            .map(|r| {
                let history: Vec<String> = r.get(8);
                Ok(StoredGame {
                    id: r.get(0),
                    players: ByColour {
                        w: r.get(1),
                        b: r.get(2),
                    },
                    options: TimeOptions {
                        initial_time: r.get::<_, i64>(3) as u64,
                        time_increment: r.get::<_, i64>(4) as u64,
                    },
                    start_time: r.get::<_, i64>(5) as u64,
                    added: [r.get(6), r.get(7)],
                    history: history
                        .iter()
                        .map(|p| PackedMove::parse(p))
                        .collect::<Result<_, _>>()?,
                })
            })
            .collect()
    }

    fn pgn(&mut self, game: &str) -> Result<Option<String>> {
        read_pgn(&mut self.client, game)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            super::without_password("postgres://me:secret@db:5432/chess"),
            "postgres://me:…@db:5432/chess"
        );
        assert_eq!(
            super::without_password("postgres://me@db/chess"),
            "postgres://me@db/chess"
        );
        assert_eq!(
            super::without_password("postgres:///chess"),
            "postgres:///chess"
        );
    }
}
