//! Squares and the four ways of writing one: the app's internal `[row, col]`, `[file, rank]`,
//! USI (`7g`) and the digits of KIF and CSA (`77`, `７七`).

use std::fmt;

/// A square of the 9×9 board. Files run 9→1 from Black's left to right, ranks 1→9 from
/// the top (White's side); internally `index = row * 9 + col` with `row = rank - 1`,
/// `col = 9 - file`, the order SFEN lists the squares in.
///
/// ```
/// use notate::shogi::Square;
/// let sq = Square::from_row_col(6, 7).unwrap();
/// assert_eq!((sq.file(), sq.rank()), (2, 7));
/// assert_eq!(sq.to_string(), "2g");
/// assert_eq!(sq.kif(), "２七");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// A coordinate outside the board, or text that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CoordError(pub String);

const FULL_WIDTH_DIGITS: [&str; 10] = ["０", "１", "２", "３", "４", "５", "６", "７", "８", "９"];
const KANJI_NUMERALS: [&str; 10] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

impl Square {
    /// The square at `file`, `rank` (both 1–9).
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        ((1..=9).contains(&file) && (1..=9).contains(&rank))
            .then(|| Square((rank - 1) * 9 + (9 - file)))
    }

    /// The square at `file`, `rank`, with an error naming the bad value.
    pub fn from_file_rank(file: i64, rank: i64) -> Result<Square, CoordError> {
        if !(1..=9).contains(&file) {
            return Err(CoordError(format!("file {file} is off the board (1–9)")));
        }
        if !(1..=9).contains(&rank) {
            return Err(CoordError(format!("rank {rank} is off the board (1–9)")));
        }
        Ok(Square::new(file as u8, rank as u8).expect("checked above"))
    }

    /// The square at internal `[row, col]` (both 0–8, from the top left).
    pub fn from_row_col(row: i64, col: i64) -> Result<Square, CoordError> {
        if !(0..=8).contains(&row) {
            return Err(CoordError(format!("row {row} is off the board (0–8)")));
        }
        if !(0..=8).contains(&col) {
            return Err(CoordError(format!("column {col} is off the board (0–8)")));
        }
        Ok(Square((row * 9 + col) as u8))
    }

    /// The square at `index` (0–80, SFEN order).
    pub fn from_index(index: usize) -> Option<Square> {
        (index < 81).then_some(Square(index as u8))
    }

    /// 0–80, SFEN order (rank 1 file 9 first).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Internal row (0 at the top, rank 1).
    pub fn row(self) -> u8 {
        self.0 / 9
    }

    /// Internal column (0 at the left, file 9).
    pub fn col(self) -> u8 {
        self.0 % 9
    }

    /// File, 1–9.
    pub fn file(self) -> u8 {
        9 - self.col()
    }

    /// Rank, 1–9.
    pub fn rank(self) -> u8 {
        self.row() + 1
    }

    /// `[file, rank]`.
    pub fn file_rank(self) -> [u8; 2] {
        [self.file(), self.rank()]
    }

    /// `[row, col]`.
    pub fn row_col(self) -> [u8; 2] {
        [self.row(), self.col()]
    }

    /// The square `dr` rows and `dc` columns away, if on the board.
    pub(crate) fn offset(self, dr: i8, dc: i8) -> Option<Square> {
        let r = self.row() as i8 + dr;
        let c = self.col() as i8 + dc;
        ((0..9).contains(&r) && (0..9).contains(&c)).then(|| Square((r * 9 + c) as u8))
    }

    /// Parses USI's `7g` (file digit, rank letter a–i).
    pub fn parse_usi(text: &[u8]) -> Option<Square> {
        match text {
            [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Square::new(f - b'0', r - b'a' + 1),
            _ => None,
        }
    }

    /// Parses two ASCII digits, file then rank (`77`, KIF's origin and CSA's squares).
    pub fn parse_digits(text: &[u8]) -> Option<Square> {
        match text {
            [f @ b'1'..=b'9', r @ b'1'..=b'9'] => Square::new(f - b'0', r - b'0'),
            _ => None,
        }
    }

    /// Two ASCII digits, file then rank (`77`).
    pub fn digits(self) -> [u8; 2] {
        [b'0' + self.file(), b'0' + self.rank()]
    }

    /// The Japanese name: full-width file digit and kanji rank (`７六`).
    pub fn kif(self) -> String {
        let mut s = String::with_capacity(6);
        s.push_str(FULL_WIDTH_DIGITS[self.file() as usize]);
        s.push_str(KANJI_NUMERALS[self.rank() as usize]);
        s
    }

    /// Reads a Japanese square at the start of `text`: a full-width or ASCII file digit, then
    /// a kanji, full-width or ASCII rank digit. Returns the square and its length in bytes.
    pub fn parse_kif(text: &str) -> Option<(Square, usize)> {
        let (file, a) = digit_at(text, false)?;
        let (rank, b) = digit_at(&text[a..], true)?;
        Some((Square::new(file, rank)?, a + b))
    }

    /// The rank's kanji numeral (`七`), as a board diagram's rows end.
    pub(crate) fn kanji_numeral(n: u8) -> &'static str {
        KANJI_NUMERALS[n as usize % 10]
    }
}

