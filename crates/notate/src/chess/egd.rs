//! EGD (Extended Game Description): one denormalized JSON object per game, every half-move
//! with the position before it, the move described every way a query could want, and the
//! position after it. Compatible with the Ruby gem `egd`, without its bugs.
//!
//! ```text
//! {"game_tags":{"Result":"*"},
//!  "moves":{"1w":{"start_position":{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","features":{}},
//!                 "move":{"player":"w","san":"e4","lran":"e2-e4","from_square":"e2",
//!                         "to_square":"e4","piece":"p","move_type":"move"},
//!                 "end_position":{"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1","features":{}}}}}
//! ```
//!
//! The writer is hand-written rather than built on serde: EGD is ten to thirty times larger
//! than its PGN, so each FEN is computed once (a move's end position is the next move's
//! start position) and every byte goes straight into the output buffer.

use shakmaty::{
    fen::Fen, san::San, zobrist::Zobrist128, Chess, Color, EnPassantMode, Move, Position, Square,
};

use super::game::{
    play, ChessGame, Comment, Eval, Game, GameResult, Played, Ply, StartPosition, Tags,
};
use super::notation::{
    castling_destinations, write_lran, write_nags, write_square, write_str, write_u32, write_u64,
    FenWriter, MoveFields,
};
/// Whether a token is standard SAN (kept here, where it was first public).
pub use super::notation::{is_standard_san, keeps_written_san};
use super::san::{MoveSpec, SanText};
use crate::format::{read_format, utf8, write_verbs, WriteFormat};
use crate::{Error, ErrorKind};

/// What the EGD writer adds to the reference format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Draw-rule features in both positions and annotations in each move (`--egd-extended`).
    pub extended: bool,
    /// Indented output, one key per line (`--pretty`).
    pub pretty: bool,
}

/// EGD: replayed games written (reusing the writer's buffers from game to game), and read.
///
/// ```
/// use notate::chess::{egd, pgn};
/// let game = pgn::read_one("1. e4 e5 *").unwrap();
/// let line = egd::to_string(&game).unwrap();
/// assert!(line.starts_with(r#"{"game_tags":{"Result":"*"},"moves":{"1w":{"start_position""#));
/// assert!(line.contains(r#""lran":"e7-e5","from_square":"e7","to_square":"e5","piece":"p""#));
/// assert!(line.ends_with("}}}}\n"));
/// ```
#[derive(Debug, Default)]
pub struct Egd {
    options: WriteOptions,
    /// The FEN of the position before the current move, then after it.
    fen_before: Vec<u8>,
    fen_after: Vec<u8>,
    fen: FenWriter,
    /// The features object of the position before the current move, then after it.
    features_before: Vec<u8>,
    features_after: Vec<u8>,
    /// Hashes of every position of the game so far, for the repetition count.
    history: Vec<u128>,
    scratch: String,
}

impl Egd {
    /// Appends one game as EGD (a line, or indented text with `pretty`), newline-terminated.
    /// On an error nothing is appended: a null move (EGD has none) or an unusable start
    /// position.
    fn write(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        let mark = out.len();
        let result = self.write_compact(game, out);
        if result.is_err() {
            out.truncate(mark);
            return result;
        }
        if self.options.pretty {
            let value: serde_json::Value =
                serde_json::from_slice(&out[mark..]).expect("the EGD writer writes valid JSON");
            out.truncate(mark);
            serde_json::to_writer_pretty(&mut *out, &value).expect("writing JSON to memory");
        }
        out.push(b'\n');
        Ok(())
    }

