//! Sides, piece kinds and pieces, with their names in every notation.

use std::fmt;

/// A side. Black (先手, Sente) moves first in an even game and sits at the bottom (ranks
/// 7–9); White (後手, Gote) sits at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// 先手 / 下手, upper case in SFEN, `+` in CSA, ▲ in KI2.
    Black,
    /// 後手 / 上手, lower case in SFEN, `-` in CSA, △ in KI2.
    White,
}

impl Color {
    /// The other side.
    pub fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White (JKF's `color`, hand indexes).
    pub fn index(self) -> usize {
        self as usize
    }

    /// `+` or `-` (CSA).
    pub fn csa(self) -> char {
        match self {
            Color::Black => '+',
            Color::White => '-',
        }
    }

    /// ▲ or △ (KI2).
    pub fn triangle(self) -> char {
        match self {
            Color::Black => '▲',
            Color::White => '△',
        }
    }
}

/// The fourteen kinds of shogi piece: eight unpromoted, six promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 歩 P
    Pawn,
    /// 香 L
    Lance,
    /// 桂 N
    Knight,
    /// 銀 S
    Silver,
    /// 金 G
    Gold,
    /// 角 B
    Bishop,
    /// 飛 R
    Rook,
    /// 玉 K
    King,
    /// と +P
    ProPawn,
    /// 成香 +L
    ProLance,
    /// 成桂 +N
    ProKnight,
    /// 成銀 +S
    ProSilver,
    /// 馬 +B
    Horse,
    /// 龍 +R
    Dragon,
}

/// The kinds a hand can hold, in SFEN's canonical order (R B G S N L P).
pub const HAND_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

/// All fourteen kinds.
pub const ALL_KINDS: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::King,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
    PieceKind::Horse,
    PieceKind::Dragon,
];

impl PieceKind {
    /// The promoted kind, for the six kinds that promote.
    pub fn promoted(self) -> Option<PieceKind> {
        use PieceKind::*;
        Some(match self {
            Pawn => ProPawn,
            Lance => ProLance,
            Knight => ProKnight,
            Silver => ProSilver,
            Bishop => Horse,
            Rook => Dragon,
            _ => return None,
        })
    }

    /// The kind before promotion (the kind itself when unpromoted): what a capture puts in hand.
    pub fn unpromoted(self) -> PieceKind {
        use PieceKind::*;
        match self {
            ProPawn => Pawn,
            ProLance => Lance,
            ProKnight => Knight,
            ProSilver => Silver,
            Horse => Bishop,
            Dragon => Rook,
            k => k,
        }
    }

    /// Whether this is one of the six promoted kinds.
    pub fn is_promoted(self) -> bool {
        self as u8 >= PieceKind::ProPawn as u8
    }

    /// The index of an unpromoted, non-king kind in a hand array (pawn 0 … rook 6).
    pub(crate) fn hand_index(self) -> Option<usize> {
        let i = self as usize;
        (i < 7).then_some(i)
    }

    /// How many pieces of this (unpromoted) kind a set holds: 18 pawns, 4 lances … 2 kings.
    pub fn set_count(self) -> u8 {
        use PieceKind::*;
        match self.unpromoted() {
            Pawn => 18,
            Lance | Knight | Silver | Gold => 4,
            _ => 2,
        }
    }

