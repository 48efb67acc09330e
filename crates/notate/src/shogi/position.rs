//! The position (board, hands, side to move, ply) and the rules of shogi.
//!
//! notate has its own rules here rather than `shogi_core` + `shogi_legality_lite` or
//! `haitaka`: replaying a record needs to say *why* a move is illegal (two pawns on a file, a
//! pawn drop that mates, a piece dropped where it can never move, a missed forced promotion),
//! and those crates answer yes or no. The board is a plain 81-square array, which is also all
//! that SFEN-per-ply output and KI2's "which piece" questions need; see the speed benchmark
//! in `benches/shogi_records.rs`.

use std::fmt;

use super::piece::{Color, Piece, PieceKind, ALL_KINDS};
use super::square::Square;

/// A move: a board move (with or without promotion) or a drop from the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves from one square to another, promoting or not.
    Normal {
        /// Where the piece stands.
        from: Square,
        /// Where it goes.
        to: Square,
        /// Whether it promotes on this move.
        promote: bool,
    },
    /// A piece from the hand is put on an empty square.
    Drop {
        /// The (unpromoted) kind dropped.
        kind: PieceKind,
        /// Where.
        to: Square,
    },
}

impl Move {
    /// The destination.
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin, `None` for a drop.
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether this move promotes.
    pub fn promotes(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }
}

impl fmt::Display for Move {
    /// USI: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.sfen()),
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// No piece on the origin square.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// The piece on the origin belongs to the other side.
    #[error("the piece on {0} is not the mover's")]
    NotYours(Square),
    /// The piece cannot reach the destination (its move or a blocked line).
    #[error("the {0} on {1} cannot reach {2}")]
    CannotReach(PieceKind, Square, Square),
    /// The destination holds one of the mover's own pieces.
    #[error("{0} holds one of the mover's own pieces")]
    OwnPiece(Square),
    /// The piece cannot promote on this move (not a promoting kind, or outside the zone).
    #[error("the {0} cannot promote moving {1}{2}")]
    CannotPromote(PieceKind, Square, Square),
    /// Without promoting the piece could never move again.
    #[error("the {0} must promote on {1} (it could never move again)")]
    MustPromote(PieceKind, Square),
    /// The mover has no such piece in hand.
    #[error("no {0} in hand to drop")]
    NotInHand(PieceKind),
    /// A drop on an occupied square.
    #[error("cannot drop on {0}: it is occupied")]
    Occupied(Square),
    /// A pawn, lance or knight dropped where it could never move.
    #[error("a {0} dropped on {1} could never move")]
    DeadDrop(PieceKind, Square),
    /// A second unpromoted pawn on a file (nifu).
    #[error("two pawns on file {0} (nifu)")]
    TwoPawns(u8),
    /// A pawn drop that checkmates (uchifuzume).
    #[error("a pawn drop may not checkmate (uchifuzume)")]
    PawnDropMate,
    /// The mover's king would be in check.
    #[error("leaves the king in check")]
    KingInCheck,
    /// Kings cannot be dropped.
    #[error("a {0} cannot be dropped")]
    NotDroppable(PieceKind),
}

/// What a played move did: the piece that moved (before promotion) and what it captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The moving piece as it stood (or was dropped).
    pub piece: Piece,
    /// The captured piece, as it stood.
    pub captured: Option<Piece>,
}

/// A shogi position: board, hands, side to move and the number of the next ply (SFEN's
/// move count).
///
/// ```
/// use notate::shogi::{Move, Position, Square};
/// let mut pos = Position::startpos();
/// let mv = Move::Normal {
///     from: Square::new(7, 7).unwrap(),
///     to: Square::new(7, 6).unwrap(),
///     promote: false,
/// };
/// pos.play(mv).unwrap();
/// assert_eq!(
///     pos.to_sfen(),
///     "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
/// );
/// ```
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    hands: [[u8; 7]; 2],
    side: Color,
    ply: u32,
    /// Where each side's king stands (kept in step with `board`: replay asks it every move).
    kings: [Option<Square>; 2],
    /// Whether the side to move is in check, when a move told it cheaply (see `apply`).
    check: CheckState,
}

