//! The verbs every format module shares, written once.
//!
//! Every format module of every family (`chess::pgn`, `infinite::icn`, `shogi::kif` …) has
//! the same face:
//!
//! | verb | reads or writes |
//! |---|---|
//! | `Reader::new(input)` | an iterator of `Result<game, Error>` over any [`std::io::Read`], one game at a time |
//! | `read_str(text)` | every game of a text (the first failure is the error) |
//! | `read_one(text)` | the one game of a text |
//! | `Writer::new(output)` | writes games into any [`std::io::Write`] |
//! | `to_string(&game)` | one game as text |
//! | `ReadOptions`, `WriteOptions` | what can be chosen, with `Default`; `Reader::with_options`, `Writer::with_options`, `to_string_with` |
//!
//! A module says how its format is cut into records and how one record is read
//! ([`ReadFormat`]), and how one game is written ([`WriteFormat`]); the generic [`Reader`],
//! [`Writer`], [`read_str`], [`read_one`] and [`to_string`] here do the rest, so every format
//! streams, numbers its games, and places its errors in the same way.
//!
//! ```
//! use notate::shogi::{csa, kif};
//! let record = kif::read_one("手合割：平手\n   1 ７六歩(77)\n").unwrap();
//! assert!(csa::to_string(&record).unwrap().ends_with("+7776FU\n"));
//! ```

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::Arc;

use crate::chunk::{Chunk, Split};
use crate::error::Locator;
use crate::{Error, ErrorKind, Place};

/// A format that can be read: how a stream is cut into records, and how a record is read.
pub trait ReadFormat {
    /// What a record reads into.
    type Game;
    /// What a reader can be told.
    type ReadOptions: Default + Clone;
    /// The splitter that cuts a stream of this format into chunks of whole records.
    type Splitter<R: Read + Send>: Split;

    /// A splitter for `input`.
    fn splitter<R: Read + Send>(input: R, options: &Self::ReadOptions) -> Self::Splitter<R>;

    /// Reads one record: the bytes of one range of a chunk. It may hold several games (a CSA
    /// file of records separated by `/`). Error places count from the record's start: a byte
    /// offset into `record`, or a line where its first line is line 1.
    fn read_record(record: &[u8], options: &Self::ReadOptions) -> Vec<Result<Self::Game, Error>>;

    /// Reads every record of a chunk, in order, with error places in the whole stream.
    fn read_chunk(
        chunk: &Chunk,
        options: &Self::ReadOptions,
        out: &mut Vec<Result<Self::Game, Error>>,
    ) {
        let mut locator = chunk.locator();
        for (index, range) in chunk.games.iter().enumerate() {
            if chunk.oversized.contains(&index) {
                let error = Error::new(
                    ErrorKind::TooLarge,
                    "record larger than the size limit, skipped",
                )
                .with_place(locator.place(range.start));
                out.push(Err(error));
                continue;
            }
            for mut result in Self::read_record(&chunk.bytes[range.clone()], options) {
                if let Err(error) = &mut result {
                    place_in_stream(error, range.start, &mut locator);
                }
                out.push(result);
            }
        }
    }

    /// [`Self::read_chunk`], and for each result where its game came from (`None` when not
    /// known), so that an error found later, by a writer, can be placed as a reading error
    /// is. A format whose records hold one game each is known by the count; PGN says its own.
    fn read_chunk_with_origins(
        chunk: &Chunk,
        options: &Self::ReadOptions,
        out: &mut Vec<Result<Self::Game, Error>>,
        origins: &mut Vec<Option<Origin>>,
    ) {
        let before = out.len();
        Self::read_chunk(chunk, options, out);
        let read = out.len() - before;
        if read == chunk.games.len() {
            origins.extend(chunk.games.iter().map(|range| {
                let start = chunk.first_byte as usize + range.start;
                Some(Origin {
                    start,
                    moves_from: start,
                })
            }));
        } else {
            origins.extend(std::iter::repeat_n(None, read));
        }
    }

    /// [`Self::read_chunk_with_origins`], and for each result what was noticed reading it
    /// without failing it, placed in the stream (PGN's skipped tokens): one list a result,
    /// appended to `warnings`. Formats that notice nothing give empty lists.
    fn read_chunk_with_warnings(
        chunk: &Chunk,
        options: &Self::ReadOptions,
        out: &mut Vec<Result<Self::Game, Error>>,
        origins: &mut Vec<Option<Origin>>,
        warnings: &mut Vec<Vec<Error>>,
    ) {
        let before = out.len();
        Self::read_chunk_with_origins(chunk, options, out, origins);
        warnings.resize_with(warnings.len() + out.len() - before, Vec::new);
    }
}

/// Where a game read from a stream came from, in bytes of the stream: what places an error
/// found after reading (a writer's) where the command line places it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// The first byte of the game's record: the place of an error of the whole game.
    pub start: usize,
    /// What the byte offsets of its moves count from: the record's first byte for a format
    /// of one game a record, the chunk's for PGN (which reads a chunk as one text).
    pub moves_from: usize,
}

impl Origin {
    /// The same origin counted from the first byte of `chunk`, the chunk the game was read
    /// from: for placing with the chunk's own locator ([`Chunk::locator`]).
    pub fn in_chunk(self, chunk: &Chunk) -> Origin {
        let first_byte = chunk.first_byte as usize;
        Origin {
            start: self.start - first_byte,
            moves_from: self.moves_from - first_byte,
        }
    }

    /// Places `error`, an error of the game that came from here, in the stream `locator`
    /// counts in: an error of the whole game (no ply) at the game's start, an error of a
    /// move at the move's offset.
    ///
    /// ```
    /// use notate::error::Locator;
    /// use notate::format::Origin;
    /// use notate::{Error, ErrorKind, Place};
    /// let text = b"game one\ngame two: e4 --\n";
    /// let origin = Origin { start: 9, moves_from: 9 };
    /// let mut error = Error::at(13, "a null move").with_ply(2);
    /// origin.place(&mut error, &mut Locator::new(text, 1));
    /// assert_eq!(error.place, Some(Place { line: 2, column: 14, offset: Some(22) }));
    /// ```
    pub fn place(self, error: &mut Error, locator: &mut Locator<'_>) {
        if error.ply.is_none() {
            error.place = Some(locator.place(self.start));
        } else {
            place_in_stream(error, self.moves_from, locator);
        }
    }
}

