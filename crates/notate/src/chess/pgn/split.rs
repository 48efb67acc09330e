//! Cutting a PGN byte stream into whole games, so they can be parsed on several cores.
//!
//! The scan knows just enough PGN to find where a game starts: a `[` at the start of a line
//! once movetext has begun (outside `{…}` and `;` comments, `%` escape lines), or a tag
//! block that follows another one after a blank line (tag-only games, as broadcasts export
//! them). It jumps from one byte that can change its state to the next, finding them 64 at
//! a time, so it runs far faster than parsing and never becomes the bottleneck of the
//! pipeline.

use std::io::{self, Read};
use std::ops::Range;

use super::find::{structural_bits, tag_left_open, BOM, MAX_TAG_LINES};
use super::line_games::{ends_with_result, is_blank_text, LineCuts};
use crate::chunk::Chunk;

/// Where a scan stands between calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// At the start of a line in the tag section (or before the first game).
    TagsLineStart,
    /// Inside a tag line.
    TagLine,
    /// At the start of a line after a tag section plus a blank line.
    TagsAfterBlank,
    /// Movetext, at the start of a line.
    MoveLineStart,
    /// Movetext, inside a line.
    Moves,
    /// Inside a `{ }` comment.
    BraceComment,
    /// Inside a `;` comment or a `%` line.
    LineComment,
}

/// How games are read: the limits that keep a hostile input from using unbounded memory,
/// and what is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// The largest game, in bytes (default 16 MiB), from its first byte to its last that is
    /// not blank; a larger one is an error for that game. The blanks after a game count for
    /// neither game, up to as many bytes again (the reader holds them until the next game
    /// starts).
    pub max_game_bytes: usize,
    /// The longest comment, in bytes (default 1 MiB).
    pub max_comment_bytes: usize,
    /// The longest tag line, in bytes (default 64 KiB). Also the longest line taken for the
    /// next game's tags inside a comment left open (a longer one would fail as a tag line),
    /// and how far back (at least 128 bytes) a game over `max_game_bytes` is looked at to
    /// find where it ends, as its rest is skipped without being kept.
    pub max_tag_bytes: usize,
    /// The deepest nesting of variations (default 64).
    pub max_variation_depth: usize,
    /// What is kept of each game (default: everything).
    pub keep: Keep,
    /// The letters the movetext names its pieces with (default: English, as PGN says).
    pub piece_letters: PieceLetters,
}

/// The letters a PGN names pieces with. PGN says English (`K Q R B N`); a file written in
/// another language is read on request, its moves kept in English.
///
/// ```
/// use notate::chess::pgn::{self, PieceLetters, ReadOptions};
/// let options = ReadOptions { piece_letters: PieceLetters::German, ..ReadOptions::default() };
/// let games = pgn::Reader::with_options(&b"1. e4 e5 2. Sf3 Sc6 3. Lb5 *"[..], options);
/// let game = games.into_iter().next().unwrap().unwrap();
/// assert_eq!(game.moves.plies[4].mv.san.to_string(), "Bb5");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PieceLetters {
    /// `K Q R B N`.
    #[default]
    English,
    /// `K D T L S` (also Danish, Norwegian and Swedish).
    German,
    /// `R D T F C`.
    French,
    /// `R D T A C` (also Italian).
    Spanish,
    /// `K D T L P`.
    Dutch,
    /// `R D T B C`.
    Portuguese,
    /// `K H W G S`.
    Polish,
    /// `K D V S J`.
    Czech,
    /// `K V B F H`.
    Hungarian,
}

impl PieceLetters {
    /// Every set, with the language codes that name it.
    pub const ALL: [(PieceLetters, &'static [&'static str]); 9] = [
        (PieceLetters::English, &["en"]),
        (PieceLetters::German, &["de", "da", "no", "sv"]),
        (PieceLetters::French, &["fr"]),
        (PieceLetters::Spanish, &["es", "it"]),
        (PieceLetters::Dutch, &["nl"]),
        (PieceLetters::Portuguese, &["pt"]),
        (PieceLetters::Polish, &["pl"]),
        (PieceLetters::Czech, &["cs"]),
        (PieceLetters::Hungarian, &["hu"]),
    ];

    /// The set a language code (`de`, `fr` …) names.
    ///
    /// ```
    /// use notate::chess::pgn::PieceLetters;
    /// assert_eq!(PieceLetters::from_code("it"), Some(PieceLetters::Spanish));
    /// ```
    pub fn from_code(code: &str) -> Option<PieceLetters> {
        Self::ALL
            .iter()
            .find(|(_, codes)| codes.contains(&code))
            .map(|(letters, _)| *letters)
    }

    /// The letters of king, queen, rook, bishop and knight.
    pub fn letters(self) -> [u8; 5] {
        match self {
            PieceLetters::English => *b"KQRBN",
            PieceLetters::German => *b"KDTLS",
            PieceLetters::French => *b"RDTFC",
            PieceLetters::Spanish => *b"RDTAC",
            PieceLetters::Dutch => *b"KDTLP",
            PieceLetters::Portuguese => *b"RDTBC",
            PieceLetters::Polish => *b"KHWGS",
            PieceLetters::Czech => *b"KDVSJ",
            PieceLetters::Hungarian => *b"KVBFH",
        }
    }

    /// The English letter of a byte of a move written in these letters (other bytes stay).
    pub(crate) fn to_english(self, byte: u8) -> u8 {
        match self.letters().iter().position(|&letter| letter == byte) {
            Some(index) => b"KQRBN"[index],
            None => byte,
        }
    }
}

/// What a PGN reader keeps of each game: less is faster. Whatever is not kept is still read
/// and checked (a comment for its closing brace and length, a tag for its syntax).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// Tags, moves, variations, NAGs and comments with their text.
    #[default]
    Everything,
    /// The same, but a comment holds only its parsed `[%clk]`, `[%emt]` and `[%eval]`:
    /// all a database loader needs, and reading allocates nothing per comment.
    Annotations,
    /// Tags, moves, variations and NAGs; no comments.
    Moves,
    /// Nothing: every move (variations too) is checked while reading, and the games come
    /// out with only the tags replay needs (`FEN`, `SetUp`, `Variant`), plus `White` and
    /// `Black` for a game with something to report (failed, too large, or with warnings).
    /// This is `notate check`, which then builds no move tree at all.
    Nothing,
}

impl ReadOptions {
    /// Whether comments are kept.
    pub(crate) fn keeps_comments(&self) -> bool {
        matches!(self.keep, Keep::Everything | Keep::Annotations)
    }

    /// Whether moves are only checked, not kept.
    pub(crate) fn validates_only(&self) -> bool {
        self.keep == Keep::Nothing
    }
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_game_bytes: 16 << 20,
            max_comment_bytes: 1 << 20,
            max_tag_bytes: 64 << 10,
            max_variation_depth: 64,
            keep: Keep::Everything,
            piece_letters: PieceLetters::English,
        }
    }
}

