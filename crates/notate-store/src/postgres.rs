//! PostgreSQL, through the `postgres` client and binary `COPY`.
//!
//! `COPY` cannot skip rows that are there already, so a batch's games are copied into a
//! temporary staging table and moved from there with `INSERT … ON CONFLICT DO NOTHING
//! RETURNING id`; then the moves of the games really added are copied straight into
//! `moves`. Each batch is one transaction.
//!
//! Several loads may run into one database at once:
//! - the tables are created under an advisory lock, so two loads starting together into a new
//!   database do not both create them;
//! - a batch inserts its games in the order of their ids, so two transactions (of two loads,
//!   or the two connections of one) wait for each other's games (the second skips a game the
//!   first added) but never in a circle: no deadlock, no duplicate, and no game lost if the
//!   other rolls back.
//!
//! The rows are encoded in `COPY`'s binary format by the load's workers ([`Encoded`]), and
//! sent on [`SESSIONS`] connections at once, a batch each: the server (the slow side: it
//! parses, stores, logs and indexes every row) works on one core per connection. A batch is
//! committed once its connection is done with it, in whichever order; an error comes out of
//! the next [`Store::insert_rows`] or of [`Store::finish`], which waits for every batch. So
//! when a batch fails, the one sent after it may still be committed: the store holds whole
//! games, and a load run again adds what is missing.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::ops::Range;
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use notate::chess::rows::RowBatch;
use postgres::types::Type;
use postgres::{Client, NoTls, SimpleQueryMessage};

use crate::schema::{self, Cell, Kind, GAMES, MOVES};
use crate::{AnswerSink, IdClash, Inserted, Prepared, Rows, Store, StoreError, Value};

/// Connections a load sends its batches on at once. The server takes a batch on one core
/// (measured by `scripts/bench-load`: 428,000 rows/s for one session copying from a file on
/// the server, 850,000 for two), so two keep a 2-core server busy while the load's own work
/// goes on; a third would only wait for a core.
pub const SESSIONS: usize = 2;

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    /// For the tables, and `ANALYZE` at the end.
    client: Client,
    /// Batches to send, to the first free connection.
    jobs: Option<SyncSender<Job>>,
    /// What each batch added, or why it failed.
    done: Receiver<Result<Inserted, StoreError>>,
    senders: Vec<JoinHandle<()>>,
    /// Batches sent whose result has not been read.
    in_flight: usize,
    inserted: Inserted,
}

/// A batch for a connection: the games `games` of a batch (their ids and move counts, in
/// order) and their `COPY` tuples.
struct Job {
    games: Range<usize>,
    ids: Vec<i64>,
    /// Their `id_check`s.
    checks: Vec<i64>,
    moves: Vec<usize>,
    encoded: Encoded,
}

fn type_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BigInt => "BIGINT",
        Kind::Int => "INTEGER",
        Kind::Real => "DOUBLE PRECISION",
        Kind::Text => "TEXT",
        Kind::Bool => "BOOLEAN",
        // `json` keeps the text as written, the tags in file order (`jsonb` would sort
        // them).
        Kind::Json => "JSON",
    }
}

/// The advisory lock every notate load takes to create the tables (the bytes of "notate").
const SCHEMA_LOCK: i64 = 0x6e6f_7461_7465;

