//! The game record every format reads into and writes from.

use super::error::{self, Error};
use super::piece::Color;
use super::position::{Move, Played, Position};
use super::square::Square;

/// A game record: header, start position, main line with times and comments, how it ended,
/// and variations kept apart from the main line.
///
/// ```
/// use notate::shogi::{usi, Record};
/// let record: Record = usi::read_one("position startpos moves 7g7f 3c3d").unwrap();
/// assert_eq!(record.moves.len(), 2);
/// assert_eq!(
///     record.position_after(2).unwrap().to_sfen(),
///     "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// Header lines in the order read, with KIF's Japanese keys (`開始日時`, `先手`,
    /// `棋戦` …; CSA's `N+`, `$EVENT` … are mapped to them, unknown `$KEY`s kept as `$KEY`).
    /// `手合割` is kept here as read; writers check it against [`Record::start`].
    pub header: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The main line, every move legal.
    pub moves: Vec<RecordMove>,
    /// How the main line ended, if the record says.
    pub ending: Option<Ending>,
    /// Variations, each branching off the main line or an earlier variation.
    pub variations: Vec<Variation>,
    /// What the reader noticed and read anyway (a text in another encoding than it
    /// declares, a move number out of order), with places. Not part of the game: two
    /// records compare equal whatever their warnings.
    pub warnings: Vec<Error>,
}

impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        self.header == other.header
            && self.start == other.start
            && self.comments == other.comments
            && self.moves == other.moves
            && self.ending == other.ending
            && self.variations == other.variations
    }
}

impl Eq for Record {}

/// A move of a record with what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move.
    pub mv: Move,
    /// Time spent on it, if recorded.
    pub time: Option<MoveTime>,
    /// Comments after it.
    pub comments: Vec<String>,
}

impl RecordMove {
    /// A move without time or comments.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            time: None,
            comments: Vec::new(),
        }
    }
}

/// Time used on a move: the move's own and, when recorded, the player's running total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// Time spent on this move, in milliseconds.
    pub spent_ms: u64,
    /// The player's total so far, in milliseconds (KIF records it; CSA does not).
    pub total_ms: Option<u64>,
}

/// How a game (or a variation) ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// What happened.
    pub kind: EndingKind,
    /// Time the side to move spent before it, if recorded.
    pub time: Option<MoveTime>,
    /// Comments after it (a CSA `'*` line after `%TORYO`, a KIF `*` line after `投了`).
    pub comments: Vec<String>,
}

impl Ending {
    /// An ending without time or comments.
    ///
    /// ```
    /// use notate::shogi::{Ending, EndingKind};
    /// assert_eq!(Ending::new(EndingKind::Resign).kind.kif(), "投了");
    /// ```
    pub fn new(kind: EndingKind) -> Ending {
        Ending {
            kind,
            time: None,
            comments: Vec::new(),
        }
    }
}

