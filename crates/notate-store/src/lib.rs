//! Database sinks for notate: games and their moves stored as two tables, `games` and
//! `moves` (see [`schema`]), in SQLite, PostgreSQL or Parquet files, and SQL queries on them.
//! The heavy dependencies (SQLite, the PostgreSQL client, Arrow and Parquet) live here, out
//! of the `notate` library.
//!
//! ```
//! use notate::chess::{pgn, rows::{RowBatch, RowWriter}};
//! use notate_store::{Target, Value};
//! let dir = std::env::temp_dir().join(format!("notate-lib-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let target = Target::parse(dir.join("games.sqlite").to_str().unwrap()).unwrap();
//! let mut batch = RowBatch::new();
//! RowWriter::new().write(&pgn::read_one("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0").unwrap(), &mut batch).unwrap();
//! let mut store = target.open().unwrap();
//! store.insert(&batch, 0..batch.len()).unwrap();
//! assert_eq!(store.finish().unwrap().moves, 7);
//! let answer = target.query("SELECT san FROM moves WHERE is_checkmate").unwrap();
//! assert_eq!(answer.rows, vec![vec![Value::Text("Qxf7#".into())]]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

#![warn(missing_docs)]

pub mod arrow;
pub mod parquet;
pub mod postgres;
pub mod schema;
pub mod sqlite;

use std::ops::Range;
use std::path::PathBuf;

use notate::chess::rows::RowBatch;

/// Where games are stored, as `--db` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A SQLite file: any plain path.
    Sqlite(PathBuf),
    /// A PostgreSQL connection string: `postgres://user@host/db` (or `postgresql://`).
    Postgres(String),
    /// A directory of Parquet files: `parquet:DIR`.
    Parquet(PathBuf),
}

impl Target {
    /// Reads a `--db` value.
    ///
    /// ```
    /// use notate_store::Target;
    /// assert!(matches!(Target::parse("games.sqlite"), Ok(Target::Sqlite(_))));
    /// assert!(matches!(Target::parse("postgres://me@localhost/chess"), Ok(Target::Postgres(_))));
    /// assert!(matches!(Target::parse("parquet:out"), Ok(Target::Parquet(_))));
    /// assert!(Target::parse("parquet:").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Target, StoreError> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Ok(Target::Postgres(text.to_string()))
        } else if let Some(dir) = text.strip_prefix("parquet:") {
            if dir.is_empty() {
                return Err(StoreError::Target(
                    "parquet: needs a directory (parquet:DIR)".into(),
                ));
            }
            Ok(Target::Parquet(PathBuf::from(dir)))
        } else if text.is_empty() {
            Err(StoreError::Target("an empty --db".into()))
        } else {
            Ok(Target::Sqlite(PathBuf::from(text)))
        }
    }

    /// Opens the store for loading, creating its tables when they are missing.
    pub fn open(&self) -> Result<Box<dyn Store + Send>, StoreError> {
        Ok(match self {
            Target::Sqlite(path) => Box::new(sqlite::SqliteStore::open(path)?),
            Target::Postgres(url) => Box::new(postgres::PostgresStore::open(url)?),
            Target::Parquet(dir) => Box::new(parquet::ParquetStore::open(dir)?),
        })
    }

    /// The part of a load into this target that a worker thread does (one per worker).
    pub fn preparer(&self) -> Result<Preparer, StoreError> {
        Ok(Preparer(match self {
            Target::Parquet(_) => Work::Parquet(parquet::Encoder::new()?),
            Target::Postgres(_) => Work::Postgres,
            Target::Sqlite(_) => Work::None,
        }))
    }

    /// Runs one SQL statement. Parquet has no SQL engine here: it is read with DuckDB
    /// (the error says how).
    pub fn query(&self, sql: &str) -> Result<QueryResult, StoreError> {
        let mut answer = QueryResult {
            columns: Vec::new(),
            rows: Vec::new(),
        };
        self.query_each(sql, &mut answer)?;
        Ok(answer)
    }

    /// Runs one SQL statement and hands its answer to `to` row by row as the database gives
    /// it, so that an answer of any size takes no more memory than a few thousand rows.
    ///
    /// ```
    /// # use notate_store::{QueryResult, Target};
    /// # let dir = std::env::temp_dir().join(format!("notate-doc-each-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir).unwrap();
    /// let target = Target::parse(dir.join("games.sqlite").to_str().unwrap()).unwrap();
    /// target.open().unwrap().finish().unwrap();
    /// let mut answer = QueryResult { columns: vec![], rows: vec![] };
    /// target.query_each("SELECT 1 AS one UNION ALL SELECT 2", &mut answer).unwrap();
    /// assert_eq!(answer.columns, ["one"]);
    /// assert_eq!(answer.rows.len(), 2);
    /// # std::fs::remove_dir_all(dir).unwrap();
    /// ```
    pub fn query_each(&self, sql: &str, to: &mut dyn AnswerSink) -> Result<(), StoreError> {
        if !has_statement(sql) {
            // SQLite calls it misuse, PostgreSQL answers nothing: neither says what is wrong.
            return Err(StoreError::Target("no SQL statement to run".into()));
        }
        match self {
            Target::Sqlite(path) => sqlite::query(path, sql, to),
            Target::Postgres(url) => postgres::query(url, sql, to),
            Target::Parquet(dir) => Err(StoreError::Target(format!(
                "notate has no SQL engine for Parquet; query it with DuckDB:\n  \
                 CREATE VIEW games AS SELECT * FROM read_parquet('{0}/games/**/*.parquet', hive_partitioning = true, union_by_name = true, hive_types = {{'year': INTEGER, 'month': INTEGER}});\n  \
                 CREATE VIEW moves AS SELECT * FROM read_parquet('{0}/moves/**/*.parquet', hive_partitioning = true, hive_types = {{'year': INTEGER, 'month': INTEGER}});\n\
                 (scripts/duckdb-query.py in notate's repository does this)",
                dir.display()
            ))),
        }
    }
}

