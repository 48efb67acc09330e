//! The one pipeline of every family: a reader thread opens each input, tells its format and
//! cuts it into chunks of whole records; workers on every core hand each chunk to the stage
//! of its family ([`FamilyStage`]: read, replay, write); the calling thread puts the results
//! out in input order, reports errors and counts games. Every queue is bounded, so memory
//! stays flat whatever the input size.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use anyhow::{Context, Result};
use crossbeam_channel::{bounded, Receiver, Sender};
use notate::chess::pgn::{self, GameSplitter};
use notate::chunk::{Chunk, LineSplitter, Split, WholeSplitter};
use notate::Error;
use notate_store::Rows;

use crate::formats::{Family, InputFormat, Job, Records};
use crate::input::{self, InputName};
use crate::report::{Notes, Reporter};

/// What the workers write a chunk's games into: bytes of a format, or table rows.
pub trait ChunkOutput: Default + Send {
    /// The end of what is written so far, to return to or to cut at.
    fn mark(&self) -> usize;
    /// Drops what was written after `mark`.
    fn truncate(&mut self, mark: usize);
    /// Empties the output, keeping its memory.
    fn clear(&mut self);
    /// Whether the buffer grew too large to be kept for later chunks.
    fn is_oversized(&self) -> bool;
}

impl ChunkOutput for Vec<u8> {
    fn mark(&self) -> usize {
        self.len()
    }
    fn truncate(&mut self, mark: usize) {
        Vec::truncate(self, mark)
    }
    fn clear(&mut self) {
        Vec::clear(self)
    }
    fn is_oversized(&self) -> bool {
        self.capacity() > 64 << 20
    }
}

impl ChunkOutput for Rows {
    fn mark(&self) -> usize {
        self.batch.len()
    }
    fn truncate(&mut self, mark: usize) {
        Rows::truncate(self, mark)
    }
    fn clear(&mut self) {
        Rows::clear(self)
    }
    fn is_oversized(&self) -> bool {
        self.batch.memory_bytes() > 64 << 20
    }
}

/// One family of games as a stage of the pipeline (chess, infinite chess, shogi): reads the
/// records of a chunk, replays each game, and writes it into the chunk's output. Each worker
/// holds one per family, reused from chunk to chunk.
pub trait FamilyStage<O>: Send {
    /// One fate per game of `chunk` (whose records are in `format`, of this family), in
    /// order; the output of a game that fails is cut.
    fn process(&mut self, chunk: &Chunk, format: InputFormat, out: &mut O, fates: &mut Vec<Fate>);
}

/// A worker's stages: one per family the job can write (`None`: the reader refuses that
/// family's inputs before they reach a worker).
pub struct Stages<O> {
    pub chess: Box<dyn FamilyStage<O>>,
    pub infinite: Option<Box<dyn FamilyStage<O>>>,
    pub shogi: Option<Box<dyn FamilyStage<O>>>,
}

impl<O: ChunkOutput> Stages<O> {
    /// Runs the chunk of input `input` through its family's stage, into `output` (emptied).
    fn run(
        &mut self,
        chunk: &Chunk,
        input: usize,
        format: InputFormat,
        mut output: O,
    ) -> Outcome<O> {
        output.clear();
        let mut done = Done {
            input,
            output,
            fates: Vec::new(),
        };
        self.process(chunk, format, &mut done.output, &mut done.fates);
        Outcome::Done(done)
    }

    fn process(&mut self, chunk: &Chunk, format: InputFormat, out: &mut O, fates: &mut Vec<Fate>) {
        let stage = match format.family() {
            Family::Chess => Some(&mut self.chess),
            Family::Infinite => self.infinite.as_mut(),
            Family::Shogi => self.shogi.as_mut(),
        };
        stage
            .expect("the reader refuses families the job has no stage for")
            .process(chunk, format, out, fates);
    }
}

