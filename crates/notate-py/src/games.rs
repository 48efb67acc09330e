//! `read_pgn` and the objects it gives: `Game` (tags, moves, result, comments) and `Move`
//! (SAN, UCI and FEN computed when asked; comments, NAGs, clock, eval, variations).

use std::sync::{Arc, Mutex, OnceLock};

use notate::chess::pgn::Pgn;
use notate::chess::{ChessGame, Comment, Eval, Played, Ply};
use notate::format::ParallelReader;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode};

use crate::errors::{game_error, OnError};
use crate::source::{self, Input};

/// The games of a PGN source, one at a time (see `read_pgn`).
#[pyclass(module = "notate")]
pub struct Games {
    reader: Mutex<ParallelReader<Pgn>>,
    on_error: OnError,
}

/// read_pgn(source, *, errors="raise", threads=None)
/// --
///
/// The games of a PGN source, in order: text, bytes, a binary file object or a path (`.pgn`,
/// `.pgn.zst`, `.gz`, `.bz2`). Games are read and replayed ahead on `threads` threads
/// (default: every core) without the GIL, a few chunks of the source at a time.
///
/// A bad game raises `GameError` (with `line`, `column`, `game`, `ply`, `token`); iterating
/// again goes on with the next game. With `errors="collect"` the `GameError` is given in the
/// game's place instead of raised.
///
/// >>> import notate
/// >>> [m.san for m in next(notate.read_pgn("1. e4 e5 2. Nf3 *")).moves]
/// ['e4', 'e5', 'Nf3']
#[pyfunction]
#[pyo3(signature = (source, *, errors = "raise", threads = None))]
pub fn read_pgn(
    source: &Bound<'_, PyAny>,
    errors: &str,
    threads: Option<usize>,
) -> PyResult<Games> {
    let on_error = OnError::parse(errors, OnError::Collect)?;
    let threads = crate::threads(threads)?;
    let input: Input = source::open(source)?;
    Ok(Games {
        reader: Mutex::new(ParallelReader::new(input, threads)),
        on_error,
    })
}

#[pymethods]
impl Games {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        // Waiting for the next game needs no Python object: other threads run meanwhile.
        let next = py.detach(|| match self.reader.lock() {
            Ok(mut reader) => reader.next(),
            Err(poisoned) => poisoned.into_inner().next(),
        });
        match next {
            None => Ok(None),
            Some(Ok(game)) => Ok(Some(Py::new(py, Game::new(game))?.into_any())),
            Some(Err(error)) => {
                let err = game_error(py, &error);
                if self.on_error == OnError::Raise {
                    return Err(err);
                }
                Ok(Some(err.into_value(py).into_any()))
            }
        }
    }
}

/// A game read and replayed: `tags` (a dict in file order), `moves` (the main line),
/// `result`, `start` (the FEN it starts from), `comments` and `final_comments`.
#[pyclass(frozen, module = "notate")]
pub struct Game {
    game: Arc<ChessGame>,
    moves: OnceLock<Py<PyList>>,
}

impl Game {
    fn new(game: ChessGame) -> Game {
        Game {
            game: Arc::new(game),
            moves: OnceLock::new(),
        }
    }
}