/// Whether `sql` holds more than blanks, `;` and comments (`-- …` and `/* … */`).
///
/// ```
/// # use notate_store::has_statement;
/// assert!(has_statement("SELECT 1"));
/// assert!(!has_statement(" ; -- nothing\n /* at all */ "));
/// ```
pub fn has_statement(sql: &str) -> bool {
    let mut rest = sql;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';');
        if let Some(comment) = rest.strip_prefix("--") {
            rest = comment.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(comment) = rest.strip_prefix("/*") {
            // PostgreSQL nests block comments, SQLite does not: an unclosed one is left to
            // the database to refuse.
            match comment.split_once("*/") {
                Some((_, after)) => rest = after,
                None => return true,
            }
        } else {
            return !rest.is_empty();
        }
    }
}

/// The rows of a chunk of games as a load's workers hand them to the store, with what a
/// worker already made of them for it (see [`Preparer`]).
#[derive(Default)]
pub struct Rows {
    /// The rows.
    pub batch: RowBatch,
    /// What a worker made of every game of `batch` for the store.
    prepared: Option<Prepared>,
}

/// What a [`Preparer`] made of a batch.
enum Prepared {
    /// Parquet row groups, encoded and compressed.
    Parquet(parquet::Encoded),
    /// Binary `COPY` tuples.
    Postgres(postgres::Encoded),
}

impl From<RowBatch> for Rows {
    fn from(batch: RowBatch) -> Rows {
        Rows {
            batch,
            prepared: None,
        }
    }
}

impl Rows {
    /// Empties the rows, keeping their memory.
    pub fn clear(&mut self) {
        self.batch.clear();
        self.prepared = None;
    }

    /// Keeps the first `games` games.
    pub fn truncate(&mut self, games: usize) {
        self.batch.truncate(games);
        self.prepared = None;
    }
}