/// Moves the place of an error in a record (`record_start` bytes into a chunk) into the
/// stream the chunk comes from.
pub fn place_in_stream(error: &mut Error, record_start: usize, locator: &mut Locator<'_>) {
    let Some(place) = error.place else { return };
    if place.line == 0 {
        if let Some(offset) = place.offset {
            error.place = Some(locator.place(record_start + offset));
        }
        return;
    }
    let start = locator.place(record_start);
    error.place = Some(Place {
        line: start.line + place.line - 1,
        // A column on the record's first line counts from the record's first column.
        column: if place.line == 1 && place.column > 0 {
            start.column + place.column - 1
        } else {
            place.column
        },
        offset: place.offset.zip(start.offset).map(|(o, s)| s + o),
    });
}

/// A format that can be written: a writer of one game at a time (its state reused from game
/// to game).
pub trait WriteFormat {
    /// What is written.
    type Game;
    /// What a writer can be told.
    type WriteOptions: Default + Clone;

    /// A writer with these options.
    fn new(options: Self::WriteOptions) -> Self;

    /// Writes one game at the end of `out`. On an error, what was written of the game stays
    /// for the caller to cut ([`Writer`] cuts it).
    fn write_game(&mut self, game: &Self::Game, out: &mut Vec<u8>) -> Result<(), Error>;

    /// Writes one game as UTF-8 text, for [`to_string`]: the same as [`Self::write_game`]
    /// but for formats written in another encoding on request (KIF, KI2, CSA V2.2 in
    /// Shift_JIS).
    fn write_text(&mut self, game: &Self::Game, out: &mut Vec<u8>) -> Result<(), Error> {
        self.write_game(game, out)
    }
}

/// Reads the games of a stream one at a time, in order, on the calling thread (the `notate`
/// command does the same on every core). An error names the game's number; reading goes on
/// with the next game after a bad one. An I/O error ends the iteration.
pub struct Reader<F: ReadFormat, R: Read + Send> {
    splitter: F::Splitter<R>,
    options: F::ReadOptions,
    read: Vec<Result<F::Game, Error>>,
    origins: Vec<Option<Origin>>,
    warnings: Vec<Vec<Error>>,
    numbering: Numbering<(F::Game, Option<Origin>)>,
    /// The warnings of the games queued in `numbering`, in the same order.
    queued_warnings: VecDeque<Vec<Error>>,
    /// Where the game last given came from.
    origin: Option<Origin>,
    /// The warnings of the game last given.
    last_warnings: Vec<Error>,
}

impl<F: ReadFormat, R: Read + Send> Reader<F, R> {
    /// A reader with the format's default options.
    pub fn new(input: R) -> Self {
        Self::with_options(input, F::ReadOptions::default())
    }

    /// A reader with these options.
    pub fn with_options(input: R, options: F::ReadOptions) -> Self {
        Reader {
            splitter: F::splitter(input, &options),
            options,
            read: Vec::new(),
            origins: Vec::new(),
            warnings: Vec::new(),
            numbering: Numbering::default(),
            queued_warnings: VecDeque::new(),
            origin: None,
            last_warnings: Vec::new(),
        }
    }

    /// Where the game last given came from, in bytes of the stream, when known (`None` after
    /// an error): what places an error a writer finds in that game ([`Origin::place`]).
    ///
    /// ```
    /// use notate::chess::pgn::Pgn;
    /// use notate::format::{Origin, Reader};
    /// let mut games = Reader::<Pgn, _>::new(&b"1. e4 *\n\n1. d4 *\n"[..]);
    /// games.next();
    /// games.next();
    /// assert_eq!(games.origin(), Some(Origin { start: 9, moves_from: 0 }));
    /// ```
    pub fn origin(&self) -> Option<Origin> {
        self.origin
    }

    /// What was noticed reading the game last given (or failed) without failing it, placed
    /// in the stream and numbered as its errors are (PGN's skipped tokens); taken, so that a
    /// second call gives nothing.
    ///
    /// ```
    /// use notate::chess::pgn::Pgn;
    /// use notate::format::Reader;
    /// let mut games = Reader::<Pgn, _>::new(&b"1. e4 *\n\n1. d4 ^5 d5 *\n"[..]);
    /// games.next();
    /// assert!(games.take_warnings().is_empty());
    /// games.next();
    /// let warnings = games.take_warnings();
    /// assert_eq!((warnings[0].game, warnings[0].place.unwrap().line), (Some(2), 3));
    /// ```
    pub fn take_warnings(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.last_warnings)
    }
}

/// Games given one at a time from chunks' games fetched as needed, each error naming the
/// game's number in the stream; the first I/O error ends the games.
struct Numbering<G> {
    pending: VecDeque<Result<G, Error>>,
    games: u64,
    done: bool,
}

impl<G> Default for Numbering<G> {
    fn default() -> Self {
        Numbering {
            pending: VecDeque::new(),
            games: 0,
            done: false,
        }
    }
}

impl<G> Numbering<G> {
    /// The next game; `fetch` adds the games of the next chunk to the queue it is given,
    /// or says that the stream has ended (`None`) or failed.
    fn next(
        &mut self,
        mut fetch: impl FnMut(&mut VecDeque<Result<G, Error>>) -> Option<io::Result<()>>,
    ) -> Option<Result<G, Error>> {
        let Ok(next) = self.try_next(|pending| Ok::<_, std::convert::Infallible>(fetch(pending)));
        next
    }

    /// [`Numbering::next`] with a `fetch` that may give up for now (`Err`): the games fetched
    /// so far stay queued, and a later call goes on.
    fn try_next<E>(
        &mut self,
        mut fetch: impl FnMut(&mut VecDeque<Result<G, Error>>) -> Result<Option<io::Result<()>>, E>,
    ) -> Result<Option<Result<G, Error>>, E> {
        loop {
            if let Some(result) = self.pending.pop_front() {
                self.games += 1;
                let number = self.games;
                return Ok(Some(result.map_err(|e| e.with_game(number))));
            }
            if self.done {
                return Ok(None);
            }
            match fetch(&mut self.pending)? {
                Some(Ok(())) => {}
                Some(Err(e)) => {
                    self.done = true;
                    return Ok(Some(Err(Error::from(e))));
                }
                None => self.done = true,
            }
        }
    }
}

