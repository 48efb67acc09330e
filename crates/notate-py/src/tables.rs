//! The tables of `notate load` from Python: `to_arrow` (record batches of `games` or
//! `moves`, handed to pyarrow through the Arrow C data interface) and `load` (games into
//! SQLite, PostgreSQL or Parquet). Rows, Arrow columns and Parquet row groups are all built
//! on the reading threads ([`ChunkMap`]); Python's thread only takes what they made.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use arrow_array::RecordBatch;
use arrow_pyarrow::ToPyArrow;
use notate::chess::pgn::{GameSplitter, Keep, Pgn, ReadOptions};
use notate::chess::rows::{RowBatch, RowWriter, Tables};
use notate::chunk::Chunk;
use notate::format::{ChunkMap, ReadFormat, StillWaiting};
use notate::{Error, ErrorKind};
use notate_store::arrow::{BatchBuilder, Partitioning, Table};
use notate_store::{Inserted, Rows, Target};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{
    caused, fs_decoded, game_error, text, type_name, usage, warn, OnError, WarningCap, MAX_WARNINGS,
};
use crate::source::{self, Input};
use crate::{run_interruptibly, SIGNALS_EVERY};

/// How the tables read PGN: comments hold only their clock, time and evaluation commands,
/// all a row has of them (as `notate load` reads).
fn read_options() -> ReadOptions {
    ReadOptions {
        keep: Keep::Annotations,
        ..ReadOptions::default()
    }
}

/// What becomes of each game of a chunk, in order: `Ok` for a game whose rows were written
/// (the next game of the chunk's rows), or why it has none.
type Outcomes = Vec<Result<(), Error>>;

/// Reads a chunk's games as the tables read them and writes their rows into `rows`
/// (cleared first): each game's outcome, and its warnings (what reading skipped without
/// failing it, placed in the source; numbered when the game is given). A game the rows
/// cannot hold (a null move) is placed in the source as a game that does not read is.
fn chunk_rows(
    writer: &mut RowWriter,
    chunk: &Chunk,
    rows: &mut RowBatch,
) -> (Outcomes, Vec<Vec<Error>>) {
    let (mut games, mut origins, mut warnings) = (Vec::new(), Vec::new(), Vec::new());
    Pgn::read_chunk_with_warnings(
        chunk,
        &read_options(),
        &mut games,
        &mut origins,
        &mut warnings,
    );
    rows.clear();
    let mut locator = chunk.locator();
    let outcomes = games
        .into_iter()
        .zip(origins)
        .map(|(game, origin)| {
            let mark = rows.len();
            let game = game?;
            writer.write(&game, rows).map_err(|mut error| {
                rows.truncate(mark);
                if let Some(origin) = origin {
                    origin.in_chunk(chunk).place(&mut error, &mut locator);
                }
                error
            })
        })
        .collect();
    (outcomes, warnings)
}

/// A chunk's games as one record batch, and each game's end among its rows.
struct ArrowChunk {
    batch: RecordBatch,
    /// Per game of the chunk: the end of its rows in `batch`, or its error.
    outcomes: Vec<Result<usize, Error>>,
    /// Per game of the chunk: its warnings.
    warnings: Vec<Vec<Error>>,
}

/// The record batches of `to_arrow`, one or more per chunk of the source, in order.
#[pyclass(module = "notate")]
pub struct ArrowBatches {
    state: Mutex<BatchState>,
    on_error: OnError,
    /// What the source's `read()` raised, for the error that ends the batches.
    raised: source::Raised,
    /// A step whose warning a warnings filter made an exception, and its warnings not yet
    /// reported: taken up at the next call.
    pending: Mutex<Option<(Step, Vec<Error>)>>,
    /// The warnings reported so far.
    cap: WarningCap,
    /// The pyarrow schema of every batch.
    #[pyo3(get)]
    schema: Py<PyAny>,
}

struct BatchState {
    chunks: ChunkMap<ArrowChunk>,
    /// The chunk being given out, and the next of its outcomes.
    current: Option<(ArrowChunk, usize)>,
    /// Games seen so far (numbers errors as the command line does).
    games: u64,
    /// The warnings of the games passed by the last step, numbered, to report with it.
    noticed: Vec<Error>,
}

/// What the iterator does next.
enum Step {
    Batch(RecordBatch),
    /// A bad game.
    Error(Error),
    /// The source could not be read on: always raised, and the end.
    Fatal(Error),
    End,
    /// Nothing yet, after [`SIGNALS_EVERY`]: signals are looked at before waiting again.
    Waiting,
}

