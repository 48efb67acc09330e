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
//! | [`errors`] | `NotateError` and `GameError`, with the place of the failure |

pub mod errors;
pub mod games;
pub mod source;

use pyo3::prelude::*;

/// The module `notate._notate`; `notate/__init__.py` re-exports it.
#[pymodule]
fn _notate(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NotateError", m.py().get_type::<errors::NotateError>())?;
    m.add("GameError", m.py().get_type::<errors::GameError>())?;
    m.add_class::<games::Game>()?;
    m.add_class::<games::Move>()?;
    m.add_class::<games::Games>()?;
    m.add_function(wrap_pyfunction!(games::read_pgn, m)?)?;
    Ok(())
}
