//! The notation that several chess formats write the same way, so that none of them reaches
//! into another: LRAN (`Ng1-f3`, `e4xd5`), the move fields of EGD and the database rows
//! (piece codes with the bishop's square colour, move types), squares, FEN written straight
//! into bytes, the castling squares of a move, numbers and JSON strings, the tags object, and
//! the test of whether a token is already standard SAN.
//!
//! Used by `egd`, `tracks`, `jsonchess`, `rows` and the protocol's premoves.

use shakmaty::{
    fen::Fen, uci::UciMove, Bitboard, Board, CastlingMode, CastlingSide, Chess, Color,
    EnPassantMode, Move, Position, Role, Square,
};

use super::game::Tags;

/// EGD's long reversible algebraic notation: `e2-e4`, `Ng1-f3`, `Bb5xNc6`, `e7-e8=Q`,
/// `e5xd6` (en passant), `O-O`.
pub(crate) fn write_lran(mv: Move, out: &mut Vec<u8>) {
    match mv {
        Move::Castle { king, rook } => {
            out.extend_from_slice(
                if castling_destinations(king, rook).side == CastlingSide::KingSide {
                    b"O-O".as_slice()
                } else {
                    b"O-O-O"
                },
            );
        }
        Move::EnPassant { from, to } => {
            write_square(out, from);
            out.push(b'x');
            write_square(out, to);
        }
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            if role != Role::Pawn {
                out.push(role.upper_char() as u8);
            }
            write_square(out, from);
            match capture {
                Some(victim) => {
                    out.push(b'x');
                    if victim != Role::Pawn {
                        out.push(victim.upper_char() as u8);
                    }
                }
                None => out.push(b'-'),
            }
            write_square(out, to);
            if let Some(p) = promotion {
                out.push(b'=');
                out.push(p.upper_char() as u8);
            }
        }
        Move::Put { .. } => unreachable!("standard chess has no drops"),
    }
}

/// A move as EGD describes it: squares (a castling king's own destination), piece codes
/// and move type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveFields {
    pub from: Square,
    pub to: Square,
    /// EGD's piece code of the moving piece (`p N Bl Bd R Q K`).
    pub piece: &'static str,
    /// `move`, `capture`, `promotion`, `promotion_capture`, `ep_capture`, `short_castle`,
    /// `long_castle`.
    pub move_type: &'static str,
    pub captured: Option<&'static str>,
    pub promotion: Option<&'static str>,
}

impl MoveFields {
    pub fn of(mv: Move) -> MoveFields {
        match mv {
            Move::Castle { king, rook } => {
                let CastlingDestinations { side, king_to, .. } = castling_destinations(king, rook);
                MoveFields {
                    from: king,
                    to: king_to,
                    piece: "K",
                    move_type: if side == CastlingSide::KingSide {
                        "short_castle"
                    } else {
                        "long_castle"
                    },
                    captured: None,
                    promotion: None,
                }
            }
            Move::EnPassant { from, to } => MoveFields {
                from,
                to,
                piece: "p",
                move_type: "ep_capture",
                captured: Some("p"),
                promotion: None,
            },
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => MoveFields {
                from,
                to,
                piece: piece_code(role, to),
                move_type: match (capture.is_some(), promotion.is_some()) {
                    (false, false) => "move",
                    (true, false) => "capture",
                    (false, true) => "promotion",
                    (true, true) => "promotion_capture",
                },
                captured: capture.map(|victim| piece_code(victim, to)),
                promotion: promotion.map(|p| piece_code(p, to)),
            },
            Move::Put { .. } => unreachable!("standard chess has no drops"),
        }
    }
}

pub(crate) fn write_square(out: &mut Vec<u8>, sq: Square) {
    out.push(sq.file().char() as u8);
    out.push(sq.rank().char() as u8);
}

/// EGD's piece codes: `p N Bl Bd R Q K`, a bishop named by the colour of its square.
fn piece_code(role: Role, square: Square) -> &'static str {
    match role {
        Role::Pawn => "p",
        Role::Knight => "N",
        Role::Bishop if square.is_light() => "Bl",
        Role::Bishop => "Bd",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
    }
}

pub(crate) use crate::json_text::{write_str, write_u32, write_u64};

/// `,"nags":[1,4]` when a move has NAGs (game JSON and extended EGD write them alike).
pub(crate) fn write_nags(nags: &[u8], out: &mut Vec<u8>) {
    if nags.is_empty() {
        return;
    }
    out.extend_from_slice(b",\"nags\":[");
    for (i, nag) in nags.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_u32(out, u32::from(*nag));
    }
    out.push(b']');
}