impl BatchState {
    /// Passes game `game` of the chunk in hand: numbers it and keeps its warnings.
    fn pass(&mut self, game: usize) {
        self.games += 1;
        if let Some((current, _)) = &mut self.current {
            for mut warning in std::mem::take(&mut current.warnings[game]) {
                warning.game.get_or_insert(self.games);
                self.noticed.push(warning);
            }
        }
    }

    fn step(&mut self) -> Step {
        loop {
            let Some((chunk, next)) = &mut self.current else {
                match self.chunks.next_within(SIGNALS_EVERY) {
                    Err(StillWaiting) => return Step::Waiting,
                    Ok(None) => return Step::End,
                    Ok(Some(Err(e))) => {
                        return Step::Fatal(Error::from(e).with_game(self.games + 1))
                    }
                    Ok(Some(Ok(chunk))) => self.current = Some((chunk, 0)),
                }
                continue;
            };
            // Rows from the end of the game before `next` up to the first error.
            let start = match *next {
                0 => 0,
                n => chunk.outcomes[..n]
                    .iter()
                    .rev()
                    .find_map(|o| o.as_ref().ok().copied())
                    .unwrap_or(0),
            };
            let (from, mut end) = (*next, start);
            while let Some(Ok(game_end)) = chunk.outcomes.get(*next) {
                end = *game_end;
                *next += 1;
            }
            let (to, batch) = (*next, chunk.batch.slice(start, end - start));
            let failed = chunk
                .outcomes
                .get(to)
                .and_then(|o| o.as_ref().err().cloned());
            for game in from..to {
                self.pass(game);
            }
            if end > start {
                return Step::Batch(batch);
            }
            match failed {
                Some(error) => {
                    if let Some((_, next)) = &mut self.current {
                        *next += 1;
                    }
                    self.pass(to);
                    return Step::Error(error.with_game(self.games));
                }
                None => self.current = None,
            }
        }
    }
}

#[pymethods]
impl ArrowBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            let pending = self
                .pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            let (step, mut noticed) = pending.unwrap_or_else(|| {
                py.detach(|| {
                    let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                    let step = state.step();
                    (step, std::mem::take(&mut state.noticed))
                })
            });
            // What reading skipped in the games given now, before them. A warnings filter
            // that raises stops here; the next call goes on with the other warnings, then
            // the step.
            if let Err(raised) = self.cap.report(py, &mut noticed) {
                *self.pending.lock().unwrap_or_else(|e| e.into_inner()) = Some((step, noticed));
                return Err(raised);
            }
            match step {
                Step::End => {
                    self.cap.end(py)?;
                    return Ok(None);
                }
                Step::Waiting => py.check_signals()?,
                Step::Batch(batch) => return Ok(Some(batch.to_pyarrow(py)?.unbind())),
                Step::Fatal(error) => return Err(self.raised.error(py, game_error(py, &error))),
                // Raised where the game's rows would be, after the batches before it.
                Step::Error(error) if self.on_error == OnError::Raise => {
                    return Err(game_error(py, &error))
                }
                Step::Error(error) => warn(py, &error)?,
            }
        }
    }
}