    fn write_compact(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        let (mut pos, mode) = (game.start.position.clone(), game.start.castling);
        if let Some((i, ply)) =
            (game.moves.plies.iter().enumerate()).find(|(_, p)| p.mv.mv.is_none())
        {
            return Err(
                Error::at(ply.mv.offset, "a null move: EGD has no way to write one")
                    .with_ply(i + 1)
                    .with_token(ply.mv.san.as_str())
                    .with_kind(ErrorKind::Unwritable),
            );
        }
        let extended = self.options.extended;

        out.extend_from_slice(b"{\"game_tags\":{\"Result\":");
        let result = match game.tags.get("Result") {
            Some(value) => value,
            None => game.result.unwrap_or(GameResult::Unknown).as_str(),
        };
        write_str(out, result);
        for (name, value) in game.tags.iter().filter(|(name, _)| *name != "Result") {
            out.push(b',');
            write_str(out, name);
            out.push(b':');
            write_str(out, value);
        }
        out.extend_from_slice(b"},\"moves\":{");

        self.fen_before.clear();
        self.fen
            .write(&pos, mode, EnPassantMode::Always, &mut self.fen_before);
        self.features_before.clear();
        self.history.clear();
        if extended {
            self.history.push(hash(&pos));
            let check = pos.is_check();
            self.features_after.clear();
            write_features(
                &mut self.features_after,
                &self.history,
                &pos,
                check,
                check && pos.is_checkmate(),
                true,
            );
            std::mem::swap(&mut self.features_before, &mut self.features_after);
        }
        for (i, ply) in game.moves.plies.iter().enumerate() {
            let mv = ply.mv.mv.expect("null moves were refused above");
            let before_turn = pos.turn();
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            write_u32(out, pos.fullmoves().get());
            out.extend_from_slice(if before_turn == Color::White {
                b"w\":{\"start_position\":{\"fen\":\""
            } else {
                b"b\":{\"start_position\":{\"fen\":\""
            });
            out.extend_from_slice(&self.fen_before);
            out.extend_from_slice(b"\",\"features\":{");
            out.extend_from_slice(&self.features_before);
            out.extend_from_slice(b"}},\"move\":{\"player\":");
            out.extend_from_slice(if before_turn == Color::White {
                b"\"w\""
            } else {
                b"\"b\""
            });
            let written = ply.mv.san.as_bytes();
            let keep_written = keeps_written_san(written, &mv);
            if !keep_written {
                self.scratch.clear();
                use std::fmt::Write as _;
                let _ = write!(self.scratch, "{}", San::from_move(&pos, mv));
            }
            play(&mut pos, Some(mv));
            let check = pos.is_check();
            let checkmate = check && pos.is_checkmate();
            out.extend_from_slice(b",\"san\":\"");
            if keep_written {
                out.extend_from_slice(written);
            } else {
                // A spelling that is not SAN (`0-0`, `e2-e4`, `e8Q`) is written as SAN, with
                // the check mark the position calls for.
                out.extend_from_slice(self.scratch.as_bytes());
                if checkmate {
                    out.push(b'#');
                } else if check {
                    out.push(b'+');
                }
            }
            write_move_fields(mv, out);
            if extended {
                write_annotations(ply, out);
            }
            self.fen_after.clear();
            self.fen
                .write(&pos, mode, EnPassantMode::Always, &mut self.fen_after);
            out.extend_from_slice(b"},\"end_position\":{\"fen\":\"");
            out.extend_from_slice(&self.fen_after);
            out.extend_from_slice(b"\",\"features\":{");
            if extended {
                self.history.push(hash(&pos));
                self.features_after.clear();
                write_features(
                    &mut self.features_after,
                    &self.history,
                    &pos,
                    check,
                    checkmate,
                    true,
                );
                out.extend_from_slice(&self.features_after);
                std::mem::swap(&mut self.features_before, &mut self.features_after);
            } else if checkmate {
                out.extend_from_slice(b"\"check\":true,\"checkmate\":true");
            } else if check {
                out.extend_from_slice(b"\"check\":true");
            }
            out.extend_from_slice(b"}}}");
            std::mem::swap(&mut self.fen_before, &mut self.fen_after);
        }
        out.extend_from_slice(b"}}");
        Ok(())
    }
}

