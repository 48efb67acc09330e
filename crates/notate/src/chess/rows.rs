//! A game as rows of two tables, `games` and `moves`: what a database loader stores. The
//! move columns are EGD's (SAN, LRAN, squares, piece codes, move type, FEN before and after,
//! check and mate) plus UCI, clock and evaluation.
//!
//! Rows are gathered in a [`RowBatch`] whose text lives in one buffer: a loader handles
//! millions of moves, and one allocation per string would cost more than the replay.

use std::num::NonZeroI64;
use std::ops::Range;

use shakmaty::{san::San, Color, EnPassantMode, Position};
use xxhash_rust::xxh3::Xxh3;

use super::game::{play, ChessGame, Comment, Eval};
use super::notation::{
    keeps_written_san, push_uci, square_name, write_lran, FenWriter, MoveFields,
};
use crate::{Error, ErrorKind};

/// A piece of text inside a [`RowBatch`] (read it with [`RowBatch::text`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Text {
    start: u32,
    end: u32,
}

/// One row of `games`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// A hash of the tags and the moves: the same game always gets the same id, so loading
    /// a file twice adds nothing.
    pub id: i64,
    /// A second hash of what `id` hashes, never 0: see [`GameKey`].
    pub id_check: i64,
    /// The `Event` tag.
    pub event: Option<Text>,
    /// The `Site` tag.
    pub site: Option<Text>,
    /// The `Date` tag as written (`2016.05.??`), else `UTCDate`.
    pub date: Option<Text>,
    /// The year of `date`, when it names one.
    pub year: Option<i32>,
    /// The month of `date` (1 to 12).
    pub month: Option<i32>,
    /// The `White` tag.
    pub white: Option<Text>,
    /// The `Black` tag.
    pub black: Option<Text>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: Text,
    /// The `WhiteElo` tag, when it is a number.
    pub white_elo: Option<i32>,
    /// The `BlackElo` tag, when it is a number.
    pub black_elo: Option<i32>,
    /// The `ECO` tag.
    pub eco: Option<Text>,
    /// The `Opening` tag.
    pub opening: Option<Text>,
    /// The `TimeControl` tag.
    pub time_control: Option<Text>,
    /// The `Termination` tag.
    pub termination: Option<Text>,
    /// Every tag, in order, as a JSON object (a tag given twice is there once, at its first
    /// place with its last value, as [`crate::chess::Tags::push`] keeps it).
    pub tags: Text,
    /// The number of half-moves in the main line.
    pub ply_count: i32,
    /// The FEN of the start position.
    pub start_fen: Text,
    /// This game's rows in [`RowBatch::moves`].
    pub moves: Range<usize>,
}

/// What tells games apart in the tables: the id, and a second 64-bit hash of the same text
/// (`id_check`). Two different games share a 64-bit id about once in 2^64 pairs, which is
/// likely once among the billions of games of all of lichess; a store that finds a game's
/// id taken compares the checks, so such a game is reported rather than taken for the one
/// stored.
///
/// ```
/// use notate::chess::{pgn, rows::RowWriter};
/// let mut writer = RowWriter::new();
/// let e4 = writer.game_key(&pgn::read_one("1. e4 *").unwrap()).unwrap();
/// let d4 = writer.game_key(&pgn::read_one("1. d4 *").unwrap()).unwrap();
/// assert_ne!((e4.id, e4.check), (d4.id, d4.check));
/// assert_eq!(e4, writer.game_key(&pgn::read_one("1. e4 {again} *").unwrap()).unwrap());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameKey {
    /// [`GameRow::id`].
    pub id: i64,
    /// [`GameRow::id_check`].
    pub check: NonZeroI64,
}

