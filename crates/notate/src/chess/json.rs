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

use serde::{Deserialize, Serialize};
use shakmaty::{fen::Fen, san::SanPlus, uci::UciMove, Chess, EnPassantMode};

use super::game::{
    play, ChessGame, Comment, Eval, Game, GameResult, Line, Played, Ply, StartPosition, Tags,
};
use super::san::{MoveSpec, SanText};
use crate::format::{read_format, utf8, write_verbs, WriteFormat};
use crate::Error;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonGame {
    tags: serde_json::Map<String, serde_json::Value>,
    start: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<JsonComment>,
    moves: Vec<JsonMove>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<GameResult>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    final_comments: Vec<JsonComment>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonLine {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<JsonComment>,
    moves: Vec<JsonMove>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonMove {
    san: String,
    uci: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    written: Option<String>,
    /// The position after the move, when the writer is asked for it ([`WriteOptions::fens`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<JsonComment>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    variations: Vec<JsonLine>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonComment {
    text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clock: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    emt: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    eval: Option<Eval>,
}

fn comments_out(comments: &[Comment]) -> Vec<JsonComment> {
    comments
        .iter()
        .map(|c| JsonComment {
            text: c.text.clone(),
            clock: c.clock,
            emt: c.emt,
            eval: c.eval,
        })
        .collect()
}

fn line_out(
    line: &Line<Played>,
    mut pos: Chess,
    mode: shakmaty::CastlingMode,
    fens: bool,
) -> JsonLine {
    let mut moves = Vec::with_capacity(line.plies.len());
    for ply in &line.plies {
        let variations = ply
            .variations
            .iter()
            .map(|v| line_out(v, pos.clone(), mode, fens))
            .collect();
        let (san, uci) = match ply.mv.mv {
            Some(m) => {
                let uci = m.to_uci(mode).to_string();
                (
                    SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string(),
                    uci,
                )
            }
            None => {
                play(&mut pos, None);
                ("--".to_string(), "0000".to_string())
            }
        };
        let written = (ply.mv.san.as_str() != san).then(|| ply.mv.san.to_string());
        let fen = fens.then(|| Fen::from_position(&pos, EnPassantMode::Legal).to_string());
        moves.push(JsonMove {
            san,
            uci,
            written,
            fen,
            nags: ply.nags.clone(),
            comments: comments_out(&ply.comments),
            variations,
        });
    }
    JsonLine {
        comments: comments_out(&line.comments),
        moves,
    }
}

/// Appends one game as a line of JSON (with the newline).
fn write_json(game: &ChessGame, out: &mut Vec<u8>, options: WriteOptions) {
    let (start, mode) = (&game.start.position, game.start.castling);
    let line = line_out(&game.moves, start.clone(), mode, options.fens);
    let json = JsonGame {
        tags: game
            .tags
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())))
            .collect(),
        start: Fen::from_position(start, EnPassantMode::Legal).to_string(),
        comments: line.comments,
        moves: line.moves,
        result: game.result,
        final_comments: comments_out(&game.final_comments),
    };
    serde_json::to_writer(&mut *out, &json).expect("writing JSON to memory");
    out.push(b'\n');
}

fn comments_in(comments: Vec<JsonComment>) -> Vec<Comment> {
    // The commands are parsed from the text again, so text and fields cannot disagree.
    comments.into_iter().map(|c| Comment::new(c.text)).collect()
}

fn line_in(
    line: JsonLine,
    mut pos: Chess,
    path: &str,
    offset: usize,
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
            .map(|(j, v)| {
                line_in(
                    v,
                    pos.clone(),
                    &format!("{here}.variations[{j}].moves"),
                    offset,
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
            nags: m.nags,
            comments: comments_in(m.comments),
            variations,
        });
    }
    Ok(Line {
        comments: comments_in(line.comments),
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
        match value {
            serde_json::Value::String(v) => tags.push(name, v),
            _ => {
                return Err(Error::at(offset, format!("tags.{name}: not a string")));
            }
        }
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
    let moves = line_in(line, start.position.clone(), "moves", offset)?;
    Ok(Game {
        tags,
        start,
        moves,
        result: json.result,
        final_comments: comments_in(json.final_comments),
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