/// Writes six-field FENs, as shakmaty's `Fen` writes them. Written by hand: it is the
/// writers' hottest loop. Positions that follow one another (the plies of a game) share
/// most of their board: only the ranks a move changed are written again (most moves change
/// one or two of the eight; the board field was most of the time a loader spent on a move's
/// row). With the ranks written without branches, a FEN takes 81 ns, where a board read
/// square by square took 167 (`fen_writer_writes_what_shakmaty_writes`'s positions).
#[derive(Clone, Debug)]
pub(crate) struct FenWriter {
    /// The board `ranks` were written for.
    board: Board,
    /// Each rank's field, from rank 1, and its length.
    ranks: [([u8; 8], u8); 8],
}

impl Default for FenWriter {
    /// A writer whose last board was empty (each rank `8`).
    fn default() -> Self {
        FenWriter {
            board: Board::empty(),
            ranks: [(*b"8\0\0\0\0\0\0\0", 1); 8],
        }
    }
}

impl FenWriter {
    /// Writes the FEN of `pos` to `out`, with the en passant square as `ep` says (EGD: after
    /// every double push, as the PGN standard and the reference have it; game JSON: only
    /// when a capture is legal).
    pub(crate) fn write(
        &mut self,
        pos: &Chess,
        mode: CastlingMode,
        ep: EnPassantMode,
        out: &mut Vec<u8>,
    ) {
        let (board, last) = (pos.board(), &self.board);
        // A square changed if a piece bitboard did there (the colour's covers a capture of
        // a piece by one of the same kind).
        let changed = (last.white() ^ board.white())
            | (last.pawns() ^ board.pawns())
            | (last.knights() ^ board.knights())
            | (last.bishops() ^ board.bishops())
            | (last.rooks() ^ board.rooks())
            | (last.queens() ^ board.queens())
            | (last.kings() ^ board.kings());
        for (rank, field) in self.ranks.iter_mut().enumerate() {
            if changed.0 >> (8 * rank) & 0xff != 0 {
                *field = rank_field(board, rank as u32);
            }
        }
        self.board = board.clone();
        // At most 8 × 8 letters and 7 slashes: a stack buffer, one copy into `out`. Each
        // rank's eight bytes are copied whole (one move of a word, where a copy of its length
        // was a call of `memcpy`), the next rank written over the rest.
        let mut placement = [0u8; 71 + 8];
        let mut n = 0;
        for (rank, (field, len)) in self.ranks.iter().enumerate().rev() {
            placement[n..n + 8].copy_from_slice(field);
            n += usize::from(*len);
            if rank > 0 {
                placement[n] = b'/';
                n += 1;
            }
        }
        out.extend_from_slice(&placement[..n]);
        write_fen_fields(pos, mode, ep, out);
    }
}

/// One rank's field of a FEN's board (`rnbqkbnr`, `4P3`), and its length. Written without a
/// branch that depends on the pieces (a loop over the set bits, then over the cells, cost a
/// mispredicted branch at nearly every square: 38 ns a rank): each file's letter is looked
/// up from its bits, all files at once, and the field's layout from the rank's occupancy
/// ([`RANK_LAYOUTS`]).
fn rank_field(board: &Board, rank: u32) -> ([u8; 8], u8) {
    /// Letters by `7 × white + role` (role 0: empty).
    const LETTERS: &[u8; 14] = b"\0pnbrqk\0PNBRQK";
    /// Bit `f` of a byte to byte `f` of a word (0 or 1): the byte repeated, each copy masked
    /// to its own bit, then every nonzero byte carried into its top bit.
    fn spread(bits: u8) -> u64 {
        const LOW: u64 = 0x0101_0101_0101_0101;
        let own = (u64::from(bits) * LOW) & 0x8040_2010_0804_0201;
        ((own + 0x7f7f_7f7f_7f7f_7f7f) >> 7) & LOW
    }
    let byte = |bits: Bitboard| (bits.0 >> (8 * rank)) as u8;
    // The role's number (pawn 1 … king 6) in three bits, for the eight files at once.
    let bit0 = board.pawns() | board.bishops() | board.queens();
    let bit1 = board.knights() | board.bishops() | board.kings();
    let bit2 = board.rooks() | board.queens() | board.kings();
    let index = spread(byte(bit0))
        + (spread(byte(bit1)) << 1)
        + (spread(byte(bit2)) << 2)
        + spread(byte(board.white())) * 7;
    // The sources of the field's bytes: each file's letter, then the digits 1 to 8.
    let mut sources = *b"\0\0\0\0\0\0\0\x0012345678";
    for (file, source) in sources[..8].iter_mut().enumerate() {
        *source = LETTERS[(index >> (8 * file)) as usize & 0xff];
    }
    let (layout, len) = &RANK_LAYOUTS[usize::from(byte(board.occupied()))];
    (layout.map(|i| sources[usize::from(i)]), *len)
}

