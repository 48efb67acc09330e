//! Infinite chess: ICN and its long JSON form. An ICN file holds one game; a long-form file
//! holds one or more JSON documents. Games are small next to chess databases, so each input
//! is read whole and converted on the calling thread.

use std::io::{Read, Write};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use notate::infinite::long::{self, LongOptions};
use notate::infinite::short::{self, Dialect, MoveStyle, WriteOptions};
use notate::infinite::{replay, Error, Game};

use crate::formats::InputFormat;
use crate::input::{self, InputName};

/// How ICN is written (`--to icn`, `--to icn-json`, `position --to icn…`).
#[derive(Args, Debug, Clone)]
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
}

/// `--moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Moves {
    /// `1. P4,2 > 4,4 | p4,7 > 4,6`
    Pretty,
    /// `P4,2>4,4|p4,7>4,6`
    Compact,
    /// `4,2>4,4|4,7>4,6`
    Minimal,
}

/// `--dialect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    /// FormatConverter.js (2024)
    #[value(name = "2024")]
    V2024,
    /// infinitechess.org's icnconverter.ts (2025)
    #[value(name = "2025")]
    V2025,
}

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IcnOutput {
    Short,
    Long,
}

impl IcnArgs {
    fn dialect(&self) -> Dialect {
        match self.dialect {
            DialectArg::V2024 => Dialect::V2024,
            DialectArg::V2025 => Dialect::V2025,
        }
    }

    fn write(&self, game: &Game, to: IcnOutput) -> Result<String, Error> {
        match to {
            IcnOutput::Short => short::write(
                game,
                &WriteOptions {
                    moves: match self.moves {
                        Moves::Pretty => MoveStyle::Pretty,
                        Moves::Compact => MoveStyle::Compact,
                        Moves::Minimal => MoveStyle::Minimal,
                    },
                    single_line: self.single_line,
                    position: !self.no_position,
                    dialect: self.dialect(),
                },
            ),
            IcnOutput::Long => long::to_json(
                game,
                &LongOptions {
                    dialect: self.dialect(),
                    legacy_moves: self.legacy_moves,
                    pretty: !self.single_line,
                },
            ),
        }
    }
}

/// Converts every game of every input (or writes its position after `ply` plies, `Some(None)`
/// being the end). Returns the games written and the games that failed; each failure is
/// reported on stderr with its file, game and place, and the run goes on.
pub fn run(
    inputs: &[InputName],
    from: Option<InputFormat>,
    to: IcnOutput,
    ply: Option<Option<usize>>,
    args: &IcnArgs,
    out: &mut dyn Write,
) -> Result<(u64, u64)> {
    let (mut ok, mut failed) = (0, 0);
    for name in inputs {
        let opened = input::open(name, from, Arc::new(AtomicU64::new(0)))?;
        let mut text = String::new();
        let mut reader = opened.reader;
        reader
            .read_to_string(&mut text)
            .with_context(|| format!("{}: cannot read (ICN is UTF-8 text)", name.display()))?;
        let games: Vec<Result<Game, Error>> = match opened.format {
            InputFormat::Icn => vec![short::parse(&text)],
            InputFormat::IcnJson => long::from_json_stream(&text).collect(),
            other => anyhow::bail!(
                "{}: {other:?} is chess; ICN output needs ICN input (--from icn or icn-json)",
                name.display()
            ),
        };
        let several = games.len() > 1;
        for (i, game) in games.into_iter().enumerate() {
            let result = game
                .and_then(|g| match ply {
                    Some(p) => replay::position_after(&g, p),
                    None => Ok(g),
                })
                .and_then(|g| args.write(&g, to));
            match result {
                Ok(text) => {
                    out.write_all(text.as_bytes())?;
                    out.write_all(b"\n")?;
                    ok += 1;
                }
                Err(e) => {
                    failed += 1;
                    if several {
                        eprintln!("notate: {}: game {}: {e}", name.display(), i + 1);
                    } else {
                        eprintln!("notate: {}: {e}", name.display());
                    }
                }
            }
        }
    }
    out.flush()?;
    Ok((ok, failed))
}
