//! `convert`: every format of the command line, for every family, through the library's
//! [`Converter`] (the one the npm package uses).

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

use notate::convert::{Converter, Format, OptionValue, Options};
use notate::Error;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

use crate::errors::{game_error, text, type_name, usage, warn, OnError};
use crate::source::{self, Input};
use crate::{receive_or_signal, run_interruptibly};

/// The bytes of input from which a conversion runs on a thread of its own, so that Ctrl-C
/// stops it (a mebibyte of PGN converts in a few milliseconds to EGD's fifty).
const INTERRUPTIBLE_FROM: usize = 1 << 20;

/// What a run gave: the games' output, each game's end in it, and what went wrong.
struct Run {
    out: Vec<u8>,
    ends: Vec<usize>,
    /// Bad games (left out of `out`) and notes on good ones, in input order.
    reports: Vec<Report>,
}

enum Report {
    Failed(Error),
    Noted(Error),
}

/// Converts the games of `input`; once `stop` is set, ends before the next game.
fn run(
    converter: &mut Converter,
    input: &[u8],
    on_error: OnError,
    stop: &AtomicBool,
) -> Result<Run, Error> {
    let separator = converter.to().map_or(&b""[..], Format::separator);
    let mut run = Run {
        out: Vec::new(),
        ends: Vec::new(),
        reports: Vec::new(),
    };
    let mut games = converter.read(input);
    let mut number = 0;
    while !stop.load(Ordering::Relaxed) {
        let Some(game) = games.next() else { break };
        number += 1;
        // What reading skipped (placed and numbered), a warning as the command line's.
        run.reports
            .extend(games.take_warnings().into_iter().map(Report::Noted));
        let mark = run.out.len();
        if !run.ends.is_empty() {
            run.out.extend_from_slice(separator);
        }
        let written = game.and_then(|game| {
            converter.write(&game, &mut run.out).map_err(|mut error| {
                games.place(&mut error);
                error
            })?;
            Ok(converter.notes(&game))
        });
        match written {
            Ok(notes) => {
                run.ends.push(run.out.len());
                let noted = notes
                    .into_iter()
                    .map(|n| Report::Noted(n.with_game(number)));
                run.reports.extend(noted);
            }
            Err(error) => {
                run.out.truncate(mark);
                let error = if error.game.is_some() {
                    error
                } else {
                    error.with_game(number)
                };
                if on_error == OnError::Raise {
                    return Err(error);
                }
                run.reports.push(Report::Failed(error));
            }
        }
    }
    Ok(run)
}