/// For each occupancy of a rank (bit `f`: file `f` holds a piece), where each byte of its FEN
/// field comes from among [`rank_field`]'s sources (file `f`'s letter is source `f`, the digit
/// `n` is source `7 + n`), and the field's length.
static RANK_LAYOUTS: [([u8; 8], u8); 256] = {
    let mut layouts = [([0u8; 8], 0u8); 256];
    let mut occupied = 0;
    while occupied < 256 {
        let (mut n, mut empty, mut file) = (0, 0, 0);
        while file < 8 {
            if occupied >> file & 1 == 1 {
                if empty > 0 {
                    layouts[occupied].0[n] = 7 + empty;
                    n += 1;
                    empty = 0;
                }
                layouts[occupied].0[n] = file as u8;
                n += 1;
            } else {
                empty += 1;
            }
            file += 1;
        }
        if empty > 0 {
            layouts[occupied].0[n] = 7 + empty;
            n += 1;
        }
        layouts[occupied].1 = n as u8;
        occupied += 1;
    }
    layouts
};

/// The fields of a FEN after the board: side to move, castling, en passant, clocks.
fn write_fen_fields(pos: &Chess, mode: CastlingMode, ep: EnPassantMode, out: &mut Vec<u8>) {
    out.extend_from_slice(if pos.turn() == Color::White {
        b" w "
    } else {
        b" b "
    });
    let rights = pos.castles().castling_rights();
    if rights.is_empty() {
        out.push(b'-');
    } else if mode == CastlingMode::Standard && (rights & !Bitboard::CORNERS).is_empty() {
        for (sq, c) in [
            (Square::H1, b'K'),
            (Square::A1, b'Q'),
            (Square::H8, b'k'),
            (Square::A8, b'q'),
        ] {
            if rights.contains(sq) {
                out.push(c);
            }
        }
    } else {
        // Chess960 rights (X-FEN or Shredder-FEN letters): rare, so shakmaty writes them.
        let fen = Fen::from_position(pos, ep).to_string();
        let field = fen.split(' ').nth(2).unwrap_or("-");
        out.extend_from_slice(field.as_bytes());
    }
    out.push(b' ');
    match pos.ep_square(ep) {
        Some(sq) => write_square(out, sq),
        None => out.push(b'-'),
    }
    out.push(b' ');
    write_u32(out, pos.halfmoves());
    out.push(b' ');
    write_u32(out, pos.fullmoves().get());
}

/// `e4` for the square e4, without formatting.
pub(crate) fn square_name(sq: Square) -> &'static str {
    const NAMES: [&str; 64] = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2",
        "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4",
        "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6",
        "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8",
        "e8", "f8", "g8", "h8",
    ];
    NAMES[usize::from(sq)]
}

/// A move in UCI, written without the formatting machinery (a loader writes millions).
pub(crate) fn push_uci(uci: UciMove, out: &mut String) {
    match uci {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => {
            out.push_str(square_name(from));
            out.push_str(square_name(to));
            if let Some(role) = promotion {
                out.push(role.char());
            }
        }
        // Standard chess has no drops; a null move is `0000`.
        other => {
            use std::fmt::Write as _;
            let _ = write!(out, "{other}");
        }
    }
}

/// Whether the writers (EGD, rows, tracks) keep a move's token as written: standard SAN
/// ([`is_standard_san`]) whose capture mark is true to the move. `Rxg1` onto an empty square
/// and `Bc6` that takes are written as SAN (`Rg1`, `Bxc6`), so that a query for `x` finds
/// every capture and only captures.
///
/// ```
/// use notate::chess::egd::keeps_written_san;
/// use notate::shakmaty::{Chess, Position, san::San};
/// let pos = Chess::default();
/// let mv = "Nf3".parse::<San>().unwrap().to_move(&pos).unwrap();
/// assert!(keeps_written_san(b"Nf3", &mv));
/// assert!(!keeps_written_san(b"Nxf3", &mv));
/// ```
pub fn keeps_written_san(token: &[u8], mv: &Move) -> bool {
    is_standard_san(token) && memchr::memchr(b'x', token).is_some() == mv.is_capture()
}

/// Whether a move token is spelled as standard SAN (with at most one `+`/`#`), so that EGD
/// keeps it as written; other spellings (`0-0`, `e2-e4`, `e8Q`, `Z0`) are written as SAN.
pub fn is_standard_san(token: &[u8]) -> bool {
    let body = match token.last() {
        Some(b'+' | b'#') => &token[..token.len() - 1],
        _ => token,
    };
    if body == b"O-O" || body == b"O-O-O" {
        return true;
    }
    let is_file = |b: u8| (b'a'..=b'h').contains(&b);
    let is_rank = |b: u8| (b'1'..=b'8').contains(&b);
    let (piece, mut rest) = match body.first() {
        Some(b'K' | b'Q' | b'R' | b'B' | b'N') => (true, &body[1..]),
        _ => (false, body),
    };
    if !piece && let [head @ .., b'=', b'Q' | b'R' | b'B' | b'N'] = rest {
        rest = head;
    }
    let [prefix @ .., f, r] = rest else {
        return false;
    };
    if !is_file(*f) || !is_rank(*r) {
        return false;
    }
    let (prefix, capture) = match prefix {
        [p @ .., b'x'] => (p, true),
        p => (p, false),
    };
    match (piece, prefix) {
        (_, []) => piece || !capture,
        (true, [d]) => is_file(*d) || is_rank(*d),
        (true, [df, dr]) => is_file(*df) && is_rank(*dr),
        (false, [df]) => capture && is_file(*df),
        _ => false,
    }
}

