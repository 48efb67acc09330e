//! jsonchess packed moves: one comma-separated string per move, as the jsonchess protocol
//! sends them (`3,4,exd6,1407781768400,e5,d6,N,N,ep,d5`), and games as lists of them.
//!
//! The eight fields: full-move number before the move, 0-based ply index, SAN with `+`/`#`,
//! time (ms since the Unix epoch, 0 when unknown), from and to (the king's squares when
//! castling), the castling rights the mover lost (`N`, `K`, `Q`, `A`), and the new en passant
//! target after a double push (else `N`); then at most one group: `c,<rook from>,<rook to>`,
//! `p,<piece>` or `ep,<square of the captured pawn>`.
//!
//! Unlike the reference library, field 7 holds the rights the mover really lost, and decoding
//! checks every field against the position (the reference trusted the string).
//!
//! A game line (`notate convert --to jsonchess`):
//!
//! ```text
//! {"game_tags":{"White":"Morphy","Result":"1-0"},"moves":["1,0,e4,0,e2,e4,N,e3","1,1,e5,0,e7,e5,N,e6",…]}
//! ```

use std::fmt;

use shakmaty::{
    san::{San, SanPlus},
    CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square,
};

use super::game::{ChessGame, Comment, Game, Played, Ply, StartPosition, Tags};
use super::notation::{
    castling_destinations, is_standard_san, write_square, write_tags_object, write_u32, write_u64,
};
use super::san::{MoveSpec, SanText};
use crate::format::{read_format, utf8, write_verbs, WriteFormat};
use crate::{Error, ErrorKind};

/// The castling rights a move cost its mover (field 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RightsLost {
    /// `N`: none.
    None,
    /// `K`: the king-side right.
    KingSide,
    /// `Q`: the queen-side right.
    QueenSide,
    /// `A`: both.
    Both,
}

impl RightsLost {
    fn from_sides(king: bool, queen: bool) -> RightsLost {
        match (king, queen) {
            (false, false) => RightsLost::None,
            (true, false) => RightsLost::KingSide,
            (false, true) => RightsLost::QueenSide,
            (true, true) => RightsLost::Both,
        }
    }

    fn letter(self) -> u8 {
        match self {
            RightsLost::None => b'N',
            RightsLost::KingSide => b'K',
            RightsLost::QueenSide => b'Q',
            RightsLost::Both => b'A',
        }
    }
}

/// How decoding reads field 7.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Field7 {
    /// Field 7 must be the rights the mover really lost (the protocol as notate writes it).
    #[default]
    Exact,
    /// Also accept what the reference library writes (`A` for every king move, `Q` for a
    /// white a-file rook, `K` for a black h-file rook, whatever the rights), for histories
    /// recorded by reference servers. The position's rights still come from the board.
    OrReference,
}

/// The group after the eight fields, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extra {
    /// A plain move: no group.
    None,
    /// `c,<rook from>,<rook to>`.
    Castle {
        /// Where the rook stood.
        rook_from: Square,
        /// Where it goes.
        rook_to: Square,
    },
    /// `p,<N|B|R|Q>`.
    Promotion(Role),
    /// `ep,<square>`: the square of the pawn taken en passant.
    EnPassant(Square),
}

/// One move in the jsonchess packed form, field by field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackedMove {
    /// Field 1: the full-move number of the position before the move.
    pub fullmove: u32,
    /// Field 2: the 0-based ply index, `(fullmove - 1) * 2`, plus 1 for black.
    pub index: u32,
    /// Field 3: SAN with check mark.
    pub san: SanText,
    /// Field 4: when the move was made, ms since the Unix epoch (0: unknown).
    pub time: u64,
    /// Field 5: from (the king's square when castling).
    pub from: Square,
    /// Field 6: to (the king's destination when castling).
    pub to: Square,
    /// Field 7: the castling rights the mover lost.
    pub rights_lost: RightsLost,
    /// Field 8: the en passant target after a double push.
    pub ep_target: Option<Square>,
    /// The group after field 8.
    pub extra: Extra,
}

/// A packed move that is malformed, or does not describe a legal move of its position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("field {field} {token:?}: {reason}")]
pub struct PackedError {
    /// The 1-based field (groups count on: `c`/`p`/`ep` is field 9).
    pub field: usize,
    /// The field's text.
    pub token: String,
    /// What is wrong.
    pub reason: String,
}

fn field_error(field: usize, token: &str, reason: impl Into<String>) -> PackedError {
    PackedError {
        field,
        token: token.chars().take(40).collect(),
        reason: reason.into(),
    }
}

fn parse_square(field: usize, token: &str) -> Result<Square, PackedError> {
    match token.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square::from_coords(
            File::new(u32::from(f - b'a')),
            Rank::new(u32::from(r - b'1')),
        )),
        _ => Err(field_error(field, token, "not a square (a1 … h8)")),
    }
}

