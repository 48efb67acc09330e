//! Premoves: a move entered by the player who is not on move, played as soon as the opponent
//! has moved if it is legal then, dropped otherwise.
//!
//! A premove is checked by the shape of the piece's move only (blockers and the destination
//! are not looked at: the board will change first), as the reference does; unlike the
//! reference, castling premoves work (it throws on them).
//!
//! ```
//! use notate::protocol::premoves::{PremoveQueue, PremoveOutcome};
//! use notate::shakmaty::{Chess, Color, Position, Square, san::San};
//! let mut pos = Chess::default();
//! let mut queue = PremoveQueue::default();
//! // White is on move; black premoves e7-e5.
//! queue.queue(&pos, Color::Black, Square::E7, Square::E5, None).unwrap();
//! let mv = "e4".parse::<San>().unwrap().to_move(&pos).unwrap();
//! pos.play_unchecked(mv);
//! match queue.after_move(&pos) {
//!     Some(PremoveOutcome::Play(m)) => assert_eq!(m.to_string(), "e7-e5"),
//!     other => panic!("{other:?}"),
//! }
//! ```

use serde::{Deserialize, Serialize};
use shakmaty::{Board, CastlingSide, Chess, Color, Move, Position, Rank, Role, Square};

/// A premove as the protocol sends it: `{"from":52,"to":36}`, `promoteTo` only for a
/// promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Premove {
    /// From.
    pub from: Square,
    /// To (the king's destination for castling).
    pub to: Square,
    /// The promotion piece, for a pawn reaching the last rank.
    pub promote_to: Option<Role>,
}

/// Why a premove is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PremoveError {
    /// Nothing stands on the from-square.
    #[error("from {0}: no piece there")]
    NoPiece(Square),
    /// The piece belongs to the other player.
    #[error("from {0}: not your piece")]
    NotYours(Square),
    /// From and to are the same square.
    #[error("to {0}: the piece does not move")]
    NullMove(Square),
    /// The piece cannot move that way.
    #[error("to {to}: a {role} cannot move from {from} to {to}")]
    Shape {
        /// The piece.
        role: &'static str,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A promotion piece that is not N, B, R or Q.
    #[error("promoteTo: {0:?} is not N, B, R or Q")]
    PromotionPiece(char),
    /// A castling premove that can never become legal.
    #[error("to {0}: castling is not possible ({1})")]
    Castling(Square, &'static str),
    /// The player is on move: that is a move, not a premove.
    #[error("you are on move: send a move, not a premove")]
    OnMove,
    /// The player already has a premove queued.
    #[error("a premove is already queued: cancel it first")]
    AlreadyQueued,
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

impl Premove {
    /// Checks a premove by shape in `pos` (the position before the opponent's reply). The
    /// piece's own colour decides which way its pawns go; `promote_to` defaults to a queen
    /// on the last rank and is ignored on other moves.
    ///
    /// ```
    /// use notate::protocol::premoves::Premove;
    /// use notate::shakmaty::{Chess, Square};
    /// let pos = Chess::default();
    /// assert!(Premove::new(&pos, Square::A8, Square::A4, None).is_ok()); // through its pawn
    /// assert!(Premove::new(&pos, Square::G8, Square::G6, None).is_err());
    /// ```
    pub fn new(
        pos: &Chess,
        from: Square,
        to: Square,
        promote_to: Option<Role>,
    ) -> Result<Premove, PremoveError> {
        let board = pos.board();
        let piece = board.piece_at(from).ok_or(PremoveError::NoPiece(from))?;
        if from == to {
            return Err(PremoveError::NullMove(to));
        }
        let df = i32::from(to.file()) - i32::from(from.file());
        let dr = i32::from(to.rank()) - i32::from(from.rank());
        let shape = |ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(PremoveError::Shape {
                    role: role_name(piece.role),
                    from,
                    to,
                })
            }
        };
        let mut promotion = None;
        match piece.role {
            Role::Knight => shape(df.abs() * dr.abs() == 2)?,
            Role::Bishop => shape(df.abs() == dr.abs())?,
            Role::Rook => shape(df == 0 || dr == 0)?,
            Role::Queen => shape(df == 0 || dr == 0 || df.abs() == dr.abs())?,
            Role::King => {
                if df.abs() > 1 || dr.abs() > 1 {
                    check_castling(pos, piece.color, from, to)?;
                }
            }
            Role::Pawn => {
                if let Some(role) = promote_to
                    && matches!(role, Role::King | Role::Pawn)
                {
                    return Err(PremoveError::PromotionPiece(role.upper_char()));
                }
                let forward = if piece.color == Color::White { 1 } else { -1 };
                let start = if piece.color == Color::White {
                    Rank::Second
                } else {
                    Rank::Seventh
                };
                let step = dr == forward && df.abs() <= 1;
                let double = dr == 2 * forward && df == 0 && from.rank() == start;
                shape(step || double)?;
                if matches!(to.rank(), Rank::First | Rank::Eighth) {
                    promotion = Some(promote_to.unwrap_or(Role::Queen));
                }
            }
        }
        Ok(Premove {
            from,
            to,
            promote_to: promotion,
        })
    }

    /// The board with the premove made, to show it (castling moves the rook too).
    pub fn board_after(&self, board: &Board) -> Board {
        let mut board = board.clone();
        let Some(piece) = board.remove_piece_at(self.from) else {
            return board;
        };
        if piece.role == Role::King
            && self.from.distance(self.to) == 2
            && self.from.rank() == self.to.rank()
        {
            let (rook_from, rook_to) = castling_rook_squares(self.from, self.to);
            if let Some(rook) = board.remove_piece_at(rook_from) {
                board.set_piece_at(rook_to, rook);
            }
        }
        let placed = match self.promote_to {
            Some(role) => role.of(piece.color),
            None => piece,
        };
        board.set_piece_at(self.to, placed);
        board
    }

    /// The legal move of `pos` the premove stands for, if there is one now.
    pub fn to_move(&self, pos: &Chess) -> Option<Move> {
        pos.legal_moves().into_iter().find(|m| {
            let (from, to) = match *m {
                Move::Castle { king, rook } => (
                    king,
                    crate::chess::notation::castling_destinations(king, rook).king_to,
                ),
                _ => (m.from().unwrap_or(m.to()), m.to()),
            };
            from == self.from && to == self.to && m.promotion() == self.promote_to
        })
    }
}