/// The extended features of `pos` (the last entry of `history`, the hashes of every
/// position of the game so far) appended to `f`: check, the halfmove clock, the repetition count
/// and the draw flags (`false_flags`: also those that do not hold, as EGD writes them; the
/// viewer's positions, [`super::view`], leave them out).
pub(crate) fn write_features(
    f: &mut Vec<u8>,
    history: &[u128],
    pos: &Chess,
    check: bool,
    checkmate: bool,
    false_flags: bool,
) {
    if checkmate {
        f.extend_from_slice(b"\"check\":true,\"checkmate\":true,");
    } else if check {
        f.extend_from_slice(b"\"check\":true,");
    }
    let halfmoves = pos.halfmoves();
    // A repetition needs the same side to move, so only every other position since the
    // last capture or pawn move can be one.
    let last = history.len() - 1;
    let window = (halfmoves as usize).min(last);
    let current = history[last];
    let repetition = 1
        + (2..=window)
            .step_by(2)
            .filter(|&back| history[last - back] == current)
            .count();
    f.extend_from_slice(b"\"halfmove_clock\":");
    write_u32(f, halfmoves);
    f.extend_from_slice(b",\"repetition\":");
    write_u32(f, repetition as u32);
    let flags = [
        ("threefold_repetition_claimable", repetition >= 3),
        ("fifty_move_draw_claimable", halfmoves >= 100 && !checkmate),
        ("seventy_five_move_draw", halfmoves >= 150 && !checkmate),
        ("fivefold_repetition", repetition >= 5),
        ("insufficient_material", pos.is_insufficient_material()),
        ("stalemate", !check && pos.is_stalemate()),
    ];
    for (name, value) in flags.into_iter().filter(|&(_, value)| value || false_flags) {
        f.extend_from_slice(b",\"");
        f.extend_from_slice(name.as_bytes());
        f.extend_from_slice(if value { b"\":true" } else { b"\":false" });
    }
}

/// The repetition identity of a position (FIDE's: pieces, side to move, castling rights and
/// an en passant capture that is really possible).
pub(crate) fn hash(pos: &Chess) -> u128 {
    pos.zobrist_hash::<Zobrist128>(EnPassantMode::Legal).0
}

/// `lran`, squares, piece codes and move type, after `"san":"…`.
fn write_move_fields(mv: Move, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\",\"lran\":\"");
    write_lran(mv, out);
    out.push(b'"');
    let fields = MoveFields::of(mv);
    write_squares(out, fields.from, fields.to);
    out.extend_from_slice(b",\"piece\":\"");
    out.extend_from_slice(fields.piece.as_bytes());
    out.extend_from_slice(b"\",\"move_type\":\"");
    out.extend_from_slice(fields.move_type.as_bytes());
    out.push(b'"');
    if let Some(code) = fields.captured {
        out.extend_from_slice(b",\"captured_piece\":\"");
        out.extend_from_slice(code.as_bytes());
        out.push(b'"');
    }
    if let Some(code) = fields.promotion {
        out.extend_from_slice(b",\"promotion\":\"");
        out.extend_from_slice(code.as_bytes());
        out.push(b'"');
    }
}

/// `,"from_square":"e2","to_square":"e4"`
fn write_squares(out: &mut Vec<u8>, from: Square, to: Square) {
    out.extend_from_slice(b",\"from_square\":\"");
    write_square(out, from);
    out.extend_from_slice(b"\",\"to_square\":\"");
    write_square(out, to);
    out.push(b'"');
}

/// NAGs, glyphs, comment text, clock and evaluation of a move (`--egd-extended`); each
/// key only when the move has it, like EGD's own optional keys.
pub(crate) fn write_annotations(ply: &Ply<Played>, out: &mut Vec<u8>) {
    write_nags(&ply.nags, out);
    if !ply.nags.is_empty() {
        let mut glyphs = ply.nags.iter().filter_map(|&n| glyph(n)).peekable();
        if glyphs.peek().is_some() {
            out.extend_from_slice(b",\"glyphs\":[");
            for (i, g) in glyphs.enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(out, g);
            }
            out.push(b']');
        }
    }
    let text = comment_text(&ply.comments);
    if !text.is_empty() {
        out.extend_from_slice(b",\"comment\":");
        write_str(out, &text);
    }
    let last = |get: fn(&Comment) -> Option<u64>| ply.comments.iter().rev().find_map(get);
    if let Some(ms) = last(|c| c.clock) {
        out.extend_from_slice(b",\"clock\":");
        write_seconds(out, ms);
    }
    if let Some(ms) = last(|c| c.emt) {
        out.extend_from_slice(b",\"emt\":");
        write_seconds(out, ms);
    }
    match ply.comments.iter().rev().find_map(|c| c.eval) {
        Some(Eval::Pawns(p)) => {
            out.extend_from_slice(b",\"eval\":");
            serde_json::to_writer(&mut *out, &p).expect("writing JSON to memory");
        }
        Some(Eval::Mate(m)) => {
            out.extend_from_slice(b",\"mate\":");
            if m < 0 {
                out.push(b'-');
            }
            write_u64(out, u64::from(m.unsigned_abs()));
        }
        None => {}
    }
}