    /// The SFEN letter of a Black piece (`P`, `+P` for a tokin).
    pub fn sfen(self) -> &'static str {
        use PieceKind::*;
        match self {
            Pawn => "P",
            Lance => "L",
            Knight => "N",
            Silver => "S",
            Gold => "G",
            Bishop => "B",
            Rook => "R",
            King => "K",
            ProPawn => "+P",
            ProLance => "+L",
            ProKnight => "+N",
            ProSilver => "+S",
            Horse => "+B",
            Dragon => "+R",
        }
    }

    /// The unpromoted kind of an SFEN/USI letter (either case).
    pub fn from_letter(letter: u8) -> Option<PieceKind> {
        use PieceKind::*;
        Some(match letter.to_ascii_uppercase() {
            b'P' => Pawn,
            b'L' => Lance,
            b'N' => Knight,
            b'S' => Silver,
            b'G' => Gold,
            b'B' => Bishop,
            b'R' => Rook,
            b'K' => King,
            _ => return None,
        })
    }

    /// The CSA code (`FU`, `TO`, `UM` …).
    pub fn csa(self) -> &'static str {
        use PieceKind::*;
        match self {
            Pawn => "FU",
            Lance => "KY",
            Knight => "KE",
            Silver => "GI",
            Gold => "KI",
            Bishop => "KA",
            Rook => "HI",
            King => "OU",
            ProPawn => "TO",
            ProLance => "NY",
            ProKnight => "NK",
            ProSilver => "NG",
            Horse => "UM",
            Dragon => "RY",
        }
    }

    /// The kind of a CSA code.
    pub fn from_csa(code: &[u8]) -> Option<PieceKind> {
        use PieceKind::*;
        Some(match code {
            b"FU" => Pawn,
            b"KY" => Lance,
            b"KE" => Knight,
            b"GI" => Silver,
            b"KI" => Gold,
            b"KA" => Bishop,
            b"HI" => Rook,
            b"OU" => King,
            b"TO" => ProPawn,
            b"NY" => ProLance,
            b"NK" => ProKnight,
            b"NG" => ProSilver,
            b"UM" => Horse,
            b"RY" => Dragon,
            _ => return None,
        })
    }

    /// The kanji of a KIF move (`歩`, `成銀`, `龍`).
    pub fn kanji(self) -> &'static str {
        use PieceKind::*;
        match self {
            Pawn => "歩",
            Lance => "香",
            Knight => "桂",
            Silver => "銀",
            Gold => "金",
            Bishop => "角",
            Rook => "飛",
            King => "玉",
            ProPawn => "と",
            ProLance => "成香",
            ProKnight => "成桂",
            ProSilver => "成銀",
            Horse => "馬",
            Dragon => "龍",
        }
    }

    /// The one-character kanji of a board diagram (`全` for a promoted silver).
    pub fn bod(self) -> char {
        use PieceKind::*;
        match self {
            ProLance => '杏',
            ProKnight => '圭',
            ProSilver => '全',
            k => k.kanji().chars().next().unwrap_or('？'),
        }
    }

    /// The kind a KIF/KI2 piece name starts `text` with, and its length in bytes: both the
    /// one-character (`全`, `竜`, `王`) and two-character (`成銀`) spellings.
    pub fn parse_kanji(text: &str) -> Option<(PieceKind, usize)> {
        use PieceKind::*;
        const NAMES: [(&str, PieceKind); 19] = [
            ("成香", ProLance),
            ("成桂", ProKnight),
            ("成銀", ProSilver),
            ("歩", Pawn),
            ("香", Lance),
            ("桂", Knight),
            ("銀", Silver),
            ("金", Gold),
            ("角", Bishop),
            ("飛", Rook),
            ("玉", King),
            ("王", King),
            ("と", ProPawn),
            ("杏", ProLance),
            ("圭", ProKnight),
            ("全", ProSilver),
            ("馬", Horse),
            ("龍", Dragon),
            ("竜", Dragon),
        ];
        NAMES
            .iter()
            .find(|(name, _)| text.starts_with(name))
            .map(|&(name, kind)| (kind, name.len()))
    }

    /// The Western (Hodges) letter: `P`, `+R` …
    pub fn western(self) -> &'static str {
        self.sfen()
    }

    /// The kind of a Western letter (after an optional `+`); also the D/H/T spellings of
    /// dragon, horse and tokin some sites use.
    pub fn from_western(promoted: bool, letter: u8) -> Option<PieceKind> {
        let kind = match letter {
            b'D' if !promoted => return Some(PieceKind::Dragon),
            b'H' if !promoted => return Some(PieceKind::Horse),
            b'T' if !promoted => return Some(PieceKind::ProPawn),
            l if l.is_ascii_uppercase() => PieceKind::from_letter(l)?,
            _ => return None,
        };
        if promoted {
            kind.promoted()
        } else {
            Some(kind)
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PieceKind::Pawn => "pawn",
            PieceKind::Lance => "lance",
            PieceKind::Knight => "knight",
            PieceKind::Silver => "silver",
            PieceKind::Gold => "gold",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::King => "king",
            PieceKind::ProPawn => "tokin",
            PieceKind::ProLance => "promoted lance",
            PieceKind::ProKnight => "promoted knight",
            PieceKind::ProSilver => "promoted silver",
            PieceKind::Horse => "horse",
            PieceKind::Dragon => "dragon",
        })
    }
}

/// A piece on the board: a side and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What piece.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece.
    pub fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }
}
