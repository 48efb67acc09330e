//! Playing the moves: the position after N plies.
//!
//! Moves are not checked against the pieces' movement rules (fairy pieces, unbounded
//! board), but everything the record's own data can contradict is: a move must start from a
//! piece of the side to move, a named piece must be the one standing there, a promotion must
//! be a pawn's.

use super::coord::{Coord, Int};
use super::error::{self, Error};
use super::game::{Game, Move, Position, TopKey};
use super::piece::{Piece, PieceKind, Player};

/// What playing one move did (what the reference's legacy move objects record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The piece that moved (before any promotion).
    pub piece: Piece,
    /// The piece taken, and where it stood (another square for en passant).
    pub captured: Option<(Coord, Piece)>,
    /// The move took en passant.
    pub en_passant: bool,
    /// Castling: the direction (-1 or 1) and where the partner stood.
    pub castle: Option<(i64, Coord)>,
}

/// The state that moves change.
#[derive(Clone, Debug)]
pub struct Board {
    /// The pieces and their special rights.
    pub position: Position,
    /// Whose move it is.
    pub turn: Player,
    /// The square a pawn just skipped.
    pub en_passant: Option<Coord>,
    /// Plies since the last capture or pawn move, if the game counts them.
    pub move_rule_counter: Option<u64>,
    /// The full-move number, if the game has one.
    pub full_move: Option<u64>,
}

impl Board {
    /// The board at the start of `game` (White to move when the record does not say).
    pub fn new(game: &Game) -> Board {
        Board {
            position: game.position.clone().unwrap_or_default(),
            turn: game.turn.unwrap_or(Player::White),
            en_passant: game.en_passant.clone(),
            move_rule_counter: game.move_rule.map(|r| r.counter),
            full_move: game.full_move,
        }
    }

    /// Plays `mv`, the `ply`-th move (1-based, for errors).
    pub fn play(&mut self, mv: &Move, ply: usize) -> Result<Played, Error> {
        let fail = |message: String| {
            let mut written = mv.from.to_string();
            written.push('>');
            written.push_str(&mv.to.to_string());
            error::illegal(ply, written, message)
        };
        let Some(piece) = self.position.get(&mv.from) else {
            return Err(fail(format!("no piece on {}", mv.from)));
        };
        if piece.player != self.turn {
            return Err(fail(format!(
                "it is {}'s move, but {} holds a {} {}",
                self.turn.name(),
                mv.from,
                piece.player.name(),
                piece.kind.plural().trim_end_matches('s')
            )));
        }
        if let Some(named) = mv.piece
            && named != piece
        {
            return Err(fail(format!(
                "the record moves {named} but {piece} stands on {}",
                mv.from
            )));
        }
        if mv.from == mv.to {
            return Err(fail("a move must leave its square".into()));
        }
        if let Some(promotion) = mv.promotion
            && (piece.kind != PieceKind::Pawn || promotion.player != piece.player)
        {
            return Err(fail(format!("{piece} cannot promote to {promotion}")));
        }
        let mut target = self.position.get(&mv.to).map(|t| (mv.to.clone(), t));
        if let Some((_, t)) = &target
            && t.player == piece.player
        {
            return Err(fail(format!("{} is taken by its own side", mv.to)));
        }
        let mut en_passant = false;
        if piece.kind == PieceKind::Pawn
            && target.is_none()
            && mv.from.x != mv.to.x
            && self.en_passant.as_ref() == Some(&mv.to)
        {
            // The pawn that skipped `to` stands beside the capturing pawn's start.
            let victim_square = Coord {
                x: mv.to.x.clone(),
                y: mv.from.y.clone(),
            };
            match self.position.get(&victim_square) {
                Some(v) if v.kind == PieceKind::Pawn && v.player != piece.player => {
                    self.position.remove(&victim_square);
                    self.position.remove_special_right(&victim_square);
                    target = Some((victim_square, v));
                    en_passant = true;
                }
                _ => {
                    return Err(fail(format!(
                        "en passant onto {} but no enemy pawn on {victim_square}",
                        mv.to
                    )))
                }
            }
        }
        let castle = self.castling_partner(mv, piece);
        self.position
            .insert(mv.to.clone(), mv.promotion.unwrap_or(piece));
        self.position.remove(&mv.from);
        self.position.remove_special_right(&mv.from);
        self.position.remove_special_right(&mv.to);
        if let Some((dir, partner_square)) = &castle {
            let partner = self.position.remove(partner_square).expect("found above");
            self.position.remove_special_right(partner_square);
            let landing = Coord {
                x: mv.to.x.add_i64(-dir),
                y: mv.to.y.clone(),
            };
            self.position.insert(landing, partner);
        }
        let pawn = piece.kind == PieceKind::Pawn;
        if let Some(counter) = &mut self.move_rule_counter {
            // A capture the record claims counts too (the reference trusts `captured`).
            *counter = if pawn || target.is_some() || mv.capture {
                0
            } else {
                *counter + 1
            };
        }
        self.en_passant = if pawn && mv.from.x == mv.to.x && mv.to.y.sub(&mv.from.y).abs_at_least(2)
        {
            Some(Coord {
                x: mv.to.x.clone(),
                y: mv.from.y.midpoint(&mv.to.y),
            })
        } else {
            None
        };
        if self.turn == Player::Black
            && let Some(n) = &mut self.full_move
        {
            *n += 1;
        }
        self.turn = self.turn.opponent();
        Ok(Played {
            piece,
            captured: target,
            en_passant,
            castle,
        })
    }