/// Reads a stream and hands out [`Chunk`]s of about `chunk_bytes` each.
///
/// ```
/// use notate::chess::pgn::GameSplitter;
/// let pgn = "[White \"a\"]\n\n1. e4 *\n\n[White \"b\"]\n\n1. d4 *\n";
/// let mut splitter = GameSplitter::new(pgn.as_bytes(), 1 << 20);
/// let chunk = splitter.next_chunk().unwrap().unwrap();
/// assert_eq!(chunk.games.len(), 2);
/// ```
pub struct GameSplitter<R> {
    input: R,
    buf: Vec<u8>,
    /// Bytes of `buf` already scanned.
    scanned: usize,
    state: State,
    /// Start of the game being scanned, in `buf`.
    game_start: usize,
    /// Start of the last game the scan found at a line's start: the stretch of text from
    /// there is looked through for games without tags on its lines once it is long (see
    /// [`GameSplitter::cut_stretch`]); `game_start` then moves on with each one found.
    stretch_start: usize,
    /// That look, once started.
    line_cuts: Option<LineCuts>,
    /// Whether the look found its next game past the limit of the game being scanned: no
    /// later one can be within it, so nothing more is cut until that game ends (each look
    /// would read the next game's first word again, at every comment of a long line).
    cut_past_limit: bool,
    /// Game boundaries found in `buf` so far.
    games: Vec<Range<usize>>,
    comment_start: usize,
    eof: bool,
    first_line: u64,
    first_byte: u64,
    /// Characters before `buf[0]` on its line (see [`Chunk::column_offset`]).
    column_offset: u64,
    chunk_bytes: usize,
    /// The size the next chunk is cut at: `chunk_bytes`, or less at first, doubled with each
    /// chunk (see [`GameSplitter::starting_at`]).
    target_bytes: usize,
    /// The smallest chunk: the first one's size (see [`GameSplitter::starting_at`]).
    least_bytes: usize,
    /// The input's length when known (see [`GameSplitter::input_bytes`]).
    input_bytes: Option<u64>,
    limits: ReadOptions,
    bom_checked: bool,
    skipping: bool,
    /// Games of the current chunk found longer than `max_game_bytes`.
    oversized: Vec<usize>,
    spare: Option<Vec<u8>>,
    /// A read that failed after games known to be whole were found (a game after them had
    /// started, or the read bytes end with their result, a line break and blanks): they go
    /// out first, then this. (The first failure ends a stream: `cut_at_pause` leaves the scan
    /// as at a stream's start, which a retried read would have to undo.)
    failed: Option<io::Error>,
    /// No `}` stands in the buffer before this offset.
    brace_free_until: usize,
    /// Whether the game being scanned has a tag line.
    has_tags: bool,
    /// Where a `;` comment or `%` line returns to.
    after_line_comment: State,
    /// The last run of comments and `%` lines (with only blanks between them) in the game
    /// being scanned: a result that cuts a game before `1.` stands before them (`1-0 {won}` ⏎
    /// `1. d4` is two games; `; won 1-0` ⏎ `1. e4` is a comment before the first move).
    notes_start: usize,
    notes_end: usize,
    /// Where a `{…}` comment that did not close in the buffer returns to.
    after_brace_comment: State,
    /// The search of that comment for the next game's tags (see [`tags_inside`]).
    tags_search: TagsInside,
    /// The 64-byte block of `buf` (its offset) whose structural bits are in `bits`; `None`
    /// once `buf` has changed.
    bits_block: Option<usize>,
    bits: u64,
    /// Where the tag line being scanned starts, and how many lines it has run on without a
    /// `]` (a tag split over lines, up to `MAX_TAG_LINES`, as the parser reads it).
    tag_line_start: usize,
    tag_open_lines: usize,
    /// Whether the scan stopped at a line start to see more bytes than have been read.
    needs_more: bool,
    /// Whether a pause of the input ends the game its bytes so far end with a result (see
    /// [`crate::chunk::Split::cut_at_pauses`]).
    cut_at_pauses: bool,
    /// Between games: at the stream's start, or a pause has just cut a game (see
    /// `cut_at_pause`). The blanks before the next game's first byte are no game's (a game
    /// starts at its first byte, for its size and the place of its errors).
    after_cut: bool,
    /// How far the bytes from the size limit of the game being scanned on are known to be
    /// blank (see [`GameSplitter::found_too_large`]); 0 for none.
    blank_until: usize,
    /// Old Mac files end their lines with a lone CR: each is made a LF as it is read (same
    /// length, so offsets and columns stay those of the file). Decided at the first line end.
    line_ends: LineEnds,
}

/// What ends the lines of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineEnds {
    /// Not known yet: no line end read so far.
    Unknown,
    /// LF or CR LF.
    Lf,
    /// A lone CR (classic Mac OS).
    Cr,
}

impl<R: Read + Send> crate::chunk::Split for GameSplitter<R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        GameSplitter::next_chunk(self)
    }

    fn recycle(&mut self, bytes: Vec<u8>) {
        GameSplitter::recycle(self, bytes)
    }

    fn cut_at_pauses(&mut self) {
        self.cut_at_pauses = true;
    }
}

impl<R: Read> GameSplitter<R> {
    /// A splitter with default [`ReadOptions`].
    pub fn new(input: R, chunk_bytes: usize) -> Self {
        Self::with_limits(input, chunk_bytes, ReadOptions::default())
    }

    /// A splitter with the given limits.
    pub fn with_limits(input: R, chunk_bytes: usize, limits: ReadOptions) -> Self {
        GameSplitter {
            input,
            buf: Vec::with_capacity(chunk_bytes + (64 << 10)),
            scanned: 0,
            state: State::TagsLineStart,
            game_start: 0,
            stretch_start: 0,
            line_cuts: None,
            cut_past_limit: false,
            games: Vec::new(),
            comment_start: 0,
            eof: false,
            first_line: 1,
            first_byte: 0,
            column_offset: 0,
            chunk_bytes: chunk_bytes.max(1),
            target_bytes: chunk_bytes.max(1),
            least_bytes: chunk_bytes.max(1),
            input_bytes: None,
            limits,
            bom_checked: false,
            skipping: false,
            oversized: Vec::new(),
            spare: None,
            failed: None,
            brace_free_until: 0,
            notes_start: 0,
            notes_end: 0,
            has_tags: false,
            after_line_comment: State::MoveLineStart,
            after_brace_comment: State::Moves,
            tags_search: TagsInside::at(0, limits.max_tag_bytes),
            bits_block: None,
            bits: 0,
            tag_line_start: 0,
            tag_open_lines: 0,
            needs_more: false,
            cut_at_pauses: false,
            after_cut: true,
            blank_until: 0,
            line_ends: LineEnds::Unknown,
        }
    }

    /// Cuts the first chunk at about `first_bytes`, and each next one at twice the size of
    /// the one before, up to the chunk size. Workers then start on the first games while the
    /// rest is cut: in chunks of 256 KiB a 1 MB file ran on one thread until the second
    /// chunk was cut, and took 2.7 times as long as its steady rate said.
    ///
    /// ```
    /// use notate::chess::pgn::GameSplitter;
    /// let pgn = "[White \"a\"]\n\n1. e4 *\n\n".repeat(1000);
    /// let mut splitter = GameSplitter::new(pgn.as_bytes(), 1 << 20).starting_at(100);
    /// let sizes: Vec<usize> = std::iter::from_fn(|| splitter.next_chunk().unwrap())
    ///     .map(|chunk| chunk.games.len())
    ///     .take(3)
    ///     .collect();
    /// assert_eq!(sizes, [5, 10, 19]); // 22 bytes a game: about 100, 200, 400 bytes a chunk
    /// ```
    pub fn starting_at(mut self, first_bytes: usize) -> Self {
        self.target_bytes = first_bytes.clamp(1, self.chunk_bytes);
        self.least_bytes = self.target_bytes;
        self
    }