impl<F: ReadFormat, R: Read + Send> Iterator for Reader<F, R> {
    type Item = Result<F::Game, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let Reader {
            splitter,
            options,
            read,
            origins,
            warnings,
            numbering,
            queued_warnings,
            origin,
            last_warnings,
        } = self;
        let given = numbering.games;
        let next = numbering.next(|pending| match splitter.next_chunk() {
            Ok(Some(chunk)) => {
                F::read_chunk_with_warnings(&chunk, options, read, origins, warnings);
                let games = read.drain(..).zip(origins.drain(..));
                pending.extend(games.map(|(game, origin)| game.map(|game| (game, origin))));
                queued_warnings.extend(warnings.drain(..));
                splitter.recycle(chunk.bytes);
                Some(Ok(()))
            }
            Ok(None) => None,
            Err(e) => Some(Err(e)),
        });
        *origin = None;
        last_warnings.clear();
        // A game (or a failed one) was taken from the queue, not an I/O error given.
        if numbering.games > given {
            let number = numbering.games;
            *last_warnings = queued_warnings.pop_front().unwrap_or_default();
            for warning in last_warnings.iter_mut() {
                warning.game.get_or_insert(number);
            }
        }
        Some(next?.map(|(game, from)| {
            *origin = from;
            game
        }))
    }
}

/// Reads the games of a stream on several threads and gives them in order: `threads`
/// workers take turns at cutting the stream into chunks and read and replay the chunks they
/// cut, and the games come out as a [`Reader`] gives them (same games, numbers and error
/// places). At most `2 × threads + 2` chunks are in flight, so memory stays flat however
/// long the stream; the threads stop when the reader is dropped. For callers that consume
/// games one at a time while other cores read ahead; [`ChunkMap`] also does the caller's
/// work on each chunk's games on the workers.
///
/// ```
/// use notate::chess::pgn::Pgn;
/// use notate::format::ParallelReader;
/// let text = "1. e4 e5 *\n\n1. d4 Ke3 *\n\n1. c4 *\n".repeat(1000);
/// let games: Vec<_> = ParallelReader::<Pgn>::new(std::io::Cursor::new(text), 2).collect();
/// assert_eq!(games.len(), 3000);
/// assert_eq!(games[4].as_ref().unwrap_err().game, Some(5));
/// ```
pub struct ParallelReader<F: ReadFormat> {
    games: NumberedGames<F::Game>,
}

impl<F> ParallelReader<F>
where
    F: ReadFormat + 'static,
    F::Game: Send + 'static,
    F::ReadOptions: Send + Sync + 'static,
{
    /// A reader with the format's default options, on `threads` workers (at least one).
    pub fn new<R: Read + Send + 'static>(input: R, threads: usize) -> Self {
        Self::with_options(input, F::ReadOptions::default(), threads)
    }

    /// A reader with these options.
    pub fn with_options<R: Read + Send + 'static>(
        input: R,
        options: F::ReadOptions,
        threads: usize,
    ) -> Self {
        let chunks = ChunkMap::new::<F, R, _, _>(input, options, threads, || |games| games);
        ParallelReader {
            games: chunks.numbered(),
        }
    }
}

impl<F: ReadFormat> Iterator for ParallelReader<F> {
    type Item = Result<F::Game, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.games.next()
    }
}

/// The games of a [`ChunkMap`] whose workers give each chunk's games, one at a time, in
/// order, each error naming its game's number in the stream (see [`ChunkMap::numbered`]).
pub struct NumberedGames<G> {
    chunks: ChunkMap<Vec<Result<G, Error>>>,
    numbering: Numbering<G>,
}

impl<G> Iterator for NumberedGames<G> {
    type Item = Result<G, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_item(None)
            .expect("no wait is given up without a time limit")
    }
}

impl<G> NumberedGames<G> {
    /// The next game as [`Iterator::next`] gives it, or [`StillWaiting`] when the workers
    /// have given none within `wait`: for a caller that must look up now and then while the
    /// input is silent (a binding checking for Ctrl-C). Nothing is lost by giving up; the
    /// next call goes on.
    ///
    /// ```
    /// use std::time::Duration;
    /// use notate::chess::pgn::{replay_chunk, GameSplitter, ReadOptions};
    /// use notate::format::ChunkMap;
    /// // An input that never ends and gives nothing: a pipe whose writer is silent.
    /// let (silent, writer) = std::io::pipe().unwrap();
    /// let splitter = GameSplitter::new(silent, 1 << 12);
    /// let mut games = ChunkMap::of_chunks(splitter, 1, || |chunk: &notate::chunk::Chunk| {
    ///     replay_chunk(chunk, ReadOptions::default()).map(|(g, _)| g).collect::<Vec<_>>()
    /// })
    /// .numbered();
    /// assert!(games.next_within(Duration::from_millis(10)).is_err());
    /// drop(writer); // the input ends: no game
    /// assert!(games.next_within(Duration::from_secs(60)).unwrap().is_none());
    /// ```
    pub fn next_within(
        &mut self,
        wait: std::time::Duration,
    ) -> Result<Option<Result<G, Error>>, StillWaiting> {
        self.next_item(Some(wait))
    }

    /// The next game, waiting at most `wait` for a chunk (without a limit if `None`).
    fn next_item(
        &mut self,
        wait: Option<std::time::Duration>,
    ) -> Result<Option<Result<G, Error>>, StillWaiting> {
        let chunks = &mut self.chunks;
        self.numbering.try_next(|pending| {
            Ok(chunks
                .next_item(wait)?
                .map(|chunk| chunk.map(|games| pending.extend(games))))
        })
    }
}

/// No item came within the time a caller said it would wait (see
/// [`NumberedGames::next_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StillWaiting;

/// The most worker threads a run may be asked for (the command line's `--threads`, the
/// bindings' `threads`; [`ChunkMap`] starts no more): each holds chunks in flight, and past
/// the machine's cores more only cost memory; far past it, the system refuses to start them.
pub const MAX_THREADS: usize = 256;

/// The worker threads a run takes unless told: one per core, at most [`MAX_THREADS`].
///
/// ```
/// assert!((1..=notate::format::MAX_THREADS).contains(&notate::format::default_threads()));
/// ```
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(MAX_THREADS)
}

