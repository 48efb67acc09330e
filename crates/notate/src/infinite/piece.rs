//! Pieces: the kinds infinitechess.org plays with, and who owns them.

use std::fmt;

/// A kind of piece. The short code is the one ICN writes (white's, upper case).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[allow(missing_docs)]
pub enum PieceKind {
    King,
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    Amazon,
    Hawk,
    Chancellor,
    Archbishop,
    Guard,
    Camel,
    Giraffe,
    Zebra,
    Centaur,
    RoyalQueen,
    RoyalCentaur,
    Knightrider,
    Huygen,
    Rose,
    Obstacle,
    Void,
}

impl PieceKind {
    /// Every kind, in the order of the reference's dictionary.
    pub const ALL: [PieceKind; 22] = [
        PieceKind::King,
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::Amazon,
        PieceKind::Hawk,
        PieceKind::Chancellor,
        PieceKind::Archbishop,
        PieceKind::Guard,
        PieceKind::Camel,
        PieceKind::Giraffe,
        PieceKind::Zebra,
        PieceKind::Centaur,
        PieceKind::RoyalQueen,
        PieceKind::RoyalCentaur,
        PieceKind::Knightrider,
        PieceKind::Huygen,
        PieceKind::Rose,
        PieceKind::Obstacle,
        PieceKind::Void,
    ];

    /// The short code in upper case: `K`, `AM`, `NR`, `OB`.
    pub fn code(self) -> &'static str {
        use PieceKind::*;
        match self {
            King => "K",
            Pawn => "P",
            Knight => "N",
            Bishop => "B",
            Rook => "R",
            Queen => "Q",
            Amazon => "AM",
            Hawk => "HA",
            Chancellor => "CH",
            Archbishop => "AR",
            Guard => "GU",
            Camel => "CA",
            Giraffe => "GI",
            Zebra => "ZE",
            Centaur => "CE",
            RoyalQueen => "RQ",
            RoyalCentaur => "RC",
            Knightrider => "NR",
            Huygen => "HU",
            Rose => "RO",
            Obstacle => "OB",
            Void => "VO",
        }
    }

    /// The short code in lower case.
    pub fn code_lower(self) -> &'static str {
        use PieceKind::*;
        match self {
            King => "k",
            Pawn => "p",
            Knight => "n",
            Bishop => "b",
            Rook => "r",
            Queen => "q",
            Amazon => "am",
            Hawk => "ha",
            Chancellor => "ch",
            Archbishop => "ar",
            Guard => "gu",
            Camel => "ca",
            Giraffe => "gi",
            Zebra => "ze",
            Centaur => "ce",
            RoyalQueen => "rq",
            RoyalCentaur => "rc",
            Knightrider => "nr",
            Huygen => "hu",
            Rose => "ro",
            Obstacle => "ob",
            Void => "vo",
        }
    }

    /// The plural name of the long form, without the colour suffix: `kings`, `royalQueens`.
    pub fn plural(self) -> &'static str {
        use PieceKind::*;
        match self {
            King => "kings",
            Pawn => "pawns",
            Knight => "knights",
            Bishop => "bishops",
            Rook => "rooks",
            Queen => "queens",
            Amazon => "amazons",
            Hawk => "hawks",
            Chancellor => "chancellors",
            Archbishop => "archbishops",
            Guard => "guards",
            Camel => "camels",
            Giraffe => "giraffes",
            Zebra => "zebras",
            Centaur => "centaurs",
            RoyalQueen => "royalQueens",
            RoyalCentaur => "royalCentaurs",
            Knightrider => "knightriders",
            Huygen => "huygens",
            Rose => "roses",
            Obstacle => "obstacles",
            Void => "voids",
        }
    }

    /// The kind with this code, in either case (`am`, `AM`; not `Am`).
    pub fn from_code(code: &[u8]) -> Option<PieceKind> {
        let upper = code.iter().all(u8::is_ascii_uppercase);
        let lower = code.iter().all(u8::is_ascii_lowercase);
        if !(upper || lower) {
            return None;
        }
        PieceKind::ALL
            .into_iter()
            .find(|k| k.code().as_bytes().eq_ignore_ascii_case(code))
    }

    /// The kind with this plural name (`queens`).
    pub fn from_plural(name: &str) -> Option<PieceKind> {
        PieceKind::ALL.into_iter().find(|k| k.plural() == name)
    }

    /// Obstacles and voids belong to nobody.
    pub fn is_neutral(self) -> bool {
        matches!(self, PieceKind::Obstacle | PieceKind::Void)
    }
}