    /// Says how long the input is (a file's length): the last chunks are then cut smaller,
    /// a quarter of what is left, down to the first chunk's size, so that the threads reading
    /// them finish together, not one reading a whole chunk while the others have nothing.
    /// A wrong length only changes the sizes of chunks.
    ///
    /// ```
    /// use notate::chess::pgn::GameSplitter;
    /// let pgn = "[White \"a\"]\n\n1. e4 *\n\n".repeat(1000); // 22 bytes a game
    /// let sizes = |mut splitter: GameSplitter<&[u8]>| -> Vec<usize> {
    ///     std::iter::from_fn(|| splitter.next_chunk().unwrap()).map(|c| c.bytes.len()).collect()
    /// };
    /// let even = sizes(GameSplitter::new(pgn.as_bytes(), 4400).starting_at(1000));
    /// assert_eq!(even, [1012, 2002, 4004, 4400, 4400, 4400, 1782]);
    /// let tapered = sizes(GameSplitter::new(pgn.as_bytes(), 4400).starting_at(1000).input_bytes(22_000));
    /// assert_eq!(tapered, [1012, 2002, 4004, 3762, 2816, 2112, 1584, 1188, 1012, 1012, 1012, 484]);
    /// ```
    pub fn input_bytes(mut self, total: u64) -> Self {
        self.input_bytes = Some(total);
        self
    }

    /// Gives back the bytes of a chunk that has been read, to hold a later chunk: buffers
    /// then circulate instead of being allocated by one thread and freed by another.
    pub fn recycle(&mut self, bytes: Vec<u8>) {
        if self.spare.is_none() {
            self.spare = Some(bytes);
        }
    }