/// The games of a stream, read chunk by chunk on several threads, each chunk's games handed
/// to a worker function there, and what it makes of them given back in order: one item per
/// chunk (then an I/O error, if one ended the stream). The games a worker gets are those a
/// [`Reader`] gives, in order, their errors not yet numbered (the caller counts games).
/// At most `2 × threads + 2` chunks are in flight; the threads stop when the map is dropped.
/// An input that pauses (a [`crate::chunk::Paced`] pipe) has the games its bytes made whole
/// handed out at each pause, and is waited for.
///
/// ```
/// use notate::chess::pgn::Pgn;
/// use notate::format::ChunkMap;
/// let text = "1. e4 e5 *\n\n1. d4 Ke3 *\n".repeat(5000);
/// // Each worker counts the plies of its chunks' good games.
/// let counts = ChunkMap::new::<Pgn, _, _, _>(std::io::Cursor::new(text), Default::default(), 2, || {
///     |games: Vec<Result<notate::chess::ChessGame, notate::Error>>| -> usize {
///         games.iter().flatten().map(|g| g.moves.plies.len()).sum()
///     }
/// });
/// let plies: usize = counts.map(|chunk| chunk.unwrap()).sum();
/// assert_eq!(plies, 5000 * 2);
/// ```
pub struct ChunkMap<T> {
    results: std::sync::mpsc::Receiver<(u64, io::Result<T>)>,
    /// Chunks done ahead of the one awaited, by sequence number.
    waiting: std::collections::BTreeMap<u64, io::Result<T>>,
    /// A ticket lets a worker cut one more chunk: given back when a chunk's item has been
    /// taken, which bounds the chunks in flight.
    tickets: std::sync::mpsc::SyncSender<()>,
    next_chunk: u64,
    done: bool,
    /// Set when the map is dropped, for a cutter waiting out a pause.
    dropped: Arc<std::sync::atomic::AtomicBool>,
}

impl<T: Send + 'static> ChunkMap<T> {
    /// Reads `input` as format `F` on `threads` workers (at least one), each with its own
    /// function made by `new_worker`.
    pub fn new<F, R, W, N>(input: R, options: F::ReadOptions, threads: usize, new_worker: N) -> Self
    where
        F: ReadFormat + 'static,
        F::Game: Send + 'static,
        F::ReadOptions: Send + Sync + 'static,
        R: Read + Send + 'static,
        W: FnMut(Vec<Result<F::Game, Error>>) -> T + Send + 'static,
        N: Fn() -> W,
    {
        Self::with_splitter::<F, _, _, _>(
            F::splitter(input, &options),
            options,
            threads,
            new_worker,
        )
    }

    /// [`ChunkMap::new`] with a splitter of the caller's (chunks of another size than the
    /// format's: a load makes each chunk a Parquet row group).
    ///
    /// ```
    /// use notate::chess::pgn::{GameSplitter, Pgn};
    /// use notate::format::ChunkMap;
    /// let text = "1. e4 e5 *\n\n1. d4 *\n".repeat(5000);
    /// let splitter = GameSplitter::new(std::io::Cursor::new(text), 1 << 16);
    /// let games = ChunkMap::with_splitter::<Pgn, _, _, _>(splitter, Default::default(), 2, || {
    ///     |games: Vec<Result<notate::chess::ChessGame, notate::Error>>| games.len()
    /// });
    /// assert_eq!(games.map(|n| n.unwrap()).sum::<usize>(), 10_000);
    /// ```
    pub fn with_splitter<F, S, W, N>(
        splitter: S,
        options: F::ReadOptions,
        threads: usize,
        new_worker: N,
    ) -> Self
    where
        F: ReadFormat + 'static,
        F::Game: Send + 'static,
        F::ReadOptions: Send + Sync + 'static,
        S: Split + 'static,
        W: FnMut(Vec<Result<F::Game, Error>>) -> T + Send + 'static,
        N: Fn() -> W,
    {
        let options = Arc::new(options);
        Self::of_chunks(splitter, threads, || {
            let mut worker = new_worker();
            let options = options.clone();
            move |chunk: &Chunk| {
                let mut games = Vec::new();
                F::read_chunk(chunk, &options, &mut games);
                worker(games)
            }
        })
    }

    /// The chunks `splitter` cuts, each handed whole to a worker (at least one) that reads
    /// it itself: for callers that want more of a game than its reader gives, such as the
    /// bytes it was read from ([`crate::chess::pgn::read_chunk`] tells where each game
    /// starts). Ordering, the bound on chunks in flight and the errors are those of
    /// [`ChunkMap::new`].
    ///
    /// ```
    /// use notate::chess::pgn::GameSplitter;
    /// use notate::format::ChunkMap;
    /// let text = "1. e4 e5 *\n\n1. d4 *\n".repeat(5000);
    /// let splitter = GameSplitter::new(std::io::Cursor::new(text), 1 << 12);
    /// let bytes = ChunkMap::of_chunks(splitter, 2, || |chunk: &notate::chunk::Chunk| chunk.bytes.len());
    /// assert_eq!(bytes.map(|n| n.unwrap()).sum::<usize>(), 20 * 5000);
    /// ```
    pub fn of_chunks<S, W, N>(splitter: S, threads: usize, new_worker: N) -> Self
    where
        S: Split + 'static,
        W: FnMut(&Chunk) -> T + Send + 'static,
        N: Fn() -> W,
    {
        use std::sync::mpsc::sync_channel;
        use std::sync::Mutex;
        let threads = threads.clamp(1, MAX_THREADS);
        let in_flight = 2 * threads + 2;
        let (tickets, ticket_box) = sync_channel::<()>(in_flight);
        for _ in 0..in_flight {
            let _ = tickets.send(());
        }
        let (done, results) = sync_channel(in_flight);
        // The workers take turns at cutting: a thread of its own for it made one more thread
        // than cores, and the kernel then left a worker waiting a whole time slice (3 ms) now
        // and then, which on a 1 MB file was a third of the time.
        let dropped = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let cutter = Arc::new(Mutex::new(Cutter {
            splitter,
            tickets: ticket_box,
            sequence: 0,
            ended: false,
            dropped: dropped.clone(),
        }));
        for _ in 0..threads {
            let (cutter, done) = (cutter.clone(), done.clone());
            let mut worker = new_worker();
            crate::threads::spawn(move || {
                // The bytes of the chunk read last, for the splitter to hold a later chunk:
                // fresh buffers would be zeroed by the kernel page by page.
                let mut spare = None;
                loop {
                    let cut = cutter
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .cut(spare.take());
                    let (sequence, chunk) = match cut {
                        Some((sequence, Ok(chunk))) => (sequence, chunk),
                        Some((sequence, Err(e))) => {
                            let _ = done.send((sequence, Err(e)));
                            return;
                        }
                        None => return,
                    };
                    // A panic must not leave the caller waiting for this chunk forever: it
                    // ends the stream as an error, in its place.
                    let item =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker(&chunk)))
                            .map_err(|_| {
                                io::Error::other("a reading thread failed (a bug in notate)")
                            });
                    spare = Some(chunk.bytes);
                    let failed = item.is_err();
                    if done.send((sequence, item)).is_err() || failed {
                        return;
                    }
                }
            });
        }
        ChunkMap {
            results,
            waiting: std::collections::BTreeMap::new(),
            tickets,
            next_chunk: 0,
            done: false,
            dropped,
        }
    }
}

