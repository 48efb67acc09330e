//! The formats on the command line, the game family of each, and what a job does.

use clap::ValueEnum;

/// The families of games notate reads: each has its own readers, writers and pipeline stage
/// ([`crate::chess`], [`crate::icn`], [`crate::shogi`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Standard chess and Chess960.
    Chess,
    /// Infinite chess (ICN).
    Infinite,
    /// Shogi.
    Shogi,
}

impl Family {
    /// The family's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Family::Chess => "chess",
            Family::Infinite => "infinite chess",
            Family::Shogi => "shogi",
        }
    }

    /// The formats `--to` takes for this family, for messages.
    pub fn outputs(self) -> &'static str {
        match self {
            Family::Chess => "pgn, uci, fen, epd, json, egd, tracks, view or jsonchess",
            Family::Infinite => "icn, icn-json, tracks or view",
            Family::Shogi => "sfen, usi, kif, ki2, csa, western, jkf, tracks or view",
        }
    }

    /// The positions `position --to` writes for this family, for messages.
    pub fn positions(self) -> &'static str {
        match self {
            Family::Chess => "fen or epd",
            Family::Infinite => "icn or icn-json",
            Family::Shogi => "sfen",
        }
    }
}

/// Formats notate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// PGN (also .pgn.zst, .pgn.gz, .pgn.bz2)
    Pgn,
    /// notate's lossless game JSON, one game per line
    Json,
    /// EGD (Extended Game Description), one game per line
    Egd,
    /// jsonchess: tags and packed moves, one game per line
    Jsonchess,
    /// ICN, infinite chess notation (either dialect; one game per file)
    Icn,
    /// ICN's long JSON form (one or more documents)
    IcnJson,
    /// Shogi: SFEN positions, one per line
    Sfen,
    /// Shogi: USI `position` commands, one game per line
    Usi,
    /// Shogi: KIF (.kif Shift_JIS, .kifu UTF-8)
    Kif,
    /// Shogi: KI2 (.ki2, .ki2u)
    Ki2,
    /// Shogi: CSA V2.2 or V3.0 (records separated by `/`)
    Csa,
    /// Shogi: Western (Hodges) moves, `P-7f P-3d …` (never detected: say it)
    Western,
    /// Shogi: JSON Kifu Format
    Jkf,
    /// Shogi: the Shogi Vibe app's opening book (JSON)
    ShogiBook,
}

/// How an input is cut into records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Records {
    /// PGN's own splitter, which knows where a game ends.
    Pgn,
    /// One record per line.
    Lines,
    /// One text per input (a CSA file or an opening book may hold several records).
    Whole,
}

impl InputFormat {
    /// The command line's name for a format the library names, when notate reads it.
    pub fn of(format: notate::convert::Format) -> Option<InputFormat> {
        use notate::convert::Format;
        Some(match format {
            Format::Pgn => InputFormat::Pgn,
            Format::Json => InputFormat::Json,
            Format::Egd => InputFormat::Egd,
            Format::Jsonchess => InputFormat::Jsonchess,
            Format::Icn => InputFormat::Icn,
            Format::IcnJson => InputFormat::IcnJson,
            Format::Sfen => InputFormat::Sfen,
            Format::Usi => InputFormat::Usi,
            Format::Kif => InputFormat::Kif,
            Format::Ki2 => InputFormat::Ki2,
            Format::Csa => InputFormat::Csa,
            Format::Western => InputFormat::Western,
            Format::Jkf => InputFormat::Jkf,
            Format::ShogiBook => InputFormat::ShogiBook,
            Format::Tracks | Format::View | Format::Uci | Format::Fen | Format::Epd => return None,
        })
    }

    /// How an input of this format is cut into records.
    pub fn records(self) -> Records {
        match self {
            InputFormat::Pgn => Records::Pgn,
            InputFormat::Json
            | InputFormat::Egd
            | InputFormat::Jsonchess
            | InputFormat::Usi
            | InputFormat::Sfen => Records::Lines,
            InputFormat::Icn
            | InputFormat::IcnJson
            | InputFormat::Kif
            | InputFormat::Ki2
            | InputFormat::Csa
            | InputFormat::Western
            | InputFormat::Jkf
            | InputFormat::ShogiBook => Records::Whole,
        }
    }

    /// The family of the games this format holds.
    pub fn family(self) -> Family {
        match self {
            InputFormat::Pgn | InputFormat::Json | InputFormat::Egd | InputFormat::Jsonchess => {
                Family::Chess
            }
            InputFormat::Icn | InputFormat::IcnJson => Family::Infinite,
            InputFormat::Sfen
            | InputFormat::Usi
            | InputFormat::Kif
            | InputFormat::Ki2
            | InputFormat::Csa
            | InputFormat::Western
            | InputFormat::Jkf
            | InputFormat::ShogiBook => Family::Shogi,
        }
    }
}

