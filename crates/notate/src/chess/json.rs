//! notate's lossless game JSON: one object per game (JSON Lines), every part of the game
//! record kept, so that `--from json --to pgn` restores the game exactly.
//!
//! ```text
//! {"tags":{"White":"Morphy","Result":"1-0"},
//!  "start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
//!  "comments":[{"text":"before the first move"}],
//!  "moves":[{"san":"e4","uci":"e2e4","nags":[1],
//!            "comments":[{"text":" [%clk 0:03:00] ","clock":180000}],
//!            "variations":[{"moves":[{"san":"d4","uci":"d2d4"}]}]},
//!           {"san":"e5","uci":"e7e5","written":"e7-e5"}],
//!  "result":"1-0","final_comments":[{"text":"after the result"}]}
//! ```
//!
//! `san` is canonical SAN with check marks; `written` appears when the file spelled the move
//! otherwise; `uci` is what a reader replays (`0000` is a null move). Empty lists and absent
//! values are left out. `start` is the position the game starts from (read back, it must
//! agree with the `FEN` tag). Comments keep their exact text; `clock` and `emt` are
//! milliseconds, `eval` is `{"pawns":0.17}` or `{"mate":-3}`.
//!
//! ```
//! use notate::chess::{json, pgn};
//! let game = pgn::read_one("[White \"A\"]\n1. e2-e4 {hi} *").unwrap();
//! let line = json::to_string(&game).unwrap();
//! assert!(line.starts_with(r#"{"tags":{"White":"A"},"start":"#));
//! assert!(line.contains(r#""san":"e4","uci":"e2e4","written":"e2-e4""#));
//! assert_eq!(json::read_one(&line).unwrap(), game);
//! ```

use serde::Deserialize;
use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, EnPassantMode};

use super::game::{
    play, ChessGame, Comment, Eval, Game, GameResult, Line, Played, Ply, StartPosition, Tags,
};
use super::notation::{push_uci, write_nags, write_str, write_tags_object, write_u64, FenWriter};
use super::san::{san_plus_and_play, MoveSpec, SanText};
use crate::format::{read_format, utf8, write_verbs, WriteFormat};
use crate::Error;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonGame {
    tags: serde_json::Map<String, serde_json::Value>,
    start: String,
    #[serde(default)]
    comments: Vec<JsonComment>,
    moves: Vec<JsonMove>,
    #[serde(default)]
    result: Option<GameResult>,
    #[serde(default)]
    final_comments: Vec<JsonComment>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonLine {
    #[serde(default)]
    comments: Vec<JsonComment>,
    moves: Vec<JsonMove>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonMove {
    san: String,
    uci: String,
    #[serde(default)]
    written: Option<String>,
    /// The position after the move, when the writer is asked for it ([`WriteOptions::fens`]).
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    nags: Vec<u8>,
    #[serde(default)]
    comments: Vec<JsonComment>,
    /// Each read on its own when its move is (see [`line_in`]): serde_json refuses JSON
    /// nested deeper than 128 levels, and a variation takes four.
    #[serde(default)]
    variations: Vec<Box<serde_json::value::RawValue>>,
}

/// A comment as read: `clock`, `emt` and `eval` are accepted but parsed again from `text`,
/// so that text and fields cannot disagree.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct JsonComment {
    text: String,
    #[serde(default)]
    clock: Option<u64>,
    #[serde(default)]
    emt: Option<u64>,
    #[serde(default)]
    eval: Option<Eval>,
}

/// Appends one game as a line of JSON (with the newline). Written by hand, as the EGD and
/// tracks writers are: through serde every SAN, UCI and FEN of the game would first be a
/// `String` of its own, and a page reading games through WebAssembly waits on this loop.
fn write_json(game: &ChessGame, out: &mut Vec<u8>, options: WriteOptions) {
    let (start, mode) = (&game.start.position, game.start.castling);
    out.extend_from_slice(b"{\"tags\":");
    write_tags_object(&game.tags, None, out);
    out.extend_from_slice(b",\"start\":");
    write_str(
        out,
        &Fen::from_position(start, EnPassantMode::Legal).to_string(),
    );
    out.push(b',');
    let mut scratch = MoveScratch {
        mode,
        fens: options.fens,
        text: String::new(),
        fen: FenWriter::default(),
    };
    write_line(&game.moves, start.clone(), &mut scratch, out);
    if let Some(result) = game.result {
        out.extend_from_slice(b",\"result\":");
        write_str(out, result.as_str());
    }
    write_comments(",\"final_comments\":", &game.final_comments, out);
    out.extend_from_slice(b"}\n");
}

/// What every move of a game is written with: the castling mode, whether FENs are asked for,
/// one string reused for each SAN and UCI, and the FEN writer.
struct MoveScratch {
    mode: CastlingMode,
    fens: bool,
    text: String,
    fen: FenWriter,
}

/// `"comments":[…],"moves":[…]` (no comments key when there are none).
fn write_line(line: &Line<Played>, mut pos: Chess, scratch: &mut MoveScratch, out: &mut Vec<u8>) {
    if write_comments("\"comments\":", &line.comments, out) {
        out.push(b',');
    }
    out.extend_from_slice(b"\"moves\":[");
    for (i, ply) in line.plies.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let before = (!ply.variations.is_empty()).then(|| pos.clone());
        out.extend_from_slice(b"{\"san\":");
        let written = match ply.mv.mv {
            Some(m) => {
                scratch.text.clear();
                san_plus_and_play(&mut pos, m).append_to_string(&mut scratch.text);
                write_str(out, &scratch.text);
                let written = ply.mv.san.as_str() != scratch.text;
                out.extend_from_slice(b",\"uci\":");
                scratch.text.clear();
                push_uci(m.to_uci(scratch.mode), &mut scratch.text);
                write_str(out, &scratch.text);
                written
            }
            None => {
                play(&mut pos, None);
                out.extend_from_slice(b"\"--\",\"uci\":\"0000\"");
                ply.mv.san.as_str() != "--"
            }
        };
        if written {
            out.extend_from_slice(b",\"written\":");
            write_str(out, &ply.mv.san);
        }
        if scratch.fens {
            out.extend_from_slice(b",\"fen\":\"");
            scratch
                .fen
                .write(&pos, scratch.mode, EnPassantMode::Legal, out);
            out.push(b'"');
        }
        write_nags(&ply.nags, out);
        write_comments(",\"comments\":", &ply.comments, out);
        if let Some(before) = before {
            out.extend_from_slice(b",\"variations\":[");
            for (j, variation) in ply.variations.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                out.push(b'{');
                write_line(variation, before.clone(), scratch, out);
                out.push(b'}');
            }
            out.push(b']');
        }
        out.push(b'}');
    }
    out.push(b']');
}