/// The rook's squares for a king castling from `from` to `to` (standard chess).
fn castling_rook_squares(from: Square, to: Square) -> (Square, Square) {
    if to > from {
        (
            Square::from_coords(shakmaty::File::H, from.rank()),
            Square::from_coords(shakmaty::File::F, from.rank()),
        )
    } else {
        (
            Square::from_coords(shakmaty::File::A, from.rank()),
            Square::from_coords(shakmaty::File::D, from.rank()),
        )
    }
}

/// A king move of two files along its back rank is a castling premove if the player still
/// has that right, its rook stands in the corner, and none of the player's own pieces stands
/// between them (those will not move before the premove is played; the opponent's may).
fn check_castling(pos: &Chess, color: Color, from: Square, to: Square) -> Result<(), PremoveError> {
    let back = color.fold_wb(Rank::First, Rank::Eighth);
    let home = Square::from_coords(shakmaty::File::E, back);
    let shaped = from == home
        && to.rank() == back
        && matches!(to.file(), shakmaty::File::G | shakmaty::File::C);
    if !shaped {
        return Err(PremoveError::Shape {
            role: "king",
            from,
            to,
        });
    }
    let side = if to > from {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    };
    if !pos.castles().has(color, side) {
        return Err(PremoveError::Castling(to, "the right is lost"));
    }
    let (rook_from, _) = castling_rook_squares(from, to);
    if pos.board().piece_at(rook_from) != Some(Role::Rook.of(color)) {
        return Err(PremoveError::Castling(to, "no rook in the corner"));
    }
    let between = shakmaty::attacks::between(from, rook_from);
    if (between & pos.board().by_color(color)).any() {
        return Err(PremoveError::Castling(
            to,
            "a piece of yours stands between king and rook",
        ));
    }
    Ok(())
}

/// The wire form: `{"from": 0..63, "to": 0..63, "promoteTo": "Q"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PremoveJson {
    /// From, 0 (a1) … 63 (h8).
    pub from: u8,
    /// To.
    pub to: u8,
    /// The promotion piece.
    #[serde(rename = "promoteTo", skip_serializing_if = "Option::is_none", default)]
    pub promote_to: Option<char>,
}