impl<T> Drop for ChunkMap<T> {
    fn drop(&mut self) {
        // A cutter waiting out the pauses of its input stops (see [`Cutter::cut`]).
        self.dropped
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The splitter of a [`ChunkMap`], which its workers take turns at.
struct Cutter<S> {
    splitter: S,
    /// A ticket lets one more chunk be cut (see [`ChunkMap::tickets`]).
    tickets: std::sync::mpsc::Receiver<()>,
    sequence: u64,
    /// The stream has ended, or failed.
    ended: bool,
    /// The map has been dropped.
    dropped: Arc<std::sync::atomic::AtomicBool>,
}

impl<S: Split> Cutter<S> {
    /// The next chunk and its sequence number, once a ticket allows it; `None` at the end of
    /// the stream or when the map has been dropped.
    fn cut(&mut self, spare: Option<Vec<u8>>) -> Option<(u64, io::Result<Chunk>)> {
        if let Some(bytes) = spare {
            self.splitter.recycle(bytes);
        }
        // The map's drop ends the tickets, and the workers with them.
        if self.ended || self.tickets.recv().is_err() {
            return None;
        }
        let sequence = self.sequence;
        self.sequence += 1;
        let next = loop {
            let started = std::time::Instant::now();
            let next = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.splitter.next_chunk()
            }))
            .unwrap_or_else(|_| {
                Err(io::Error::other(
                    "cutting the input failed (a bug in notate)",
                ))
            });
            match next {
                // A pause of the input (a [`crate::chunk::Paced`] stream's): the games it
                // made whole have gone out; wait for more, unless nobody reads on.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if self.dropped.load(std::sync::atomic::Ordering::Relaxed) {
                        return None;
                    }
                    // A reader that says so without waiting (a non-blocking one) is not
                    // asked again at once.
                    if started.elapsed() < crate::chunk::PAUSE / 4 {
                        std::thread::sleep(crate::chunk::PAUSE / 4);
                    }
                }
                next => break next,
            }
        };
        match next {
            Ok(Some(chunk)) => Some((sequence, Ok(chunk))),
            Ok(None) => {
                self.ended = true;
                None
            }
            Err(e) => {
                self.ended = true;
                Some((sequence, Err(e)))
            }
        }
    }
}

impl<G> ChunkMap<Vec<Result<G, Error>>> {
    /// The games the workers give, one at a time, numbered as a [`Reader`] numbers them:
    /// for workers that read their chunks themselves ([`ChunkMap::of_chunks`]) and give
    /// games of their own making.
    ///
    /// ```
    /// use notate::chess::pgn::{replay_chunk, GameSplitter, ReadOptions};
    /// use notate::format::ChunkMap;
    /// let text = "1. e4 e5 *\n\n1. d4 Ke3 *\n".repeat(500);
    /// let splitter = GameSplitter::new(std::io::Cursor::new(text), 1 << 12);
    /// // Each game with the length of its text.
    /// let games: Vec<_> = ChunkMap::of_chunks(splitter, 2, || |chunk: &notate::chunk::Chunk| {
    ///     replay_chunk(chunk, ReadOptions::default())
    ///         .map(|(game, range)| game.map(|game| (game, range.len())))
    ///         .collect::<Vec<_>>()
    /// })
    /// .numbered()
    /// .collect();
    /// assert_eq!(games[0].as_ref().unwrap().1, 12);
    /// assert_eq!(games[3].as_ref().unwrap_err().game, Some(4));
    /// ```
    pub fn numbered(self) -> NumberedGames<G> {
        NumberedGames {
            chunks: self,
            numbering: Numbering::default(),
        }
    }
}

impl<T> Iterator for ChunkMap<T> {
    type Item = io::Result<T>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_item(None)
            .expect("no wait is given up without a time limit")
    }
}

impl<T> ChunkMap<T> {
    /// The next item as [`Iterator::next`] gives it, or [`StillWaiting`] when the workers
    /// have given none within `wait` (see [`NumberedGames::next_within`]).
    ///
    /// ```
    /// use std::time::Duration;
    /// use notate::chess::pgn::GameSplitter;
    /// use notate::format::ChunkMap;
    /// let (silent, mut writer) = std::io::pipe().unwrap();
    /// let splitter = GameSplitter::new(silent, 1 << 12);
    /// let mut sizes = ChunkMap::of_chunks(splitter, 1, || |chunk: &notate::chunk::Chunk| chunk.bytes.len());
    /// assert!(sizes.next_within(Duration::from_millis(10)).is_err());
    /// std::io::Write::write_all(&mut writer, b"1. e4 *\n").unwrap();
    /// drop(writer);
    /// assert_eq!(sizes.next_within(Duration::from_secs(60)).unwrap().unwrap().unwrap(), 8);
    /// ```
    pub fn next_within(
        &mut self,
        wait: std::time::Duration,
    ) -> Result<Option<io::Result<T>>, StillWaiting> {
        self.next_item(Some(wait))
    }

    /// The next item, waiting at most `wait` for it (without a limit if `None`).
    fn next_item(
        &mut self,
        wait: Option<std::time::Duration>,
    ) -> Result<Option<io::Result<T>>, StillWaiting> {
        use std::sync::mpsc::RecvTimeoutError;
        // A wait too long to have an end (`Duration::MAX`) is no limit.
        let deadline = wait.and_then(|wait| std::time::Instant::now().checked_add(wait));
        while !self.done {
            let item = match self.waiting.remove(&self.next_chunk) {
                Some(item) => item,
                None => {
                    let received = match deadline {
                        None => self
                            .results
                            .recv()
                            .map_err(|_| RecvTimeoutError::Disconnected),
                        Some(deadline) => self.results.recv_timeout(
                            deadline.saturating_duration_since(std::time::Instant::now()),
                        ),
                    };
                    match received {
                        Ok((sequence, item)) if sequence != self.next_chunk => {
                            self.waiting.insert(sequence, item);
                            continue;
                        }
                        Ok((_, item)) => item,
                        Err(RecvTimeoutError::Timeout) => return Err(StillWaiting),
                        // Every thread is gone: the stream has ended.
                        Err(RecvTimeoutError::Disconnected) => {
                            self.done = true;
                            continue;
                        }
                    }
                }
            };
            self.next_chunk += 1;
            match item {
                Ok(item) => {
                    let _ = self.tickets.send(());
                    return Ok(Some(Ok(item)));
                }
                Err(e) => {
                    self.done = true;
                    return Ok(Some(Err(e)));
                }
            }
        }
        Ok(None)
    }
}

