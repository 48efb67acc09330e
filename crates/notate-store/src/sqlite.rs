//! SQLite, embedded (rusqlite's bundled build: nothing to install).

use std::ffi::c_int;
use std::ops::Range;
use std::path::Path;
use std::ptr::NonNull;

use notate::chess::rows::RowBatch;
use rusqlite::{ffi, params_from_iter, types::ToSqlOutput, types::Value, Connection, ToSql};

use crate::schema::{self, Cell, Kind, GAMES, MOVES};
use crate::{AnswerSink, IdClash, Inserted, Store, StoreError, Value as QueryValue, BATCH_MOVES};

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
    // The statements go before the connection: fields are dropped in order, and a statement
    // must be finalized before its connection closes.
    insert_moves: RowsInsert,
    insert_move: RowsInsert,
    connection: Connection,
    insert_game: String,
    /// What the open transaction added (the connection knows whether one is open: it is
    /// begun by the first insert after a commit, and committed once it holds about
    /// [`BATCH_MOVES`] moves).
    uncommitted: Inserted,
    /// What committed transactions added since the last [`Store::finish`] or
    /// [`Store::flush`].
    inserted: Inserted,
    /// Whether [`Store::go_live`] put the file in WAL mode, to be taken back at the end.
    went_live: bool,
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
        connection.busy_timeout(BUSY_TIMEOUT)?;
        // A rollback journal writes less than WAL when most pages are new (WAL writes every
        // page twice); synchronous=FULL keeps a commit atomic even on power loss, and costs
        // little with one commit per batch (a live load's pauses are far apart). Larger
        // pages make the bulk inserts cheaper. A database in WAL mode (`notate serve`'s
        // while it runs, a live load's) keeps it: leaving WAL needs the file to itself.
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
        connection.execute_batch(&schema::ddl(type_name, "", &[]))?;
        // A store made before games had `id_check` gets it, empty for the games there: looked
        // up and added in one write transaction, so that two loads opening an old file at once
        // do not both add it.
        connection.execute_batch("BEGIN IMMEDIATE")?;
        let has_check: bool = connection.query_row(
            "SELECT count(*) > 0 FROM pragma_table_info('games') WHERE name = 'id_check'",
            [],
            |r| r.get(0),
        )?;
        if !has_check {
            connection.execute_batch("ALTER TABLE games ADD COLUMN id_check INTEGER")?;
        }
        connection.execute_batch("COMMIT")?;
        let placeholders = |n: usize| vec!["?"; n].join(", ");
        Ok(SqliteStore {
            insert_moves: RowsInsert::prepare(&connection, "moves", MOVES.len(), ROWS_A_STATEMENT)?,
            insert_move: RowsInsert::prepare(&connection, "moves", MOVES.len(), 1)?,
            connection,
            insert_game: format!(
                "INSERT INTO games VALUES ({}) ON CONFLICT (id) DO NOTHING",
                placeholders(GAMES.len())
            ),
            uncommitted: Inserted::default(),
            went_live: false,
            inserted: Inserted::default(),
        })
    }

    fn commit(&mut self) -> Result<(), StoreError> {
        if !self.connection.is_autocommit()
            && let Err(error) = self.connection.execute_batch("COMMIT")
        {
            self.abandon();
            return Err(error.into());
        }
        self.inserted += std::mem::take(&mut self.uncommitted);
        Ok(())
    }

    /// Takes back the open transaction whole, after an error, and counts nothing of it: what
    /// the store says it added is what is there.
    fn abandon(&mut self) {
        // An `OR ROLLBACK` insert may have rolled it back already. If the rollback fails, the
        // connection's own end rolls back what is left.
        if !self.connection.is_autocommit() {
            let _ = self.connection.execute_batch("ROLLBACK");
        }
        self.uncommitted = Inserted::default();
    }

    /// The games of `games` not stored yet, with their moves, into the open transaction.
    fn insert_new(&mut self, batch: &RowBatch, games: Range<usize>) -> Result<(), StoreError> {
        // The moves of the new games, as (game, move) indexes, inserted a statement's worth
        // at a time.
        let mut pending: Vec<(usize, usize)> = Vec::with_capacity(ROWS_A_STATEMENT);
        let cell = |&(g, m): &(usize, usize), column| {
            schema::move_cell(column, batch, &batch.games[g], &batch.moves[m])
        };
        let mut insert_game = self.connection.prepare_cached(&self.insert_game)?;
        let mut stored_check = self
            .connection
            .prepare_cached("SELECT id_check FROM games WHERE id = ?")?;
        for g in games {
            let game = &batch.games[g];
            let cells = schema::game_cells(batch, game);
            if insert_game.execute(params_from_iter(cells.iter().map(Sql)))? == 0 {
                // The id is taken: by this game, or (when the checks differ) by another.
                // A game stored before there were checks has none and is taken for this one.
                let check: Option<i64> = stored_check.query_row([game.id], |r| r.get(0))?;
                if check.is_some_and(|c| c != game.id_check) {
                    self.uncommitted.clashes.push(IdClash::of(batch, game));
                } else {
                    self.uncommitted.known += 1;
                }
                continue;
            }
            self.uncommitted.games += 1;
            self.uncommitted.moves += game.moves.len() as u64;
            for m in game.moves.clone() {
                pending.push((g, m));
                if pending.len() == ROWS_A_STATEMENT {
                    self.insert_moves.run(&self.connection, &pending, cell)?;
                    pending.clear();
                }
            }
        }
        for row in pending.chunks(1) {
            self.insert_move.run(&self.connection, row, cell)?;
        }
        Ok(())
    }
}