/// _arrow_batches(source, table, columns, errors, threads)
/// --
///
/// The record batches behind `notate.to_arrow` (which wraps them in a
/// `pyarrow.RecordBatchReader`).
#[pyfunction]
#[pyo3(signature = (source, table = None, columns = None, errors = None, threads = None))]
pub fn _arrow_batches(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    columns: Option<&Bound<'_, PyAny>>,
    errors: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<ArrowBatches> {
    let table = match table.filter(|t| !t.is_none()) {
        Some(table) => text(table, "table")?,
        None => "moves".to_string(),
    };
    let columns = column_names(columns)?;
    let table = Table::from_name(&table)
        .ok_or_else(|| usage(format!("table: \"games\" or \"moves\", not {table:?}")))?;
    let on_error = OnError::parse(errors, OnError::Warn)?;
    let threads = crate::threads(threads)?;
    let names: Option<Vec<&str>> = columns
        .as_ref()
        .map(|c| c.iter().map(String::as_str).collect());
    // Checked here, once: a bad column name is an error before anything is read.
    let builder = BatchBuilder::new(table, Partitioning::InColumns, names.as_deref())
        .map_err(|e| usage(e.to_string()))?;
    let schema = builder.schema().to_pyarrow(py)?.unbind();
    let names: Option<Vec<String>> = columns;
    let opened = source::open_named(source)?;
    let splitter = Pgn::splitter(opened.input, &read_options());
    let chunks = ChunkMap::of_chunks(splitter, threads, move || {
        let names = names.clone();
        // The games table needs no move's row (nor its FENs).
        let mut writer = RowWriter::with_tables(match table {
            Table::Games => Tables::GamesOnly,
            Table::Moves => Tables::GamesAndMoves,
        });
        let mut rows = RowBatch::new();
        let mut builder = None::<BatchBuilder>;
        move |chunk: &Chunk| {
            let (outcomes, warnings) = chunk_rows(&mut writer, chunk, &mut rows);
            let builder = builder.get_or_insert_with(|| {
                let names: Option<Vec<&str>> = names
                    .as_ref()
                    .map(|c| c.iter().map(String::as_str).collect());
                BatchBuilder::new(table, Partitioning::InColumns, names.as_deref())
                    .expect("the columns were checked before reading")
            });
            let mut games = rows.games.iter();
            let outcomes = outcomes
                .into_iter()
                .map(|outcome| {
                    outcome.map(|()| {
                        let game = games.next().expect("a row per game written");
                        builder.push_game(&rows, game);
                        builder.len()
                    })
                })
                .collect();
            ArrowChunk {
                batch: builder.finish(),
                outcomes,
                warnings,
            }
        }
    });
    Ok(ArrowBatches {
        state: Mutex::new(BatchState {
            chunks,
            current: None,
            games: 0,
            noticed: Vec::new(),
        }),
        on_error,
        raised: opened.raised,
        pending: Mutex::new(None),
        cap: WarningCap::default(),
        schema,
    })
}

/// The names of `columns` (`None`: every column): a list or another iterable of `str`, not
/// one `str` (whose letters would be taken for names).
fn column_names(columns: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<String>>> {
    let Some(columns) = columns.filter(|c| !c.is_none()) else {
        return Ok(None);
    };
    let list = || {
        usage(format!(
            "columns: a list of column names, not {}",
            type_name(columns)
        ))
    };
    if columns.is_instance_of::<pyo3::types::PyString>() {
        return Err(list());
    }
    let names = columns
        .try_iter()
        .map_err(|_| list())?
        .map(|name| {
            // What the iterable raises is said as notate's error, caused by it.
            let name = name.map_err(|e| caused(columns.py(), e, "columns could not be read"))?;
            text(&name, "columns")
        })
        .collect::<PyResult<Vec<String>>>()?;
    // A column given twice would be two columns of one name: pandas and DuckDB take one of
    // them, or refuse the table.
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(usage(format!("columns: {name:?} given twice")));
        }
    }
    Ok(Some(names))
}

