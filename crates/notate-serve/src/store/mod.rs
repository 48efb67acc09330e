//! What the server keeps in its database: players and their session tokens, every game as it
//! is played (a move is stored before it is sent, so a move a client saw survives a `kill -9`),
//! and each finished game also in `notate load`'s tables (`games`, `moves`), where `notate
//! query` answers about it.
//!
//! The server's own tables are prefixed `serve_`. Two databases keep them, behind one trait:
//! a SQLite file (one server process) and PostgreSQL (one or several processes: see
//! [`crate::cluster`]).

mod model;
pub(crate) mod postgres;
mod sqlite;

use anyhow::Result;

pub use model::{Database, Store, StoredPlayer};
pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

/// Opens (and creates) the server's tables in `db`.
pub fn open(db: &Database) -> Result<Box<dyn Store>> {
    Ok(match db {
        Database::Sqlite(path) => Box::new(SqliteStore::open(path)?),
        Database::Postgres(url) => Box::new(PostgresStore::open(url)?),
    })
}