/// One row of `moves`: a half-move of the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRow {
    /// The [`GameRow::id`] of its game.
    pub game_id: i64,
    /// 1 for the first half-move of the game.
    pub ply: i32,
    /// The move number of the position before the move (the FEN's).
    pub move_number: i32,
    /// EGD's move key: move number and `w` or `b` (`12b`).
    pub key: Text,
    /// `w` or `b`.
    pub player: &'static str,
    /// SAN as written when it is standard SAN, else SAN made from the move.
    pub san: Text,
    /// EGD's long algebraic notation (`Ng1-f3`, `Bb5xNc6`, `O-O`).
    pub lran: Text,
    /// UCI (`g1f3`; Chess960 castling as king takes rook).
    pub uci: Text,
    /// The square the piece leaves (a castling king's).
    pub from_square: &'static str,
    /// The square the piece goes to (a castling king's).
    pub to_square: &'static str,
    /// EGD's piece codes: `p N Bl Bd R Q K`.
    pub piece: &'static str,
    /// `move`, `capture`, `promotion`, `promotion_capture`, `ep_capture`, `short_castle`,
    /// `long_castle`.
    pub move_type: &'static str,
    /// The piece code of the captured piece.
    pub captured_piece: Option<&'static str>,
    /// The piece code of the promoted piece.
    pub promotion: Option<&'static str>,
    /// The FEN of the position before the move.
    pub fen_before: Text,
    /// The FEN of the position after the move.
    pub fen_after: Text,
    /// Whether the move gives check.
    pub is_check: bool,
    /// Whether the move mates.
    pub is_checkmate: bool,
    /// The mover's remaining time after the move (`[%clk]`), in seconds.
    pub clock: Option<f64>,
    /// `[%eval]` in pawns from White's point of view.
    pub eval: Option<f64>,
    /// `[%eval #N]`: mate in N, negative when Black mates.
    pub mate: Option<i32>,
}

/// Rows of many games: `games`, `moves`, and the text they point into.
#[derive(Clone, Debug, Default)]
pub struct RowBatch {
    /// One row per game.
    pub games: Vec<GameRow>,
    /// One row per half-move, game after game.
    pub moves: Vec<MoveRow>,
    text: String,
}

impl RowBatch {
    /// An empty batch.
    pub fn new() -> RowBatch {
        RowBatch::default()
    }

    /// The text a row field points to.
    pub fn text(&self, text: Text) -> &str {
        &self.text[text.start as usize..text.end as usize]
    }

    /// The text of an optional field.
    pub fn opt(&self, text: Option<Text>) -> Option<&str> {
        text.map(|t| self.text(t))
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Keeps the first `games` games and their moves.
    pub fn truncate(&mut self, games: usize) {
        if let Some(first_gone) = self.games.get(games) {
            let text = first_gone.tags.start as usize;
            let moves = first_gone.moves.start;
            self.games.truncate(games);
            self.moves.truncate(moves);
            self.text.truncate(text.min(self.text.len()));
        }
    }

    /// Empties the batch, keeping its memory.
    pub fn clear(&mut self) {
        self.games.clear();
        self.moves.clear();
        self.text.clear();
    }

    /// Bytes of text held.
    pub fn text_bytes(&self) -> usize {
        self.text.len()
    }

    /// Bytes of memory the batch holds (allocated, not only used).
    pub fn memory_bytes(&self) -> usize {
        self.text.capacity()
            + self.moves.capacity() * std::mem::size_of::<MoveRow>()
            + self.games.capacity() * std::mem::size_of::<GameRow>()
    }

    fn push(&mut self, s: &str) -> Text {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        Text {
            start,
            end: self.text.len() as u32,
        }
    }

    fn push_opt(&mut self, s: Option<&str>) -> Option<Text> {
        s.map(|s| self.push(s))
    }
}

/// Turns replayed games into rows, reusing its buffers from game to game.
///
/// ```
/// use notate::chess::{pgn, rows::{RowBatch, RowWriter}};
/// let game = pgn::read_str("[White \"Ann\"]\n\n1. e4 { [%clk 0:02:59] } e5 1-0").unwrap().remove(0);
/// let mut batch = RowBatch::new();
/// RowWriter::new().write(&game, &mut batch).unwrap();
/// let (g, m) = (&batch.games[0], &batch.moves[1]);
/// assert_eq!(batch.opt(g.white), Some("Ann"));
/// assert_eq!(batch.text(g.result), "1-0");
/// assert_eq!((batch.text(m.key), batch.text(m.lran), batch.text(m.uci)), ("1b", "e7-e5", "e7e5"));
/// assert_eq!(batch.moves[0].clock, Some(179.0));
/// assert_eq!(m.game_id, g.id);
/// ```
#[derive(Debug, Default)]
pub struct RowWriter {
    scratch: Vec<u8>,
    san: String,
    tables: Tables,
    fen: FenWriter,
}

/// Which rows a [`RowWriter`] writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tables {
    /// A game's row and its moves' rows.
    #[default]
    GamesAndMoves,
    /// Only the game's row (its `moves` range empty): no position is written, so it costs
    /// a small part of both.
    GamesOnly,
}

