//! Seeded generators of test games, so notate's test suite needs no file from outside the
//! repository.
//!
//! The games are legal (played by shakmaty, the rules library notate uses) and cover what the
//! collections of other projects gave the tests: the Seven Tag Roster and other tags (escaped
//! quotes included), standard, FEN and Chess960 starts, castling on both sides, en passant,
//! promotions and under-promotions, checks and mates, every result, lichess-style `[%clk]` and
//! `[%eval]` comments, text comments before and after moves, NAGs and glyphs, nested
//! variations, null moves, and the spellings that are not SAN (`0-0`, `e2-e4`, `e8Q`).
//!
//! The same seed gives the same text on every machine and with every dependency version
//! (the random numbers come from [`SplitMix64`], written here for that reason), so tests may
//! pin numbers computed from it.
//!
//! ```
//! let text = notate_testdata::pgn(7, 3);
//! assert_eq!(text.matches("[Event ").count(), 3);
//! assert_eq!(text, notate_testdata::pgn(7, 3));
//! ```

pub mod postgres;

pub use tempfile::TempDir;

/// A new empty directory of the test's own (`$TMPDIR/PREFIX-XXXXXX`), removed with
/// everything in it when dropped, even when the test fails: test runs leave nothing behind.
///
/// ```
/// let dir = notate_testdata::scratch_dir("notate-doc");
/// let path = dir.path().to_path_buf();
/// std::fs::write(path.join("a.pgn"), "1. e4 *").unwrap();
/// drop(dir);
/// assert!(!path.exists());
/// ```
pub fn scratch_dir(prefix: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("{prefix}-"))
        .tempdir()
        .expect("a directory in the system's temporary directory")
}

use std::fmt::Write;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

/// A small, fast random number generator whose sequence is fixed by its definition
/// (Steele, Lea and Flood, 2014). Written here rather than taken from `rand` because a
/// library's generators may change their sequences between versions, and tests pin figures
/// computed from the generated games.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent / 100`.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// A PGN file of `games` generated games (see the crate docs), separated by blank lines.
pub fn pgn(seed: u64, games: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::new();
    for number in 1..=games {
        game(&mut rng, number, &mut out);
        out.push('\n');
    }
    out
}

/// Names for the players and events, with the characters a tag value must escape.
const PLAYERS: &[&str] = &[
    "Morphy, Paul",
    "Anderssen, Adolf",
    "DrNykterstein",
    "german11",
    "german11",
    "Carlsen, Magnus",
    "Polgar, Judit",
    "O'Kelly de Galway, Alberic",
    "Smith, John \"The King\"",
    "back\\slash",
    "Łukasz Ćwik",
    "羽生善治",
];
const EVENTS: &[&str] = &[
    "Rated Blitz game",
    "Casual Correspondence game",
    "Paris Opera",
    "Tata Steel Masters 2024",
    "?",
];
const COMMENTS: &[&str] = &[
    "A fine move.",
    "Inaccuracy. Nf3 was best.",
    "The only move; everything else loses.",
    "Zugzwang!",
    "(no variation here) but brackets [like this]",
    "naïve – “quoted” text",
];

fn tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// A random Chess960 back rank: bishops on squares of both colours, the king between the
/// rooks.
fn chess960_rank(rng: &mut SplitMix64) -> String {
    let mut rank = [' '; 8];
    rank[rng.below(4) * 2] = 'b';
    rank[rng.below(4) * 2 + 1] = 'b';
    for piece in ['q', 'n', 'n'] {
        let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
        rank[rng.pick(&free)] = piece;
    }
    let mut rest = ['r', 'k', 'r'].into_iter();
    for square in rank.iter_mut().filter(|c| **c == ' ') {
        *square = rest.next().unwrap_or('r');
    }
    rank.iter().collect()
}

/// Where a game starts: the standard position, a position reached by play (with its FEN),
/// or a Chess960 start.
fn start(rng: &mut SplitMix64) -> (Chess, Option<String>, bool) {
    match rng.below(100) {
        0..=84 => (Chess::default(), None, false),
        85..=92 => {
            let mut pos = Chess::default();
            for _ in 0..rng.below(40) + 1 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = choose(rng, &pos, &moves);
                pos.play_unchecked(mv);
            }
            let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            (pos, Some(fen), false)
        }
        _ => {
            let rank = chess960_rank(rng);
            let fen = format!(
                "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
                rank,
                rank.to_ascii_uppercase()
            );
            let pos = fen
                .parse::<Fen>()
                .expect("a generated Chess960 FEN")
                .into_position(CastlingMode::Chess960)
                .expect("a legal Chess960 start");
            (pos, Some(fen), true)
        }
    }
}

/// Opening lines (SAN), so that positions repeat across games as they do in real collections.
const OPENINGS: &[&[&str]] = &[
    &[
        "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3",
        "Be6", "f3", "Be7",
    ],
    &[
        "d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "e3", "O-O", "Bd3", "d5", "Nf3", "c5", "O-O", "dxc4",
    ],
    &[
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    ],
    &[
        "c4", "e5", "Nc3", "Nf6", "Nf3", "Nc6", "g3", "d5", "cxd5", "Nxd5", "Bg2", "Nb6",
    ],
];