impl PostgresStore {
    /// Connects (`postgres://user@host:port/db`) and creates the tables when missing.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let mut client = Client::connect(url, NoTls)?;
        // `CREATE TABLE IF NOT EXISTS` is not safe against itself: two at once both find no
        // table and one fails on the catalog's unique index. The lock makes them take turns.
        // And when everything is there, no DDL runs: `CREATE INDEX IF NOT EXISTS` takes its
        // table's share lock all the same, which waits for another load's open batch.
        let mut names = vec!["games", "moves"];
        names.extend(schema::INDEXES.iter().map(|(_, name, _, _)| *name));
        let mut transaction = client.transaction()?;
        transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])?;
        let missing: i64 = transaction
            .query_one(
                "SELECT count(*) FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NULL",
                &[&names],
            )?
            .get(0);
        // A store made before its text indexes were hash indexes has B-trees there, which
        // refuse a long name: they are made again.
        let hashed: Vec<&str> = schema::HASHED_IN_POSTGRES.iter().map(|(n, _)| *n).collect();
        let b_trees: Vec<String> = transaction
            .query(
                "SELECT c.relname::text FROM unnest($1::text[]) AS name \
                 JOIN pg_class c ON c.oid = to_regclass(name) \
                 JOIN pg_am a ON a.oid = c.relam WHERE a.amname <> 'hash'",
                &[&hashed],
            )?
            .iter()
            .map(|row| row.get(0))
            .collect();
        for name in &b_trees {
            transaction.batch_execute(&format!("DROP INDEX {name}"))?;
        }
        if missing > 0 || !b_trees.is_empty() {
            transaction.batch_execute(&schema::ddl(type_name, "", &schema::HASHED_IN_POSTGRES))?;
        }
        // A store made before games had `id_check` gets it, empty for the games there
        // (looked up first: `ADD COLUMN IF NOT EXISTS` would lock the table all the same).
        let has_check: bool = transaction
            .query_one(
                "SELECT count(*) > 0 FROM pg_attribute \
                 WHERE attrelid = to_regclass('games') AND attname = 'id_check' \
                 AND NOT attisdropped",
                &[],
            )?
            .get(0);
        if !has_check {
            transaction.batch_execute("ALTER TABLE games ADD COLUMN id_check BIGINT")?;
        }
        transaction.commit()?;
        let (jobs, queue) = mpsc::sync_channel::<Job>(0);
        let queue = Arc::new(Mutex::new(queue));
        let (report, done) = mpsc::channel();
        let mut senders = Vec::with_capacity(SESSIONS);
        for _ in 0..SESSIONS {
            let mut session = Client::connect(url, NoTls)?;
            session.batch_execute("CREATE TEMP TABLE games_stage (LIKE games);")?;
            let (queue, report) = (queue.clone(), report.clone());
            senders.push(std::thread::spawn(move || sender(session, &queue, &report)));
        }
        Ok(PostgresStore {
            client,
            jobs: Some(jobs),
            done,
            senders,
            in_flight: 0,
            inserted: Inserted::default(),
        })
    }

    /// Reads the results of the batches sent (waiting for all of them with `wait`): the first
    /// error, if one failed.
    fn collect(&mut self, wait: bool) -> Result<(), StoreError> {
        let mut first_error = None;
        while self.in_flight > 0 {
            let result = if wait {
                self.done.recv().map_err(|_| disconnected())
            } else {
                match self.done.try_recv() {
                    Ok(result) => Ok(result),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => Err(disconnected()),
                }
            };
            self.in_flight -= 1;
            match result.and_then(|r| r) {
                Ok(inserted) => self.inserted += inserted,
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Hands the games `games` of `batch`, encoded, to the first free connection (waiting
    /// for one).
    fn submit(
        &mut self,
        batch: &RowBatch,
        encoded: Encoded,
        games: Range<usize>,
    ) -> Result<(), StoreError> {
        self.collect(false)?;
        let job = Job {
            ids: batch.games[games.clone()].iter().map(|g| g.id).collect(),
            checks: batch.games[games.clone()]
                .iter()
                .map(|g| g.id_check)
                .collect(),
            moves: batch.games[games.clone()]
                .iter()
                .map(|g| g.moves.len())
                .collect(),
            games,
            encoded,
        };
        let jobs = self.jobs.as_ref().ok_or_else(disconnected)?;
        jobs.send(job).map_err(|_| disconnected())?;
        self.in_flight += 1;
        Ok(())
    }
}

impl Drop for PostgresStore {
    /// Lets the connections finish the batches they have (each commits or rolls back whole).
    fn drop(&mut self) {
        self.jobs = None;
        for sender in self.senders.drain(..) {
            let _ = sender.join();
        }
    }
}

/// A connection's thread: the batches it takes from `queue` sent, each one's result on
/// `report`, until the store is gone.
fn sender(
    mut session: Client,
    queue: &Mutex<Receiver<Job>>,
    report: &mpsc::Sender<Result<Inserted, StoreError>>,
) {
    loop {
        // The lock is held only to take a job, not while sending it.
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        // A panic is an error of its batch: the result must come back, or the store would
        // wait for it for ever.
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| send(&mut session, &job)))
                .unwrap_or_else(|_| {
                    Err(StoreError::Target(
                        "sending a batch to PostgreSQL panicked".into(),
                    ))
                });
        if report.send(result).is_err() {
            return;
        }
    }
}

fn disconnected() -> StoreError {
    StoreError::Target("a PostgreSQL connection of the load stopped".into())
}

/// Sends one batch on `client`, as one transaction: the games that are new (in the order of
/// their ids), then their moves. What it added.
fn send(client: &mut Client, job: &Job) -> Result<Inserted, StoreError> {
    let Job {
        games,
        ids,
        checks,
        moves,
        encoded,
    } = job;
    let mut inserted = Inserted::default();
    let mut transaction = client.transaction()?;
    // A game twice in one batch is staged once (the second would be a conflict inside
    // one INSERT, which PostgreSQL refuses); the others are compared with the game that
    // ends up with the id once the INSERT is done.
    let mut staged = HashSet::with_capacity(ids.len());
    let first: Vec<bool> = ids.iter().map(|&id| staged.insert(id)).collect();
    let firsts: Vec<usize> = (0..ids.len()).filter(|&i| first[i]).collect();
    {
        let mut sink = transaction.copy_in("COPY games_stage FROM STDIN (FORMAT binary)")?;
        sink.write_all(COPY_HEADER).map_err(sent)?;
        for &i in &firsts {
            sink.write_all(encoded.game(games.start + i))
                .map_err(sent)?;
        }
        sink.write_all(COPY_TRAILER).map_err(sent)?;
        sink.finish()?;
    }
    // In the order of the ids: two connections (of this load or another) lock the games
    // they share in the same order, so they never wait for each other in a circle.
    let new: HashSet<i64> = transaction
        .query(
            "WITH staged AS (DELETE FROM games_stage RETURNING *)
             INSERT INTO games SELECT * FROM staged ORDER BY id ON CONFLICT (id) DO NOTHING
             RETURNING id",
            &[],
        )?
        .iter()
        .map(|row| row.get(0))
        .collect();
    // The check of the game that has each id now: this batch's for a game it added, the
    // stored one's otherwise (`None`: stored before there were checks, so any game with
    // its id is taken for it).
    let mut holder: HashMap<i64, Option<i64>> = firsts
        .iter()
        .filter(|&&i| new.contains(&ids[i]))
        .map(|&i| (ids[i], Some(checks[i])))
        .collect();
    let taken: Vec<i64> = firsts
        .iter()
        .map(|&i| ids[i])
        .filter(|id| !new.contains(id))
        .collect();
    if !taken.is_empty() {
        let stored = transaction.query(
            "SELECT id, id_check FROM games WHERE id = ANY($1)",
            &[&taken],
        )?;
        holder.extend(stored.iter().map(|row| (row.get::<_, i64>(0), row.get(1))));
    }
    // Every game but those added: known, or a clash.
    for i in (0..ids.len()).filter(|&i| !(first[i] && new.contains(&ids[i]))) {
        match holder.get(&ids[i]) {
            Some(Some(check)) if *check != checks[i] => {
                inserted
                    .clashes
                    .push(clash(ids[i], encoded.game(games.start + i)));
            }
            _ => inserted.known += 1,
        }
    }
    if !new.is_empty() {
        let mut sink = transaction.copy_in("COPY moves FROM STDIN (FORMAT binary)")?;
        sink.write_all(COPY_HEADER).map_err(sent)?;
        let mut added = 0;
        // Runs of new games are one slice of bytes: every game, when all are new.
        let mut run: Option<Range<usize>> = None;
        for &i in firsts.iter().filter(|&&i| new.contains(&ids[i])) {
            added += moves[i];
            let g = games.start + i;
            run = match run {
                Some(r) if r.end == g => Some(r.start..g + 1),
                Some(r) => {
                    sink.write_all(encoded.moves_of(r)).map_err(sent)?;
                    Some(g..g + 1)
                }
                None => Some(g..g + 1),
            };
        }
        if let Some(r) = run {
            sink.write_all(encoded.moves_of(r)).map_err(sent)?;
        }
        sink.write_all(COPY_TRAILER).map_err(sent)?;
        sink.finish()?;
        inserted.games = new.len() as u64;
        inserted.moves = added as u64;
    }
    transaction.commit()?;
    Ok(inserted)
}

impl Store for PostgresStore {
    fn insert(&mut self, batch: &RowBatch, games: Range<usize>) -> Result<(), StoreError> {
        let encoded = Encoded::new(batch, games.clone())?;
        self.submit(batch, encoded, games)
    }

    fn insert_rows(&mut self, rows: &mut Rows, games: Range<usize>) -> Result<(), StoreError> {
        match rows.prepared.take() {
            Some(Prepared::Postgres(encoded)) if encoded.holds(&games) => {
                self.submit(&rows.batch, encoded, games)
            }
            _ => self.insert(&rows.batch, games),
        }
    }

    fn flush(&mut self) -> Result<Inserted, StoreError> {
        self.collect(true)?;
        Ok(std::mem::take(&mut self.inserted))
    }

    fn finish(&mut self) -> Result<Inserted, StoreError> {
        self.collect(true)?;
        self.client.batch_execute("ANALYZE games; ANALYZE moves;")?;
        Ok(std::mem::take(&mut self.inserted))
    }
}

/// The start of binary `COPY` data: its signature, no flags, no header extension.
const COPY_HEADER: &[u8] = b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0";
/// The end of binary `COPY` data: a tuple of -1 fields.
const COPY_TRAILER: &[u8] = &(-1i16).to_be_bytes();

/// The games of a batch and their moves as tuples of binary `COPY` data, each game's bytes
/// findable, made by a load's worker (see [`crate::Preparer`]).
///
/// Why by hand and not with `postgres`' `BinaryCopyInWriter`: that writer encodes each
/// value as it sends it, on the one thread that talks to the server; these bytes are made on
/// the workers, and the store's thread sends only those of the games that turn out new. The
/// format is small and fixed (PostgreSQL's documentation, "COPY", "Binary Format"): per
/// tuple a 16-bit field count, per field a 32-bit length (-1: NULL) and the value in its
/// type's binary form (big-endian integers and doubles, a byte for booleans, text and json
/// as their UTF-8).
#[derive(Debug)]
pub(crate) struct Encoded {
    /// The games encoded: indexes of the batch.
    games: Range<usize>,
    game_bytes: Vec<u8>,
    /// Where each game's tuple ends in `game_bytes`.
    game_ends: Vec<usize>,
    move_bytes: Vec<u8>,
    /// Where each game's move tuples end in `move_bytes`.
    move_ends: Vec<usize>,
}

impl Encoded {
    /// Encodes the games `games` of `batch` and their moves.
    pub(crate) fn new(batch: &RowBatch, games: Range<usize>) -> Result<Encoded, StoreError> {
        let count = games.len();
        let moves: usize = batch.games[games.clone()]
            .iter()
            .map(|g| g.moves.len())
            .sum();
        let mut encoded = Encoded {
            games: games.clone(),
            game_bytes: Vec::with_capacity(count * 600),
            game_ends: Vec::with_capacity(count),
            move_bytes: Vec::with_capacity(moves * 300),
            move_ends: Vec::with_capacity(count),
        };
        for g in &batch.games[games] {
            tuple(
                &mut encoded.game_bytes,
                &GAMES,
                schema::game_cells(batch, g).iter(),
            )?;
            encoded.game_ends.push(encoded.game_bytes.len());
            for m in &batch.moves[g.moves.clone()] {
                tuple(
                    &mut encoded.move_bytes,
                    &MOVES,
                    schema::move_cells(batch, g, m).iter(),
                )?;
            }
            encoded.move_ends.push(encoded.move_bytes.len());
        }
        Ok(encoded)
    }

    /// Whether it holds the games `games` of the batch it was made from.
    fn holds(&self, games: &Range<usize>) -> bool {
        self.games.start <= games.start && games.end <= self.games.end
    }

    fn span(ends: &[usize], first: usize, last: usize) -> Range<usize> {
        let start = if first == 0 { 0 } else { ends[first - 1] };
        start..ends[last - 1]
    }

    /// The tuple of game `g` (an index of the batch).
    fn game(&self, g: usize) -> &[u8] {
        let i = g - self.games.start;
        &self.game_bytes[Self::span(&self.game_ends, i, i + 1)]
    }

    /// The move tuples of the games `games` (indexes of the batch).
    fn moves_of(&self, games: Range<usize>) -> &[u8] {
        let (first, last) = (games.start - self.games.start, games.end - self.games.start);
        &self.move_bytes[Self::span(&self.move_ends, first, last)]
    }
}

/// The clash of the game whose `COPY` tuple is `tuple`, named from the tuple's texts.
fn clash(id: i64, tuple: &[u8]) -> IdClash {
    let text = |name: &str| {
        let column = GAMES.iter().position(|c| c.name == name)?;
        tuple_text(tuple, column)
    };
    IdClash {
        id,
        game: schema::game_label(text("white"), text("black"), text("date"), text("site")),
    }
}

/// The text of field `column` of a `COPY` tuple made by [`tuple`] (`None`: NULL).
fn tuple_text(tuple: &[u8], column: usize) -> Option<&str> {
    // After the 16-bit field count, each field: a 32-bit length (-1: NULL), its bytes.
    let mut at = 2;
    for i in 0..=column {
        let len = i32::from_be_bytes(tuple.get(at..at + 4)?.try_into().ok()?);
        at += 4;
        // A negative length is NULL, with no bytes.
        let Ok(len) = usize::try_from(len) else {
            if i == column {
                return None;
            }
            continue;
        };
        if i == column {
            return std::str::from_utf8(tuple.get(at..at + len)?).ok();
        }
        at += len;
    }
    None
}

/// Appends one tuple of `cells`, of the types of `columns`.
fn tuple<'a>(
    out: &mut Vec<u8>,
    columns: &[schema::Column],
    cells: impl Iterator<Item = &'a Cell<'a>>,
) -> Result<(), StoreError> {
    out.extend_from_slice(&(columns.len() as i16).to_be_bytes());
    let mut count = 0;
    for (column, cell) in columns.iter().zip(cells) {
        count += 1;
        match (*cell, column.kind) {
            (Cell::Null, _) => out.extend_from_slice(&(-1i32).to_be_bytes()),
            (Cell::Int(v), Kind::BigInt) => field(out, &v.to_be_bytes()),
            (Cell::Int(v), Kind::Int) => {
                let v = i32::try_from(v).map_err(|_| {
                    StoreError::Target(format!("{}: {v} is past a 32-bit integer", column.name))
                })?;
                field(out, &v.to_be_bytes());
            }
            (Cell::Real(v), Kind::Real) => field(out, &v.to_be_bytes()),
            (Cell::Bool(v), Kind::Bool) => field(out, &[u8::from(v)]),
            (Cell::Text(s), Kind::Text | Kind::Json) => {
                let len = i32::try_from(s.len()).map_err(|_| {
                    StoreError::Target(format!("{}: a text of {} bytes", column.name, s.len()))
                })?;
                out.extend_from_slice(&len.to_be_bytes());
                out.extend_from_slice(s.as_bytes());
            }
            (cell, kind) => {
                return Err(StoreError::Target(format!(
                    "{}: a {kind:?} column given {cell:?}",
                    column.name
                )))
            }
        }
    }
    // A row with fewer values than columns would be read by the server as the next row's.
    if count != columns.len() {
        return Err(StoreError::Target(format!(
            "a row of {count} values for {} columns",
            columns.len()
        )));
    }
    Ok(())
}