impl RowWriter {
    /// A writer of both tables' rows.
    pub fn new() -> RowWriter {
        RowWriter::default()
    }

    /// A writer of the rows of `tables`.
    ///
    /// ```
    /// use notate::chess::{pgn, rows::{RowBatch, RowWriter, Tables}};
    /// let game = pgn::read_one("1. e4 e5 *").unwrap();
    /// let mut batch = RowBatch::new();
    /// RowWriter::with_tables(Tables::GamesOnly).write(&game, &mut batch).unwrap();
    /// assert_eq!((batch.games[0].ply_count, batch.moves.len()), (2, 0));
    /// ```
    pub fn with_tables(tables: Tables) -> RowWriter {
        RowWriter {
            tables,
            ..RowWriter::default()
        }
    }

    /// Appends the game's row and its moves' rows. On an error (a null move, which the
    /// tables cannot hold, or an unusable start position) nothing is appended.
    pub fn write(&mut self, game: &ChessGame, batch: &mut RowBatch) -> Result<(), Error> {
        self.write_unless(game, batch, |_| false).map(|_| ())
    }

    /// Like [`RowWriter::write`], but first asks `known` about the game's key and appends
    /// nothing when it says yes: a loader skips games it has stored without building their
    /// rows. Returns whether rows were appended.
    ///
    /// ```
    /// use notate::chess::{pgn, rows::{RowBatch, RowWriter}};
    /// let game = pgn::read_str("1. e4 e5 *").unwrap().remove(0);
    /// let (mut writer, mut batch) = (RowWriter::new(), RowBatch::new());
    /// assert!(writer.write_unless(&game, &mut batch, |_| false).unwrap());
    /// let id = batch.games[0].id;
    /// assert!(!writer.write_unless(&game, &mut batch, |seen| seen.id == id).unwrap());
    /// assert_eq!(batch.len(), 1);
    /// ```
    pub fn write_unless(
        &mut self,
        game: &ChessGame,
        batch: &mut RowBatch,
        known: impl FnOnce(GameKey) -> bool,
    ) -> Result<bool, Error> {
        let key = self.game_key(game)?;
        if known(key) {
            return Ok(false);
        }
        let (games, moves, text) = (batch.games.len(), batch.moves.len(), batch.text.len());
        let result = self.write_rows(game, key, batch);
        if result.is_err() {
            batch.games.truncate(games);
            batch.moves.truncate(moves);
            batch.text.truncate(text);
        }
        result.map(|()| true)
    }

