//! The game model: everything an ICN record or its long JSON form can say.

use rustc_hash::FxHashMap;

use super::coord::{Coord, Int};
use super::piece::{Piece, PieceKind, Player};

/// An infinite chess game or position, as read from ICN or its long JSON form.
///
/// Every section is optional, as in the notation: `None` means the record did not say.
///
/// ```
/// use notate::infinite::{short, Player};
/// let game = short::read_one("w 0/100 1 K5,1+|k5,8 5,1>5,2").unwrap();
/// assert_eq!(game.turn, Some(Player::White));
/// assert_eq!(game.position.as_ref().unwrap().len(), 2);
/// assert_eq!(game.moves.as_ref().unwrap().len(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Game {
    /// Tags in the order given (`Event`, `White`, …).
    pub metadata: Vec<(String, String)>,
    /// Who moves first (from the position given).
    pub turn: Option<Player>,
    /// The square a pawn skipped with its last move; capturing onto it is en passant.
    pub en_passant: Option<Coord>,
    /// Plies since the last capture or pawn move, and the limit (`0/100`).
    pub move_rule: Option<MoveRule>,
    /// The full-move number of the first move.
    pub full_move: Option<u64>,
    /// Where each side promotes and to what; `None`: nobody promotes.
    pub promotions: Option<Promotions>,
    /// How each side wins; `None`: not said (checkmate).
    pub win_conditions: Option<WinConditions>,
    /// 2024 dialect: other game rules as JSON (`{"slideLimit":100}`), in order.
    pub extra_rules: serde_json::Map<String, serde_json::Value>,
    /// 2025 dialect: the edges of the playable area.
    pub world_border: Option<WorldBorder>,
    /// 2025 dialect: squares and rays the board highlights (`Squares:`, `Rays:`).
    pub presets: Option<Presets>,
    /// The pieces, with their special rights.
    pub position: Option<Position>,
    /// The moves played from the position; `Some(vec![])` is an empty move list.
    pub moves: Option<Vec<Move>>,
    /// Where each key goes in the long JSON form.
    pub layout: Layout,
}

/// The move rule: `counter/limit` (`0/100` is the fifty-move rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRule {
    /// Plies since the last capture or pawn move.
    pub counter: u64,
    /// Plies after which the game is drawn.
    pub limit: u64,
}

/// Each side's promotion rule; `None` for a side that never promotes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Promotions {
    /// White's rule.
    pub white: Option<PromotionRule>,
    /// Black's rule.
    pub black: Option<PromotionRule>,
}

/// Where a side's pawns promote, and to what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionRule {
    /// The ranks (y) that promote (the 2025 dialect allows several).
    pub ranks: Vec<Int>,
    /// What a pawn may become.
    pub pieces: Vec<PieceKind>,
}

impl PromotionRule {
    /// What a pawn may become when the record does not say.
    pub const DEFAULT_PIECES: [PieceKind; 4] = [
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
    ];

    /// The allowed pieces are the default set (in any order).
    pub fn has_default_pieces(&self) -> bool {
        let mut sorted: Vec<&str> = self.pieces.iter().map(|k| k.code()).collect();
        sorted.sort_unstable();
        sorted.dedup();
        let mut default: Vec<&str> = Self::DEFAULT_PIECES.iter().map(|k| k.code()).collect();
        default.sort_unstable();
        sorted == default
    }
}

/// A way to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinCondition {
    /// Checkmate the opponent's royal pieces.
    Checkmate,
    /// Capture any royal piece.
    RoyalCapture,
    /// Capture every royal piece.
    AllRoyalsCaptured,
    /// Capture every piece.
    AllPiecesCaptured,
    /// King of the hill.
    Koth,
    /// Give three checks (2024 variants only).
    ThreeCheck,
}

impl WinCondition {
    /// Every condition.
    pub const ALL: [WinCondition; 6] = [
        WinCondition::Checkmate,
        WinCondition::RoyalCapture,
        WinCondition::AllRoyalsCaptured,
        WinCondition::AllPiecesCaptured,
        WinCondition::Koth,
        WinCondition::ThreeCheck,
    ];

    /// The name ICN writes: `checkmate`, `allpiecescaptured`.
    pub fn name(self) -> &'static str {
        match self {
            WinCondition::Checkmate => "checkmate",
            WinCondition::RoyalCapture => "royalcapture",
            WinCondition::AllRoyalsCaptured => "allroyalscaptured",
            WinCondition::AllPiecesCaptured => "allpiecescaptured",
            WinCondition::Koth => "koth",
            WinCondition::ThreeCheck => "threecheck",
        }
    }

    /// The condition with this name.
    pub fn from_name(name: &str) -> Option<WinCondition> {
        WinCondition::ALL.into_iter().find(|w| w.name() == name)
    }
}