/// The text of a move's comments without the `[%…]` commands, spaces squeezed, comments
/// joined by a space.
fn comment_text(comments: &[Comment]) -> String {
    let mut text = String::new();
    for prose in comments.iter().map(Comment::prose) {
        if !text.is_empty() && !prose.is_empty() {
            text.push(' ');
        }
        text.push_str(&prose);
    }
    text
}

/// The usual symbol of a NAG, for the ones that have one.
pub fn glyph(nag: u8) -> Option<&'static str> {
    Some(match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        7 => "□",
        10 => "=",
        13 => "∞",
        14 => "+=",
        15 => "=+",
        16 => "+/-",
        17 => "-/+",
        18 => "+-",
        19 => "-+",
        22 | 23 => "⨀",
        _ => return None,
    })
}

/// Seconds, with the milliseconds only when there are some (`179`, `179.5`).
fn write_seconds(out: &mut Vec<u8>, ms: u64) {
    write_u64(out, ms / 1000);
    let frac = ms % 1000;
    if frac != 0 {
        out.push(b'.');
        out.extend_from_slice(&[
            b'0' + (frac / 100) as u8,
            b'0' + (frac / 10 % 10) as u8,
            b'0' + (frac % 10) as u8,
        ]);
        while out.last() == Some(&b'0') {
            out.pop();
        }
    }
}