fn parse_number<T: TryFrom<u64>>(field: usize, token: &str) -> Result<T, PackedError> {
    if token.is_empty() || token.len() > 19 {
        return Err(field_error(
            field,
            token,
            if token.is_empty() {
                "not a number"
            } else {
                "number out of range"
            },
        ));
    }
    let mut n: u64 = 0;
    for b in token.bytes() {
        if !b.is_ascii_digit() {
            return Err(field_error(field, token, "not a number"));
        }
        // At most 19 digits: no overflow.
        n = n * 10 + u64::from(b - b'0');
    }
    T::try_from(n).map_err(|_| field_error(field, token, "number out of range"))
}

/// The square a double push skips, if `mv` is one.
fn double_push_target(mv: Move) -> Option<Square> {
    match mv {
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } if u32::from(from.rank()).abs_diff(u32::from(to.rank())) == 2 => {
            Some(Square::from_coords(
                from.file(),
                Rank::new((u32::from(from.rank()) + u32::from(to.rank())) / 2),
            ))
        }
        _ => None,
    }
}

fn rights_of(pos: &Chess, color: Color) -> (bool, bool) {
    let castles = pos.castles();
    (
        castles.has(color, CastlingSide::KingSide),
        castles.has(color, CastlingSide::QueenSide),
    )
}

/// What the reference library writes in field 7, whatever the rights: `A` for any king
/// move, `Q` for a white rook leaving the a-file, `K` for a black rook leaving the h-file.
fn reference_rights_lost(role: Role, from: Square, color: Color) -> RightsLost {
    match (role, color, from.file()) {
        (Role::King, _, _) => RightsLost::Both,
        (Role::Rook, Color::White, File::A) => RightsLost::QueenSide,
        (Role::Rook, Color::Black, File::H) => RightsLost::KingSide,
        _ => RightsLost::None,
    }
}

impl PackedMove {
    /// Encodes a legal move of `pos` made at `time` (ms since the Unix epoch, 0 if unknown).
    ///
    /// ```
    /// use notate::chess::jsonchess::PackedMove;
    /// use notate::shakmaty::{Chess, Position, san::San};
    /// let pos = Chess::default();
    /// let mv = "e4".parse::<San>().unwrap().to_move(&pos).unwrap();
    /// assert_eq!(PackedMove::encode(&pos, mv, 0).to_string(), "1,0,e4,0,e2,e4,N,e3");
    /// ```
    pub fn encode(pos: &Chess, mv: Move, time: u64) -> PackedMove {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        PackedMove::encode_played(pos, mv, &after, time)
    }

    /// Like [`PackedMove::encode`], for a caller that already has the position after the move.
    pub fn encode_played(pos: &Chess, mv: Move, after: &Chess, time: u64) -> PackedMove {
        let color = pos.turn();
        let fullmove = pos.fullmoves().get();
        let mut text = [0u8; 16];
        let mut len = 0;
        let san = San::from_move(pos, mv);
        {
            use std::io::Write as _;
            let mut cursor = std::io::Cursor::new(&mut text[..]);
            let _ = write!(cursor, "{san}");
            len += cursor.position() as usize;
        }
        if after.is_check() {
            text[len] = if after.is_checkmate() { b'#' } else { b'+' };
            len += 1;
        }
        let (king_before, queen_before) = rights_of(pos, color);
        let (king_after, queen_after) = rights_of(after, color);
        let (from, to, extra) = match mv {
            Move::Castle { king, rook } => {
                let to = castling_destinations(king, rook);
                (
                    king,
                    to.king_to,
                    Extra::Castle {
                        rook_from: rook,
                        rook_to: to.rook_to,
                    },
                )
            }
            Move::EnPassant { from, to } => (
                from,
                to,
                Extra::EnPassant(Square::from_coords(to.file(), from.rank())),
            ),
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => (from, to, promotion.map_or(Extra::None, Extra::Promotion)),
            Move::Put { to, .. } => (to, to, Extra::None),
        };
        PackedMove {
            fullmove,
            index: ply_index(fullmove, color),
            san: SanText::from_ascii(&text[..len]).expect("SAN is short ASCII"),
            time,
            from,
            to,
            rights_lost: RightsLost::from_sides(
                king_before && !king_after,
                queen_before && !queen_after,
            ),
            ep_target: double_push_target(mv),
            extra,
        }
    }