    /// The next chunk, `None` at the end of the stream.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        if let Some(failed) = self.failed.take() {
            return Err(failed);
        }
        loop {
            if self.skipping {
                self.skip_oversized()?;
                continue;
            }
            let at_end = self.eof && self.scanned == self.buf.len();
            if at_end && self.state == State::BraceComment && self.comment_start >= self.game_start
            {
                // A comment never closed: the next game's tags inside it start that game,
                // even as the input's last line. (Once its game is handed out, the comment
                // is no longer in the buffer.)
                let inside = self.tags_search.find(&self.buf, self.buf.len(), true);
                if let Some(at) = inside {
                    self.scanned = at;
                    self.state = State::MoveLineStart;
                    continue;
                }
            }
            // A long stretch of games without tags on one line is cut as it is scanned, a
            // chunk's worth at a time; only up to a line in an open comment that may be the
            // next game's tags, where the stretch may yet end (whether a stretch is long
            // must not depend on how far the scan has read past its end).
            let pending = match self.state {
                State::BraceComment if !at_end => self.tags_search.pending(&self.buf),
                _ => None,
            };
            let end = pending.map_or(self.scanned, |start| start.min(self.scanned));
            self.cut_stretch(end, at_end, true);
            let enough = self.has_a_chunk();
            if enough || at_end {
                // The last game runs to the end only once every byte is scanned (a scan that
                // stopped at a chunk's worth, or went back into an unclosed comment, is not),
                // and the games cut from a long stretch before it have gone out.
                if at_end && !enough && self.game_start < self.buf.len() {
                    // (Between games, no game has begun: what is left is blank.)
                    let start = self.game_start;
                    if !self.after_cut && !is_blank_text(&self.buf[start..]) {
                        self.push_game(self.buf.len());
                    }
                    self.game_start = self.buf.len();
                }
                if !self.games.is_empty() {
                    let oversized = std::mem::take(&mut self.oversized);
                    return Ok(Some(self.take_chunk(oversized)));
                }
                if self.eof {
                    return Ok(None);
                }
            }
            if !self.bom_checked && !self.eof && self.buf.len() < 3 {
                // A byte-order mark is taken out before the first scan: a first read of
                // one or two bytes must not let the scan see half of one.
                self.fill()?;
                continue;
            }
            if self.scanned < self.buf.len() && (self.eof || !self.needs_more) {
                self.scan();
                continue;
            }
            // A game that may end within the limit, at a line in an open comment that may be
            // the next game's tags, is not too large until that line's end is read.
            // (`pending` above still holds: nothing was scanned since, and the input is not
            // at its end, or the chunk would have gone out.)
            let may_end = pending.is_some_and(|start| !self.too_large(self.game_start, start));
            if self.after_cut && self.scanned - self.game_start > BLANKS_HELD {
                // Blanks between games are no game's, and not held: a stream of nothing
                // else must not fill the memory. The games before them go out first.
                if !self.games.is_empty() {
                    let oversized = std::mem::take(&mut self.oversized);
                    return Ok(Some(self.take_chunk(oversized)));
                }
                self.discard(self.scanned);
            }
            // A game too large to hold, once the scan has passed what makes it so and
            // `cut_stretch` has found no next game before it: hand out its head (for the
            // error message, with the games before it) and skip the rest of it without
            // keeping it. (Not past the scan, which may have stopped at a line start to see
            // more bytes: what it has not looked at stays in the buffer for the skip.)
            if !self.after_cut && !may_end && self.found_too_large() {
                let start = self.game_start;
                let head_end = start + self.head_bytes();
                let mut oversized = std::mem::take(&mut self.oversized);
                oversized.push(self.games.len());
                self.games.push(start..head_end);
                // The head stays in the buffer for the skip: whether a game without tags
                // starts after the game looks back at its result, which may be in the head
                // (`1. e4 e5 *` and a long comment, then `1. d4`), as when the game is read
                // whole. Only the games before it are dropped.
                let chunk = Chunk {
                    first_line: self.first_line,
                    first_byte: self.first_byte,
                    column_offset: self.column_offset,
                    bytes: self.buf[..head_end].to_vec(),
                    games: std::mem::take(&mut self.games),
                    oversized,
                };
                self.discard(start);
                self.grow_target();
                self.stretch_start = 0;
                self.line_cuts = None;
                self.cut_past_limit = false;
                self.skipping = true;
                return Ok(Some(chunk));
            }
            if let Err(failed) = self.fill() {
                // The games read before the failure and known to be whole (a game after
                // them had started, or their result and a line break were read: see
                // `cut_at_pause`; a game after them may have been cut) are the stream's too:
                // they go out first, and the error with the next call. "Would block" is no
                // failure but a pause (a `Feed`'s input has no more yet): the games known to
                // be whole by a next one go out at once, not held for a chunk's worth more
                // (and, when told, the one its result ends), and the splitter goes on at the
                // next call.
                let pause = failed.kind() == io::ErrorKind::WouldBlock;
                if !pause || self.cut_at_pauses {
                    self.cut_at_pause();
                }
                if self.games.is_empty() {
                    return Err(failed);
                }
                if !pause {
                    self.failed = Some(failed);
                }
                let oversized = std::mem::take(&mut self.oversized);
                return Ok(Some(self.take_chunk(oversized)));
            }
        }
    }

    /// At a failed read, or a pause of a live stream (see [`Self::cut_at_pauses`]): ends the
    /// game being scanned where the bytes read so far end, if they end its movetext with a
    /// result (and comments after it) and a line break. A stream that breaks keeps that game
    /// (it would end no later than the comments after its result), and a live broadcast's
    /// game goes out as soon as it is sent, not when the next game starts (a single board's
    /// stream showed each position a move late). The scan goes on as at the start of a
    /// stream: what comes next is a new game's, so a comment sent after the pause goes with
    /// the next game, where the same bytes read at once would end this one with it.
    fn cut_at_pause(&mut self) {
        // (Never while skipping a game too large: that skip reads on its own.)
        let end = self.buf.len();
        let whole = self.state == State::MoveLineStart
            && self.scanned == end
            && !self.needs_more
            && !self.too_large(self.game_start, end)
            && ends_with_result(self.movetext_before(end));
        if whole {
            // As if the next game started here, its tags not begun.
            self.start_game_at(end);
            self.state = State::TagsLineStart;
            self.after_cut = true;
        }
    }

    /// Whether the games found so far make a chunk's worth.
    fn has_a_chunk(&self) -> bool {
        self.games
            .last()
            .is_some_and(|g| g.end >= self.target_bytes)
    }

    /// Drops the body of an oversized game, up to the start of the next game.
    fn skip_oversized(&mut self) -> io::Result<()> {
        if let Some(rest) = self.games.first().cloned() {
            // Games found after it in the same scan (one of them may be too large) stay.
            self.games.remove(0);
            for index in &mut self.oversized {
                *index -= 1;
            }
            self.discard(rest.end);
            self.skipping = false;
        } else if self.scanned < self.buf.len() && (self.eof || !self.needs_more) {
            self.scan();
        } else if self.eof {
            // A comment still open at the end: its last line may be the next game's tags, as
            // `next_chunk` looks for them at the end of a game read whole.
            if self.state == State::BraceComment
                && let Some(at) = self.tags_search.find(&self.buf, self.buf.len(), true)
            {
                self.scanned = at;
                self.state = State::MoveLineStart;
                return Ok(());
            }
            self.discard(self.buf.len());
            self.skipping = false;
        } else {
            // The last bytes scanned stay: whether a game without tags starts at the next
            // line's `1.` depends on how the movetext before it ends (`1-0 {won}` ⏎ `1. d4`),
            // which must not depend on where reads ended. Discarded in large steps, so that
            // small reads do not move those bytes each time.
            // (One byte more than a decision looks back: what an offset into the bytes
            // dropped saturates to stands before any decision's first byte.)
            let window = self.lookback_window();
            let keep_from = self.scanned.saturating_sub(window.saturating_add(1));
            if keep_from >= window {
                self.discard(keep_from);
            }
            self.fill()?;
        }
        Ok(())
    }

    /// Forgets the first `n` bytes of the buffer, keeping line and byte counts right.
    fn discard(&mut self, n: usize) {
        self.first_line += memchr::memchr_iter(b'\n', &self.buf[..n]).count() as u64;
        self.first_byte += n as u64;
        self.column_offset = chars_on_last_line(&self.buf[..n], self.column_offset);
        self.buf.drain(..n);
        self.forget(n);
        for g in &mut self.games {
            *g = g.start - n..g.end - n;
        }
    }

    /// Moves the offsets kept into the buffer once its first `n` bytes are gone: those in
    /// them (of a game being skipped) to the buffer's start, and the end of a run of notes
    /// in them to nowhere.
    fn forget(&mut self, n: usize) {
        self.bits_block = None;
        self.scanned -= n;
        self.game_start = self.game_start.saturating_sub(n);
        self.stretch_start = self.stretch_start.saturating_sub(n);
        self.blank_until = self.blank_until.saturating_sub(n);
        if let Some(cuts) = &mut self.line_cuts {
            cuts.forget(n);
        }
        self.comment_start = self.comment_start.saturating_sub(n);
        self.tags_search.forget(n);
        self.tag_line_start = self.tag_line_start.saturating_sub(n);
        self.brace_free_until = self.brace_free_until.saturating_sub(n);
        self.notes_start = self.notes_start.saturating_sub(n);
        // A run of notes that ended in the bytes dropped (the head of a game too large, or
        // what its skip dropped) no longer ends anything: past the buffer, it is never "just
        // before" a line (`just_after_notes`).
        self.notes_end = if self.notes_end < n {
            usize::MAX
        } else {
            self.notes_end - n
        };
    }

    fn fill(&mut self) -> io::Result<()> {
        let old = self.buf.len();
        // Reads of at least 256 KiB go past the input's BufReader without a copy.
        let want = (256 << 10).max(self.chunk_bytes / 4);
        self.buf.resize(old + want, 0);
        let n = loop {
            match self.input.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(old + n);
        self.bits_block = None;
        self.needs_more = false;
        if n == 0 {
            self.eof = true;
        }
        self.mend_line_ends(old);
        if !self.bom_checked && self.buf.len() >= 3 {
            self.bom_checked = true;
            if self.buf.starts_with(BOM) {
                // The BOM is taken out before the first scan, and counted as bytes of the
                // stream before the first chunk: offsets stay the file's, and line 1's
                // columns count from the first character after it, as an editor shows them
                // (blanked, it counted three columns); a `%` line right after it escapes.
                debug_assert_eq!(self.scanned, 0);
                self.buf.drain(..BOM.len());
                self.first_byte += BOM.len() as u64;
            }
        }
        Ok(())
    }

    /// Makes the lone CRs of a classic Mac file LFs, from `from` on (the stream's first line
    /// end decides whether it is one).
    fn mend_line_ends(&mut self, from: usize) {
        // A CR left undecided at the end of the last read is looked at again.
        let from = from.saturating_sub(1);
        if self.line_ends == LineEnds::Unknown {
            let Some(at) = memchr::memchr2(b'\n', b'\r', &self.buf[from..]).map(|n| from + n)
            else {
                return;
            };
            self.line_ends = match self.buf.get(at + 1) {
                _ if self.buf[at] == b'\n' => LineEnds::Lf,
                Some(b'\n') => LineEnds::Lf,
                Some(_) => LineEnds::Cr,
                None if self.eof => LineEnds::Cr,
                None => {
                    // A CR as the last byte read may be the first half of a CR LF: the scan
                    // waits for the next read to decide.
                    self.needs_more = true;
                    return;
                }
            };
        }
        if self.line_ends == LineEnds::Cr {
            let mut at = from;
            while let Some(n) = memchr::memchr(b'\r', &self.buf[at..]) {
                self.buf[at + n] = b'\n';
                at += n + 1;
            }
        }
    }

    fn take_chunk(&mut self, oversized: Vec<usize>) -> Chunk {
        let end = self.games.last().map_or(0, |g| g.end);
        let bytes = if self.buf.len() - end > end.max(self.chunk_bytes) {
            // More left than handed out (a line of many games, cut a chunk at a time): the
            // chunk takes a copy of its bytes, not the large buffer (chunks waiting for a
            // worker each held one).
            let bytes = self.buf[..end].to_vec();
            self.buf.drain(..end);
            bytes
        } else {
            let mut rest = self
                .spare
                .take()
                .unwrap_or_else(|| Vec::with_capacity(self.chunk_bytes + (64 << 10)));
            rest.clear();
            rest.extend_from_slice(&self.buf[end..]);
            self.buf.truncate(end);
            std::mem::replace(&mut self.buf, rest)
        };
        let games = std::mem::take(&mut self.games);
        let chunk = Chunk {
            first_line: self.first_line,
            first_byte: self.first_byte,
            column_offset: self.column_offset,
            bytes,
            games,
            oversized,
        };
        self.first_line += memchr::memchr_iter(b'\n', &chunk.bytes).count() as u64;
        self.first_byte += chunk.bytes.len() as u64;
        self.column_offset = chars_on_last_line(&chunk.bytes, self.column_offset);
        self.grow_target();
        self.forget(end);
        chunk
    }

    /// After a chunk has gone out: the next is cut at twice its size, up to the chunk size,
    /// or less near the end of an input whose length is known (see [`Self::input_bytes`]).
    fn grow_target(&mut self) {
        self.target_bytes = (self.target_bytes * 2).min(self.chunk_bytes);
        if let Some(total) = self.input_bytes {
            let left = usize::try_from(total.saturating_sub(self.first_byte)).unwrap_or(usize::MAX);
            self.target_bytes = self.target_bytes.min((left / 4).max(self.least_bytes));
        }
    }

    /// Records the game being scanned, whole, as ending at `end`: the games cut from it if it
    /// is long (see [`Self::cut_stretch`]); one over the size limit is kept as its head only
    /// (for the error).
    fn push_game(&mut self, end: usize) {
        // What is left of a game too large, skipped whole.
        if self.skipping_rest() {
            self.games.push(self.game_start..end);
            return;
        }
        self.cut_stretch(end, true, false);
        let start = self.game_start;
        if self.too_large(start, end) {
            self.oversized.push(self.games.len());
            self.games.push(start..start + self.head_bytes());
        } else {
            self.games.push(start..end);
        }
    }

    /// Records the games without tags that start on the lines of the stretch being scanned,
    /// up to `end` (the stretch ends there when `whole`), once the stretch is longer than
    /// [`LONG_STRETCH`] (or a quarter of the size limit): each game within the limit (one
    /// over it takes the rest of the stretch, for `push_game` or the skip to find too
    /// large), and, when `by_chunks`, up to a chunk's worth. The scan looks for a next game
    /// only at line starts, as it jumps between comments and line ends: without this, a line
    /// of a million games was one range, whose games were all read into memory at once.
    /// Which games are cut depends only on the bytes: every start found in a stretch longer
    /// than that, whenever its bytes are read.
    fn cut_stretch(&mut self, end: usize, whole: bool, by_chunks: bool) {
        if !self.may_cut(end) {
            return;
        }
        // (Where no game has been cut from the stretch yet: at its start, a line's.)
        let mut cuts = self
            .line_cuts
            .take()
            .unwrap_or_else(|| LineCuts::at(self.game_start, true));
        let limit_end = self.game_start.saturating_add(self.limits.max_game_bytes);
        while let Some(at) = cuts.next(&self.buf[..end], whole) {
            // A game within the limit, its next game's first word found before the scan
            // calls the game too large (see `found_too_large`: a few bytes past its first
            // byte past the limit, the blanks before it aside, whatever else has been read,
            // so that whether a game is too large never depends on the reads); the word ends
            // there, before the byte that ends it (which `next` needed to see).
            let within = !self.too_large(self.game_start, at)
                && cuts.word_end() < at.max(limit_end).saturating_add(LOOK_PAST_LIMIT);
            if !within {
                self.cut_past_limit = true;
                break;
            }
            if by_chunks && self.has_a_chunk() {
                break;
            }
            cuts.take();
            self.games.push(self.game_start..at);
            self.new_game_at(at);
        }
        self.line_cuts = Some(cuts);
    }

    /// Whether [`Self::cut_stretch`] up to `end` has anything to look at: a stretch long
    /// enough (or already being looked through) whose next game is not known to be past the
    /// limit. Cheap, for the scan's hot path (see [`Self::settle`]).
    #[inline]
    fn may_cut(&self, end: usize) -> bool {
        let long = (self.limits.max_game_bytes / 4).clamp(1, LONG_STRETCH);
        !self.cut_past_limit
            && (self.line_cuts.is_some() || end.saturating_sub(self.stretch_start) > long)
    }

    /// A next game starts at `at`, the one before it pushed.
    fn new_game_at(&mut self, at: usize) {
        self.game_start = at;
        self.blank_until = 0;
        self.cut_past_limit = false;
        self.has_tags = false;
        if self.notes_start < at {
            self.notes_start = at;
            self.notes_end = at;
        }
    }

    /// The scan found a next game at a line's start: the one before it ends here.
    fn start_game_at(&mut self, at: usize) {
        // A skip ends at the next game even when what is left of the game it skips is blank
        // (its head went out up to the blanks before the next game).
        let skipped_rest = self.skipping_rest();
        if skipped_rest || !is_blank_text(&self.buf[self.game_start..at]) {
            self.push_game(at);
            self.new_game_at(at);
            self.stretch_start = at;
            self.line_cuts = None;
        }
    }

    /// Whether the scan is in the rest of a game too large, whose head went out (not yet in
    /// the games after it, which the same scan may reach).
    #[inline]
    fn skipping_rest(&self) -> bool {
        self.skipping && self.games.is_empty()
    }

    /// How many bytes of a game too large go out with its error: its start (for the tags
    /// the message names the game by), at most the limit (but a byte, for a limit of 0).
    fn head_bytes(&self) -> usize {
        HEAD_BYTES.min(self.limits.max_game_bytes).max(1)
    }

    /// How far back a decision in a game past the size limit looks (see
    /// [`Self::lookback_from`]): the longest tag line and a byte, so that a tag line in a
    /// comment (see [`TagsInside`]) is never judged without its start; at least
    /// [`MIN_LOOKBACK`].
    fn lookback_window(&self) -> usize {
        self.limits
            .max_tag_bytes
            .max(MIN_LOOKBACK)
            .saturating_add(1)
    }

    /// The first byte that a decision at `at` looks back to (whether a result ends the
    /// movetext before a `1.`, whether a tag line was left open). Within the size limit, the
    /// game's start. In a game past the limit (see [`Self::too_large`]), whose rest the skip
    /// drops as it scans (keeping the last [`Self::lookback_window`] bytes), at most that far
    /// back: the same bytes whether the game is read whole (its end found in one read) or
    /// skipped, so where it ends never depends on the reads.
    #[inline]
    fn lookback_from(&self, at: usize) -> usize {
        let start = self.game_start;
        if self.skipping_rest() || self.too_large(start, at) {
            // (While skipping, `game_start` is the game's start, or 0 once bytes are dropped.)
            start.max(at.saturating_sub(self.lookback_window()))
        } else {
            start
        }
    }

    /// Whether a game from `start` to `end` (where the next one starts) is over the size
    /// limit: its bytes up to the last one that is not blank (the blanks after a game are
    /// between games, as those before it are: a game starts at its first byte), or, blanks
    /// and all, over twice the limit (the buffer holds them until the next game starts).
    #[inline]
    fn too_large(&self, start: usize, end: usize) -> bool {
        let limit = self.limits.max_game_bytes;
        let bytes = end.saturating_sub(start);
        bytes > limit
            && (bytes > limit.saturating_mul(2)
                || self.buf[start..end]
                    .iter()
                    .rposition(|&b| !is_blank(b))
                    .is_some_and(|last| last >= limit))
    }

    /// Whether the scan has passed what makes the game being scanned too large (see
    /// [`Self::too_large`]), whatever comes next: a byte that is not blank past the limit,
    /// and [`LOOK_PAST_LIMIT`] bytes from it (enough to have told whether it starts the next
    /// game: a `1.` and the byte after it); or twice the limit and as many bytes more, the
    /// next game not begun.
    fn found_too_large(&mut self) -> bool {
        let start = self.game_start;
        let limit = self.limits.max_game_bytes;
        let scanned = self.scanned;
        if scanned - start >= limit.saturating_mul(2).saturating_add(LOOK_PAST_LIMIT) {
            return true;
        }
        // (The blanks from the limit on, looked at once: a long run of them is read in
        // many reads.)
        let from = self.blank_until.max(start.saturating_add(limit));
        if scanned <= from {
            return false;
        }
        match self.buf[from..scanned].iter().position(|&b| !is_blank(b)) {
            Some(n) => scanned - (from + n) >= LOOK_PAST_LIMIT,
            None => {
                self.blank_until = scanned;
                false
            }
        }
    }

    /// Whether only blanks stand between the game's last run of notes and `at` (a run within
    /// what a decision at `at` looks back at: see [`Self::lookback_from`]).
    #[inline]
    fn just_after_notes(&self, at: usize) -> bool {
        self.notes_end >= self.lookback_from(at)
            && self.buf.get(self.notes_end..at).is_some_and(is_blank_text)
    }

    /// Before a decision at `at` that looks back into the game (whether a result ends its
    /// movetext before a `1.`, whether notes run up to `at`, whether a tag line was left
    /// open): takes the games cut from a long stretch up to `at` (see [`Self::cut_stretch`]),
    /// which are otherwise taken between scans, so that the decision knows where its game
    /// starts however much one scan covered. (Nothing to do while the stretch is short, the
    /// common case, or once its next game is past the limit.) The games are taken whether
    /// or not a chunk's worth is there already: a chunk of such a line may hold up to the
    /// scan's one read more than its size.
    #[inline]
    fn settle(&mut self, at: usize) {
        if self.may_cut(at) && !self.skipping_rest() {
            self.cut_stretch(at, false, false);
        }
    }

    /// A comment or `%` line starts at `at`: it goes on the run of notes before it, if only
    /// blanks stand between, or starts a new one.
    #[inline]
    fn note_starts(&mut self, at: usize) {
        self.settle(at);
        if !self.just_after_notes(at) {
            self.notes_start = at;
        }
    }

    /// The game's text before `at` (as far back as a decision looks: see
    /// [`Self::lookback_from`]), without the comments and `%` lines that end it.
    fn movetext_before(&self, at: usize) -> &[u8] {
        let from = self.lookback_from(at);
        let end = if self.just_after_notes(at) {
            self.notes_start.max(from)
        } else {
            at
        };
        &self.buf[from..end]
    }

    /// The first byte at or after `from` that is `{`, `}`, `;` or a newline and that
    /// `wanted` accepts; `None` when the buffer has none.
    #[inline]
    fn next_of(&mut self, from: usize, wanted: impl Fn(u8) -> bool) -> Option<usize> {
        let mut block = from & !63;
        let mut bits = self.block_bits(block)? & (!0u64 << (from - block));
        loop {
            while bits != 0 {
                let at = block + bits.trailing_zeros() as usize;
                if wanted(self.buf[at]) {
                    return Some(at);
                }
                bits &= bits - 1;
            }
            block += 64;
            bits = self.block_bits(block)?;
        }
    }

    /// The structural bits of the 64 bytes of `buf` from `block` (fewer at the end of the
    /// buffer), kept for the next call; `None` past the end.
    #[inline]
    fn block_bits(&mut self, block: usize) -> Option<u64> {
        if self.bits_block == Some(block) {
            return Some(self.bits);
        }
        let bytes = self.buf.get(block..)?;
        if bytes.is_empty() {
            return None;
        }
        self.bits = match bytes.first_chunk::<64>() {
            Some(full) => structural_bits(full),
            None => {
                let mut padded = [0u8; 64];
                padded[..bytes.len()].copy_from_slice(bytes);
                structural_bits(&padded)
            }
        };
        self.bits_block = Some(block);
        Some(self.bits)
    }

    /// Scans what has been read, up to where a line or token might continue in unread bytes.
    fn scan(&mut self) {
        let buf_len = self.buf.len();
        let mut i = self.scanned;
        while i < buf_len {
            match self.state {
                State::TagsLineStart | State::TagsAfterBlank | State::MoveLineStart => {
                    let b = self.buf[i];
                    if self.after_cut {
                        match b {
                            white_space!() => {}
                            // A byte-order mark is blank too (or may be: more bytes tell).
                            0xEF if self.buf[i..].starts_with(BOM)
                                || (i + 3 > buf_len && !self.eof) => {}
                            _ => {
                                // The next game starts at its first byte, as it does after
                                // a game read at once.
                                self.after_cut = false;
                                self.new_game_at(i);
                                self.stretch_start = i;
                            }
                        }
                    }
                    match b {
                        blank_in_line!() => i += 1,
                        // A byte-order mark inside the stream (files joined with `cat`) is
                        // white space, as the parser reads it.
                        0xEF if i + 3 > buf_len && !self.eof => {
                            self.needs_more = true;
                            break;
                        }
                        0xEF if self.buf[i..].starts_with(BOM) => i += 3,
                        b'\n' => {
                            self.tag_open_lines = 0;
                            // At a line start in the tag section, so this line was blank.
                            if self.state == State::TagsLineStart && self.has_tags {
                                self.state = State::TagsAfterBlank;
                            }
                            i += 1;
                        }
                        b'[' => {
                            if self.state != State::TagsLineStart {
                                self.start_game_at(i);
                            }
                            self.has_tags = true;
                            self.state = State::TagLine;
                            self.tag_line_start = i;
                            self.tag_open_lines = 0;
                            i += 1;
                            if self.has_a_chunk() {
                                // A chunk's worth: stop here (a read may bring many chunks).
                                break;
                            }
                        }
                        _ if self.state == State::TagsLineStart && self.tag_open_lines > 0 => {
                            // The rest of a tag that its first line left open.
                            self.state = State::TagLine;
                        }
                        b';' | b'{'
                            if self.state == State::TagsLineStart
                                && (b == b';' || !self.has_tags) =>
                        {
                            // A comment before a game's tags (`; exported by …` at the top of
                            // a file) belongs to the game that follows it, and a `;` line
                            // among its tags does not end them (python-chess reads past it).
                            self.note_starts(i);
                            if b == b';' {
                                self.after_line_comment = State::TagsLineStart;
                                self.state = State::LineComment;
                            } else {
                                self.comment_start = i;
                                self.tags_search = TagsInside::at(i + 1, self.limits.max_tag_bytes);
                                self.after_brace_comment = State::TagsLineStart;
                                self.state = State::BraceComment;
                            }
                            i += 1;
                        }
                        b'%' => {
                            self.note_starts(i);
                            self.after_line_comment = if self.state == State::MoveLineStart {
                                State::MoveLineStart
                            } else {
                                State::TagsLineStart
                            };
                            self.state = State::LineComment;
                            i += 1;
                        }
                        b'1' if self.state == State::MoveLineStart => {
                            // Games without tags: one that ends with its result and a next
                            // that starts with `1.` are cut apart, so that a file of them
                            // streams in chunks like any other.
                            if i + 2 >= buf_len && !self.eof {
                                self.needs_more = true;
                                break;
                            }
                            self.settle(i);
                            if self.buf.get(i + 1) == Some(&b'.')
                                && self.buf.get(i + 2) != Some(&b'.')
                                && ends_with_result(self.movetext_before(i))
                            {
                                self.start_game_at(i);
                                if self.has_a_chunk() {
                                    self.state = State::Moves;
                                    i += 1;
                                    break;
                                }
                            }
                            self.state = State::Moves;
                        }
                        _ => {
                            self.state = State::Moves;
                        }
                    }
                }
                State::TagLine => match self.next_of(i, |b| b == b'\n') {
                    Some(at) => {
                        self.settle(at);
                        let start = self.tag_line_start.max(self.lookback_from(at)).min(at);
                        self.tag_open_lines = if tag_left_open(&self.buf[start..at])
                            && self.tag_open_lines < MAX_TAG_LINES
                        {
                            self.tag_open_lines + 1
                        } else {
                            0
                        };
                        i = at + 1;
                        self.state = State::TagsLineStart;
                    }
                    None => i = buf_len,
                },
                State::Moves => match self.next_of(i, |b| b != b'}') {
                    Some(at) => {
                        i = at;
                        match self.buf[i] {
                            b'{' => {
                                self.note_starts(i);
                                self.comment_start = i;
                                // Most comments close within the buffer: stay in the moves
                                // (a lichess game has one comment per move).
                                let from = (i + 1).max(self.brace_free_until);
                                if let Some(close) = self.next_of(from, |b| b == b'}') {
                                    match tags_inside(
                                        &self.buf[i + 1..close],
                                        self.limits.max_tag_bytes,
                                    ) {
                                        // An unclosed `{` before the next game's tags: that
                                        // game starts at its tags (see `tags_inside`).
                                        Some(at) => {
                                            i += at;
                                            self.state = State::MoveLineStart;
                                        }
                                        None => {
                                            i = close;
                                            self.notes_end = close + 1;
                                        }
                                    }
                                    // No `}` before it: a next `{` before it (after tags
                                    // inside this one) does not search those bytes again.
                                    self.brace_free_until = self.brace_free_until.max(close);
                                } else {
                                    self.brace_free_until = buf_len;
                                    self.tags_search =
                                        TagsInside::at(i + 1, self.limits.max_tag_bytes);
                                    self.after_brace_comment = State::Moves;
                                    self.state = State::BraceComment;
                                }
                            }
                            b';' => {
                                self.note_starts(i);
                                self.after_line_comment = State::MoveLineStart;
                                self.state = State::LineComment;
                            }
                            _ => self.state = State::MoveLineStart,
                        }
                        i += 1;
                    }
                    None => i = buf_len,
                },
                State::BraceComment => {
                    // Bytes before `brace_free_until` are known to hold no `}`: never search
                    // them twice (an input full of `{` must still scan in linear time).
                    let from = i.max(self.brace_free_until);
                    let close = self.next_of(from, |b| b == b'}');
                    if close.is_none() {
                        self.brace_free_until = buf_len;
                    }
                    // The next game's tags inside (a comment left open before them) end it
                    // before its `}`; the search goes on from the last read.
                    let end = close.unwrap_or(buf_len);
                    let cut = self.tags_search.find(&self.buf, end, close.is_some());
                    // (A comment still open at the end is looked into by `next_chunk`.)
                    match (cut, close) {
                        (Some(at), _) => {
                            i = at;
                            self.state = State::MoveLineStart;
                        }
                        (None, Some(at)) => {
                            i = at + 1;
                            self.notes_end = i;
                            self.state = self.after_brace_comment;
                        }
                        (None, None) => {
                            // A comment longer than `max_comment_bytes` is still read to its
                            // end, which the game's parser then reports: only where the next
                            // game starts is the splitter's to find. The buffer holds it up
                            // to `max_game_bytes`, like any game.
                            i = buf_len;
                        }
                    }
                }
                State::LineComment => match self.next_of(i, |b| b == b'\n') {
                    Some(at) => {
                        i = at + 1;
                        self.notes_end = i;
                        self.state = self.after_line_comment;
                    }
                    None => i = buf_len,
                },
            }
        }
        self.scanned = i;
    }
}

