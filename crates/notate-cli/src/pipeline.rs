//! The pipeline: a reader thread cuts inputs into chunks of whole games, workers on every
//! core parse, replay and write them, and the calling thread puts the results out in input
//! order. Every queue is bounded, so memory stays flat whatever the input size.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::thread;

use anyhow::{Context, Result};
use crossbeam_channel::{bounded, Receiver, Sender};
use notate::chess::egd::{self, EgdOptions};
use notate::chess::error::Locator;
use notate::chess::pgn::{self, GameSplitter, ReadOptions};
use notate::chess::rows::RowBatch;
use notate::chess::{json, jsonchess, replay, ChessGame, FailedGame, GameError, Place, Tags};
use notate::chunk::{Chunk, LineSplitter};

use crate::formats::{GameWriter, InputFormat, Job};
use crate::input::{self, InputName};
use crate::report::{Reporter, Warnings};

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

impl ChunkOutput for RowBatch {
    fn mark(&self) -> usize {
        self.len()
    }
    fn truncate(&mut self, mark: usize) {
        RowBatch::truncate(self, mark)
    }
    fn clear(&mut self) {
        RowBatch::clear(self)
    }
    fn is_oversized(&self) -> bool {
        self.memory_bytes() > 64 << 20
    }
}

/// Writes one replayed game into a chunk's output (one per worker, reused).
pub trait WriteGame<O>: Send {
    /// An `Err` is a game this output cannot hold; an error without a ply is placed at the
    /// game's start.
    fn write(&mut self, game: &ChessGame, out: &mut O) -> Result<(), GameError>;
}

/// The last stage: takes the output of good games, in input order.
pub trait Sink<O> {
    /// Takes `range` (between two marks) of a chunk's output.
    fn put(&mut self, output: &O, range: Range<usize>) -> Result<()>;
    /// At the end of the run, or before stopping early.
    fn flush(&mut self) -> Result<()>;
}

/// A job that writes bytes: the game's output goes to a `Write`.
pub struct ByteSink<'a>(pub &'a mut dyn Write);

impl Sink<Vec<u8>> for ByteSink<'_> {
    fn put(&mut self, output: &Vec<u8>, range: Range<usize>) -> Result<()> {
        self.0
            .write_all(&output[range])
            .context("cannot write output")
    }
    fn flush(&mut self) -> Result<()> {
        self.0.flush().context("cannot write output")
    }
}

impl WriteGame<Vec<u8>> for GameWriter {
    fn write(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), GameError> {
        GameWriter::write(self, game, out)
    }
}
/// Settings of one run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub from: Option<InputFormat>,
    pub job: Job,
    pub strict: bool,
    pub threads: usize,
    pub limits: ReadOptions,
    pub chunk_bytes: usize,
    /// Only this game of each input (1-based), when set.
    pub only_game: Option<u64>,
    /// How EGD is written.
    pub egd: EgdOptions,
}

/// One game's fate inside a chunk.
pub enum Fate {
    /// Written; its output ends at this mark of the chunk's output.
    Done { out_end: usize, warnings: Warnings },
    /// Failed: where and why.
    Failed {
        place: Place,
        tags: Tags,
        error: GameError,
        warnings: Warnings,
    },
}

fn warnings_of(tags: &Tags, list: Vec<(Place, GameError)>) -> Warnings {
    (!list.is_empty()).then(|| Box::new((tags.clone(), list)))
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
    /// An input that could not be opened or read.
    InputError { seq: u64, message: String },
}

enum Outcome<O> {
    Done(Done<O>),
    InputError(String),
}

/// Runs the pipeline over `inputs`: each worker writes games with a writer from
/// `new_writer`, and `sink` takes the output in input order. Returns (games done, games
/// failed).
pub fn run<O, W>(
    inputs: &[InputName],
    settings: &Settings,
    new_writer: impl Fn() -> W + Sync,
    sink: &mut dyn Sink<O>,
    reporter: &mut Reporter,
) -> Result<(u64, u64)>
where
    O: ChunkOutput,
    W: WriteGame<O>,
{
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

    thread::scope(|scope| -> Result<(u64, u64)> {
        {
            let inputs = inputs.to_vec();
            let settings = settings.clone();
            let read_bytes = read_bytes.clone();
            scope.spawn(move || read_inputs(&inputs, &settings, work_tx, spare_rx, read_bytes));
        }
        for _ in 0..threads {
            let rx = work_rx.clone();
            let tx = done_tx.clone();
            let settings = settings.clone();
            let spare = spare_tx.clone();
            let spare_out = spare_out_rx.clone();
            let writer = new_writer();
            scope.spawn(move || work(rx, tx, spare, spare_out, writer, &settings));
        }
        drop(work_rx);
        drop(done_tx);
        drop(spare_tx);
        drop(spare_out_rx);
        let result = write_in_order(&done_rx, &spare_out_tx, inputs, settings, sink, reporter);
        // On an early stop (--strict, a write error) unblock the other threads.
        drop(done_rx);
        drop(spare_out_tx);
        result
    })
}

