//! Piece tracks for shogi, as [`crate::chess::tracks`] for chess: every piece keeps a name for
//! its whole life, across captures and drops, and every move becomes a short list of actions
//! on named pieces, so an animation moves only what changes.
//!
//! Names: the side the piece starts with (`b` sente, who moves first; `w` gote), the SFEN
//! letter of its unpromoted kind, and where it stood at the start: its square (`bP7g` is
//! sente's 7g pawn, `wL1a` gote's 1a lance, `bR2h` sente's rook) or, for a piece in hand at
//! the start, `*` and a counter per side and kind (`wB*1`). A captured piece keeps its name:
//! it goes to the capturer's hand as it is, and is dropped again under the same name, so
//! `bP7g` may end the game as one of gote's pieces.
//!
//! Actions: `[name, "7f"]` puts a piece on a square (a move or a drop), `[name, "+"]` turns it
//! over (it promotes, after its move), `[name, "b"]` or `[name, "w"]` sends a captured piece to
//! that side's hand (turned back to its unpromoted side). A drop takes, of the pieces of its
//! kind in the hand, the one that has been there longest.
//!
//! ```text
//! {"header":{"先手":"A","後手":"B"},"start":{"bL9i":"9i",…,"wL1a":"1a"},
//!  "moves":[{"ply":1,"usi":"7g7f","actions":[["bP7g","7f"]]},
//!           {"ply":2,"usi":"3c3d","actions":[["wP3c","3d"]]},
//!           {"ply":3,"usi":"8h2b+","actions":[["bB8h","2b"],["bB8h","+"],["wB2b","b"]]}]}
//! ```

use std::collections::VecDeque;
use std::fmt;

use serde::ser::{Serialize, SerializeTuple, Serializer};

use super::piece::{Color, PieceKind, HAND_ORDER};
use super::position::{Move, Position};
use super::record::Record;
use super::square::Square;
use crate::format::{write_verbs, WriteFormat};
use crate::json_text::{write_object, write_str, write_u64};
use crate::{Error, ErrorKind};

/// The permanent name of a shogi piece (`bP7g`, `wL1a`, `bB*2`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name {
    // Inline: side, letter, and a square or `*` with a counter of at most 2 digits.
    text: [u8; 6],
    len: u8,
}

impl Name {
    fn on_square(color: Color, kind: PieceKind, square: Square) -> Name {
        let mut text = [0; 6];
        text[0] = side_letter(color);
        text[1] = kind_letter(kind);
        let usi = square.to_string();
        text[2..4].copy_from_slice(&usi.as_bytes()[..2]);
        Name { text, len: 4 }
    }

    fn in_hand(color: Color, kind: PieceKind, number: usize) -> Name {
        let mut text = [0; 6];
        text[0] = side_letter(color);
        text[1] = kind_letter(kind);
        text[2] = b'*';
        let digits = number.to_string();
        let digits = &digits.as_bytes()[..digits.len().min(3)];
        text[3..3 + digits.len()].copy_from_slice(digits);
        Name {
            text,
            len: 3 + digits.len() as u8,
        }
    }

    /// The name.
    ///
    /// ```
    /// use notate::shogi::{tracks::Tracker, Position, Square};
    /// let tracker = Tracker::new(&Position::startpos());
    /// assert_eq!(tracker.name(Square::new(7, 7).unwrap()).unwrap().as_str(), "bP7g");
    /// ```
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text[..usize::from(self.len)]).expect("names are ASCII")
    }
}

fn side_letter(color: Color) -> u8 {
    match color {
        Color::Black => b'b',
        Color::White => b'w',
    }
}

fn kind_letter(kind: PieceKind) -> u8 {
    kind.unpromoted().sfen().as_bytes()[0]
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// What an action does to its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Onto a square (`"7f"`): a move or a drop.
    Square(Square),
    /// Turned over: it promotes (`"+"`).
    Promoted,
    /// Captured, into this side's hand (`"b"`, `"w"`).
    Hand(Color),
}

/// One change to one piece: `["bP7g","7f"]`, `["bB8h","+"]`, `["wB2b","b"]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    /// The piece.
    pub piece: Name,
    /// What happens to it.
    pub target: Target,
}

