//! The formats on the command line and what each job does to one game.

use clap::ValueEnum;
use notate::chess::{
    egd::{EgdOptions, EgdWriter},
    json, jsonchess,
    pgn::PgnWriter,
    play,
    tracks::TracksWriter,
    write_positions, write_uci, ChessGame, GameError, PositionFormat,
};
use notate::shakmaty::{fen::Epd, fen::Fen, EnPassantMode};

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

impl InputFormat {
    /// Whether this is a shogi format.
    pub fn is_shogi(self) -> bool {
        matches!(
            self,
            InputFormat::Sfen
                | InputFormat::Usi
                | InputFormat::Kif
                | InputFormat::Ki2
                | InputFormat::Csa
                | InputFormat::Western
                | InputFormat::Jkf
                | InputFormat::ShogiBook
        )
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
    /// Whether this is a shogi format.
    pub fn is_shogi(self) -> bool {
        matches!(
            self,
            OutputFormat::Sfen
                | OutputFormat::Usi
                | OutputFormat::Kif
                | OutputFormat::Ki2
                | OutputFormat::Csa
                | OutputFormat::Western
                | OutputFormat::Jkf
        )
    }
}

/// Position notations for `notate position`.
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

/// What the pipeline does with each replayed game.
#[derive(Clone, Copy, Debug)]
pub enum Job {
    /// Replay only.
    Check,
    /// Write every game in a format.
    Convert(OutputFormat),
    /// Write the position after `ply` plies (`None`: the end) of each game.
    Position {
        ply: Option<usize>,
        to: PositionOutput,
    },
    /// Turn every game into table rows for a database.
    Load,
}

/// A worker's writer for a chess job, with its state reused from game to game.
pub struct GameWriter {
    job: Job,
    pgn: PgnWriter,
    egd: EgdWriter,
    tracks: TracksWriter,
    text: String,
}

impl GameWriter {
    /// A writer for `job`; `egd` says how EGD is written.
    pub fn new(job: Job, egd: EgdOptions) -> GameWriter {
        GameWriter {
            job,
            pgn: PgnWriter::default(),
            egd: EgdWriter::new(egd),
            tracks: TracksWriter::default(),
            text: String::new(),
        }
    }

    /// Writes one game; an `Err` is a game that this output cannot hold (an error without a
    /// ply is placed at the game's start).
    pub fn write(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), GameError> {
        let job = self.job;
        match job {
            Job::Convert(OutputFormat::Egd) => return self.egd.write(game, out),
            Job::Convert(OutputFormat::Tracks) => return self.tracks.write(game, out),
            Job::Convert(OutputFormat::Jsonchess) => return jsonchess::write_jsonchess(game, out),
            _ => {}
        }
        self.write_text(job, game, out)
            .map_err(|reason| GameError::new(0, reason))
    }

    fn write_text(&mut self, job: Job, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), String> {
        self.text.clear();
        match job {
            Job::Check
            | Job::Load
            | Job::Convert(OutputFormat::Egd | OutputFormat::Tracks | OutputFormat::Jsonchess) => {}
            Job::Convert(OutputFormat::Icn | OutputFormat::IcnJson) => {
                return Err("ICN is infinite chess: it needs infinite chess input".into())
            }
            Job::Convert(
                OutputFormat::Sfen
                | OutputFormat::Usi
                | OutputFormat::Kif
                | OutputFormat::Ki2
                | OutputFormat::Csa
                | OutputFormat::Western
                | OutputFormat::Jkf,
            ) => return Err("this is a shogi format: it needs shogi input".into()),
            Job::Convert(OutputFormat::Pgn) => self.pgn.write(game, out),
            Job::Convert(OutputFormat::Json) => json::write_json(game, out),
            Job::Convert(OutputFormat::Uci) => {
                write_uci(game, &mut self.text);
                out.extend_from_slice(self.text.as_bytes());
            }
            Job::Convert(f @ (OutputFormat::Fen | OutputFormat::Epd)) => {
                let format = if f == OutputFormat::Fen {
                    PositionFormat::Fen
                } else {
                    PositionFormat::Epd
                };
                write_positions(game, format, &mut self.text);
                out.extend_from_slice(self.text.as_bytes());
            }
            Job::Position { ply, to } => {
                let mut pos = game.start.position.clone();
                let plies = &game.moves.plies;
                let n = ply.unwrap_or(plies.len());
                if n > plies.len() {
                    return Err(format!(
                        "--ply {n}: the game has only {} plies",
                        plies.len()
                    ));
                }
                for p in &plies[..n] {
                    play(&mut pos, p.mv.mv);
                }
                let line = match to {
                    PositionOutput::Icn | PositionOutput::IcnJson => {
                        return Err("ICN is infinite chess: it needs infinite chess input".into())
                    }
                    PositionOutput::Sfen => {
                        return Err("SFEN is shogi: it needs shogi input".into())
                    }
                    PositionOutput::Fen => {
                        Fen::from_position(&pos, EnPassantMode::Legal).to_string()
                    }
                    PositionOutput::Epd => {
                        Epd::from_position(&pos, EnPassantMode::Legal).to_string()
                    }
                };
                out.extend_from_slice(line.as_bytes());
                out.push(b'\n');
            }
        }
        Ok(())
    }
}