/// load(source, db, *, errors="raise", threads=None)
/// --
///
/// Loads the games of a PGN source (as `read_pgn` takes it) into `db`, as `notate load --db`
/// does: a SQLite file (any path), `postgres://…`, or `parquet:DIR`. Games already stored
/// (the same id) are not added again; rows are built, and Parquet's files encoded, on
/// `threads` threads (1 to 256; default: every core).
///
/// Returns a dict: `games` (added), `known` (already there), `moves` (rows added), `errors`
/// (the `GameError` of each bad game, then of each game not stored because a different game
/// stored before has its id: kind `id-clash`, no place, since the store finds it once its
/// batch is stored; ids are 64-bit hashes), `warnings` (how many things reading skipped without
/// failing a game, such as a token that is no move; each is reported by `warnings.warn`,
/// category `GameWarning`, once the load has ended: at most 10,000, then their count). A bad game raises `GameError` after the games before
/// it are committed; a game not stored for its id raises once the whole load is committed
/// (the others as its notes); with `errors="collect"` the load goes on and the errors are
/// listed. An error that ends the load has the failures found before it as its notes.
/// Ctrl-C stops the load after the batch in hand, which is committed whole, and raises
/// `KeyboardInterrupt`.
///
/// >>> import notate, tempfile, os
/// >>> db = os.path.join(tempfile.mkdtemp(), "games.sqlite")
/// >>> notate.load("1. e4 e5 *", db)["moves"]
/// 2
#[pyfunction]
#[pyo3(signature = (source, db, *, errors = None, threads = None))]
pub fn load<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    db: &Bound<'py, PyAny>,
    errors: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    // A text, or a path object (`pathlib.Path`) of a SQLite file.
    let os = py.import("os")?;
    let db: String = if db.is_instance_of::<pyo3::types::PyString>() {
        text(db, "db")?
    } else if db.is_instance(&os.getattr("PathLike")?)?
        || db.is_instance_of::<pyo3::types::PyBytes>()
    {
        text(&fs_decoded(db, "db")?, "db")?
    } else {
        return Err(usage(format!(
            "db: a SQLite path, postgres://… or parquet:DIR (a str, bytes or a path object), not {}",
            type_name(db)
        )));
    };
    let db = db.as_str();
    // Said with the argument's name here (the store's parser names the command line's --db).
    if db.trim().is_empty() {
        return Err(usage(
            "db is empty: a SQLite path, postgres://… or parquet:DIR",
        ));
    }
    let collect = OnError::parse(errors, OnError::Collect)? == OnError::Collect;
    let threads = crate::threads(threads)?;
    let target = Target::parse(db).map_err(|e| usage(e.to_string()))?;
    // Made here, where a failure is a plain error before anything is read.
    target.preparer().map_err(|e| usage(e.to_string()))?;
    let opened = source::open_named(source)?;
    let (input, raised) = (opened.input, opened.raised);
    // The load runs on a thread of its own while this one looks for signals now and then:
    // Ctrl-C stops it after the batch in hand, whose games are committed as a whole, and
    // raises KeyboardInterrupt (a long load would otherwise not stop before its end).
    let stop = AtomicBool::new(false);
    let mut noted = Noted::default();
    let ((outcome, failures), interrupted) = run_interruptibly(py, &stop, || {
        run_load(&target, input, threads, collect, &stop, &mut noted)
    });
    // What reading skipped, before how the load ended (an interrupt first).
    let warnings = noted.report(py);
    let failures: Vec<PyErr> = failures.iter().map(|e| game_error(py, e)).collect();
    // When an error ends the load, the failures found before it (games not stored for their
    // id; with errors="collect", the bad games too) are its notes: nothing goes unsaid.
    let noted_with = |error: PyErr| -> PyErr {
        for failure in &failures {
            add_note(py, &error, failure);
        }
        error
    };
    if let Some(signal) = interrupted {
        // A commit that failed is said, caused by the interrupt; otherwise the interrupt.
        if let Err(LoadFailure::Store(message)) = &outcome {
            let error = usage(format!("{db}: {message}"));
            error.set_cause(py, Some(signal));
            return Err(noted_with(error));
        }
        return Err(noted_with(signal));
    }
    let inserted = match outcome {
        Ok(inserted) => inserted,
        Err(LoadFailure::Game(error)) => return Err(noted_with(game_error(py, &error))),
        // What the source's `read()` raised is the cause, or is raised itself (SystemExit).
        Err(LoadFailure::Source(error)) => {
            return Err(noted_with(raised.error(py, game_error(py, &error))))
        }
        Err(LoadFailure::Store(message)) => {
            return Err(noted_with(usage(format!("{db}: {message}"))))
        }
    };
    let mut failures = failures.into_iter();
    if !collect {
        // Raising, the only failures kept are games not stored for their id, found once the
        // load is committed: the first is raised, the others are its notes.
        if let Some(first) = failures.next() {
            for other in failures {
                add_note(py, &first, &other);
            }
            return Err(first);
        }
    }
    let failures: Vec<Py<PyAny>> = failures.map(|e| e.into_value(py).into_any()).collect();
    let warnings = warnings?;
    let result = PyDict::new(py);
    result.set_item("games", inserted.games)?;
    result.set_item("known", inserted.known)?;
    result.set_item("moves", inserted.moves)?;
    result.set_item("errors", failures)?;
    result.set_item("warnings", warnings)?;
    Ok(result)
}

/// The warnings of a load, reported once it has ended (its reading runs without the GIL):
/// at most [`MAX_WARNINGS`] listed, and how many more.
#[derive(Default)]
struct Noted {
    listed: Vec<Error>,
    left_out: u64,
}

impl Noted {
    /// The warnings of game number `game`.
    fn add(&mut self, warnings: Vec<Error>, game: u64) {
        for mut warning in warnings {
            if (self.listed.len() as u64) < MAX_WARNINGS {
                warning.game.get_or_insert(game);
                self.listed.push(warning);
            } else {
                self.left_out += 1;
            }
        }
    }

    /// Reports them as a reading does ([`WarningCap`]), the count of those left out last;
    /// how many there were.
    fn report(mut self, py: Python<'_>) -> PyResult<u64> {
        let count = self.listed.len() as u64 + self.left_out;
        let cap = WarningCap::default();
        cap.left_out(self.left_out);
        cap.report(py, &mut self.listed)?;
        cap.end(py)?;
        Ok(count)
    }
}

/// Why a load stopped.
enum LoadFailure {
    /// A bad game, with `errors="raise"`.
    Game(Error),
    /// The source could not be read on.
    Source(Error),
    /// The store said no.
    Store(String),
}