/// A digit 1–9 at the start of `text`: ASCII, full-width, or (when `kanji`) a kanji numeral.
fn digit_at(text: &str, kanji: bool) -> Option<(u8, usize)> {
    let b = text.as_bytes();
    if let Some(&d @ b'1'..=b'9') = b.first() {
        return Some((d - b'0', 1));
    }
    for n in 1..=9u8 {
        if text.starts_with(FULL_WIDTH_DIGITS[n as usize]) {
            return Some((n, FULL_WIDTH_DIGITS[n as usize].len()));
        }
        if kanji && text.starts_with(KANJI_NUMERALS[n as usize]) {
            return Some((n, KANJI_NUMERALS[n as usize].len()));
        }
    }
    None
}

impl fmt::Display for Square {
    /// USI: `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.row()) as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_coordinate_systems_agree() {
        for index in 0..81 {
            let sq = Square::from_index(index).unwrap();
            let [row, col] = sq.row_col();
            let [file, rank] = sq.file_rank();
            assert_eq!(file, 9 - col);
            assert_eq!(rank, row + 1);
            assert_eq!(Square::from_row_col(row.into(), col.into()).unwrap(), sq);
            assert_eq!(Square::new(file, rank).unwrap(), sq);
            assert_eq!(Square::parse_usi(sq.to_string().as_bytes()).unwrap(), sq);
            assert_eq!(Square::parse_digits(&sq.digits()).unwrap(), sq);
            assert_eq!(Square::parse_kif(&sq.kif()).unwrap(), (sq, 6));
        }
        // The seed's example: {"from": [6,7], "to": [5,7]} is 2七→2六, USI 2g2f.
        let from = Square::from_row_col(6, 7).unwrap();
        let to = Square::from_row_col(5, 7).unwrap();
        assert_eq!(format!("{from}{to}"), "2g2f");
        assert_eq!(to.kif(), "２六");
    }

    #[test]
    fn out_of_range_values_are_errors_that_name_them() {
        assert_eq!(
            Square::from_row_col(9, 0).unwrap_err().0,
            "row 9 is off the board (0–8)"
        );
        assert_eq!(
            Square::from_row_col(0, -1).unwrap_err().0,
            "column -1 is off the board (0–8)"
        );
        assert_eq!(
            Square::from_file_rank(0, 5).unwrap_err().0,
            "file 0 is off the board (1–9)"
        );
        assert!(Square::parse_usi(b"0a").is_none());
        assert!(Square::parse_usi(b"1j").is_none());
        assert!(Square::parse_digits(b"10").is_none());
        assert!(Square::parse_kif("０一").is_none());
    }
}