/// The last stage: takes the output of good games, in input order.
pub trait Sink<O> {
    /// Takes `range` (between two marks) of a chunk's output.
    fn put(&mut self, output: &mut O, range: Range<usize>) -> Result<()>;
    /// At the end of the run, or before stopping early.
    fn flush(&mut self) -> Result<()>;
    /// When no more output is ready for now: puts out what is held, where that costs
    /// nothing (not a store's batch).
    fn pause(&mut self) -> Result<()> {
        Ok(())
    }
    /// When a live input paused (`--live`), after the output of the games it made whole:
    /// puts out everything (a store commits).
    fn input_paused(&mut self) -> Result<()> {
        self.pause()
    }
    /// A game (`game`: its number in its input) or an input (`None`) that failed, in input
    /// order between the output of the games around it; `line` is the error as stderr gets
    /// it (an input's without the `notate: ` before it). Only a sink that shows failures
    /// beside the games (`notate render`'s page) keeps it.
    fn failed(&mut self, _game: Option<u64>, _line: &str) -> Result<()> {
        Ok(())
    }
    /// A game read well that the job kept back (no output), in input order.
    fn held(&mut self) -> Result<()> {
        Ok(())
    }
}

/// A job that writes bytes: the games' output goes to a `Write`.
pub struct ByteSink<'a> {
    out: &'a mut dyn Write,
    /// What stages write before every record to separate it from the one before (CSA's
    /// `/` line), dropped before the first record of the output.
    separator: &'static [u8],
    started: bool,
    /// Whether failures are written too, each a JSON line `{"failed":{"game":N,"error":…}}`
    /// (the viewer's documents are JSON lines, and its page lists the failed games in place).
    failures: bool,
}

impl<'a> ByteSink<'a> {
    /// A sink into `out`; `separator` as [`crate::shogi::separator`] says.
    pub fn new(out: &'a mut dyn Write, separator: &'static [u8]) -> Self {
        ByteSink {
            out,
            separator,
            started: false,
            failures: false,
        }
    }

    /// The same, writing failures between the games as JSON lines (for `notate render`).
    pub fn with_failures(mut self) -> Self {
        self.failures = true;
        self
    }
}

impl Sink<Vec<u8>> for ByteSink<'_> {
    fn put(&mut self, output: &mut Vec<u8>, range: Range<usize>) -> Result<()> {
        let mut bytes = &output[range];
        if !self.started {
            self.started = true;
            bytes = bytes.strip_prefix(self.separator).unwrap_or(bytes);
        }
        self.out.write_all(bytes).context("cannot write output")
    }
    fn flush(&mut self) -> Result<()> {
        self.out.flush().context("cannot write output")
    }
    fn pause(&mut self) -> Result<()> {
        self.flush()
    }
    fn failed(&mut self, game: Option<u64>, line: &str) -> Result<()> {
        if !self.failures {
            return Ok(());
        }
        let failure = serde_json::json!({ "failed": { "game": game, "error": line } });
        writeln!(self.out, "{failure}").context("cannot write output")
    }
}

/// The settings of one run, checked once before it starts.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The format of every input (`None`: told by each input's name and content).
    pub from: Option<InputFormat>,
    pub job: Job,
    pub strict: bool,
    pub threads: usize,
    /// How PGN is read.
    pub limits: pgn::ReadOptions,
    pub chunk_bytes: usize,
    /// Only this game of each input (1-based), when set.
    pub only_game: Option<u64>,
    /// The largest input of a format of one text per file (ICN, KIF, CSA …), read whole.
    pub max_text_bytes: usize,
    /// A PGN game from a pipe goes out at a pause once its result and a line break came
    /// (`--live`; see [`notate::format::Feed::live`]).
    pub live: bool,
}

/// One game's fate inside a chunk.
pub enum Fate {
    /// Written; its output ends at this mark of the chunk's output.
    Done {
        out_end: usize,
        notes: Option<Box<Notes>>,
    },
    /// Read well but kept back by the job (see [`Sink::held`]): no output.
    Held { notes: Option<Box<Notes>> },
    /// Failed: why, where (in the error), and who played it.
    Failed(Box<(Error, Notes)>),
}

impl Fate {
    /// A failed game.
    pub fn failed(error: Error, players: String, warnings: Vec<Error>) -> Fate {
        Fate::Failed(Box::new((error, Notes { players, warnings })))
    }