    /// The id and check [`RowWriter::write`] gives the game, without building its rows.
    /// The id is the 64-bit XXH3 hash of its tags (names and values, in order) and its moves
    /// in UCI; the check is the high half of the 128-bit XXH3 hash of the same bytes (0 made
    /// 1). Both are stable across runs, machines and notate versions, since loads rely on
    /// them.
    ///
    /// ```
    /// use notate::chess::{pgn, rows::{RowBatch, RowWriter}};
    /// let game = pgn::read_str("1. e4 e5 *").unwrap().remove(0);
    /// let mut writer = RowWriter::new();
    /// let mut batch = RowBatch::new();
    /// writer.write(&game, &mut batch).unwrap();
    /// let key = writer.game_key(&game).unwrap();
    /// assert_eq!((key.id, key.check.get()), (batch.games[0].id, batch.games[0].id_check));
    /// ```
    pub fn game_key(&mut self, game: &ChessGame) -> Result<GameKey, Error> {
        let mode = game.start.castling;
        let mut hasher = Xxh3::new();
        let mut hash_tag = |name: &str, value: &str| {
            hasher.update(name.as_bytes());
            hasher.update(&[0]);
            hasher.update(value.as_bytes());
            hasher.update(&[0]);
        };
        // EGD writes `Result` first, then the PGN's tags in their order; PGN puts it after
        // the rest of the Seven Tag Roster. A `Result` that opens the tags is hashed after
        // the roster tags that follow it in the roster's order (any of them missing), so
        // that a PGN and the EGD made from it load as the same games.
        const BEFORE_RESULT: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];
        let mut tags = game.tags.iter().peekable();
        let mut result = tags.next_if(|(name, _)| *name == "Result");
        let mut roster = BEFORE_RESULT.iter();
        for (name, value) in tags {
            if let Some((r, v)) = result.filter(|_| !roster.any(|n| *n == name)) {
                hash_tag(r, v);
                result = None;
            }
            hash_tag(name, value);
        }
        if let Some((r, v)) = result {
            hash_tag(r, v);
        }
        hasher.update(&[1]);
        for (i, ply) in game.moves.plies.iter().enumerate() {
            let Some(mv) = ply.mv.mv else {
                return Err(Error::at(
                    ply.mv.offset,
                    "a null move: the moves table has no way to store one",
                )
                .with_ply(i + 1)
                .with_token(ply.mv.san.as_str())
                .with_kind(ErrorKind::Unwritable));
            };
            self.san.clear();
            push_uci(mv.to_uci(mode), &mut self.san);
            hasher.update(self.san.as_bytes());
            hasher.update(&[0]);
        }
        // The same state's 128-bit digest: a second hash at the cost of its last step only.
        let check = (hasher.digest128() >> 64) as i64;
        Ok(GameKey {
            id: hasher.digest() as i64,
            check: NonZeroI64::new(check | i64::from(check == 0)).expect("0 made 1"),
        })
    }

    /// The rows of a game whose id is `id`, from its start (hashing it checked that it has
    /// no null move).
    fn write_rows(
        &mut self,
        game: &ChessGame,
        GameKey { id, check }: GameKey,
        batch: &mut RowBatch,
    ) -> Result<(), Error> {
        let (mut pos, mode) = (game.start.position.clone(), game.start.castling);
        let tags = &game.tags;
        // Every store must hold the same rows, and PostgreSQL's text cannot hold a NUL.
        if let Some((name, _)) = tags
            .iter()
            .find(|(n, v)| n.contains('\0') || v.contains('\0'))
        {
            return Err(Error::at(
                0,
                format!("the tag {name:?} holds a NUL character, which a database cannot store"),
            )
            .with_kind(ErrorKind::Unwritable));
        }

        // The tags come first: `truncate` finds a game's text by its `tags`.
        self.scratch.clear();
        write_tags_json(game, &mut self.scratch);
        let tags_json =
            batch.push(std::str::from_utf8(&self.scratch).expect("JSON of str is UTF-8"));
        let date = tags.get("Date").or_else(|| tags.get("UTCDate"));
        let (year, month) = date.map_or((None, None), year_month);
        let result = match tags.get("Result") {
            Some(r) => r,
            None => game.outcome().as_str(),
        };
        self.scratch.clear();
        self.fen
            .write(&pos, mode, EnPassantMode::Always, &mut self.scratch);
        let start_fen = batch.push(std::str::from_utf8(&self.scratch).expect("FEN is ASCII"));
        let first_move = batch.moves.len();
        let mut row = GameRow {
            id,
            id_check: check.get(),
            event: batch.push_opt(tags.get("Event")),
            site: batch.push_opt(tags.get("Site")),
            date: batch.push_opt(date),
            year,
            month,
            white: batch.push_opt(tags.get("White")),
            black: batch.push_opt(tags.get("Black")),
            result: batch.push(result),
            white_elo: tags.get("WhiteElo").and_then(|e| e.trim().parse().ok()),
            black_elo: tags.get("BlackElo").and_then(|e| e.trim().parse().ok()),
            eco: batch.push_opt(tags.get("ECO")),
            opening: batch.push_opt(tags.get("Opening")),
            time_control: batch.push_opt(tags.get("TimeControl")),
            termination: batch.push_opt(game.termination()),
            tags: tags_json,
            ply_count: game.moves.plies.len() as i32,
            start_fen,
            moves: first_move..first_move,
        };

        // Every move number fits the column, checked once for both tables (a game's row is
        // refused where its moves' rows would be): ply `i` (from 0) is move
        // `start + (i + black_first) / 2`.
        let black_first = i64::from(pos.turn() == Color::Black);
        let start = i64::from(pos.fullmoves().get());
        let first_too_far = (2 * (i64::from(i32::MAX) + 1 - start) - black_first).max(0);
        if let Some(ply) = game.moves.plies.get(first_too_far as usize) {
            return Err(
                Error::at(ply.mv.offset, "a move number beyond 2,147,483,647")
                    .with_ply(first_too_far as usize + 1)
                    .with_kind(ErrorKind::Unwritable),
            );
        }
        let plies = match self.tables {
            Tables::GamesAndMoves => &game.moves.plies[..],
            Tables::GamesOnly => &[],
        };
        let mut fen_before = start_fen;
        for (i, ply) in plies.iter().enumerate() {
            let mv = ply.mv.mv.expect("game_id refuses null moves");
            let player = pos.turn();
            let move_number =
                i32::try_from(pos.fullmoves().get()).expect("move numbers checked above");
            let written = ply.mv.san.as_bytes();
            let keep_written = keeps_written_san(written, &mv);
            if !keep_written {
                self.san.clear();
                use std::fmt::Write as _;
                let _ = write!(self.san, "{}", San::from_move(&pos, mv));
            }
            let fields = MoveFields::of(mv);
            self.scratch.clear();
            write_lran(mv, &mut self.scratch);
            let lran = batch.push(std::str::from_utf8(&self.scratch).expect("LRAN is ASCII"));
            let uci = {
                let start = batch.text.len() as u32;
                push_uci(mv.to_uci(mode), &mut batch.text);
                Text {
                    start,
                    end: batch.text.len() as u32,
                }
            };
            let key = {
                let start = batch.text.len() as u32;
                let mut digits = itoa::Buffer::new();
                batch.text.push_str(digits.format(move_number));
                batch
                    .text
                    .push(if player == Color::White { 'w' } else { 'b' });
                Text {
                    start,
                    end: batch.text.len() as u32,
                }
            };
            play(&mut pos, Some(mv));
            let is_check = pos.is_check();
            let is_checkmate = is_check && pos.is_checkmate();
            let san = if keep_written {
                batch.push(ply.mv.san.as_str())
            } else {
                // A spelling that is not SAN (`0-0`, `e2-e4`) is stored as SAN, with the
                // check mark the position calls for.
                self.san.push_str(match (is_check, is_checkmate) {
                    (_, true) => "#",
                    (true, false) => "+",
                    _ => "",
                });
                batch.push(&self.san)
            };
            self.scratch.clear();
            self.fen
                .write(&pos, mode, EnPassantMode::Always, &mut self.scratch);
            let fen_after = batch.push(std::str::from_utf8(&self.scratch).expect("FEN is ASCII"));
            let (eval, mate) = match last_of(&ply.comments, |c| c.eval) {
                Some(Eval::Pawns(p)) => (Some(p), None),
                Some(Eval::Mate(m)) => (None, Some(m)),
                None => (None, None),
            };
            batch.moves.push(MoveRow {
                game_id: id,
                ply: i as i32 + 1,
                move_number,
                key,
                player: if player == Color::White { "w" } else { "b" },
                san,
                lran,
                uci,
                from_square: square_name(fields.from),
                to_square: square_name(fields.to),
                piece: fields.piece,
                move_type: fields.move_type,
                captured_piece: fields.captured,
                promotion: fields.promotion,
                fen_before,
                fen_after,
                is_check,
                is_checkmate,
                clock: last_of(&ply.comments, |c| c.clock).map(|ms| ms as f64 / 1000.0),
                eval,
                mate,
            });
            fen_before = fen_after;
        }
        if batch.text.len() > u32::MAX as usize {
            return Err(
                Error::at(0, "the batch's text passed 4 GiB").with_kind(ErrorKind::TooLarge)
            );
        }
        row.moves.end = batch.moves.len();
        batch.games.push(row);
        Ok(())
    }
}