/// Reads one game from its EGD text; `offset` is where the text starts in its file. The
/// moves are replayed from their `san` and checked against `to_square`; the game starts from
/// the first move's `start_position.fen` (which must agree with a `FEN` tag).
///
/// ```
/// use notate::chess::{egd, pgn};
/// let game = pgn::read_one("[White \"A\"]\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0").unwrap();
/// let back = egd::read_one(&egd::to_string(&game).unwrap()).unwrap();
/// assert_eq!(back.moves.plies.len(), 7);
/// assert_eq!(back.tags.get("Result"), Some("1-0"));
/// ```
pub(crate) fn read_egd(text: &str, offset: usize) -> Result<ChessGame, Error> {
    use serde_json::Value;
    let fail = |what: String| Error::at(offset, what);
    let value: Value =
        serde_json::from_str(text).map_err(|e| fail(format!("not EGD JSON: {e}")))?;
    let Value::Object(top) = value else {
        return Err(fail("not an EGD object".into()));
    };
    let mut tags = Tags::new();
    match top.get("game_tags") {
        Some(Value::Object(map)) => {
            for (name, value) in map {
                match value {
                    Value::String(v) => {
                        Tags::check_pgn_tag("game_tags", name, v)
                            .map_err(|e| e.with_place(crate::Place::at_offset(offset)))?;
                        tags.push(name, v)
                    }
                    _ => return Err(fail(format!("game_tags.{name}: not a string"))),
                }
            }
        }
        _ => return Err(fail("game_tags: missing or not an object".into())),
    }
    let moves = match top.get("moves") {
        Some(Value::Object(map)) => map,
        _ => return Err(fail("moves: missing or not an object".into())),
    };
    if let Some(key) = top.keys().find(|k| *k != "game_tags" && *k != "moves") {
        return Err(fail(format!("unknown key {key:?}")));
    }

    let mut game: Game<Played> = Game {
        tags,
        ..Game::default()
    };
    let StartPosition {
        position: tag_start,
        castling: mode,
    } = StartPosition::from_tags(&game.tags).map_err(|e| fail(format!("game_tags: {e}")))?;
    let first_fen = moves
        .values()
        .next()
        .and_then(|m| m.pointer("/start_position/fen"))
        .and_then(Value::as_str);
    let mut pos = match first_fen {
        None => tag_start,
        Some(fen_text) => {
            let key = moves.keys().next().map_or("", String::as_str);
            let bad = |why: String| fail(format!("moves.{key}.start_position.fen: {why}"));
            let fen: Fen = fen_text
                .parse()
                .map_err(|_| bad(format!("{fen_text:?} is not a FEN")))?;
            let start: Chess = fen
                .into_position(mode)
                .map_err(|e| bad(format!("{fen_text:?} is not a legal position: {e}")))?;
            let same = |a: &Chess, b: &Chess| {
                Fen::from_position(a, EnPassantMode::Legal).to_string()
                    == Fen::from_position(b, EnPassantMode::Legal).to_string()
            };
            if game.tags.get("FEN").is_some() {
                if !same(&start, &tag_start) {
                    return Err(bad(format!(
                        "{fen_text:?} is not the position of the FEN tag"
                    )));
                }
            } else if !same(&start, &Chess::default()) {
                // PGN needs the tags to say where the game starts.
                game.tags.push("SetUp", "1");
                game.tags.push("FEN", fen_text);
            }
            start
        }
    };
    game.start = StartPosition {
        position: pos.clone(),
        castling: mode,
    };
    for (i, (key, m)) in moves.iter().enumerate() {
        let bad = |what: String| fail(format!("moves.{key}: {what}")).with_ply(i + 1);
        let san = m
            .pointer("/move/san")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("move.san: missing or not a string".into()))?;
        let text = SanText::new(san).ok_or_else(|| bad(format!("san {san:?} is too long")))?;
        let mv = MoveSpec::parse(san.as_bytes())
            .map_err(|e| bad(format!("san {san:?}: {e}")))
            .and_then(|spec| {
                spec.resolve(&pos)
                    .map_err(|e| bad(format!("san {san:?}: {e}")))
            })?
            .ok_or_else(|| bad(format!("san {san:?}: EGD has no null moves")))?;
        if let Some(to) = m.pointer("/move/to_square") {
            let expected = match mv {
                Move::Castle { king, rook } => castling_destinations(king, rook).king_to,
                other => other.to(),
            };
            if to.as_str() != Some(expected.to_string().as_str()) {
                return Err(bad(format!(
                    "to_square {to} does not match san {san:?} (which goes to {expected})"
                ))
                .with_token(san));
            }
        }
        play(&mut pos, Some(mv));
        game.moves.plies.push(Ply::new(Played {
            san: text,
            mv: Some(mv),
            offset,
        }));
    }
    game.result = game.tags.get("Result").and_then(GameResult::parse);
    Ok(game)
}

/// How EGD is read (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {}

read_format!(
    Egd,
    ChessGame,
    "EGD",
    ReadOptions,
    lines,
    |record, options| { vec![utf8(record).and_then(|text| read_egd(text, 0))] }
);

impl WriteFormat for Egd {
    type Game = ChessGame;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Egd {
        Egd {
            options,
            ..Egd::default()
        }
    }

    fn write_game(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        self.write(game, out)
    }
}

write_verbs!(Egd, ChessGame, "EGD");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds() {
        let mut out = Vec::new();
        write_seconds(&mut out, 179_000);
        out.push(b' ');
        write_seconds(&mut out, 179_050);
        out.push(b' ');
        write_seconds(&mut out, 3_600_500);
        assert_eq!(out, b"179 179.05 3600.5");
    }

    #[test]
    fn comment_text_drops_commands() {
        let c = [
            Comment::new(" [%clk 0:01:00] good move ".into()),
            Comment::new("[%eval 0.3]".into()),
            Comment::new("really  ".into()),
        ];
        assert_eq!(comment_text(&c), "good move really");
    }
}