#[pymethods]
impl Game {
    /// The tags, in file order.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tags = PyDict::new(py);
        for (name, value) in self.game.tags.iter() {
            tags.set_item(name, value)?;
        }
        Ok(tags)
    }

    /// The moves of the main line (a list, built on first use).
    #[getter]
    fn moves(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        if let Some(moves) = self.moves.get() {
            return Ok(moves.clone_ref(py));
        }
        let list = line_list(py, &self.game, Arc::from([]), &self.game.start.position)?;
        Ok(self.moves.get_or_init(|| list).clone_ref(py))
    }

    /// The UCI of every move of the main line, built at once (no `Move` objects).
    #[getter]
    fn uci_moves(&self) -> Vec<String> {
        let mode = self.game.start.castling;
        self.game
            .moves
            .plies
            .iter()
            .map(|ply| match ply.mv.mv {
                Some(m) => m.to_uci(mode).to_string(),
                None => "0000".to_string(),
            })
            .collect()
    }

    /// The canonical SAN of every move of the main line, built at once.
    #[getter]
    fn san_moves(&self) -> Vec<String> {
        let mut pos = self.game.start.position.clone();
        self.game
            .moves
            .plies
            .iter()
            .map(|ply| match ply.mv.mv {
                Some(m) => notate::chess::san::san_plus_and_play(&mut pos, m).to_string(),
                None => {
                    notate::chess::game::play(&mut pos, None);
                    "--".to_string()
                }
            })
            .collect()
    }

    /// The FEN after every move of the main line, built at once.
    #[getter]
    fn fens(&self) -> Vec<String> {
        let mut pos = self.game.start.position.clone();
        self.game
            .moves
            .plies
            .iter()
            .map(|ply| {
                notate::chess::game::play(&mut pos, ply.mv.mv);
                fen(&pos)
            })
            .collect()
    }

    /// The result of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), else the `Result` tag's.
    #[getter]
    fn result(&self) -> Option<String> {
        match self.game.result {
            Some(result) => Some(result.as_str().to_string()),
            None => self.game.tags.get("Result").map(str::to_string),
        }
    }

    /// The FEN of the position the game starts from.
    #[getter]
    fn start(&self) -> String {
        fen(&self.game.start.position)
    }

    /// The comments before the first move, as written.
    #[getter]
    fn comments(&self) -> Vec<String> {
        texts(&self.game.moves.comments)
    }

    /// The comments after the result, as written.
    #[getter]
    fn final_comments(&self) -> Vec<String> {
        texts(&self.game.final_comments)
    }

    fn __repr__(&self) -> String {
        let tag = |name| self.game.tags.get(name).unwrap_or("?");
        format!(
            "<notate.Game {} - {} {}, {} plies>",
            tag("White"),
            tag("Black"),
            self.result().unwrap_or_else(|| "*".into()),
            self.game.moves.plies.len()
        )
    }
}

/// One move of a line: `san` (canonical, with `+`/`#`), `written` (as the file spelled it),
/// `uci`, `fen` (the position after it), `ply` (1-based in its line), `comments`, `nags`,
/// `clock` and `emt` (seconds), `eval` (pawns) or `mate` (moves), `variations`.
#[pyclass(frozen, module = "notate")]
pub struct Move {
    /// The game the move is in, shared by all its moves (nothing of the ply is copied).
    game: Arc<ChessGame>,
    /// Where the move's line is: from the main line, (ply, variation) steps; shared by the
    /// moves of one line.
    line: Arc<[(usize, usize)]>,
    /// The move's index in its line.
    index: usize,
    before: Chess,
}

impl Move {
    fn ply_in_game(&self) -> &Ply<Played> {
        let mut line = &self.game.moves;
        for &(ply, variation) in self.line.iter() {
            line = &line.plies[ply].variations[variation];
        }
        &line.plies[self.index]
    }

    fn played(&self) -> Played {
        self.ply_in_game().mv
    }

    fn after(&self) -> Chess {
        let mut pos = self.before.clone();
        notate::chess::game::play(&mut pos, self.played().mv);
        pos
    }

    /// The last comment's value of a command (`[%clk]`, `[%eval]` …), as a reader means it.
    fn last<T>(&self, get: impl Fn(&Comment) -> Option<T>) -> Option<T> {
        self.ply_in_game().comments.iter().rev().find_map(get)
    }
}

#[pymethods]
impl Move {
    /// Canonical SAN with its check or mate mark (`--` for a null move).
    #[getter]
    fn san(&self) -> String {
        match self.played().mv {
            Some(m) => {
                notate::chess::san::san_plus_and_play(&mut self.before.clone(), m).to_string()
            }
            None => "--".to_string(),
        }
    }

