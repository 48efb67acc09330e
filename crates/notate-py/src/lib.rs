//! notate for Python: the extension module `notate._notate` under the wheel `notate`
//! (`crates/notate-py/python/notate`).
//!
//! A thin layer over the library: games are read by `notate::format::Reader` (the reader of
//! the command line and the npm package), with the GIL released while a game is read and
//! replayed; moves give their SAN, UCI and FEN when asked.
//!
//! | module | what it holds |
//! |---|---|
//! | [`source`] | what `read_pgn` reads: text, bytes, a binary file object, a path (`.zst`, `.gz`, `.bz2`) |
//! | [`games`] | `read_pgn` and its iterator; `Game` and `Move` |
//! | [`tables`] | `to_arrow` (record batches through the Arrow C data interface) and `load` |
//! | [`convert`] | `convert`: every format of every family, through the library's `Converter` |
//! | [`errors`] | `NotateError` and `GameError`, with the place of the failure |

pub mod convert;
pub mod errors;
pub mod games;
pub mod source;
pub mod tables;

use pyo3::prelude::*;

use crate::errors::usage;

/// How long a wait for the reading threads (or a load's) goes before Python's signals are
/// looked at: Ctrl-C is noticed within this, even while a source is silent.
pub(crate) const SIGNALS_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// The number of worker threads asked for (default: every core): a whole number from 1 to
/// [`MAX_THREADS`](notate::format::MAX_THREADS), else a usage error (not Python's
/// OverflowError or TypeError).
pub(crate) fn threads(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let Some(threads) = threads.filter(|t| !t.is_none()) else {
        return Ok(notate::format::default_threads());
    };
    let max = notate::format::MAX_THREADS;
    // `True` is the int 1 to Python, but no number of threads.
    let number = !threads.is_instance_of::<pyo3::types::PyBool>();
    Some(threads)
        .filter(|_| number)
        .and_then(|t| t.extract::<i64>().ok())
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| {
            usage(format!(
                "threads: a whole number from 1 to {max}, not {threads}"
            ))
        })
}

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The module `notate._notate`; `notate/__init__.py` re-exports it.
#[pymodule]
fn _notate(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Game structures are freed by Python's thread in bursts, then needed again by the
    // reading threads: mimalloc's default 10 ms before it hands freed pages back to the OS
    // made the kernel zero fresh pages for a fifth of the reading time. A second keeps them
    // (memory still goes back once a run is over). `mi_option_purge_delay` is option 15 of
    // mimalloc's `mi_option_t` (v2 and v3 alike); libmimalloc-sys names no constant for it.
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    // SAFETY: setting an option is allowed at any time, from any thread.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 1000) };
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NotateError", m.py().get_type::<errors::NotateError>())?;
    m.add("GameError", m.py().get_type::<errors::GameError>())?;
    // Every field of a GameError is None on one made by hand (`GameError("x")`), instead of
    // an AttributeError: notate sets them on the ones it raises.
    let game_error = m.py().get_type::<errors::GameError>();
    for field in errors::GAME_ERROR_FIELDS {
        game_error.setattr(field, m.py().None())?;
    }
    m.add("GameWarning", m.py().get_type::<errors::GameWarning>())?;
    m.add_class::<games::Game>()?;
    m.add_class::<games::Move>()?;
    m.add_class::<games::Games>()?;
    m.add_function(wrap_pyfunction!(games::read_pgn, m)?)?;
    m.add_class::<tables::ArrowBatches>()?;
    m.add_function(wrap_pyfunction!(tables::_arrow_batches, m)?)?;
    m.add_function(wrap_pyfunction!(tables::load, m)?)?;
    m.add_function(wrap_pyfunction!(convert::convert, m)?)?;
    Ok(())
}

/// Runs `work` on a thread of its own while this one looks at Python's signals every
/// [`SIGNALS_EVERY`]: the first signal whose handler raises (Ctrl-C's `KeyboardInterrupt`)
/// sets `stop`, which `work` watches, and comes back with what `work` returned once it has
/// ended. Handlers go on running while it ends; a second Ctrl-C does not cut it short.
/// A panic in `work` goes on here, with its message.
pub(crate) fn run_interruptibly<T: Send>(
    py: Python<'_>,
    stop: &std::sync::atomic::AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> (T, Option<PyErr>) {
    use std::sync::atomic::Ordering;
    let (ran, interrupted) = std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel();
        let finished = std::sync::Mutex::new(finished);
        scope.spawn(move || {
            let _ = done.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
        });
        let mut interrupted: Option<PyErr> = None;
        loop {
            match receive_or_signal(py, &finished) {
                Ok(ran) => return (ran, interrupted),
                Err(signal) => {
                    stop.store(true, Ordering::Relaxed);
                    interrupted.get_or_insert(signal);
                }
            }
        }
    });
    match ran {
        Ok(value) => (value, interrupted),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// What `receiver` gets, waited for without the GIL and [`SIGNALS_EVERY`] at a time, or the
/// first signal whose handler raises meanwhile (Ctrl-C's `KeyboardInterrupt`). The receiver
/// is in a mutex only to be waited on without the GIL (a receiver is not `Sync`); its sender
/// must send before it is dropped.
pub(crate) fn receive_or_signal<T: Send>(
    py: Python<'_>,
    receiver: &std::sync::Mutex<std::sync::mpsc::Receiver<T>>,
) -> PyResult<T> {
    use std::sync::mpsc::RecvTimeoutError;
    loop {
        let received = py.detach(|| {
            let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
            receiver.recv_timeout(SIGNALS_EVERY)
        });
        match received {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                unreachable!("the sender sends before it is dropped, panic or not")
            }
        }
    }
}