    /// Appends the packed string.
    pub fn write(&self, out: &mut Vec<u8>) {
        write_u32(out, self.fullmove);
        out.push(b',');
        write_u32(out, self.index);
        out.push(b',');
        out.extend_from_slice(self.san.as_bytes());
        out.push(b',');
        write_u64(out, self.time);
        out.push(b',');
        write_square(out, self.from);
        out.push(b',');
        write_square(out, self.to);
        out.push(b',');
        out.push(self.rights_lost.letter());
        out.push(b',');
        match self.ep_target {
            Some(sq) => write_square(out, sq),
            None => out.push(b'N'),
        }
        match self.extra {
            Extra::None => {}
            Extra::Castle { rook_from, rook_to } => {
                out.extend_from_slice(b",c,");
                write_square(out, rook_from);
                out.push(b',');
                write_square(out, rook_to);
            }
            Extra::Promotion(role) => {
                out.extend_from_slice(b",p,");
                out.push(role.upper_char() as u8);
            }
            Extra::EnPassant(sq) => {
                out.extend_from_slice(b",ep,");
                write_square(out, sq);
            }
        }
    }

    /// Reads the fields of a packed string, without a position (see [`PackedMove::to_move`]).
    ///
    /// ```
    /// use notate::chess::jsonchess::{Extra, PackedMove};
    /// use notate::shakmaty::Square;
    /// let m = PackedMove::parse("3,4,exd6,1407781781169,e5,d6,N,N,ep,d5").unwrap();
    /// assert_eq!(m.extra, Extra::EnPassant(Square::D5));
    /// let err = PackedMove::parse("1,0,e4,0,e2,e9,N,e3").unwrap_err();
    /// assert_eq!(err.to_string(), "field 6 \"e9\": not a square (a1 … h8)");
    /// ```
    pub fn parse(text: &str) -> Result<PackedMove, PackedError> {
        let mut fields = [""; 11];
        let mut count = 0;
        let mut start = 0;
        // Split by hand: a byte loop is a good part faster than `str::split` on strings
        // this short, and decoding is the protocol's hot path.
        for (i, &b) in text
            .as_bytes()
            .iter()
            .chain(std::iter::once(&b','))
            .enumerate()
        {
            if b != b',' {
                continue;
            }
            let part = &text[start..i];
            if count == fields.len() {
                return Err(field_error(count + 1, part, "too many fields (at most 11)"));
            }
            fields[count] = part;
            count += 1;
            start = i + 1;
        }
        if count < 8 {
            return Err(field_error(
                count + 1,
                "",
                format!("missing: a packed move has 8 fields, this one {count}"),
            ));
        }
        let fullmove: u32 = parse_number(1, fields[0])?;
        if fullmove == 0 {
            return Err(field_error(1, fields[0], "full-move numbers start at 1"));
        }
        let index = parse_number(2, fields[1])?;
        let san_text = fields[2];
        // SAN as the protocol writes it: capital-O castling, `=` before a promotion piece, at
        // most one `+`/`#` (wider disambiguation than needed is SAN too: the reference
        // ignores pins when it disambiguates).
        let san = SanText::new(san_text)
            .filter(|_| is_standard_san(san_text.as_bytes()))
            .ok_or_else(|| field_error(3, san_text, "not SAN"))?;
        let time = parse_number(4, fields[3])?;
        let from = parse_square(5, fields[4])?;
        let to = parse_square(6, fields[5])?;
        let rights_lost = match fields[6] {
            "N" => RightsLost::None,
            "K" => RightsLost::KingSide,
            "Q" => RightsLost::QueenSide,
            "A" => RightsLost::Both,
            other => return Err(field_error(7, other, "not one of N, K, Q, A")),
        };
        let ep_target = match fields[7] {
            "N" => None,
            sq => {
                let sq = parse_square(8, sq)?;
                if !matches!(sq.rank(), Rank::Third | Rank::Sixth) {
                    return Err(field_error(8, fields[7], "not on the third or sixth rank"));
                }
                Some(sq)
            }
        };
        let group = &fields[8..count];
        let extra = match group {
            [] => Extra::None,
            ["c", rook_from, rook_to] => Extra::Castle {
                rook_from: parse_square(10, rook_from)?,
                rook_to: parse_square(11, rook_to)?,
            },
            ["p", piece] => Extra::Promotion(match *piece {
                "N" => Role::Knight,
                "B" => Role::Bishop,
                "R" => Role::Rook,
                "Q" => Role::Queen,
                other => return Err(field_error(10, other, "not a promotion piece (N, B, R, Q)")),
            }),
            ["ep", sq] => Extra::EnPassant(parse_square(10, sq)?),
            [kind, ..] => {
                return Err(field_error(
                    9,
                    kind,
                    "not a group: c,<rook from>,<rook to> or p,<piece> or ep,<square>",
                ))
            }
        };
        Ok(PackedMove {
            fullmove,
            index,
            san,
            time,
            from,
            to,
            rights_lost,
            ep_target,
            extra,
        })
    }