/// Each side's win conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinConditions {
    /// White's.
    pub white: Vec<WinCondition>,
    /// Black's.
    pub black: Vec<WinCondition>,
}

impl WinConditions {
    /// Checkmate for both: what a record that says nothing means.
    pub fn checkmate() -> WinConditions {
        WinConditions {
            white: vec![WinCondition::Checkmate],
            black: vec![WinCondition::Checkmate],
        }
    }

    /// Both sides have the same conditions (as sets: order and repeats do not matter).
    pub fn symmetric(&self) -> bool {
        let set = |v: &[WinCondition]| {
            let mut names: Vec<&str> = v.iter().map(|w| w.name()).collect();
            names.sort_unstable();
            names.dedup();
            names
        };
        set(&self.white) == set(&self.black)
    }
}

/// The edges of the playable area (2025 dialect); `None` is unbounded on that side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldBorder {
    /// Smallest x.
    pub left: Option<Int>,
    /// Largest x.
    pub right: Option<Int>,
    /// Smallest y.
    pub bottom: Option<Int>,
    /// Largest y.
    pub top: Option<Int>,
}

/// The highlights a variant presets (the site's `presetAnnotes`; Omega² uses them): marked
/// squares and rays. Each list is `None` when the record has no such section.
///
/// ```
/// use notate::infinite::{short, Coord};
/// let game = short::read_one("b 1 Squares:-42,76|16,86 Rays:23,94>-1,0 K51,94|k46,80").unwrap();
/// let presets = game.presets.unwrap();
/// assert_eq!(presets.squares.unwrap(), [Coord::new(-42, 76), Coord::new(16, 86)]);
/// let rays = presets.rays.unwrap();
/// assert_eq!((&rays[0].start, &rays[0].vector), (&Coord::new(23, 94), &Coord::new(-1, 0)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Presets {
    /// Highlighted squares, in order.
    pub squares: Option<Vec<Coord>>,
    /// Highlighted rays, in order.
    pub rays: Option<Vec<Ray>>,
}

/// A ray from `start` in the direction `vector` (`23,94>-1,0`; the site accepts a zero vector).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ray {
    /// The first square.
    pub start: Coord,
    /// The step (`dx,dy`).
    pub vector: Coord,
}

/// A move: from one square to another, with what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Where the piece stands.
    pub from: Coord,
    /// Where it goes.
    pub to: Coord,
    /// What a pawn becomes.
    pub promotion: Option<Piece>,
    /// The piece that moves, when the record names it (`P4,2>4,4`, a legacy `type`).
    pub piece: Option<Piece>,
    /// The record marks the move as a capture (`x`, a legacy `captured`).
    pub capture: bool,
    /// The piece captured, when the record names it (legacy `captured`).
    pub captured: Option<Piece>,
    /// The record marks check (`+`).
    pub check: bool,
    /// The record marks mate (`#`).
    pub mate: bool,
    /// Annotation, comment and clock, when there are any.
    pub notes: Option<Box<MoveNotes>>,
}

impl Move {
    /// A move that says nothing but its squares.
    pub fn new(from: Coord, to: Coord) -> Move {
        Move {
            from,
            to,
            promotion: None,
            piece: None,
            capture: false,
            captured: None,
            check: false,
            mate: false,
            notes: None,
        }
    }

    /// The notes, created empty when there are none.
    pub fn notes_mut(&mut self) -> &mut MoveNotes {
        self.notes.get_or_insert_with(Default::default)
    }
}

/// What a record says about a move beyond the move itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNotes {
    /// `!`, `?`, `!?`, … as written.
    pub annotation: String,
    /// The comment text, without its braces and clock command.
    pub comment: Option<String>,
    /// The clock after the move in milliseconds (`[%clk 0:09:56.7]` is 596 700).
    pub clock_ms: Option<u64>,
}

/// The pieces on the board, in insertion order, with the squares that keep a special right
/// (a pawn's double push, a castling piece).
///
/// The order is the reference's JavaScript object order: a piece that moves to an empty
/// square goes to the end; a capture keeps the captured piece's place.
///
/// ```
/// use notate::infinite::{Coord, Piece, Position};
/// let mut position = Position::new();
/// position.insert(Coord::new(5, 1), Piece::from_code(b"K").unwrap());
/// position.insert(Coord::new(5, 8), Piece::from_code(b"k").unwrap());
/// position.set_special_right(Coord::new(5, 1));
/// assert_eq!(position.len(), 2);
/// assert!(position.has_special_right(&Coord::new(5, 1)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Position {
    pieces: Ordered<Piece>,
    special_rights: Ordered<()>,
}