/// The endings of KIF, CSA and JKF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndingKind {
    /// The side to move resigned (投了, `%TORYO`).
    Resign,
    /// Stopped (中断, `%CHUDAN`).
    Abort,
    /// Fourfold repetition (千日手, `%SENNICHITE`).
    Repetition,
    /// Impasse (持将棋, `%JISHOGI`).
    Impasse,
    /// The side to move is mated (詰み, `%TSUMI`).
    Mate,
    /// The side to move lost on time (切れ負け, `%TIME_UP`).
    TimeUp,
    /// The side to move wins by the other's foul (反則勝ち; CSA `%±ILLEGAL_ACTION` of the
    /// other side).
    IllegalWin,
    /// The side to move loses by its foul (反則負け, `%ILLEGAL_MOVE`).
    IllegalLoss,
    /// The side to move loses by an illegal action (CSA `%+ILLEGAL_ACTION` when Black is to
    /// move, `%-ILLEGAL_ACTION` when White is; 反則負け in KIF). Kept apart from
    /// [`EndingKind::IllegalLoss`] so that CSA and JKF write back the special they read.
    IllegalAction,
    /// The side to move declares an entering-king win (入玉勝ち, `%KACHI`).
    EnteringKing,
    /// Draw (引き分け, `%HIKIWAKE`).
    Draw,
    /// No mate found, for problems (不詰, `%FUZUMI`).
    NoMate,
    /// Take-back (待った, `%MATTA`).
    Matta,
    /// Win by default (不戦勝; KIF only).
    DefaultWin,
    /// Loss by default (不戦敗; KIF only).
    DefaultLoss,
    /// An error stopped the game (`%ERROR`).
    Error,
    /// The game was adjourned with a sealed move (封じ手; CSA and JKF have no word for it
    /// and write `CHUDAN`, as json-kifu-format reads it).
    Sealed,
    /// A draw: the game reached the most moves its rules allow (CSA V3.0 `%MAX_MOVES`, which
    /// floodgate writes; JKF `MAX_MOVES`, as tsshogi writes it). KIF and KI2 have no word for
    /// it and write 持将棋, as tsshogi does, which reads back as [`EndingKind::Impasse`].
    MaxMoves,
}

impl EndingKind {
    /// The KIF word.
    pub fn kif(self) -> &'static str {
        use EndingKind::*;
        match self {
            Resign => "投了",
            Abort => "中断",
            Repetition => "千日手",
            Impasse => "持将棋",
            Mate => "詰み",
            TimeUp => "切れ負け",
            IllegalWin => "反則勝ち",
            IllegalLoss | IllegalAction => "反則負け",
            EnteringKing => "入玉勝ち",
            Draw => "引き分け",
            NoMate => "不詰",
            Matta => "待った",
            DefaultWin => "不戦勝",
            DefaultLoss => "不戦敗",
            Error => "エラー",
            Sealed => "封じ手",
            MaxMoves => "持将棋",
        }
    }

    /// The ending a KIF word names (also 時間切れ for 切れ負け, and 入玉宣言, as cshogi
    /// writes 入玉勝ち).
    pub fn from_kif(word: &str) -> Option<EndingKind> {
        use EndingKind::*;
        [
            Resign,
            Abort,
            Repetition,
            Impasse,
            Mate,
            TimeUp,
            IllegalWin,
            IllegalLoss,
            EnteringKing,
            Draw,
            NoMate,
            Matta,
            DefaultWin,
            DefaultLoss,
            Error,
            Sealed,
        ]
        .into_iter()
        .find(|k| k.kif() == word)
        .or(match word {
            "時間切れ" => Some(TimeUp),
            "入玉宣言" => Some(EnteringKing),
            _ => None,
        })
    }

    /// The CSA special move, without `%`; `side` is the side to move (for ILLEGAL_ACTION).
    /// `None` for the two KIF-only endings.
    pub fn csa(self, side: Color) -> Option<&'static str> {
        use EndingKind::*;
        Some(match self {
            Resign => "TORYO",
            Abort | Sealed => "CHUDAN",
            Repetition => "SENNICHITE",
            Impasse => "JISHOGI",
            Mate => "TSUMI",
            TimeUp => "TIME_UP",
            IllegalWin => match side {
                Color::Black => "-ILLEGAL_ACTION",
                Color::White => "+ILLEGAL_ACTION",
            },
            IllegalLoss => "ILLEGAL_MOVE",
            IllegalAction => match side {
                Color::Black => "+ILLEGAL_ACTION",
                Color::White => "-ILLEGAL_ACTION",
            },
            EnteringKing => "KACHI",
            Draw => "HIKIWAKE",
            NoMate => "FUZUMI",
            Matta => "MATTA",
            Error => "ERROR",
            MaxMoves => "MAX_MOVES",
            DefaultWin | DefaultLoss => return None,
        })
    }

    /// The ending a CSA special move (without `%`) names; `side` is the side to move.
    pub fn from_csa(word: &str, side: Color) -> Option<EndingKind> {
        use EndingKind::*;
        Some(match word {
            "TORYO" => Resign,
            "CHUDAN" => Abort,
            "SENNICHITE" => Repetition,
            "JISHOGI" => Impasse,
            "TSUMI" => Mate,
            "TIME_UP" => TimeUp,
            "ILLEGAL_MOVE" => IllegalLoss,
            "+ILLEGAL_ACTION" if side == Color::Black => IllegalAction,
            "+ILLEGAL_ACTION" => IllegalWin,
            "-ILLEGAL_ACTION" if side == Color::White => IllegalAction,
            "-ILLEGAL_ACTION" => IllegalWin,
            "KACHI" => EnteringKing,
            "HIKIWAKE" => Draw,
            "FUZUMI" => NoMate,
            "MATTA" => Matta,
            "ERROR" => Error,
            "MAX_MOVES" => MaxMoves,
            _ => return None,
        })
    }

    /// Who won, given the side to move when the game ended (`None`: nobody, or unknown).
    pub fn winner(self, side: Color) -> Option<Color> {
        use EndingKind::*;
        match self {
            Resign | Mate | TimeUp | IllegalLoss | IllegalAction | DefaultLoss => Some(side.flip()),
            IllegalWin | EnteringKing | DefaultWin => Some(side),
            _ => None,
        }
    }
}