/// A legal move, drawn with a taste for what makes a test interesting: mates, castling, en
/// passant, promotions and captures are taken more often than chance would.
fn choose(rng: &mut SplitMix64, pos: &Chess, moves: &[Move]) -> Move {
    let mates: Vec<&Move> = moves
        .iter()
        .filter(|m| {
            let mut after = pos.clone();
            after.play_unchecked(**m);
            after.is_checkmate()
        })
        .collect();
    if !mates.is_empty() && rng.chance(80) {
        return *rng.pick(&mates);
    }
    let special: Vec<&Move> = moves
        .iter()
        .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
        .collect();
    if !special.is_empty() && rng.chance(70) {
        return *rng.pick(&special);
    }
    let captures: Vec<&Move> = moves.iter().filter(|m| m.is_capture()).collect();
    if !captures.is_empty() && rng.chance(30) {
        return *rng.pick(&captures);
    }
    rng.pick(moves)
}

/// How a move is spelled: SAN most of the time, sometimes the spellings readers must also
/// accept.
fn spell(rng: &mut SplitMix64, pos: &Chess, mv: Move) -> String {
    let san = SanPlus::from_move(pos.clone(), mv);
    let text = san.to_string();
    match rng.below(100) {
        0..=1 if mv.is_castle() => text.replace('O', "0"),
        2..=3 if !mv.is_castle() => {
            let (from, to) = (mv.from().expect("a board move"), mv.to());
            let piece = match mv.role() {
                Role::Pawn => String::new(),
                role => role.upper_char().to_string(),
            };
            let sep = if mv.is_capture() { 'x' } else { '-' };
            let promotion = mv
                .promotion()
                .map(|r| format!("={}", r.upper_char()))
                .unwrap_or_default();
            let suffix = san.suffix.map(|s| s.char().to_string()).unwrap_or_default();
            format!("{piece}{from}{sep}{to}{promotion}{suffix}")
        }
        4..=5 if mv.is_promotion() => text.replacen('=', "", 1),
        _ => text,
    }
}

/// Writes movetext tokens, wrapping lines before 80 columns (a comment is never broken).
struct Movetext {
    text: String,
    column: usize,
}

impl Movetext {
    fn token(&mut self, token: &str) {
        if self.column > 0 && self.column + 1 + token.chars().count() > 79 {
            self.text.push('\n');
            self.column = 0;
        } else if self.column > 0 {
            self.text.push(' ');
            self.column += 1;
        }
        self.text.push_str(token);
        self.column += token.chars().count();
    }
}

/// The state of the clocks, in seconds, for `[%clk]` comments.
struct Clocks {
    left: [u32; 2],
    on: bool,
    evals: bool,
}

fn game(rng: &mut SplitMix64, number: usize, out: &mut String) {
    let (mut pos, fen, chess960) = start(rng);
    tag(out, "Event", rng.pick(EVENTS));
    tag(out, "Site", "https://example.invalid/notate");
    // Six months in all, so that stores partitioned by month get many games a partition.
    let year = rng.pick(&[1858, 2016, 2025]);
    let date = format!("{year}.{:02}.{:02}", rng.pick(&[1, 5]), rng.below(28) + 1);
    tag(out, "Date", &date);
    tag(out, "Round", &number.to_string());
    tag(out, "White", rng.pick(PLAYERS));
    tag(out, "Black", rng.pick(PLAYERS));
    // The result is known only at the end: the movetext is written first, then the tags.
    let mut tags = String::new();
    if rng.chance(40) {
        tag(&mut tags, "WhiteElo", &(1000 + rng.below(1900)).to_string());
        tag(&mut tags, "BlackElo", &(1000 + rng.below(1900)).to_string());
    }
    let base = rng.pick(&[60u32, 180, 300, 600, 5400]);
    let clocks = Clocks {
        left: [base, base],
        on: rng.chance(40),
        evals: rng.chance(30),
    };
    if clocks.on {
        tag(
            &mut tags,
            "TimeControl",
            &format!("{base}+{}", rng.below(3)),
        );
    }
    if rng.chance(20) {
        tag(
            &mut tags,
            "Opening",
            "Sicilian Defense: Najdorf Variation, English Attack",
        );
        tag(&mut tags, "ECO", "B90");
    }
    if chess960 {
        tag(&mut tags, "Variant", "Chess960");
    }
    if let Some(fen) = &fen {
        tag(&mut tags, "SetUp", "1");
        tag(&mut tags, "FEN", fen);
    }
    let mut plies = match rng.below(100) {
        0..=4 => rng.below(10),
        5..=74 => 20 + rng.below(100),
        _ => 120 + rng.below(280),
    };
    let mut text = Movetext {
        text: String::new(),
        column: 0,
    };
    if rng.chance(10) {
        text.token(&format!("{{{}}}", rng.pick(COMMENTS)));
    }
    let mut clocks = clocks;
    if fen.is_none() && rng.chance(40) {
        let opening = rng.pick(OPENINGS);
        let length = (opening.len() - rng.below(4)).min(plies);
        book(&mut pos, &opening[..length], &mut text);
        plies -= length;
    }
    let null_at = if rng.chance(2) {
        Some(rng.below(plies.max(1)))
    } else {
        None
    };
    line(rng, &mut pos, plies, 0, null_at, &mut clocks, &mut text);
    let result = if pos.is_checkmate() {
        if pos.turn() == Color::White {
            "0-1"
        } else {
            "1-0"
        }
    } else if pos.is_stalemate() || pos.is_insufficient_material() {
        "1/2-1/2"
    } else {
        rng.pick(&["1-0", "0-1", "1/2-1/2", "*"])
    };
    tag(out, "Result", result);
    out.push_str(&tags);
    out.push('\n');
    text.token(result);
    if rng.chance(3) {
        text.token(&format!("{{{}}}", rng.pick(COMMENTS)));
    }
    out.push_str(&text.text);
    out.push('\n');
}