/// What is known of the side to move's king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CheckState {
    /// Not worked out (a position set up square by square).
    Unknown,
    /// Not in check.
    Safe,
    /// In check.
    Checked,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
            && self.ply == other.ply
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.hands.hash(state);
        self.side.hash(state);
        self.ply.hash(state);
    }
}

/// The index in `DIRECTIONS` of the way from `from` to `to`, if they share a line.
fn direction_index(from: Square, to: Square) -> Option<usize> {
    let dr = to.row() as i8 - from.row() as i8;
    let dc = to.col() as i8 - from.col() as i8;
    if (dr == 0 && dc == 0) || !(dr == 0 || dc == 0 || dr.abs() == dc.abs()) {
        return None;
    }
    DIRECTIONS
        .iter()
        .position(|&d| d == (dr.signum(), dc.signum()))
}

/// The eight unit directions as (row, column) steps.
const DIRECTIONS: [(i8, i8); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
];

/// Whether a piece of `kind` steps one square in direction `(fr, fc)`, given from Black's
/// point of view (forward is `fr = -1`).
const fn steps(kind: PieceKind, fr: i8, fc: i8) -> bool {
    use PieceKind::*;
    match kind {
        Pawn | Lance => fr == -1 && fc == 0,
        Knight => false,
        Silver => fr == -1 || (fr == 1 && fc != 0),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => {
            fr == -1 || (fr == 0 && fc != 0) || (fr == 1 && fc == 0)
        }
        King => true,
        Bishop => fr != 0 && fc != 0,
        Rook => fr == 0 || fc == 0,
        Horse | Dragon => true,
    }
}

/// Whether a piece of `kind` slides any distance in direction `(fr, fc)` (Black's view).
const fn slides(kind: PieceKind, fr: i8, fc: i8) -> bool {
    use PieceKind::*;
    match kind {
        Lance => fr == -1 && fc == 0,
        Bishop | Horse => fr != 0 && fc != 0,
        Rook | Dragon => fr == 0 || fc == 0,
        _ => false,
    }
}

/// `(dr, dc)` turned to Black's point of view for a piece of `color`.
const fn relative(color: Color, dr: i8, dc: i8) -> (i8, i8) {
    match color {
        Color::Black => (dr, dc),
        Color::White => (-dr, -dc),
    }
}

/// For each square and direction, the squares outward to the edge (`RAYS_LEN` of them):
/// attack tests walk these instead of recomputing coordinates.
struct Rays {
    squares: [[[u8; 8]; 8]; 81],
    len: [[u8; 8]; 81],
}

const RAYS: Rays = {
    let mut rays = Rays {
        squares: [[[0; 8]; 8]; 81],
        len: [[0; 8]; 81],
    };
    let mut sq = 0;
    while sq < 81 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let (mut r, mut c) = ((sq / 9) as i8 + dr, (sq % 9) as i8 + dc);
            let mut n = 0;
            while r >= 0 && r < 9 && c >= 0 && c < 9 {
                rays.squares[sq][d][n] = (r * 9 + c) as u8;
                n += 1;
                r += dr;
                c += dc;
            }
            rays.len[sq][d] = n as u8;
            d += 1;
        }
        sq += 1;
    }
    rays
};

/// For each attacking side and direction of travel (as in `DIRECTIONS`), the kinds that
/// step that way (bit `kind as u16`) and the kinds that slide that way.
const ATTACKS: [[(u16, u16); 8]; 2] = {
    let mut table = [[(0u16, 0u16); 8]; 2];
    let colors = [Color::Black, Color::White];
    let mut c = 0;
    while c < 2 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let (fr, fc) = relative(colors[c], dr, dc);
            let mut k = 0;
            while k < 14 {
                let kind = super::piece::ALL_KINDS[k];
                if steps(kind, fr, fc) {
                    table[c][d].0 |= 1 << k;
                }
                if slides(kind, fr, fc) {
                    table[c][d].1 |= 1 << k;
                }
                k += 1;
            }
            d += 1;
        }
        c += 1;
    }
    table
};

/// The index in `DIRECTIONS` of the opposite direction.
const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

/// Whether `sq` is in `color`'s promotion zone (the three far ranks).
pub fn in_promotion_zone(color: Color, sq: Square) -> bool {
    match color {
        Color::Black => sq.row() <= 2,
        Color::White => sq.row() >= 6,
    }
}

