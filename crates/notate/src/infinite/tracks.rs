//! Piece tracks for infinite chess, with the shape of [`crate::chess::tracks`]: every piece
//! keeps a name for its whole life, and every move becomes a short list of actions on named
//! pieces, on a board of any size.
//!
//! Names: side (`w`, `b`, `n` for neutral pieces such as obstacles and voids), the piece's
//! upper-case code, and the square it starts on: `wP1,2`, `bK5,8`, `nOB0,0`,
//! `wAM100000000000000000000,1`. A pawn that promotes is removed and its new piece is named
//! after it: the pawn's name, `=`, the new code (`wP1,2=Q`).
//!
//! Actions: `[name, "x,y"]` puts a piece on a square, `[name, "x"]` removes a captured piece,
//! `[name, "p"]` removes a pawn that promotes (its new piece is then put on the square).
//! Castling moves the king, then its partner; en passant removes the pawn from its own square.
//!
//! ```text
//! {"metadata":{"Result":"*"},"start":{"wK5,1":"5,1","wR8,1":"8,1","bK5,8":"5,8"},
//!  "moves":[{"ply":1,"icn":"5,1>7,1","actions":[["wK5,1","7,1"],["wR8,1","6,1"]]}]}
//! ```

use std::collections::HashMap;

use serde::ser::{Serialize, SerializeTuple, Serializer};

use super::coord::Coord;
use super::game::{Game, Position};
use super::piece::{Piece, Player};
use super::replay::{Board, Played};
use super::short::{self, Dialect, MoveStyle};
use crate::format::{write_verbs, WriteFormat};
use crate::json_text::{write_object, write_str, write_u64};
use crate::Error;

/// What an action does to its piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Onto a square.
    Square(Coord),
    /// Off the board, captured (`"x"`).
    Captured,
    /// Off the board, promoted: a new piece takes its place (`"p"`).
    Promoted,
}

/// One change to one piece: `["wP1,2","1,4"]`, `["bP2,7","x"]`, `["wP1,2","p"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The piece's name.
    pub piece: String,
    /// What happens to it.
    pub target: Target,
}

impl Target {
    fn text(&self) -> String {
        match self {
            Target::Square(square) => square.to_string(),
            Target::Captured => "x".to_owned(),
            Target::Promoted => "p".to_owned(),
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.piece)?;
        t.serialize_element(&self.target.text())?;
        t.end()
    }
}

fn side_letter(player: Player) -> char {
    match player {
        Player::White => 'w',
        Player::Black => 'b',
        Player::Neutral => 'n',
    }
}

fn name_of(piece: Piece, square: &Coord) -> String {
    format!("{}{}{square}", side_letter(piece.player), piece.kind.code())
}

/// Follows the named pieces of an infinite-chess game.
///
/// ```
/// use notate::infinite::{short, tracks::Tracker};
/// let game = short::read_one("w K5,1+|R8,1+|k5,8 5,1>7,1").unwrap();
/// let mut tracker = Tracker::new(game.position.as_ref().unwrap());
/// let mut board = notate::infinite::replay::Board::new(&game);
/// let mv = &game.moves.as_ref().unwrap()[0];
/// let played = board.play(mv, 1).unwrap();
/// let actions = tracker.play(mv, &played);
/// assert_eq!(serde_json::to_string(&actions).unwrap(), r#"[["wK5,1","7,1"],["wR8,1","6,1"]]"#);
/// ```
#[derive(Clone, Debug)]
pub struct Tracker {
    names: HashMap<Coord, String>,
}

impl Tracker {
    /// Names the pieces of a start position by their squares.
    pub fn new(start: &Position) -> Tracker {
        Tracker {
            names: start
                .iter()
                .map(|(square, piece)| (square.clone(), name_of(piece, square)))
                .collect(),
        }
    }

    /// The name of the piece on `square`.
    pub fn name(&self, square: &Coord) -> Option<&str> {
        self.names.get(square).map(String::as_str)
    }

