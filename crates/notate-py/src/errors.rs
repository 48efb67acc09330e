//! The exceptions: `NotateError` for everything notate refuses, `GameError` (a subclass) for
//! a game that cannot be read, with the place as the command line prints it (1-based).

use pyo3::exceptions::{PyException, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::PyString;

pyo3::create_exception!(
    notate,
    NotateError,
    PyException,
    "Everything notate refuses: a bad argument, an unreadable source, a bad game."
);
pyo3::create_exception!(
    notate,
    GameError,
    NotateError,
    "A game that cannot be read or replayed: `kind`, `message`, `line`, `column`, `offset`, \
     `game`, `ply`, `token` (each None when unknown)."
);

pyo3::create_exception!(
    notate,
    GameWarning,
    PyUserWarning,
    "What reading skipped without failing a game (a token that is no move), reported by \
     `read_pgn`, `to_arrow`, `load` and `convert`; or a bad game left out by \
     `to_arrow(..., errors=\"warn\")` or `convert(..., errors=\"warn\")`. The warning's text is the command line's message."
);

/// A usage error: a bad argument, raised before anything is read.
pub fn usage(message: impl Into<String>) -> PyErr {
    NotateError::new_err(message.into())
}

/// The text of argument `name`: a `str` that is Unicode text, else a usage error (not pyo3's
/// TypeError, nor Python's UnicodeEncodeError for a lone surrogate).
pub fn text(value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    let Ok(text) = value.cast::<PyString>() else {
        return Err(usage(format!("{name}: a str, not {}", type_name(value))));
    };
    text.to_cow().map(|t| t.into_owned()).map_err(|_| {
        usage(format!(
            "{name}: the text holds a lone surrogate (U+D800 to U+DFFF): it is not Unicode text"
        ))
    })
}

/// The path an `os.PathLike` or `bytes` argument `name` names, as `os.fsdecode` gives it (a
/// `str`; a name that is not UTF-8 keeps its bytes as surrogate escapes): what its
/// `__fspath__` raises (an `Exception`) or gives wrongly (neither `str` nor `bytes`) is a
/// usage error, with the exception as its `__cause__`.
pub fn fs_decoded<'py>(value: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = value.py();
    py.import("os")
        .and_then(|os| os.call_method1("fsdecode", (value,)))
        .map_err(|e| caused(py, e, &format!("{name}: the path could not be read")))
}

/// `error` (what Python code of the caller's raised) as the `__cause__` of a usage error that
/// says `said`; an exception that is no `Exception` (`KeyboardInterrupt`, `SystemExit`) goes
/// on up as it is.
pub fn caused(py: Python<'_>, error: PyErr, said: &str) -> PyErr {
    if !error.is_instance_of::<pyo3::exceptions::PyException>(py) {
        return error;
    }
    let usage_error = usage(format!("{said}: {error}"));
    usage_error.set_cause(py, Some(error));
    usage_error
}

/// The name of `value`'s type, for a message.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |name| name.to_string())
}

/// The fields of a `GameError`.
pub const GAME_ERROR_FIELDS: [&str; 8] = [
    "kind", "message", "line", "column", "offset", "game", "ply", "token",
];

/// A `GameError` carrying the place of `error`; `str()` of it is the command line's message.
pub fn game_error(py: Python<'_>, error: &notate::Error) -> PyErr {
    let err = GameError::new_err(error.to_string());
    let value = err.value(py);
    let place = error.line_and_column();
    let attributes: [(&str, Option<u64>); 5] = [
        ("line", place.map(|(line, _)| line)),
        ("column", place.and_then(|(_, column)| column)),
        (
            "offset",
            error.place.and_then(|p| p.offset).map(|o| o as u64),
        ),
        ("game", error.game),
        ("ply", error.ply.map(|p| p as u64)),
    ];
    let set = || -> PyResult<()> {
        value.setattr("kind", error.kind.name())?;
        value.setattr("message", &error.message)?;
        for (name, number) in attributes {
            value.setattr(name, number)?;
        }
        value.setattr("token", error.token.as_deref())?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(failed) => failed,
    }
}

