//! Chess in the pipeline: PGN, notate's JSON, EGD and jsonchess read and replayed, then
//! written in any chess format (or turned into table rows by `notate load`).

use notate::chess::egd::{self, Egd};
use notate::chess::json::Json;
use notate::chess::jsonchess::Jsonchess;
use notate::chess::pgn::{self, Pgn};
use notate::chess::positions::{self, PositionFormat, Positions};
use notate::chess::tracks::Tracks;
use notate::chess::uci::Uci;
use notate::chess::view::View;
use notate::chess::{play, replay, ChessGame, FailedGame, Tags};
use notate::chunk::Chunk;
use notate::format::{place_in_stream, Origin, ReadFormat, WriteFormat};
use notate::shakmaty::{fen::Epd, fen::Fen, EnPassantMode};
use notate::{Error, ErrorKind};

use crate::formats::{InputFormat, Job, OutputFormat, PositionOutput};
use crate::pipeline::{ChunkOutput, FamilyStage, Fate, Settings};
use crate::report::Notes;

/// Writes one replayed game into a chunk's output (one per worker, reused).
pub trait WriteGame<O>: Send {
    /// An `Err` is a game this output cannot hold; an error without a ply is placed at the
    /// game's start.
    fn write(&mut self, game: &ChessGame, out: &mut O) -> Result<(), Error>;

    /// Whether the job keeps `game` back: read well, not written, counted apart (`notate
    /// load --live` keeps back a game in progress).
    fn holds(&self, _game: &ChessGame) -> bool {
        false
    }
}

/// Chess as a stage of the pipeline: reads the records of a chunk, replays each game, and
/// writes it with `W`.
pub struct ChessStage<W> {
    writer: W,
    limits: pgn::ReadOptions,
    /// The games of the chunk being processed, the vector reused from chunk to chunk.
    reads: Vec<pgn::ReadGame>,
}

impl<W> ChessStage<W> {
    /// A stage writing with `writer`.
    pub fn new(writer: W, settings: &Settings) -> Self {
        ChessStage {
            writer,
            limits: settings.limits,
            reads: Vec::new(),
        }
    }
}

impl<O: ChunkOutput, W: WriteGame<O>> FamilyStage<O> for ChessStage<W> {
    fn process(&mut self, chunk: &Chunk, format: InputFormat, out: &mut O, fates: &mut Vec<Fate>) {
        let mut reads = std::mem::take(&mut self.reads);
        let mut locator = chunk.locator();
        // `start`: where the game's record starts in the chunk; `moves_from`: where its moves'
        // offsets count from (the chunk for PGN, the record for a format of one game a line).
        let mut finish = |game: Result<ChessGame, FailedGame>,
                          start: usize,
                          moves_from: usize,
                          warnings: Vec<Error>,
                          out: &mut O| {
            let fate = match game {
                Ok(game) if self.writer.holds(&game) => Fate::Held {
                    notes: Notes::of(warnings, || game.tags.players()),
                },
                Ok(game) => {
                    let mark = out.mark();
                    match self.writer.write(&game, out) {
                        Ok(()) => Fate::Done {
                            out_end: out.mark(),
                            notes: Notes::of(warnings, || game.tags.players()),
                        },
                        Err(mut error) => {
                            // No partial record: the game's output goes.
                            out.truncate(mark);
                            Origin { start, moves_from }.place(&mut error, &mut locator);
                            Fate::failed(error, game.tags.players(), warnings)
                        }
                    }
                }
                Err(FailedGame { tags, mut error }) => {
                    // The reader placed its own errors; replay errors are placed here.
                    error.locate(&mut locator);
                    Fate::failed(error, tags.players(), warnings)
                }
            };
            fates.push(fate);
        };
        match format {
            InputFormat::Pgn => {
                pgn::read_chunk_into(chunk, self.limits, &mut reads);
                for read in reads.drain(..) {
                    finish(
                        read.game.and_then(replay),
                        read.start,
                        0,
                        read.warnings,
                        out,
                    );
                }
            }
            InputFormat::Json => lines::<Json, O>(chunk, &mut finish, out),
            InputFormat::Egd => lines::<Egd, O>(chunk, &mut finish, out),
            InputFormat::Jsonchess => lines::<Jsonchess, O>(chunk, &mut finish, out),
            // The reader hands a stage only its own family's chunks.
            other => unreachable!("{other:?} is not chess"),
        }
        self.reads = reads;
    }
}