    /// The legal move of `pos` this string describes, checked field by field: full-move
    /// number and index against the position, from/to/group against the legal moves, the SAN
    /// (with its check mark) against the move, and fields 7 and 8 against the position after
    /// it (see [`PackedMove::to_move_with`] to accept the reference library's field 7).
    ///
    /// ```
    /// use notate::chess::jsonchess::PackedMove;
    /// use notate::shakmaty::{Chess, Position};
    /// let pos = Chess::default();
    /// let mv = PackedMove::parse("1,0,Nf3,0,g1,f3,N,N").unwrap().to_move(&pos).unwrap();
    /// assert_eq!(mv.to_string(), "Ng1-f3");
    /// let err = PackedMove::parse("1,0,Nf3+,0,g1,f3,N,N").unwrap().to_move(&pos).unwrap_err();
    /// assert_eq!(err.to_string(), "field 3 \"Nf3+\": the move gives no check");
    /// ```
    pub fn to_move(&self, pos: &Chess) -> Result<Move, PackedError> {
        self.play(&mut pos.clone(), Field7::Exact)
    }

    /// [`PackedMove::to_move`], reading field 7 as `field7` says.
    ///
    /// ```
    /// use notate::chess::jsonchess::{Field7, PackedMove};
    /// use notate::shakmaty::{fen::Fen, CastlingMode, Chess};
    /// let pos: Chess = "4k3/8/8/8/8/8/8/4K3 w - - 7 40".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// // The reference writes A for a king move without rights.
    /// let packed = PackedMove::parse("40,78,Kf2,0,e1,f2,A,N").unwrap();
    /// assert!(packed.to_move(&pos).is_err());
    /// assert!(packed.to_move_with(&pos, Field7::OrReference).is_ok());
    /// ```
    pub fn to_move_with(&self, pos: &Chess, field7: Field7) -> Result<Move, PackedError> {
        self.play(&mut pos.clone(), field7)
    }

    /// [`PackedMove::to_move_with`], then plays the move on `pos`. On an error `pos` may be
    /// left before or after the move: a game that fails is abandoned (this saves a copy of
    /// the position per move when whole games are read).
    pub(crate) fn play(&self, pos: &mut Chess, field7: Field7) -> Result<Move, PackedError> {
        let color = pos.turn();
        let fullmove = pos.fullmoves().get();
        if self.fullmove != fullmove {
            return Err(field_error(
                1,
                &self.fullmove.to_string(),
                format!("the position is at move {fullmove}"),
            ));
        }
        if self.index != ply_index(fullmove, color) {
            return Err(field_error(
                2,
                &self.index.to_string(),
                format!(
                    "move {fullmove} of {} is ply index {}",
                    color_name(color),
                    ply_index(fullmove, color)
                ),
            ));
        }
        // The common case costs one legality check: the SAN's move, found by the resolver,
        // is what fields 5, 6 and the group describe. Otherwise those fields are read on
        // their own, to say which one is wrong.
        let named = MoveSpec::parse(self.san.as_bytes())
            .ok()
            .and_then(|spec| spec.resolve(pos).ok().flatten());
        // The resolver is lenient (it ignores a capture mark, reads `Kg1` as castling); the
        // protocol's SAN is not, so the move must also match the SAN as written.
        let strict = |mv: Move| {
            SanPlus::from_ascii(self.san.as_bytes()).is_ok_and(|san| san.san.matches(mv))
        };
        let mv = match named {
            Some(mv) if self.describes(mv) && strict(mv) => mv,
            _ => {
                let mv = self.move_from_fields(pos)?;
                return Err(field_error(
                    3,
                    self.san.as_str(),
                    format!("names another move than {}", San::from_move(pos, mv)),
                ));
            }
        };
        let role = pos
            .board()
            .role_at(self.from)
            .expect("the move starts there");

        let (king_before, queen_before) = rights_of(pos, color);
        pos.play_unchecked(mv);
        let after = &*pos;
        self.check_mark(after)?;
        let (king_after, queen_after) = rights_of(after, color);
        let lost = RightsLost::from_sides(king_before && !king_after, queen_before && !queen_after);
        let reference_ok = field7 == Field7::OrReference
            && self.rights_lost == reference_rights_lost(role, self.from, color);
        if self.rights_lost != lost && !reference_ok {
            return Err(field_error(
                7,
                &char::from(self.rights_lost.letter()).to_string(),
                match lost {
                    RightsLost::None => "the mover loses no castling right: N",
                    RightsLost::KingSide => "the mover loses the king-side right: K",
                    RightsLost::QueenSide => "the mover loses the queen-side right: Q",
                    RightsLost::Both => "the mover loses both rights: A",
                },
            ));
        }
        let ep = double_push_target(mv);
        if self.ep_target != ep {
            return Err(field_error(
                8,
                &self.ep_target.map_or("N".into(), |sq| sq.to_string()),
                match ep {
                    Some(sq) => format!("the double push sets {sq}"),
                    None => "not a double push: N".into(),
                },
            ));
        }
        Ok(mv)
    }