/// What a bad game does, as a function's `errors` argument says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnError {
    /// Raised as a `GameError` (iterating again goes on with the next game).
    Raise,
    /// Not raised: given in the game's place (`read_pgn`) or listed (`load`).
    Collect,
    /// Reported by `warnings.warn` (category `GameWarning`) and left out.
    Warn,
}

impl OnError {
    fn name(self) -> &'static str {
        match self {
            OnError::Raise => "raise",
            OnError::Collect => "collect",
            OnError::Warn => "warn",
        }
    }

    /// The `errors` argument of a function that takes `"raise"` (the default, `None`) and
    /// `other`.
    pub fn parse(errors: Option<&Bound<'_, PyAny>>, other: OnError) -> PyResult<OnError> {
        let Some(errors) = errors.filter(|e| !e.is_none()) else {
            return Ok(OnError::Raise);
        };
        let errors = text(errors, "errors")?;
        [OnError::Raise, other]
            .into_iter()
            .find(|mode| mode.name() == errors)
            .ok_or_else(|| {
                usage(format!(
                    "errors: \"raise\" or \"{}\", not {errors:?}",
                    other.name()
                ))
            })
    }
}

/// The most warnings one reading reports (a source of nothing but tokens that are no move
/// makes one every three bytes, and Python keeps every distinct message it has shown);
/// past it, one more at the end says how many were left out.
pub const MAX_WARNINGS: u64 = 10_000;

/// The warnings of one reading (an iteration of `read_pgn` or `to_arrow`): at most
/// [`MAX_WARNINGS`] reported, then their count when it ends.
#[derive(Default)]
pub struct WarningCap {
    reported: std::sync::atomic::AtomicU64,
    left_out: std::sync::atomic::AtomicU64,
}

impl WarningCap {
    /// Reports `warning` (see [`warn`]), or counts it past the cap.
    pub fn warn(&self, py: Python<'_>, warning: &notate::Error) -> PyResult<()> {
        use std::sync::atomic::Ordering::Relaxed;
        if self.reported.fetch_add(1, Relaxed) < MAX_WARNINGS {
            warn(py, warning)
        } else {
            self.left_out.fetch_add(1, Relaxed);
            Ok(())
        }
    }

    /// Reports `warnings` in order, each taken out of the list once reported (raised counts):
    /// when a warnings filter raises, the rest stay for the caller to report at its next call.
    pub fn report(&self, py: Python<'_>, warnings: &mut Vec<notate::Error>) -> PyResult<()> {
        let mut reported = 0;
        let outcome = warnings.iter().try_for_each(|warning| {
            reported += 1;
            self.warn(py, warning)
        });
        warnings.drain(..reported);
        outcome
    }

    /// Counts `n` more warnings left out (a load keeps at most [`MAX_WARNINGS`] while it runs).
    pub fn left_out(&self, n: u64) {
        self.left_out
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// At the end of the reading: how many warnings were left out, if any, as one more.
    pub fn end(&self, py: Python<'_>) -> PyResult<()> {
        let left_out = self.left_out.swap(0, std::sync::atomic::Ordering::Relaxed);
        if left_out == 0 {
            return Ok(());
        }
        let message =
            format!("{left_out} more warnings, not listed (at most {MAX_WARNINGS} a reading are)");
        warn(
            py,
            &notate::Error::new(notate::ErrorKind::TooLarge, message),
        )
    }
}

/// Reports `error` by `warnings.warn`, category `GameWarning`, its text the command line's.
pub fn warn(py: Python<'_>, error: &notate::Error) -> PyResult<()> {
    let category = py.get_type::<GameWarning>();
    // A C string: a NUL in a token is written as `\0`.
    let message = std::ffi::CString::new(error.to_string().replace('\0', "\\0"))?;
    PyErr::warn(py, &category, &message, 1)
}
