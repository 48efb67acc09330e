//! `notate`: read, check and convert chess game records.

mod chess;
mod formats;
mod icn;
mod input;
mod pipeline;
mod render;
mod report;
mod shogi;
mod store;

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use notate::chess::egd;
use notate::chess::pgn::{Keep, PieceLetters, ReadOptions};

use formats::{format_name, InputFormat, Job, OutputFormat, PositionOutput};
use input::InputName;
use pipeline::{ByteSink, Settings, Stages};
use report::Reporter;

const EXAMPLES: &str = "\
Examples:
  notate convert games.pgn --to json -o games.jsonl
  notate convert lichess_db_standard_rated_2016-05.pgn.zst --to uci
  notate convert games.jsonl --from json --to pgn
  notate convert games.pgn --to egd --egd-extended -o games.egd.jsonl
  notate convert games.egd.jsonl --to pgn
  cat games.pgn | notate check
  cat game.kifu | notate check
  notate check game.icn --strict
  notate position game.pgn --ply 20 --to fen
  notate position game.pgn --ply end
  notate convert game.icn --to icn-json
  notate convert game.icn.json --to icn --moves compact --dialect 2025
  notate position game.icn --ply 20 --to icn
  notate convert game.kif --to csa
  notate convert a.kif b.csa --to usi --strict
  notate convert games/*.csa --to sfen -o positions.txt
  notate convert book.json --from shogi-book --to usi
  notate position game.kifu --ply end --to sfen
  notate render games.pgn                 # games.html: every game on a board
  notate load games.pgn.zst --db games.sqlite
  notate load games.pgn --db postgres://me@localhost/chess
  notate load games.pgn --db parquet:games
  notate query --db games.sqlite \"SELECT result, count(*) FROM games GROUP BY result\"";

/// Read, check and convert the game records of chess, infinite chess and shogi.
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
        /// EGD and JKF: indent the JSON (one key per line) instead of one game per line
        #[arg(long)]
        pretty: bool,
        #[command(flatten)]
        icn: icn::IcnArgs,
        #[command(flatten)]
        shogi: shogi::ShogiArgs,
    },
    /// Read and replay every game; report each error
    #[command(
        after_help = "Examples:\n  notate check games.pgn\n  notate check --strict *.pgn\n  notate check game.icn\n  cat game.kifu | notate check"
    )]
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
        /// Position notation (default: the family's own, fen, icn or sfen)
        #[arg(long, value_enum)]
        to: Option<PositionOutput>,
        #[command(flatten)]
        icn: icn::IcnArgs,
        #[command(flatten)]
        shogi: shogi::ShogiArgs,
    },
    /// Write one self-contained HTML page that shows every game on an animated board
    #[command(
        after_help = "The page holds its scripts, styles and games: it opens from a file and makes no network\nrequest. Keys: ← → step, Home End, space plays, f flips the board.\n\nExamples:\n  notate render game.pgn                 # writes game.html\n  notate render games.kif -o board.html\n  cat game.icn | notate render > game.html"
    )]
    Render {
        #[command(flatten)]
        common: Common,
        /// Write here (default: the input's name with .html, in the current directory;
        /// stdout for stdin)
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        shogi: shogi::ShogiArgs,
    },
    /// Load chess games into SQLite, PostgreSQL or Parquet (tables `games` and `moves`)
    #[command(
        after_help = "Loading is idempotent: a game's id is a hash of its tags and moves, and a game already\nstored is not added again. Games are committed in batches (Parquet: whole files), and with\n--live at each pause of the input after a game, so an interrupted load leaves whole games\nonly.\n\nExamples:\n  notate load lichess_db_standard_rated_2016-05.pgn.zst --db games.sqlite\n  notate load *.pgn --db postgres://me@localhost/chess\n  notate load games.pgn --db parquet:games    # games/games/year=2016/month=05/part-0.parquet"
    )]
    Load {
        #[command(flatten)]
        common: Common,
        #[arg(long, value_name = "TARGET", help = DB_HELP)]
        db: String,
    },
    /// Serve jsonchess games over WebSocket (/ws), with clocks and storage
    #[command(
        after_help = "Prints `listening on http://ADDRESS` once it listens. Games are stored as they are played\n(finished ones also in the tables of `notate load`, for `notate query`) and go on after a restart.\n\nExamples:\n  notate serve\n  notate serve --listen 0.0.0.0:8080 --db games.sqlite\n  notate serve --listen 127.0.0.1:0     # a free port\n  notate serve --db postgres://chess@db/chess   # one of several processes on one database"
    )]
    Serve {
        /// Address to listen on (port 0: a free one)
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: std::net::SocketAddr,
        /// Where games are stored: a SQLite file (created on the first start), or a PostgreSQL
        /// database (postgres://…) that several `notate serve` processes share
        #[arg(long, value_name = "FILE|URL", default_value = "games.sqlite")]
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
    /// Worker threads, 1 to 256 (default: one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=notate::format::MAX_THREADS as u64))]
    threads: Option<u64>,
    /// Never show a progress bar
    #[arg(long)]
    quiet: bool,
    /// PGN from a pipe that pauses (a broadcast that sends each game as it is played): give
    /// a game once its result and a line break came, without waiting for the next game (a
    /// note after the result, sent on a later line, then goes with the next game); `load`
    /// commits (Parquet: publishes its files) at each pause after a game, a SQLite file in
    /// WAL mode while it runs, and keeps back games in progress (result `*`: a broadcast
    /// sends each game again at every move)
    #[arg(long)]
    live: bool,
    /// Only game N of each input (1-based): an input is read no further than its game N,
    /// and one with fewer games fails
    #[arg(long, value_name = "N", value_parser = game_number)]
    game: Option<u64>,
    /// Largest game in bytes, the blanks after it aside (up to as many again); a larger one
    /// is reported and skipped (default: 16 MiB for PGN
    /// and game lines, 1 GiB for a format of one text per file: ICN, KIF, CSA, JKF …)
    #[arg(long, value_name = "BYTES")]
    max_game_bytes: Option<usize>,
    /// Longest comment in bytes; a longer one fails its game
    #[arg(long, value_name = "BYTES", default_value_t = ReadOptions::default().max_comment_bytes)]
    max_comment_bytes: usize,
    /// PGN whose pieces have the letters of a language (de, fr, es, it, nl, pt, pl, sv,
    /// da, no, cs, hu; default: en, as PGN says): `Sf3` is read as `Nf3`
    #[arg(long, value_name = "LANG", value_parser = piece_letters)]
    piece_letters: Option<PieceLetters>,
}

/// A game's number in its input: from 1, as errors and `render` count them.
fn game_number(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("games are numbered from 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a game number: {e}")),
    }
}

/// `--piece-letters`: a language code.
fn piece_letters(code: &str) -> Result<PieceLetters, String> {
    PieceLetters::from_code(code).ok_or_else(|| {
        let codes: Vec<&str> = PieceLetters::ALL
            .iter()
            .flat_map(|(_, c)| c.iter().copied())
            .collect();
        format!(
            "not a language of piece letters (one of {})",
            codes.join(", ")
        )
    })
}

/// Everything a run of `convert`, `check` or `position` needs, checked once before it starts.
struct Run {
    settings: Settings,
    inputs: Vec<InputName>,
    output: Option<PathBuf>,
    egd: egd::WriteOptions,
    pretty: bool,
    icn: icn::IcnArgs,
    shogi: shogi::ShogiArgs,
    verb: &'static str,
}

/// The settings of a job over `common`'s inputs.
fn settings(common: &Common, job: Job, egd: egd::WriteOptions) -> Settings {
    Settings {
        from: common.from,
        job,
        strict: common.strict,
        threads: threads(common),
        limits: ReadOptions {
            max_game_bytes: common
                .max_game_bytes
                .unwrap_or(ReadOptions::default().max_game_bytes),
            max_comment_bytes: common.max_comment_bytes,
            piece_letters: common.piece_letters.unwrap_or_default(),
            keep: match job {
                // Checking builds no move tree at all.
                Job::Check => Keep::Nothing,
                Job::Position { .. } => Keep::Moves,
                // The tables keep clocks and evaluations, not the comments' words.
                Job::Load => Keep::Annotations,
                // A move's time is kept in a `[%timestamp]` comment.
                Job::Convert(OutputFormat::Jsonchess) => Keep::Everything,
                Job::Convert(OutputFormat::Egd) if egd.extended => Keep::Everything,
                Job::Convert(OutputFormat::Pgn | OutputFormat::Json) => Keep::Everything,
                // The viewer shows each move's comment, clock and evaluation.
                Job::Convert(OutputFormat::View) => Keep::Everything,
                Job::Convert(_) => Keep::Moves,
            },
            ..ReadOptions::default()
        },
        // EGD is 10 to 35 times its PGN: smaller chunks keep the output in flight small.
        chunk_bytes: match job {
            Job::Convert(OutputFormat::Egd) => 64 << 10,
            // Checking writes nothing: larger chunks mean fewer hand-overs between threads.
            Job::Check => 1 << 20,
            Job::Load => notate_store::CHUNK_BYTES,
            _ => 256 << 10,
        },
        only_game: common.game,
        max_text_bytes: common.max_game_bytes.unwrap_or(1 << 30),
        live: common.live,
    }
}

/// The arguments of `convert`, `check` or `position` as one checked [`Run`], or a usage
/// error: options that do not go with the output, an input format (`--from`, or a file's
/// name) of a family the job cannot write, an input that is not a file.
fn checked_run(command: &Command) -> Result<Run, ExitCode> {
    let mut egd = egd::WriteOptions::default();
    let mut pretty = false;
    let (common, job, output, icn, shogi, verb) = match command {
        Command::Convert {
            common,
            to,
            output,
            egd_extended,
            pretty: indent,
            icn,
            shogi,
        } => {
            if *egd_extended && *to != OutputFormat::Egd {
                return Err(usage(&format!(
                    "--egd-extended is an option of --to egd, not --to {}",
                    format_name(*to)
                )));
            }
            if *indent && !matches!(to, OutputFormat::Egd | OutputFormat::Jkf) {
                return Err(usage(&format!(
                    "--pretty is an option of --to egd and --to jkf, not --to {}",
                    format_name(*to)
                )));
            }
            egd = egd::WriteOptions {
                extended: *egd_extended,
                pretty: *indent && *to == OutputFormat::Egd,
            };
            pretty = *indent;
            (
                common,
                Job::Convert(*to),
                output.clone(),
                icn.clone(),
                shogi.clone(),
                "converted",
            )
        }
        Command::Check { common, shogi } => (
            common,
            Job::Check,
            None,
            icn::IcnArgs::default(),
            shogi.clone(),
            "checked",
        ),
        Command::Position {
            common,
            ply,
            to,
            icn,
            shogi,
        } => {
            let ply = parse_ply(ply)?;
            (
                common,
                Job::Position { ply, to: *to },
                None,
                icn.clone(),
                shogi.clone(),
                "read",
            )
        }
        Command::Render {
            common,
            output,
            shogi,
        } => (
            common,
            Job::Convert(OutputFormat::View),
            output.clone().or_else(|| render_path(common)),
            icn::IcnArgs::default(),
            shogi.clone(),
            "rendered",
        ),
        Command::Load { .. } | Command::Query { .. } | Command::Serve { .. } => {
            unreachable!("not a pipeline job")
        }
    };
    let inputs = inputs(common);
    check_inputs(&inputs)?;
    // An input whose format is known before it is opened is checked now, not mid-run.
    for input in &inputs {
        let format = common
            .from
            .or_else(|| input.path.as_deref().and_then(input::format_of_path));
        if let Some(why) = format.and_then(|f| job.refuses(f)) {
            return Err(usage(&format!("{}: {why}", input.display())));
        }
    }
    Ok(Run {
        settings: settings(common, job, egd),
        inputs,
        output,
        egd,
        pretty,
        icn,
        shogi,
        verb,
    })
}

/// Runs `convert`, `check` or `position` through the one pipeline.
fn run_pipeline(command: &Command) -> ExitCode {
    let run = match checked_run(command) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let quiet = match command {
        Command::Convert { common, .. }
        | Command::Check { common, .. }
        | Command::Position { common, .. }
        | Command::Render { common, .. } => common.quiet,
        Command::Load { .. } | Command::Query { .. } | Command::Serve { .. } => true,
    };
    let rendering = matches!(command, Command::Render { .. });
    if let Some(why) = rendering.then(render::unavailable).flatten() {
        eprintln!("notate: {why}");
        return ExitCode::from(1);
    }
    let out = match open_output(run.output.as_ref(), &run.inputs) {
        Ok(out) => out,
        Err(code) => return code,
    };
    let mut page = None;
    let mut plain = None;
    let out: &mut dyn Write = if rendering {
        // Several inputs' games N are numbered in turn, as the page lists them.
        let first = match (run.settings.only_game, run.inputs.len()) {
            (Some(game), 1) => game,
            _ => 1,
        };
        match render::Page::new(out, &page_title(&run.inputs), first) {
            Ok(made) => page.insert(made),
            Err(e) => {
                eprintln!("notate: cannot write output: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        plain.insert(out)
    };
    let job = run.settings.job;
    let stages = || Stages {
        chess: Box::new(chess::ChessStage::new(
            chess::GameWriter::new(job, run.egd),
            &run.settings,
        )) as Box<dyn pipeline::FamilyStage<Vec<u8>>>,
        infinite: Some(Box::new(icn::InfiniteStage::new(job, &run.icn)) as _),
        shogi: Some(Box::new(shogi::ShogiStage::new(job, &run.shogi, run.pretty)) as _),
    };
    let mut reporter = Reporter::new(!quiet);
    let mut sink = ByteSink::new(out, shogi::separator(job));
    if rendering {
        sink = sink.with_failures();
    }
    let mut result = pipeline::run(&run.inputs, &run.settings, stages, &mut sink, &mut reporter);
    if let (Ok(_), Some(page)) = (&result, page)
        && let Err(e) = page.finish()
    {
        result = Err(anyhow::Error::new(e).context("cannot write output"));
    }
    exit_status(result, |ok, failed| reporter.finish(run.verb, ok, failed))
}

/// Where `notate render` writes without `-o`: one input file's name with `.html` (its
/// extensions cut: `games.pgn.zst` → `games.html`), in the current directory; `games.html` for
/// several; stdout for stdin.
fn render_path(common: &Common) -> Option<PathBuf> {
    match common.inputs.as_slice() {
        [] => None,
        [one] if one.as_os_str() == "-" => None,
        [one] => {
            let name = one.file_name()?.to_string_lossy().into_owned();
            let stem = name
                .split('.')
                .next()
                .filter(|s| !s.is_empty())
                .unwrap_or("games");
            Some(PathBuf::from(format!("{stem}.html")))
        }
        _ => Some(PathBuf::from("games.html")),
    }
}

/// The page's title: the input's file name, or how many there are.
fn page_title(inputs: &[InputName]) -> String {
    match inputs {
        [one] => one
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(|| one.display(), |n| n.to_string_lossy().into_owned()),
        many => format!("{} inputs", many.len()),
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

/// Worker threads: `--threads`, or one per core.
fn threads(common: &Common) -> usize {
    // At most MAX_THREADS, by the argument's range.
    common
        .threads
        .map_or_else(notate::format::default_threads, |n| n as usize)
}

/// Every named input must be a file; a usage error names the first that is not.
fn check_inputs(inputs: &[InputName]) -> Result<(), ExitCode> {
    // Anything that reads as a stream will do: a file, a named pipe, `<(zcat …)`.
    for path in inputs.iter().filter_map(|i| i.path.as_ref()) {
        let why = match path.metadata() {
            Err(_) => "no such file",
            Ok(m) if m.is_dir() => "a directory, not a file",
            Ok(_) => continue,
        };
        return Err(usage(&format!(
            "{why}: {} (give a file, or `-` to read stdin)",
            path.display()
        )));
    }
    Ok(())
}

/// The output: the file `-o` names, or stdout, buffered. A file that is also an input is
/// refused: creating it would empty it before a byte of it was read.
fn open_output(output: Option<&PathBuf>, inputs: &[InputName]) -> Result<Box<dyn Write>, ExitCode> {
    // (stdin as the file it was redirected from, `< games.pgn`.)
    let stdin = Path::new("/dev/stdin");
    if let Some(path) = output
        && let Some(input) = inputs
            .iter()
            .find(|i| same_file(path, i.path.as_deref().unwrap_or(stdin)))
    {
        return Err(usage(&format!(
            "-o {} is the input {}: writing it would empty it before it is read",
            path.display(),
            input.display()
        )));
    }
    Ok(match output {
        Some(path) => match File::create(path) {
            Ok(f) => Box::new(BufWriter::with_capacity(1 << 20, f)),
            Err(e) => return Err(usage(&format!("cannot create {}: {e}", path.display()))),
        },
        None => Box::new(BufWriter::with_capacity(1 << 20, io::stdout().lock())),
    })
}

/// Whether two paths name one plain file that exists (through links, or two spellings):
/// not a device (`/dev/null` in and out is no harm).
fn same_file(a: &Path, b: &Path) -> bool {
    if !fs::metadata(a).is_ok_and(|m| m.is_file()) {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A closed pipe (`notate … | head`) is not an error worth a message.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

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

/// `notate serve`: runs until killed.
fn run_serve(listen: std::net::SocketAddr, db: &str) -> ExitCode {
    let db = match notate_serve::Database::parse(db) {
        Ok(db) => db,
        Err(e) => return usage(&format!("{e:#}")),
    };
    let config = notate_serve::Config { listen, db };
    let ready = |addr| {
        println!("listening on http://{addr}");
        let _ = io::stdout().flush();
    };
    match notate_serve::run(&config, ready) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("notate: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// A usage error: message and exit status 2.
fn usage(message: &str) -> ExitCode {
    eprintln!("notate: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    keep_freed_memory();
    let cli = Cli::parse();
    match &cli.command {
        Command::Load { common, db } => run_load(common, db),
        Command::Query { db, sql, format } => run_query(db, sql, *format),
        Command::Serve { listen, db } => run_serve(*listen, db),
        command => run_pipeline(command),
    }
}

/// Tells glibc's malloc to serve blocks up to 32 MiB from its heap and to keep up to 128 MiB
/// freed there. By default it maps each block over its (adaptive) threshold afresh and unmaps
/// it when freed; the Parquet writer makes and drops a Zstandard context of about a megabyte
/// per column of every row group, and those maps and unmaps (page faults, and TLB flushes on
/// the other core) took a tenth of a Parquet load: 2.14 → 1.79 s on 100 MB of new games, peak
/// memory 105 → 114 MB, still flat. mimalloc was as fast but held 160 MB.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets two of malloc's parameters, before any thread is started.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 20);
    }
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
    if let Some(why) = common.from.and_then(|f| Job::Load.refuses(f)) {
        return usage(&why);
    }
    let inputs = inputs(common);
    if let Err(code) = check_inputs(&inputs) {
        return code;
    }
    let settings = settings(common, Job::Load, egd::WriteOptions::default());
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
