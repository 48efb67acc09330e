//! notate for JavaScript: the WebAssembly layer under the npm package `notate` (`js/`).
//!
//! A thin layer over the library: every export reads with the library's readers and writes
//! with its writers; nothing here knows a format. Structured results cross into JavaScript
//! as JSON text (which `JSON.parse` turns into objects faster than building them one
//! property at a time from Rust), and every failure is thrown as the JSON of one
//! [`notate::Error`], which `js/src/core.js` turns into a `NotateError`.
//!
//! | module | what it exports |
//! |---|---|
//! | [`convert`] | `convert`, `check` and the streaming `GameFeed`, for every format |
//! | [`icn`] | what `notate/formatconverter` needs: ICN short ↔ long, positions, compact moves |
//! | [`jsonchess`] | what `notate/jsonchess` needs: packed moves, histories, premoves, ratings, messages, updates |
//! | [`tracker`] | `Tracker`: a live game's moves as piece-track actions |

pub mod convert;
pub mod icn;
pub mod jsonchess;
pub mod tracker;

use notate::{Error, ErrorKind};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

// Shift_JIS and EUC-JP shogi records are decoded by the JavaScript engine's TextDecoder, which
// implements the WHATWG Encoding Standard as encoding_rs does: the package leaves out
// encoding_rs's tables (135 KB gzipped), and the size they leave pays for optimizing the
// chess reader for speed (see the `wasm` profile in Cargo.toml).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(inline_js = "export function decodeLegacy(label, bytes) { \
    try { return new TextDecoder(label).decode(bytes); } catch { return undefined; } }")]
extern "C" {
    #[wasm_bindgen(js_name = decodeLegacy)]
    fn decode_legacy(label: &str, bytes: &[u8]) -> Option<String>;
}

/// Traps the instance, as an allocation that fails does (the layer aborts on one): for the
/// tests of `js/src/core.js`, which must give a `NotateError` and a fresh instance. Not part
/// of the package's API.
#[doc(hidden)]
#[wasm_bindgen(js_name = __notateTrap)]
pub fn trap() {
    std::process::abort()
}

/// Runs when the module is instantiated.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(start)]
fn start() {
    use notate::shogi::encoding::{set_legacy_decoder, Encoding};
    set_legacy_decoder(|encoding, bytes| {
        let label = match encoding {
            Encoding::EucJp => "euc-jp",
            _ => "shift_jis",
        };
        decode_legacy(label, bytes)
    });
}

/// An error as JSON, with its place 1-based as the command line prints it.
///
/// ```
/// use notate::{Error, ErrorKind, Place};
/// let error = Error::new(ErrorKind::Illegal, "no such move").with_place(Place::at_line(3, 7)).with_ply(5);
/// let json = notate_wasm::error_json(&error);
/// assert_eq!((json["line"].as_u64(), json["column"].as_u64(), json["ply"].as_u64()), (Some(3), Some(7), Some(5)));
/// assert_eq!(json["kind"], "illegal");
/// ```
pub fn error_json(error: &Error) -> Value {
    let place = error.line_and_column();
    json!({
        "kind": error.kind.name(),
        "message": error.message,
        "line": place.map(|(line, _)| line),
        "column": place.and_then(|(_, column)| column),
        "offset": error.place.and_then(|p| p.offset),
        "game": error.game,
        "ply": error.ply,
        "token": error.token,
        "path": error.path,
        "display": error.to_string(),
    })
}

/// What an export throws: the error's JSON, as a string (`js/src/core.js` makes it a
/// `NotateError`).
pub(crate) fn throw(error: Error) -> JsValue {
    JsValue::from_str(&error_json(&error).to_string())
}

/// A usage error (an unknown format or option), thrown as any other error.
pub(crate) fn usage(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Usage, message)
}

/// A JSON argument from JavaScript, read into `T`; the error names the argument.
pub(crate) fn argument<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, Error> {
    serde_json::from_str(text).map_err(|e| usage(format!("{what}: {e}")))
}

/// The chess position of a FEN (`None`: the standard start), as the JavaScript APIs take
/// positions.
pub(crate) fn position(fen: Option<&str>) -> Result<notate::shakmaty::Chess, Error> {
    use notate::shakmaty::{fen::Fen, CastlingMode, Chess};
    let Some(fen) = fen else {
        return Ok(Chess::default());
    };
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| usage(format!("FEN {fen:?}: {e}")).with_token(fen))?;
    parsed
        .clone()
        .into_position(CastlingMode::Standard)
        .or_else(|_| parsed.into_position(CastlingMode::Chess960))
        .map_err(|e| Error::new(ErrorKind::Illegal, format!("FEN {fen:?}: {e}")).with_token(fen))
}

/// A move of `pos` written in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `O-O`, `e8=Q+`).
pub(crate) fn parse_move(
    pos: &notate::shakmaty::Chess,
    text: &str,
) -> Result<notate::shakmaty::Move, Error> {
    use notate::shakmaty::uci::UciMove;
    let bad = |why: String| Error::new(ErrorKind::Illegal, why).with_token(text);
    if let Ok(uci) = text.parse::<UciMove>()
        && !matches!(uci, UciMove::Null)
    {
        return uci
            .to_move(pos)
            .map_err(|e| bad(format!("move {text:?}: {e}")));
    }
    match notate::chess::san::play_token(pos, text.as_bytes()) {
        Ok(Some(mv)) => Ok(mv),
        Ok(None) => Err(bad(format!("move {text:?}: a null move"))),
        Err(e) => Err(bad(format!("move {text:?}: {e}"))),
    }
}