/// The deepest nesting of variations a record may hold: a variation of a variation … 32
/// deep. Readers refuse deeper ones: a hostile file could nest thousands, and the writers of
/// nested formats go down the nesting. 32 because JKF nests each fork three JSON levels below
/// its parent's, and JSON readers stop at 128 levels (serde_json does): every record a reader
/// gives back then writes as a JKF that reads back.
pub const MAX_VARIATION_DEPTH: usize = 32;

/// The error for a variation nested deeper than [`MAX_VARIATION_DEPTH`].
pub(crate) fn nested_too_deep() -> Error {
    Error::new(
        crate::ErrorKind::TooLarge,
        format!("variations nested deeper than {MAX_VARIATION_DEPTH}"),
    )
}

/// A variation: moves that replace the line it branches from, from ply `first_ply` on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The line it branches from: 0 is the main line, `i` is `variations[i - 1]`.
    pub parent: usize,
    /// The 1-based ply of its first move (it replaces the parent's move of that ply).
    pub first_ply: u32,
    /// Its moves.
    pub moves: Vec<RecordMove>,
    /// How it ended, if the record says.
    pub ending: Option<Ending>,
}

impl Record {
    /// How deep a new variation branching off line `parent` (0: the main line) would be
    /// nested: 1 off the main line. Counted up to one past [`MAX_VARIATION_DEPTH`], so at
    /// most that many steps.
    pub(crate) fn depth_below(&self, parent: usize) -> usize {
        let mut depth = 1;
        let mut line = parent;
        // A variation's parent is always an earlier line, so this ends.
        while line != 0 && depth <= MAX_VARIATION_DEPTH {
            depth += 1;
            line = self.variations[line - 1].parent;
        }
        depth
    }

    /// Whether the record's variations nest at most [`MAX_VARIATION_DEPTH`] deep, as every
    /// reader gives them: the writers of the formats that hold variations (KIF, KI2, JKF) go
    /// down the nesting, and refuse a record built deeper.
    pub(crate) fn check_depth(&self) -> Result<(), Error> {
        for (i, v) in self.variations.iter().enumerate() {
            if v.parent > i {
                return Err(Error::new(
                    crate::ErrorKind::Unwritable,
                    format!(
                        "variation {} branches from line {}, which is not before it",
                        i + 1,
                        v.parent
                    ),
                ));
            }
            if self.depth_below(v.parent) > MAX_VARIATION_DEPTH {
                return Err(nested_too_deep().with_kind(crate::ErrorKind::Unwritable));
            }
        }
        Ok(())
    }

    /// A record of no moves from `start`.
    pub fn new(start: Position) -> Record {
        Record {
            start,
            ..Record::default()
        }
    }

