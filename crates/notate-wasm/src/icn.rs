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

fn long_text(game: &Game) -> Result<String, JsValue> {
    long::to_string_with(game, long::WriteOptions::default())
        .map(reference)
        .map_err(throw)
}

/// `ShortToLong_Format(text)`: the long form's JSON text.
#[wasm_bindgen(js_name = icnShortToLong)]
pub fn short_to_long(text: &str) -> Result<String, JsValue> {
    long_text(&short::read_one(text).map_err(throw)?)
}

/// `LongToShort_Format(json, options)`: `options` is the JSON of
/// the options of [`crate::convert::options`] (`moves`, `singleLine`, `position`, `dialect` …).
#[wasm_bindgen(js_name = icnLongToShort)]
pub fn long_to_short(json: &str, options: &str) -> Result<String, JsValue> {
    let options = crate::convert::options(options).map_err(throw)?;
    let game = long::read_one(json).map_err(throw)?;
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