/// Whether a `color` piece of `kind` standing on `sq` could never move again.
pub fn is_dead_square(color: Color, kind: PieceKind, sq: Square) -> bool {
    let far = match color {
        Color::Black => sq.row(),
        Color::White => 8 - sq.row(),
    };
    match kind {
        PieceKind::Pawn | PieceKind::Lance => far == 0,
        PieceKind::Knight => far <= 1,
        _ => false,
    }
}

impl Position {
    /// An empty board, empty hands, Black to move, ply 1.
    pub fn empty() -> Position {
        Position {
            board: [None; 81],
            hands: [[0; 7]; 2],
            side: Color::Black,
            ply: 1,
            kings: [None; 2],
            check: CheckState::Unknown,
        }
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The nine squares of rank `row + 1`, file 9 first.
    pub(crate) fn rank_cells(&self, row: usize) -> &[Option<Piece>] {
        &self.board[row * 9..row * 9 + 9]
    }

    /// Puts `piece` (or nothing) on `sq`.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        self.check = CheckState::Unknown;
        if let Some(old) = self.board[sq.index()]
            && old.kind == PieceKind::King
            && self.kings[old.color.index()] == Some(sq)
        {
            self.kings[old.color.index()] = None;
        }
        if let Some(new) = piece
            && new.kind == PieceKind::King
        {
            self.kings[new.color.index()] = Some(sq);
        }
        self.board[sq.index()] = piece;
    }

    /// How many pieces of (unpromoted) `kind` `color` holds; 0 for kings and promoted kinds.
    pub fn hand_count(&self, color: Color, kind: PieceKind) -> u8 {
        kind.hand_index()
            .map_or(0, |i| self.hands[color.index()][i])
    }

    /// Sets how many pieces of (unpromoted, non-king) `kind` `color` holds.
    pub fn set_hand_count(&mut self, color: Color, kind: PieceKind, count: u8) {
        if let Some(i) = kind.hand_index() {
            self.hands[color.index()][i] = count;
        }
    }

    /// Whether both hands are empty.
    pub fn hands_empty(&self) -> bool {
        self.hands.iter().all(|h| h.iter().all(|&n| n == 0))
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.check = CheckState::Unknown;
        self.side = side;
    }

    /// The number of the next ply (1 at the start of a game).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Sets the number of the next ply.
    pub fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    /// Whether board, hands and side equal `other`'s (the ply number aside).
    pub fn same_position(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }

    /// The square of `color`'s king (positions for problems may have none).
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// Whether a piece of `kind` and `color` on `from` reaches `to` on this board.
    fn reaches(&self, color: Color, kind: PieceKind, from: Square, to: Square) -> bool {
        let dr = to.row() as i8 - from.row() as i8;
        let dc = to.col() as i8 - from.col() as i8;
        let (fr, fc) = relative(color, dr, dc);
        if kind == PieceKind::Knight {
            return fr == -2 && fc.abs() == 1;
        }
        if dr.abs().max(dc.abs()) == 1 {
            return steps(kind, fr, fc);
        }
        if !(dr == 0 || dc == 0 || dr.abs() == dc.abs()) {
            return false;
        }
        let (ur, uc) = (dr.signum(), dc.signum());
        let (rr, rc) = relative(color, ur, uc);
        if !slides(kind, rr, rc) {
            return false;
        }
        let mut sq = from;
        loop {
            sq = match sq.offset(ur, uc) {
                Some(s) => s,
                None => return false,
            };
            if sq == to {
                return true;
            }
            if self.board[sq.index()].is_some() {
                return false;
            }
        }
    }

