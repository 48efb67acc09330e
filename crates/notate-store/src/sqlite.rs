//! SQLite, embedded (rusqlite's bundled build: nothing to install).

use std::ops::Range;
use std::path::Path;

use notate::chess::rows::RowBatch;
use rusqlite::{params_from_iter, types::ToSqlOutput, types::Value, Connection, ToSql};

use crate::schema::{self, Cell, Kind, GAMES, MOVES};
use crate::{Inserted, QueryResult, Store, StoreError, Transaction, Value as QueryValue};

/// Games in a SQLite file.
///
/// ```
/// use notate::chess::{pgn, rows::{RowBatch, RowWriter}};
/// use notate_store::{sqlite::SqliteStore, Store};
/// let dir = std::env::temp_dir().join(format!("notate-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let mut batch = RowBatch::new();
/// RowWriter::new().write(&pgn::read_one("1. e4 e5 *").unwrap(), &mut batch).unwrap();
/// let mut store = SqliteStore::open(&dir.join("games.sqlite")).unwrap();
/// store.insert(&batch, 0..1).unwrap();
/// store.insert(&batch, 0..1).unwrap(); // already there
/// let added = store.finish().unwrap();
/// assert_eq!((added.games, added.known, added.moves), (1, 1, 2));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct SqliteStore {
    connection: Connection,
    insert_game: String,
    insert_move: String,
    transaction: Transaction,
    inserted: Inserted,
}

fn type_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BigInt | Kind::Int => "INTEGER",
        Kind::Real => "REAL",
        Kind::Text | Kind::Json => "TEXT",
        Kind::Bool => "BOOLEAN",
    }
}

impl SqliteStore {
    /// Opens (or creates) the database file and its tables.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let connection = Connection::open(path)?;
        // Another writer of the file (`notate serve`, another load) is waited for, not an
        // error.
        connection.busy_timeout(std::time::Duration::from_secs(10))?;
        // A rollback journal writes less than WAL when most pages are new (WAL writes every
        // page twice); synchronous=FULL keeps a commit atomic even on power loss, and costs
        // little with one commit per batch. Larger pages make the bulk inserts cheaper.
        // A database in WAL mode (`notate serve`'s, while it runs) keeps it: leaving WAL
        // needs the file to itself.
        let mode: String = connection.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            connection.execute_batch(
                "PRAGMA page_size = 16384;
                 PRAGMA journal_mode = TRUNCATE;
                 PRAGMA synchronous = FULL;",
            )?;
        }
        connection.execute_batch(
            "PRAGMA cache_size = -65536;
             PRAGMA temp_store = MEMORY;",
        )?;
        // `games.id` is the rowid; `moves` is a rowid table (rows appended in load order)
        // with its key as an index: random game ids make a `WITHOUT ROWID` table slower.
        connection.execute_batch(&schema::ddl(type_name, ""))?;
        let placeholders = |n: usize| vec!["?"; n].join(", ");
        Ok(SqliteStore {
            connection,
            insert_game: format!(
                "INSERT INTO games VALUES ({}) ON CONFLICT (id) DO NOTHING",
                placeholders(GAMES.len())
            ),
            insert_move: format!("INSERT INTO moves VALUES ({})", placeholders(MOVES.len())),
            transaction: Transaction::default(),
            inserted: Inserted::default(),
        })
    }

    fn commit(&mut self) -> Result<(), StoreError> {
        if self.transaction.close() {
            self.connection.execute_batch("COMMIT")?;
        }
        Ok(())
    }
}

impl Store for SqliteStore {
    fn insert(&mut self, batch: &RowBatch, games: Range<usize>) -> Result<(), StoreError> {
        if self.transaction.open() {
            self.connection.execute_batch("BEGIN")?;
        }
        let mut added = 0;
        {
            let mut insert_game = self.connection.prepare_cached(&self.insert_game)?;
            let mut insert_move = self.connection.prepare_cached(&self.insert_move)?;
            for g in &batch.games[games] {
                let cells = schema::game_cells(batch, g);
                if insert_game.execute(params_from_iter(cells.iter().map(Sql)))? == 0 {
                    self.inserted.known += 1;
                    continue;
                }
                self.inserted.games += 1;
                for m in &batch.moves[g.moves.clone()] {
                    let cells = schema::move_cells(batch, g, m);
                    insert_move.execute(params_from_iter(cells.iter().map(Sql)))?;
                }
                added += g.moves.len();
            }
        }
        self.inserted.moves += added as u64;
        if self.transaction.add(added) {
            self.commit()?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Inserted, StoreError> {
        self.commit()?;
        self.connection.execute_batch("PRAGMA optimize;")?;
        Ok(std::mem::take(&mut self.inserted))
    }

    fn flush(&mut self) -> Result<Inserted, StoreError> {
        self.commit()?;
        Ok(std::mem::take(&mut self.inserted))
    }
}

/// A cell as an SQLite value.
struct Sql<'a, 'b>(&'b Cell<'a>);

impl ToSql for Sql<'_, '_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        use rusqlite::types::ValueRef;
        Ok(ToSqlOutput::Borrowed(match *self.0 {
            Cell::Null => ValueRef::Null,
            Cell::Int(v) => ValueRef::Integer(v),
            Cell::Real(v) => ValueRef::Real(v),
            Cell::Text(s) => ValueRef::Text(s.as_bytes()),
            Cell::Bool(b) => ValueRef::Integer(i64::from(b)),
        }))
    }
}

/// Runs one SQL statement and returns its rows.
pub fn query(path: &Path, sql: &str) -> Result<QueryResult, StoreError> {
    if !path.is_file() {
        return Err(StoreError::Target(format!(
            "no database at {} (load games into it first)",
            path.display()
        )));
    }
    let connection = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut statement = connection.prepare(sql)?;
    let columns: Vec<String> = statement.column_names().map(|c| c.to_string()).collect();
    let n = columns.len();
    let mut rows = Vec::new();
    let mut cursor = statement.query([])?;
    while let Some(row) = cursor.next()? {
        let mut values = Vec::with_capacity(n);
        for i in 0..n {
            values.push(match row.get::<_, Value>(i)? {
                Value::Null => QueryValue::Null,
                Value::Integer(v) => QueryValue::Int(v),
                Value::Real(v) => QueryValue::Real(v),
                Value::Text(s) => QueryValue::Text(s),
                Value::Blob(b) => QueryValue::Text(format!("<{} bytes>", b.len())),
            });
        }
        rows.push(values);
    }
    Ok(QueryResult { columns, rows })
}