/// Formats notate writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// PGN export format
    Pgn,
    /// one line of UCI moves per game
    Uci,
    /// one FEN per position, games separated by a blank line
    Fen,
    /// one EPD per position, games separated by a blank line
    Epd,
    /// notate's lossless game JSON, one game per line
    Json,
    /// EGD (Extended Game Description): every half-move with FENs, LRAN, piece codes
    Egd,
    /// piece tracks: every piece named, every move as actions on named pieces
    Tracks,
    /// viewer documents: the tracks and the facts of every position, one game per line
    /// (what `notate render` shows)
    View,
    /// jsonchess: tags and the protocol's packed moves, one game per line
    Jsonchess,
    /// ICN, infinite chess notation (infinite chess input only)
    Icn,
    /// ICN's long JSON form (infinite chess input only)
    IcnJson,
    /// Shogi: SFEN of the start and after every ply, games separated by a blank line
    Sfen,
    /// Shogi: one USI `position … moves …` line per game
    Usi,
    /// Shogi: KIF (UTF-8 unless --encoding shift_jis)
    Kif,
    /// Shogi: KI2 (UTF-8 unless --encoding shift_jis)
    Ki2,
    /// Shogi: CSA (V3.0 unless --csa-version 2.2); records separated by `/`
    Csa,
    /// Shogi: Western (Hodges) moves, numbered
    Western,
    /// Shogi: JSON Kifu Format, one game per line (--pretty to indent)
    Jkf,
}

impl OutputFormat {
    /// The family of the games this format holds.
    pub fn family(self) -> Family {
        match self {
            OutputFormat::Pgn
            | OutputFormat::Uci
            | OutputFormat::Fen
            | OutputFormat::Epd
            | OutputFormat::Json
            | OutputFormat::Egd
            | OutputFormat::Tracks
            | OutputFormat::View
            | OutputFormat::Jsonchess => Family::Chess,
            OutputFormat::Icn | OutputFormat::IcnJson => Family::Infinite,
            OutputFormat::Sfen
            | OutputFormat::Usi
            | OutputFormat::Kif
            | OutputFormat::Ki2
            | OutputFormat::Csa
            | OutputFormat::Western
            | OutputFormat::Jkf => Family::Shogi,
        }
    }
}

/// Position notations for `notate position` (the default is the family's own: FEN, ICN or
/// SFEN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PositionOutput {
    /// six-field FEN
    Fen,
    /// four-field EPD
    Epd,
    /// ICN (infinite chess input only)
    Icn,
    /// ICN's long JSON form (infinite chess input only)
    IcnJson,
    /// SFEN (shogi input only)
    Sfen,
}

impl PositionOutput {
    /// The family of the positions this notation writes.
    pub fn family(self) -> Family {
        match self {
            PositionOutput::Fen | PositionOutput::Epd => Family::Chess,
            PositionOutput::Icn | PositionOutput::IcnJson => Family::Infinite,
            PositionOutput::Sfen => Family::Shogi,
        }
    }
}

/// What the pipeline does with each game.
#[derive(Clone, Copy, Debug)]
pub enum Job {
    /// Read and replay only.
    Check,
    /// Write every game in a format.
    Convert(OutputFormat),
    /// Write the position after `ply` plies (`None`: the end) of each game, in `to` (`None`:
    /// the family's own notation).
    Position {
        ply: Option<usize>,
        to: Option<PositionOutput>,
    },
    /// Turn every game into table rows for a database.
    Load,
}

impl Job {
    /// The family whose games this job can write, when only one can (`None`: every family).
    pub fn family(self) -> Option<Family> {
        match self {
            // Piece tracks and viewer documents are written for every family.
            Job::Check
            | Job::Position { to: None, .. }
            | Job::Convert(OutputFormat::Tracks | OutputFormat::View) => None,
            Job::Convert(to) => Some(to.family()),
            Job::Position { to: Some(to), .. } => Some(to.family()),
            Job::Load => Some(Family::Chess),
        }
    }

    /// Why this job cannot take input of `format` (`None`: it can).
    pub fn refuses(self, format: InputFormat) -> Option<String> {
        let family = format.family();
        let wanted = self.family()?;
        (family != wanted).then(|| match self {
            Job::Load => format!(
                "{} is {}: notate load stores chess games (pgn, json, egd or jsonchess)",
                format_name(format),
                family.name()
            ),
            Job::Position { .. } => format!(
                "{} input gives positions as {}",
                family.name(),
                family.positions()
            ),
            _ => format!("{} input converts to {}", family.name(), family.outputs()),
        })
    }
}

/// A format's name as `--from` or `--to` takes it.
pub fn format_name(format: impl ValueEnum + std::fmt::Debug) -> String {
    format
        .to_possible_value()
        .map_or_else(|| format!("{format:?}"), |v| v.get_name().to_string())
}
