//! `read_pgn` and the objects it gives: `Game` (tags, moves, result, comments) and `Move`
//! (SAN, UCI and FEN computed when asked; comments, NAGs, clock, eval, variations).
//!
//! Games are read and replayed on the reading threads without their comments' text, and
//! keep the bytes they were read from: the first question about a game's comments (or
//! clocks, evaluations) reads those bytes again, whole. Building a `String` and a vector
//! for the `{ [%clk …] }` of every lichess move took as long as reading and replaying the
//! move; a program that never asks for comments no longer pays for them.

use std::sync::{Arc, Mutex, OnceLock};

use notate::chess::pgn::{self, replay_chunk_with_warnings, GameParser, Keep, ReadOptions};
use notate::chess::{replay, ChessGame, Comment, Eval, Played, Ply};
use notate::chunk::{Chunk, Paced, Split};
use notate::format::{ChunkMap, NumberedGames, StillWaiting};
use notate::Error;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode};

use crate::errors::{game_error, usage, OnError, WarningCap};
use crate::source;
use crate::SIGNALS_EVERY;

/// The games of a PGN source, one at a time (see `read_pgn`).
#[pyclass(module = "notate")]
pub struct Games {
    /// The games, and how many were given (bad ones included): the number of the next is
    /// one more.
    reader: Mutex<(NumberedGames<GameRead>, u64)>,
    on_error: OnError,
    /// What the source's `read()` raised, for the error that ends the games.
    raised: source::Raised,
    /// A game whose warning a warnings filter made an exception: given at the next call,
    /// after its other warnings.
    pending: Mutex<Option<GameRead>>,
    /// The warnings reported so far.
    cap: WarningCap,
}

/// A game read (or why it could not be), with what reading it skipped without failing it.
pub struct GameRead {
    game: Result<GameData, Error>,
    warnings: Vec<Error>,
}

/// How the workers read: the caller's limits, and no comment kept (see the module's doc).
fn moves_only(options: ReadOptions) -> ReadOptions {
    ReadOptions {
        keep: Keep::Moves,
        ..options
    }
}

/// The games of a chunk, each with the bytes it was read from and its warnings. Every item
/// is `Ok`: a bad game's error is inside, numbered when it is given (see `Games::__next__`).
fn read_games(chunk: &Chunk, options: ReadOptions) -> Vec<Result<GameRead, Error>> {
    replay_chunk_with_warnings(chunk, moves_only(options))
        .map(|(game, range, warnings)| {
            let game = game.map(|game| {
                // With the byte before the game: whether the game's first byte starts a
                // line decides how it reads (a `%` escapes only a whole line).
                let from = range.start.saturating_sub(1);
                GameData {
                    game,
                    text: chunk.bytes[from..range.end].into(),
                    start: range.start - from,
                    options,
                    full: OnceLock::new(),
                }
            });
            Ok(GameRead { game, warnings })
        })
        .collect()
}

/// A game read without its comments, and what it takes to read it with them.
pub struct GameData {
    game: ChessGame,
    /// The bytes the game was read from, from `start`, after the byte before them.
    text: Box<[u8]>,
    start: usize,
    options: ReadOptions,
    /// The game read again from `text`, comments included, when first asked for.
    full: OnceLock<Result<ChessGame, String>>,
}

impl GameData {
    /// The game with its comments: `text` read again as it was read the first time.
    fn full(&self) -> PyResult<&ChessGame> {
        let full = self.full.get_or_init(|| {
            let mut parser = GameParser::new(&self.text, self.start..self.text.len(), self.options);
            match parser.next_game() {
                Some(Ok(written)) => replay(written).map_err(|failed| failed.error.to_string()),
                Some(Err(failed)) => Err(failed.error.to_string()),
                None => Err("no game in its text".into()),
            }
        });
        full.as_ref().map_err(|e| {
            PyRuntimeError::new_err(format!(
                "reading a game's comments again failed (a bug in notate): {e}"
            ))
        })
    }
}

