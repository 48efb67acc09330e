//! Shogi: SFEN, USI, KIF, KI2, CSA, Western, JKF and the seed app's opening books. Each
//! input is read whole (a shogi record is a few kilobytes) and inputs are converted on all
//! cores, a batch at a time, written in the order given.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use notate::shogi::encoding::{self, Encoding};
use notate::shogi::{self, book, csa, jkf, ki2, kif, usi, western, Error, Record};

use crate::formats::{InputFormat, OutputFormat};
use crate::input::{self, InputName};

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
}

impl EncodingArg {
    fn encoding(self) -> Encoding {
        match self {
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::ShiftJis => Encoding::ShiftJis,
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

/// What a shogi job writes.
#[derive(Clone, Copy, Debug)]
pub enum ShogiJob {
    /// Read and check only.
    Check,
    /// Convert to a format.
    Convert(OutputFormat),
    /// The SFEN after `ply` plies (`None`: the end).
    Position(Option<usize>),
}

/// The settings of a run.
pub struct ShogiRun<'a> {
    pub inputs: &'a [InputName],
    pub from: Option<InputFormat>,
    pub job: ShogiJob,
    pub args: &'a ShogiArgs,
    pub pretty: bool,
    pub threads: usize,
    pub strict: bool,
}

/// What one input gave: text to write, the records written and failed, and messages.
#[derive(Default)]
struct Converted {
    out: Vec<u8>,
    ok: u64,
    failed: u64,
    messages: Vec<String>,
}

/// The shogi format an input's name says, if any.
fn name_format(name: &InputName) -> Option<InputFormat> {
    input::format_of_name(&name.path.as_ref()?.to_string_lossy().to_ascii_lowercase())
}

/// Whether the file name says shogi.
pub fn is_shogi_name(name: &InputName) -> bool {
    name_format(name).is_some()
}

/// The records of one input's text.
fn read_records(
    bytes: &[u8],
    format: InputFormat,
    forced: Option<Encoding>,
) -> Vec<Result<Record, Error>> {
    let one = |r: Result<Record, Error>| vec![r];
    match format {
        InputFormat::Kif => one(kif::read_bytes(bytes, forced)),
        InputFormat::Ki2 => one(ki2::read_bytes(bytes, forced)),
        InputFormat::Csa => csa::read_bytes(bytes, forced),
        _ => match encoding::decode(bytes, forced) {
            Err(e) => one(Err(e)),
            Ok(t) => match format {
                InputFormat::Usi => usi::read(&t),
                InputFormat::Sfen => t
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
                    .map(|(i, l)| {
                        shogi::Position::from_sfen(l)
                            .map(Record::new)
                            .map_err(|e| Error::Line {
                                line: i + 1,
                                column: e.column,
                                text: l.chars().take(80).collect(),
                                message: e.message,
                            })
                    })
                    .collect(),
                InputFormat::Western => one(western::read(&t)),
                InputFormat::Jkf => one(jkf::read(&t)),
                InputFormat::ShogiBook => match book::read(&t) {
                    Ok(records) => records,
                    Err(e) => one(Err(e)),
                },
                _ => one(Err(Error::Write {
                    format: "shogi",
                    message: format!("{format:?} is not a shogi format"),
                })),
            },
        },
    }
}

/// What `to` cannot hold of `record` that a reader would miss: variations outside KIF, KI2
/// and JKF. (Positions and move lists drop times and endings by their nature.)
fn lost(record: &Record, to: OutputFormat) -> Option<String> {
    let holds = matches!(
        to,
        OutputFormat::Kif | OutputFormat::Ki2 | OutputFormat::Jkf
    );
    (!record.variations.is_empty() && !holds).then(|| {
        format!(
            "{} variation(s) not written: only KIF, KI2 and JKF hold variations",
            record.variations.len()
        )
    })
}

fn write_record(
    record: &Record,
    job: ShogiJob,
    args: &ShogiArgs,
    pretty: bool,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let out_encoding = args
        .to_encoding
        .or(args.encoding)
        .map_or(Encoding::Utf8, EncodingArg::encoding);
    let mut text = String::new();
    match job {
        ShogiJob::Check => return Ok(()),
        ShogiJob::Position(ply) => {
            let n = ply.unwrap_or(record.moves.len());
            let pos = record.position_after(n).ok_or_else(|| Error::Write {
                format: "SFEN",
                message: format!("--ply {n}: the game has only {} plies", record.moves.len()),
            })?;
            pos.write_sfen(&mut text);
            text.push('\n');
        }
        ShogiJob::Convert(to) => match to {
            OutputFormat::Sfen => {
                usi::write_sfens_bytes(record, out);
                out.push(b'\n');
                return Ok(());
            }
            OutputFormat::Usi => usi::write(record, &mut text),
            OutputFormat::Kif => {
                out.extend_from_slice(&kif::write_bytes(
                    record,
                    &kif::KifOptions {
                        encoding: out_encoding,
                        mark_declined: !args.no_funari,
                    },
                )?);
                return Ok(());
            }
            OutputFormat::Ki2 => {
                out.extend_from_slice(&ki2::write_bytes(record, out_encoding)?);
                return Ok(());
            }
            OutputFormat::Csa => {
                let version = match args.csa_version {
                    CsaVersionArg::V22 => csa::CsaVersion::V22,
                    CsaVersionArg::V30 => csa::CsaVersion::V30,
                };
                text = csa::write(record, &csa::CsaOptions { version });
            }
            OutputFormat::Western => {
                let style = match args.western_squares {
                    SquaresArg::Letter => western::SquareStyle::Letter,
                    SquaresArg::Digit => western::SquareStyle::Digit,
                };
                text = western::write(record, style);
            }
            OutputFormat::Jkf => {
                text = jkf::write(record, pretty);
                text.push('\n');
            }
            other => {
                return Err(Error::Write {
                    format: "shogi",
                    message: format!("{other:?} is not a shogi format"),
                })
            }
        },
    }
    out.extend_from_slice(text.as_bytes());
    Ok(())
}

fn convert_one(name: &InputName, run: &ShogiRun<'_>) -> Result<Converted> {
    let (bytes, format) = match (&name.path, name_format(name), run.from) {
        // A plain file named as shogi: one read of its exact size (inputs are many and small).
        (Some(path), Some(named), from) => {
            // Open and read, without fs::read's size query: records are a few kilobytes.
            let mut bytes = Vec::with_capacity(16 << 10);
            std::fs::File::open(path)
                .and_then(|mut f| f.read_to_end(&mut bytes))
                .with_context(|| format!("cannot read {}", name.display()))?;
            (bytes, from.unwrap_or(named))
        }
        _ => {
            let opened = input::open(name, run.from, Arc::new(AtomicU64::new(0)))?;
            let mut bytes = Vec::new();
            let mut reader = opened.reader;
            reader
                .read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {}", name.display()))?;
            (bytes, opened.format)
        }
    };
    anyhow::ensure!(
        format.is_shogi(),
        "{}: {format:?} is not shogi; shogi output needs shogi input (--from kif, csa …)",
        name.display()
    );
    let records = read_records(&bytes, format, run.args.encoding.map(EncodingArg::encoding));
    let several = records.len() > 1;
    let mut done = Converted::default();
    for (i, record) in records.into_iter().enumerate() {
        let place = if several {
            format!("{}: game {}", name.display(), i + 1)
        } else {
            name.display()
        };
        let result = record.and_then(|r| {
            if let ShogiJob::Convert(to) = run.job {
                if let Some(note) = lost(&r, to) {
                    done.messages.push(format!("notate: {place}: note: {note}"));
                }
                if to == OutputFormat::Csa && done.ok > 0 {
                    done.out.extend_from_slice(b"/\n");
                }
                if matches!(
                    to,
                    OutputFormat::Kif | OutputFormat::Ki2 | OutputFormat::Western
                ) && done.ok > 0
                {
                    done.out.push(b'\n');
                }
            }
            write_record(&r, run.job, run.args, run.pretty, &mut done.out)
        });
        match result {
            Ok(()) => done.ok += 1,
            Err(e) => {
                done.failed += 1;
                let hint = match (&e, run.args.encoding) {
                    (Error::Encoding { .. }, Some(_)) => {
                        " (--encoding says how inputs are read; --to-encoding sets only what is written)"
                    }
                    _ => "",
                };
                done.messages.push(format!("notate: {place}: {e}{hint}"));
            }
        }
    }
    Ok(done)
}

/// Runs a shogi job over every input; returns the records done and failed. Each failure is
/// reported on stderr with its file, game and place, and the run goes on (unless `strict`).
pub fn run(run: &ShogiRun<'_>, out: &mut dyn Write) -> Result<(u64, u64)> {
    // Workers take inputs in order and hand back what each gave; this thread writes them in
    // order. A worker waits rather than run more than WINDOW inputs ahead of the writer,
    // so memory stays flat however many inputs there are.
    const WINDOW: usize = 512;
    let (mut ok, mut failed) = (0, 0);
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (send, receive) = crossbeam_channel::bounded::<(usize, Result<Converted>)>(WINDOW);
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..run.threads.clamp(1, run.inputs.len().max(1)) {
            let send = send.clone();
            let (next, written, stop) = (&next, &written, &stop);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(name) = run.inputs.get(i) else { break };
                while i >= written.load(Ordering::Acquire) + WINDOW && !stop.load(Ordering::Relaxed)
                {
                    std::thread::sleep(std::time::Duration::from_micros(50));
                }
                if stop.load(Ordering::Relaxed) || send.send((i, convert_one(name, run))).is_err() {
                    break;
                }
            });
        }
        drop(send);
        let mut pending = std::collections::BTreeMap::new();
        let mut previous_csa = false;
        let result = (|| -> Result<()> {
            for (i, done) in receive.iter() {
                pending.insert(i, done);
                while let Some(done) = pending.remove(&written.load(Ordering::Acquire)) {
                    let done = done?;
                    for m in &done.messages {
                        eprintln!("{m}");
                    }
                    if !done.out.is_empty() {
                        // Records of several inputs in one CSA stream are separated by `/`.
                        if previous_csa {
                            out.write_all(b"/\n")?;
                        }
                        previous_csa = matches!(run.job, ShogiJob::Convert(OutputFormat::Csa));
                        out.write_all(&done.out)?;
                    }
                    ok += done.ok;
                    failed += done.failed;
                    written.fetch_add(1, Ordering::Release);
                    if run.strict && failed > 0 {
                        return Ok(());
                    }
                }
            }
            Ok(())
        })();
        // Stop the workers (on an error or --strict) before the scope waits for them.
        stop.store(true, Ordering::Relaxed);
        drop(receive);
        result
    })?;
    out.flush()?;
    Ok((ok, failed))
}