    /// The fate of a game as read (or its error), written into `out` by `write` (which
    /// returns what the game survived); a game that cannot be written leaves no output.
    pub fn of_game<G, O: ChunkOutput>(
        game: Result<G, Error>,
        out: &mut O,
        write: impl FnOnce(&G, &mut O) -> Result<Vec<Error>, Error>,
        players: impl Fn(&G) -> String,
    ) -> Fate {
        let game = match game {
            Ok(game) => game,
            Err(mut error) => {
                // A reader that failed a game names its players in the error, if it can.
                let players = error.players.take().map(String::from).unwrap_or_default();
                return Fate::failed(error, players, Vec::new());
            }
        };
        let mark = out.mark();
        match write(&game, out) {
            Ok(warnings) => Fate::Done {
                out_end: out.mark(),
                notes: Notes::of(warnings, || players(&game)),
            },
            Err(error) => {
                out.truncate(mark);
                Fate::failed(error, players(&game), Vec::new())
            }
        }
    }
}

/// A processed chunk.
pub struct Done<O> {
    pub input: usize,
    pub output: O,
    pub fates: Vec<Fate>,
}

enum Work {
    Chunk {
        seq: u64,
        input: usize,
        format: InputFormat,
        chunk: Chunk,
    },
    /// A plain file of a format of one text per file (a KIF record, an ICN game), for the
    /// worker to read itself: inputs of that kind are many and small, and reading them on
    /// every core rather than on the reader thread keeps the reader from being the bottleneck.
    File {
        seq: u64,
        input: usize,
        format: InputFormat,
        path: std::path::PathBuf,
    },
    /// What the reader says of an input between its chunks, passed on in order as it is.
    Note { seq: u64, note: InputNote },
}

/// What the reader (or a worker that read a file) says of an input.
enum InputNote {
    /// A live input paused after the chunks before it (see [`Settings::live`]).
    Pause,
    /// Input `.0` was read to its end (said when `--game N` is given, for an input without
    /// that game).
    End(usize),
    /// Input `.0` could not be opened or read: why.
    Error(usize, String),
}

enum Outcome<O> {
    Done(Done<O>),
    Note(InputNote),
}

/// Which inputs still need reading: the writer tells the reader thread. The inputs before
/// the index it holds are read far enough (their game `--game N` is out), and none is needed
/// once the run has stopped.
#[derive(Default)]
struct Needed(AtomicUsize);

impl Needed {
    /// Whether input `index` is still needed.
    fn input(&self, index: usize) -> bool {
        self.0.load(Ordering::Relaxed) <= index
    }

    /// Input `index` is read far enough.
    fn passed(&self, index: usize) {
        self.0.fetch_max(index + 1, Ordering::Relaxed);
    }

    /// No input is needed any more.
    fn stop(&self) {
        self.0.store(usize::MAX, Ordering::Relaxed);
    }
}

/// Runs the pipeline over `inputs`: each worker writes games with a writer from
/// `new_writer`, and `sink` takes the output in input order. Returns (games done, games
/// failed).
pub fn run<O: ChunkOutput + 'static>(
    inputs: &[InputName],
    settings: &Settings,
    new_stages: impl Fn() -> Stages<O> + Sync,
    sink: &mut dyn Sink<O>,
    reporter: &mut Reporter,
) -> Result<(u64, u64)> {
    let threads = settings.threads.max(1);
    let (work_tx, work_rx) = bounded::<Work>(threads * 2);
    let (done_tx, done_rx) = bounded::<(u64, Outcome<O>)>(threads * 2);
    let (spare_tx, spare_rx) = bounded::<Vec<u8>>(threads * 4);
    // A fixed pool of output buffers, passed from the workers to the writer and back: EGD
    // writes 10 to 35 times its input, so the number of output buffers bounds the memory,
    // and reusing them saves copies and page faults.
    let buffers = threads * 3;
    let (spare_out_tx, spare_out_rx) = bounded::<O>(buffers);
    for _ in 0..buffers {
        spare_out_tx.send(O::default()).expect("the pool has room");
    }
    let read_bytes = Arc::new(AtomicU64::new(0));
    reporter.start(inputs, read_bytes.clone());
    let needed = Arc::new(Needed::default());

    // The threads are not scoped: a run that stops early (--strict, a write error) must not
    // wait for a reader blocked on a pipe that sends nothing, or on a FIFO no writer opened.
    let mut handles = Vec::with_capacity(threads + 1);
    {
        let inputs = inputs.to_vec();
        let settings = settings.clone();
        let (read_bytes, needed) = (read_bytes.clone(), needed.clone());
        handles.push(thread::spawn(move || {
            read_inputs(&inputs, &settings, work_tx, spare_rx, read_bytes, &needed)
        }));
    }
    for _ in 0..threads {
        let rx = work_rx.clone();
        let tx = done_tx.clone();
        let spare = spare_tx.clone();
        let spare_out = spare_out_rx.clone();
        let stages = new_stages();
        let (read_bytes, max_text_bytes) = (read_bytes.clone(), settings.max_text_bytes);
        handles.push(thread::spawn(move || {
            work(rx, tx, spare, spare_out, stages, read_bytes, max_text_bytes)
        }));
    }
    drop(work_rx);
    drop(done_tx);
    drop(spare_tx);
    drop(spare_out_rx);
    let result = write_in_order(
        &done_rx,
        &spare_out_tx,
        inputs,
        settings,
        &needed,
        sink,
        reporter,
    );
    // Every worker gone means every input was read to its end: the threads are ending, and a
    // panic in one is this run's. Otherwise the run stopped early: the others stop at their
    // next hand-over (a reader waiting out a pipe's pause, at once), or are left behind.
    let finished = matches!(
        done_rx.try_recv(),
        Err(crossbeam_channel::TryRecvError::Disconnected)
    );
    needed.stop();
    drop(done_rx);
    drop(spare_out_tx);
    if finished {
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    }
    result
}