impl Target {
    fn text(self) -> String {
        match self {
            Target::Square(sq) => sq.to_string(),
            Target::Promoted => "+".to_owned(),
            Target::Hand(color) => char::from(side_letter(color)).to_string(),
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(self.piece.as_str())?;
        t.serialize_element(&self.target.text())?;
        t.end()
    }
}

/// A move the tracker cannot follow: its pieces and the move disagree (a move that was not
/// checked against the position it is played in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrackError {
    /// The move starts from a square where the tracker has no piece.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// A drop of a kind the mover's hand does not hold.
    #[error("no {0} in hand")]
    NotInHand(PieceKind),
}

/// Follows the named pieces of a shogi game, move by move.
///
/// ```
/// use notate::shogi::{tracks::Tracker, Move, Position, Square};
/// let mut position = Position::startpos();
/// let mut tracker = Tracker::new(&position);
/// let sq = |f, r| Square::new(f, r).unwrap();
/// for (from, to) in [(sq(7, 7), sq(7, 6)), (sq(3, 3), sq(3, 4))] {
///     let mv = Move::Normal { from, to, promote: false };
///     tracker.play(&position, mv).unwrap();
///     position.play(mv).unwrap();
/// }
/// let takes = Move::Normal { from: sq(8, 8), to: sq(2, 2), promote: true };
/// let actions = tracker.play(&position, takes).unwrap();
/// assert_eq!(serde_json::to_string(&actions).unwrap(),
///     r#"[["bB8h","2b"],["bB8h","+"],["wB2b","b"]]"#);
/// ```
#[derive(Clone, Debug)]
pub struct Tracker {
    board: [Option<Name>; 81],
    /// Per side, per kind of [`HAND_ORDER`]: the pieces in hand, longest there first.
    hands: [[VecDeque<Name>; 7]; 2],
}

fn hand_slot(kind: PieceKind) -> Option<usize> {
    HAND_ORDER.iter().position(|&k| k == kind.unpromoted())
}

impl Tracker {
    /// Names the pieces of `start`: on the board by their squares, in hand by a counter.
    pub fn new(start: &Position) -> Tracker {
        let mut board = [None; 81];
        for (index, slot) in board.iter_mut().enumerate() {
            let square = Square::from_index(index).expect("81 squares");
            if let Some(piece) = start.piece_at(square) {
                *slot = Some(Name::on_square(piece.color, piece.kind, square));
            }
        }
        let mut hands: [[VecDeque<Name>; 7]; 2] = Default::default();
        for color in [Color::Black, Color::White] {
            for (slot, &kind) in HAND_ORDER.iter().enumerate() {
                for n in 1..=usize::from(start.hand_count(color, kind)) {
                    hands[color.index()][slot].push_back(Name::in_hand(color, kind, n));
                }
            }
        }
        Tracker { board, hands }
    }

    /// The name of the piece on `square`.
    pub fn name(&self, square: Square) -> Option<Name> {
        self.board[square.index()]
    }

    /// The pieces on the board with their squares, square by square (`9a`, `8a` … `1i`).
    pub fn on_board(&self) -> impl Iterator<Item = (Name, Square)> + '_ {
        self.board.iter().enumerate().filter_map(|(index, name)| {
            Some(((*name)?, Square::from_index(index).expect("81 squares")))
        })
    }

    /// The pieces in `color`'s hand, kind by kind (rook, bishop, gold, silver, knight,
    /// lance, pawn), longest there first.
    pub fn in_hand(&self, color: Color) -> impl Iterator<Item = Name> + '_ {
        self.hands[color.index()].iter().flatten().copied()
    }

    /// Plays `mv`, a legal move of `position` (the position before it), and says what
    /// happened to which pieces.
    pub fn play(&mut self, position: &Position, mv: Move) -> Result<Vec<Action>, TrackError> {
        let mut actions = Vec::with_capacity(3);
        self.play_into(position, mv, &mut actions)?;
        Ok(actions)
    }

    /// [`Tracker::play`] into `actions` (appended to).
    pub fn play_into(
        &mut self,
        position: &Position,
        mv: Move,
        actions: &mut Vec<Action>,
    ) -> Result<(), TrackError> {
        let mover = position.side_to_move();
        let to = mv.to();
        match mv {
            Move::Normal { from, promote, .. } => {
                let piece = self.board[from.index()].ok_or(TrackError::NoPiece(from))?;
                let captured = self.board[to.index()];
                self.board[from.index()] = None;
                self.board[to.index()] = Some(piece);
                actions.push(Action {
                    piece,
                    target: Target::Square(to),
                });
                if promote {
                    actions.push(Action {
                        piece,
                        target: Target::Promoted,
                    });
                }
                if let Some(captured) = captured {
                    let kind = position
                        .piece_at(to)
                        .map_or(PieceKind::Pawn, |p| p.kind.unpromoted());
                    if let Some(slot) = hand_slot(kind) {
                        self.hands[mover.index()][slot].push_back(captured);
                    }
                    actions.push(Action {
                        piece: captured,
                        target: Target::Hand(mover),
                    });
                }
            }
            Move::Drop { kind, .. } => {
                let piece = hand_slot(kind)
                    .and_then(|slot| self.hands[mover.index()][slot].pop_front())
                    .ok_or(TrackError::NotInHand(kind))?;
                self.board[to.index()] = Some(piece);
                actions.push(Action {
                    piece,
                    target: Target::Square(to),
                });
            }
        }
        Ok(())
    }
}