/// Reads games from bytes handed over as they arrive, for callers that are given bytes
/// rather than asking for them (a browser's `ReadableStream`, a socket's messages): each
/// [`Feed::push`] gives back at once the games its bytes completed (a line of a JSON Lines
/// format; a PGN game once the next one starts), [`Feed::finish`] the rest. Games, numbers
/// and error places are those a [`Reader`] gives over the same bytes, and memory holds
/// about one chunk of the format, however much is pushed. (For a live stream, whose last
/// game must not wait for the next one, see [`Feed::live`].)
///
/// ```
/// use notate::chess::pgn::Pgn;
/// use notate::format::Feed;
/// let mut feed = Feed::<Pgn>::new();
/// let games = feed.push(b"[White \"a\"]\n\n1. e4 *\n\n[Whi");
/// assert_eq!(games.len(), 1); // the next game's tags have begun
/// let games = feed.push(b"te \"b\"]\n\n1. d4 Nf6 *\n");
/// assert!(games.is_empty()); // the second game may go on (`{won}` ⏎ …): only the end tells
/// let games = feed.finish();
/// assert_eq!(games[0].as_ref().unwrap().moves.plies.len(), 2);
/// assert!(feed.take_warnings().is_empty());
/// ```
pub struct Feed<F: ReadFormat> {
    queue: std::sync::Arc<std::sync::Mutex<FeedQueue>>,
    splitter: F::Splitter<FeedInput>,
    options: F::ReadOptions,
    games: u64,
    done: bool,
    /// The warnings of the games given by the last push or finish, each naming its game.
    warnings: Vec<Error>,
}

/// The bytes pushed into a [`Feed`] and not yet taken by its splitter.
#[derive(Default)]
struct FeedQueue {
    bytes: VecDeque<u8>,
    finished: bool,
    /// The source failed (see [`Feed::fail`]): once the bytes are taken, reads fail.
    failed: bool,
}

/// The failure [`FeedInput`] reads give after [`Feed::fail`]: not an error of the stream's
/// own, so the feed gives no error item for it (the caller has the source's).
#[derive(Debug)]
struct SourceFailed;

impl std::fmt::Display for SourceFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("the source failed")
    }
}

impl std::error::Error for SourceFailed {}

/// What a [`Feed`]'s splitter reads from: the pushed bytes, then "would block" until more
/// come (every splitter keeps its state across a failed read and goes on at the next call),
/// or the end once the feed is finished.
pub struct FeedInput(std::sync::Arc<std::sync::Mutex<FeedQueue>>);

impl Read for FeedInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut queue = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if queue.bytes.is_empty() && queue.failed {
            return Err(io::Error::other(SourceFailed));
        }
        if queue.bytes.is_empty() && !queue.finished {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        queue.bytes.read(buf)
    }
}

impl<F: ReadFormat> Default for Feed<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: ReadFormat> Feed<F> {
    /// A feed with the format's default options.
    pub fn new() -> Self {
        Self::with_options(F::ReadOptions::default())
    }

    /// A feed for a live stream (a broadcast that sends each game as it changes, and waits):
    /// at the end of each push, a PGN game whose result and a line break came (blanks
    /// aside) is given at once, not when the next game starts (a game of tags alone still
    /// waits for the next one). This is the one place where a feed may give other games than
    /// a [`Reader`]: a comment pushed after such a push (a note after the result, on a line
    /// of its own) goes with the next game, where the same bytes read at once would end the
    /// first game with it (and one left open over the next game's tags is a game of its own,
    /// as at a stream's start).
    ///
    /// ```
    /// use notate::chess::pgn::Pgn;
    /// use notate::format::Feed;
    /// let mut feed = Feed::<Pgn>::new().live();
    /// assert_eq!(feed.push(b"[White \"a\"]\n\n1. e4 *\n").len(), 1);
    /// assert!(feed.push(b"\n[White \"a\"]\n\n1. e4 e5").is_empty()); // it may go on
    /// assert_eq!(feed.push(b" *\n").len(), 1);
    /// assert!(feed.finish().is_empty());
    /// ```
    pub fn live(mut self) -> Self {
        self.splitter.cut_at_pauses();
        self
    }

    /// A feed with these options.
    pub fn with_options(options: F::ReadOptions) -> Self {
        let queue = std::sync::Arc::new(std::sync::Mutex::new(FeedQueue::default()));
        Feed {
            splitter: F::splitter(FeedInput(queue.clone()), &options),
            queue,
            options,
            games: 0,
            done: false,
            warnings: Vec::new(),
        }
    }