/// Where, in a comment's text, a tag line starts after a blank line (`⏎⏎[Event "b"]`): a
/// comment left unclosed before the next game, which would otherwise swallow that game (and
/// every game up to the next `}`). A comment that holds a blank line and then a whole tag
/// line, `[Name "value"]`, is practically never meant so. Each byte is looked at once or
/// twice: a comment of a million newlines is no slower than any other.
pub(super) fn tags_inside(text: &[u8], longest_tag: usize) -> Option<usize> {
    TagsInside::at(0, longest_tag).find(text, text.len(), true)
}

/// The search of [`tags_inside`], fed a comment's bytes as they are read: it goes on where
/// the last call stopped, so a comment cut into many reads is still looked at once (a search
/// from the comment's start at every read of a long one would take quadratic time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TagsInside {
    /// How far the text has been looked at (an offset in the buffer, as below).
    pos: usize,
    step: TagsStep,
    /// The longest line taken for a tag line (the reading's longest tag line): the splitter
    /// waits for the end of a shorter one before it calls a game too large.
    longest: usize,
}

/// Where [`TagsInside`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagsStep {
    /// Inside a line with text: only its end can start a blank line.
    InLine,
    /// At a line's start, past its spaces and tabs: a line end here ends a blank line.
    LineStart,
    /// After a blank line, past the white space that follows it.
    AfterBlank,
    /// In the first line after a blank line, which starts at this offset: a tag line?
    Candidate(usize),
}

