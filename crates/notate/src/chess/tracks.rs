//! Piece tracks: every piece keeps a name for its whole life, and every move becomes a short
//! list of actions on named pieces, so an animation moves only what changes.
//!
//! Names: colour (`w`/`b`), wing (`q` for files a–d, `k` for e–h) and piece (`wqr` is the a1
//! rook, `bk` the black king); pawns are named after the piece they start in front of, plus
//! `p` (`wkp` is the e2 pawn). A promoted piece, or a piece of a FEN start that stands off
//! its standard square, is colour + upper-case letter with a counter from the second one
//! (`wQ`, `wQ2`). Actions: `[name, square]` puts a piece on a square, `[name, "x"]` removes a
//! captured piece, `[name, "p"]` removes a pawn that promotes.
//!
//! ```text
//! {"game_tags":{"White":"Morphy","Result":"*"},"start":{"wqr":"a1",…,"bkr":"h8"},
//!  "moves":[{"ply":1,"san":"e4","actions":[["wkp","e4"]]},
//!           {"ply":2,"san":"d5","actions":[["bqp","d5"]]},
//!           {"ply":3,"san":"exd5","actions":[["wkp","d5"],["bqp","x"]]}]}
//! ```

use std::fmt;

use serde::ser::{Serialize, SerializeTuple, Serializer};
use shakmaty::{Board, Color, Move, Role, Square};

use super::game::{play, ChessGame};
use super::notation::{
    castling_destinations, keeps_written_san, write_square, write_str, write_tags_object, write_u64,
};
use super::san::san_plus_and_play;
use crate::format::{write_verbs, WriteFormat};
use crate::{Error, ErrorKind};

/// The permanent name of a piece (`wkp`, `bqr`, `wQ2`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Identity {
    // Inline: the longest name is colour + letter + a two-digit counter.
    text: [u8; 6],
    len: u8,
}

impl Identity {
    fn from_bytes(bytes: &[u8]) -> Identity {
        let mut text = [0; 6];
        text[..bytes.len()].copy_from_slice(bytes);
        Identity {
            text,
            len: bytes.len() as u8,
        }
    }

    /// The name.
    ///
    /// ```
    /// use notate::chess::tracks::Tracker;
    /// use notate::shakmaty::{Board, Square};
    /// let tracker = Tracker::new(&Board::default());
    /// assert_eq!(tracker.identity(Square::E2).unwrap().as_str(), "wkp");
    /// ```
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text[..usize::from(self.len)]).expect("names are ASCII")
    }

    /// The colour of the piece.
    pub fn color(&self) -> Color {
        if self.text[0] == b'w' {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl Serialize for Identity {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Where an action sends a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Onto a square.
    Square(Square),
    /// Off the board, captured (`"x"`).
    Captured,
    /// Off the board, promoted: a new piece takes its place (`"p"`).
    Promoted,
}

/// One change to one piece: `["wkp","e4"]`, `["bqp","x"]`, `["wqrp","p"]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    /// The piece.
    pub piece: Identity,
    /// What happens to it.
    pub target: Target,
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(self.piece.as_str())?;
        match self.target {
            Target::Square(sq) => t.serialize_element(&sq.to_string())?,
            Target::Captured => t.serialize_element("x")?,
            Target::Promoted => t.serialize_element("p")?,
        }
        t.end()
    }
}

/// A move the tracker cannot follow: its board and the move disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrackError {
    /// The move starts from (or captures on) a square where the tracker has no piece.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// A drop: standard chess has none.
    #[error("a drop is not a chess move")]
    Drop,
}

/// The named pieces of one game, updated move by move: for callers that animate live games.
///
/// ```
/// use notate::chess::tracks::{Tracker, Target};
/// use notate::shakmaty::{Chess, Position, Square, san::San};
/// let mut pos = Chess::default();
/// let mut tracker = Tracker::new(pos.board());
/// for san in ["e4", "d5", "exd5"] {
///     let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
///     let actions = tracker.play(mv).unwrap();
///     if san == "exd5" {
///         assert_eq!(actions[0].piece.as_str(), "wkp");
///         assert_eq!(actions[0].target, Target::Square(Square::D5));
///         assert_eq!((actions[1].piece.as_str(), actions[1].target), ("bqp", Target::Captured));
///     }
///     pos.play_unchecked(mv);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Tracker {
    board: [Option<Identity>; 64],
    /// How many lettered names (`wQ`, `wQ2`…) each colour and role has handed out.
    lettered: [[u8; 6]; 2],
}