    /// What was noticed, without failing a game, reading the games the last
    /// [`push`](Feed::push) or [`finish`](Feed::finish) gave (PGN's skipped tokens), each
    /// naming its game's number in the stream, in order.
    ///
    /// ```
    /// use notate::chess::pgn::Pgn;
    /// use notate::format::Feed;
    /// let mut feed = Feed::<Pgn>::new();
    /// assert_eq!(feed.push(b"1. e4 e5 *\n\n1. d4 hello d5 *\n").len(), 1);
    /// assert!(feed.take_warnings().is_empty());
    /// assert_eq!(feed.finish().len(), 1);
    /// let warnings = feed.take_warnings();
    /// assert_eq!((warnings.len(), warnings[0].game), (1, Some(2)));
    /// assert_eq!(warnings[0].token.as_deref(), Some("hello"));
    /// // Numbered in the stream: the games of earlier pushes count.
    /// let mut feed = Feed::<Pgn>::new();
    /// assert_eq!(feed.push("1. e4 e5 *\n\n".repeat(2000).as_bytes()).len(), 1999);
    /// assert!(feed.take_warnings().is_empty());
    /// assert_eq!(feed.push(b"1. d4 hello d5 *\n").len(), 1);
    /// assert_eq!(feed.finish().len(), 1);
    /// assert_eq!(feed.take_warnings()[0].game, Some(2001));
    /// ```
    pub fn take_warnings(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.warnings)
    }

    /// Hands over the next bytes of the stream; gives back the games they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Result<F::Game, Error>> {
        if self.done {
            self.warnings.clear();
            return vec![Err(Error::new(
                ErrorKind::Io,
                "bytes pushed after the end of the stream",
            ))];
        }
        self.lock().bytes.extend(bytes);
        self.drain()
    }

    /// Says the stream has ended; gives back the games not given yet.
    pub fn finish(&mut self) -> Vec<Result<F::Game, Error>> {
        self.lock().finished = true;
        self.drain()
    }

    /// Says the source of the stream failed (a network stream broke, a file could not be
    /// read); gives back the games known to be whole not given yet (the pushes gave those
    /// they completed; a last game whose result and a line break end the bytes, blanks
    /// aside, is whole): another last game may have been cut, and is not given. The feed
    /// then has ended; the caller reports the source's own error.
    ///
    /// ```
    /// use notate::chess::pgn::Pgn;
    /// use notate::format::Feed;
    /// let mut feed = Feed::<Pgn>::new();
    /// assert_eq!(feed.push(b"1. e4 e5 *\n\n1. d4 d5 *\n\n1. c4").len(), 2);
    /// assert!(feed.fail().is_empty()); // `1. c4` may have gone on
    /// assert!(feed.finish().is_empty());
    /// let mut feed = Feed::<Pgn>::new();
    /// assert!(feed.push(b"1. e4 e5 *\n").is_empty());
    /// assert_eq!(feed.fail().len(), 1); // its result ends it
    /// ```
    pub fn fail(&mut self) -> Vec<Result<F::Game, Error>> {
        self.lock().failed = true;
        self.drain()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FeedQueue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn drain(&mut self) -> Vec<Result<F::Game, Error>> {
        let mut out = Vec::new();
        let mut warnings = Vec::new();
        self.warnings.clear();
        while !self.done {
            match self.splitter.next_chunk() {
                Ok(Some(chunk)) => {
                    F::read_chunk_with_warnings(
                        &chunk,
                        &self.options,
                        &mut out,
                        &mut Vec::new(),
                        &mut warnings,
                    );
                    // The origins are not kept: a feed's games are not written again.
                    debug_assert_eq!(warnings.len(), out.len());
                    self.splitter.recycle(chunk.bytes);
                }
                Ok(None) => self.done = true,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.get_ref().is_some_and(|inner| inner.is::<SourceFailed>()) => {
                    self.done = true;
                }
                Err(e) => {
                    self.done = true;
                    out.push(Err(Error::from(e)));
                }
            }
        }
        // One list of warnings a game read; an I/O error, last, has none.
        warnings.resize_with(out.len(), Vec::new);
        for (result, noticed) in out.iter_mut().zip(warnings) {
            self.games += 1;
            if let Err(error) = result {
                error.game = Some(self.games);
            }
            for mut warning in noticed {
                warning.game.get_or_insert(self.games);
                self.warnings.push(warning);
            }
        }
        out
    }
}

/// Every game of `bytes` read with `options`, each a game or its error: for bytes in another
/// encoding than UTF-8 (a Shift_JIS KIF), or to go on past a bad game.
///
/// ```
/// use notate::shogi::{encoding::{Encoding, ReadOptions}, kif::Kif};
/// let text = "手合割：平手\n   1 ７六歩(77)\n";
/// let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(text);
/// let options = ReadOptions { encoding: Some(Encoding::ShiftJis) };
/// let games = notate::format::read_bytes::<Kif>(&bytes, options);
/// assert_eq!(games[0].as_ref().unwrap().moves.len(), 1);
/// ```
pub fn read_bytes<F: ReadFormat>(
    bytes: &[u8],
    options: F::ReadOptions,
) -> Vec<Result<F::Game, Error>> {
    Reader::<F, _>::with_options(bytes, options).collect()
}

/// Every game of `text`; the first failure is the error.
pub fn read_str<F: ReadFormat>(text: &str) -> Result<Vec<F::Game>, Error> {
    Reader::<F, _>::new(text.as_bytes()).collect()
}

/// The one game of `text` (its errors name no game number): none, or more than one, is an
/// error.
pub fn read_one<F: ReadFormat>(text: &str) -> Result<F::Game, Error> {
    let options = F::ReadOptions::default();
    let mut splitter = F::splitter(text.as_bytes(), &options);
    // The first game, and where its record starts (chunk, offset).
    let mut first: Option<(F::Game, u64, usize)> = None;
    let mut read = Vec::new();
    while let Some(mut chunk) = splitter.next_chunk()? {
        // Each record is read alone, so that a second game is placed where its record starts.
        let ranges = std::mem::take(&mut chunk.games);
        let oversized = std::mem::take(&mut chunk.oversized);
        for (index, range) in ranges.into_iter().enumerate() {
            chunk.games = vec![range.clone()];
            chunk.oversized = if oversized.contains(&index) {
                vec![0]
            } else {
                vec![]
            };
            F::read_chunk(&chunk, &options, &mut read);
            let in_record = read.len();
            for result in read.drain(..) {
                let game = result?;
                let Some((_, first_chunk, first_start)) = first else {
                    first = Some((game, chunk.first_byte, range.start));
                    continue;
                };
                // A record of several games (a whole text of several JSON values, a CSA
                // file of several records) is placed at its start; a second record at its own.
                let message = if (first_chunk, first_start) == (chunk.first_byte, range.start) {
                    format!("the text holds {in_record} games where one was expected")
                } else {
                    "a second game starts here, where one was expected".to_string()
                };
                let place = chunk.locator().place(range.start);
                return Err(Error::new(ErrorKind::Syntax, message).with_place(place));
            }
        }
    }
    first.map(|(game, _, _)| game).ok_or_else(|| {
        Error::new(ErrorKind::Syntax, "no game in the text").with_place(Place::locate(
            text.as_bytes(),
            0,
            1,
        ))
    })
}

/// Writes games into any `io::Write`, one at a time; a game that cannot be written is an
/// error and leaves nothing of itself in the output.
pub struct Writer<F: WriteFormat, W: io::Write> {
    format: F,
    output: W,
    buffer: Vec<u8>,
}