impl TagsInside {
    /// A search of a comment whose text starts at `start`, for tag lines of at most
    /// `longest` bytes.
    fn at(start: usize, longest: usize) -> Self {
        TagsInside {
            pos: start,
            step: TagsStep::InLine,
            longest,
        }
    }

    /// Looks at `buf[self.pos..end]`, the comment's text read since the last call; `whole`
    /// when the text ends at `end` (a `}`, or the input's end), so that its last line is
    /// whole. The offset of the tag line in `buf`, if one starts there.
    fn find(&mut self, buf: &[u8], end: usize, whole: bool) -> Option<usize> {
        let mut i = self.pos.min(end);
        while i < end {
            match self.step {
                TagsStep::InLine => match memchr::memchr(b'\n', &buf[i..end]) {
                    Some(n) => {
                        i += n + 1;
                        self.step = TagsStep::LineStart;
                    }
                    None => i = end,
                },
                TagsStep::LineStart => match buf[i] {
                    b' ' | b'\t' | b'\r' => i += 1,
                    b'\n' => {
                        i += 1;
                        self.step = TagsStep::AfterBlank;
                    }
                    _ => self.step = TagsStep::InLine,
                },
                TagsStep::AfterBlank if buf[i].is_ascii_whitespace() => i += 1,
                TagsStep::AfterBlank => self.step = TagsStep::Candidate(i),
                TagsStep::Candidate(start) => match memchr::memchr(b'\n', &buf[i..end]) {
                    Some(n) => {
                        if i + n - start <= self.longest && is_tag_line(&buf[start..i + n]) {
                            return Some(start);
                        }
                        i += n + 1;
                        self.step = TagsStep::LineStart;
                    }
                    None => i = end,
                },
            }
        }
        self.pos = i;
        match self.step {
            TagsStep::Candidate(start)
                if whole && end - start <= self.longest && is_tag_line(&buf[start..end]) =>
            {
                Some(start)
            }
            _ => None,
        }
    }

