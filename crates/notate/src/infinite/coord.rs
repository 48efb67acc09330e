//! Board coordinates: whole numbers of up to [`Int::MAX_DIGITS`] digits, exact.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::BigInt;

/// A whole number of up to [`Int::MAX_DIGITS`] digits: one board coordinate.
///
/// Numbers that fit in an `i64` are stored inline, so the common case costs no allocation;
/// larger ones (the reference's JavaScript numbers silently lose them past 2^53) are kept
/// exactly.
///
/// ```
/// use notate::infinite::Int;
/// let big: Int = "10000000000000000000000000000000000000000".parse().unwrap();
/// assert_eq!(big.to_string(), "10000000000000000000000000000000000000000");
/// assert_eq!("-007".parse::<Int>().unwrap(), Int::from(-7));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Int(Repr);

// Invariant: `Big` never holds a value that fits in an i64, so equal numbers have equal
// representations and the derived `Eq`/`Hash` are right.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(i64),
    Big(Box<BigInt>),
}

impl Int {
    /// Zero.
    pub const ZERO: Int = Int(Repr::Small(0));

    /// The most digits a number may have. Reading a number, and the arithmetic of replaying
    /// moves on it, take time that grows with the square of its length: a text of a million
    /// digits took seconds. No board needs more (the reference's numbers end at 309 digits).
    pub const MAX_DIGITS: usize = 1000;

    fn from_big(big: BigInt) -> Int {
        match i64::try_from(&big) {
            Ok(small) => Int(Repr::Small(small)),
            Err(_) => Int(Repr::Big(Box::new(big))),
        }
    }

    fn to_big(&self) -> BigInt {
        match &self.0 {
            Repr::Small(n) => BigInt::from(*n),
            Repr::Big(b) => (**b).clone(),
        }
    }

    /// The value, if it fits in an `i64`.
    pub fn to_i64(&self) -> Option<i64> {
        match self.0 {
            Repr::Small(n) => Some(n),
            Repr::Big(_) => None,
        }
    }

    /// Reads `-?[0-9]+` at the start of `bytes`; returns the number and the bytes it took.
    /// Leading zeros are allowed (`007` is 7) and `-0` is 0. More than [`Int::MAX_DIGITS`]
    /// digits are no number ([`Int::too_long_at`] tells the reader's error apart).
    pub fn parse_prefix(bytes: &[u8]) -> Option<(Int, usize)> {
        let negative = bytes.first() == Some(&b'-');
        let start = usize::from(negative);
        let digits = bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || digits > Int::MAX_DIGITS {
            return None;
        }
        let end = start + digits;
        let text = &bytes[start..end];
        // 18 digits always fit in an i64: the fast path for every real board.
        let value = if digits <= 18 {
            let mut n: i64 = 0;
            for &d in text {
                n = n * 10 + i64::from(d - b'0');
            }
            Int(Repr::Small(if negative { -n } else { n }))
        } else {
            let magnitude = BigInt::parse_bytes(text, 10)?;
            Int::from_big(if negative { -magnitude } else { magnitude })
        };
        Some((value, end))
    }

    /// Whether `bytes` start with a number of more than [`Int::MAX_DIGITS`] digits.
    ///
    /// ```
    /// use notate::infinite::Int;
    /// let long = "9".repeat(Int::MAX_DIGITS + 1);
    /// assert!(Int::parse_prefix(long.as_bytes()).is_none());
    /// assert!(Int::too_long_at(long.as_bytes()));
    /// assert!(!Int::too_long_at(b"-12,3"));
    /// ```
    pub fn too_long_at(bytes: &[u8]) -> bool {
        let start = usize::from(bytes.first() == Some(&b'-'));
        bytes[start..]
            .iter()
            .take(Int::MAX_DIGITS + 1)
            .take_while(|b| b.is_ascii_digit())
            .count()
            > Int::MAX_DIGITS
    }

    /// `self + n`.
    pub fn add_i64(&self, n: i64) -> Int {
        match &self.0 {
            Repr::Small(a) => match a.checked_add(n) {
                Some(sum) => Int(Repr::Small(sum)),
                None => Int::from_big(BigInt::from(*a) + n),
            },
            Repr::Big(b) => Int::from_big(&**b + n),
        }
    }