/// An error of writing `COPY` data: the server's, when it said no.
fn sent(error: std::io::Error) -> StoreError {
    match error
        .into_inner()
        .map(|inner| inner.downcast::<postgres::Error>())
    {
        Some(Ok(server)) => StoreError::Postgres(*server),
        Some(Err(other)) => StoreError::Target(format!("sending rows to PostgreSQL: {other}")),
        None => StoreError::Target("sending rows to PostgreSQL failed".into()),
    }
}

fn field(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as i32).to_be_bytes());
    out.extend_from_slice(bytes);
}

/// Rows fetched at a time from a query's cursor: the answer streams, a few MB at a time.
const FETCH_ROWS: usize = 5000;

/// Runs one SQL statement, read-only, and hands its rows to `to` as they come.
pub fn query(url: &str, sql: &str, to: &mut dyn AnswerSink) -> Result<(), StoreError> {
    let mut client = Client::connect(url, NoTls)?;
    // The types come from preparing (which also refuses several statements in one); the
    // values as text from the simple protocol, which reads every type (numeric included)
    // without a decoder for each.
    let statement = client.prepare(sql)?;
    let types: Vec<Type> = statement
        .columns()
        .iter()
        .map(|c| c.type_().clone())
        .collect();
    to.columns(
        statement
            .columns()
            .iter()
            .map(|c| c.name().to_string())
            .collect(),
    )?;
    let mut rows = |messages: Vec<SimpleQueryMessage>| -> Result<usize, StoreError> {
        let mut n = 0;
        for message in messages {
            if let SimpleQueryMessage::Row(row) = message {
                let values = (0..row.len())
                    .map(|i| match row.get(i) {
                        None => Value::Null,
                        Some(text) => typed(text, types.get(i)),
                    })
                    .collect();
                to.row(values)?;
                n += 1;
            }
        }
        Ok(n)
    };
    // A cursor gives the answer a part at a time (`simple_query` alone holds all of it).
    // Only a query can have one: anything else (`SHOW`, `EXPLAIN`) runs whole.
    // A query reads, as SQLite's (opened read-only) does: `DELETE` or `DROP` is refused.
    // Inside a read-only transaction block either way: outside one, a `DO` block could
    // commit and write.
    client.batch_execute("BEGIN READ ONLY")?;
    if client
        .batch_execute(&format!("DECLARE notate_answer NO SCROLL CURSOR FOR {sql}"))
        .is_err()
    {
        client.batch_execute("ROLLBACK; BEGIN READ ONLY")?;
        rows(client.simple_query(sql)?)?;
        client.batch_execute("COMMIT")?;
        return Ok(());
    }
    let fetch = format!("FETCH FORWARD {FETCH_ROWS} FROM notate_answer");
    while rows(client.simple_query(&fetch)?)? == FETCH_ROWS {}
    client.batch_execute("COMMIT")?;
    Ok(())
}

fn typed(text: &str, ty: Option<&Type>) -> Value {
    let number = |v: Option<Value>| v.unwrap_or_else(|| Value::Text(text.to_string()));
    match ty {
        Some(t) if [Type::INT2, Type::INT4, Type::INT8, Type::OID].contains(t) => {
            number(text.parse().ok().map(Value::Int))
        }
        Some(t) if [Type::FLOAT4, Type::FLOAT8].contains(t) => {
            number(text.parse().ok().map(Value::Real))
        }
        // Exact: a whole one that fits is an integer, the others keep their digits.
        Some(t) if *t == Type::NUMERIC => text
            .parse()
            .map_or_else(|_| Value::Decimal(text.to_string()), Value::Int),
        Some(t) if *t == Type::BOOL => Value::Bool(text == "t"),
        _ => Value::Text(text.to_string()),
    }
}
