//! Moves as people write them: strict SAN plus the lenient forms real PGN files contain.
//!
//! notate reads every move python-chess reads: besides standard SAN that is castling with
//! zeros (`0-0`), a capture mark onto an empty square (`Rxd1`), a pawn capture without `x`
//! (`cd5`), long algebraic (`e2-e4`, `Ng1-f3`, `e2e4`), promotions without `=` (`e8Q`), and
//! null moves (`--`, `Z0`, `0000`, `@@@@`). It still rejects what is really illegal or
//! ambiguous. shakmaty's own SAN parser is strict, which is right for a rules library but
//! would reject 28 real games of the corpus that python-chess reads, so the parsing is here.

use std::fmt;

use shakmaty::{
    attacks,
    san::{San, SanPlus, Suffix},
    Bitboard, CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square,
};

/// The longest move token notate keeps (`Qh4xe1=Q+` is 9 bytes; long forms need a few more).
pub const MAX_SAN_LEN: usize = 15;

/// A move token exactly as it was written, stored inline (no allocation per move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SanText {
    len: u8,
    bytes: [u8; MAX_SAN_LEN],
}

impl SanText {
    /// Copies `text`; `None` if it is longer than [`MAX_SAN_LEN`] bytes.
    ///
    /// ```
    /// use notate::chess::SanText;
    /// assert_eq!(SanText::new("Nf3+").unwrap().as_str(), "Nf3+");
    /// assert!(SanText::new("this is no move at all").is_none());
    /// ```
    pub fn new(text: &str) -> Option<SanText> {
        // A `str` is UTF-8 already.
        Self::copy(text.as_bytes())
    }

    /// Like [`SanText::new`] for bytes that must be UTF-8 (checked).
    pub fn from_bytes(bytes: &[u8]) -> Option<SanText> {
        std::str::from_utf8(bytes)
            .ok()
            .and_then(|_| Self::copy(bytes))
    }

    /// Like [`SanText::from_bytes`] for ASCII bytes (checked, faster than UTF-8 validation).
    pub fn from_ascii(bytes: &[u8]) -> Option<SanText> {
        bytes.is_ascii().then(|| Self::copy(bytes)).flatten()
    }

    /// Copies bytes already known to be UTF-8; `None` when too long.
    fn copy(bytes: &[u8]) -> Option<SanText> {
        if bytes.len() > MAX_SAN_LEN {
            return None;
        }
        // Gathered into two words, not copied by `copy_from_slice`: that is a call to memcpy
        // whose narrow stores the next read of the whole text (moving it into its ply) cannot
        // take from the store buffer, a stall that was the costliest instruction of reading
        // PGN (6 % of `notate check`).
        let mut words = [0u64; 2];
        for (i, &b) in bytes.iter().enumerate() {
            words[i / 8] |= u64::from(b) << (8 * (i % 8));
        }
        let mut text = [0; 16];
        text[..8].copy_from_slice(&words[0].to_le_bytes());
        text[8..].copy_from_slice(&words[1].to_le_bytes());
        let mut out = SanText {
            len: bytes.len() as u8,
            bytes: [0; MAX_SAN_LEN],
        };
        out.bytes.copy_from_slice(&text[..MAX_SAN_LEN]);
        Some(out)
    }