/// Piece tracks of a shogi record: one JSON object a line, `{"header": {…}, "start": {name:
/// square, or name: "b"/"w" for a piece in hand; a square followed by `+` for a piece that
/// stands promoted}, "moves": [{"ply", "usi", "actions"}]}` (the main line).
///
/// ```
/// use notate::shogi::{tracks, usi};
/// let record = usi::read_one("position startpos moves 7g7f 3c3d 8h2b+").unwrap();
/// let line = tracks::to_string(&record).unwrap();
/// assert!(line.starts_with(r#"{"header":{},"start":{"wL9a":"9a","wN8a":"8a""#));
/// assert!(line.contains(r#"{"ply":3,"usi":"8h2b+","actions":[["bB8h","2b"],["bB8h","+"],["wB2b","b"]]}"#));
/// ```
#[derive(Debug, Default)]
pub struct Tracks {
    actions: Vec<Action>,
}

impl Tracks {
    fn write(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        let mut position = record.start.clone();
        let mut tracker = Tracker::new(&position);
        let mark = out.len();
        out.extend_from_slice(b"{\"header\":");
        write_object(
            out,
            record.header.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        );
        out.extend_from_slice(b",\"start\":");
        let on_board = tracker.on_board().map(|(name, square)| {
            let promoted = position
                .piece_at(square)
                .is_some_and(|p| p.kind.is_promoted());
            (name, format!("{square}{}", if promoted { "+" } else { "" }))
        });
        let in_hand = [Color::Black, Color::White].into_iter().flat_map(|color| {
            let side = char::from(side_letter(color)).to_string();
            tracker.in_hand(color).map(move |name| (name, side.clone()))
        });
        let start: Vec<(Name, String)> = on_board.chain(in_hand).collect();
        write_object(
            out,
            start
                .iter()
                .map(|(name, place)| (name.as_str(), place.as_str())),
        );
        out.extend_from_slice(b",\"moves\":[");
        for (i, record_move) in record.moves.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            self.actions.clear();
            let usi = record_move.mv.to_string();
            if let Err(e) = tracker.play_into(&position, record_move.mv, &mut self.actions) {
                out.truncate(mark);
                return Err(Error::new(ErrorKind::Unwritable, e.to_string())
                    .with_ply(i + 1)
                    .with_token(usi));
            }
            position.play_unchecked(record_move.mv);
            out.extend_from_slice(b"{\"ply\":");
            write_u64(out, i as u64 + 1);
            out.extend_from_slice(b",\"usi\":");
            write_str(out, &usi);
            out.extend_from_slice(b",\"actions\":[");
            for (j, action) in self.actions.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                out.push(b'[');
                write_str(out, action.piece.as_str());
                out.push(b',');
                write_str(out, &action.target.text());
                out.push(b']');
            }
            out.extend_from_slice(b"]}");
        }
        out.extend_from_slice(b"]}\n");
        Ok(())
    }
}

/// How shogi piece tracks are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

impl WriteFormat for Tracks {
    type Game = Record;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> Tracks {
        Tracks::default()
    }

    fn write_game(&mut self, record: &Record, out: &mut Vec<u8>) -> Result<(), Error> {
        self.write(record, out)
    }
}

write_verbs!(Tracks, Record, "shogi piece tracks");