    /// Where a line that may be the next game's tags starts, while it is not judged yet: its
    /// end not read, or read but not yet looked at (`buf` may hold bytes past the search),
    /// and the line no longer than a tag line can be.
    fn pending(&self, buf: &[u8]) -> Option<usize> {
        match self.step {
            TagsStep::Candidate(start) => {
                // (The line has no end before `pos`, where the search stands.)
                let end = buf
                    .len()
                    .min(start.saturating_add(self.longest).saturating_add(1));
                let unread = buf.get(self.pos.max(start)..end).unwrap_or_default();
                (end - start <= self.longest || unread.contains(&b'\n')).then_some(start)
            }
            _ => None,
        }
    }

    /// The same search once the buffer's first `n` bytes are gone.
    /// A line whose start is gone (the skip of a game too large drops bytes) can no longer
    /// be judged from its start: it is taken for a line of text, not a tag line.
    fn forget(&mut self, n: usize) {
        self.pos = self.pos.saturating_sub(n);
        self.step = match self.step {
            TagsStep::Candidate(start) if start < n => TagsStep::InLine,
            TagsStep::Candidate(start) => TagsStep::Candidate(start - n),
            step => step,
        };
    }
}

/// Whether `text` opens with a whole tag line: `[Name "value"]`, then the line's end.
fn is_tag_line(text: &[u8]) -> bool {
    let line = &text[..memchr::memchr(b'\n', text).unwrap_or(text.len())];
    let Some(inner) = line
        .trim_ascii_end()
        .strip_prefix(b"[")
        .and_then(|l| l.strip_suffix(b"\"]"))
    else {
        return false;
    };
    let name = inner
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let rest = &inner[name..];
    let blanks = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    inner.first().is_some_and(u8::is_ascii_alphabetic)
        && blanks > 0
        && rest.get(blanks) == Some(&b'"')
}