    /// The text's bytes (no UTF-8 check, unlike going through `str`).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ever filled from checked UTF-8 (`from_bytes`).
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl std::ops::Deref for SanText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a move token asks for, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSpec {
    /// A piece or pawn move, possibly with origin hints.
    Normal {
        /// The piece letter, `None` for a pawn or a fully specified `e2e4`.
        role: Option<Role>,
        /// Origin file hint.
        file: Option<File>,
        /// Origin rank hint.
        rank: Option<Rank>,
        /// Whether the token had `x` or `:` (informational: python-chess ignores it too).
        capture: bool,
        /// Destination.
        to: Square,
        /// Promotion piece.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O` (also with zeros).
    Castle(CastlingSide),
    /// A null move.
    Null,
}

/// Why a move token could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The token is no move in any notation notate knows.
    #[error("not a move")]
    Syntax,
    /// No legal move matches.
    #[error("illegal move")]
    Illegal,
    /// Several legal moves match.
    #[error("ambiguous move")]
    Ambiguous,
    /// A null move while in check.
    #[error("null move while in check")]
    NullInCheck,
}

fn role_of(letter: u8) -> Option<Role> {
    Some(match letter {
        b'N' | b'n' => Role::Knight,
        b'B' | b'b' => Role::Bishop,
        b'R' | b'r' => Role::Rook,
        b'Q' | b'q' => Role::Queen,
        b'K' | b'k' => Role::King,
        _ => return None,
    })
}

fn file_of(b: u8) -> Option<File> {
    (b'a'..=b'h')
        .contains(&b)
        .then(|| File::new(u32::from(b - b'a')))
}

fn rank_of(b: u8) -> Option<Rank> {
    (b'1'..=b'8')
        .contains(&b)
        .then(|| Rank::new(u32::from(b - b'1')))
}

/// Splits a trailing `+`, `#` or `++` off a token: (move part, suffix).
pub fn split_suffix(token: &[u8]) -> (&[u8], &[u8]) {
    let mut end = token.len();
    if end > 0 && matches!(token[end - 1], b'+' | b'#') {
        end -= 1;
        if end > 0 && token[end - 1] == b'+' {
            end -= 1;
        }
    }
    token.split_at(end)
}

impl MoveSpec {
    /// Parses a move token (suffix `+`/`#` allowed, annotation glyphs already removed).
    ///
    /// ```
    /// use notate::chess::MoveSpec;
    /// assert!(MoveSpec::parse(b"Ng1-f3").is_ok());
    /// assert!(MoveSpec::parse(b"0-0-0+").is_ok());
    /// assert!(MoveSpec::parse(b"^5blergh").is_err());
    /// ```
    pub fn parse(token: &[u8]) -> Result<MoveSpec, SanError> {
        let (body, _) = split_suffix(token);
        // The shapes of most moves (`e4`, `Nf3`, `exd5`, `Nxe5`), read at once; the general
        // reading below gives the same answer for them, only slower.
        let square = |f: u8, r: u8| {
            Square::from_coords(
                File::new(u32::from(f - b'a')),
                Rank::new(u32::from(r - b'1')),
            )
        };
        let normal = |role, file, capture, to| MoveSpec::Normal {
            role,
            file,
            rank: None,
            capture,
            to,
            promotion: None,
        };
        match *body {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(normal(None, None, false, square(f, r))),
            [piece @ (b'N' | b'B' | b'R' | b'Q' | b'K'), f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                Ok(normal(role_of(piece), None, false, square(f, r)))
            }
            [piece @ (b'N' | b'B' | b'R' | b'Q' | b'K'), b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                Ok(normal(role_of(piece), None, true, square(f, r)))
            }
            [from @ b'a'..=b'h', b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                Ok(normal(None, file_of(from), true, square(f, r)))
            }
            _ => Self::parse_general(body),
        }
    }