    /// `self - other`.
    pub fn sub(&self, other: &Int) -> Int {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &other.0)
            && let Some(d) = a.checked_sub(*b)
        {
            return Int(Repr::Small(d));
        }
        Int::from_big(self.to_big() - other.to_big())
    }

    /// The square halfway between `self` and `other`, rounded toward +∞ (as JavaScript's
    /// `Math.round` does for the reference's en passant square).
    pub fn midpoint(&self, other: &Int) -> Int {
        let sum = self.to_big() + other.to_big();
        // Floor division of (sum + 1) by 2 rounds a half up.
        Int::from_big(floor_half(sum + 1))
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i64 {
        match &self.0 {
            Repr::Small(n) => n.signum(),
            Repr::Big(b) => match b.sign() {
                num_bigint::Sign::Minus => -1,
                num_bigint::Sign::NoSign => 0,
                num_bigint::Sign::Plus => 1,
            },
        }
    }

    /// The absolute value is at least `n` (`n` ≥ 0).
    pub fn abs_at_least(&self, n: u64) -> bool {
        match &self.0 {
            Repr::Small(v) => v.unsigned_abs() >= n,
            Repr::Big(_) => true,
        }
    }

    /// Appends the decimal digits to `out`.
    pub fn write_to(&self, out: &mut String) {
        match &self.0 {
            Repr::Small(n) => out.push_str(itoa::Buffer::new().format(*n)),
            Repr::Big(b) => {
                use std::fmt::Write;
                let _ = write!(out, "{b}");
            }
        }
    }
}

// `n / 2` rounded toward -∞ (BigInt's `/` rounds toward zero).
fn floor_half(n: BigInt) -> BigInt {
    let q = &n / 2;
    if &q * 2 > n {
        q - 1
    } else {
        q
    }
}

impl From<i64> for Int {
    fn from(n: i64) -> Int {
        Int(Repr::Small(n))
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            _ => self.to_big().cmp(&other.to_big()),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(n) => write!(f, "{n}"),
            Repr::Big(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a whole number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a whole number: {0:?}")]
pub struct ParseIntError(pub String);

impl std::str::FromStr for Int {
    type Err = ParseIntError;
    fn from_str(s: &str) -> Result<Int, ParseIntError> {
        match Int::parse_prefix(s.as_bytes()) {
            Some((n, len)) if len == s.len() => Ok(n),
            _ => Err(ParseIntError(s.to_owned())),
        }
    }
}

/// A square: `x` grows to the right, `y` toward Black (white pawns move toward +y).
///
/// ```
/// use notate::infinite::Coord;
/// let c: Coord = "10000000000000000000000000000000000000000,-7".parse().unwrap();
/// assert_eq!(c.to_string(), "10000000000000000000000000000000000000000,-7");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    /// The file (horizontal).
    pub x: Int,
    /// The rank (vertical).
    pub y: Int,
}

impl Coord {
    /// A square from two small numbers.
    pub fn new(x: i64, y: i64) -> Coord {
        Coord {
            x: Int::from(x),
            y: Int::from(y),
        }
    }

    /// Reads `INT,INT` at the start of `bytes`; returns the square and the bytes it took.
    pub fn parse_prefix(bytes: &[u8]) -> Option<(Coord, usize)> {
        let (x, a) = Int::parse_prefix(bytes)?;
        if bytes.get(a) != Some(&b',') {
            return None;
        }
        let (y, b) = Int::parse_prefix(&bytes[a + 1..])?;
        Some((Coord { x, y }, a + 1 + b))
    }

    /// Appends `x,y` to `out`.
    pub fn write_to(&self, out: &mut String) {
        self.x.write_to(out);
        out.push(',');
        self.y.write_to(out);
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl fmt::Debug for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Coord {
    type Err = ParseIntError;
    fn from_str(s: &str) -> Result<Coord, ParseIntError> {
        match Coord::parse_prefix(s.as_bytes()) {
            Some((c, len)) if len == s.len() => Ok(c),
            _ => Err(ParseIntError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_big_numbers() {
        let max: Int = "9223372036854775807".parse().unwrap();
        assert_eq!(max.to_i64(), Some(i64::MAX));
        let over = max.add_i64(1);
        assert_eq!(over.to_string(), "9223372036854775808");
        assert_eq!(over.to_i64(), None);
        assert_eq!(over.add_i64(-1), max);
        let min: Int = "-9223372036854775808".parse().unwrap();
        assert_eq!(min.to_i64(), Some(i64::MIN));
        assert!(over > max && min < Int::ZERO);
        assert_eq!("-0".parse::<Int>().unwrap(), Int::ZERO);
        assert!("1-".parse::<Int>().is_err() && "".parse::<Int>().is_err());
    }

    #[test]
    fn midpoints_round_half_up() {
        let m = |a: i64, b: i64| Int::from(a).midpoint(&Int::from(b));
        assert_eq!(m(2, 4), Int::from(3));
        assert_eq!(m(7, 5), Int::from(6));
        assert_eq!(m(2, 5), Int::from(4));
        assert_eq!(m(-2, -5), Int::from(-3));
        assert_eq!(m(i64::MAX, i64::MAX), Int::from(i64::MAX));
    }
}
