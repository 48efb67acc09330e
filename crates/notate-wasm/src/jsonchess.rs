//! What `notate/jsonchess` needs: the jsonchess library's modules (`Move`, `History`,
//! `Premove`, the constants) with positions as FEN strings, plus Glicko-2 rating, the
//! protocol's messages and its generic updates, each as the library does it.

use notate::chess::jsonchess::{self as packed, Extra, Field7, PackedMove, RightsLost};
use notate::protocol::glicko2::{self, RatedResult, Rating};
use notate::protocol::messages::{ClientMessage, ServerMessage};
use notate::protocol::premoves::{Premove, PremoveJson};
use notate::protocol::{self, updates::Update};
use notate::shakmaty::{fen::Fen, Chess, Color, EnPassantMode, Move, Position, Role, Square};
use notate::{Error, ErrorKind};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::{argument, parse_move, position, throw, usage};

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn packed_error(text: &str, e: packed::PackedError) -> Error {
    Error::new(ErrorKind::Syntax, format!("packed move {text:?}: {e}")).with_token(e.token)
}

fn field7(reference_rights: bool) -> Field7 {
    if reference_rights {
        Field7::OrReference
    } else {
        Field7::Exact
    }
}

/// The constants of the jsonchess modules (`constants`, `glicko2`, `gameRestoration`,
/// `chatMessageTypes`), from the library's values.
#[wasm_bindgen(js_name = jsonchessConstants)]
pub fn constants() -> String {
    let defaults = Rating::default();
    json!({
        "constants": {
            "SEEK_TIMEOUT": protocol::SEEK_TIMEOUT_MS,
            "REMATCH_TIMEOUT": protocol::REMATCH_TIMEOUT_MS,
            "TIME_FOR_MOVES_BEFORE_CLOCK_START": protocol::TIME_FOR_MOVES_BEFORE_CLOCK_START_MS,
        },
        "glicko2": {
            "defaults": {"RATING": defaults.rating, "RD": defaults.rd, "VOL": defaults.vol},
            "GAMES_PER_RATING_PERIOD": glicko2::GAMES_PER_RATING_PERIOD,
        },
        "gameRestoration": {"MIN_MOVES": protocol::MIN_PLIES_TO_RESTORE},
        "chatMessageTypes": {
            "ADMIN": protocol::ChatMessageType::Admin as u8,
            "USER": protocol::ChatMessageType::User as u8,
        },
    })
    .to_string()
}

/// `Move.encodeAndPack`: `mv` (SAN or UCI) played in `fen` at `time` (ms), packed.
#[wasm_bindgen(js_name = jsonchessEncodeAndPack)]
pub fn encode_and_pack(fen: &str, mv: &str, time: f64) -> Result<String, JsValue> {
    let pos = position(Some(fen)).map_err(throw)?;
    let played = parse_move(&pos, mv).map_err(throw)?;
    Ok(PackedMove::encode(&pos, played, time.max(0.0) as u64).to_string())
}

fn rights_letters(rights: RightsLost) -> Value {
    match rights {
        RightsLost::None => json!([]),
        RightsLost::KingSide => json!(["K"]),
        RightsLost::QueenSide => json!(["Q"]),
        RightsLost::Both => json!(["K", "Q"]),
    }
}

fn unpacked(mv: &PackedMove) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    out.insert("fullmove".into(), mv.fullmove.into());
    out.insert("index".into(), mv.index.into());
    out.insert("label".into(), mv.san.as_str().into());
    out.insert("time".into(), mv.time.into());
    out.insert("from".into(), mv.from.to_string().into());
    out.insert("to".into(), mv.to.to_string().into());
    out.insert("castlingRightsLost".into(), rights_letters(mv.rights_lost));
    out.insert(
        "epTarget".into(),
        mv.ep_target.map(|s| s.to_string()).into(),
    );
    let kind = match mv.extra {
        Extra::None => Value::Null,
        Extra::Castle { .. } => "c".into(),
        Extra::Promotion(_) => "p".into(),
        Extra::EnPassant(_) => "ep".into(),
    };
    out.insert("type".into(), kind);
    match mv.extra {
        Extra::None => {}
        Extra::Castle { rook_from, rook_to } => {
            out.insert("castlingRookFrom".into(), rook_from.to_string().into());
            out.insert("castlingRookTo".into(), rook_to.to_string().into());
        }
        Extra::EnPassant(sq) => {
            out.insert("epCapture".into(), sq.to_string().into());
        }
        Extra::Promotion(role) => {
            out.insert("promoteTo".into(), role.upper_char().to_string().into());
        }
    }
    out
}