/// Every tag as a JSON object, in order; `Result` from the movetext when there is no tag.
fn write_tags_json(game: &ChessGame, out: &mut Vec<u8>) {
    crate::json_text::write_object(out, game.tags.iter());
}

/// `2016.05.12` → (2016, 5); `2016.??.??` → (2016, none); `????.??.??` → neither.
fn year_month(date: &str) -> (Option<i32>, Option<i32>) {
    let mut parts = date.trim().split(['.', '-', '/']);
    let number = |p: Option<&str>| {
        p.filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<i32>().ok())
    };
    let year = number(parts.next());
    let month = number(parts.next()).filter(|m| (1..=12).contains(m));
    match year {
        Some(y) => (Some(y), month),
        None => (None, None),
    }
}

fn last_of<T>(comments: &[Comment], get: impl Fn(&Comment) -> Option<T>) -> Option<T> {
    comments.iter().rev().find_map(get)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::pgn;

    fn rows(pgn: &str) -> RowBatch {
        let mut batch = RowBatch::new();
        let mut writer = RowWriter::new();
        for game in pgn::read_str(pgn).unwrap() {
            writer.write(&game, &mut batch).unwrap();
        }
        batch
    }

    #[test]
    fn both_tables_refuse_the_same_move_numbers_past_the_column() {
        for (fen, plies, bad_ply) in [
            // White to move at move 2,147,483,647: ply 3 is move 2,147,483,648.
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2147483647",
                "e4 e5 Nf3",
                Some(3),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2147483647",
                "e5 Nf3",
                Some(2),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2147483647",
                "e4 e5",
                None,
            ),
        ] {
            let text = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n{plies} *");
            let game = pgn::read_one(&text).unwrap();
            for tables in [Tables::GamesAndMoves, Tables::GamesOnly] {
                let mut batch = RowBatch::new();
                let written = RowWriter::with_tables(tables).write(&game, &mut batch);
                assert_eq!(
                    written.err().and_then(|e| e.ply),
                    bad_ply,
                    "{tables:?} {fen}"
                );
            }
        }
    }

    #[test]
    fn dates_give_year_and_month() {
        assert_eq!(year_month("2016.05.12"), (Some(2016), Some(5)));
        assert_eq!(year_month("2016.??.??"), (Some(2016), None));
        assert_eq!(year_month("????.??.??"), (None, None));
        assert_eq!(year_month("2016.13.01"), (Some(2016), None));
        assert_eq!(year_month(""), (None, None));
    }

    #[test]
    fn moves_carry_egd_fields_and_chain_positions() {
        // Morphy's opera game.
        let b = rows("1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0");
        let g = &b.games[0];
        assert_eq!(b.text(g.result), "1-0");
        assert_eq!(g.ply_count, 33);
        assert_eq!(g.moves, 0..33);
        assert_eq!(g.year, None);
        let m = &b.moves;
        assert_eq!(b.text(m[0].fen_before), b.text(g.start_fen));
        for pair in m.windows(2) {
            assert_eq!(b.text(pair[0].fen_after), b.text(pair[1].fen_before));
        }
        let castle = &m[22];
        assert_eq!(
            (b.text(castle.key), b.text(castle.lran), b.text(castle.uci)),
            ("12w", "O-O-O", "e1c1")
        );
        assert_eq!((castle.move_type, castle.to_square), ("long_castle", "c1"));
        let check = &m[20];
        assert_eq!(
            (b.text(check.san), check.is_check, check.player, check.piece),
            ("Bxb5+", true, "w", "Bl")
        );
        let bishop = &m[7];
        assert_eq!(
            (b.text(bishop.lran), bishop.piece, bishop.captured_piece),
            ("Bg4xNf3", "Bl", Some("N"))
        );
        assert_eq!(
            (b.text(m[31].lran), m[31].move_type),
            ("Nd7xQb8", "capture")
        );
        let mate = &m[32];
        assert_eq!(
            (mate.is_checkmate, b.text(mate.key), mate.move_number),
            (true, "17w", 17)
        );
        assert_eq!(
            b.text(mate.fen_after),
            "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17"
        );
    }

    /// Stores made by any notate version recognise their games by these: the id and check
    /// of a game may never change.
    #[test]
    fn ids_and_checks_stay_what_they_were() {
        let a = rows("[Event \"A\"]\n\n1. e4 e5 *");
        assert_eq!(
            (a.games[0].id, a.games[0].id_check),
            (-1280076881251292602, 3468725165094746557)
        );
    }

    /// EGD writes `Result` first: a PGN and the EGD made from it are the same game.
    #[test]
    fn a_result_that_opens_the_tags_counts_at_its_roster_place() {
        use crate::chess::egd;
        let key = |game: &ChessGame| RowWriter::new().game_key(game).unwrap();
        let pgn = |tags: &str| pgn::read_one(&format!("{tags}\n1. e4 e5 1-0")).unwrap();
        let roster = "[Event \"e\"][Site \"s\"][Date \"d\"][Round \"1\"][White \"w\"][Black \"b\"]\
                      [Result \"1-0\"][ECO \"C20\"]";
        let part = "[White \"w\"][Black \"b\"][Result \"1-0\"][WhiteElo \"1500\"]";
        for tags in [roster, part] {
            let game = pgn(tags);
            let line = egd::to_string(&game).unwrap();
            assert!(
                line.starts_with(r#"{"game_tags":{"Result":"1-0","#),
                "{line}"
            );
            assert_eq!(key(&egd::read_one(&line).unwrap()), key(&game), "{tags}");
        }
        // Another order of the tags is another game, as before.
        let moved = pgn("[White \"w\"][Result \"1-0\"][Black \"b\"][WhiteElo \"1500\"]");
        assert_ne!(key(&moved), key(&pgn(part)));
        // A Result with no roster tag after it stays where it is.
        let alone = pgn("[Result \"1-0\"][ECO \"C20\"][White \"w\"]");
        assert_ne!(
            key(&alone),
            key(&pgn("[ECO \"C20\"][Result \"1-0\"][White \"w\"]"))
        );
        assert_ne!(
            key(&alone),
            key(&pgn("[ECO \"C20\"][White \"w\"][Result \"1-0\"]"))
        );
    }

    #[test]
    fn ids_depend_on_tags_and_moves_only() {
        let a = rows("[Event \"A\"]\n\n1. e4 e5 *");
        let again = rows("[Event \"A\"]\n\n1. e4 { a comment } e5 *");
        let other_tag = rows("[Event \"B\"]\n\n1. e4 e5 *");
        let other_move = rows("[Event \"A\"]\n\n1. e4 e6 *");
        assert_eq!(a.games[0].id, again.games[0].id);
        assert_ne!(a.games[0].id, other_tag.games[0].id);
        assert_ne!(a.games[0].id, other_move.games[0].id);
        assert_eq!(a.games[0].id_check, again.games[0].id_check);
        assert_ne!(a.games[0].id_check, other_tag.games[0].id_check);
        assert_ne!(a.games[0].id_check, other_move.games[0].id_check);
    }

    #[test]
    fn a_failed_game_leaves_nothing_and_truncate_keeps_whole_games() {
        let mut batch = rows("1. e4 *\n\n1. d4 d5 *");
        let games = pgn::read_str("1. e4 -- 2. d4 *").unwrap();
        let text = batch.text_bytes();
        assert!(RowWriter::new().write(&games[0], &mut batch).is_err());
        assert_eq!(
            (batch.len(), batch.moves.len(), batch.text_bytes()),
            (2, 3, text)
        );
        batch.truncate(1);
        assert_eq!((batch.len(), batch.moves.len()), (1, 1));
        // Nothing of the second game's text is left.
        let last = batch.moves.last().unwrap();
        assert!(batch.text.ends_with(batch.text(last.fen_after)));
    }

    #[test]
    fn a_nul_in_a_tag_is_an_error_for_that_game() {
        let games = pgn::read_str("[Event \"a\u{0}b\"]\n\n1. e4 *").unwrap();
        let mut batch = RowBatch::new();
        let error = RowWriter::new().write(&games[0], &mut batch).unwrap_err();
        assert!(error.message.contains("NUL"), "{error:?}");
        assert!(batch.is_empty());
    }

    #[test]
    fn clock_and_eval_come_from_comments() {
        let b = rows("1. e4 { [%eval 0.25] [%clk 0:01:00.5] } e5 { [%eval #-3] } *");
        assert_eq!(
            (b.moves[0].clock, b.moves[0].eval),
            (Some(60.5), Some(0.25))
        );
        assert_eq!((b.moves[1].mate, b.moves[1].eval), (Some(-3), None));
    }
}