/// convert(data, to, *, from_=None, errors="raise", **options)
/// --
///
/// Converts every game of `data` (text, bytes, a binary file object or a path, as
/// `read_pgn` takes it) to the format `to`, a name of the command line's `--to`: `pgn`,
/// `uci`, `fen`, `epd`, `json`, `egd`, `tracks`, `jsonchess`, `icn`, `icn-json`, `sfen`,
/// `usi`, `kif`, `ki2`, `csa`, `western`, `jkf`. The input format is `from_`, else told by
/// the path's name, else by the first bytes (`pgn`, `json`, `egd`, `jsonchess`, `icn`,
/// `icn-json`, `sfen`, `usi`, `kif`, `ki2`, `csa`, `western`, `jkf`, `shogi-book`).
///
/// Formats of one JSON value per game (`json`, `egd`, `tracks`, `jsonchess`, `icn-json`,
/// `jkf`) give a list with a dict per game; the others give the text, as the command line
/// writes it. Options by name, as the command line's flags: `egd_extended`, `pretty`,
/// `fens`, `moves` ("pretty", "compact", "minimal"), `single_line`, `position`, `dialect`
/// ("2024", "2025"), `spaces`, `move_numbers`, `comments`, `legacy_moves`, `csa_version`
/// ("2.2", "3.0"), `western_squares` ("letter", "digit"), `mark_declined`, `encoding`.
///
/// A bad game raises `GameError`; with `errors="warn"` it is reported by `warnings.warn`
/// (category `GameWarning`) and left out. What a game says without failing (a token that is
/// no move, skipped; a shogi record's encoding that lies, a variation the output cannot
/// hold) is always a `GameWarning`.
///
/// >>> import notate
/// >>> notate.convert("1. e4 e5 2. Nf3 *", to="uci")
/// 'e2e4 e7e5 g1f3\n'
/// >>> notate.convert("1. e4 *", to="egd")[0]["moves"]["1w"]["move"]["lran"]
/// 'e2-e4'
#[pyfunction]
#[pyo3(signature = (data, to, *, from_ = None, errors = None, **options))]
pub fn convert(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    to: &Bound<'_, PyAny>,
    from_: Option<&Bound<'_, PyAny>>,
    errors: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let bad = |e: Error| usage(e.message);
    let on_error = OnError::parse(errors, OnError::Warn)?;
    let to: Format = text(to, "to")?.parse().map_err(bad)?;
    let from_ = from_
        .filter(|f| !f.is_none())
        .map(|f| text(f, "from_"))
        .transpose()?;
    let mut settings = Options::default();
    for (name, value) in options.into_iter().flatten() {
        let name = text(&name, "an option's name")?;
        let value = if let Ok(flag) = value.cast::<PyBool>() {
            OptionValue::Bool(flag.is_true())
        } else if value.is_instance_of::<PyString>() {
            OptionValue::Text(text(&value, &name)?)
        } else if value.is_instance(&py.import("numbers")?.getattr("Number")?)? {
            // A number such as csa_version=2.2, as its text; a whole number for a version
            // (csa_version=3) as the version's name ("3.0").
            let number = value.str()?.to_cow()?.into_owned();
            if name.ends_with("_version") && !number.contains('.') {
                OptionValue::Text(format!("{number}.0"))
            } else {
                OptionValue::Text(number)
            }
        } else {
            return Err(usage(format!(
                "{name}: a str, a bool or a number, not {}",
                type_name(&value)
            )));
        };
        settings.set(&name, value).map_err(bad)?;
    }
    let source::Opened {
        input,
        path,
        length,
        raised,
        ..
    } = source::open_named(data)?;
    let from = from_
        .as_deref()
        .map(str::parse::<Format>)
        .transpose()
        .map_err(bad)?;
    // Checked before the input is read.
    if let Some(from) = from {
        Converter::new(from, Some(to), &settings).map_err(bad)?;
    }
    // A source of known length (text, bytes, a file) is read at once; any other may go
    // silent (a pipe, a socket), and Ctrl-C must not wait for it.
    let bytes = match length {
        Some(_) => py.detach(|| read_to_end(input)),
        None => read_all(py, input)?,
    }
    .map_err(|e| raised.error(py, usage(format!("cannot read the input: {e}"))))?;
    let stop = AtomicBool::new(false);
    let convert = || -> Result<_, String> {
        let from = match from.or_else(|| path.as_deref().and_then(Format::from_path)) {
            Some(from) => from,
            None => Format::detect(&bytes).map_err(|e| {
                format!("cannot tell the input's format ({}): say from_=", e.message)
            })?,
        };
        let mut converter = Converter::new(from, Some(to), &settings).map_err(|e| e.message)?;
        Ok(run(&mut converter, &bytes, on_error, &stop))
    };
    // A large input is converted on a thread of its own while this one looks for signals:
    // Ctrl-C stops it before the next game and raises KeyboardInterrupt. A small one takes
    // less time than that thread would cost a caller converting game after game.
    let outcome = if bytes.len() < INTERRUPTIBLE_FROM {
        py.detach(convert)
    } else {
        match run_interruptibly(py, &stop, convert) {
            (_, Some(signal)) => return Err(signal),
            (outcome, None) => outcome,
        }
    };
    let run = match outcome {
        Ok(Ok(run)) => run,
        Ok(Err(error)) => return Err(game_error(py, &error)),
        Err(message) => return Err(usage(message)),
    };
    for report in &run.reports {
        let (Report::Failed(e) | Report::Noted(e)) = report;
        warn(py, e)?;
    }
    if !to.is_json() {
        // Every writer writes UTF-8.
        let text = String::from_utf8_lossy(&run.out);
        return Ok(PyString::new(py, &text).into_any().unbind());
    }
    // One JSON array of the games' values, parsed at once.
    let mut array = Vec::with_capacity(run.out.len() + run.ends.len() + 2);
    array.push(b'[');
    let mut start = 0;
    for (i, &end) in run.ends.iter().enumerate() {
        if i > 0 {
            array.push(b',');
        }
        array.extend_from_slice(&run.out[start..end]);
        start = end;
    }
    array.push(b']');
    let json = py.import("json")?;
    let text = String::from_utf8_lossy(&array);
    Ok(json.call_method1("loads", (text,))?.unbind())
}

/// The whole of `input`, read on a thread of its own while this one looks for signals: a
/// read from a source gone silent (a pipe, a socket) cannot be given up, and Ctrl-C must not
/// wait for it. Interrupted, the thread reads no more once the read under way returns (it
/// would take input the caller may read next, and hold it).
fn read_all(py: Python<'_>, input: Input) -> PyResult<std::io::Result<Vec<u8>>> {
    let given_up = Arc::new(AtomicBool::new(false));
    let input: Input = Box::new(UntilGivenUp {
        input,
        given_up: given_up.clone(),
    });
    let (done, read) = channel();
    std::thread::spawn(move || {
        let _ = done.send(read_to_end(input));
    });
    receive_or_signal(py, &Mutex::new(read))
        .inspect_err(|_| given_up.store(true, Ordering::Relaxed))
}

fn read_to_end(mut input: Input) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map(|_| bytes)
}

/// A source read until the reader gives it up: then it says so instead of reading.
struct UntilGivenUp {
    input: Input,
    given_up: Arc<AtomicBool>,
}

impl Read for UntilGivenUp {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.given_up.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("the conversion was interrupted"));
        }
        self.input.read(buf)
    }
}