/// Who owns a piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Player {
    /// White: upper-case codes, long suffix `W`, moves first by default.
    White,
    /// Black: lower-case codes, long suffix `B`.
    Black,
    /// Obstacles and voids: lower-case codes, long suffix `N`.
    Neutral,
}

impl Player {
    /// `white`, `black` or `neutral` (the long form's `turn` values and colour keys).
    pub fn name(self) -> &'static str {
        match self {
            Player::White => "white",
            Player::Black => "black",
            Player::Neutral => "neutral",
        }
    }

    /// The other side (neutral stays neutral).
    pub fn opponent(self) -> Player {
        match self {
            Player::White => Player::Black,
            Player::Black => Player::White,
            Player::Neutral => Player::Neutral,
        }
    }

    fn suffix(self) -> char {
        match self {
            Player::White => 'W',
            Player::Black => 'B',
            Player::Neutral => 'N',
        }
    }
}

/// A piece: a kind and an owner.
///
/// ```
/// use notate::infinite::{Piece, PieceKind, Player};
/// let hawk = Piece::from_code(b"ha").unwrap();
/// assert_eq!(hawk, Piece { kind: PieceKind::Hawk, player: Player::Black });
/// assert_eq!(hawk.long_name(), "hawksB");
/// assert_eq!(Piece::from_long_name("amazonsW").unwrap().code(), "AM");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// What it is.
    pub kind: PieceKind,
    /// Whose it is.
    pub player: Player,
}

impl Piece {
    /// White's pieces are upper case, Black's and the neutral ones lower case (`ob`, `vo`);
    /// the neutral kinds have no upper-case code.
    pub fn from_code(code: &[u8]) -> Option<Piece> {
        let kind = PieceKind::from_code(code)?;
        let upper = code[0].is_ascii_uppercase();
        let player = match (kind.is_neutral(), upper) {
            (true, true) => return None,
            (true, false) => Player::Neutral,
            (false, true) => Player::White,
            (false, false) => Player::Black,
        };
        Some(Piece { kind, player })
    }

    /// The short code: `Q`, `q`, `AM`, `ob`.
    pub fn code(self) -> &'static str {
        match self.player {
            Player::White => self.kind.code(),
            Player::Black | Player::Neutral => self.kind.code_lower(),
        }
    }

    /// The long name: `queensW`, `hawksB`, `obstaclesN`.
    pub fn long_name(self) -> String {
        let mut name = String::with_capacity(16);
        name.push_str(self.kind.plural());
        name.push(self.player.suffix());
        name
    }

    /// Reads a long name (`queensW`); the suffix must suit the kind (`obstaclesN`).
    pub fn from_long_name(name: &str) -> Option<Piece> {
        // The suffix is one ASCII letter; a name ending in anything else (a multi-byte
        // character, where splitting one byte off would cut it) is no piece.
        let last = name.len().checked_sub(1)?;
        if !name.is_char_boundary(last) {
            return None;
        }
        let (plural, suffix) = name.split_at(last);
        let kind = PieceKind::from_plural(plural)?;
        let player = match (suffix, kind.is_neutral()) {
            ("W", false) => Player::White,
            ("B", false) => Player::Black,
            ("N", true) => Player::Neutral,
            _ => return None,
        };
        Some(Piece { kind, player })
    }

    /// A piece of `kind` for `player`.
    pub fn new(kind: PieceKind, player: Player) -> Piece {
        Piece { kind, player }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back() {
        for kind in PieceKind::ALL {
            for player in [Player::White, Player::Black, Player::Neutral] {
                if kind.is_neutral() != (player == Player::Neutral) {
                    continue;
                }
                let piece = Piece::new(kind, player);
                assert_eq!(Piece::from_code(piece.code().as_bytes()), Some(piece));
                assert_eq!(Piece::from_long_name(&piece.long_name()), Some(piece));
            }
        }
        assert_eq!(Piece::from_code(b"OB"), None);
        assert_eq!(Piece::from_code(b"Am"), None);
        assert_eq!(Piece::from_long_name("obstaclesW"), None);
        assert_eq!(Piece::from_long_name("dragonsW"), None);
        // A multi-byte last character (found by fuzzing: it panicked).
        assert_eq!(Piece::from_long_name("pawnsB\u{feff}"), None);
        assert_eq!(Piece::from_long_name("é"), None);
    }
}