/// `Move.unpack`: the fields of a packed move (checked: a malformed field is an error that
/// names it).
#[wasm_bindgen(js_name = jsonchessUnpack)]
pub fn unpack(text: &str) -> Result<String, JsValue> {
    let mv = PackedMove::parse(text).map_err(|e| throw(packed_error(text, e)))?;
    Ok(Value::Object(unpacked(&mv)).to_string())
}

/// The decoded move of the reference (its fields in its order), positions as FEN.
fn decoded(pos: &Chess, text: &str, field7: Field7) -> Result<(Value, Chess), Error> {
    let mv = PackedMove::parse(text).map_err(|e| packed_error(text, e))?;
    let played = mv
        .to_move_with(pos, field7)
        .map_err(|e| packed_error(text, e).with_kind(ErrorKind::Illegal))?;
    let colour = pos.turn();
    let piece = |sq: Square| pos.board().piece_at(sq).map(|p| p.char().to_string());
    let captured = match &played {
        Move::EnPassant { .. } => Some(if colour == Color::White { "p" } else { "P" }.to_string()),
        Move::Normal {
            capture: Some(role),
            ..
        } => Some(role.of(!colour).char().to_string()),
        _ => None,
    };
    let promotion = played.promotion();
    let mut after = pos.clone();
    after.play_unchecked(played);
    let label = mv.san.as_str();
    let dots = if colour == Color::White { "." } else { "..." };
    let (rook_from, rook_to) = match mv.extra {
        Extra::Castle { rook_from, rook_to } => {
            (Some(rook_from.to_string()), Some(rook_to.to_string()))
        }
        _ => (None, None),
    };
    let uci = played
        .to_uci(notate::shakmaty::CastlingMode::Standard)
        .to_string();
    let value = json!({
        "fullmove": mv.fullmove,
        "index": mv.index,
        "label": label,
        "fullLabel": format!("{}{dots} {label}", mv.fullmove),
        "uciLabel": uci,
        "colour": colour.char().to_string(),
        "from": mv.from.to_string(),
        "to": mv.to.to_string(),
        "piece": piece(mv.from),
        "positionBefore": fen_of(pos),
        "positionAfter": fen_of(&after),
        "isCheck": label.ends_with('+') || label.ends_with('#'),
        "isMate": label.ends_with('#'),
        "isLegal": true,
        "isCastling": matches!(mv.extra, Extra::Castle { .. }),
        "castlingRookFrom": rook_from,
        "castlingRookTo": rook_to,
        "castlingRightsLost": rights_letters(mv.rights_lost),
        "isPromotion": promotion.is_some(),
        "promoteTo": promotion.map(|r: Role| r.upper_char().to_string()),
        "isEnPassant": matches!(played, Move::EnPassant { .. }),
        "capturedPiece": captured,
        "time": mv.time,
    });
    Ok((value, after))
}

/// `Move.decode`: a packed move of the position `fen`, checked as the library checks it (a
/// legal move whose SAN, squares and fields agree); `reference_rights` also accepts field 7
/// as the reference library writes it.
#[wasm_bindgen(js_name = jsonchessDecode)]
pub fn decode(text: &str, fen: &str, reference_rights: bool) -> Result<String, JsValue> {
    let pos = position(Some(fen)).map_err(throw)?;
    decoded(&pos, text, field7(reference_rights))
        .map(|(v, _)| v.to_string())
        .map_err(throw)
}

/// `History.decode`: every packed move of a game from `fen` (`undefined`: the standard
/// start), each decoded in the position the previous one left. An error names the ply.
#[wasm_bindgen(js_name = jsonchessHistoryDecode)]
pub fn history_decode(
    history: &str,
    fen: Option<String>,
    reference_rights: bool,
) -> Result<String, JsValue> {
    let history: Vec<String> = argument("history", history).map_err(throw)?;
    let mut pos = position(fen.as_deref()).map_err(throw)?;
    let mut out = Vec::with_capacity(history.len());
    for (i, text) in history.iter().enumerate() {
        let (value, after) =
            decoded(&pos, text, field7(reference_rights)).map_err(|e| throw(e.with_ply(i + 1)))?;
        out.push(value);
        pos = after;
    }
    Ok(Value::from(out).to_string())
}

fn square(text: &str) -> Result<Square, Error> {
    if let Ok(n) = text.parse::<u32>()
        && n < 64
    {
        return Ok(Square::new(n));
    }
    text.parse()
        .map_err(|_| usage(format!("square {text:?}: a1 … h8 or 0 … 63")).with_token(text))
}