impl<F: WriteFormat, W: io::Write> Writer<F, W> {
    /// A writer with the format's default options.
    pub fn new(output: W) -> Self {
        Self::with_options(output, F::WriteOptions::default())
    }

    /// A writer with these options.
    pub fn with_options(output: W, options: F::WriteOptions) -> Self {
        Writer {
            format: F::new(options),
            output,
            buffer: Vec::new(),
        }
    }

    /// Writes one game.
    pub fn write(&mut self, game: &F::Game) -> Result<(), Error> {
        self.buffer.clear();
        self.format.write_game(game, &mut self.buffer)?;
        self.output.write_all(&self.buffer)?;
        Ok(())
    }

    /// Flushes the output and gives it back.
    pub fn into_inner(mut self) -> Result<W, Error> {
        self.output.flush()?;
        Ok(self.output)
    }
}

/// One game as text (UTF-8, whatever encoding the options ask of a [`Writer`]), with
/// `options`.
pub fn to_string<F: WriteFormat>(
    game: &F::Game,
    options: F::WriteOptions,
) -> Result<String, Error> {
    let mut out = Vec::new();
    F::new(options).write_text(game, &mut out)?;
    String::from_utf8(out).map_err(|_| Error::new(ErrorKind::Unwritable, "the text is not UTF-8"))
}

/// The text of a record, or an error at its first byte that is not UTF-8.
pub fn utf8(record: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(record).map_err(|e| {
        Error::new(ErrorKind::Encoding, "not UTF-8").with_place(Place::at_offset(e.valid_up_to()))
    })
}

/// The chunk size of the line splitters of game-per-line formats.
pub(crate) const LINE_CHUNK_BYTES: usize = 256 << 10;

/// The largest text a format of one text per stream (ICN, KIF, CSA, JKF …) reads whole.
pub(crate) const MAX_TEXT_BYTES: usize = 1 << 30;

/// Implements [`ReadFormat`] for a format of one record per line (`lines`) or one text per
/// stream (`whole`), whose records read as `body` says, and declares its verbs
/// ([`read_verbs`]): what every format module but PGN (which cuts its own chunks) shares.
macro_rules! read_format {
    ($format:ty, $game:ty, $name:literal, $options:ty, lines, |$record:ident, $opts:ident| $body:block) => {
        $crate::format::read_format!(@impl $format, $game, $name, $options, LineSplitter,
            $crate::format::LINE_CHUNK_BYTES, |$record, $opts| $body);
    };
    ($format:ty, $game:ty, $name:literal, $options:ty, whole, |$record:ident, $opts:ident| $body:block) => {
        $crate::format::read_format!(@impl $format, $game, $name, $options, WholeSplitter,
            $crate::format::MAX_TEXT_BYTES, |$record, $opts| $body);
    };
    (@impl $format:ty, $game:ty, $name:literal, $options:ty, $splitter:ident, $size:expr,
        |$record:ident, $opts:ident| $body:block) => {
        impl $crate::format::ReadFormat for $format {
            type Game = $game;
            type ReadOptions = $options;
            type Splitter<R: std::io::Read + Send> = $crate::chunk::$splitter<R>;

            fn splitter<R: std::io::Read + Send>(
                input: R,
                _: &$options,
            ) -> $crate::chunk::$splitter<R> {
                $crate::chunk::$splitter::new(input, $size)
            }

            #[allow(unused_variables)]
            fn read_record(
                $record: &[u8],
                $opts: &$options,
            ) -> Vec<Result<$game, $crate::Error>> {
                $body
            }
        }

        $crate::format::read_verbs!($format, $game, $name);
    };
}

/// Declares a format module's verbs over its [`ReadFormat`] type: `Reader`, `read_str`,
/// `read_one` (each documented with the format's name).
macro_rules! read_verbs {
    ($format:ty, $game:ty, $name:literal) => {
        #[doc = concat!("Reads the games of ", $name, " from any `Read`, one at a time: an iterator of `Result<game, Error>` (see [`crate::format::Reader`]).")]
        pub type Reader<R> = $crate::format::Reader<$format, R>;

        #[doc = concat!("Every game of a ", $name, " text; the first failure is the error.")]
        pub fn read_str(text: &str) -> Result<Vec<$game>, $crate::Error> {
            $crate::format::read_str::<$format>(text)
        }

        #[doc = concat!("The one game of a ", $name, " text (none, or more than one, is an error).")]
        pub fn read_one(text: &str) -> Result<$game, $crate::Error> {
            $crate::format::read_one::<$format>(text)
        }
    };
}

/// Declares a format module's verbs over its [`WriteFormat`] type: `Writer`, `to_string`,
/// `to_string_with`.
macro_rules! write_verbs {
    ($format:ty, $game:ty, $name:literal) => {
        #[doc = concat!("Writes games as ", $name, " into any `io::Write` (see [`crate::format::Writer`]).")]
        pub type Writer<W> = $crate::format::Writer<$format, W>;

        #[doc = concat!("One game as ", $name, ", with the default options.")]
        pub fn to_string(game: &$game) -> Result<String, $crate::Error> {
            $crate::format::to_string::<$format>(game, Default::default())
        }

        #[doc = concat!("One game as ", $name, ", with `options`.")]
        pub fn to_string_with(
            game: &$game,
            options: <$format as $crate::format::WriteFormat>::WriteOptions,
        ) -> Result<String, $crate::Error> {
            $crate::format::to_string::<$format>(game, options)
        }
    };
}

pub(crate) use {read_format, read_verbs, write_verbs};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_move_from_the_record_into_the_stream() {
        let text = b"x\nab\ncd";
        let mut locator = Locator::new(text, 1);
        let mut error = Error::new(ErrorKind::Syntax, "m").with_place(Place::at_line(2, 2));
        place_in_stream(&mut error, 2, &mut locator);
        assert_eq!(error.place, Some(Place::at_line(3, 2)));
        let mut error = Error::new(ErrorKind::Syntax, "m").with_place(Place {
            line: 1,
            column: 2,
            offset: Some(1),
        });
        place_in_stream(&mut error, 3, &mut locator);
        assert_eq!(
            error.place,
            Some(Place {
                line: 2,
                column: 3,
                offset: Some(4)
            })
        );
        let mut error = Error::at(1, "m");
        place_in_stream(&mut error, 5, &mut locator);
        assert_eq!(error.place.map(|p| (p.line, p.column)), Some((3, 2)));
    }
}