    /// The move as the file wrote it (`e2-e4`, `0-0`, `Nf3!?` without the glyph).
    #[getter]
    fn written(&self) -> String {
        self.played().san.to_string()
    }

    /// UCI (`e2e4`, `e7e8q`; castling as the king's move, or king takes rook in Chess960;
    /// `0000` for a null move).
    #[getter]
    fn uci(&self) -> String {
        match self.played().mv {
            Some(m) => m.to_uci(self.game.start.castling).to_string(),
            None => "0000".to_string(),
        }
    }

    /// The FEN of the position after the move (en passant square only when a capture is legal).
    #[getter]
    fn fen(&self) -> String {
        fen(&self.after())
    }

    /// The FEN of the position before the move.
    #[getter]
    fn fen_before(&self) -> String {
        fen(&self.before)
    }

    /// 1-based ply of the move in its line.
    #[getter]
    fn ply(&self) -> usize {
        self.index + 1
    }

    /// Numeric annotation glyphs (`$1` or `!` is 1 …).
    #[getter]
    fn nags(&self) -> Vec<u32> {
        // As numbers: a `Vec<u8>` would reach Python as `bytes`.
        self.ply_in_game()
            .nags
            .iter()
            .map(|&n| u32::from(n))
            .collect()
    }

    /// The comments after the move, as written.
    #[getter]
    fn comments(&self) -> Vec<String> {
        texts(&self.ply_in_game().comments)
    }

    /// `[%clk]`: the mover's remaining time in seconds.
    #[getter]
    fn clock(&self) -> Option<f64> {
        self.last(|c| c.clock).map(|ms| ms as f64 / 1000.0)
    }

    /// `[%emt]`: the time the move took, in seconds.
    #[getter]
    fn emt(&self) -> Option<f64> {
        self.last(|c| c.emt).map(|ms| ms as f64 / 1000.0)
    }

    /// `[%eval 0.17]`: the evaluation in pawns from White's side (None for a mate score).
    #[getter]
    fn eval(&self) -> Option<f64> {
        match self.last(|c| c.eval) {
            Some(Eval::Pawns(p)) => Some(p),
            _ => None,
        }
    }

    /// `[%eval #-3]`: mate in so many moves, negative when Black mates.
    #[getter]
    fn mate(&self) -> Option<i32> {
        match self.last(|c| c.eval) {
            Some(Eval::Mate(n)) => Some(n),
            _ => None,
        }
    }

    /// The alternatives to this move, each a list of moves from the position before it.
    #[getter]
    fn variations(&self, py: Python<'_>) -> PyResult<Vec<Py<PyList>>> {
        (0..self.ply_in_game().variations.len())
            .map(|variation| {
                let mut line = self.line.to_vec();
                line.push((self.index, variation));
                line_list(py, &self.game, line.into(), &self.before)
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("<notate.Move {} {}>", self.index + 1, self.san())
    }

    fn __str__(&self) -> String {
        self.san()
    }
}

/// The moves of the line of `game` at `line` (see [`Move::line`]) from `start`, as a list.
fn line_list(
    py: Python<'_>,
    game: &Arc<ChessGame>,
    line: Arc<[(usize, usize)]>,
    start: &Chess,
) -> PyResult<Py<PyList>> {
    let mut plies = &game.moves;
    for &(ply, variation) in line.iter() {
        plies = &plies.plies[ply].variations[variation];
    }
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(plies.plies.len());
    for (index, ply) in plies.plies.iter().enumerate() {
        let before = pos.clone();
        notate::chess::game::play(&mut pos, ply.mv.mv);
        let (game, line) = (game.clone(), line.clone());
        moves.push(Py::new(
            py,
            Move {
                game,
                line,
                index,
                before,
            },
        )?);
    }
    Ok(PyList::new(py, moves)?.unbind())
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn texts(comments: &[Comment]) -> Vec<String> {
    comments.iter().map(|c| c.text.clone()).collect()
}
