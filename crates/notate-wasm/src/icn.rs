//! What `notate/formatconverter` needs: ICN's short form ↔ its long JSON form, the position
//! after some plies, and compact moves, with the reference's results (FormatConverter.js,
//! 2024) as JSON text. Coordinates are written as exact integers, however large: the
//! JavaScript side reads those past 2^53 as `BigInt`.

use notate::infinite::short::{self, Dialect, MoveStyle};
use notate::infinite::{long, replay, Game};
use wasm_bindgen::prelude::*;

use crate::throw;

/// A text as the reference returns it: what notate writes, without the record's newline.
fn reference(mut text: String) -> String {
    if text.ends_with('\n') {
        text.pop();
    }
    text
}

/// The long form's JSON text on one line: JavaScript parses it, so indenting it would only
/// make more text to cross and read.
fn long_text(game: &Game) -> Result<String, JsValue> {
    let options = long::WriteOptions {
        pretty: false,
        ..Default::default()
    };
    long::to_string_with(game, options)
        .map(reference)
        .map_err(throw)
}

/// Separates the long form's JSON from its moves in [`short_to_long`]'s answer: a control
/// character, which JSON text never holds unescaped.
const MOVES_APART: char = '\u{1}';

/// `ShortToLong_Format(text)`: the long form's JSON text with `"moves":[]`, then, if the game
/// has moves, [`MOVES_APART`] and its moves' strings joined by `|`.
///
/// Why the moves travel apart: a long game is nearly all moves, and JavaScript makes an array
/// of strings from one string with `split` several times faster than `JSON.parse` reads the
/// same array (a 100,000-move game: 6 ms against 11 ms, and the JSON is longer to cross).
#[wasm_bindgen(js_name = icnShortToLong)]
pub fn short_to_long(text: &str) -> Result<String, JsValue> {
    let mut game = short::read_one(text).map_err(throw)?;
    let moves = game.moves.as_mut().map(std::mem::take);
    let mut out = long_text(&game)?;
    if let Some(moves) = moves {
        out.reserve(moves.len() * 12);
        out.push(MOVES_APART);
        for (i, mv) in moves.iter().enumerate() {
            if i > 0 {
                out.push('|');
            }
            long::write_move_text(mv, &mut out);
        }
    }
    Ok(out)
}

/// `LongToShort_Format(json, options)`: `options` is the JSON of
/// the options of [`crate::convert::options`] (`moves`, `singleLine`, `position`, `dialect` …).
#[wasm_bindgen(js_name = icnLongToShort)]
///
/// `moves`: the game's `count` moves, when they are all strings, joined by `|` and left out
/// of `json` (which then has `"moves":[]`), for the reason [`short_to_long`] gives. A move that
/// does not read, or a `|` inside a move (the count differs), is an error naming only its
/// place in `moves`: the JavaScript side reads the game again the ordinary way for the error
/// of the whole object.
pub fn long_to_short(
    json: &str,
    moves: Option<String>,
    count: usize,
    options: &str,
) -> Result<String, JsValue> {
    let options = crate::convert::options(options).map_err(throw)?;
    let mut game = long::read_one(json).map_err(throw)?;
    if let Some(moves) = moves {
        let list = game.moves.get_or_insert_with(Vec::new);
        list.reserve(count);
        if !moves.is_empty() {
            for (i, text) in moves.split('|').enumerate() {
                list.push(
                    long::move_from_text(text)
                        .map_err(|e| throw(e.with_path(format!("$.moves[{i}]"))))?,
                );
            }
        }
        if list.len() != count {
            return Err(throw(crate::usage(format!(
                "{count} moves were joined, {} read back",
                list.len()
            ))));
        }
    }
    short::to_string_with(&game, options.icn)
        .map(reference)
        .map_err(throw)
}

/// `GameToPosition(json, halfmoves)`: the long form of the game at `halfmoves` plies
/// (`undefined`: after the last).
#[wasm_bindgen(js_name = icnGameToPosition)]
pub fn game_to_position(json: &str, halfmoves: Option<f64>) -> Result<String, JsValue> {
    let game = long::read_one(json).map_err(throw)?;
    // The reference plays min(halfmoves, moves): a count past the end is the end.
    let plies = halfmoves.map(|n| {
        if n <= 0.0 {
            0
        } else {
            n.min(usize::MAX as f64) as usize
        }
    });
    let plies = plies.map(|n| n.min(game.moves.as_ref().map_or(0, Vec::len)));
    long_text(&replay::position_after(&game, plies).map_err(throw)?)
}

/// `ShortToLong_CompactMove(text)`: `{compact, startCoords, endCoords, promotion?}`.
#[wasm_bindgen(js_name = icnShortToLongMove)]
pub fn short_to_long_move(text: &str) -> Result<String, JsValue> {
    let mv = short::parse_move(text).map_err(throw)?;
    // Written by hand, not through `serde_json::Value`, whose numbers would round past 2^53.
    let mut out = format!(
        r#"{{"compact":{},"startCoords":[{},{}],"endCoords":[{},{}]"#,
        serde_json::Value::from(text),
        mv.from.x,
        mv.from.y,
        mv.to.x,
        mv.to.y
    );
    if let Some(p) = mv.promotion {
        out.push_str(&format!(
            r#","promotion":{}"#,
            serde_json::Value::from(p.long_name())
        ));
    }
    out.push('}');
    Ok(out)
}

/// `LongToShort_CompactMove(json)`: the move as `x,y>x,y[=P]`.
#[wasm_bindgen(js_name = icnLongToShortMove)]
pub fn long_to_short_move(json: &str) -> Result<String, JsValue> {
    let mv = long::move_from_json(json).map_err(throw)?;
    Ok(short::write_move(&mv, MoveStyle::Minimal, Dialect::V2024))
}