    /// The warning for writing this record in a format that holds no variations (SFEN,
    /// USI, CSA, Western): what a reader of the output would miss. `None` without
    /// variations.
    ///
    /// ```
    /// use notate::shogi::kif;
    /// let record = kif::read_one("   1 ７六歩(77)\n\n変化：1手\n   1 ２六歩(27)\n").unwrap();
    /// let note = record.unwritten_variations().unwrap();
    /// assert_eq!(note.message, "1 variation(s) not written: only KIF, KI2 and JKF hold variations");
    /// ```
    pub fn unwritten_variations(&self) -> Option<crate::Error> {
        (!self.variations.is_empty()).then(|| {
            crate::Error::new(
                crate::ErrorKind::Unwritable,
                format!(
                    "{} variation(s) not written: only KIF, KI2 and JKF hold variations",
                    self.variations.len()
                ),
            )
        })
    }

    /// The warning for writing this record in a format with no place for the start's move
    /// number (CSA, JKF): what a reader of the output would miss. `None` when it is 1.
    ///
    /// ```
    /// use notate::shogi::usi;
    /// let later = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 5";
    /// let note = usi::read_one(later).unwrap().unwritten_move_number().unwrap();
    /// assert!(note.message.starts_with("the start's move number 5 is not written"));
    /// ```
    pub fn unwritten_move_number(&self) -> Option<crate::Error> {
        (self.start.ply() > 1).then(|| {
            crate::Error::new(
                crate::ErrorKind::Unwritable,
                format!(
                    "the start's move number {} is not written (CSA, JKF)",
                    self.start.ply()
                ),
            )
        })
    }