/// A plain (not compressed) file whose format, told by `--from` or its name, is one text per
/// file: the worker reads it (see [`Work::File`]).
fn plain_whole_text<'a>(
    name: &'a InputName,
    settings: &Settings,
) -> Option<(&'a std::path::Path, InputFormat)> {
    let path = name.path.as_deref()?;
    let lower = path.to_string_lossy().to_ascii_lowercase();
    if [".zst", ".gz", ".bz2"]
        .iter()
        .any(|ext| lower.ends_with(ext))
    {
        return None;
    }
    let format = settings.from.or_else(|| input::format_of_path(path))?;
    (format.records() == Records::Whole).then_some((path, format))
}

fn read_inputs(
    inputs: &[InputName],
    settings: &Settings,
    tx: Sender<Work>,
    spare: Receiver<Vec<u8>>,
    read_bytes: Arc<AtomicU64>,
    needed: &Needed,
) {
    let mut seq = 0;
    for (index, name) in inputs.iter().enumerate() {
        if !needed.input(index) {
            continue;
        }
        let result = (|| -> Result<()> {
            if let Some((path, format)) = plain_whole_text(name, settings) {
                if let Some(why) = settings.job.refuses(format) {
                    anyhow::bail!("{}: {why}", name.display());
                }
                let work = Work::File {
                    seq,
                    input: index,
                    format,
                    path: path.to_path_buf(),
                };
                seq += 1;
                let _ = tx.send(work);
                return Ok(());
            }
            let opened = input::open(name, settings.from, read_bytes.clone())?;
            let format = opened.format;
            if let Some(why) = settings.job.refuses(format) {
                anyhow::bail!("{}: {why}", name.display());
            }
            let reader = opened.reader;
            let mut splitter: Box<dyn Split> = match format.records() {
                Records::Pgn => {
                    let splitter =
                        GameSplitter::with_limits(reader, settings.chunk_bytes, settings.limits);
                    match opened.length {
                        // A file shorter than a few chunks (`check` cuts 1 MiB) was one chunk,
                        // read on one core: the first chunks are cut small and the last to a
                        // quarter of what is left, so every core has a part. Not for a load,
                        // whose chunks are Parquet row groups.
                        Some(length) if !matches!(settings.job, Job::Load) => Box::new(
                            splitter
                                .starting_at(pgn::FIRST_CHUNK_BYTES)
                                .input_bytes(length),
                        ),
                        _ => Box::new(splitter),
                    }
                }
                Records::Lines => Box::new(LineSplitter::new(reader, settings.chunk_bytes)),
                Records::Whole => Box::new(WholeSplitter::new(reader, settings.max_text_bytes)),
            };
            if settings.live {
                splitter.cut_at_pauses();
            }
            // Whether a chunk went out since the input's last pause.
            let mut sent = false;
            loop {
                if let Ok(bytes) = spare.try_recv() {
                    splitter.recycle(bytes);
                }
                let work = match splitter.next_chunk() {
                    // A pause of a pipe (see `notate::chunk::Paced`): the games it made whole have
                    // gone out; wait on, unless the input is no longer needed. Live, the
                    // pause itself goes on, after them (a load commits there).
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        if !needed.input(index) {
                            return Ok(());
                        }
                        if !(settings.live && sent) {
                            continue;
                        }
                        sent = false;
                        let note = InputNote::Pause;
                        Work::Note { seq, note }
                    }
                    read => {
                        let read = read.with_context(|| format!("cannot read {}", name.display()));
                        let Some(chunk) = read? else {
                            return Ok(());
                        };
                        sent = true;
                        Work::Chunk {
                            seq,
                            input: index,
                            format,
                            chunk,
                        }
                    }
                };
                seq += 1;
                if tx.send(work).is_err() || !needed.input(index) {
                    return Ok(());
                }
            }
        })();
        let note = match result {
            Ok(()) if settings.only_game.is_some() => InputNote::End(index),
            Ok(()) => continue,
            Err(e) => InputNote::Error(index, format!("{e:#}")),
        };
        if tx.send(Work::Note { seq, note }).is_err() {
            return;
        }
        seq += 1;
    }
}