/// read_pgn(source, *, errors="raise", threads=None, live=False)
/// --
///
/// The games of a PGN source, in order: text, bytes, a binary file object or a path (`.pgn`,
/// `.pgn.zst`, `.gz`, `.bz2`). Games are read and replayed ahead on `threads` threads
/// (1 to 256; default: every core) without the GIL, a few chunks of the source at a time; a game's
/// comments (and clocks, evaluations) are read from its text the first time they are asked.
///
/// A bad game raises `GameError` (with `line`, `column`, `game`, `ply`, `token`); iterating
/// again goes on with the next game. With `errors="collect"` the `GameError` is given in the
/// game's place instead of raised. What reading skipped without failing a game (a token that
/// is no move) is reported by `warnings.warn` (category `GameWarning`, placed) as the game
/// is given.
///
/// A file object is read with `read1` when it has one, on a thread of its own: a pipe's or
/// a socket's games are given at each pause (a tenth of a second without bytes) once the next game has
/// begun, not when more bytes or the end come. With `live=True` (a broadcast that sends each
/// game as it is played) a game is given at a pause once its result and a line break came; a
/// note after the result, sent on a later line after the pause, then goes with the next game.
///
/// >>> import notate
/// >>> [m.san for m in next(notate.read_pgn("1. e4 e5 2. Nf3 *")).moves]
/// ['e4', 'e5', 'Nf3']
#[pyfunction]
#[pyo3(signature = (source, *, errors = None, threads = None, live = None))]
pub fn read_pgn(
    source: &Bound<'_, PyAny>,
    errors: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    live: Option<&Bound<'_, PyAny>>,
) -> PyResult<Games> {
    let on_error = OnError::parse(errors, OnError::Collect)?;
    let threads = crate::threads(threads)?;
    let live = match live {
        None => false,
        Some(live) => match live.cast::<pyo3::types::PyBool>() {
            Ok(live) => live.is_true(),
            Err(_) => {
                let kind = live.get_type().name()?;
                return Err(usage(format!("live is True or False, not {kind}")));
            }
        },
    };
    let opened = source::open_named(source)?;
    let options = ReadOptions::default();
    // A file object (a pipe, a socket) is read on a thread of its own, so that its games go
    // out at its pauses (see `notate::chunk::Paced`).
    let input: source::Input = if opened.stream {
        let paced = Paced::spawn(opened.input)
            .map_err(|e| usage(format!("cannot start a thread to read the source: {e}")))?;
        Box::new(paced)
    } else {
        opened.input
    };
    let mut splitter = pgn::splitter(input, moves_only(options));
    if let Some(length) = opened.length {
        splitter = splitter.input_bytes(length);
    }
    if live {
        splitter.cut_at_pauses();
    }
    let chunks = ChunkMap::of_chunks(splitter, threads, || {
        move |chunk: &Chunk| read_games(chunk, options)
    });
    Ok(Games {
        reader: Mutex::new((chunks.numbered(), 0)),
        on_error,
        raised: opened.raised,
        pending: Mutex::new(None),
        cap: WarningCap::default(),
    })
}

#[pymethods]
impl Games {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let GameRead { game, mut warnings } = match pending {
            Some(read) => read,
            None => match self.wait(py)? {
                None => {
                    self.cap.end(py)?;
                    return Ok(None);
                }
                Some(Ok((mut read, number))) => {
                    read.game = read.game.map_err(|error| error.with_game(number));
                    for warning in &mut read.warnings {
                        warning.game.get_or_insert(number);
                    }
                    read
                }
                // The source failed (an I/O error): no game of its own. What its `read()`
                // raised is the cause, or is raised itself (SystemExit).
                Some(Err(error)) => {
                    let err = self.raised.error(py, game_error(py, &error));
                    if !err.is_instance_of::<crate::errors::GameError>(py) {
                        return Err(err);
                    }
                    return self.failed(py, err);
                }
            },
        };
        // What reading skipped, before the game. A warnings filter that raises stops here;
        // the next call goes on with the game's other warnings, then the game.
        if let Err(raised) = self.cap.report(py, &mut warnings) {
            let rest = GameRead { game, warnings };
            *self.pending.lock().unwrap_or_else(|e| e.into_inner()) = Some(rest);
            return Err(raised);
        }
        match game {
            Ok(game) => Ok(Some(Py::new(py, Game::new(game))?.into_any())),
            Err(error) => self.failed(py, game_error(py, &error)),
        }
    }
}

impl Games {
    /// The next item of the reader, a game with its number. Waiting needs no Python object:
    /// other threads run meanwhile. The wait is given up now and then to look for signals,
    /// so that Ctrl-C stops a read from a source that has gone silent (a pipe, a socket) at
    /// once.
    fn wait(&self, py: Python<'_>) -> PyResult<Option<Result<(GameRead, u64), Error>>> {
        loop {
            let waited = py.detach(|| {
                let mut reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
                let (games, given) = &mut *reader;
                // Numbered under the lock: threads sharing the iterator keep the order.
                let next = games.next_within(SIGNALS_EVERY)?;
                Ok(next.map(|item| {
                    item.map(|read| {
                        *given += 1;
                        (read, *given)
                    })
                }))
            });
            match waited {
                Ok(next) => return Ok(next),
                Err(StillWaiting) => py.check_signals()?,
            }
        }
    }