/// The part of storing done on a load's worker threads, on each chunk's rows once they are
/// written, so that the store's one thread is left with little: Parquet's row groups are
/// encoded and compressed here, PostgreSQL's `COPY` data encoded; SQLite takes rows as they
/// are. One per worker, made by [`Target::preparer`].
///
/// ```
/// use notate::chess::{pgn, rows::RowWriter};
/// use notate_store::{Rows, Target};
/// let dir = std::env::temp_dir().join(format!("notate-prepare-doc-{}", std::process::id()));
/// let target = Target::parse(&format!("parquet:{}", dir.display())).unwrap();
/// let mut rows = Rows::default();
/// RowWriter::new().write(&pgn::read_one("1. e4 e5 *").unwrap(), &mut rows.batch).unwrap();
/// target.preparer().unwrap().prepare(&mut rows).unwrap(); // on a worker
/// let mut store = target.open().unwrap();
/// store.insert_rows(&mut rows, 0..1).unwrap();
/// assert_eq!(store.finish().unwrap().moves, 2);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct Preparer(Work);

enum Work {
    None,
    Parquet(parquet::Encoder),
    Postgres,
}

impl Preparer {
    /// Does the worker's part for `rows` (all its games).
    pub fn prepare(&mut self, rows: &mut Rows) -> Result<(), StoreError> {
        rows.prepared = match &mut self.0 {
            Work::None => None,
            Work::Parquet(encoder) => Some(Prepared::Parquet(encoder.encode(&rows.batch)?)),
            Work::Postgres => Some(Prepared::Postgres(postgres::Encoded::new(
                &rows.batch,
                0..rows.batch.len(),
            )?)),
        };
        Ok(())
    }
}

/// A place games are loaded into.
pub trait Store {
    /// Adds the games `games` (indexes) of `batch` that are not stored yet, with their
    /// moves. SQLite commits every [`BATCH_MOVES`] moves or so, PostgreSQL each call as one
    /// transaction (sent on one of two connections, so it may still be under way when this
    /// returns), Parquet publishes a file every 4 M moves of a partition; [`Store::flush`]
    /// and [`Store::finish`] commit the rest.
    /// After an interruption the store holds whole games only.
    fn insert(&mut self, batch: &RowBatch, games: Range<usize>) -> Result<(), StoreError>;
    /// [`Store::insert`] of rows a [`Preparer`] may have worked on: what it made is used
    /// when `games` is all of them (and taken out of `rows`).
    fn insert_rows(&mut self, rows: &mut Rows, games: Range<usize>) -> Result<(), StoreError> {
        self.insert(&rows.batch, games)
    }
    /// Commits what is left (Parquet: closes and publishes its files) and says what the
    /// load added.
    fn finish(&mut self) -> Result<Inserted, StoreError>;
    /// Commits what the inserts so far added and says what that was, without the work of a
    /// load's end (the statistics SQLite and PostgreSQL gather then): for a writer that stays
    /// open and adds a game at a time, such as `notate serve`, and at each pause of a live
    /// load. Parquet publishes its files,
    /// as [`Store::finish`] does.
    fn flush(&mut self) -> Result<Inserted, StoreError> {
        self.finish()
    }
    /// Readies the store for a live load (`notate load --live`), which is flushed at each
    /// pause of its input while others read it: SQLite's file goes to WAL mode until
    /// [`Store::finish`], in which a commit and a query do not wait for each other; with a
    /// rollback journal, a query that read for longer than the load waits for a lock would
    /// fail the load.
    fn go_live(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// The bytes of input in a load's chunk (the command line's and Python's): a chunk's rows
/// become one Parquet row group (about 14,000 moves of lichess games), each with a
/// compression context per column, and larger chunks build rows for more repeated games
/// before the first copy is marked as stored. Loading lichess ×20 from Python in the PGN
/// reader's chunks of 128 KiB made 154 row groups of moves and took 0.44 s; in these, 39 and
/// 0.38 s.
pub const CHUNK_BYTES: usize = 512 << 10;

/// Moves per SQLite transaction: commits cost little next to this many rows, and a batch
/// stays small in memory.
pub const BATCH_MOVES: usize = 250_000;

/// What a load did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inserted {
    /// Games added.
    pub games: u64,
    /// Games already stored (the same id and check, or a game stored before there were
    /// checks), not added again.
    pub known: u64,
    /// Move rows added.
    pub moves: u64,
    /// Games not added because a different game has their id (see [`IdClash`]).
    pub clashes: Vec<IdClash>,
}

impl std::ops::AddAssign for Inserted {
    fn add_assign(&mut self, other: Inserted) {
        self.games += other.games;
        self.known += other.known;
        self.moves += other.moves;
        self.clashes.extend(other.clashes);
    }
}

/// A game a load did not add because the store has a different game with the same id: the
/// ids are 64-bit hashes, and their checks ([`notate::chess::rows::GameKey`]) differ. The
/// game stored first keeps the id; the other is reported, not taken for it.
///
/// ```
/// let clash = notate_store::IdClash { id: 7, game: "Anderssen – Kieseritzky, 1851.06.21".into() };
/// assert!(clash.to_string().starts_with("Anderssen – Kieseritzky, 1851.06.21: not stored"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdClash {
    /// The id the two games share.
    pub id: i64,
    /// The game not added, for a person to find it: its players, date and site.
    pub game: String,
}