    /// Whether fields 5, 6 and the group describe `mv`.
    fn describes(&self, mv: Move) -> bool {
        match mv {
            Move::Castle { king, rook } => {
                let to = castling_destinations(king, rook);
                self.from == king
                    && self.to == to.king_to
                    && self.extra
                        == Extra::Castle {
                            rook_from: rook,
                            rook_to: to.rook_to,
                        }
            }
            Move::EnPassant { from, to } => {
                self.from == from
                    && self.to == to
                    && self.extra == Extra::EnPassant(Square::from_coords(to.file(), from.rank()))
            }
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => {
                self.from == from
                    && self.to == to
                    && self.extra == promotion.map_or(Extra::None, Extra::Promotion)
            }
            Move::Put { .. } => false,
        }
    }

    /// The legal move fields 5, 6 and the group describe, read without the SAN; the error
    /// names the field that makes it impossible.
    fn move_from_fields(&self, pos: &Chess) -> Result<Move, PackedError> {
        let color = pos.turn();
        let board = pos.board();
        let square_text = |sq: Square| sq.to_string();
        let Some(piece) = board.piece_at(self.from) else {
            return Err(field_error(5, &square_text(self.from), "no piece there"));
        };
        if piece.color != color {
            return Err(field_error(
                5,
                &square_text(self.from),
                format!(
                    "not a {} piece: {} is on move",
                    color_name(color),
                    color_name(color)
                ),
            ));
        }
        let mv = match self.extra {
            Extra::Castle { rook_from, rook_to } => {
                let mv = Move::Castle {
                    king: self.from,
                    rook: rook_from,
                };
                if piece.role != Role::King || !pos.is_legal(mv) {
                    return Err(field_error(
                        10,
                        &square_text(rook_from),
                        "no legal castling with this king and rook",
                    ));
                }
                let to = castling_destinations(self.from, rook_from);
                let (king_to, expected) = (to.king_to, to.rook_to);
                if king_to != self.to {
                    return Err(field_error(
                        6,
                        &square_text(self.to),
                        format!("the king castles to {king_to}"),
                    ));
                }
                if rook_to != expected {
                    return Err(field_error(
                        11,
                        &square_text(rook_to),
                        format!("the rook castles to {expected}"),
                    ));
                }
                mv
            }
            Extra::EnPassant(taken) => {
                let mv = Move::EnPassant {
                    from: self.from,
                    to: self.to,
                };
                if !pos.is_legal(mv) {
                    return Err(field_error(
                        6,
                        &square_text(self.to),
                        "no legal en passant capture to this square",
                    ));
                }
                let expected = Square::from_coords(self.to.file(), self.from.rank());
                if taken != expected {
                    return Err(field_error(
                        10,
                        &square_text(taken),
                        format!("the captured pawn stands on {expected}"),
                    ));
                }
                mv
            }
            extra => {
                let promotion = match extra {
                    Extra::Promotion(role) => Some(role),
                    _ => None,
                };
                let mv = Move::Normal {
                    role: piece.role,
                    from: self.from,
                    capture: board.role_at(self.to),
                    to: self.to,
                    promotion,
                };
                if !pos.is_legal(mv) {
                    // Say which group is missing when that is what makes the move illegal.
                    let last_rank = matches!(self.to.rank(), Rank::First | Rank::Eighth);
                    let reason = if piece.role == Role::Pawn && last_rank && promotion.is_none() {
                        "a pawn reaching the last rank needs the group p,<piece>"
                    } else if piece.role == Role::King
                        && u32::from(self.from.file()).abs_diff(u32::from(self.to.file())) >= 2
                    {
                        "castling needs the group c,<rook from>,<rook to>"
                    } else if piece.role == Role::Pawn
                        && Some(self.to) == pos.ep_square(shakmaty::EnPassantMode::Legal)
                    {
                        "an en passant capture needs the group ep,<square>"
                    } else {
                        "not a legal move from field 5"
                    };
                    return Err(field_error(6, &square_text(self.to), reason));
                }
                mv
            }
        };

        Ok(mv)
    }

    fn check_mark(&self, after: &Chess) -> Result<(), PackedError> {
        let mark = match self.san.as_bytes().last() {
            Some(b'#') => 2,
            Some(b'+') => 1,
            _ => 0,
        };
        let real = if after.is_check() {
            if after.is_checkmate() {
                2
            } else {
                1
            }
        } else {
            0
        };
        if mark != real {
            return Err(field_error(
                3,
                self.san.as_str(),
                match real {
                    0 => "the move gives no check",
                    1 => "the move gives check (+), not mate",
                    _ => "the move mates (#)",
                },
            ));
        }
        Ok(())
    }
}