/// The load itself, without the GIL: the games added, and the bad games' errors. Once `stop`
/// is set, it commits what it stored and ends before the next batch.
fn run_load(
    target: &Target,
    input: Input,
    threads: usize,
    collect: bool,
    stop: &AtomicBool,
    noted: &mut Noted,
) -> (Result<Inserted, LoadFailure>, Vec<Error>) {
    let store_error = |e: notate_store::StoreError| LoadFailure::Store(e.to_string());
    let mut failures = Vec::new();
    let mut store = match target.open() {
        Ok(store) => store,
        Err(e) => return (Err(store_error(e)), failures),
    };
    let target = target.clone();
    // Whole chunks from the first, as `notate load` cuts them: each is a Parquet row group.
    let splitter = GameSplitter::with_limits(input, notate_store::CHUNK_BYTES, read_options());
    let mut chunks = ChunkMap::of_chunks(splitter, threads, move || {
        let mut writer = RowWriter::new();
        let mut preparer = target.preparer().expect("made once before reading");
        move |chunk: &Chunk| {
            let mut rows = Rows::default();
            let (outcomes, warnings) = chunk_rows(&mut writer, chunk, &mut rows.batch);
            // A failure here comes again from the store's thread, which then does the work.
            let _ = preparer.prepare(&mut rows);
            (rows, outcomes, warnings)
        }
    });
    let mut games = 0u64;
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        // Waited for a while at a time, so that a stop is seen while the source is silent.
        let chunk = match chunks.next_within(SIGNALS_EVERY) {
            Err(StillWaiting) => continue,
            Ok(None) => break,
            Ok(Some(chunk)) => chunk,
        };
        let (mut rows, outcomes, warnings) = match chunk {
            Ok(chunk) => chunk,
            Err(e) => {
                let error = Error::from(e).with_game(games + 1);
                let outcome = finish_after(&mut *store, LoadFailure::Source(error), &mut failures);
                return (outcome, failures);
            }
        };
        let mut written = 0;
        for (outcome, noticed) in outcomes.into_iter().zip(warnings) {
            games += 1;
            noted.add(noticed, games);
            match outcome {
                Ok(()) => written += 1,
                Err(error) if collect => failures.push(error.with_game(games)),
                Err(error) => {
                    // The games before it are stored, then the load stops.
                    let stored = insert(&mut *store, &mut rows, 0..written);
                    if let Err(e) = stored {
                        return (Err(store_error(e)), failures);
                    }
                    let failure = LoadFailure::Game(error.with_game(games));
                    let outcome = finish_after(&mut *store, failure, &mut failures);
                    return (outcome, failures);
                }
            }
        }
        if let Err(e) = insert(&mut *store, &mut rows, 0..written) {
            return (Err(store_error(e)), failures);
        }
    }
    let outcome = store.finish().map(|mut inserted| {
        failures.extend(clash_errors(&mut inserted));
        inserted
    });
    (outcome.map_err(store_error), failures)
}

/// The games a load did not store because a different game has their id, as errors of their
/// own, with no place (the store finds them after their batch has left the reading).
fn clash_errors(inserted: &mut Inserted) -> impl Iterator<Item = Error> {
    std::mem::take(&mut inserted.clashes)
        .into_iter()
        .map(|clash| Error::new(ErrorKind::IdClash, clash.to_string()))
}

fn insert(
    store: &mut dyn notate_store::Store,
    rows: &mut Rows,
    games: Range<usize>,
) -> Result<(), notate_store::StoreError> {
    if games.is_empty() {
        return Ok(());
    }
    store.insert_rows(rows, games)
}

/// Adds `note` (its text) to `error`'s `__notes__`, as Python 3.11's `add_note` does (the
/// wheel runs on 3.9 and 3.10 too, which keep the notes without printing them).
fn add_note(py: Python<'_>, error: &PyErr, note: &PyErr) {
    let value = error.value(py);
    let notes = match value.getattr("__notes__") {
        Ok(notes) => notes,
        Err(_) => {
            let notes = pyo3::types::PyList::empty(py).into_any();
            if value.setattr("__notes__", &notes).is_err() {
                return;
            }
            notes
        }
    };
    let _ = notes.call_method1("append", (note.value(py).to_string(),));
}

/// Commits what was stored, then gives `failure` (the games found not stored for their id
/// join `failures`).
fn finish_after(
    store: &mut dyn notate_store::Store,
    failure: LoadFailure,
    failures: &mut Vec<Error>,
) -> Result<Inserted, LoadFailure> {
    match store.finish() {
        Ok(mut inserted) => {
            failures.extend(clash_errors(&mut inserted));
            Err(failure)
        }
        Err(e) => Err(LoadFailure::Store(e.to_string())),
    }
}