impl IdClash {
    /// The clash of `game` (a row of `batch`), named as [`schema::game_label`] names it.
    pub(crate) fn of(batch: &RowBatch, game: &notate::chess::rows::GameRow) -> IdClash {
        IdClash {
            id: game.id,
            game: schema::game_label(
                batch.opt(game.white),
                batch.opt(game.black),
                batch.opt(game.date),
                batch.opt(game.site),
            ),
        }
    }
}

impl std::fmt::Display for IdClash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: not stored: a different game stored before has its id {} (two games whose \
             64-bit ids are equal, about once in 2^64 pairs)",
            self.game, self.id
        )
    }
}

impl From<::postgres::Error> for StoreError {
    fn from(error: ::postgres::Error) -> StoreError {
        StoreError::Postgres(error)
    }
}

/// What the server said (`ERROR: …`, with its detail and hint), or else the client's error
/// with its causes: the message is whole without the error's source, which it leaves out
/// so that a chain of causes does not say it twice.
fn postgres_message(error: &::postgres::Error) -> String {
    if let Some(server) = error.as_db_error() {
        return server.to_string();
    }
    let mut message = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(c) = cause {
        message.push_str(&format!(": {c}"));
        cause = c.source();
    }
    message
}

/// One value of a query's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL `NULL`.
    Null,
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// A decimal number exactly as the database writes it (PostgreSQL's `numeric`, which a
    /// double would round: `12345678901234567890` is no `f64`).
    Decimal(String),
    /// Text (also dates, JSON and anything else, as the database writes it).
    Text(String),
    /// A boolean.
    Bool(bool),
}

/// A query's answer: column names and rows.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryResult {
    /// The column names, in order.
    pub columns: Vec<String>,
    /// The rows, each with one value per column.
    pub rows: Vec<Vec<Value>>,
}

/// Where a query's answer goes as the database gives it: the column names once, then each
/// row. An error it returns ends the query with that error.
pub trait AnswerSink {
    /// The column names, in order, before any row.
    fn columns(&mut self, names: Vec<String>) -> Result<(), StoreError>;
    /// One row, a value a column.
    fn row(&mut self, values: Vec<Value>) -> Result<(), StoreError>;
}

/// The whole answer, kept.
impl AnswerSink for QueryResult {
    fn columns(&mut self, names: Vec<String>) -> Result<(), StoreError> {
        self.columns = names;
        Ok(())
    }
    fn row(&mut self, values: Vec<Value>) -> Result<(), StoreError> {
        self.rows.push(values);
        Ok(())
    }
}

/// Why a load or a query failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A bad `--db` or a store that is not there.
    #[error("{0}")]
    Target(String),
    /// SQLite said no.
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL said no: the server's message (the client's alone is "db error").
    #[error("PostgreSQL: {}", postgres_message(.0))]
    Postgres(::postgres::Error),
    /// Writing or reading Parquet failed.
    #[error("Parquet: {0}")]
    Parquet(#[from] ::parquet::errors::ParquetError),
    /// Building Arrow arrays failed.
    #[error("Arrow: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

impl StoreError {
    fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> StoreError {
        let path = path.into();
        move |source| StoreError::Io { path, source }
    }
}