    /// [`MoveSpec::parse`] for every form, the suffix already split off.
    fn parse_general(body: &[u8]) -> Result<MoveSpec, SanError> {
        // Only these first bytes can start a null move or castling: most moves skip the
        // comparisons.
        if matches!(body.first(), Some(b'-' | b'Z' | b'0' | b'@' | b'O' | b'o')) {
            match body {
                b"--" | b"Z0" | b"0000" | b"@@@@" => return Ok(MoveSpec::Null),
                b"O-O" | b"0-0" | b"o-o" => return Ok(MoveSpec::Castle(CastlingSide::KingSide)),
                b"O-O-O" | b"0-0-0" | b"o-o-o" => {
                    return Ok(MoveSpec::Castle(CastlingSide::QueenSide))
                }
                _ => {}
            }
        }
        // Read from the end: [=]promotion, target square, [-x:], rank, file, piece.
        let mut end = body.len();
        let mut promotion = None;
        if end >= 3
            && let Some(role) = role_of(body[end - 1]).filter(|r| *r != Role::King)
        {
            if body[end - 2] == b'=' {
                promotion = Some(role);
                end -= 2;
            } else if rank_of(body[end - 2]).is_some() {
                // `e8Q`, and `e7e8q` in UCI style.
                promotion = Some(role);
                end -= 1;
            }
        }
        if end < 2 {
            return Err(SanError::Syntax);
        }
        let to_file = file_of(body[end - 2]).ok_or(SanError::Syntax)?;
        let to_rank = rank_of(body[end - 1]).ok_or(SanError::Syntax)?;
        let to = Square::from_coords(to_file, to_rank);
        end -= 2;
        let mut capture = false;
        if end > 0 && matches!(body[end - 1], b'x' | b'-' | b':') {
            capture = body[end - 1] != b'-';
            end -= 1;
        }
        let mut rank = None;
        if end > 0
            && let Some(r) = rank_of(body[end - 1])
        {
            rank = Some(r);
            end -= 1;
        }
        let mut file = None;
        if end > 0
            && let Some(f) = file_of(body[end - 1])
        {
            file = Some(f);
            end -= 1;
        }
        let mut role = None;
        if end > 0 {
            match body[end - 1] {
                b'N' | b'B' | b'R' | b'Q' | b'K' => {
                    role = role_of(body[end - 1]);
                    end -= 1;
                }
                b'P' => end -= 1,
                _ => {}
            }
        }
        if end != 0 {
            return Err(SanError::Syntax);
        }
        if role.is_some() && promotion.is_some() {
            return Err(SanError::Syntax);
        }
        Ok(MoveSpec::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }

    /// Finds the one legal move the spec names; `Ok(None)` is a null move.
    pub fn resolve(self, pos: &Chess) -> Result<Option<Move>, SanError> {
        match self {
            MoveSpec::Null => {
                if pos.is_check() {
                    Err(SanError::NullInCheck)
                } else {
                    Ok(None)
                }
            }
            MoveSpec::Castle(side) => pos
                .castling_moves(side)
                .first()
                .copied()
                .map(Some)
                .ok_or(SanError::Illegal),
            MoveSpec::Normal {
                role: None,
                file: Some(file),
                rank: Some(rank),
                to,
                promotion,
                ..
            } => resolve_from_square(pos, Square::from_coords(file, rank), to, promotion),
            MoveSpec::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let role = role.unwrap_or(Role::Pawn);
                // A pawn move names its file only when it captures; without one it stays on
                // the target file (python-chess's rule, so `d5` is never `cxd5`). A capture
                // written without its file (`xd5`, `Pxc6`, `4xd5`) is any pawn's that can.
                let file = if role == Role::Pawn && file.is_none() && !capture {
                    Some(to.file())
                } else {
                    file
                };
                let quick = role != Role::Pawn || file.is_some();
                if let Some(m) = quick
                    .then(|| quick_resolve(pos, role, file, rank, to, promotion))
                    .flatten()
                {
                    return Ok(Some(m));
                }
                let mut found = None;
                // By reference: a MoveList is a large array, not worth moving.
                let candidates = pos.san_candidates(role, to);
                for &m in &candidates {
                    let Some(from) = m.from() else { continue };
                    if file.is_some_and(|f| f != from.file())
                        || rank.is_some_and(|r| r != from.rank())
                        || m.promotion() != promotion
                        || m.is_castle()
                    {
                        continue;
                    }
                    if found.is_some() {
                        return Err(SanError::Ambiguous);
                    }
                    found = Some(m);
                }
                if found.is_none() && role == Role::King {
                    // `Kg1` (the king's square after castling) for castling, when no king move
                    // goes there.
                    return king_castle(pos, to).map(Some).ok_or(SanError::Illegal);
                }
                found.map(Some).ok_or(SanError::Illegal)
            }
        }
    }
}

/// The one legal move of `role` to `to` matching the hints, found with a few bitboard
/// operations, for the common case: no double check, no en passant, no castling. `None` means
/// "ask shakmaty" (the general path, which also words the errors). Resolving a move is most of
/// the work of `notate check`, and shakmaty's candidate list is a 256-move array per move;
/// `tests::quick_resolve_agrees_with_shakmaty` holds the two paths to the same answers.
fn quick_resolve(
    pos: &Chess,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move> {
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    if ours.contains(to) {
        return None;
    }
    let king = board.king_of(us)?;
    // In check, a move other than the king's must take the one checker or step between.
    let checkers = pos.checkers();
    if checkers.any() && role != Role::King {
        let checker = checkers.single_square()?;
        if !(attacks::between(king, checker) | checker).contains(to) {
            return None;
        }
    }
    let occupied = board.occupied();
    let mut hints = Bitboard::FULL;
    if let Some(f) = file {
        hints &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        hints &= Bitboard::from_rank(r);
    }
    let capture = board.role_at(to);
    let from = match role {
        Role::Pawn => {
            let relative = |r: Rank| {
                if us == Color::White {
                    r
                } else {
                    r.flip_vertical()
                }
            };
            let last_rank = to.rank() == relative(Rank::Eighth);
            if last_rank != promotion.is_some() || promotion == Some(Role::King) {
                return None;
            }
            let back = |sq: Square| sq.offset(if us == Color::White { -8 } else { 8 });
            let pawns = board.pawns() & ours;
            let from = if file == Some(to.file()) {
                if capture.is_some() {
                    return None;
                }
                let one = back(to)?;
                if pawns.contains(one) {
                    one
                } else if to.rank() == relative(Rank::Fourth) && !occupied.contains(one) {
                    back(one).filter(|two| pawns.contains(*two))?
                } else {
                    return None;
                }
            } else {
                // A capture (an empty target may be en passant: the general path).
                capture?;
                let from = Square::from_coords(file?, back(to)?.rank());
                if !pawns.contains(from) || !attacks::pawn_attacks(us, from).contains(to) {
                    return None;
                }
                from
            };
            hints.contains(from).then_some(from)?
        }
        Role::King => {
            if promotion.is_some()
                || !hints.contains(king)
                || !attacks::king_attacks(king).contains(to)
                || board.attacks_to(to, !us, occupied ^ king).any()
            {
                return None;
            }
            king
        }
        _ => {
            if promotion.is_some() {
                return None;
            }
            let reach = match role {
                Role::Knight => attacks::knight_attacks(to),
                Role::Bishop => attacks::bishop_attacks(to, occupied),
                Role::Rook => attacks::rook_attacks(to, occupied),
                _ => attacks::queen_attacks(to, occupied),
            };
            let mut legal = (reach & board.by_role(role) & ours & hints)
                .into_iter()
                .filter(|&from| !exposes_king(pos, king, from, to));
            let from = legal.next()?;
            if legal.next().is_some() {
                return None;
            }
            from
        }
    };
    if role == Role::Pawn && exposes_king(pos, king, from, to) {
        return None;
    }
    Some(Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    })
}

/// Whether moving our piece from `from` to `to` (not a king move, not en passant) opens a
/// line from an enemy slider to our `king`.
fn exposes_king(pos: &Chess, king: Square, from: Square, to: Square) -> bool {
    let board = pos.board();
    if attacks::ray(king, from).is_empty() {
        // Not on a line with the king: nothing can open.
        return false;
    }
    let occupied = (board.occupied() ^ from) | to;
    let them = board.by_color(!pos.turn()) & !Bitboard::from_square(to);
    let diagonal = (board.bishops() | board.queens()) & them;
    let straight = (board.rooks() | board.queens()) & them;
    (attacks::bishop_attacks(king, occupied) & diagonal).any()
        || (attacks::rook_attacks(king, occupied) & straight).any()
}

fn king_castle(pos: &Chess, to: Square) -> Option<Move> {
    [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .flat_map(|side| pos.castling_moves(side))
        .find(|m| match *m {
            Move::Castle { king, rook } => {
                let side = if rook.file() < king.file() {
                    CastlingSide::QueenSide
                } else {
                    CastlingSide::KingSide
                };
                side.king_to(pos.turn()) == to || rook == to
            }
            _ => false,
        })
}

fn resolve_from_square(
    pos: &Chess,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Result<Option<Move>, SanError> {
    let Some(role) = pos.board().role_at(from) else {
        return Err(SanError::Illegal);
    };
    let ordinary = pos
        .san_candidates(role, to)
        .iter()
        .find(|m| m.from() == Some(from) && m.promotion() == promotion && !m.is_castle())
        .copied();
    // An ordinary king move first: in Chess960 a king's one step can land on its castling
    // square (`b1c1`), and is that step; castling only where no ordinary move goes (`e1g1`,
    // or the king taking its own rook).
    match ordinary {
        Some(m) => Ok(Some(m)),
        None if role == Role::King => king_castle(pos, to)
            .filter(|m| m.from() == Some(from))
            .map(Some)
            .ok_or(SanError::Illegal),
        None => Err(SanError::Illegal),
    }
}

/// Parses and resolves a token in one call.
///
/// ```
/// use notate::chess::san::play_token;
/// use shakmaty::Chess;
/// let m = play_token(&Chess::default(), b"e2-e4").unwrap().unwrap();
/// assert_eq!(m.to().to_string(), "e4");
/// ```
pub fn play_token(pos: &Chess, token: &[u8]) -> Result<Option<Move>, SanError> {
    MoveSpec::parse(token)?.resolve(pos)
}

/// Plays `m` and returns its SAN with the check or mate mark. The same SAN as shakmaty's
/// `SanPlus::from_move_and_play_unchecked`, which asks for the game's outcome after every
/// move: a full legal move generation even when the king is not in check, the writers'
/// largest cost. The mark needs the legal moves only in check.
///
/// ```
/// use notate::chess::san::san_plus_and_play;
/// use shakmaty::{Chess, Position};
/// let mut pos = Chess::default();
/// let m = pos.legal_moves()[0];
/// assert_eq!(san_plus_and_play(&mut pos, m).to_string(), "a3");
/// ```
pub fn san_plus_and_play(pos: &mut Chess, m: Move) -> SanPlus {
    let san = San::from_move(pos, m);
    pos.play_unchecked(m);
    let suffix = if pos.checkers().is_empty() {
        None
    } else if pos.legal_moves().is_empty() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    };
    SanPlus { san, suffix }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    /// shakmaty's answer: the one candidate matching the hints, else `None`.
    fn by_shakmaty(
        pos: &Chess,
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    ) -> Option<Move> {
        let mut found = pos.san_candidates(role, to).into_iter().filter(|m| {
            let from = m.from().unwrap();
            !m.is_castle()
                && file.is_none_or(|f| f == from.file())
                && rank.is_none_or(|r| r == from.rank())
                && m.promotion() == promotion
        });
        let first = found.next();
        if found.next().is_some() {
            None
        } else {
            first
        }
    }

    #[test]
    fn quick_shapes_read_as_the_general_reading_does() {
        // Every token of 2 to 4 bytes over the alphabet of moves, with and without `+`.
        let alphabet = b"abcdefghx12345678NBRQKPO-=:+#";
        let mut tokens: Vec<Vec<u8>> = alphabet.iter().map(|&a| vec![a]).collect();
        for _ in 0..3 {
            let longer: Vec<Vec<u8>> = tokens
                .iter()
                .filter(|t| t.len() == tokens.last().map_or(0, Vec::len))
                .flat_map(|t| alphabet.iter().map(move |&a| [t.as_slice(), &[a]].concat()))
                .collect();
            tokens.extend(longer);
        }
        let mut fast = 0;
        for token in &tokens {
            let (body, _) = split_suffix(token);
            let general = MoveSpec::parse_general(body);
            assert_eq!(
                MoveSpec::parse(token),
                general,
                "{}",
                String::from_utf8_lossy(token)
            );
            fast += usize::from(general.is_ok());
        }
        assert!(fast > 1000, "{fast} moves among the tokens");
    }

    #[test]
    fn quick_resolve_agrees_with_shakmaty() {
        let text = notate_testdata::pgn(4, 400);
        let games = crate::chess::pgn::read_str(&text).unwrap();
        let (mut quick, mut asked) = (0u64, 0u64);
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ];
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Knight),
            Some(Role::King),
        ];
        for game in games.iter().take(120) {
            for (pos, _) in game.mainline_positions() {
                // Every role to every square, with and without hints: legal, illegal and
                // ambiguous specs alike.
                for role in roles {
                    for to in Square::ALL {
                        for promotion in promotions {
                            let mut hints = vec![(None, None)];
                            for f in File::ALL {
                                hints.push((Some(f), None));
                            }
                            for r in Rank::ALL {
                                hints.push((None, Some(r)));
                            }
                            if role != Role::Pawn && promotion.is_some() {
                                hints.truncate(1);
                            }
                            for (file, rank) in hints {
                                let file = if role == Role::Pawn {
                                    file.or(Some(to.file()))
                                } else {
                                    file
                                };
                                asked += 1;
                                if let Some(m) =
                                    quick_resolve(&pos, role, file, rank, to, promotion)
                                {
                                    quick += 1;
                                    assert_eq!(
                                        Some(m),
                                        by_shakmaty(&pos, role, file, rank, to, promotion),
                                        "{} {role:?} {file:?} {rank:?} {to} {promotion:?}",
                                        Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                                    );
                                }
                            }
                        }
                    }
                }
                // Every legal move as SAN: the quick path answers nearly all of them.
                for m in pos.legal_moves() {
                    let san = shakmaty::san::San::from_move(&pos, m).to_string();
                    let spec = MoveSpec::parse(san.as_bytes()).unwrap();
                    assert_eq!(spec.resolve(&pos), Ok(Some(m)), "{san}");
                }
            }
        }
        assert!(
            quick > 100_000,
            "the quick path answered {quick} of {asked}"
        );
    }

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn uci(pos: &Chess, token: &str) -> Result<String, SanError> {
        play_token(pos, token.as_bytes()).map(|m| match m {
            Some(m) => m.to_uci(CastlingMode::Standard).to_string(),
            None => "0000".into(),
        })
    }

    #[test]
    fn standard_and_lenient_forms() {
        let start = Chess::default();
        for (token, want) in [
            ("e4", "e2e4"),
            ("Nf3", "g1f3"),
            ("e2-e4", "e2e4"),
            ("e2e4", "e2e4"),
            ("Ng1-f3", "g1f3"),
            ("Ng1f3+", "g1f3"),
            ("Pe4", "e2e4"),
            ("--", "0000"),
            ("Z0", "0000"),
        ] {
            assert_eq!(uci(&start, token).as_deref(), Ok(want), "{token}");
        }
        assert_eq!(uci(&start, "e5"), Err(SanError::Illegal));
        assert_eq!(uci(&start, "Nd2"), Err(SanError::Illegal));
        assert_eq!(uci(&start, "^5blergh"), Err(SanError::Syntax));
    }

    #[test]
    fn capture_marks_and_pawn_captures() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(uci(&p, "cxd5").as_deref(), Ok("c4d5"));
        assert_eq!(uci(&p, "cd5").as_deref(), Ok("c4d5"));
        assert_eq!(uci(&p, "c:d5").as_deref(), Ok("c4d5"));
        // `d5` alone is a pawn push on the d-file, never the capture.
        assert_eq!(uci(&p, "d5"), Err(SanError::Illegal));
        // A capture mark onto an empty square is read as the move.
        assert_eq!(uci(&p, "Nxf3").as_deref(), Ok("g1f3"));
        // A pawn capture without its file, or with `P` (hoover-chess-utils reads them).
        for token in ["xd5", "Pxd5", "4xd5", "P4xd5"] {
            assert_eq!(uci(&p, token).as_deref(), Ok("c4d5"), "{token}");
        }
        let two = pos("rnbqkbnr/ppp1pppp/8/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq - 0 3");
        assert_eq!(uci(&two, "xd5"), Err(SanError::Ambiguous));
        let promote = pos("1b6/2P5/6k1/8/8/8/4K3/8 w - - 0 1");
        for token in ["Pxb8=Q", "P7xb8=Q", "7xb8=Q", "xb8=Q"] {
            assert_eq!(uci(&promote, token).as_deref(), Ok("c7b8q"), "{token}");
        }
    }

    #[test]
    fn castling_promotion_and_ambiguity() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(uci(&p, "0-0").as_deref(), Ok("e1g1"));
        assert_eq!(uci(&p, "O-O-O+").as_deref(), Ok("e1c1"));
        assert_eq!(uci(&p, "e1g1").as_deref(), Ok("e1g1"));
        assert_eq!(uci(&p, "Kg1").as_deref(), Ok("e1g1"));
        let p = pos("8/4P3/8/8/8/2k5/8/K7 w - - 0 1");
        assert_eq!(uci(&p, "e8Q").as_deref(), Ok("e7e8q"));
        assert_eq!(uci(&p, "e8=N+").as_deref(), Ok("e7e8n"));
        assert_eq!(uci(&p, "e7e8r").as_deref(), Ok("e7e8r"));
        assert_eq!(uci(&p, "e8"), Err(SanError::Illegal));
        let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(uci(&p, "Nd2"), Err(SanError::Ambiguous));
        assert_eq!(uci(&p, "Nbd2").as_deref(), Ok("b1d2"));
        // Pinned knight: plain `Ne2` is unambiguous.
        let p = pos("4k3/4r3/8/8/8/8/2N1N3/4K3 w - - 0 1");
        assert_eq!(uci(&p, "Nd4").as_deref(), Ok("c2d4"));
        let p = pos("4k3/8/8/8/8/8/2N1N3/4K3 w - - 0 1");
        assert_eq!(uci(&p, "Nd4"), Err(SanError::Ambiguous));
    }

    #[test]
    fn a_chess960_king_step_onto_its_castling_square_is_the_step() {
        let p = |fen: &str| {
            fen.parse::<Fen>()
                .unwrap()
                .into_position::<Chess>(CastlingMode::Chess960)
                .unwrap()
        };
        let uci = |pos: &Chess, token: &str| {
            play_token(pos, token.as_bytes())
                .map(|m| m.unwrap().to_uci(CastlingMode::Chess960).to_string())
        };
        // The king on b1 steps to c1, queenside castling's square: the step, not castling.
        let b1 = p("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
        for token in ["b1c1", "b1-c1", "Kc1", "Kb1c1"] {
            assert_eq!(uci(&b1, token).as_deref(), Ok("b1c1"), "{token}");
        }
        // Castling is the king taking its rook, or a square no king move reaches.
        assert_eq!(uci(&b1, "b1a1").as_deref(), Ok("b1a1"));
        assert_eq!(uci(&b1, "O-O-O").as_deref(), Ok("b1a1"));
        // The king on f1 steps to g1, kingside castling's square: the step, and the
        // castling, king takes rook, is still there.
        let f1 = p("r4k1r/8/8/8/8/8/8/R4K1R w KQkq - 0 1");
        assert_eq!(uci(&f1, "f1g1").as_deref(), Ok("f1g1"));
        assert!(matches!(
            play_token(&f1, b"f1g1"),
            Ok(Some(Move::Normal { .. }))
        ));
        assert!(matches!(
            play_token(&f1, b"f1h1"),
            Ok(Some(Move::Castle { .. }))
        ));
        // In standard chess e1g1 reaches g1 only by castling.
        let standard = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(matches!(
            play_token(&standard, b"e1g1"),
            Ok(Some(Move::Castle { .. }))
        ));
    }

    #[test]
    fn null_move_in_check_is_an_error() {
        let p = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        assert_eq!(uci(&p, "--"), Err(SanError::NullInCheck));
    }

    #[test]
    fn san_text_is_inline_and_bounded() {
        assert_eq!(SanText::new("exd8=Q#").unwrap().len(), 7);
        assert!(SanText::new(&"x".repeat(MAX_SAN_LEN + 1)).is_none());
    }
}
