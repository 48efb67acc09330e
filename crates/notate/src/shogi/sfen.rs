//! SFEN: `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`.
//!
//! Ranks 1→9 (top first), files 9→1 within a rank; upper case Black; `+` before a promoted
//! piece; side `b`/`w`; hands `-` or counts (`S2Pb3p`, counts above 9 allowed), read in any
//! order, written Black first in the order R B G S N L P; the number of the next ply
//! (1 when missing, as most tools do).

use std::fmt;

use super::encoding;
/// How this format is read (every shogi format takes the same options).
pub use super::encoding::ReadOptions;
use super::piece::{Color, Piece, PieceKind, HAND_ORDER};
use super::position::Position;
use super::record::Record;
use super::square::Square;
use crate::format::{read_format, write_verbs, WriteFormat};
use crate::{Error, ErrorKind, Place};

/// The even-game start position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A malformed SFEN: at byte `at` of the SFEN (SFEN is ASCII: the byte is the column), line
/// 1 of its own text.
fn err(at: usize, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Syntax, message).with_place(Place {
        line: 1,
        column: at as u64 + 1,
        offset: Some(at),
    })
}

// Written here rather than in `position.rs`, so that the position does not depend on its
// notation: the start position and `Debug` are given in SFEN.
impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The even-game (平手) start position.
    pub fn startpos() -> Position {
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        START
            .get_or_init(|| Position::from_sfen(STARTPOS).expect("the start position is valid"))
            .clone()
    }

    /// Reads an SFEN (three or four fields). The position must be one a game can reach in
    /// its pieces ([`Position::validate`]).
    ///
    /// ```
    /// use notate::shogi::Position;
    /// let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2PG16p2r2b3g4s4n4l").unwrap();
    /// assert_eq!(pos.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G2P2r2b3g4s4n4l16p 1");
    /// ```
    pub fn from_sfen(text: &str) -> Result<Position, Error> {
        let text = text.trim();
        let mut fields = Vec::with_capacity(4);
        let mut start = None;
        for (i, b) in text.bytes().enumerate().chain([(text.len(), b' ')]) {
            match (b == b' ' || b == b'\t', start) {
                (true, Some(s)) => {
                    fields.push((s, &text[s..i]));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        if fields.len() < 3 {
            return Err(err(
                text.len(),
                "an SFEN has a board, a side to move and hands (and a move number)",
            ));
        }
        if fields.len() > 4 {
            return Err(err(fields[4].0, "text after the move number"));
        }
        let mut pos = Position::empty();
        let (board_at, board) = fields[0];
        let (mut row, mut col, mut promoted) = (0usize, 0usize, false);
        for (i, b) in board.bytes().enumerate() {
            let at = board_at + i;
            match b {
                b'/' => {
                    if col != 9 {
                        return Err(err(
                            at,
                            format!("rank {} has {col} squares, not 9", row + 1),
                        ));
                    }
                    if promoted {
                        return Err(err(at, "`+` must come before a piece letter"));
                    }
                    row += 1;
                    col = 0;
                    if row > 8 {
                        return Err(err(at, "more than nine ranks"));
                    }
                }
                b'1'..=b'9' => {
                    if promoted {
                        return Err(err(at, "`+` must come before a piece letter"));
                    }
                    col += (b - b'0') as usize;
                    if col > 9 {
                        return Err(err(at, format!("rank {} has more than 9 squares", row + 1)));
                    }
                }
                b'+' => {
                    if promoted {
                        return Err(err(at, "`++`"));
                    }
                    promoted = true;
                }
                _ => {
                    let Some(mut kind) = PieceKind::from_letter(b) else {
                        return Err(err(at, format!("{:?} is not a piece letter", b as char)));
                    };
                    if promoted {
                        kind = kind
                            .promoted()
                            .ok_or_else(|| err(at, format!("a {kind} cannot promote")))?;
                        promoted = false;
                    }
                    if col >= 9 {
                        return Err(err(at, format!("rank {} has more than 9 squares", row + 1)));
                    }
                    let color = if b.is_ascii_uppercase() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let sq = Square::from_index(row * 9 + col).expect("row and col checked");
                    pos.set_piece(sq, Some(Piece::new(color, kind)));
                    col += 1;
                }
            }
        }
        if row != 8 || col != 9 || promoted {
            return Err(err(
                board_at + board.len(),
                "the board needs nine ranks of nine squares",
            ));
        }
        let (side_at, side) = fields[1];
        pos.set_side_to_move(match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => return Err(err(side_at, "the side to move is `b` or `w`")),
        });
        let (hand_at, hand) = fields[2];
        if hand != "-" {
            let mut count: Option<u32> = None;
            for (i, b) in hand.bytes().enumerate() {
                let at = hand_at + i;
                if b.is_ascii_digit() {
                    let n = count.unwrap_or(0) * 10 + u32::from(b - b'0');
                    if n > 18 {
                        return Err(err(at, "a hand holds at most 18 of a kind"));
                    }
                    count = Some(n);
                    continue;
                }
                let kind = PieceKind::from_letter(b)
                    .filter(|k| k.hand_index().is_some())
                    .ok_or_else(|| err(at, format!("{:?} cannot be held in hand", b as char)))?;
                let n = count.take().unwrap_or(1);
                if n == 0 {
                    return Err(err(at, "a count of 0"));
                }
                let color = if b.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let total = u32::from(pos.hand_count(color, kind)) + n;
                if total > u32::from(kind.set_count()) {
                    return Err(err(at, format!("{total} {kind}s in one hand")));
                }
                pos.set_hand_count(color, kind, total as u8);
            }
            if count.is_some() {
                return Err(err(hand_at + hand.len(), "a count without a piece"));
            }
        }
        if let Some(&(at, number)) = fields.get(3) {
            let ply: u32 = number
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| err(at, "the move number is a whole number from 1"))?;
            pos.set_ply(ply);
        }
        pos.validate().map_err(|m| err(0, m))?;
        Ok(pos)
    }

    /// Writes the SFEN.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        self.write_sfen(&mut s);
        s
    }

    /// Appends the SFEN to `out`.
    pub fn write_sfen(&self, out: &mut String) {
        let mut ranks = RankCache::default();
        ranks.render_all(self);
        let mut bytes = Vec::with_capacity(96);
        ranks.write(self, &mut bytes);
        out.push_str(std::str::from_utf8(&bytes).expect("SFEN is ASCII"));
    }

    /// Writes rank `row`'s SFEN into `buf`; returns its length.
    fn render_rank(&self, row: usize, buf: &mut [u8; 18]) -> u8 {
        // Each piece's letters, by colour and kind: `P`, `+p` ….
        const fn letters() -> [[[u8; 2]; 14]; 2] {
            let upper = *b"PLNSGBRKPLNSBR";
            let mut t = [[[0u8; 2]; 14]; 2];
            let mut k = 0;
            while k < 14 {
                let promoted = k >= 8;
                let (a, b) = if promoted {
                    (b'+', upper[k])
                } else {
                    (upper[k], 0)
                };
                t[0][k] = [a, b];
                t[1][k] = [a.to_ascii_lowercase(), b.to_ascii_lowercase()];
                k += 1;
            }
            t
        }
        const LETTERS: [[[u8; 2]; 14]; 2] = letters();
        // Written two bytes at a time into a slack buffer, then copied whole.
        let mut wide = [0u8; 20];
        let mut n = 0usize;
        let mut empty = 0u8;
        for &cell in self.rank_cells(row) {
            if let Some(p) = cell {
                if empty != 0 {
                    wide[n] = b'0' + empty;
                    n += 1;
                    empty = 0;
                }
                let [a, b] = LETTERS[p.color as usize][p.kind as usize];
                wide[n] = a;
                wide[n + 1] = b;
                n += 1 + usize::from(b != 0);
            } else {
                empty += 1;
            }
        }
        if empty != 0 {
            wide[n] = b'0' + empty;
            n += 1;
        }
        buf.copy_from_slice(&wide[..18]);
        n as u8
    }

    /// Appends the SFEN hands field (`-` or `S2Pb3p`).
    pub(crate) fn write_hands(&self, out: &mut Vec<u8>) {
        if self.hands_empty() {
            out.push(b'-');
            return;
        }
        for color in [Color::Black, Color::White] {
            for kind in HAND_ORDER {
                let count = self.hand_count(color, kind);
                if count == 0 {
                    continue;
                }
                if count >= 10 {
                    out.push(b'0' + count / 10);
                }
                if count > 1 {
                    out.push(b'0' + count % 10);
                }
                let letter = kind.sfen().as_bytes()[0];
                out.push(if color == Color::Black {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
    }
}

/// The SFEN of each rank, kept from ply to ply: a move changes at most two ranks, so
/// writing an SFEN per ply re-renders only those.
#[derive(Clone, Default)]
struct RankCache {
    ranks: [[u8; 18]; 9],
    lens: [u8; 9],
    /// The hands field, which changes only on captures and drops.
    hands: Vec<u8>,
}

impl RankCache {
    /// Renders every rank of `pos`.
    pub fn render_all(&mut self, pos: &Position) {
        for row in 0..9 {
            self.lens[row] = pos.render_rank(row, &mut self.ranks[row]);
        }
        self.render_hands(pos);
    }

    /// Renders the hands of `pos` again.
    pub fn render_hands(&mut self, pos: &Position) {
        self.hands.clear();
        pos.write_hands(&mut self.hands);
    }

    /// Renders rank `row` of `pos` again.
    pub fn render(&mut self, pos: &Position, row: usize) {
        self.lens[row] = pos.render_rank(row, &mut self.ranks[row]);
    }

    /// Appends the SFEN of `pos`, whose ranks this cache holds.
    pub fn write(&self, pos: &Position, out: &mut Vec<u8>) {
        // Fixed-size copies into a stack buffer, then one copy out: SFEN-per-ply output
        // writes one of these per ply, and nine small variable-length copies cost more than
        // the rest of the line.
        let mut buf = [0u8; 9 * 19 + 3 + 48 + 11];
        let mut n = 0;
        for row in 0..9 {
            buf[n..n + 18].copy_from_slice(&self.ranks[row]);
            n += self.lens[row] as usize;
            buf[n] = b'/';
            n += 1;
        }
        n -= 1;
        buf[n..n + 3].copy_from_slice(match pos.side_to_move() {
            Color::Black => b" b ",
            Color::White => b" w ",
        });
        n += 3;
        for &b in &self.hands {
            buf[n] = b;
            n += 1;
        }
        buf[n] = b' ';
        n += 1;
        for &b in itoa::Buffer::new().format(pos.ply()).as_bytes() {
            buf[n] = b;
            n += 1;
        }
        out.extend_from_slice(&buf[..n]);
    }
}

/// SFEN lists: read, one position per line (each a record with no moves; blank lines and
/// `#` lines skipped); written, the start and the position after every main-line move, one
/// per line, games separated by a blank line.
///
/// ```
/// use notate::shogi::{sfen, usi};
/// let record = usi::read_one("position startpos moves 7g7f").unwrap();
/// let text = sfen::to_string(&record).unwrap();
/// assert_eq!(text.lines().nth(1), Some("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"));
/// ```
#[derive(Debug, Default)]
pub struct Sfen;

/// How SFEN lists are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

read_format!(
    Sfen,
    Record,
    "an SFEN list",
    ReadOptions,
    lines,
    |record, options| {
        encoding::read_line(record, options, |text| {
            Position::from_sfen(text).map(Record::new)
        })
    }
);

impl WriteFormat for Sfen {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> Sfen {
        Sfen
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        write_sfens(record, out);
        out.push(b'\n');
        Ok(())
    }
}

write_verbs!(Sfen, Record, "an SFEN list");

/// Writes the SFEN of the start and of the position after every main-line move, one per
/// line.
fn write_sfens(record: &Record, out: &mut Vec<u8>) {
    let mut pos = record.start.clone();
    let mut ranks = RankCache::default();
    ranks.render_all(&pos);
    ranks.write(&pos, out);
    out.push(b'\n');
    out.reserve(96 * record.moves.len());
    for m in &record.moves {
        let played = pos.play_unchecked(m.mv);
        let to_row = m.mv.to().row();
        match m.mv.from() {
            Some(from) if from.row() != to_row => ranks.render(&pos, from.row() as usize),
            _ => {}
        }
        ranks.render(&pos, to_row as usize);
        if played.captured.is_some() || m.mv.from().is_none() {
            ranks.render_hands(&pos);
        }
        ranks.write(&pos, out);
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_any_hand_order_and_writes_the_canonical_one() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2PG16p4l4n4s2b2r3g 1").unwrap();
        assert_eq!(
            pos.to_sfen(),
            "4k4/9/9/9/9/9/9/9/4K4 b G2P2r2b3g4s4n4l16p 1"
        );
        assert_eq!(Position::from_sfen(STARTPOS).unwrap().to_sfen(), STARTPOS);
    }

    #[test]
    fn refuses_what_no_game_reaches_and_says_where() {
        let bad = [
            ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "at most 18"),
            ("4k4/9/9/9/9/9/9/9/4K4 b 10P9p 1", "19 pawns"),
            ("4k4/9/9/9/9/9/9/9/4K4 x - 1", "`b` or `w`"),
            ("4k4/9/9/9/9/9/9/9/4K5 b - 1", "more than 9"),
            ("4k4/9/9/9/9/9/9/9 b - 1", "nine ranks"),
            ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "never move"),
            ("4k4/9/9/9/9/9/P8/P8/4K4 b - 1", "two unpromoted pawns"),
            // The king of the side that has moved in check: the side to move takes it.
            (
                "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
                "White's king on 5a is in check with Black to move",
            ),
            ("4k4/4K4/9/9/9/9/9/9/9 b - 1", "in check with Black to move"),
            (
                "4k4/9/9/9/9/9/9/9/4K3r w - 1",
                "Black's king on 5i is in check",
            ),
            ("4k4/9/9/9/9/9/9/9/4K4 b - 0", "from 1"),
            ("4k4/9/9/9/9/9/9/9/4K4 b K 1", "cannot be held"),
            ("4k4/9/9/9/9/9/9/9/4+K4 b - 1", "cannot promote"),
            ("4k4/9/9/9/9/9/9/9/4K4 b", "a board, a side"),
        ];
        for (sfen, want) in bad {
            let e = Position::from_sfen(sfen).unwrap_err();
            assert!(e.to_string().contains(want), "{sfen}: {e}");
        }
        assert_eq!(
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 x - 1")
                .unwrap_err()
                .place
                .map(|p| p.column),
            Some(23)
        );
        // A king in check on the side to move is a position like any.
        assert!(Position::from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 w - 1").is_ok());
        // The move number defaults to 1.
        assert_eq!(
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w -")
                .unwrap()
                .ply(),
            1
        );
    }
}
