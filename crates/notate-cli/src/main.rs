//! `notate`: read, check and convert chess game records.

mod formats;
mod icn;
mod input;
mod pipeline;
mod report;
mod shogi;
mod store;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use notate::chess::egd::EgdOptions;
use notate::chess::pgn::ReadOptions;

use formats::{InputFormat, Job, OutputFormat, PositionOutput};
use input::InputName;
use pipeline::Settings;
use report::Reporter;

const EXAMPLES: &str = "\
Examples:
  notate convert games.pgn --to json -o games.jsonl
  notate convert lichess_db_standard_rated_2016-05.pgn.zst --to uci
  notate convert games.jsonl --from json --to pgn
  notate convert games.pgn --to egd --egd-extended -o games.egd.jsonl
  notate convert games.egd.jsonl --to pgn
  cat games.pgn | notate check
  notate position game.pgn --ply 20 --to fen
  notate position game.pgn --ply end
  notate convert game.icn --to icn-json
  notate convert game.icn.json --to icn --moves compact --dialect 2025
  notate position game.icn --ply 20 --to icn
  notate convert game.kif --to csa
  notate convert games/*.csa --to sfen -o positions.txt
  notate convert book.json --from shogi-book --to usi
  notate position game.kifu --ply end --to sfen
  notate load games.pgn.zst --db games.sqlite
  notate load games.pgn --db postgres://me@localhost/chess
  notate load games.pgn --db parquet:games
  notate query --db games.sqlite \"SELECT result, count(*) FROM games GROUP BY result\"";

/// Read, check and convert chess game records.
#[derive(Parser, Debug)]
#[command(name = "notate", version, after_help = EXAMPLES, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Convert games from one format to another
    #[command(
        after_help = "Examples:\n  notate convert games.pgn --to json -o games.jsonl\n  notate convert games.pgn.zst --to uci\n  notate convert games.pgn --to egd --egd-extended\n  notate convert games.jsonl --to pgn"
    )]
    Convert {
        #[command(flatten)]
        common: Common,
        /// Output format
        #[arg(long, value_enum)]
        to: OutputFormat,
        /// Write here instead of stdout
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// EGD: add draw-rule features and each move's NAGs, glyphs, comment, clock and eval
        #[arg(long)]
        egd_extended: bool,
        /// EGD: indent the JSON (one key per line) instead of one game per line
        #[arg(long)]
        pretty: bool,
        #[command(flatten)]
        icn: icn::IcnArgs,
        #[command(flatten)]
        shogi: shogi::ShogiArgs,
    },
    /// Read and replay every game; report each error
    #[command(after_help = "Examples:\n  notate check games.pgn\n  notate check --strict *.pgn")]
    Check {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        shogi: shogi::ShogiArgs,
    },
    /// Print the position after N plies of each game
    #[command(
        after_help = "Examples:\n  notate position game.pgn --ply 20\n  notate position games.pgn --ply end --game 3 --to epd"
    )]
    Position {
        #[command(flatten)]
        common: Common,
        /// Number of plies from the start, or `end`
        #[arg(long, value_name = "N|end")]
        ply: String,
        /// Position notation
        #[arg(long, value_enum, default_value = "fen")]
        to: PositionOutput,
        /// Only this game of each input (1-based)
        #[arg(long, value_name = "N")]
        game: Option<u64>,
        #[command(flatten)]
        icn: icn::IcnArgs,
        #[command(flatten)]
        shogi: shogi::ShogiArgs,
    },
    /// Load chess games into SQLite, PostgreSQL or Parquet (tables `games` and `moves`)
    #[command(
        after_help = "Loading is idempotent: a game's id is a hash of its tags and moves, and a game already\nstored is not added again. Games are committed in batches (Parquet: whole files), so an\ninterrupted load leaves whole games only.\n\nExamples:\n  notate load lichess_db_standard_rated_2016-05.pgn.zst --db games.sqlite\n  notate load *.pgn --db postgres://me@localhost/chess\n  notate load games.pgn --db parquet:games    # games/games/year=2016/month=05/part-0.parquet"
    )]
    Load {
        #[command(flatten)]
        common: Common,
        #[arg(long, value_name = "TARGET", help = DB_HELP)]
        db: String,
    },
    /// Run one SQL statement on loaded games and print the answer
    #[command(
        after_help = "Parquet output is queried with DuckDB (see the README).\n\nExamples:\n  notate query --db games.sqlite \"SELECT result, count(*) AS games FROM games GROUP BY result\"\n  notate query --db games.sqlite --format csv - < examples/queries/results_by_opening.sql"
    )]
    Query {
        #[arg(long, value_name = "TARGET", help = DB_HELP)]
        db: String,
        /// The SQL statement (`-`: read it from stdin)
        #[arg(allow_hyphen_values = true)]
        sql: String,
        /// How the answer is printed
        #[arg(long, value_enum, default_value = "table")]
        format: store::QueryFormat,
    },
}

/// `--db`: where games are stored.
const DB_HELP: &str = "A SQLite file (games.sqlite), postgres://user@host/db, or parquet:DIR";

#[derive(Args, Debug)]
struct Common {
    /// Input files (`-` or none: stdin); .zst, .gz and .bz2 are decompressed
    inputs: Vec<PathBuf>,
    /// Input format (detected from the name and content when omitted)
    #[arg(long, value_enum)]
    from: Option<InputFormat>,
    /// Stop at the first bad game
    #[arg(long)]
    strict: bool,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Never show a progress bar
    #[arg(long)]
    quiet: bool,
    /// Largest game in bytes; a larger one is reported and skipped
    #[arg(long, value_name = "BYTES", default_value_t = ReadOptions::default().max_game_bytes)]
    max_game_bytes: usize,
    /// Longest comment in bytes; a longer one fails its game
    #[arg(long, value_name = "BYTES", default_value_t = ReadOptions::default().max_comment_bytes)]
    max_comment_bytes: usize,
}

fn settings(common: &Common, job: Job, only_game: Option<u64>, egd: EgdOptions) -> Settings {
    Settings {
        from: common.from,
        job,
        strict: common.strict,
        threads: threads(common),
        limits: ReadOptions {
            max_game_bytes: common.max_game_bytes,
            max_comment_bytes: common.max_comment_bytes,
            keep_comments: match job {
                Job::Check | Job::Position { .. } => false,
                // Clocks and evaluations are columns.
                Job::Load => true,
                Job::Convert(
                    OutputFormat::Uci
                    | OutputFormat::Fen
                    | OutputFormat::Epd
                    | OutputFormat::Tracks,
                ) => false,
                // A move's time is kept in a `[%timestamp]` comment.
                Job::Convert(OutputFormat::Jsonchess) => true,
                Job::Convert(OutputFormat::Egd) => egd.extended,
                Job::Convert(OutputFormat::Pgn | OutputFormat::Json) => true,
                Job::Convert(OutputFormat::Icn | OutputFormat::IcnJson) => false,
                Job::Convert(_) => false,
            },
            // The tables keep clocks and evaluations, not the comments' words.
            keep_comment_text: !matches!(job, Job::Load),
            validate_only: matches!(job, Job::Check),
            ..ReadOptions::default()
        },
        // EGD is 10 to 35 times its PGN: smaller chunks keep the output in flight small.
        chunk_bytes: match job {
            Job::Convert(OutputFormat::Egd) => 64 << 10,
            // Checking writes nothing: larger chunks mean fewer hand-overs between threads.
            Job::Check => 1 << 20,
            _ => 256 << 10,
        },
        only_game,
        egd,
    }
}

fn inputs(common: &Common) -> Vec<InputName> {
    if common.inputs.is_empty() {
        return vec![InputName { path: None }];
    }
    common
        .inputs
        .iter()
        .map(|p| InputName {
            path: (p.as_os_str() != "-").then(|| p.clone()),
        })
        .collect()
}

fn parse_ply(ply: &str) -> Result<Option<usize>, ExitCode> {
    match ply {
        "end" => Ok(None),
        n => n.parse().map(Some).map_err(|_| {
            usage(&format!(
                "--ply takes a number or `end`, not {n:?} (try: --ply 20)"
            ))
        }),
    }
}

/// Infinite chess jobs (`--to icn`, `--to icn-json`, `position --to icn…`); `None` for
/// chess jobs.
fn run_icn(command: &Command) -> Option<ExitCode> {
    let (common, to, ply, args, output) = match command {
        Command::Convert {
            common,
            to,
            icn,
            output,
            ..
        } => {
            let to = match to {
                OutputFormat::Icn => icn::IcnOutput::Short,
                OutputFormat::IcnJson => icn::IcnOutput::Long,
                _ => return None,
            };
            (common, to, None, icn, output.clone())
        }
        Command::Position {
            common,
            to,
            ply,
            icn,
            ..
        } => {
            let to = match to {
                PositionOutput::Icn => icn::IcnOutput::Short,
                PositionOutput::IcnJson => icn::IcnOutput::Long,
                _ => return None,
            };
            match parse_ply(ply) {
                Ok(ply) => (common, to, Some(ply), icn, None),
                Err(code) => return Some(code),
            }
        }
        Command::Check { .. } | Command::Load { .. } | Command::Query { .. } => return None,
    };
    if matches!(
        common.from,
        Some(f) if f != InputFormat::Icn && f != InputFormat::IcnJson
    ) {
        return Some(usage(
            "ICN output needs ICN input (--from icn or --from icn-json)",
        ));
    }
    let inputs = inputs(common);
    if let Err(code) = check_inputs(&inputs, "") {
        return Some(code);
    }
    let mut out = match open_output(output.as_ref()) {
        Ok(out) => out,
        Err(code) => return Some(code),
    };
    let result = icn::run(&inputs, common.from, to, ply, args, &mut out);
    Some(exit_status(result, |ok, failed| {
        if failed > 0 && !common.quiet {
            eprintln!("notate: {ok} games written, {failed} failed");
        }
    }))
}

/// Worker threads: `--threads`, or one per core.
fn threads(common: &Common) -> usize {
    common
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

/// Every named input must be a file; a usage error names the first that is not (`hint`
/// follows the name).
fn check_inputs(inputs: &[InputName], hint: &str) -> Result<(), ExitCode> {
    match inputs
        .iter()
        .filter_map(|i| i.path.as_ref())
        .find(|p| !p.is_file())
    {
        Some(path) => Err(usage(&format!("no such file: {}{hint}", path.display()))),
        None => Ok(()),
    }
}

/// The output: the file `-o` names, or stdout, buffered.
fn open_output(output: Option<&PathBuf>) -> Result<Box<dyn Write>, ExitCode> {
    Ok(match output {
        Some(path) => match File::create(path) {
            Ok(f) => Box::new(BufWriter::with_capacity(1 << 20, f)),
            Err(e) => return Err(usage(&format!("cannot create {}: {e}", path.display()))),
        },
        None => Box::new(BufWriter::with_capacity(1 << 20, io::stdout().lock())),
    })
}

/// A closed pipe (`notate … | head`) is not an error worth a message.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// A usage error: message and exit status 2.
/// The exit status of a run: 0 when every game went through, 1 when some failed (after
/// `summary` of the games done and failed) or the run stopped on an error, said on stderr. A
/// reader that stops reading (`notate … | head`) is no error: the run ends there, with 0.
fn exit_status(result: anyhow::Result<(u64, u64)>, summary: impl FnOnce(u64, u64)) -> ExitCode {
    match result {
        Ok((ok, failed)) => {
            summary(ok, failed);
            if failed > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("notate: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn usage(message: &str) -> ExitCode {
    eprintln!("notate: {message}");
    ExitCode::from(2)
}

/// Shogi jobs (shogi output, `--from` a shogi format, or inputs named `.kif`, `.csa` …);
/// `None` for chess and infinite chess jobs.
fn run_shogi(command: &Command) -> Option<ExitCode> {
    let (common, job, args, output, pretty) = match command {
        Command::Convert {
            common,
            to,
            shogi,
            output,
            pretty,
            ..
        } => (
            common,
            shogi::ShogiJob::Convert(*to),
            shogi,
            output.clone(),
            *pretty,
        ),
        Command::Check { common, shogi } => (common, shogi::ShogiJob::Check, shogi, None, false),
        Command::Load { .. } | Command::Query { .. } => return None,
        Command::Position {
            common,
            ply,
            to,
            shogi,
            ..
        } => {
            let ply = match parse_ply(ply) {
                Ok(ply) => ply,
                Err(code) => return Some(code),
            };
            if *to != PositionOutput::Sfen
                && !common.from.is_some_and(InputFormat::is_shogi)
                && !shogi_names(common)
            {
                return None;
            }
            (common, shogi::ShogiJob::Position(ply), shogi, None, false)
        }
    };
    let wants_shogi = match job {
        shogi::ShogiJob::Convert(to) => to.is_shogi(),
        _ => false,
    };
    let input_shogi = common.from.is_some_and(InputFormat::is_shogi) || shogi_names(common);
    if !wants_shogi && !input_shogi && !matches!(job, shogi::ShogiJob::Position(_)) {
        return None;
    }
    if let shogi::ShogiJob::Convert(to) = job {
        if !to.is_shogi() {
            return Some(usage(
                "shogi input converts to sfen, usi, kif, ki2, csa, western or jkf",
            ));
        }
        if pretty && to != OutputFormat::Jkf {
            return Some(usage("--pretty is an option of --to egd and --to jkf"));
        }
    }
    if common.from.is_some_and(|f| !f.is_shogi()) {
        return Some(usage("shogi output needs shogi input (--from kif, ki2, csa, usi, sfen, western, jkf or shogi-book)"));
    }
    let inputs = inputs(common);
    if let Err(code) = check_inputs(&inputs, "") {
        return Some(code);
    }
    let mut out = match open_output(output.as_ref()) {
        Ok(out) => out,
        Err(code) => return Some(code),
    };
    let run = shogi::ShogiRun {
        inputs: &inputs,
        from: common.from,
        job,
        args,
        pretty,
        threads: threads(common),
        strict: common.strict,
    };
    Some(exit_status(shogi::run(&run, &mut out), |ok, failed| {
        if failed > 0 && !common.quiet {
            eprintln!("notate: {ok} games read, {failed} failed");
        }
    }))
}

/// Whether every input is named as a shogi file.
fn shogi_names(common: &Common) -> bool {
    let inputs = inputs(common);
    !common.inputs.is_empty() && inputs.iter().all(shogi::is_shogi_name)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Command::Load { common, db } => return run_load(common, db),
        Command::Query { db, sql, format } => return run_query(db, sql, *format),
        _ => {}
    }
    if let Some(code) = run_shogi(&cli.command) {
        return code;
    }
    if let Some(code) = run_icn(&cli.command) {
        return code;
    }
    let mut egd = EgdOptions::default();
    let (common, job, output, verb, only_game) = match &cli.command {
        Command::Convert {
            common,
            to,
            output,
            egd_extended,
            pretty,
            ..
        } => {
            if (*egd_extended || *pretty) && *to != OutputFormat::Egd {
                return usage(&format!(
                    "--egd-extended and --pretty are options of --to egd, not --to {}",
                    to.to_possible_value()
                        .map_or("?".into(), |v| v.get_name().to_string())
                ));
            }
            egd = EgdOptions {
                extended: *egd_extended,
                pretty: *pretty,
            };
            (common, Job::Convert(*to), output.clone(), "converted", None)
        }
        Command::Check { common, .. } => (common, Job::Check, None, "checked", None),
        Command::Load { .. } | Command::Query { .. } => unreachable!("handled above"),
        Command::Position {
            common,
            ply,
            to,
            game,
            ..
        } => {
            let ply = match parse_ply(ply) {
                Ok(ply) => ply,
                Err(code) => return code,
            };
            (common, Job::Position { ply, to: *to }, None, "read", *game)
        }
    };
    let inputs = inputs(common);
    if let Err(code) = check_inputs(&inputs, " (give a PGN file, or `-` to read stdin)") {
        return code;
    }
    let settings = settings(common, job, only_game, egd);
    let mut out = match open_output(output.as_ref()) {
        Ok(out) => out,
        Err(code) => return code,
    };
    let mut reporter = Reporter::new(!common.quiet);
    let new_writer = || formats::GameWriter::new(settings.job, settings.egd);
    let mut sink = pipeline::ByteSink(&mut out);
    let result = pipeline::run(&inputs, &settings, new_writer, &mut sink, &mut reporter);
    exit_status(result, |ok, failed| reporter.finish(verb, ok, failed))
}

/// `--db`, or a usage error.
fn parse_target(db: &str) -> Result<notate_store::Target, ExitCode> {
    notate_store::Target::parse(db).map_err(|e| usage(&format!("--db {db:?}: {e}")))
}

/// `notate load`: chess games into a database.
fn run_load(common: &Common, db: &str) -> ExitCode {
    let target = match parse_target(db) {
        Ok(target) => target,
        Err(code) => return code,
    };
    if common.from.is_some_and(|f| {
        !matches!(
            f,
            InputFormat::Pgn | InputFormat::Json | InputFormat::Egd | InputFormat::Jsonchess
        )
    }) {
        return usage("notate load stores chess games: --from pgn, json, egd or jsonchess");
    }
    let inputs = inputs(common);
    if let Err(code) = check_inputs(&inputs, " (give a PGN file, or `-` to read stdin)") {
        return code;
    }
    let settings = settings(common, Job::Load, None, EgdOptions::default());
    let mut reporter = Reporter::new(!common.quiet);
    // The load's summary is its own (it counts the games already there).
    exit_status(
        store::load(&inputs, &settings, &target, db, &mut reporter),
        |_, _| {},
    )
}

/// `notate query`: one SQL statement, its answer on stdout.
fn run_query(db: &str, sql: &str, format: store::QueryFormat) -> ExitCode {
    let target = match parse_target(db) {
        Ok(target) => target,
        Err(code) => return code,
    };
    let mut text = String::new();
    let sql = if sql == "-" {
        if let Err(e) = io::Read::read_to_string(&mut io::stdin(), &mut text) {
            eprintln!("notate: cannot read the SQL from stdin: {e}");
            return ExitCode::from(2);
        }
        &text
    } else {
        sql
    };
    let result = store::query(&target, sql, format, &mut io::stdout().lock());
    exit_status(result.map(|()| (0, 0)), |_, _| {})
}