impl fmt::Display for PackedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::with_capacity(48);
        self.write(&mut out);
        f.write_str(std::str::from_utf8(&out).expect("packed moves are ASCII"))
    }
}

fn ply_index(fullmove: u32, color: Color) -> u32 {
    (fullmove - 1)
        .saturating_mul(2)
        .saturating_add(u32::from(color == Color::Black))
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Decodes a packed string in the position before it: [`PackedMove::parse`] then
/// [`PackedMove::to_move`].
///
/// ```
/// use notate::chess::jsonchess::decode;
/// use notate::shakmaty::Chess;
/// let mv = decode(&Chess::default(), "1,0,e4,1407781768400,e2,e4,N,e3").unwrap();
/// assert_eq!(mv.to_string(), "e2-e4");
/// ```
pub fn decode(pos: &Chess, text: &str) -> Result<Move, PackedError> {
    PackedMove::parse(text)?.to_move(pos)
}

/// [`decode`], reading field 7 as `field7` says (see [`Field7::OrReference`]).
pub fn decode_with(pos: &Chess, text: &str, field7: Field7) -> Result<Move, PackedError> {
    PackedMove::parse(text)?.to_move_with(pos, field7)
}

/// The comment command that keeps a move's time when a jsonchess game is read: the other
/// formats have no field for it.
const TIME_COMMAND: &str = "timestamp";

/// The move's time: the first `[%timestamp ms]` of its comments whose argument is a number
/// the packed move's field 4 can hold (1 to 19 digits, as [`PackedMove::parse`] reads
/// them), else 0 (unknown), as a clock command that is not a time is no clock. A larger
/// number written would make a move that does not read back.
fn time_of(ply: &Ply<Played>) -> u64 {
    ply.comments
        .iter()
        .flat_map(|c| c.command(TIME_COMMAND))
        .find_map(|ms| parse_number::<u64>(4, ms).ok())
        .unwrap_or(0)
}

/// Writes a replayed game as a jsonchess line: `{"game_tags":{…},"moves":["1,0,e4,…",…]}`.
/// Times are 0, or the `[%timestamp ms]` a jsonchess game read earlier left in a comment.
/// A null move or an unusable start position is an error, and nothing is appended.
///
/// ```
/// use notate::chess::{jsonchess, pgn};
/// let game = pgn::read_one("1. e4 e5 2. Nf3 *").unwrap();
/// assert_eq!(
///     jsonchess::to_string(&game).unwrap(),
///     "{\"game_tags\":{\"Result\":\"*\"},\"moves\":[\"1,0,e4,0,e2,e4,N,e3\",\"1,1,e5,0,e7,e5,N,e6\",\"2,2,Nf3,0,g1,f3,N,N\"]}\n"
/// );
/// ```
pub(crate) fn write_jsonchess(game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
    let mut pos = game.start.position.clone();
    let mark = out.len();
    out.extend_from_slice(b"{\"game_tags\":");
    write_tags_object(&game.tags, game.result.map(|r| r.as_str()), out);
    out.extend_from_slice(b",\"moves\":[");
    for (i, ply) in game.moves.plies.iter().enumerate() {
        let Some(mv) = ply.mv.mv else {
            out.truncate(mark);
            return Err(Error::at(
                ply.mv.offset,
                "a null move: jsonchess has no way to write one",
            )
            .with_ply(i + 1)
            .with_token(ply.mv.san.as_str())
            .with_kind(ErrorKind::Unwritable));
        };
        if i > 0 {
            out.push(b',');
        }
        let mut after = pos.clone();
        after.play_unchecked(mv);
        out.push(b'"');
        PackedMove::encode_played(&pos, mv, &after, time_of(ply)).write(out);
        out.push(b'"');
        pos = after;
    }
    out.extend_from_slice(b"]}\n");
    Ok(())
}

/// Reads one jsonchess game line; `offset` is where the text starts in its file. The game
/// starts from the `FEN` tag if there is one (notate's extension: the protocol always starts
/// from the standard position), and every move is decoded and checked in its position.
///
/// Field 7 is read as `field7` says (for games recorded by reference servers:
/// [`Field7::OrReference`]).
///
/// ```
/// use notate::chess::jsonchess;
/// let game = jsonchess::read_one(r#"{"game_tags":{"White":"A"},"moves":["1,0,e4,1407781768400,e2,e4,N,e3"]}"#).unwrap();
/// assert_eq!(game.moves.plies[0].mv.san.as_str(), "e4");
/// let err = jsonchess::read_one(r#"{"game_tags":{},"moves":["1,0,e5,0,e2,e4,N,e3"]}"#).unwrap_err();
/// assert_eq!(err.ply, Some(1));
/// assert!(err.message.starts_with("field 3 \"e5\""));
/// ```
pub(crate) fn read_jsonchess_with(
    text: &str,
    offset: usize,
    field7: Field7,
) -> Result<ChessGame, Error> {
    use std::borrow::Cow;
    /// A packed string, borrowed from the text unless it holds escapes (serde borrows a
    /// `Cow` only as a direct field, hence the wrapper).
    #[derive(serde::Deserialize)]
    struct Packed<'a>(#[serde(borrow)] Cow<'a, str>);
    /// The line.
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct GameLine<'a> {
        game_tags: TagList,
        #[serde(borrow)]
        moves: Vec<Packed<'a>>,
    }
    let fail = |what: String| Error::at(offset, what);
    let line: GameLine<'_> =
        serde_json::from_str(text).map_err(|e| fail(format!("not a jsonchess game line: {e}")))?;
    let tags = line.game_tags.0;
    for (name, value) in tags.iter() {
        Tags::check_pgn_tag("game_tags", name, value)
            .map_err(|e| e.with_place(crate::Place::at_offset(offset)))?;
    }
    let start = StartPosition::from_tags(&tags).map_err(|e| fail(e.to_string()))?;
    let mut pos = start.position.clone();
    let mut game: ChessGame = Game {
        tags,
        start,
        ..Game::default()
    };
    game.moves.plies.reserve(line.moves.len());
    let mut cursor = 0;
    for (i, Packed(packed)) in line.moves.iter().enumerate() {
        // The string's place in the line, for the error's column.
        let at = match packed {
            Cow::Borrowed(s) => s.as_ptr() as usize - text.as_ptr() as usize,
            Cow::Owned(s) => text[cursor..]
                .find(s.as_str())
                .map_or(cursor, |p| cursor + p),
        };
        cursor = at;
        let err = |e: PackedError| {
            Error::at(offset + at, e.to_string())
                .with_ply(i + 1)
                .with_token(packed.chars().take(60).collect::<String>())
        };
        let parsed = PackedMove::parse(packed).map_err(err)?;
        let mv = parsed.play(&mut pos, field7).map_err(err)?;
        let mut ply = Ply::new(Played {
            san: parsed.san,
            mv: Some(mv),
            offset: offset + at,
        });
        if parsed.time != 0 {
            ply.comments
                .push(Comment::new(format!("[%{TIME_COMMAND} {}]", parsed.time)));
        }
        game.moves.plies.push(ply);
    }
    game.result = game
        .tags
        .get("Result")
        .and_then(super::game::GameResult::parse);
    Ok(game)
}

