//! `Tracker`: a live game's moves as piece-track actions, for animating a board move by move
//! (the tracks format for whole games is `convert(…, {to: "tracks"})`).

use notate::chess::tracks;
use notate::shakmaty::{fen::Fen, Chess, EnPassantMode, Position};
use wasm_bindgen::prelude::*;

use crate::{parse_move, position, throw};

/// Follows a game: every piece keeps its name (`wqbp`), every move gives the actions on the
/// pieces it touches (`[["wkp","e4"]]`, `[["wkn","d5"],["bqp","x"]]`).
#[wasm_bindgen]
pub struct Tracker {
    pos: Chess,
    tracker: tracks::Tracker,
}

#[wasm_bindgen]
impl Tracker {
    /// A tracker from `fen` (`undefined`: the standard start).
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<String>) -> Result<Tracker, JsValue> {
        let pos = position(fen.as_deref()).map_err(throw)?;
        Ok(Tracker {
            tracker: tracks::Tracker::new(pos.board()),
            pos,
        })
    }

    /// Plays a move (SAN or UCI) and gives its actions as JSON.
    pub fn play(&mut self, mv: &str) -> Result<String, JsValue> {
        let played = parse_move(&self.pos, mv).map_err(throw)?;
        let actions = self.tracker.play(played).map_err(|e| {
            throw(notate::Error::new(notate::ErrorKind::Illegal, e.to_string()).with_token(mv))
        })?;
        self.pos.play_unchecked(played);
        Ok(serde_json::to_string(&actions).expect("actions are JSON"))
    }

    /// Every piece and its square, as a JSON object `{"wqbp": "c1", …}` in square order.
    pub fn pieces(&self) -> String {
        let map: serde_json::Map<String, serde_json::Value> = self
            .tracker
            .pieces()
            .map(|(id, sq)| (id.as_str().to_string(), sq.to_string().into()))
            .collect();
        serde_json::Value::Object(map).to_string()
    }

    /// The position now, as FEN.
    #[wasm_bindgen(getter)]
    pub fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }
}