/// The characters after the last line feed of `bytes`, or, when it has none, those of
/// `bytes` counted on from `before` (the characters before `bytes[0]` on its line): where
/// the columns of what follows `bytes` count from. (Characters as [`crate::error::Locator`]
/// counts them: bytes that do not continue a UTF-8 sequence.)
fn chars_on_last_line(bytes: &[u8], before: u64) -> u64 {
    let (line, before) = match memchr::memrchr(b'\n', bytes) {
        Some(at) => (&bytes[at + 1..], 0),
        None => (bytes, before),
    };
    before + line.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64
}

/// Whether a byte is blank for a game's size (see [`GameSplitter::too_large`]): white space,
/// as the scan skips at a line's start, and the bytes of a byte-order mark (files joined with
/// `cat` have one before the next file's first game), each on its own, so that the first
/// byte past the limit that is not blank (looking forward) and the last byte of a game
/// (looking back) are found alike. (A game that ends with a character whose last byte is
/// one of those, `»`, is measured a byte short.)
fn is_blank(b: u8) -> bool {
    matches!(b, white_space!() | 0xEF | 0xBB | 0xBF)
}

/// The most blanks between games held before they are dropped (see
/// [`GameSplitter::next_chunk`]).
const BLANKS_HELD: usize = 64 << 10;

/// The most bytes of a game too large that go out with its error (see
/// [`GameSplitter::head_bytes`]).
const HEAD_BYTES: usize = 512;

/// The least a decision in a game too large looks back (see
/// [`GameSplitter::lookback_window`]), whatever the longest tag line: a result and the
/// comments after it.
const MIN_LOOKBACK: usize = 128;

/// How far past its first byte past the size limit that is not blank a game is scanned
/// before it is called too large: a game at the limit, then the next one's `1.` and the
/// blank after it.
const LOOK_PAST_LIMIT: usize = 16;

/// How long a stretch of text without a game found at a line's start grows before it is
/// looked through for games without tags on its lines (see [`GameSplitter::cut_stretch`]):
/// the bytes of games one range can hold. No real game's movetext comes near.
const LONG_STRETCH: usize = 64 << 10;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The default longest tag line.
    const LONG: usize = 64 << 10;

    /// `tags_inside` said plainly: the first whole tag line whose white space before it
    /// holds a blank line.
    fn plain_tags_inside(text: &[u8]) -> Option<usize> {
        (0..text.len()).find(|&q| {
            let run = text[..q]
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            let before = &text[q - run..q];
            let blank = before.iter().enumerate().any(|(k, &b)| {
                let next = before[k + 1..]
                    .iter()
                    .find(|b| !matches!(b, b' ' | b'\t' | b'\r'));
                b == b'\n' && next == Some(&b'\n')
            });
            !text[q].is_ascii_whitespace() && blank && is_tag_line(&text[q..])
        })
    }

    #[test]
    fn tags_inside_finds_a_tag_line_after_a_blank_line() {
        let text = b"note\n \r\n\t[Event \"b\"]\n\n1. d4";
        assert_eq!(tags_inside(text, LONG), Some(9));
        assert_eq!(tags_inside(b"note\n[Event \"b\"]\n", LONG), None);
        assert_eq!(tags_inside(b"note\n\n[Event b]\n", LONG), None);
        // Read a byte at a time: found once the line's end is read, not before.
        let mut search = TagsInside::at(0, LONG);
        let found: Vec<_> = (0..=text.len())
            .map(|end| search.find(text, end, false))
            .collect();
        assert_eq!(found.iter().position(Option::is_some), Some(21));
        assert_eq!(found[21], Some(9));
    }

    #[test]
    fn a_tag_line_whose_start_is_forgotten_is_not_one() {
        let text = b"x\n\n[A \"[A \"b\"]\n";
        let mut search = TagsInside::at(0, LONG);
        assert_eq!(search.find(text, 6, false), None);
        // The bytes before the second `[` dropped: `[A "b"]` is the end of a line, not a
        // tag line.
        search.forget(7);
        assert_eq!(search.find(&text[7..], text.len() - 7, true), None);
    }

    proptest! {
        #[test]
        fn tags_inside_read_in_pieces_finds_what_a_plain_search_finds(
            text in "([a \"\\]\\[\t\r\x0c]|\n|\\[Ab \"c\"\\]){0,40}",
            cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
        ) {
            let text = text.as_bytes();
            let plain = plain_tags_inside(text);
            prop_assert_eq!(tags_inside(text, LONG), plain);
            // Fed as a comment read in pieces: the same, found as soon as its line is whole.
            let mut ends: Vec<usize> = cuts.iter().map(|c| c.index(text.len() + 1)).collect();
            ends.sort_unstable();
            let mut search = TagsInside::at(0, LONG);
            let mut found = None;
            for end in ends {
                found = found.or_else(|| search.find(text, end, false));
                if let Some(at) = found {
                    // Only a tag line whose end has been read.
                    prop_assert!(text[at..end].contains(&b'\n'));
                }
            }
            let found = found.or_else(|| search.find(text, text.len(), true));
            prop_assert_eq!(found, plain);
        }
    }
}