/// The `game_tags` object read straight into [`Tags`], in order (a map type would hash
/// every name for nothing).
struct TagList(Tags);

impl<'de> serde::Deserialize<'de> for TagList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TagList, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = TagList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of tag names and string values")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<TagList, A::Error> {
                let mut tags = Tags::new();
                while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match map.next_value::<serde_json::Value>()? {
                        serde_json::Value::String(value) => tags.push(&name, value),
                        _ => {
                            return Err(serde::de::Error::custom(format!(
                                "game_tags.{name}: not a string"
                            )))
                        }
                    }
                }
                Ok(TagList(tags))
            }
        }
        d.deserialize_map(Visitor)
    }
}

/// jsonchess game lines: tags and the protocol's packed moves.
#[derive(Debug, Default)]
pub struct Jsonchess;

/// How jsonchess game lines are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// How field 7 of a packed move is read (default: exactly as the protocol says).
    pub field7: Field7,
}

/// How jsonchess game lines are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

read_format!(
    Jsonchess,
    ChessGame,
    "jsonchess",
    ReadOptions,
    lines,
    |record, options| {
        vec![utf8(record).and_then(|text| read_jsonchess_with(text, 0, options.field7))]
    }
);

impl WriteFormat for Jsonchess {
    type Game = ChessGame;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> Jsonchess {
        Jsonchess
    }

    fn write_game(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        write_jsonchess(game, out)
    }
}