    /// A bad game's error, raised or given in its place as `errors` says.
    fn failed(&self, py: Python<'_>, err: PyErr) -> PyResult<Option<Py<PyAny>>> {
        if self.on_error == OnError::Raise {
            return Err(err);
        }
        Ok(Some(err.into_value(py).into_any()))
    }
}

/// A game read and replayed: `tags` (a dict in file order), `moves` (the main line),
/// `result`, `start` (the FEN it starts from), `comments` and `final_comments`.
#[pyclass(frozen, module = "notate")]
pub struct Game {
    data: Arc<GameData>,
    moves: OnceLock<Py<PyList>>,
}

impl Game {
    fn new(data: GameData) -> Game {
        Game {
            data: Arc::new(data),
            moves: OnceLock::new(),
        }
    }

    fn game(&self) -> &ChessGame {
        &self.data.game
    }
}

#[pymethods]
impl Game {
    /// The tags, in file order.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tags = PyDict::new(py);
        for (name, value) in self.game().tags.iter() {
            tags.set_item(name, value)?;
        }
        Ok(tags)
    }

    /// The moves of the main line: a new list each time (what a caller does to it is its
    /// own), of `Move` objects made on first use and shared by every list.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let made = match self.moves.get() {
            Some(moves) => moves,
            None => {
                let list = line_list(py, &self.data, Arc::from([]), &self.game().start.position)?;
                self.moves.get_or_init(|| list)
            }
        };
        PyList::new(py, made.bind(py).iter())
    }

    /// The UCI of every move of the main line, built at once (no `Move` objects).
    #[getter]
    fn uci_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mode = self.game().start.castling;
        let moves = self
            .game()
            .moves
            .plies
            .iter()
            .map(|ply| uci_str(py, ply.mv.mv, mode));
        PyList::new(py, moves)
    }

    /// The canonical SAN of every move of the main line, built at once.
    #[getter]
    fn san_moves(&self) -> Vec<String> {
        let mut pos = self.game().start.position.clone();
        self.game()
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
        let mut pos = self.game().start.position.clone();
        self.game()
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
        match self.game().result {
            Some(result) => Some(result.as_str().to_string()),
            None => self.game().tags.get("Result").map(str::to_string),
        }
    }

    /// The FEN of the position the game starts from.
    #[getter]
    fn start(&self) -> String {
        fen(&self.game().start.position)
    }

    /// The comments before the first move, as written.
    #[getter]
    fn comments(&self) -> PyResult<Vec<String>> {
        Ok(texts(&self.data.full()?.moves.comments))
    }

    /// The comments after the result, as written.
    #[getter]
    fn final_comments(&self) -> PyResult<Vec<String>> {
        Ok(texts(&self.data.full()?.final_comments))
    }

    fn __repr__(&self) -> String {
        let tag = |name| self.game().tags.get(name).unwrap_or("?");
        format!(
            "<notate.Game {} - {} {}, {} plies>",
            tag("White"),
            tag("Black"),
            self.result().unwrap_or_else(|| "*".into()),
            self.game().moves.plies.len()
        )
    }
}

/// One move of a line: `san` (canonical, with `+`/`#`), `written` (as the file spelled it),
/// `uci`, `fen` (the position after it), `ply` (1-based in its line), `comments`, `nags`,
/// `clock` and `emt` (seconds), `eval` (pawns) or `mate` (moves), `variations`.
#[pyclass(frozen, module = "notate")]
pub struct Move {
    /// The game the move is in, shared by all its moves (nothing of the ply is copied).
    data: Arc<GameData>,
    /// Where the move's line is: from the main line, (ply, variation) steps; shared by the
    /// moves of one line.
    line: Arc<[(usize, usize)]>,
    /// The move's index in its line.
    index: usize,
    before: Chess,
}