    /// Follows `mv`, which [`Board::play`] has just played and described as `played`.
    pub fn play(&mut self, mv: &super::game::Move, played: &Played) -> Vec<Action> {
        let mut actions = Vec::with_capacity(2);
        let mover = self
            .names
            .remove(&mv.from)
            .unwrap_or_else(|| name_of(played.piece, &mv.from));
        let captured = played
            .captured
            .as_ref()
            .and_then(|(square, _)| self.names.remove(square));
        actions.push(Action {
            piece: mover.clone(),
            target: Target::Square(mv.to.clone()),
        });
        if let Some(captured) = captured {
            actions.push(Action {
                piece: captured,
                target: Target::Captured,
            });
        }
        let standing = match mv.promotion {
            Some(promotion) => {
                actions.push(Action {
                    piece: mover.clone(),
                    target: Target::Promoted,
                });
                let promoted = format!("{mover}={}", promotion.kind.code());
                actions.push(Action {
                    piece: promoted.clone(),
                    target: Target::Square(mv.to.clone()),
                });
                promoted
            }
            None => mover,
        };
        self.names.insert(mv.to.clone(), standing);
        if let Some((dir, partner_square)) = &played.castle
            && let Some(partner) = self.names.remove(partner_square)
        {
            let landing = Coord {
                x: mv.to.x.add_i64(-dir),
                y: mv.to.y.clone(),
            };
            actions.push(Action {
                piece: partner.clone(),
                target: Target::Square(landing.clone()),
            });
            self.names.insert(landing, partner);
        }
        actions
    }
}

/// Piece tracks of infinite-chess games: one JSON object a line, `{"metadata": {…}, "start":
/// {name: "x,y"}, "moves": [{"ply", "icn", "actions"}]}`.
///
/// ```
/// use notate::infinite::{short, tracks};
/// let game = short::read_one("w P1,2+|k5,8|K5,1 1,2>1,4").unwrap();
/// let line = tracks::to_string(&game).unwrap();
/// assert!(line.contains(r#""moves":[{"ply":1,"icn":"1,2>1,4","actions":[["wP1,2","1,4"]]}]"#));
/// ```
#[derive(Debug, Default)]
pub struct Tracks;

impl Tracks {
    fn write(game: &Game, out: &mut Vec<u8>) -> Result<(), Error> {
        let start = game.position.clone().unwrap_or_default();
        let mut tracker = Tracker::new(&start);
        let mut board = Board::new(game);
        let mark = out.len();
        out.extend_from_slice(b"{\"metadata\":");
        write_object(
            out,
            game.metadata.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        );
        out.extend_from_slice(b",\"start\":");
        let start: Vec<(String, String)> = start
            .iter()
            .map(|(square, piece)| (name_of(piece, square), square.to_string()))
            .collect();
        write_object(
            out,
            start
                .iter()
                .map(|(name, square)| (name.as_str(), square.as_str())),
        );
        out.extend_from_slice(b",\"moves\":[");
        for (i, mv) in game.moves.iter().flatten().enumerate() {
            let played = board.play(mv, i + 1).inspect_err(|_| out.truncate(mark))?;
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"ply\":");
            write_u64(out, i as u64 + 1);
            out.extend_from_slice(b",\"icn\":");
            write_str(
                out,
                &short::write_move(mv, MoveStyle::Minimal, Dialect::V2024),
            );
            out.extend_from_slice(b",\"actions\":[");
            for (j, action) in tracker.play(mv, &played).iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                out.push(b'[');
                write_str(out, &action.piece);
                out.push(b',');
                write_str(out, &action.target.text());
                out.push(b']');
            }
            out.extend_from_slice(b"]}");
        }
        out.extend_from_slice(b"]}\n");
        Ok(())
    }
}

/// How infinite-chess piece tracks are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

impl WriteFormat for Tracks {
    type Game = Game;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> Tracks {
        Tracks
    }

    fn write_game(&mut self, game: &Game, out: &mut Vec<u8>) -> Result<(), Error> {
        Tracks::write(game, out)
    }
}

write_verbs!(Tracks, Game, "infinite-chess piece tracks");