/// Plays and writes the moves of an opening line.
fn book(pos: &mut Chess, line: &[&str], text: &mut Movetext) {
    for san in line {
        if pos.turn() == Color::White {
            text.token(&format!("{}.", pos.fullmoves()));
        }
        let mv = san
            .parse::<shakmaty::san::San>()
            .expect("SAN in the opening book")
            .to_move(pos)
            .expect("a legal move in the opening book");
        text.token(san);
        pos.play_unchecked(mv);
    }
}

/// Plays and writes up to `plies` moves from `pos`, with annotations and, above `depth` 2,
/// no further variations. `pos` ends as the line's last position.
fn line(
    rng: &mut SplitMix64,
    pos: &mut Chess,
    plies: usize,
    depth: usize,
    null_at: Option<usize>,
    clocks: &mut Clocks,
    text: &mut Movetext,
) {
    let mut need_number = true;
    for ply in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let number = pos.fullmoves().get();
        if pos.turn() == Color::White {
            text.token(&format!("{number}."));
        } else if need_number {
            text.token(&format!("{number}..."));
        }
        need_number = false;
        if null_at == Some(ply) && !pos.is_check() {
            text.token("--");
            *pos = pos.clone().swap_turn().expect("not in check");
            need_number = true;
            continue;
        }
        let before = pos.clone();
        let mv = choose(rng, pos, &moves);
        let mut written = spell(rng, pos, mv);
        match rng.below(100) {
            0..=2 => written.push_str(rng.pick(&["!", "?", "!?", "?!", "!!", "??"])),
            3..=5 => {
                text.token(&written);
                written = format!("${}", rng.below(20) + 1);
            }
            _ => {}
        }
        text.token(&written);
        pos.play_unchecked(mv);
        if depth == 0 && clocks.on {
            let side = usize::from(before.turn() == Color::Black);
            clocks.left[side] = clocks.left[side].saturating_sub(rng.below(8) as u32);
            let left = clocks.left[side];
            let clock = format!(
                "[%clk {}:{:02}:{:02}]",
                left / 3600,
                left / 60 % 60,
                left % 60
            );
            let comment = if clocks.evals {
                if rng.chance(5) {
                    format!("{{ [%eval #{}] {clock} }}", rng.below(9) as i32 - 4)
                } else {
                    let eval = rng.below(1000) as f64 / 100.0 - 5.0;
                    format!("{{ [%eval {eval:.2}] {clock} }}")
                }
            } else {
                format!("{{ {clock} }}")
            };
            text.token(&comment);
            need_number = true;
        } else if rng.chance(3) {
            text.token(&format!("{{{}}}", rng.pick(COMMENTS)));
            need_number = true;
        }
        if depth < 2 && rng.chance(if depth == 0 { 5 } else { 2 }) {
            // A variation replaces the move just played: it starts from the position before.
            text.token("(");
            let mut side = before;
            let length = 1 + rng.below(8);
            line(rng, &mut side, length, depth + 1, None, clocks, text);
            text.token(")");
            need_number = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_text_other_seed_other_text() {
        assert_eq!(pgn(1, 20), pgn(1, 20));
        assert_ne!(pgn(1, 20), pgn(2, 20));
    }

    #[test]
    fn splitmix_is_the_published_sequence() {
        // The first outputs for seed 1234567, as in the reference implementation.
        let mut rng = SplitMix64::new(1234567);
        assert_eq!(rng.next_u64(), 6457827717110365317);
        assert_eq!(rng.next_u64(), 3203168211198807973);
    }

    #[test]
    fn chess960_ranks_are_legal_starts() {
        let mut rng = SplitMix64::new(9);
        for _ in 0..200 {
            let rank = chess960_rank(&mut rng);
            let king = rank.find('k').unwrap();
            assert!(rank.find('r').unwrap() < king && king < rank.rfind('r').unwrap());
            let bishops: Vec<usize> = rank.match_indices('b').map(|(i, _)| i).collect();
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2);
        }
    }
}