/// The standard name of a piece on its start square, if it stands on one.
fn standard_name(color: Color, role: Role, sq: Square) -> Option<&'static [u8]> {
    const BACK_ROLES: [Role; 8] = [
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Queen,
        Role::King,
        Role::Bishop,
        Role::Knight,
        Role::Rook,
    ];
    const WHITE_PAWNS: [&[u8]; 8] = [
        b"wqrp", b"wqnp", b"wqbp", b"wqp", b"wkp", b"wkbp", b"wknp", b"wkrp",
    ];
    const BLACK_PAWNS: [&[u8]; 8] = [
        b"bqrp", b"bqnp", b"bqbp", b"bqp", b"bkp", b"bkbp", b"bknp", b"bkrp",
    ];
    const WHITE_BACK: [&[u8]; 8] = [b"wqr", b"wqn", b"wqb", b"wq", b"wk", b"wkb", b"wkn", b"wkr"];
    const BLACK_BACK: [&[u8]; 8] = [b"bqr", b"bqn", b"bqb", b"bq", b"bk", b"bkb", b"bkn", b"bkr"];
    let file = usize::from(sq.file());
    let rank = usize::from(sq.rank());
    match (color, role, rank) {
        (Color::White, Role::Pawn, 1) => Some(WHITE_PAWNS[file]),
        (Color::Black, Role::Pawn, 6) => Some(BLACK_PAWNS[file]),
        (Color::White, r, 0) if r == BACK_ROLES[file] => Some(WHITE_BACK[file]),
        (Color::Black, r, 7) if r == BACK_ROLES[file] => Some(BLACK_BACK[file]),
        _ => None,
    }
}

impl Tracker {
    /// Names the pieces of a start position: standard names on standard squares, lettered
    /// names (`wN`, `wN2`) for the rest, given in square order a1, b1 … h8.
    pub fn new(board: &Board) -> Tracker {
        let mut tracker = Tracker {
            board: [None; 64],
            lettered: [[0; 6]; 2],
        };
        for sq in Square::ALL {
            if let Some(piece) = board.piece_at(sq) {
                let name = match standard_name(piece.color, piece.role, sq) {
                    Some(name) => Identity::from_bytes(name),
                    None => tracker.lettered_name(piece.color, piece.role),
                };
                tracker.board[usize::from(sq)] = Some(name);
            }
        }
        tracker
    }

    fn lettered_name(&mut self, color: Color, role: Role) -> Identity {
        let count = &mut self.lettered[color as usize][role as usize - 1];
        *count = count.saturating_add(1);
        let mut text = Vec::with_capacity(6);
        text.push(color.char() as u8);
        text.push(role.upper_char() as u8);
        if *count > 1 {
            text.extend_from_slice(count.to_string().as_bytes());
        }
        Identity::from_bytes(&text)
    }

    /// The name of the piece on a square.
    pub fn identity(&self, sq: Square) -> Option<Identity> {
        self.board[usize::from(sq)]
    }