/// A plain file read whole, as one record (see [`Work::File`]).
fn read_whole(
    path: &std::path::Path,
    max_bytes: usize,
    read_bytes: &AtomicU64,
) -> std::io::Result<Chunk> {
    let file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    let chunk = WholeSplitter::new(file, max_bytes)
        .with_size_hint(size)
        .next_chunk()?
        .expect("a whole text is one chunk");
    read_bytes.fetch_add(
        chunk.bytes.len() as u64,
        std::sync::atomic::Ordering::Relaxed,
    );
    Ok(chunk)
}

fn work<O: ChunkOutput>(
    rx: Receiver<Work>,
    tx: Sender<(u64, Outcome<O>)>,
    spare: Sender<Vec<u8>>,
    spare_out: Receiver<O>,
    mut stages: Stages<O>,
    read_bytes: Arc<AtomicU64>,
    max_text_bytes: usize,
) {
    // A buffer is taken before a chunk: chunks are taken in input order, so the chunk the
    // writer waits for always has its buffer, and the pool cannot run dry under it.
    let mut held = None;
    loop {
        let output = match held.take() {
            Some(buffer) => buffer,
            None => match spare_out.recv() {
                Ok(buffer) => buffer,
                Err(_) => return,
            },
        };
        let Ok(item) = rx.recv() else { return };
        let (seq, outcome) = match item {
            Work::Note { seq, note } => {
                held = Some(output);
                (seq, Outcome::Note(note))
            }
            Work::File {
                seq,
                input,
                format,
                path,
            } => match read_whole(&path, max_text_bytes, &read_bytes) {
                Ok(chunk) => (seq, stages.run(&chunk, input, format, output)),
                Err(e) => {
                    held = Some(output);
                    let message = format!("cannot read {}: {e}", path.display());
                    (seq, Outcome::Note(InputNote::Error(input, message)))
                }
            },
            Work::Chunk {
                seq,
                input,
                format,
                chunk,
            } => {
                let outcome = stages.run(&chunk, input, format, output);
                // The buffer goes back to the reader for a later chunk.
                let _ = spare.try_send(chunk.bytes);
                (seq, outcome)
            }
        };
        if tx.send((seq, outcome)).is_err() {
            return;
        }
    }
}