impl Store for SqliteStore {
    fn insert(&mut self, batch: &RowBatch, games: Range<usize>) -> Result<(), StoreError> {
        let inserted = if self.connection.is_autocommit() {
            self.connection
                .execute_batch("BEGIN")
                .map_err(StoreError::from)
        } else {
            Ok(())
        }
        .and_then(|()| self.insert_new(batch, games));
        if let Err(error) = inserted {
            self.abandon();
            return Err(error);
        }
        if self.uncommitted.moves >= BATCH_MOVES as u64 {
            self.commit()?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Inserted, StoreError> {
        self.commit()?;
        self.connection.execute_batch("PRAGMA optimize;")?;
        if std::mem::take(&mut self.went_live) {
            // Back to the rollback journal, where the file can be read by whoever may not
            // write beside it (in WAL mode a reader makes `-shm` and `-wal` files). Best
            // effort: a reader holding the file keeps it in WAL mode, which works as well.
            let _ = self
                .connection
                .query_row("PRAGMA journal_mode = TRUNCATE", [], |r| {
                    r.get::<_, String>(0)
                });
        }
        Ok(std::mem::take(&mut self.inserted))
    }

    fn flush(&mut self) -> Result<Inserted, StoreError> {
        self.commit()?;
        Ok(std::mem::take(&mut self.inserted))
    }

    fn go_live(&mut self) -> Result<(), StoreError> {
        let before: String = self
            .connection
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if before.eq_ignore_ascii_case("wal") {
            return Ok(());
        }
        let mode: String = self
            .connection
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        self.went_live = mode.eq_ignore_ascii_case("wal");
        if !self.went_live {
            return Err(StoreError::Target(format!(
                "cannot put the file in WAL mode for a live load (its mode stays {mode})"
            )));
        }
        Ok(())
    }
}

/// How long a connection waits for another's lock on the file (another load, `notate
/// serve`, a commit under a query) before it fails with `database is locked`.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Rows of moves in one `INSERT` statement: enough to spread the statement's own work
/// (opening the table's and indexes' cursors, halting, resetting) over many rows, with
/// 64 × 23 parameters well under SQLite's limit of 32,766.
const ROWS_A_STATEMENT: usize = 64;

/// An `INSERT` of `rows` rows into `table`, prepared through SQLite's C API, its text bound
/// without a copy.
///
/// Written by hand because rusqlite binds every text with `SQLITE_TRANSIENT` (SQLite copies
/// it) and runs a row a statement: for a load's 23-column rows of moves, the copies and each
/// statement's own work were about a third of the store thread's time. The texts live in the
/// caller's batch for the whole of [`RowsInsert::run`], which binds, steps, resets and clears
/// the bindings, so SQLite never holds a pointer past it (`SQLITE_STATIC`).
struct RowsInsert {
    statement: NonNull<ffi::sqlite3_stmt>,
    rows: usize,
    columns: usize,
}

// The statement is used only through `&mut self`, with its connection, by one thread at a
// time, and it moves to another thread only together with that connection (the store is not
// `Sync`): the terms on which rusqlite's `Connection` is `Send`.
unsafe impl Send for RowsInsert {}

impl RowsInsert {
    fn prepare(
        connection: &Connection,
        table: &str,
        columns: usize,
        rows: usize,
    ) -> rusqlite::Result<RowsInsert> {
        let row = format!("({})", vec!["?"; columns].join(", "));
        // `OR ROLLBACK`: a row that breaks a constraint ends the load's transaction, as any
        // error does, so SQLite needs no statement journal (copies of the pages a statement
        // of many rows changes, to undo it alone).
        let sql = format!(
            "INSERT OR ROLLBACK INTO {table} VALUES {}",
            vec![row; rows].join(", ")
        );
        let mut statement = std::ptr::null_mut();
        // SAFETY: the handle is the live connection's; `sql` outlives the call and its length
        // is given, so it need not end in a NUL.
        let code = unsafe {
            ffi::sqlite3_prepare_v3(
                connection.handle(),
                sql.as_ptr().cast(),
                c_int::try_from(sql.len()).expect("an INSERT of a few kilobytes"),
                ffi::SQLITE_PREPARE_PERSISTENT,
                &mut statement,
                std::ptr::null_mut(),
            )
        };
        match NonNull::new(statement) {
            Some(statement) if code == ffi::SQLITE_OK => Ok(RowsInsert {
                statement,
                rows,
                columns,
            }),
            _ => Err(failure(connection, code)),
        }
    }

    /// Inserts `rows` (exactly as many as the statement has), column `c` of `row` being
    /// `cell(row, c)`.
    fn run<'a, R>(
        &mut self,
        connection: &Connection,
        rows: &[R],
        cell: impl Fn(&R, usize) -> Cell<'a>,
    ) -> rusqlite::Result<()> {
        assert_eq!(rows.len(), self.rows, "an INSERT of {} rows", self.rows);
        let statement = self.statement.as_ptr();
        let unbind = Unbind(statement);
        let mut code = ffi::SQLITE_OK;
        'bind: for (r, row) in rows.iter().enumerate() {
            for column in 0..self.columns {
                let index = (r * self.columns + column + 1) as c_int;
                // SAFETY: the statement is live; a text's bytes are borrowed for 'a, which
                // outlasts this call, and `unbind` clears the bindings before it returns or
                // unwinds.
                code = unsafe {
                    match cell(row, column) {
                        Cell::Null => ffi::sqlite3_bind_null(statement, index),
                        Cell::Int(v) => ffi::sqlite3_bind_int64(statement, index, v),
                        Cell::Real(v) => ffi::sqlite3_bind_double(statement, index, v),
                        Cell::Bool(b) => ffi::sqlite3_bind_int64(statement, index, i64::from(b)),
                        Cell::Text(s) => ffi::sqlite3_bind_text64(
                            statement,
                            index,
                            s.as_ptr().cast(),
                            s.len() as u64,
                            ffi::SQLITE_STATIC(),
                            ffi::SQLITE_UTF8 as u8,
                        ),
                    }
                };
                if code != ffi::SQLITE_OK {
                    break 'bind;
                }
            }
        }
        if code == ffi::SQLITE_OK {
            // SAFETY: the statement is live and every parameter is bound.
            code = match unsafe { ffi::sqlite3_step(statement) } {
                ffi::SQLITE_DONE => ffi::SQLITE_OK,
                other => other,
            };
        }
        let result = if code == ffi::SQLITE_OK {
            Ok(())
        } else {
            Err(failure(connection, code))
        };
        drop(unbind);
        result
    }
}