fn read_inputs(
    inputs: &[InputName],
    settings: &Settings,
    tx: Sender<Work>,
    spare: Receiver<Vec<u8>>,
    read_bytes: Arc<AtomicU64>,
) {
    let mut seq = 0;
    for (index, name) in inputs.iter().enumerate() {
        let result = (|| -> Result<()> {
            let opened = input::open(name, settings.from, read_bytes.clone())?;
            let format = opened.format;
            let mut next: Box<dyn FnMut() -> std::io::Result<Option<Chunk>>> = match format {
                InputFormat::Pgn => {
                    let mut s = GameSplitter::with_limits(
                        opened.reader,
                        settings.chunk_bytes,
                        settings.limits,
                    );
                    let spare = spare.clone();
                    Box::new(move || {
                        if let Ok(bytes) = spare.try_recv() {
                            s.recycle(bytes);
                        }
                        s.next_chunk()
                    })
                }
                InputFormat::Json | InputFormat::Egd | InputFormat::Jsonchess => {
                    let mut s = LineSplitter::new(opened.reader, settings.chunk_bytes);
                    Box::new(move || s.next_chunk())
                }
                InputFormat::Icn | InputFormat::IcnJson => anyhow::bail!(
                    "{} is infinite chess: convert it with --to icn or --to icn-json",
                    name.display()
                ),
                f => anyhow::bail!(
                    "{} is shogi ({f:?}): convert it with --to sfen, usi, kif, ki2, csa, western or jkf",
                    name.display()
                ),
            };
            while let Some(chunk) =
                next().with_context(|| format!("cannot read {}", name.display()))?
            {
                let work = Work::Chunk {
                    seq,
                    input: index,
                    format,
                    chunk,
                };
                seq += 1;
                if tx.send(work).is_err() {
                    return Ok(());
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            let message = format!("{e:#}");
            if tx.send(Work::InputError { seq, message }).is_err() {
                return;
            }
            seq += 1;
        }
    }
}

fn work<O: ChunkOutput, W: WriteGame<O>>(
    rx: Receiver<Work>,
    tx: Sender<(u64, Outcome<O>)>,
    spare: Sender<Vec<u8>>,
    spare_out: Receiver<O>,
    mut writer: W,
    settings: &Settings,
) {
    // A buffer is taken before a chunk: chunks are taken in input order, so the chunk the
    // writer waits for always has its buffer, and the pool cannot run dry under it.
    let mut held = None;
    loop {
        let mut output = match held.take() {
            Some(buffer) => buffer,
            None => match spare_out.recv() {
                Ok(buffer) => buffer,
                Err(_) => return,
            },
        };
        let Ok(item) = rx.recv() else { return };
        let (seq, outcome) = match item {
            Work::InputError { seq, message } => {
                held = Some(output);
                (seq, Outcome::InputError(message))
            }
            Work::Chunk {
                seq,
                input,
                format,
                chunk,
            } => {
                output.clear();
                let done = process(&chunk, input, format, settings, &mut writer, output);
                // The buffer goes back to the reader for a later chunk.
                let _ = spare.try_send(chunk.bytes);
                (seq, Outcome::Done(done))
            }
        };
        if tx.send((seq, outcome)).is_err() {
            return;
        }
    }
}

/// Parses, replays and writes the games of one chunk.
pub fn process<O: ChunkOutput>(
    chunk: &Chunk,
    input: usize,
    format: InputFormat,
    settings: &Settings,
    writer: &mut dyn WriteGame<O>,
    output: O,
) -> Done<O> {
    let mut done = Done {
        input,
        output,
        fates: Vec::new(),
    };
    let mut locator = Locator::new(&chunk.bytes, chunk.first_line);
    let mut finish = |game: Result<ChessGame, FailedGame>,
                      start: usize,
                      warnings: Vec<(Place, GameError)>,
                      known_place: Option<Place>,
                      done: &mut Done<O>| {
        let fate = match game {
            Ok(game) => {
                let mark = done.output.mark();
                match writer.write(&game, &mut done.output) {
                    Ok(()) => Fate::Done {
                        out_end: done.output.mark(),
                        warnings: warnings_of(&game.tags, warnings),
                    },
                    Err(mut error) => {
                        // No partial record: the game's output goes.
                        done.output.truncate(mark);
                        if error.ply.is_none() {
                            error.offset = start;
                        }
                        Fate::Failed {
                            place: locator.place(error.offset),
                            warnings: warnings_of(&game.tags, warnings),
                            tags: game.tags,
                            error,
                        }
                    }
                }
            }
            Err(failed) => Fate::Failed {
                // The reader has placed its own errors already; replay errors are placed here.
                place: known_place.unwrap_or_else(|| locator.place(failed.error.offset)),
                warnings: warnings_of(&failed.tags, warnings),
                tags: failed.tags,
                error: failed.error,
            },
        };
        done.fates.push(fate);
    };
    match format {
        InputFormat::Pgn => {
            for read in pgn::read_chunk(chunk, settings.limits) {
                finish(
                    read.game.and_then(replay),
                    read.start,
                    read.warnings,
                    read.error_place,
                    &mut done,
                );
            }
        }
        InputFormat::Json | InputFormat::Egd | InputFormat::Jsonchess => {
            let read = match format {
                InputFormat::Egd => egd::read_egd,
                InputFormat::Jsonchess => jsonchess::read_jsonchess,
                _ => json::read_json,
            };
            for range in &chunk.games {
                let game = match std::str::from_utf8(&chunk.bytes[range.clone()]) {
                    Ok(text) => read(text, range.start),
                    Err(e) => Err(GameError::new(range.start + e.valid_up_to(), "not UTF-8")),
                };
                let game = game.map_err(|error| FailedGame {
                    tags: Tags::new(),
                    error,
                });
                finish(game, range.start, Vec::new(), None, &mut done);
            }
        }
        // Infinite chess and shogi inputs are refused when they are opened.
        _ => {}
    }
    done
}

fn write_in_order<O: ChunkOutput>(
    rx: &Receiver<(u64, Outcome<O>)>,
    spare_out: &Sender<O>,
    inputs: &[InputName],
    settings: &Settings,
    sink: &mut dyn Sink<O>,
    reporter: &mut Reporter,
) -> Result<(u64, u64)> {
    let mut pending: BTreeMap<u64, Outcome<O>> = BTreeMap::new();
    let mut next = 0u64;
    let mut game_numbers = vec![0u64; inputs.len()];
    let (mut ok, mut failed) = (0u64, 0u64);
    for (seq, outcome) in rx.iter() {
        pending.insert(seq, outcome);
        while let Some(outcome) = pending.remove(&next) {
            next += 1;
            match outcome {
                Outcome::InputError(message) => {
                    reporter.input_error(&message);
                    failed += 1;
                    if settings.strict {
                        sink.flush()?;
                        return Ok((ok, failed));
                    }
                }
                Outcome::Done(done) => {
                    let name = inputs[done.input].display();
                    // The output of consecutive good games goes to the sink in one piece.
                    let (mut unput, mut written) = (0, 0);
                    let put = |sink: &mut dyn Sink<O>, range: Range<usize>| {
                        if range.is_empty() {
                            Ok(())
                        } else {
                            sink.put(&done.output, range)
                        }
                    };
                    for fate in &done.fates {
                        game_numbers[done.input] += 1;
                        let number = game_numbers[done.input];
                        let selected = settings.only_game.is_none_or(|g| g == number);
                        match fate {
                            Fate::Done { out_end, warnings } => {
                                if selected {
                                    reporter.warnings(&name, number, warnings);
                                    ok += 1;
                                } else {
                                    put(sink, unput..written)?;
                                    unput = *out_end;
                                }
                                written = *out_end;
                            }
                            Fate::Failed {
                                place,
                                tags,
                                error,
                                warnings,
                            } => {
                                if !selected {
                                    continue;
                                }
                                reporter.warnings(&name, number, warnings);
                                failed += 1;
                                reporter.game_error(&name, *place, number, tags, error);
                                if settings.strict {
                                    put(sink, unput..written)?;
                                    sink.flush()?;
                                    return Ok((ok, failed));
                                }
                            }
                        }
                    }
                    put(sink, unput..written)?;
                    reporter.progress(ok + failed);
                    let mut output = done.output;
                    if output.is_oversized() {
                        // One huge game must not keep its buffer's memory for the whole run.
                        output = O::default();
                    }
                    let _ = spare_out.send(output);
                }
            }
        }
    }
    sink.flush()?;
    Ok((ok, failed))
}
