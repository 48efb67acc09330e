//! Shogi in the pipeline: SFEN, USI, KIF, KI2, CSA, Western, JKF and the seed app's opening
//! books read (every move checked), and written in any shogi format.

use clap::{Args, ValueEnum};
use notate::chunk::Chunk;
use notate::format::{ReadFormat, WriteFormat};
use notate::shogi::encoding::{Encoding, ReadOptions};
use notate::shogi::{book, csa, jkf, ki2, kif, sfen, tracks, usi, view, western, Record};
use notate::{Error, ErrorKind};

use crate::formats::{InputFormat, Job, OutputFormat, PositionOutput};
use crate::pipeline::{FamilyStage, Fate};

/// Shogi options.
#[derive(Args, Debug, Clone)]
pub struct ShogiArgs {
    /// Shogi: the text encoding of KIF/KI2/CSA inputs (instead of detecting it) and of KIF/KI2
    /// written
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// Shogi: the encoding of KIF/KI2 written, when it differs from the input's --encoding
    #[arg(long, value_enum)]
    pub to_encoding: Option<EncodingArg>,
    /// Shogi: which CSA version to write
    #[arg(long, value_enum, default_value = "3.0")]
    pub csa_version: CsaVersionArg,
    /// Shogi: KIF leaves declined promotions unmarked (no 不成), as its specification does
    #[arg(long)]
    pub no_funari: bool,
    /// Shogi: how Western notation writes squares (`7f` or `76`)
    #[arg(long, value_enum, default_value = "letter")]
    pub western_squares: SquaresArg,
}

/// `--encoding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// UTF-8
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    /// Shift_JIS (CP932)
    #[value(
        name = "shift_jis",
        alias = "shift-jis",
        alias = "sjis",
        alias = "cp932"
    )]
    ShiftJis,
    /// EUC-JP (read, and written on request; neither KIF nor CSA allows it)
    #[value(name = "euc-jp", alias = "eucjp")]
    EucJp,
}

impl EncodingArg {
    fn encoding(self) -> Encoding {
        match self {
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::ShiftJis => Encoding::ShiftJis,
            EncodingArg::EucJp => Encoding::EucJp,
        }
    }
}

/// `--csa-version`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CsaVersionArg {
    /// V2.2
    #[value(name = "2.2")]
    V22,
    /// V3.0 (with an `'CSA encoding=UTF-8` line)
    #[value(name = "3.0")]
    V30,
}

/// `--western-squares`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SquaresArg {
    /// `7f`
    Letter,
    /// `76`
    Digit,
}

/// Whether `to` holds variations (KIF, KI2, JKF); the others drop them, with a warning
/// ([`Record::unwritten_variations`]). Positions and move lists drop times and endings by
/// their nature.
fn holds_variations(to: OutputFormat) -> bool {
    matches!(
        to,
        OutputFormat::Kif | OutputFormat::Ki2 | OutputFormat::Jkf
    )
}

/// What comes between two records of one output: CSA separates records with a `/` line;
/// KIF, KI2 and Western leave a blank line. The stage writes it before every record, and the
/// sink drops it before the first record of the output.
pub fn separator(job: Job) -> &'static [u8] {
    match job {
        Job::Convert(OutputFormat::Csa) => b"/\n",
        Job::Convert(OutputFormat::Kif | OutputFormat::Ki2 | OutputFormat::Western) => b"\n",
        _ => b"",
    }
}

/// Shogi as a stage of the pipeline: reads the records of a chunk (every move checked), and
/// writes each in the format asked.
pub struct ShogiStage {
    job: Job,
    read: ReadOptions,
    /// Whether `--encoding` was given (a hint for encoding errors).
    forced: bool,
    kif: kif::Kif,
    ki2: ki2::Ki2,
    csa: csa::Csa,
    western: western::Western,
    jkf: jkf::Jkf,
    tracks: tracks::Tracks,
    view: view::View,
    records: Vec<Result<Record, Error>>,
}