write_verbs!(Jsonchess, ChessGame, "jsonchess");

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn encode_uci(fen: &str, uci: &str) -> String {
        let p = pos(fen);
        let mv = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&p)
            .unwrap();
        let packed = PackedMove::encode(&p, mv, 7).to_string();
        assert_eq!(decode(&p, &packed), Ok(mv), "{packed}");
        packed
    }

    #[test]
    fn rights_the_mover_really_lost() {
        // A rook leaving h1 costs K; a king move without rights costs nothing.
        assert_eq!(
            encode_uci("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h5"),
            "1,0,Rh5,7,h1,h5,K,N"
        );
        assert_eq!(
            encode_uci("4k3/8/8/8/8/8/8/4K3 w - - 7 40", "e1f2"),
            "40,78,Kf2,7,e1,f2,N,N"
        );
        assert_eq!(
            encode_uci("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "a8a5"),
            "1,1,Ra5,7,a8,a5,Q,N"
        );
        // Taking the opponent's rook costs the mover nothing.
        assert_eq!(
            encode_uci("4k2r/8/8/8/8/8/8/B3K3 w k - 0 1", "a1h8"),
            "1,0,Bxh8,7,a1,h8,N,N"
        );
    }

    #[test]
    fn groups() {
        assert_eq!(
            encode_uci("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"),
            "1,0,O-O+,7,e1,g1,K,N,c,h1,f1"
        );
        assert_eq!(
            encode_uci("4k3/8/8/3pP3/8/8/8/K3R3 w - d6 0 1", "e5d6"),
            "1,0,exd6+,7,e5,d6,N,N,ep,d5"
        );
        assert_eq!(
            encode_uci("4k3/8/8/8/8/8/4p3/3RK3 b - - 0 30", "e2d1b"),
            "30,59,exd1=B,7,e2,d1,N,N,p,B"
        );
    }

    #[test]
    fn decoding_names_the_field() {
        let start = Chess::default();
        let field = |s: &str| decode(&start, s).unwrap_err().field;
        assert_eq!(field("2,0,e4,0,e2,e4,N,e3"), 1);
        assert_eq!(field("1,1,e4,0,e2,e4,N,e3"), 2);
        assert_eq!(field("1,0,d4,0,e2,e4,N,e3"), 3);
        assert_eq!(field("1,0,e4+,0,e2,e4,N,e3"), 3);
        assert_eq!(field("1,0,e4,x,e2,e4,N,e3"), 4);
        assert_eq!(field("1,0,e4,0,e3,e4,N,e3"), 5);
        assert_eq!(field("1,0,e4,0,e7,e5,N,e6"), 5);
        assert_eq!(field("1,0,e4,0,e2,e5,N,e3"), 6);
        assert_eq!(field("1,0,e4,0,e2,e4,K,e3"), 7);
        assert_eq!(field("1,0,e4,0,e2,e4,N,N"), 8);
        assert_eq!(field("1,0,e4,0,e2,e4,N,e3,q"), 9);
        assert_eq!(field("1,0,e4,0,e2,e4,N,e3,p,Q"), 6);
        assert_eq!(field("1,0,e4,0,e2,e4,N"), 8);
        assert_eq!(field("1,0,e4,0,e2,e4,N,e3,c,h1,f1,x"), 12);
        let err = decode(&start, "1,0,Nf3,0,g1,f3,N,N,ep").unwrap_err();
        assert_eq!(err.field, 9);
        let p = pos("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
        let err = decode(&p, "1,0,O-O+,0,e1,g1,K,N").unwrap_err();
        assert_eq!(
            err.to_string(),
            "field 6 \"g1\": castling needs the group c,<rook from>,<rook to>"
        );
    }

    #[test]
    fn reference_field_7_is_accepted() {
        // The reference writes A for every king move, even without rights.
        let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 7 40");
        assert_eq!(decode(&p, "40,78,Kf2,0,e1,f2,A,N").unwrap_err().field, 7);
        assert!(decode_with(&p, "40,78,Kf2,0,e1,f2,A,N", Field7::OrReference).is_ok());
        let err = decode_with(&p, "40,78,Kf2,0,e1,f2,Q,N", Field7::OrReference).unwrap_err();
        assert_eq!(err.field, 7);
        // A rook leaving h1 loses K; the reference's N only with OrReference.
        let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(decode(&p, "1,0,Rh5,0,h1,h5,N,N").unwrap_err().field, 7);
        assert!(decode_with(&p, "1,0,Rh5,0,h1,h5,N,N", Field7::OrReference).is_ok());
    }

    #[test]
    fn the_san_must_name_the_move_as_written() {
        let start = Chess::default();
        assert_eq!(decode(&start, "1,0,Nxf3,0,g1,f3,N,N").unwrap_err().field, 3);
        let p = pos("4k2r/8/8/8/8/8/8/B3K3 w k - 0 1");
        assert_eq!(decode(&p, "1,0,Bh8,0,a1,h8,N,N").unwrap_err().field, 3);
        assert!(decode(&p, "1,0,Bxh8,0,a1,h8,N,N").is_ok());
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(
            decode(&p, "1,0,Kg1,0,e1,g1,K,N,c,h1,f1").unwrap_err().field,
            3
        );
        let p = pos("rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2");
        assert_eq!(decode(&p, "2,2,dxd5,0,d4,d5,N,N").unwrap_err().field, 3);
        assert!(decode(&p, "2,2,d5,0,d4,d5,N,N").is_ok());
    }
}