/// The same pieces in the same order, and the same squares with special rights in any order:
/// ICN writes a right as a `+` on its piece, so only the long form's `specialRights` object
/// has an order of its own.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.pieces.iter().eq(other.pieces.iter())
            && self.special_rights.len() == other.special_rights.len()
            && self
                .special_rights()
                .all(|square| other.has_special_right(square))
    }
}

impl Position {
    /// No pieces.
    pub fn new() -> Position {
        Position::default()
    }

    /// The number of pieces.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// No pieces at all.
    pub fn is_empty(&self) -> bool {
        self.pieces.len() == 0
    }

    /// The piece on `square`.
    pub fn get(&self, square: &Coord) -> Option<Piece> {
        self.pieces.get(square).copied()
    }

    /// Puts `piece` on `square`: an occupied square keeps its place in the order, an empty
    /// one goes to the end. Returns the piece that was there.
    pub fn insert(&mut self, square: Coord, piece: Piece) -> Option<Piece> {
        self.pieces.insert(square, piece)
    }

    /// Takes the piece off `square`.
    pub fn remove(&mut self, square: &Coord) -> Option<Piece> {
        self.pieces.remove(square)
    }

    /// The pieces in order.
    pub fn iter(&self) -> impl Iterator<Item = (&Coord, Piece)> + '_ {
        self.pieces.iter().map(|(c, p)| (c, *p))
    }

    /// `square` keeps a special right (whether or not a piece stands there).
    pub fn has_special_right(&self, square: &Coord) -> bool {
        self.special_rights.get(square).is_some()
    }

    /// Gives `square` a special right (at the end of the order if new).
    pub fn set_special_right(&mut self, square: Coord) {
        self.special_rights.insert(square, ());
    }

    /// Takes the special right of `square`.
    pub fn remove_special_right(&mut self, square: &Coord) -> bool {
        self.special_rights.remove(square).is_some()
    }

    /// The squares with a special right, in order.
    pub fn special_rights(&self) -> impl Iterator<Item = &Coord> + '_ {
        self.special_rights.iter().map(|(c, _)| c)
    }

    /// The number of squares with a special right.
    pub fn special_rights_len(&self) -> usize {
        self.special_rights.len()
    }

    /// Gives the usual special rights (as the site does for its variants): every pawn (when
    /// `pawn_double_push`), every king (when `castle_with` is given), and each `castle_with`
    /// piece on a king's rank of its own side, at least three files from it. Pawns and kings
    /// come first in the order, then the castling partners.
    ///
    /// ```
    /// use notate::infinite::{short, PieceKind};
    /// let mut position = short::parse_position("R1,1|K5,1|R8,1|P1,2|N2,1").unwrap();
    /// position.generate_special_rights(true, Some(PieceKind::Rook));
    /// assert_eq!(short::write_position(&position), "R1,1+|K5,1+|R8,1+|P1,2+|N2,1");
    /// ```
    pub fn generate_special_rights(
        &mut self,
        pawn_double_push: bool,
        castle_with: Option<PieceKind>,
    ) {
        let mut partners = Vec::new();
        let kings: Vec<(Coord, Player)> = self
            .iter()
            .filter(|(_, p)| p.kind == PieceKind::King)
            .map(|(c, p)| (c.clone(), p.player))
            .collect();
        let mut own = Vec::new();
        for (square, piece) in self.pieces.iter() {
            if (pawn_double_push && piece.kind == PieceKind::Pawn)
                || (castle_with.is_some() && piece.kind == PieceKind::King)
            {
                own.push(square.clone());
            } else if Some(piece.kind) == castle_with
                && kings.iter().any(|(k, player)| {
                    *player == piece.player && k.y == square.y && k.x.sub(&square.x).abs_at_least(3)
                })
            {
                partners.push(square.clone());
            }
        }
        for square in own.into_iter().chain(partners) {
            self.set_special_right(square);
        }
    }
}

/// An insertion-ordered map from squares: `O(1)` lookups, appends and removals. Removal
/// leaves a hole that is swept out once holes outnumber entries, so a million moves over a
/// large position stay linear. (`indexmap`'s order-keeping removal is `O(n)` each.)
#[derive(Clone, Debug)]
struct Ordered<V> {
    slots: Vec<Option<(Coord, V)>>,
    // Fx: squares are small integers, and SipHash's flood resistance buys nothing here.
    index: FxHashMap<Coord, usize>,
}