/// Resets a statement and clears its bindings when dropped, also when making a row's cells
/// panics: SQLite then holds no pointer into the caller's rows.
struct Unbind(*mut ffi::sqlite3_stmt);

impl Drop for Unbind {
    fn drop(&mut self) {
        // SAFETY: the statement is live (its `RowsInsert` outlives this guard). Reset returns
        // the step's error again, already taken.
        unsafe {
            ffi::sqlite3_reset(self.0);
            ffi::sqlite3_clear_bindings(self.0);
        }
    }
}

impl Drop for RowsInsert {
    fn drop(&mut self) {
        // SAFETY: the statement is live (its connection is dropped after it) and not used
        // again.
        unsafe { ffi::sqlite3_finalize(self.statement.as_ptr()) };
    }
}

/// The error SQLite reported on `connection` for `code`.
fn failure(connection: &Connection, code: c_int) -> rusqlite::Error {
    // SAFETY: the handle is the live connection's; the message is copied out at once.
    let message = unsafe {
        let text = ffi::sqlite3_errmsg(connection.handle());
        (!text.is_null()).then(|| {
            std::ffi::CStr::from_ptr(text)
                .to_string_lossy()
                .into_owned()
        })
    };
    rusqlite::Error::SqliteFailure(ffi::Error::new(code), message)
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

/// Runs one SQL statement and hands its rows to `to` as they come.
pub fn query(path: &Path, sql: &str, to: &mut dyn AnswerSink) -> Result<(), StoreError> {
    if !path.is_file() {
        return Err(StoreError::Target(format!(
            "no database at {} (load games into it first)",
            path.display()
        )));
    }
    // Opened for writing (SQLite falls back to reading a file it may not write), with SQL
    // limited to reading: a load killed while committing leaves a hot journal, which only a
    // connection that may write rolls back; a read-only one fails every query until then.
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(path, flags)?;
    // A load's commit (a live load commits at every pause) is waited for, not an error.
    connection.busy_timeout(BUSY_TIMEOUT)?;
    connection.pragma_update(None, "query_only", true)?;
    let mut statement = connection.prepare(sql)?;
    // `query_only` stops writes to the store, not `VACUUM INTO 'copy.sqlite'`, which
    // writes another file: SQLite says which statements write anything.
    if !statement.readonly() {
        return Err(StoreError::Target(
            "this statement may write: a query only reads".into(),
        ));
    }
    let columns: Vec<String> = statement.column_names().map(|c| c.to_string()).collect();
    let n = columns.len();
    to.columns(columns)?;
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
        to.row(values)?;
    }
    Ok(())
}