impl From<Premove> for PremoveJson {
    fn from(p: Premove) -> PremoveJson {
        PremoveJson {
            from: u8::from(p.from),
            to: u8::from(p.to),
            promote_to: p.promote_to.map(|r| r.upper_char()),
        }
    }
}

/// What became of a queued premove once the opponent moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PremoveOutcome {
    /// It is legal: play this move now.
    Play(Move),
    /// It is not legal any more: dropped (tell the player).
    Dropped(Premove),
}

/// At most one premove per player, as the reference server keeps them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PremoveQueue {
    pending: [Option<Premove>; 2],
}

fn slot(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl PremoveQueue {
    /// Queues a premove of `player` in `pos`: refused when the player is on move, already has
    /// one, or it fails [`Premove::new`].
    pub fn queue(
        &mut self,
        pos: &Chess,
        player: Color,
        from: Square,
        to: Square,
        promote_to: Option<Role>,
    ) -> Result<Premove, PremoveError> {
        if pos.turn() == player {
            return Err(PremoveError::OnMove);
        }
        if self.pending[slot(player)].is_some() {
            return Err(PremoveError::AlreadyQueued);
        }
        match pos.board().color_at(from) {
            None => return Err(PremoveError::NoPiece(from)),
            Some(c) if c != player => return Err(PremoveError::NotYours(from)),
            Some(_) => {}
        }
        let premove = Premove::new(pos, from, to, promote_to)?;
        self.pending[slot(player)] = Some(premove);
        Ok(premove)
    }

    /// Cancels the player's premove, returning it.
    pub fn cancel(&mut self, player: Color) -> Option<Premove> {
        self.pending[slot(player)].take()
    }

    /// The player's queued premove.
    pub fn pending(&self, player: Color) -> Option<Premove> {
        self.pending[slot(player)]
    }

    /// After the opponent's move (`pos` is the new position): the premove of the side now on
    /// move, if any, is taken off the queue and either played or dropped.
    pub fn after_move(&mut self, pos: &Chess) -> Option<PremoveOutcome> {
        let premove = self.pending[slot(pos.turn())].take()?;
        Some(match premove.to_move(pos) {
            Some(mv) => PremoveOutcome::Play(mv),
            None => PremoveOutcome::Dropped(premove),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    #[test]
    fn queue_rules() {
        let mut pos = Chess::default();
        let mut q = PremoveQueue::default();
        assert_eq!(
            q.queue(&pos, Color::White, Square::E2, Square::E4, None),
            Err(PremoveError::OnMove)
        );
        assert_eq!(
            q.queue(&pos, Color::Black, Square::E2, Square::E4, None),
            Err(PremoveError::NotYours(Square::E2))
        );
        q.queue(&pos, Color::Black, Square::D7, Square::D5, None)
            .unwrap();
        assert_eq!(
            q.queue(&pos, Color::Black, Square::E7, Square::E5, None),
            Err(PremoveError::AlreadyQueued)
        );
        // White moves; black's premove is legal and played.
        let mv = "e4".parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(mv);
        assert!(matches!(q.after_move(&pos), Some(PremoveOutcome::Play(_))));
        assert_eq!(q.pending(Color::Black), None);
        // A premove that became illegal is dropped.
        let mut pos = Chess::default();
        let mut q = PremoveQueue::default();
        q.queue(&pos, Color::Black, Square::E7, Square::E5, None)
            .unwrap();
        // (The premove stays queued while the moves below are made without asking the queue.)
        for san in ["e4", "e6", "d4"] {
            let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(mv);
        }
        // Black's e-pawn is on e6 now: e7-e5 has no piece.
        assert!(matches!(
            q.after_move(&pos),
            Some(PremoveOutcome::Dropped(_))
        ));
    }

    #[test]
    fn castling_premove_plays_as_castling() {
        let pos: Chess = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let mut q = PremoveQueue::default();
        q.queue(&pos, Color::White, Square::E1, Square::C1, None)
            .unwrap();
        let mut pos = pos;
        let mv = "a6".parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(mv);
        match q.after_move(&pos) {
            Some(PremoveOutcome::Play(m)) => assert!(m.is_castle()),
            other => panic!("{other:?}"),
        }
    }
}