impl<V> Default for Ordered<V> {
    fn default() -> Self {
        Ordered {
            slots: Vec::new(),
            index: FxHashMap::default(),
        }
    }
}

impl<V> Ordered<V> {
    fn len(&self) -> usize {
        self.index.len()
    }

    fn get(&self, key: &Coord) -> Option<&V> {
        let &slot = self.index.get(key)?;
        self.slots[slot].as_ref().map(|(_, v)| v)
    }

    fn insert(&mut self, key: Coord, value: V) -> Option<V> {
        if let Some(&slot) = self.index.get(&key) {
            let entry = self.slots[slot].as_mut().expect("indexed slot is live");
            return Some(std::mem::replace(&mut entry.1, value));
        }
        self.index.insert(key.clone(), self.slots.len());
        self.slots.push(Some((key, value)));
        None
    }

    fn remove(&mut self, key: &Coord) -> Option<V> {
        let slot = self.index.remove(key)?;
        let (_, value) = self.slots[slot].take().expect("indexed slot is live");
        if self.slots.len() > 32 && self.slots.len() > 2 * self.index.len() {
            self.compact();
        }
        Some(value)
    }

    fn compact(&mut self) {
        self.slots.retain(Option::is_some);
        for (i, (key, _)) in self.slots.iter().flatten().enumerate() {
            *self.index.get_mut(key).expect("live key is indexed") = i;
        }
    }

    fn iter(&self) -> impl Iterator<Item = (&Coord, &V)> + '_ {
        self.slots.iter().flatten().map(|(k, v)| (k, v))
    }
}

/// The keys of the long JSON form, in the order they are written. The reference's output
/// follows JavaScript's insertion order, so a converted or replayed document keeps the order
/// it was read in; keys not listed follow in the order of [`Layout::default`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Top-level keys.
    pub top: Vec<TopKey>,
    /// Keys of `gameRules`.
    pub rules: Vec<RuleKey>,
    /// `startingPosition` was a piece list (`"K5,1+|k5,8"`), and is written back as one.
    pub position_as_text: bool,
    /// The moves were objects (`{"startCoords": …}`), not strings: written to ICN in the
    /// style asked for even without piece codes, as the reference writes such objects
    /// (strings it joins as they are).
    pub moves_as_objects: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            top: vec![TopKey::GameRules, TopKey::Metadata],
            rules: Vec::new(),
            position_as_text: false,
            moves_as_objects: false,
        }
    }
}

/// A top-level key of the long form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TopKey {
    GameRules,
    Metadata,
    Turn,
    EnPassant,
    MoveRule,
    FullMove,
    SpecialRights,
    StartingPosition,
    ShortPosition,
    Moves,
    PresetAnnotes,
}

impl TopKey {
    /// Every key, in the order the ICN parser finds them.
    pub const ALL: [TopKey; 11] = [
        TopKey::GameRules,
        TopKey::Metadata,
        TopKey::Turn,
        TopKey::EnPassant,
        TopKey::MoveRule,
        TopKey::FullMove,
        TopKey::PresetAnnotes,
        TopKey::SpecialRights,
        TopKey::StartingPosition,
        TopKey::ShortPosition,
        TopKey::Moves,
    ];

    /// The JSON key.
    pub fn name(self) -> &'static str {
        match self {
            TopKey::GameRules => "gameRules",
            TopKey::Metadata => "metadata",
            TopKey::Turn => "turn",
            TopKey::EnPassant => "enpassant",
            TopKey::MoveRule => "moveRule",
            TopKey::FullMove => "fullMove",
            TopKey::SpecialRights => "specialRights",
            TopKey::StartingPosition => "startingPosition",
            TopKey::ShortPosition => "shortposition",
            TopKey::Moves => "moves",
            TopKey::PresetAnnotes => "presetAnnotes",
        }
    }
}

/// A key of `gameRules` in the long form.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum RuleKey {
    PromotionRanks,
    PromotionsAllowed,
    WinConditions,
    WorldBorder,
    /// A key of [`Game::extra_rules`].
    Extra(String),
}

impl Layout {
    /// Puts `key` last (removing it from where it was).
    pub fn move_to_end(&mut self, key: TopKey) {
        self.top.retain(|&k| k != key);
        self.top.push(key);
    }

    /// Adds `key` at the end unless it is already there.
    pub fn add(&mut self, key: TopKey) {
        if !self.top.contains(&key) {
            self.top.push(key);
        }
    }

    /// Adds `key` at the end of `gameRules` unless it is already there.
    pub fn add_rule(&mut self, key: RuleKey) {
        if !self.rules.contains(&key) {
            self.rules.push(key);
        }
    }
}
