//! Infinite chess in the pipeline: ICN (one game per file) and its long JSON form (one or
//! more documents per file) read, replayed, and written in either form.

use clap::{Args, ValueEnum};
use notate::chunk::Chunk;
use notate::format::{ReadFormat, WriteFormat};
use notate::infinite::long::{self, IcnJson};
use notate::infinite::short::{self, Dialect, Icn, MoveStyle};
use notate::infinite::{replay, tracks, view, Game};
use notate::{Error, ErrorKind};

use crate::formats::{InputFormat, Job, OutputFormat, PositionOutput};
use crate::pipeline::{FamilyStage, Fate};

/// How ICN is written (`--to icn`, `--to icn-json`, `position --to icn…`).
#[derive(Args, Debug, Clone, Default)]
pub struct IcnArgs {
    /// ICN: how moves are written (the reference's compact_moves 0, 1, 2)
    #[arg(long, value_enum, default_value = "pretty")]
    pub moves: Moves,
    /// ICN: one line (sections separated by spaces); icn-json: one line per game
    #[arg(long)]
    pub single_line: bool,
    /// ICN: leave the position out (the variant says it)
    #[arg(long)]
    pub no_position: bool,
    /// Which ICN notation to write
    #[arg(long, value_enum, default_value = "2024")]
    pub dialect: DialectArg,
    /// icn-json: moves as the reference's legacy objects (type, captured, castle, …)
    #[arg(long)]
    pub legacy_moves: bool,
    /// ICN 2025: blanks between a move's parts and around `|` (default: pretty moves only)
    #[arg(long, overrides_with = "no_spaces")]
    pub spaces: bool,
    /// ICN 2025: no blanks within moves
    #[arg(long, overrides_with = "spaces")]
    pub no_spaces: bool,
    /// ICN 2025: number the moves (default: pretty moves only)
    #[arg(long, overrides_with = "no_move_numbers")]
    pub move_numbers: bool,
    /// ICN 2025: no move numbers
    #[arg(long, overrides_with = "move_numbers")]
    pub no_move_numbers: bool,
    /// ICN: leave out comments and clock stamps
    #[arg(long)]
    pub no_comments: bool,
}

/// `--flag` / `--no-flag`: `Some` when either is given.
fn either(yes: bool, no: bool) -> Option<bool> {
    match (yes, no) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    }
}

/// `--moves`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Moves {
    #[default]
    /// `1. P4,2 > 4,4 | p4,7 > 4,6`
    Pretty,
    /// `P4,2>4,4|p4,7>4,6`
    Compact,
    /// `4,2>4,4|4,7>4,6`
    Minimal,
}

/// `--dialect`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    /// FormatConverter.js (2024)
    #[default]
    #[value(name = "2024")]
    V2024,
    /// infinitechess.org's icnconverter.ts (2025)
    #[value(name = "2025")]
    V2025,
}

impl IcnArgs {
    fn dialect(&self) -> Dialect {
        match self.dialect {
            DialectArg::V2024 => Dialect::V2024,
            DialectArg::V2025 => Dialect::V2025,
        }
    }

    /// How ICN is written.
    pub fn short(&self) -> short::WriteOptions {
        short::WriteOptions {
            moves: match self.moves {
                Moves::Pretty => MoveStyle::Pretty,
                Moves::Compact => MoveStyle::Compact,
                Moves::Minimal => MoveStyle::Minimal,
            },
            single_line: self.single_line,
            position: !self.no_position,
            dialect: self.dialect(),
            spaces: either(self.spaces, self.no_spaces),
            move_numbers: either(self.move_numbers, self.no_move_numbers),
            comments: !self.no_comments,
        }
    }

    /// How the long form is written.
    pub fn long(&self) -> long::WriteOptions {
        long::WriteOptions {
            dialect: self.dialect(),
            legacy_moves: self.legacy_moves,
            pretty: !self.single_line,
        }
    }
}

/// Infinite chess as a stage of the pipeline: reads the games of a chunk, replays each (the
/// position a job asks for, or only a check), and writes it in the form asked.
pub struct InfiniteStage {
    job: Job,
    short: Icn,
    long: IcnJson,
    view: view::View,
    games: Vec<Result<Game, Error>>,
}

impl InfiniteStage {
    /// A stage for `job`, writing as `args` say.
    pub fn new(job: Job, args: &IcnArgs) -> InfiniteStage {
        InfiniteStage {
            job,
            short: Icn::new(args.short()),
            long: IcnJson::new(args.long()),
            view: view::View::default(),
            games: Vec::new(),
        }
    }

    fn write(&mut self, game: &Game, out: &mut Vec<u8>) -> Result<(), Error> {
        let unwritable = |message: String| Error::new(ErrorKind::Unwritable, message);
        match self.job {
            Job::Check | Job::Load => replay::replay(game).map(|_| ()),
            Job::Convert(OutputFormat::Icn) => self.short.write_game(game, out),
            Job::Convert(OutputFormat::IcnJson) => self.long.write_game(game, out),
            Job::Convert(OutputFormat::Tracks) => tracks::Tracks.write_game(game, out),
            Job::Convert(OutputFormat::View) => self.view.write_game(game, out),
            Job::Convert(other) => Err(unwritable(format!(
                "infinite chess input converts to icn, icn-json, tracks or view, not {}",
                crate::formats::format_name(other)
            ))),
            Job::Position { ply, to } => {
                let position = replay::position_after(game, ply)?;
                match to {
                    None | Some(PositionOutput::Icn) => self.short.write_game(&position, out),
                    Some(PositionOutput::IcnJson) => self.long.write_game(&position, out),
                    Some(other) => Err(unwritable(format!(
                        "infinite chess input gives positions as icn or icn-json, not {}",
                        crate::formats::format_name(other)
                    ))),
                }
            }
        }
    }
}

/// The players of a game for messages, from its `White` and `Black` tags (nothing when
/// neither is known).
fn players(game: &Game) -> String {
    let tag = |key: &str| {
        game.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    notate::error::players(tag("White"), tag("Black"))
}

impl FamilyStage<Vec<u8>> for InfiniteStage {
    fn process(
        &mut self,
        chunk: &Chunk,
        format: InputFormat,
        out: &mut Vec<u8>,
        fates: &mut Vec<Fate>,
    ) {
        let mut games = std::mem::take(&mut self.games);
        let mut origins = Vec::new();
        match format {
            InputFormat::IcnJson => IcnJson::read_chunk_with_origins(
                chunk,
                &Default::default(),
                &mut games,
                &mut origins,
            ),
            _ => Icn::read_chunk_with_origins(chunk, &Default::default(), &mut games, &mut origins),
        }
        let mut locator = chunk.locator();
        for (game, origin) in games.drain(..).zip(origins) {
            let write = |g: &Game, out: &mut Vec<u8>| {
                // A game the output cannot hold is placed as a reading error is.
                self.write(g, out).map_err(|mut error| {
                    if let Some(origin) = origin {
                        origin.in_chunk(chunk).place(&mut error, &mut locator);
                    }
                    error
                })?;
                Ok(Vec::new())
            };
            fates.push(Fate::of_game(game, out, write, players));
        }
        self.games = games;
    }
}