    /// The value of header `key`.
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The players for messages, `先手 – 後手` (or 下手 and 上手, a handicap game's), from the
    /// header (CSA's `N+` and `N-` are kept there too); empty when neither is known.
    ///
    /// ```
    /// use notate::shogi::kif;
    /// let record = kif::read_one("先手：羽生\n手数----指手--\n   1 ７六歩(77)\n").unwrap();
    /// assert_eq!(record.players(), "羽生 – ?");
    /// ```
    pub fn players(&self) -> String {
        // (Kifu for Windows writes `先手：` with no name: none known.)
        let name = |keys: [&str; 2]| {
            keys.iter()
                .find_map(|k| self.header_value(k).filter(|v| !v.trim().is_empty()))
        };
        crate::error::players(name(["先手", "下手"]), name(["後手", "上手"]))
    }

    /// The position after `plies` main-line moves, `None` past the end.
    pub fn position_after(&self, plies: usize) -> Option<Position> {
        if plies > self.moves.len() {
            return None;
        }
        let mut pos = self.start.clone();
        for m in &self.moves[..plies] {
            pos.play_unchecked(m.mv);
        }
        Some(pos)
    }

    /// The position at the end of the main line.
    pub fn end_position(&self) -> Position {
        self.position_after(self.moves.len())
            .expect("the main line's length")
    }

    /// The moves leading to ply `first_ply` of line `line` (0: main line): the parent chain
    /// up to the branch, then nothing of the line itself.
    pub fn moves_before(&self, line: usize, first_ply: u32) -> Vec<Move> {
        self.chain_before(line, first_ply)
            .0
            .into_iter()
            .rev()
            .flat_map(|ms| ms.iter().map(|m| m.mv))
            .collect()
    }

    /// The lines' moves leading to ply `first_ply` of line `line`, from that line's parent
    /// up (the main line's last), and whether the chain reaches the main line (a variation
    /// of ply 1 starts from the start position instead).
    fn chain_before(&self, line: usize, first_ply: u32) -> (Vec<&[RecordMove]>, bool) {
        let mut chain = Vec::new();
        let mut line = line;
        let mut upto = first_ply.saturating_sub(1);
        loop {
            let (start, moves) = match line {
                0 => (1u32, &self.moves),
                i => {
                    let v = &self.variations[i - 1];
                    (v.first_ply, &v.moves)
                }
            };
            let take = upto.saturating_sub(start - 1) as usize;
            chain.push(&moves[..take.min(moves.len())]);
            if line == 0 {
                return (chain, true);
            }
            if start <= 1 {
                return (chain, false);
            }
            upto = start - 1;
            line = self.variations[line - 1].parent;
        }
    }

    /// The position before ply `first_ply` of a variation branching off `parent`, and the
    /// destination of the move that led to it (what `同` refers to).
    pub fn position_before(&self, parent: usize, first_ply: u32) -> (Position, Option<Square>) {
        self.position_before_with(&MainLinePositions::none(self), parent, first_ply)
    }

    /// [`Record::position_before`], replayed from the nearest of `kept`'s positions of the
    /// main line instead of the start.
    pub(crate) fn position_before_with(
        &self,
        kept: &MainLinePositions,
        parent: usize,
        first_ply: u32,
    ) -> (Position, Option<Square>) {
        let (mut chain, reaches_main) = self.chain_before(parent, first_ply);
        let (mut pos, mut last_to) = (self.start.clone(), None);
        if reaches_main {
            let main = chain.pop().expect("the chain ends with the main line");
            let (from, (kept_pos, kept_to)) = kept.before(main.len());
            (pos, last_to) = (kept_pos.clone(), *kept_to);
            chain.push(&main[from..]);
        }
        for m in chain.into_iter().rev().flatten() {
            pos.play_unchecked(m.mv);
            last_to = Some(m.mv.to());
        }
        (pos, last_to)
    }

    /// Whether the side to move at the start is White (a handicap game: 上手 moves first).
    pub fn white_starts(&self) -> bool {
        self.start.side_to_move() == Color::White
    }
}

/// Every this many plies of the main line, [`MainLinePositions`] keeps the position.
const KEPT_EVERY: usize = 64;

/// Positions of a record's main line, one every [`KEPT_EVERY`] plies: the position a
/// variation starts from is replayed from the nearest one, not from the game's start (which,
/// for each of thousands of variations, made reading and writing them quadratic).
pub(crate) struct MainLinePositions(Vec<(Position, Option<Square>)>);

impl MainLinePositions {
    /// The positions of `record`'s main line as it is now.
    pub(crate) fn new(record: &Record) -> MainLinePositions {
        let mut kept = Vec::with_capacity(record.moves.len() / KEPT_EVERY + 1);
        let (mut pos, mut last_to) = (record.start.clone(), None);
        for (i, m) in record.moves.iter().enumerate() {
            if i.is_multiple_of(KEPT_EVERY) {
                kept.push((pos.clone(), last_to));
            }
            pos.play_unchecked(m.mv);
            last_to = Some(m.mv.to());
        }
        if record.moves.len().is_multiple_of(KEPT_EVERY) {
            kept.push((pos, last_to));
        }
        MainLinePositions(kept)
    }

    /// Only the start position: every position is replayed from it.
    fn none(record: &Record) -> MainLinePositions {
        MainLinePositions(vec![(record.start.clone(), None)])
    }

    /// The kept position nearest before `plies` main-line moves: how many moves it is
    /// after, and the position.
    fn before(&self, plies: usize) -> (usize, &(Position, Option<Square>)) {
        let at = (plies / KEPT_EVERY).min(self.0.len() - 1);
        (at * KEPT_EVERY, &self.0[at])
    }
}

/// Plays `mv` on `pos` as ply `ply` of a record, turning an illegal move into an error.
pub(crate) fn play_checked(
    pos: &mut Position,
    mv: Move,
    ply: u32,
    line: Option<usize>,
    written: &str,
) -> Result<Played, Error> {
    pos.play(mv)
        .map_err(|e| error::illegal(line, ply, written, e.to_string()))
}

impl Record {
    /// The variations branching off each line (index 0: the main line, `i`: variation
    /// `i - 1`), each line's in the order KIF lists them: branch points from the last to the
    /// first, alternatives at one ply in their order. Made once, in one pass: looking
    /// through every variation for each line's made a record of many take quadratic time.
    pub(crate) fn branches(&self) -> Vec<Vec<usize>> {
        let mut branches = vec![Vec::new(); self.variations.len() + 1];
        for (i, v) in self.variations.iter().enumerate() {
            if let Some(list) = branches.get_mut(v.parent) {
                list.push(i);
            }
        }
        for list in &mut branches {
            // Stable: alternatives at one ply keep their order.
            list.sort_by_key(|&i| std::cmp::Reverse(self.variations[i].first_ply));
        }
        branches
    }