fn write_in_order<O: ChunkOutput>(
    rx: &Receiver<(u64, Outcome<O>)>,
    spare_out: &Sender<O>,
    inputs: &[InputName],
    settings: &Settings,
    needed: &Needed,
    sink: &mut dyn Sink<O>,
    reporter: &mut Reporter,
) -> Result<(u64, u64)> {
    let mut pending: BTreeMap<u64, Outcome<O>> = BTreeMap::new();
    let mut next = 0u64;
    let mut game_numbers = vec![0u64; inputs.len()];
    // Inputs that could not be read (a file read whole by a worker is also said to end).
    let mut unreadable = vec![false; inputs.len()];
    let (mut ok, mut failed) = (0u64, 0u64);
    for (seq, outcome) in rx.iter() {
        pending.insert(seq, outcome);
        while let Some(outcome) = pending.remove(&next) {
            next += 1;
            // An input's own failure: it could not be read, or lacks the game asked for.
            let input_failure = match outcome {
                Outcome::Note(InputNote::Pause) => {
                    sink.input_paused()?;
                    None
                }
                // What an input holds after the game `--game N` asks for is none of the
                // run's business, a fault included: whether the reader met one before it
                // heard that the game was out would be a matter of timing.
                Outcome::Note(InputNote::Error(input, message)) => {
                    unreadable[input] = true;
                    settings
                        .only_game
                        .is_none_or(|n| game_numbers[input] < n)
                        .then_some(message)
                }
                Outcome::Note(InputNote::End(input)) => settings
                    .only_game
                    .filter(|&n| game_numbers[input] < n && !unreadable[input])
                    .map(|n| missing_game(&inputs[input], game_numbers[input], n)),
                Outcome::Done(mut done) => {
                    let name = inputs[done.input].display();
                    // The output of consecutive good games goes to the sink in one piece.
                    let (mut unput, mut written) = (0, 0);
                    let mut put = |sink: &mut dyn Sink<O>, range: Range<usize>| {
                        if range.is_empty() {
                            Ok(())
                        } else {
                            sink.put(&mut done.output, range)
                        }
                    };
                    for fate in &done.fates {
                        game_numbers[done.input] += 1;
                        let number = game_numbers[done.input];
                        let selected = settings.only_game.is_none_or(|g| g == number);
                        if settings.only_game == Some(number) {
                            needed.passed(done.input);
                        }
                        match fate {
                            Fate::Done { out_end, notes } => {
                                if selected {
                                    reporter.warnings(&name, number, notes.as_deref());
                                    ok += 1;
                                } else {
                                    put(sink, unput..written)?;
                                    unput = *out_end;
                                }
                                written = *out_end;
                            }
                            Fate::Held { notes } => {
                                if selected {
                                    reporter.warnings(&name, number, notes.as_deref());
                                    ok += 1;
                                    sink.held()?;
                                }
                            }
                            Fate::Failed(failure) => {
                                if !selected {
                                    continue;
                                }
                                let (error, notes) = &**failure;
                                reporter.warnings(&name, number, Some(notes));
                                failed += 1;
                                let line =
                                    reporter.game_error(&name, number, &notes.players, error);
                                // Its place among the games: the output before it goes first.
                                put(sink, unput..written)?;
                                unput = written;
                                sink.failed(Some(number), &line)?;
                                if settings.strict {
                                    sink.flush()?;
                                    return Ok((ok, failed));
                                }
                            }
                        }
                    }
                    put(sink, unput..written)?;
                    reporter.progress(ok + failed);
                    if !needed.input(inputs.len() - 1) {
                        // `--game N` of the last input is out: what follows is not read,
                        // which ends a pipe that stays open.
                        sink.flush()?;
                        return Ok((ok, failed));
                    }
                    let mut output = done.output;
                    if output.is_oversized() {
                        // One huge game must not keep its buffer's memory for the whole run.
                        output = O::default();
                    }
                    let _ = spare_out.send(output);
                    None
                }
            };
            if let Some(message) = input_failure {
                reporter.input_error(&message);
                sink.failed(None, &message)?;
                failed += 1;
                if settings.strict {
                    sink.flush()?;
                    return Ok((ok, failed));
                }
            }
        }
        // Nothing more is ready: what is written goes out now, not when a buffer fills (a
        // pipe's games written at its pause, a slow input's as they are read).
        if rx.is_empty() {
            sink.pause()?;
        }
    }
    sink.flush()?;
    Ok((ok, failed))
}

/// The failure of an input read whole that has `games` games where `--game N` asks for
/// game `wanted`.
fn missing_game(input: &InputName, games: u64, wanted: u64) -> String {
    let noun = if games == 1 { "game" } else { "games" };
    format!("{} has {games} {noun}, no game {wanted}", input.display())
}