/// `key[{"text":…,"clock":…},…]` when there are comments; whether it wrote anything.
fn write_comments(key: &str, comments: &[Comment], out: &mut Vec<u8>) -> bool {
    if comments.is_empty() {
        return false;
    }
    out.extend_from_slice(key.as_bytes());
    out.push(b'[');
    for (i, c) in comments.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"text\":");
        write_str(out, &c.text);
        for (name, value) in [(",\"clock\":", c.clock), (",\"emt\":", c.emt)] {
            if let Some(ms) = value {
                out.extend_from_slice(name.as_bytes());
                write_u64(out, ms);
            }
        }
        if let Some(eval) = &c.eval {
            out.extend_from_slice(b",\"eval\":");
            serde_json::to_writer(&mut *out, eval).expect("writing JSON to memory");
        }
        out.push(b'}');
    }
    out.push(b']');
    true
}

/// Into a `Vec` or a ply's `ThinVec`, whichever the caller holds.
fn comments_in<C: FromIterator<Comment>>(comments: Vec<JsonComment>) -> C {
    // The commands are parsed from the text again, so text and fields cannot disagree.
    comments.into_iter().map(|c| Comment::new(c.text)).collect()
}

/// A comment longer than PGN reads is refused; `place` says where the list is.
fn check_comments(
    comments: &[JsonComment],
    offset: usize,
    place: &dyn Fn() -> String,
) -> Result<(), Error> {
    let longest = crate::chess::pgn::ReadOptions::default().max_comment_bytes;
    if comments.iter().any(|c| c.text.len() > longest) {
        return Err(Error::at(
            offset,
            format!("{}: comment longer than {longest} bytes", place()),
        )
        .with_kind(crate::ErrorKind::TooLarge));
    }
    Ok(())
}