/// Reads a chunk of game lines in format `F`, each to `finish`.
fn lines<F: ReadFormat<Game = ChessGame>, O>(
    chunk: &Chunk,
    finish: &mut impl FnMut(Result<ChessGame, FailedGame>, usize, usize, Vec<Error>, &mut O),
    out: &mut O,
) {
    let mut locator = chunk.locator();
    for range in &chunk.games {
        for game in F::read_record(&chunk.bytes[range.clone()], &Default::default()) {
            let game = game.map_err(|mut error| {
                place_in_stream(&mut error, range.start, &mut locator);
                FailedGame {
                    tags: Tags::new(),
                    error,
                }
            });
            finish(game, range.start, range.start, Vec::new(), out);
        }
    }
}

/// A worker's writer for a chess job that writes bytes, with its state reused from game to
/// game.
pub struct GameWriter {
    job: Job,
    pgn: Pgn,
    json: Json,
    egd: Egd,
    tracks: Tracks,
    view: View,
    uci: Uci,
    positions: Positions,
}

impl GameWriter {
    /// A writer for `job`; `egd` says how EGD is written.
    pub fn new(job: Job, egd: egd::WriteOptions) -> GameWriter {
        let notation = match job {
            Job::Convert(OutputFormat::Epd) => PositionFormat::Epd,
            _ => PositionFormat::Fen,
        };
        GameWriter {
            job,
            pgn: Pgn::default(),
            json: Json::default(),
            egd: Egd::new(egd),
            tracks: Tracks::default(),
            view: View::default(),
            uci: Uci::default(),
            positions: Positions::new(positions::WriteOptions { notation }),
        }
    }
}

impl WriteGame<Vec<u8>> for GameWriter {
    fn write(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        let unwritable = |message: String| Error::new(ErrorKind::Unwritable, message);
        match self.job {
            Job::Check | Job::Load => Ok(()),
            Job::Convert(to) => match to {
                OutputFormat::Pgn => self.pgn.write_game(game, out),
                OutputFormat::Json => self.json.write_game(game, out),
                OutputFormat::Egd => self.egd.write_game(game, out),
                OutputFormat::Tracks => self.tracks.write_game(game, out),
                OutputFormat::View => self.view.write_game(game, out),
                OutputFormat::Jsonchess => Jsonchess.write_game(game, out),
                OutputFormat::Uci => self.uci.write_game(game, out),
                OutputFormat::Fen | OutputFormat::Epd => self.positions.write_game(game, out),
                // Settings refuse these before the run; a game cannot be written in them.
                other => Err(unwritable(format!(
                    "{} is not a chess format",
                    crate::formats::format_name(other)
                ))),
            },
            Job::Position { ply, to } => {
                let mut pos = game.start.position.clone();
                let plies = &game.moves.plies;
                let n = ply.unwrap_or(plies.len());
                if n > plies.len() {
                    return Err(unwritable(format!(
                        "--ply {n}: the game has only {} plies",
                        plies.len()
                    )));
                }
                for p in &plies[..n] {
                    play(&mut pos, p.mv.mv);
                }
                let line = match to {
                    None | Some(PositionOutput::Fen) => {
                        Fen::from_position(&pos, EnPassantMode::Legal).to_string()
                    }
                    Some(PositionOutput::Epd) => {
                        Epd::from_position(&pos, EnPassantMode::Legal).to_string()
                    }
                    Some(other) => {
                        return Err(unwritable(format!(
                            "chess input gives positions as fen or epd, not {other:?}"
                        )))
                    }
                };
                out.extend_from_slice(line.as_bytes());
                out.push(b'\n');
                Ok(())
            }
        }
    }
}