/// `new Premove(fen, from, to, promoteTo)`: whether the premove is valid (by the piece's
/// shape, as the protocol checks premoves), the board after it (FEN's first field), and its
/// wire form.
#[wasm_bindgen(js_name = jsonchessPremove)]
pub fn premove(
    fen: &str,
    from: &str,
    to: &str,
    promote_to: Option<String>,
) -> Result<String, JsValue> {
    let pos = position(Some(fen)).map_err(throw)?;
    let from = square(from).map_err(throw)?;
    let to = square(to).map_err(throw)?;
    let role = match promote_to.as_deref() {
        None => None,
        Some(letter) => Some(
            letter
                .chars()
                .next()
                .and_then(|c| Role::from_char(c.to_ascii_lowercase()))
                .ok_or_else(|| throw(usage(format!("promoteTo {letter:?}: N, B, R or Q"))))?,
        ),
    };
    let piece = pos.board().piece_at(from).map(|p| p.char().to_string());
    let result = Premove::new(&pos, from, to, role);
    let (board, wire, error) = match &result {
        Ok(p) => (
            p.board_after(pos.board()).to_string(),
            serde_json::to_value(PremoveJson::from(*p)).expect("a premove is JSON"),
            Value::Null,
        ),
        Err(e) => (
            pos.board().to_string(),
            json!({"from": u32::from(from), "to": u32::from(to)}),
            e.to_string().into(),
        ),
    };
    Ok(json!({
        "isValid": result.is_ok(),
        "error": error,
        "board": board,
        "from": from.to_string(),
        "to": to.to_string(),
        "promoteTo": result.ok().and_then(|p| p.promote_to).map(|r| r.upper_char().to_string()),
        "piece": piece,
        "json": wire,
    })
    .to_string())
}

/// A Glicko-2 rating period: `player` (`{rating, rd, vol}`) after `results`
/// (`[{opponent: {rating, rd, vol}, score}]`), with the system constant `tau`.
#[wasm_bindgen(js_name = glicko2Rate)]
pub fn rate(player: &str, results: &str, tau: Option<f64>) -> Result<String, JsValue> {
    let player: Rating = argument("player", player).map_err(throw)?;
    let results: Vec<RatedResult> = argument("results", results).map_err(throw)?;
    let tau = tau.unwrap_or(glicko2::TAU);
    // Numbers the formulas hold: a rating, positive deviation and volatility, a score from 0
    // to 1, a positive tau. Outside them the result is NaN or infinite (JSON's null).
    let rating = |r: &Rating, what: String| {
        let ok = r.rating.is_finite()
            && r.rd.is_finite()
            && r.rd > 0.0
            && r.vol.is_finite()
            && r.vol > 0.0;
        ok.then_some(()).ok_or_else(|| {
            throw(usage(format!(
                "{what}: rating finite, rd and vol finite and above 0, not {r:?}"
            )))
        })
    };
    rating(&player, "player".into())?;
    for (i, r) in results.iter().enumerate() {
        rating(&r.opponent, format!("results[{i}].opponent"))?;
        if !(0.0..=1.0).contains(&r.score) {
            return Err(throw(usage(format!(
                "results[{i}].score: from 0 to 1 (1 a win, 0.5 a draw), not {}",
                r.score
            ))));
        }
    }
    if !(tau.is_finite() && tau > 0.0) {
        return Err(throw(usage(format!("tau: a number above 0, not {tau}"))));
    }
    let after = glicko2::rate(player, &results, tau);
    if !(after.rating.is_finite() && after.rd.is_finite() && after.vol.is_finite()) {
        return Err(throw(usage(
            "the ratings are too far apart for Glicko-2 to rate (the result is not a number)",
        )));
    }
    Ok(serde_json::to_string(&after).expect("a rating is JSON"))
}

/// A protocol message read and checked as `side` (`client`: what a client sends, `server`:
/// what a server sends) and written back in its normal form.
#[wasm_bindgen(js_name = protocolMessage)]
pub fn message(text: &str, side: &str) -> Result<String, JsValue> {
    let error = |e: notate::protocol::messages::MessageError| {
        throw(Error::new(ErrorKind::Syntax, e.to_string()).with_path(e.field))
    };
    match side {
        "client" => ClientMessage::parse(text)
            .map(|m| m.to_json())
            .map_err(error),
        "server" => ServerMessage::parse(text)
            .map(|m| m.to_json())
            .map_err(error),
        other => Err(throw(usage(format!("side {other:?}: client or server")))),
    }
}

/// Applies generic updates to a document, all or nothing: the document after every update,
/// or an error naming the update that failed (its 1-based number in `ply`).
#[wasm_bindgen(js_name = protocolApplyUpdates)]
pub fn apply_updates(doc: &str, updates: &str) -> Result<String, JsValue> {
    let mut doc: Value = argument("document", doc).map_err(throw)?;
    let updates: Vec<Update> = argument("updates", updates).map_err(throw)?;
    protocol::updates::apply_all(&mut doc, &updates).map_err(|(i, e)| {
        throw(
            Error::new(ErrorKind::Syntax, format!("update {}: {e}", i + 1))
                .with_path(e.key)
                .with_token(e.part),
        )
    })?;
    Ok(doc.to_string())
}