    /// Every piece with its square, in square order a1, b1 … h8.
    pub fn pieces(&self) -> impl Iterator<Item = (Identity, Square)> + '_ {
        Square::ALL
            .into_iter()
            .filter_map(|sq| self.board[usize::from(sq)].map(|id| (id, sq)))
    }

    /// Plays a legal move of the position the tracker follows and returns its actions.
    pub fn play(&mut self, mv: Move) -> Result<Vec<Action>, TrackError> {
        let mut actions = Vec::with_capacity(4);
        self.play_into(mv, &mut actions)?;
        Ok(actions)
    }

    /// Like [`Tracker::play`], appending to `actions` (nothing is appended or changed on an
    /// error).
    pub fn play_into(&mut self, mv: Move, actions: &mut Vec<Action>) -> Result<(), TrackError> {
        let piece_on =
            |t: &Tracker, sq: Square| t.board[usize::from(sq)].ok_or(TrackError::NoPiece(sq));
        match mv {
            Move::Normal {
                from,
                capture,
                to,
                promotion,
                ..
            } => {
                let mover = piece_on(self, from)?;
                let victim = match capture {
                    Some(_) => Some(piece_on(self, to)?),
                    None => None,
                };
                actions.push(Action {
                    piece: mover,
                    target: Target::Square(to),
                });
                if let Some(victim) = victim {
                    actions.push(Action {
                        piece: victim,
                        target: Target::Captured,
                    });
                }
                let mut arrives = mover;
                if let Some(role) = promotion {
                    arrives = self.lettered_name(mover.color(), role);
                    actions.push(Action {
                        piece: mover,
                        target: Target::Promoted,
                    });
                    actions.push(Action {
                        piece: arrives,
                        target: Target::Square(to),
                    });
                }
                self.board[usize::from(from)] = None;
                self.board[usize::from(to)] = Some(arrives);
            }
            Move::EnPassant { from, to } => {
                // The captured pawn stands beside the mover, not on the destination.
                let taken = Square::from_coords(to.file(), from.rank());
                let mover = piece_on(self, from)?;
                let victim = piece_on(self, taken)?;
                actions.push(Action {
                    piece: mover,
                    target: Target::Square(to),
                });
                actions.push(Action {
                    piece: victim,
                    target: Target::Captured,
                });
                self.board[usize::from(from)] = None;
                self.board[usize::from(taken)] = None;
                self.board[usize::from(to)] = Some(mover);
            }
            Move::Castle { king, rook } => {
                let to = castling_destinations(king, rook);
                let (king_to, rook_to) = (to.king_to, to.rook_to);
                let king_id = piece_on(self, king)?;
                let rook_id = piece_on(self, rook)?;
                actions.push(Action {
                    piece: king_id,
                    target: Target::Square(king_to),
                });
                actions.push(Action {
                    piece: rook_id,
                    target: Target::Square(rook_to),
                });
                // Both leave before either lands: in Chess960 their squares can overlap.
                self.board[usize::from(king)] = None;
                self.board[usize::from(rook)] = None;
                self.board[usize::from(king_to)] = Some(king_id);
                self.board[usize::from(rook_to)] = Some(rook_id);
            }
            Move::Put { .. } => return Err(TrackError::Drop),
        }
        Ok(())
    }
}

/// Writes replayed games as piece tracks, one JSON line per game.
///
/// ```
/// use notate::chess::{pgn, tracks};
/// let game = pgn::read_one("1. e4 d5 2. exd5 *").unwrap();
/// let line = tracks::to_string(&game).unwrap();
/// assert!(line.starts_with(r#"{"game_tags":{"Result":"*"},"start":{"wqr":"a1","wqn":"b1""#));
/// assert!(line.contains(r#"{"ply":3,"san":"exd5","actions":[["wkp","d5"],["bqp","x"]]}"#));
/// ```
#[derive(Debug, Default)]
pub struct Tracks {
    actions: Vec<Action>,
    san: String,
}

impl Tracks {
    /// Appends one game as a line. A null move (`--`) has no actions. On an error nothing
    /// is appended.
    fn write(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        let mut pos = game.start.position.clone();
        let mut tracker = Tracker::new(shakmaty::Position::board(&pos));
        let mark = out.len();
        out.extend_from_slice(b"{\"game_tags\":");
        write_tags_object(&game.tags, game.result.map(|r| r.as_str()), out);
        out.extend_from_slice(b",\"start\":{");
        for (i, (id, sq)) in tracker.pieces().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(id.as_str().as_bytes());
            out.extend_from_slice(b"\":\"");
            write_square(out, sq);
            out.push(b'"');
        }
        out.extend_from_slice(b"},\"moves\":[");
        for (i, ply) in game.moves.plies.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"ply\":");
            write_u64(out, i as u64 + 1);
            out.extend_from_slice(b",\"san\":");
            self.actions.clear();
            match ply.mv.mv {
                Some(mv) => {
                    let written = ply.mv.san.as_str();
                    if keeps_written_san(written.as_bytes(), &mv) {
                        write_str(out, written);
                    } else {
                        self.san.clear();
                        use std::fmt::Write as _;
                        let _ = write!(self.san, "{}", san_plus_and_play(&mut pos.clone(), mv));
                        write_str(out, &self.san);
                    }
                    if let Err(e) = tracker.play_into(mv, &mut self.actions) {
                        out.truncate(mark);
                        return Err(Error::at(ply.mv.offset, e.to_string())
                            .with_ply(i + 1)
                            .with_token(written)
                            .with_kind(ErrorKind::Unwritable));
                    }
                }
                None => out.extend_from_slice(b"\"--\""),
            }
            play(&mut pos, ply.mv.mv);
            out.extend_from_slice(b",\"actions\":[");
            for (j, action) in self.actions.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(b"[\"");
                out.extend_from_slice(action.piece.as_str().as_bytes());
                match action.target {
                    Target::Square(sq) => {
                        out.extend_from_slice(b"\",\"");
                        write_square(out, sq);
                        out.extend_from_slice(b"\"]");
                    }
                    Target::Captured => out.extend_from_slice(b"\",\"x\"]"),
                    Target::Promoted => out.extend_from_slice(b"\",\"p\"]"),
                }
            }
            out.extend_from_slice(b"]}");
        }
        out.extend_from_slice(b"]}\n");
        Ok(())
    }
}