fn line_in(
    line: JsonLine,
    mut pos: Chess,
    path: &str,
    offset: usize,
    depth: usize,
) -> Result<Line<Played>, Error> {
    let mut plies = Vec::with_capacity(line.moves.len());
    for (i, m) in line.moves.into_iter().enumerate() {
        let here = format!("{path}[{i}]");
        let bad = |what: String| Error::at(offset, format!("{here}: {what}")).with_ply(i + 1);
        let mv = if m.uci == "0000" {
            if MoveSpec::parse(m.san.as_bytes()) != Ok(MoveSpec::Null) {
                return Err(bad(format!("san {:?} is not a null move", m.san)));
            }
            None
        } else {
            let uci: UciMove = m
                .uci
                .parse()
                .map_err(|_| bad(format!("uci {:?} is not a UCI move", m.uci)))?;
            let mv = uci
                .to_move(&pos)
                .map_err(|_| bad(format!("uci {:?} is illegal here", m.uci)))?;
            let by_san = MoveSpec::parse(m.san.as_bytes())
                .ok()
                .and_then(|s| s.resolve(&pos).ok())
                .flatten();
            if by_san != Some(mv) {
                return Err(bad(format!(
                    "san {:?} does not match uci {:?}",
                    m.san, m.uci
                )));
            }
            Some(mv)
        };
        let written = m.written.unwrap_or(m.san);
        let san =
            SanText::new(&written).ok_or_else(|| bad(format!("move text {written:?} too long")))?;
        let variations = m
            .variations
            .into_iter()
            .enumerate()
            .map(|(j, raw)| {
                let path = format!("{here}.variations[{j}]");
                // PGN's limit: no deeper than PGN reads, and the reading's recursion bounded.
                let deepest = crate::chess::pgn::ReadOptions::default().max_variation_depth;
                if depth == deepest {
                    return Err(Error::at(
                        offset,
                        format!("{path}: variations nested deeper than {deepest}"),
                    )
                    .with_kind(crate::ErrorKind::TooLarge));
                }
                let variation: JsonLine = serde_json::from_str(raw.get())
                    .map_err(|e| Error::at(offset, format!("{path}: not notate game JSON: {e}")))?;
                line_in(
                    variation,
                    pos.clone(),
                    &format!("{path}.moves"),
                    offset,
                    depth + 1,
                )
            })
            .collect::<Result<_, _>>()?;
        play(&mut pos, mv);
        if let Some(fen) = &m.fen {
            let after = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            if *fen != after {
                return Err(bad(format!(
                    "fen {fen:?} is not the position after the move ({after:?})"
                )));
            }
        }
        plies.push(Ply {
            mv: Played { san, mv, offset },
            nags: m.nags.into(),
            comments: {
                check_comments(&m.comments, offset, &|| format!("{here}.comments"))?;
                comments_in(m.comments)
            },
            variations,
        });
    }
    Ok(Line {
        comments: {
            check_comments(&line.comments, offset, &|| {
                format!("{}comments", path.strip_suffix("moves").unwrap_or(path))
            })?;
            comments_in(line.comments)
        },
        plies,
    })
}

/// Reads one game from its JSON text; `offset` is where the text starts in its file (for
/// error places). Moves are replayed from `uci` and checked against `san`.
pub(crate) fn read_json(text: &str, offset: usize) -> Result<ChessGame, Error> {
    let json: JsonGame = serde_json::from_str(text)
        .map_err(|e| Error::at(offset, format!("not notate game JSON: {e}")))?;
    let mut tags = Tags::new();
    for (name, value) in json.tags {
        let serde_json::Value::String(v) = value else {
            return Err(Error::at(offset, format!("tags.{name}: not a string")));
        };
        Tags::check_pgn_tag("tags", &name, &v)
            .map_err(|e| e.with_place(crate::Place::at_offset(offset)))?;
        tags.push(name, v);
    }
    let start = StartPosition::from_tags(&tags).map_err(|e| Error::at(offset, e.to_string()))?;
    let start_fen = Fen::from_position(&start.position, EnPassantMode::Legal).to_string();
    if start_fen != json.start {
        return Err(Error::at(
            offset,
            format!(
                "start {:?} does not match the FEN tag ({start_fen:?})",
                json.start
            ),
        ));
    }
    let line = JsonLine {
        comments: json.comments,
        moves: json.moves,
    };
    let moves = line_in(line, start.position.clone(), "moves", offset, 0)?;
    Ok(Game {
        tags,
        start,
        moves,
        result: json.result,
        final_comments: {
            check_comments(&json.final_comments, offset, &|| "final_comments".into())?;
            comments_in(json.final_comments)
        },
    })
}

/// notate's game JSON, one game per line.
#[derive(Debug, Default)]
pub struct Json {
    options: WriteOptions,
}

/// How game JSON is read (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {}

/// How game JSON is written.
///
/// ```
/// use notate::chess::{json, pgn};
/// let game = pgn::read_one("1. e4 *").unwrap();
/// let line = json::to_string_with(&game, json::WriteOptions { fens: true }).unwrap();
/// assert!(line.contains(r#""fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1""#));
/// assert_eq!(json::read_one(&line).unwrap(), game);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Each move also gives `fen`, the position after it (read back, it is checked).
    pub fens: bool,
}

read_format!(
    Json,
    ChessGame,
    "game JSON",
    ReadOptions,
    lines,
    |record, options| { vec![utf8(record).and_then(|text| read_json(text, 0))] }
);

impl WriteFormat for Json {
    type Game = ChessGame;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Json {
        Json { options }
    }

    fn write_game(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        write_json(game, out, self.options);
        Ok(())
    }
}

write_verbs!(Json, ChessGame, "game JSON");
