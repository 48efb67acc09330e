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
use notate::chess::ChessGame;
use notate::format::{ChunkMap, StillWaiting};
use notate::Error;
use notate_store::arrow::{BatchBuilder, Partitioning, Table};
use notate_store::{Inserted, Rows, Target};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{game_error, usage, warn, OnError};
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

/// Writes the rows of a chunk's games into `rows` (cleared first).
fn write_rows(
    writer: &mut RowWriter,
    games: Vec<Result<ChessGame, Error>>,
    rows: &mut RowBatch,
) -> Outcomes {
    rows.clear();
    games
        .into_iter()
        .map(|game| {
            let mark = rows.len();
            game.and_then(|game| writer.write(&game, rows))
                .inspect_err(|_| rows.truncate(mark))
        })
        .collect()
}

/// A chunk's games as one record batch, and each game's end among its rows.
struct ArrowChunk {
    batch: RecordBatch,
    /// Per game of the chunk: the end of its rows in `batch`, or its error.
    outcomes: Vec<Result<usize, Error>>,
}

/// The record batches of `to_arrow`, one or more per chunk of the source, in order.
#[pyclass(module = "notate")]
pub struct ArrowBatches {
    state: Mutex<BatchState>,
    on_error: OnError,
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
            let mut end = start;
            while let Some(Ok(game_end)) = chunk.outcomes.get(*next) {
                end = *game_end;
                *next += 1;
                self.games += 1;
            }
            if end > start {
                return Step::Batch(chunk.batch.slice(start, end - start));
            }
            match chunk.outcomes.get(*next) {
                Some(Err(error)) => {
                    let error = error.clone();
                    *next += 1;
                    self.games += 1;
                    return Step::Error(error.with_game(self.games));
                }
                _ => self.current = None,
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
            let step = py.detach(|| match self.state.lock() {
                Ok(mut state) => state.step(),
                Err(poisoned) => poisoned.into_inner().step(),
            });
            match step {
                Step::End => return Ok(None),
                Step::Waiting => py.check_signals()?,
                Step::Batch(batch) => return Ok(Some(batch.to_pyarrow(py)?.unbind())),
                Step::Fatal(error) => return Err(game_error(py, &error)),
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
#[pyo3(signature = (source, table = "moves", columns = None, errors = "raise", threads = None))]
pub fn _arrow_batches(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    table: &str,
    columns: Option<Vec<String>>,
    errors: &str,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<ArrowBatches> {
    let table = Table::from_name(table)
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
    let input: Input = source::open(source)?;
    let chunks = ChunkMap::new::<Pgn, _, _, _>(input, read_options(), threads, move || {
        let names = names.clone();
        // The games table needs no move's row (nor its FENs).
        let mut writer = RowWriter::with_tables(match table {
            Table::Games => Tables::GamesOnly,
            Table::Moves => Tables::GamesAndMoves,
        });
        let mut rows = RowBatch::new();
        let mut builder = None::<BatchBuilder>;
        move |games| {
            let outcomes = write_rows(&mut writer, games, &mut rows);
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
            }
        }
    });
    Ok(ArrowBatches {
        state: Mutex::new(BatchState {
            chunks,
            current: None,
            games: 0,
        }),
        on_error,
        schema,
    })
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
/// (the `GameError` of each bad game). A bad game raises `GameError` after the games before
/// it are committed; with `errors="collect"` the load goes on and the errors are listed.
/// Ctrl-C stops the load after the batch in hand, which is committed whole, and raises
/// `KeyboardInterrupt`.
///
/// >>> import notate, tempfile, os
/// >>> db = os.path.join(tempfile.mkdtemp(), "games.sqlite")
/// >>> notate.load("1. e4 e5 *", db)["moves"]
/// 2
#[pyfunction]
#[pyo3(signature = (source, db, *, errors = "raise", threads = None))]
pub fn load<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    db: &Bound<'py, PyAny>,
    errors: &str,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    // A text, or a path object (`pathlib.Path`) of a SQLite file.
    let db: String = if db.is_instance_of::<pyo3::types::PyString>() {
        db.extract()?
    } else {
        py.import("os")?
            .call_method1("fsdecode", (db,))?
            .extract()?
    };
    let db = db.as_str();
    let collect = OnError::parse(errors, OnError::Collect)? == OnError::Collect;
    let threads = crate::threads(threads)?;
    let target = Target::parse(db).map_err(|e| usage(e.to_string()))?;
    // Made here, where a failure is a plain error before anything is read.
    target.preparer().map_err(|e| usage(e.to_string()))?;
    let input: Input = source::open(source)?;
    // The load runs on a thread of its own while this one looks for signals now and then:
    // Ctrl-C stops it after the batch in hand, whose games are committed as a whole, and
    // raises KeyboardInterrupt (a long load would otherwise not stop before its end).
    let stop = AtomicBool::new(false);
    let ((outcome, failures), interrupted) = run_interruptibly(py, &stop, || {
        run_load(&target, input, threads, collect, &stop)
    });
    if let Some(signal) = interrupted {
        // A commit that failed is said, caused by the interrupt; otherwise the interrupt.
        if let Err(LoadFailure::Store(message)) = &outcome {
            let error = usage(format!("{db}: {message}"));
            error.set_cause(py, Some(signal));
            return Err(error);
        }
        return Err(signal);
    }
    let failures: Vec<Py<PyAny>> = failures
        .iter()
        .map(|e| game_error(py, e).into_value(py).into_any())
        .collect();
    let inserted = match outcome {
        Ok(inserted) => inserted,
        Err(LoadFailure::Game(error)) => return Err(game_error(py, &error)),
        Err(LoadFailure::Store(message)) => return Err(usage(format!("{db}: {message}"))),
    };
    let result = PyDict::new(py);
    result.set_item("games", inserted.games)?;
    result.set_item("known", inserted.known)?;
    result.set_item("moves", inserted.moves)?;
    result.set_item("errors", failures)?;
    Ok(result)
}

/// Why a load stopped.
enum LoadFailure {
    /// A bad game, with `errors="raise"`.
    Game(Error),
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
    let mut chunks =
        ChunkMap::with_splitter::<Pgn, _, _, _>(splitter, read_options(), threads, move || {
            let mut writer = RowWriter::new();
            let mut preparer = target.preparer().expect("made once before reading");
            move |games| {
                let mut rows = Rows::default();
                let outcomes = write_rows(&mut writer, games, &mut rows.batch);
                // A failure here comes again from the store's thread, which then does the work.
                let _ = preparer.prepare(&mut rows);
                (rows, outcomes)
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
        let (mut rows, outcomes) = match chunk {
            Ok(chunk) => chunk,
            Err(e) => {
                let error = Error::from(e).with_game(games + 1);
                return (
                    finish_after(&mut *store, LoadFailure::Game(error)),
                    failures,
                );
            }
        };
        let mut written = 0;
        for outcome in outcomes {
            games += 1;
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
                    return (finish_after(&mut *store, failure), failures);
                }
            }
        }
        if let Err(e) = insert(&mut *store, &mut rows, 0..written) {
            return (Err(store_error(e)), failures);
        }
    }
    (store.finish().map_err(store_error), failures)
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

/// Commits what was stored, then gives `failure`.
fn finish_after(
    store: &mut dyn notate_store::Store,
    failure: LoadFailure,
) -> Result<Inserted, LoadFailure> {
    match store.finish() {
        Ok(_) => Err(failure),
        Err(e) => Err(LoadFailure::Store(e.to_string())),
    }
}