    /// Whether a piece of `by` attacks `target`.
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        let t = target.index();
        for d in 0..8 {
            // The attacker travels the opposite way, from the square found to `target`.
            let (step, slide) = ATTACKS[by.index()][OPPOSITE[d]];
            let ray = &RAYS.squares[t][d][..RAYS.len[t][d] as usize];
            for (k, &s) in ray.iter().enumerate() {
                if let Some(p) = self.board[s as usize] {
                    let bit = 1u16 << p.kind as u16;
                    if p.color == by && (slide & bit != 0 || (k == 0 && step & bit != 0)) {
                        return true;
                    }
                    break;
                }
            }
        }
        let back = match by {
            Color::Black => 2,
            Color::White => -2,
        };
        [-1, 1].into_iter().any(|dc| {
            target.offset(back, dc).and_then(|s| self.board[s.index()])
                == Some(Piece::new(by, PieceKind::Knight))
        })
    }

    /// Whether a piece of `by` attacks `origin` from direction `d` (the first piece met
    /// walking out from `origin`), with `empty` taken as empty and `filled` as holding a
    /// piece that is not `by`'s.
    fn attacked_along(
        &self,
        origin: Square,
        d: usize,
        by: Color,
        empty: Option<Square>,
        filled: Option<Square>,
    ) -> bool {
        let (step, slide) = ATTACKS[by.index()][OPPOSITE[d]];
        let o = origin.index();
        for (k, &s) in RAYS.squares[o][d][..RAYS.len[o][d] as usize]
            .iter()
            .enumerate()
        {
            let sq = Square::from_index(s as usize);
            if sq == filled {
                return false;
            }
            if sq == empty {
                continue;
            }
            if let Some(p) = self.board[s as usize] {
                let bit = 1u16 << p.kind as u16;
                return p.color == by && (slide & bit != 0 || (k == 0 && step & bit != 0));
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        match self.check {
            CheckState::Safe => return false,
            CheckState::Checked => return true,
            CheckState::Unknown => {}
        }
        self.king_square(self.side)
            .is_some_and(|k| self.is_attacked(k, self.side.flip()))
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether `color` may promote a `kind` moving `from` → `to`.
    pub fn may_promote(color: Color, kind: PieceKind, from: Square, to: Square) -> bool {
        kind.promoted().is_some()
            && (in_promotion_zone(color, from) || in_promotion_zone(color, to))
    }

    /// Checks `mv` for the side to move; on success returns what it would do.
    pub fn check_move(&self, mv: Move) -> Result<Played, IllegalMove> {
        let side = self.side;
        let played = match mv {
            Move::Normal { from, to, promote } => {
                let piece = self.board[from.index()].ok_or(IllegalMove::NoPiece(from))?;
                if piece.color != side {
                    return Err(IllegalMove::NotYours(from));
                }
                let captured = self.board[to.index()];
                if captured.is_some_and(|c| c.color == side) {
                    return Err(IllegalMove::OwnPiece(to));
                }
                if !self.reaches(side, piece.kind, from, to) {
                    return Err(IllegalMove::CannotReach(piece.kind, from, to));
                }
                if promote && !Position::may_promote(side, piece.kind, from, to) {
                    return Err(IllegalMove::CannotPromote(piece.kind, from, to));
                }
                if !promote && is_dead_square(side, piece.kind, to) {
                    return Err(IllegalMove::MustPromote(piece.kind, to));
                }
                Played { piece, captured }
            }
            Move::Drop { kind, to } => {
                if kind.hand_index().is_none() {
                    return Err(IllegalMove::NotDroppable(kind));
                }
                if self.hand_count(side, kind) == 0 {
                    return Err(IllegalMove::NotInHand(kind));
                }
                if self.board[to.index()].is_some() {
                    return Err(IllegalMove::Occupied(to));
                }
                if is_dead_square(side, kind, to) {
                    return Err(IllegalMove::DeadDrop(kind, to));
                }
                if kind == PieceKind::Pawn && self.pawn_on_file(side, to.col()) {
                    return Err(IllegalMove::TwoPawns(to.file()));
                }
                Played {
                    piece: Piece::new(side, kind),
                    captured: None,
                }
            }
        };
        // When the mover is not in check, only a line opened through the origin can expose
        // its king (unless the king itself moves); otherwise play it out on a copy.
        let king = self.king_square(side);
        let fast = !self.in_check() && played.piece.kind != PieceKind::King;
        match (fast, mv, king) {
            (_, _, None) | (true, Move::Drop { .. }, _) => {}
            (true, Move::Normal { from, to, .. }, Some(k)) => {
                if direction_index(k, from)
                    .is_some_and(|d| self.attacked_along(k, d, side.flip(), Some(from), Some(to)))
                {
                    return Err(IllegalMove::KingInCheck);
                }
            }
            (false, _, Some(_)) => {
                let mut after = self.clone();
                after.apply(mv, played);
                if after
                    .king_square(side)
                    .is_some_and(|k| after.is_attacked(k, side.flip()))
                {
                    return Err(IllegalMove::KingInCheck);
                }
            }
        }
        if let Move::Drop {
            kind: PieceKind::Pawn,
            to,
        } = mv
        {
            let forward = match side {
                Color::Black => -1,
                Color::White => 1,
            };
            let gives_check = to.offset(forward, 0).and_then(|s| self.board[s.index()])
                == Some(Piece::new(side.flip(), PieceKind::King));
            if gives_check {
                let mut after = self.clone();
                after.apply(mv, played);
                if !after.has_legal_move() {
                    return Err(IllegalMove::PawnDropMate);
                }
            }
        }
        Ok(played)
    }

    /// Plays `mv` if it is legal for the side to move.
    pub fn play(&mut self, mv: Move) -> Result<Played, IllegalMove> {
        let played = self.check_move(mv)?;
        self.apply(mv, played);
        Ok(played)
    }

    /// Plays a move already known to be legal (from [`Position::legal_moves`] or a checked
    /// record). An illegal move leaves a position that breaks the rules, never a panic.
    pub fn play_unchecked(&mut self, mv: Move) -> Played {
        let piece = match mv {
            Move::Normal { from, .. } => {
                self.board[from.index()].unwrap_or(Piece::new(self.side, PieceKind::Pawn))
            }
            Move::Drop { kind, .. } => Piece::new(self.side, kind),
        };
        let played = Played {
            piece,
            captured: self.board[mv.to().index()],
        };
        self.apply_tracking(mv, played, false);
        played
    }

    fn apply(&mut self, mv: Move, played: Played) {
        self.apply_tracking(mv, played, true);
    }

    /// Applies a move; `track` works out whether the other side is now in check (what the
    /// next legality test wants; a plain replay skips it).
    fn apply_tracking(&mut self, mv: Move, played: Played, track: bool) {
        let side = self.side;
        let known = track && self.check != CheckState::Unknown;
        let mut moved = played.piece.kind;
        match mv {
            Move::Normal { from, to, promote } => {
                if let Some(c) = played.captured
                    && let Some(i) = c.kind.unpromoted().hand_index()
                {
                    let n = &mut self.hands[side.index()][i];
                    *n = n.saturating_add(1);
                }
                let kind = if promote {
                    played.piece.kind.promoted().unwrap_or(played.piece.kind)
                } else {
                    played.piece.kind
                };
                moved = kind;
                self.board[from.index()] = None;
                self.board[to.index()] = Some(Piece::new(side, kind));
                if kind == PieceKind::King {
                    self.kings[side.index()] = Some(to);
                }
                if played.captured.is_some_and(|c| c.kind == PieceKind::King) {
                    self.kings[side.flip().index()] = None;
                }
            }
            Move::Drop { kind, to } => {
                if let Some(i) = kind.hand_index() {
                    let n = &mut self.hands[side.index()][i];
                    *n = n.saturating_sub(1);
                }
                self.board[to.index()] = Some(Piece::new(side, kind));
            }
        }
        // Is the other side in check now? After a legal move from a position whose state was
        // known, only the moved piece or a line opened through its origin can give check.
        let enemy = side.flip();
        self.check = match self.kings[enemy.index()] {
            _ if !track => CheckState::Unknown,
            None => CheckState::Safe,
            Some(k) => {
                let checked = if known {
                    let to = mv.to();
                    self.reaches(side, moved, to, k)
                        || mv
                            .from()
                            .and_then(|f| direction_index(k, f))
                            .is_some_and(|d| self.attacked_along(k, d, side, None, None))
                } else {
                    self.is_attacked(k, side)
                };
                if checked {
                    CheckState::Checked
                } else {
                    CheckState::Safe
                }
            }
        };
        self.side = enemy;
        self.ply = self.ply.saturating_add(1);
    }

    fn pawn_on_file(&self, color: Color, col: u8) -> bool {
        let pawn = Some(Piece::new(color, PieceKind::Pawn));
        (0..9).any(|row| self.board[row * 9 + col as usize] == pawn)
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.generate(&mut |mv| {
            moves.push(mv);
            false
        });
        moves
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut any = false;
        self.generate(&mut |_| {
            any = true;
            true
        });
        any
    }

    /// The origins of the side to move's pieces of `kind` that can legally move to `to`
    /// (with or without promotion): the candidates KI2 and Western disambiguate between.
    pub fn origins(&self, kind: PieceKind, to: Square) -> Vec<Square> {
        let mut origins = Vec::new();
        for from in 0..81 {
            let from = Square::from_index(from).expect("0..81");
            if self.board[from.index()] != Some(Piece::new(self.side, kind)) {
                continue;
            }
            let legal = [false, true]
                .into_iter()
                .any(|promote| self.check_move(Move::Normal { from, to, promote }).is_ok());
            if legal {
                origins.push(from);
            }
        }
        origins
    }

    /// Calls `emit` with each legal move until it returns `true`.
    fn generate(&self, emit: &mut dyn FnMut(Move) -> bool) {
        let side = self.side;
        for index in 0..81 {
            let Some(piece) = self.board[index] else {
                continue;
            };
            if piece.color != side {
                continue;
            }
            let from = Square::from_index(index).expect("0..81");
            let mut targets = [Square::from_index(0).expect("0"); 32];
            let mut count = 0;
            let mut push = |sq: Square| {
                if count < targets.len() {
                    targets[count] = sq;
                    count += 1;
                }
            };
            if piece.kind == PieceKind::Knight {
                let forward = if side == Color::Black { -2 } else { 2 };
                for dc in [-1, 1] {
                    if let Some(sq) = from.offset(forward, dc) {
                        push(sq);
                    }
                }
            } else {
                for &(dr, dc) in &DIRECTIONS {
                    let (fr, fc) = relative(side, dr, dc);
                    if slides(piece.kind, fr, fc) {
                        let mut sq = from;
                        while let Some(next) = sq.offset(dr, dc) {
                            sq = next;
                            push(sq);
                            if self.board[sq.index()].is_some() {
                                break;
                            }
                        }
                    } else if steps(piece.kind, fr, fc)
                        && let Some(sq) = from.offset(dr, dc)
                    {
                        push(sq);
                    }
                }
            }
            for &to in &targets[..count] {
                if self.board[to.index()].is_some_and(|p| p.color == side) {
                    continue;
                }
                let may = Position::may_promote(side, piece.kind, from, to);
                let must = is_dead_square(side, piece.kind, to);
                for promote in [true, false] {
                    if (promote && !may) || (!promote && must) {
                        continue;
                    }
                    let mv = Move::Normal { from, to, promote };
                    if self.is_legal_after(mv) && emit(mv) {
                        return;
                    }
                }
            }
        }
        for kind in ALL_KINDS
            .iter()
            .copied()
            .filter(|k| k.hand_index().is_some())
        {
            if self.hand_count(side, kind) == 0 {
                continue;
            }
            for index in 0..81 {
                let to = Square::from_index(index).expect("0..81");
                if self.board[index].is_some() || is_dead_square(side, kind, to) {
                    continue;
                }
                if kind == PieceKind::Pawn && self.pawn_on_file(side, to.col()) {
                    continue;
                }
                let mv = Move::Drop { kind, to };
                let legal = if kind == PieceKind::Pawn {
                    self.check_move(mv).is_ok()
                } else {
                    self.is_legal_after(mv)
                };
                if legal && emit(mv) {
                    return;
                }
            }
        }
    }

    /// For a pseudo-legal move: whether the mover's king is safe after it.
    fn is_legal_after(&self, mv: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(mv);
        after
            .king_square(self.side)
            .is_none_or(|k| !after.is_attacked(k, self.side.flip()))
    }

    /// Checks what no legal game can reach: more pieces of a kind than a set has, a second
    /// king of a side, a piece that can never move, two unpromoted pawns of a side on a file,
    /// the king of the side that has just moved in check (kings side by side included): the
    /// side to move could take it.
    pub fn validate(&self) -> Result<(), String> {
        let mut counts = [0u8; 8];
        let mut kings = [0u8; 2];
        for (index, piece) in self.board.iter().enumerate() {
            let Some(p) = *piece else { continue };
            let sq = Square::from_index(index).expect("0..81");
            counts[p.kind.unpromoted() as usize] += 1;
            if p.kind == PieceKind::King {
                kings[p.color.index()] += 1;
            }
            if is_dead_square(p.color, p.kind, sq) {
                return Err(format!("the {} on {sq} could never move", p.kind));
            }
        }
        for color in [Color::Black, Color::White] {
            if kings[color.index()] > 1 {
                return Err(format!("{color:?} has more than one king"));
            }
            for col in 0..9u8 {
                let pawns = (0..9)
                    .filter(|row| {
                        self.board[row * 9 + col as usize]
                            == Some(Piece::new(color, PieceKind::Pawn))
                    })
                    .count();
                if pawns > 1 {
                    return Err(format!(
                        "{color:?} has two unpromoted pawns on file {}",
                        9 - col
                    ));
                }
            }
            for (i, &n) in self.hands[color.index()].iter().enumerate() {
                counts[i] = counts[i].saturating_add(n);
            }
        }
        for kind in ALL_KINDS.iter().copied().take(8) {
            if counts[kind as usize] > kind.set_count() {
                return Err(format!(
                    "{} {kind}s in all; a set has {}",
                    counts[kind as usize],
                    kind.set_count()
                ));
            }
        }
        let moved = self.side.flip();
        if let Some(king) = self.king_square(moved)
            && self.is_attacked(king, self.side)
        {
            return Err(format!(
                "{moved:?}'s king on {king} is in check with {:?} to move",
                self.side
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perft(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = pos.clone();
                next.play(mv).expect("generated moves are legal");
                perft(&next, depth - 1)
            })
            .sum()
    }

    #[test]
    fn perft_from_the_start_matches_the_published_counts() {
        // Published shogi perft: 30, 900, 25470.
        let pos = Position::startpos();
        assert_eq!(perft(&pos, 1), 30);
        assert_eq!(perft(&pos, 2), 900);
        assert_eq!(perft(&pos, 3), 25470);
    }

    #[test]
    fn drop_rules() {
        // Black: king 5i, pawn on 5g, pawn in hand; White: king 5a with gold 4a, 6a.
        let pos = Position::from_sfen("3gkg3/9/9/9/9/9/4P4/9/4K4 b P 1").unwrap();
        let pawn = |sq: &str| Move::Drop {
            kind: PieceKind::Pawn,
            to: Square::parse_usi(sq.as_bytes()).unwrap(),
        };
        assert_eq!(pos.check_move(pawn("5e")), Err(IllegalMove::TwoPawns(5)));
        assert_eq!(
            pos.check_move(pawn("1a")),
            Err(IllegalMove::DeadDrop(
                PieceKind::Pawn,
                Square::new(1, 1).unwrap()
            ))
        );
        assert!(pos.check_move(pawn("4e")).is_ok());
        // Pawn-drop mate: White king 1a boxed in by its own pieces, Black gold 1c covers 1b.
        let mate = Position::from_sfen("7nk/7p1/8G/9/9/9/9/9/K8 b P 1").unwrap();
        assert_eq!(
            mate.check_move(Move::Drop {
                kind: PieceKind::Pawn,
                to: Square::new(1, 2).unwrap()
            }),
            Err(IllegalMove::PawnDropMate)
        );
    }

    #[test]
    fn forced_and_optional_promotion() {
        let pos = Position::from_sfen("4k4/9/9/P8/9/9/9/9/4K4 b - 1").unwrap();
        let from = Square::new(9, 4).unwrap();
        let to = Square::new(9, 3).unwrap();
        assert!(pos
            .check_move(Move::Normal {
                from,
                to,
                promote: false
            })
            .is_ok());
        assert!(pos
            .check_move(Move::Normal {
                from,
                to,
                promote: true
            })
            .is_ok());
        let pos = Position::from_sfen("4k4/P8/9/9/9/9/9/9/4K4 b - 1").unwrap();
        let from = Square::new(9, 2).unwrap();
        let to = Square::new(9, 1).unwrap();
        assert_eq!(
            pos.check_move(Move::Normal {
                from,
                to,
                promote: false
            }),
            Err(IllegalMove::MustPromote(PieceKind::Pawn, to))
        );
    }
}