impl Move {
    /// The move's ply in `game` (the game read without comments, or with them), if the game
    /// has it.
    fn ply_in<'g>(&self, game: &'g ChessGame) -> Option<&'g Ply<Played>> {
        let mut line = &game.moves;
        for &(ply, variation) in self.line.iter() {
            line = line.plies.get(ply)?.variations.get(variation)?;
        }
        line.plies.get(self.index)
    }

    fn ply_in_game(&self) -> &Ply<Played> {
        self.ply_in(&self.data.game)
            .expect("a move is made from its game's plies")
    }

    fn played(&self) -> Played {
        self.ply_in_game().mv
    }

    fn after(&self) -> Chess {
        let mut pos = self.before.clone();
        notate::chess::game::play(&mut pos, self.played().mv);
        pos
    }

    /// The comments after the move (the game read again with them, the first time).
    fn comments_after(&self) -> PyResult<&[Comment]> {
        match self.ply_in(self.data.full()?) {
            Some(ply) => Ok(&ply.comments),
            None => Err(PyRuntimeError::new_err(
                "a game read again for its comments has other moves (a bug in notate)",
            )),
        }
    }

    /// The last comment's value of a command (`[%clk]`, `[%eval]` …), as a reader means it.
    fn last<T>(&self, get: impl Fn(&Comment) -> Option<T>) -> PyResult<Option<T>> {
        Ok(self.comments_after()?.iter().rev().find_map(get))
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
    fn uci<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        uci_str(py, self.played().mv, self.data.game.start.castling)
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
    fn comments(&self) -> PyResult<Vec<String>> {
        Ok(texts(self.comments_after()?))
    }

    /// `[%clk]`: the mover's remaining time in seconds.
    #[getter]
    fn clock(&self) -> PyResult<Option<f64>> {
        Ok(self.last(|c| c.clock)?.map(|ms| ms as f64 / 1000.0))
    }

    /// `[%emt]`: the time the move took, in seconds.
    #[getter]
    fn emt(&self) -> PyResult<Option<f64>> {
        Ok(self.last(|c| c.emt)?.map(|ms| ms as f64 / 1000.0))
    }

    /// `[%eval 0.17]`: the evaluation in pawns from White's side (None for a mate score).
    #[getter]
    fn eval(&self) -> PyResult<Option<f64>> {
        Ok(match self.last(|c| c.eval)? {
            Some(Eval::Pawns(p)) => Some(p),
            _ => None,
        })
    }

    /// `[%eval #-3]`: mate in so many moves, negative when Black mates.
    #[getter]
    fn mate(&self) -> PyResult<Option<i32>> {
        Ok(match self.last(|c| c.eval)? {
            Some(Eval::Mate(n)) => Some(n),
            _ => None,
        })
    }

    /// The alternatives to this move, each a list of moves from the position before it.
    #[getter]
    fn variations(&self, py: Python<'_>) -> PyResult<Vec<Py<PyList>>> {
        (0..self.ply_in_game().variations.len())
            .map(|variation| {
                let mut line = self.line.to_vec();
                line.push((self.index, variation));
                line_list(py, &self.data, line.into(), &self.before)
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

/// The moves of the line of `data`'s game at `line` (see [`Move::line`]) from `start`, as a list.
fn line_list(
    py: Python<'_>,
    data: &Arc<GameData>,
    line: Arc<[(usize, usize)]>,
    start: &Chess,
) -> PyResult<Py<PyList>> {
    let mut plies = &data.game.moves;
    for &(ply, variation) in line.iter() {
        plies = &plies.plies[ply].variations[variation];
    }
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(plies.plies.len());
    for (index, ply) in plies.plies.iter().enumerate() {
        let before = pos.clone();
        notate::chess::game::play(&mut pos, ply.mv.mv);
        let (data, line) = (data.clone(), line.clone());
        moves.push(Py::new(
            py,
            Move {
                data,
                line,
                index,
                before,
            },
        )?);
    }
    Ok(PyList::new(py, moves)?.unbind())
}

/// A move's UCI as a Python string. The strings are made once per process and shared, as
/// Python's own interned strings are: a game's list of UCI then costs a reference per move,
/// where building each string took half the time of `uci_moves`. (They outlive no
/// interpreter: pyo3 refuses subinterpreters, and a module of Python ≥ 3.9 is not loaded
/// again after `Py_Finalize`.)
fn uci_str<'py>(
    py: Python<'py>,
    mv: Option<shakmaty::Move>,
    mode: CastlingMode,
) -> Bound<'py, PyString> {
    // From square, to square, promotion (none, or N B R Q K): every UCI of a chess move.
    const SLOTS: usize = 64 * 64 * 6;
    static STRINGS: OnceLock<Box<[OnceLock<Py<PyString>>]>> = OnceLock::new();
    let Some(UciMove::Normal {
        from,
        to,
        promotion,
    }) = mv.map(|m| m.to_uci(mode))
    else {
        return PyString::new(py, "0000");
    };
    let slot =
        (usize::from(from) * 64 + usize::from(to)) * 6 + promotion.map_or(0, |r| r as usize - 1);
    let strings = STRINGS.get_or_init(|| (0..SLOTS).map(|_| OnceLock::new()).collect());
    strings[slot]
        .get_or_init(|| {
            let uci = UciMove::Normal {
                from,
                to,
                promotion,
            };
            PyString::new(py, &uci.to_string()).unbind()
        })
        .bind(py)
        .clone()
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn texts(comments: &[Comment]) -> Vec<String> {
    comments.iter().map(|c| c.text.clone()).collect()
}