impl ShogiStage {
    /// A stage for `job`, reading and writing as `args` say (`pretty`: indented JKF).
    pub fn new(job: Job, args: &ShogiArgs, pretty: bool) -> ShogiStage {
        let encoding = args
            .to_encoding
            .or(args.encoding)
            .map_or(Encoding::Utf8, EncodingArg::encoding);
        ShogiStage {
            job,
            read: ReadOptions {
                encoding: args.encoding.map(EncodingArg::encoding),
            },
            forced: args.encoding.is_some(),
            kif: kif::Kif::new(kif::WriteOptions {
                encoding,
                mark_declined: !args.no_funari,
            }),
            ki2: ki2::Ki2::new(ki2::WriteOptions { encoding }),
            csa: csa::Csa::new(csa::WriteOptions {
                version: match args.csa_version {
                    CsaVersionArg::V22 => csa::CsaVersion::V22,
                    CsaVersionArg::V30 => csa::CsaVersion::V30,
                },
            }),
            western: western::Western::new(western::WriteOptions {
                squares: match args.western_squares {
                    SquaresArg::Letter => western::SquareStyle::Letter,
                    SquaresArg::Digit => western::SquareStyle::Digit,
                },
            }),
            jkf: jkf::Jkf::new(jkf::WriteOptions { pretty }),
            tracks: tracks::Tracks::default(),
            view: view::View::default(),
            records: Vec::new(),
        }
    }

    fn write(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        let unwritable = |message: String| Error::new(ErrorKind::Unwritable, message);
        match self.job {
            Job::Check | Job::Load => Ok(()),
            Job::Position { ply, to } => {
                if let Some(to) = to.filter(|&t| t != PositionOutput::Sfen) {
                    return Err(unwritable(format!(
                        "shogi input gives positions as sfen, not {}",
                        crate::formats::format_name(to)
                    )));
                }
                let n = ply.unwrap_or(record.moves.len());
                let pos = record.position_after(n).ok_or_else(|| {
                    unwritable(format!(
                        "--ply {n}: the game has only {} plies",
                        record.moves.len()
                    ))
                })?;
                out.extend_from_slice(pos.to_sfen().as_bytes());
                out.push(b'\n');
                Ok(())
            }
            Job::Convert(to) => {
                out.extend_from_slice(separator(self.job));
                match to {
                    OutputFormat::Sfen => sfen::Sfen.write_game(record, out),
                    OutputFormat::Usi => usi::Usi.write_game(record, out),
                    OutputFormat::Kif => self.kif.write_game(record, out),
                    OutputFormat::Ki2 => self.ki2.write_game(record, out),
                    OutputFormat::Csa => self.csa.write_game(record, out),
                    OutputFormat::Western => self.western.write_game(record, out),
                    OutputFormat::Jkf => self.jkf.write_game(record, out),
                    OutputFormat::Tracks => self.tracks.write_game(record, out),
                    OutputFormat::View => self.view.write_game(record, out),
                    other => Err(unwritable(format!(
                        "shogi input converts to sfen, usi, kif, ki2, csa, western, jkf, tracks or view, not {}",
                        crate::formats::format_name(other)
                    ))),
                }
            }
        }
    }
}

impl FamilyStage<Vec<u8>> for ShogiStage {
    fn process(
        &mut self,
        chunk: &Chunk,
        format: InputFormat,
        out: &mut Vec<u8>,
        fates: &mut Vec<Fate>,
    ) {
        let mut records = std::mem::take(&mut self.records);
        let read = &self.read;
        match format {
            InputFormat::Kif => kif::Kif::read_chunk(chunk, read, &mut records),
            InputFormat::Ki2 => ki2::Ki2::read_chunk(chunk, read, &mut records),
            InputFormat::Csa => csa::Csa::read_chunk(chunk, read, &mut records),
            InputFormat::Usi => usi::Usi::read_chunk(chunk, read, &mut records),
            InputFormat::Sfen => sfen::Sfen::read_chunk(chunk, read, &mut records),
            InputFormat::Western => western::Western::read_chunk(chunk, read, &mut records),
            InputFormat::Jkf => jkf::Jkf::read_chunk(chunk, read, &mut records),
            InputFormat::ShogiBook => book::Book::read_chunk(chunk, read, &mut records),
            other => unreachable!("{other:?} is not shogi"),
        }
        let job = self.job;
        for record in records.drain(..) {
            let record = record.map_err(|mut error| {
                if error.kind == ErrorKind::Encoding && self.forced {
                    error.message.push_str(
                        " (--encoding says how inputs are read; --to-encoding sets only what is written)",
                    );
                }
                error
            });
            let write = |record: &Record, out: &mut Vec<u8>| {
                self.write(record, out)?;
                // What the reader noticed, and what the output cannot hold, is said, not
                // dropped in silence.
                let mut notes = record.warnings.clone();
                if matches!(job, Job::Convert(to) if !holds_variations(to)) {
                    notes.extend(record.unwritten_variations());
                }
                if matches!(job, Job::Convert(OutputFormat::Csa | OutputFormat::Jkf)) {
                    notes.extend(record.unwritten_move_number());
                }
                Ok(notes)
            };
            fates.push(Fate::of_game(record, out, write, Record::players));
        }
        self.records = records;
    }
}