    /// The indexes of the variations in the order KIF lists them: depth first, each
    /// variation followed by its own.
    pub(crate) fn listing_order(&self) -> Vec<usize> {
        let branches = self.branches();
        let mut order = Vec::with_capacity(self.variations.len());
        // The branches each open line has left to list, innermost last.
        let mut open = vec![branches[0].iter()];
        while let Some(left) = open.last_mut() {
            match left.next() {
                Some(&i) => {
                    order.push(i);
                    open.push(branches[i + 1].iter());
                }
                None => {
                    open.pop();
                }
            }
        }
        order
    }

    /// Puts the variations in the order KIF lists them (each line's branch points from the
    /// last to the first, depth first), which is the order every reader returns: records
    /// from different formats then compare equal.
    pub fn normalize_variations(&mut self) {
        let order = self.listing_order();
        if order.iter().enumerate().all(|(k, &i)| k == i) {
            return;
        }
        let mut new_index = vec![0; self.variations.len()];
        for (k, &i) in order.iter().enumerate() {
            new_index[i] = k + 1;
        }
        let old = std::mem::take(&mut self.variations);
        let mut slots: Vec<Option<Variation>> = old.into_iter().map(Some).collect();
        for &i in &order {
            let mut v = slots[i].take().expect("each once");
            if v.parent != 0 {
                v.parent = new_index[v.parent - 1];
            }
            self.variations.push(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A KIF of `plies` rook moves, with a variation at every ply of the main line from the
    /// last to the first, and one nested in the variation of ply 100.
    fn many_variations(plies: usize) -> String {
        let cycle = ["４八飛(28)", "６二飛(82)", "２八飛(48)", "８二飛(62)"];
        let mut text = String::from("手合割：平手\n");
        for k in 1..=plies {
            text += &format!("{k} {}\n", cycle[(k - 1) % 4]);
        }
        for k in (2..=plies).rev() {
            text += &format!("変化：{k}手\n{k} {}\n", cycle[(k - 1) % 4]);
            if k == 100 {
                text += &format!(
                    "{} {}\n変化：{}手\n{} {}\n",
                    k + 1,
                    cycle[k % 4],
                    k + 1,
                    k + 1,
                    cycle[k % 4]
                );
            }
        }
        text
    }

    #[test]
    fn kept_positions_give_the_positions_replayed_from_the_start() {
        for plies in [1, 63, 64, 65, 200] {
            let record = crate::shogi::kif::read_one(&many_variations(plies)).unwrap();
            let kept = MainLinePositions::new(&record);
            for v in &record.variations {
                let (want, want_to) = {
                    let mut pos = record.start.clone();
                    let mut last_to = None;
                    for mv in record.moves_before(v.parent, v.first_ply) {
                        pos.play_unchecked(mv);
                        last_to = Some(mv.to());
                    }
                    (pos, last_to)
                };
                let (got, got_to) = record.position_before_with(&kept, v.parent, v.first_ply);
                assert!(
                    got.same_position(&want),
                    "{plies} plies, variation at {}",
                    v.first_ply
                );
                assert_eq!(got_to, want_to);
            }
            assert_eq!(
                record.variations.len(),
                (plies - 1) + usize::from(plies >= 100)
            );
        }
    }
}