    /// A king with its special right moving two or more squares along its rank castles with
    /// the nearest piece that way, if that piece has its special right too (and is no pawn).
    fn castling_partner(&self, mv: &Move, piece: Piece) -> Option<(i64, Coord)> {
        if piece.kind != PieceKind::King
            || mv.from.y != mv.to.y
            || !mv.to.x.sub(&mv.from.x).abs_at_least(2)
            || !self.position.has_special_right(&mv.from)
        {
            return None;
        }
        let dir = mv.to.x.sub(&mv.from.x).signum();
        let mut nearest: Option<(Int, &Coord, Piece)> = None;
        for (square, p) in self.position.iter() {
            if square.y != mv.from.y {
                continue;
            }
            let distance = square.x.sub(&mv.from.x);
            if distance.signum() != dir {
                continue;
            }
            let distance = if dir < 0 {
                Int::ZERO.sub(&distance)
            } else {
                distance
            };
            if nearest.as_ref().is_none_or(|(d, _, _)| distance < *d) {
                nearest = Some((distance, square, p));
            }
        }
        let (_, square, partner) = nearest?;
        (partner.player == piece.player
            && partner.kind != PieceKind::Pawn
            && self.position.has_special_right(square))
        .then(|| (dir, square.clone()))
    }
}

/// Plays every move of `game`, returning what each did.
///
/// ```
/// use notate::infinite::{replay, short};
/// let game = short::read_one("w K5,1+|R8,1+|k5,8 5,1>7,1").unwrap();
/// let played = replay::replay(&game).unwrap();
/// assert_eq!(played[0].castle.as_ref().unwrap().0, 1);
/// ```
pub fn replay(game: &Game) -> Result<Vec<Played>, Error> {
    let mut board = Board::new(game);
    let moves = game.moves.as_deref().unwrap_or_default();
    let mut played = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        played.push(board.play(mv, i + 1)?);
    }
    Ok(played)
}

/// The game after `plies` moves (`None`: all of them), as the reference's `GameToPosition`
/// but right: string moves work, en passant removes the captured pawn, castling moves the
/// partner, special rights of moved and captured pieces go, and turn, en passant square,
/// move-rule counter and full-move number advance. The moves are replaced by an empty list,
/// which goes last in the long form's key order, as in the reference.
///
/// ```
/// use notate::infinite::{replay, short, Coord};
/// let game = short::read_one("w 0/100 1 K5,1|k5,8|P4,2+ 4,2>4,4|5,8>5,7").unwrap();
/// let after = replay::position_after(&game, Some(1)).unwrap();
/// assert_eq!(after.en_passant, Some(Coord::new(4, 3)));
/// assert_eq!(after.move_rule.unwrap().counter, 0);
/// let end = replay::position_after(&game, None).unwrap();
/// assert_eq!((end.full_move, end.en_passant), (Some(2), None));
/// assert!(replay::position_after(&short::read_one("w K1,1|k2,2 3,3>3,4").unwrap(), None).is_err());
/// ```
pub fn position_after(game: &Game, plies: Option<usize>) -> Result<Game, Error> {
    if game.layout.position_as_text {
        return Err(error::json(
            "$.startingPosition",
            "must be an object to be replayed, not a piece list",
        ));
    }
    let Some(moves) = game.moves.as_deref().filter(|m| !m.is_empty()) else {
        return Ok(game.clone());
    };
    // Everything but the moves, which the result replaces (a long game's moves are most of it).
    let mut out = Game {
        metadata: game.metadata.clone(),
        turn: game.turn,
        en_passant: None,
        move_rule: game.move_rule,
        full_move: game.full_move,
        promotions: game.promotions.clone(),
        win_conditions: game.win_conditions.clone(),
        extra_rules: game.extra_rules.clone(),
        world_border: game.world_border.clone(),
        presets: game.presets.clone(),
        position: None,
        moves: None,
        layout: game.layout.clone(),
    };
    let count = plies.unwrap_or(moves.len()).min(moves.len());
    let mut board = Board::new(game);
    // JavaScript deletes the key when the square is cleared and appends it when set again.
    let mut ep_key_moved = game.en_passant.is_none();
    for (i, mv) in moves[..count].iter().enumerate() {
        board.play(mv, i + 1)?;
        if board.en_passant.is_none() {
            ep_key_moved = true;
        }
    }
    out.position = Some(board.position);
    if game.turn.is_some() {
        out.turn = Some(board.turn);
    }
    if let (Some(rule), Some(counter)) = (&mut out.move_rule, board.move_rule_counter) {
        rule.counter = counter;
    }
    out.full_move = board.full_move;
    out.en_passant = board.en_passant;
    if out.en_passant.is_some() && ep_key_moved {
        out.layout.move_to_end(TopKey::EnPassant);
    }
    out.moves = Some(Vec::new());
    out.layout.move_to_end(TopKey::Moves);
    Ok(out)
}