/// Writes the tags of a game as a JSON object, in file order; a `Result` from the movetext is
/// added at the end when there is no `Result` tag.
pub(crate) fn write_tags_object(tags: &Tags, result: Option<&str>, out: &mut Vec<u8>) {
    out.push(b'{');
    let mut first = true;
    for (name, value) in tags.iter() {
        if !first {
            out.push(b',');
        }
        first = false;
        write_str(out, name);
        out.push(b':');
        write_str(out, value);
    }
    if let (None, Some(result)) = (tags.get("Result"), result) {
        if !first {
            out.push(b',');
        }
        out.extend_from_slice(b"\"Result\":");
        write_str(out, result);
    }
    out.push(b'}');
}

/// Where a castling move puts king and rook: shakmaty's castling move names the king's and
/// the rook's squares (as Chess960 needs); the formats name their destinations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CastlingDestinations {
    /// King side (the rook stands beyond the king) or queen side.
    pub side: shakmaty::CastlingSide,
    /// The king's destination: the g- or c-file.
    pub king_to: shakmaty::Square,
    /// The rook's destination: the f- or d-file.
    pub rook_to: shakmaty::Square,
}

/// The destinations of castling with the king on `king` and the rook on `rook`.
pub(crate) fn castling_destinations(
    king: shakmaty::Square,
    rook: shakmaty::Square,
) -> CastlingDestinations {
    use shakmaty::{CastlingSide, Square};
    let side = if rook > king {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    };
    CastlingDestinations {
        side,
        king_to: Square::from_coords(side.king_to_file(), king.rank()),
        rook_to: Square::from_coords(side.rook_to_file(), king.rank()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    #[test]
    fn standard_san_spellings() {
        for ok in [
            "e4", "exd5", "e8=Q", "exf8=N#", "Nf3", "Nbd2", "N1d2", "Nb1d2", "Qxh7+", "O-O",
            "O-O-O#", "Kxe2",
        ] {
            assert!(is_standard_san(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "0-0", "e2-e4", "e8Q", "Z0", "--", "ed5", "Ng1-f3", "e4++", "Nf3+#", "K", "", "Ki9",
            "Ne4=Q", "xe4",
        ] {
            assert!(!is_standard_san(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn fen_writer_writes_what_shakmaty_writes() {
        // Every ply of pseudo-random games (captures, castling, promotions come up), the
        // same writer throughout, as a loader uses it across games.
        let mut writer = FenWriter::default();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..200 {
            let mut pos = Chess::default();
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                for ep in [EnPassantMode::Always, EnPassantMode::Legal] {
                    let mut fen = Vec::new();
                    writer.write(&pos, CastlingMode::Standard, ep, &mut fen);
                    let expected = Fen::from_position(&pos, ep).to_string();
                    assert_eq!(String::from_utf8(fen).unwrap(), expected);
                }
            }
        }
    }

    #[test]
    fn fen_writer_keeps_chess960_rights() {
        // Castling rights that are not on the corners go through shakmaty's letters.
        let fen: Fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
            .parse()
            .unwrap();
        let mut pos: Chess = fen.into_position(CastlingMode::Chess960).unwrap();
        let mut writer = FenWriter::default();
        for _ in 0..6 {
            let mv = pos.legal_moves()[0];
            pos.play_unchecked(mv);
            let mut out = Vec::new();
            writer.write(&pos, CastlingMode::Chess960, EnPassantMode::Legal, &mut out);
            let expected = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            assert_eq!(String::from_utf8(out).unwrap(), expected);
        }
    }

    #[test]
    fn fen_with_ep_after_every_double_push() {
        let mut pos = Chess::default();
        let mv = San::from_ascii(b"a4").unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(mv);
        let mut fen = Vec::new();
        FenWriter::default().write(
            &pos,
            CastlingMode::Standard,
            EnPassantMode::Always,
            &mut fen,
        );
        assert_eq!(
            fen,
            b"rnbqkbnr/pppppppp/8/8/P7/8/1PPPPPPP/RNBQKBNR b KQkq a3 0 1".as_slice()
        );
    }
}