/// How piece tracks are written (nothing to choose yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOptions {}

impl WriteFormat for Tracks {
    type Game = ChessGame;
    type WriteOptions = WriteOptions;

    fn new(_: WriteOptions) -> Tracks {
        Tracks::default()
    }

    fn write_game(&mut self, game: &ChessGame, out: &mut Vec<u8>) -> Result<(), Error> {
        self.write(game, out)
    }
}

write_verbs!(Tracks, ChessGame, "piece tracks");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::pgn;
    use shakmaty::{fen::Fen, san::San, CastlingMode, Chess, Position};

    /// The actions of the last move of `sans` played from `fen`.
    fn last_actions(fen: &str, sans: &[&str]) -> String {
        let mut pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut tracker = Tracker::new(pos.board());
        let mut actions = Vec::new();
        for san in sans {
            let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            actions = tracker.play(mv).unwrap();
            pos.play_unchecked(mv);
        }
        serde_json::to_string(&actions).unwrap()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn the_table_of_tracks_md() {
        assert_eq!(last_actions(START, &["e4", "c5"]), r#"[["bqbp","c5"]]"#);
        assert_eq!(
            last_actions(START, &["h4", "g5", "hxg5", "h6", "gxh6", "Rxh6"]),
            r#"[["bkr","h6"],["wkrp","x"]]"#
        );
        assert_eq!(
            last_actions("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", &["O-O-O"]),
            r#"[["wk","c1"],["wqr","d1"]]"#
        );
        assert_eq!(
            last_actions("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", &["O-O-O"]),
            r#"[["bk","c8"],["bqr","d8"]]"#
        );
        assert_eq!(
            last_actions("4k2r/8/8/8/8/8/8/4K2R b Kk - 0 1", &["O-O"]),
            r#"[["bk","g8"],["bkr","f8"]]"#
        );
        // The a7 pawn of a FEN start is off its standard square: lettered.
        assert_eq!(
            last_actions("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", &["a8=Q"]),
            r#"[["wP","a8"],["wP","p"],["wQ","a8"]]"#
        );
        assert_eq!(
            last_actions("rn2k3/1P6/8/8/8/8/8/4K3 w - - 0 1", &["bxa8=Q"]),
            r#"[["wP","a8"],["bqr","x"],["wP","p"],["wQ","a8"]]"#
        );
        assert_eq!(
            last_actions(START, &["e4", "a6", "e5", "d5", "exd6"]),
            r#"[["wkp","d6"],["bqp","x"]]"#
        );
    }

    #[test]
    fn promotions_count_from_the_second() {
        let game =
            pgn::read_str("[FEN \"8/PP6/8/7k/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=Q Kh4 2. b8=Q Kh3 *")
                .unwrap()
                .remove(0);
        let mut out = Vec::new();
        Tracks::default().write(&game, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            value["start"].to_string(),
            r#"{"wk":"e1","bK":"h5","wP":"a7","wP2":"b7"}"#
        );
        assert_eq!(
            value["moves"][2]["actions"].to_string(),
            r#"[["wP2","b8"],["wP2","p"],["wQ2","b8"]]"#
        );
    }

    #[test]
    fn chess960_castling_with_overlapping_squares() {
        // King on f1, rook on g1: O-O puts the king on g1 and the rook on f1.
        let game = pgn::read_str(
            "[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/5KR1 w G - 0 1\"]\n\n1. O-O *",
        )
        .unwrap()
        .remove(0);
        let mut out = Vec::new();
        Tracks::default().write(&game, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            value["moves"][0]["actions"].to_string(),
            r#"[["wK","g1"],["wR","f1"]]"#
        );
    }

    #[test]
    fn null_moves_have_no_actions() {
        let game = pgn::read_str("1. e4 -- 2. d4 *").unwrap().remove(0);
        let mut out = Vec::new();
        Tracks::default().write(&game, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(r#"{"ply":2,"san":"--","actions":[]}"#),
            "{text}"
        );
    }
}
