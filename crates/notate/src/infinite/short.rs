//! ICN, the short form: `[Event "…"] w 0/100 1 (8|1) K5,1+|k5,8+ 5,1>5,2|5,8>5,7`.
//!
//! Hand-written, byte by byte: no crate reads ICN, and the reference's approach (regular
//! expressions over whitespace-split tokens) is what makes it drop or misread moves.
//!
//! A text holds one game. Written, a game is the reference's text (which never ends with
//! blanks) and a newline.

use super::coord::{Coord, Int};
use super::error::{self, Error};
use super::game::{
    Game, Move, MoveRule, Position, Presets, PromotionRule, Promotions, Ray, RuleKey, TopKey,
    WinCondition, WinConditions, WorldBorder,
};
use super::piece::{Piece, PieceKind, Player};
use crate::format::{read_format, utf8, write_verbs, WriteFormat};

/// Reads an ICN string of either dialect (2024 reference or 2025 site converter).
///
/// The header sections (turn, en passant, move rule, full move, promotions, world border,
/// win conditions, JSON rules, `Squares:` and `Rays:` presets) may come in any order, each at
/// most once, after the tags and before the position and the moves. Anything the grammar does
/// not know is an error that names its line and column, and so is what the site's converter
/// refuses: an empty text, a tag whose value holds `"`, a number with leading zeros or `-0`,
/// full move 0, a move-rule counter above its limit.
///
/// ```
/// use notate::infinite::{short, Coord};
/// let game = short::read_one("[Variant \"Classical\"]\n\nw 8,3 0/100 1 K5,1+|k5,8 1. K5,1 > 4,1 {fine} | k5,8 > 5,7").unwrap();
/// assert_eq!(game.metadata, [("Variant".to_string(), "Classical".to_string())]);
/// assert_eq!(game.en_passant, Some(Coord::new(8, 3)));
/// let moves = game.moves.unwrap();
/// assert_eq!(moves[0].notes.as_ref().unwrap().comment.as_deref(), Some("fine"));
///
/// let err = short::read_one("w K1,1|XX2,2").unwrap_err();
/// assert_eq!(err.to_string(), "line 1, column 8 \"XX2,2\": unknown piece code \"XX\"");
/// ```
pub(crate) fn parse(text: &str) -> Result<Game, Error> {
    Parser::new(text).run()
}

/// Reads one move: `2,7>1,8Q`, `2,7>1,8=Q`, `P2,7x1,8=Q+`.
///
/// ```
/// use notate::infinite::{short, Coord, PieceKind};
/// let mv = short::parse_move("2,-3>2,-4ha").unwrap();
/// assert_eq!(mv.to, Coord::new(2, -4));
/// assert_eq!(mv.promotion.unwrap().kind, PieceKind::Hawk);
/// assert!(short::parse_move("1,2>3").is_err());
/// ```
pub fn parse_move(text: &str) -> Result<Move, Error> {
    Parser::new(text).parse_whole(Parser::parse_move, "the move")
}

/// Reads a piece list: `K5,1+|k5,8+|P1,2+`.
///
/// ```
/// use notate::infinite::{short, Coord};
/// let position = short::parse_position("K5,1+|k5,8").unwrap();
/// assert!(position.has_special_right(&Coord::new(5, 1)));
/// ```
pub fn parse_position(text: &str) -> Result<Position, Error> {
    Parser::new(text).parse_whole(Parser::parse_position, "the position")
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    game: Game,
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            s: text.as_bytes(),
            pos: 0,
            game: Game::default(),
        }
    }

    /// Runs one part of the grammar, which must take the whole text.
    fn parse_whole<T>(
        mut self,
        part: impl FnOnce(&mut Self) -> Result<T, Error>,
        what: &str,
    ) -> Result<T, Error> {
        let value = part(&mut self)?;
        if self.pos != self.s.len() {
            return Err(self.err(format!("unexpected text after {what}")));
        }
        Ok(value)
    }

    fn err(&self, message: impl Into<String>) -> Error {
        error::syntax(self.s, self.pos, message)
    }

    fn err_at(&self, offset: usize, message: impl Into<String>) -> Error {
        error::syntax(self.s, offset, message)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.s.get(self.pos + offset).copied()
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(is_blank) {
            self.pos += 1;
        }
    }

    /// At a blank or the end: where a section must stop.
    fn at_section_end(&self) -> bool {
        self.peek().is_none_or(is_blank)
    }

    fn letters_len(&self, from: usize) -> usize {
        self.s[from..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count()
    }

    fn digits_len(&self, from: usize) -> usize {
        self.s[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    }

    fn run(mut self) -> Result<Game, Error> {
        // A byte-order mark is not text.
        if self.s.starts_with(b"\xEF\xBB\xBF") {
            self.pos = 3;
        }
        self.skip_blanks();
        if self.pos == self.s.len() {
            // The site: "ICN is empty." (notate once read it as `w 1`).
            return Err(self.err("the ICN is empty"));
        }
        while self.peek() == Some(b'[') {
            self.parse_tag()?;
            self.skip_blanks();
        }
        loop {
            self.skip_blanks();
            let Some(b) = self.peek() else { break };
            let start = self.pos;
            match b {
                b'[' => {
                    return Err(self.err("a tag must come before the other sections"));
                }
                b'{' => self.parse_extra_rules()?,
                b'(' => self.parse_parenthesised()?,
                b'_' => self.parse_world_border()?,
                b'a'..=b'z' | b'A'..=b'Z' => {
                    let letters = self.letters_len(start);
                    let next = self.s.get(start + letters).copied();
                    if next.is_some_and(|c| c.is_ascii_digit() || c == b'-') {
                        self.parse_position_or_moves()?;
                        continue;
                    }
                    let word = &self.s[start..start + letters];
                    if next == Some(b':') && (word == b"Squares" || word == b"Rays") {
                        self.parse_presets(word == b"Squares")?;
                    } else if (word == b"w" || word == b"b")
                        && next.is_none_or(|c| is_blank(c) || c == b':')
                    {
                        self.parse_turn()?;
                    } else {
                        self.parse_win_conditions()?;
                    }
                }
                b'0'..=b'9' | b'-' => {
                    let digits = self.digits_len(start);
                    let after = self.s.get(start + digits).copied();
                    if digits > 0 && after == Some(b'/') {
                        self.parse_move_rule()?;
                    } else if digits > 0 && after == Some(b'.') {
                        self.parse_moves()?;
                    } else if digits > 0 && after.is_none_or(is_blank) {
                        self.parse_full_move()?;
                    } else if Int::parse_prefix(&self.s[start..])
                        .is_some_and(|(_, len)| self.s[start + len..].starts_with(b",_"))
                    {
                        // `5,_,0,0`: a world border with an unbounded right edge.
                        self.parse_world_border()?;
                    } else {
                        // A square: en passant, a world border or the first move.
                        let Some((_, len)) = Coord::parse_prefix(&self.s[start..]) else {
                            return Err(self.no_square(start));
                        };
                        let after = self.s.get(start + len).copied();
                        if after == Some(b',') {
                            self.parse_world_border()?;
                        } else if self.move_follows(start + len) {
                            self.parse_moves()?;
                        } else {
                            self.parse_en_passant()?;
                        }
                    }
                }
                _ => return Err(self.err("unexpected character")),
            }
            if !self.at_section_end() {
                return Err(self.err("a section must end with a blank"));
            }
        }
        self.finish();
        Ok(self.game)
    }

    fn finish(&mut self) {
        if self.game.win_conditions.is_none() {
            // The reference fills in the default last, after any JSON rules.
            self.game.win_conditions = Some(WinConditions::checkmate());
            self.game.layout.add_rule(RuleKey::WinConditions);
        }
    }

    /// After a square ending at `at`: blanks, then `>` or `x` (so it starts a move).
    fn move_follows(&self, at: usize) -> bool {
        let mut i = at;
        while self.s.get(i).copied().is_some_and(is_blank) {
            i += 1;
        }
        matches!(self.s.get(i), Some(b'>' | b'x'))
    }

    fn parse_tag(&mut self) -> Result<(), Error> {
        let open = self.pos;
        let Some(close) = memchr::memchr(b']', &self.s[open..]).map(|i| open + i) else {
            return Err(self.err("this tag is never closed with `]`"));
        };
        // `[Key "Value"]`; a value holds anything but `"]`.
        let key_start = open + 1;
        let key_len = self.s[key_start..]
            .iter()
            .take_while(|&&b| !is_blank(b) && !matches!(b, b'"' | b']' | b':' | b'['))
            .count();
        let key_end = key_start + key_len;
        if key_len == 0 {
            return Err(self.err_at(key_start, "a tag needs a key"));
        }
        let key = self.utf8(key_start, key_end)?;
        let mut i = key_end;
        if self.s[i] == b':' {
            // The old form `[Key: value]` (and `[Key]` below), still read.
            i += 1;
            if self.s.get(i) == Some(&b' ') {
                i += 1;
            }
            let value = self.utf8(i, close)?;
            self.push_tag(open, key, value)?;
            self.pos = close + 1;
            return Ok(());
        }
        if i == close {
            self.push_tag(open, key, String::new())?;
            self.pos = close + 1;
            return Ok(());
        }
        while self.s.get(i).copied().is_some_and(is_blank) {
            i += 1;
        }
        if self.s.get(i) != Some(&b'"') {
            return Err(self.err_at(i, "expected `\"` before the tag's value"));
        }
        let value_start = i + 1;
        // The value ends at the next `"`, which `]` must follow: a value with a `"` in it
        // (`[Event "x"9] [Site "y"]`) would otherwise swallow the next tag, and the site's
        // converter refuses it.
        let Some(value_end) = memchr::memchr(b'"', &self.s[value_start..]).map(|j| value_start + j)
        else {
            return Err(self.err_at(value_start, "this tag's value never ends with `\"`"));
        };
        if self.s.get(value_end + 1) != Some(&b']') {
            return Err(self.err_at(
                value_end + 1,
                "expected `]` after the tag's value (a value holds no `\"`)",
            ));
        }
        let value = self.utf8(value_start, value_end)?;
        self.push_tag(open, key, value)?;
        self.pos = value_end + 2;
        Ok(())
    }

    fn push_tag(&mut self, at: usize, key: String, value: String) -> Result<(), Error> {
        if self.game.metadata.iter().any(|(k, _)| *k == key) {
            return Err(self.err_at(at, format!("tag {key:?} given twice")));
        }
        self.game.metadata.push((key, value));
        Ok(())
    }

    fn utf8(&self, from: usize, to: usize) -> Result<String, Error> {
        std::str::from_utf8(&self.s[from..to])
            .map(str::to_owned)
            .map_err(|_| self.err_at(from, "not UTF-8"))
    }

    fn before_position(&self, what: &str) -> Result<(), Error> {
        if self.game.position.is_some() {
            return Err(self.err(format!("{what} must come before the position")));
        }
        Ok(())
    }

    fn parse_turn(&mut self) -> Result<(), Error> {
        self.before_position("the turn")?;
        if self.game.turn.is_some() {
            return Err(self.err("the turn is given twice"));
        }
        let start = self.pos;
        let mut players = Vec::new();
        loop {
            let len = self.letters_len(self.pos);
            let player = match &self.s[self.pos..self.pos + len] {
                b"w" => Player::White,
                b"b" => Player::Black,
                _ => return Err(self.err("only the players w and b are supported in a turn order")),
            };
            players.push(player);
            self.pos += len;
            if self.peek() == Some(b':') {
                self.pos += 1;
            } else {
                break;
            }
        }
        // 2025: `w:b` is the full order; `w` abbreviates it.
        if players.len() > 2 || (players.len() == 2 && players[0] == players[1]) {
            return Err(self.err_at(start, "a turn order is `w`, `b`, `w:b` or `b:w`"));
        }
        self.game.turn = Some(players[0]);
        self.game.layout.add(TopKey::Turn);
        Ok(())
    }

    fn parse_en_passant(&mut self) -> Result<(), Error> {
        self.before_position("the en passant square")?;
        if self.game.en_passant.is_some() {
            return Err(self.err("the en passant square is given twice"));
        }
        let square = self.parse_square()?;
        self.game.en_passant = Some(square);
        self.game.layout.add(TopKey::EnPassant);
        Ok(())
    }

    fn parse_u64(&mut self) -> Result<u64, Error> {
        self.check_int(self.pos)?;
        let len = self.digits_len(self.pos);
        let text = std::str::from_utf8(&self.s[self.pos..self.pos + len]).expect("digits");
        let n = text
            .parse::<u64>()
            .map_err(|_| self.err("expected a whole number below 2^64"))?;
        self.pos += len;
        Ok(n)
    }

    fn parse_move_rule(&mut self) -> Result<(), Error> {
        self.before_position("the move rule")?;
        if self.game.move_rule.is_some() {
            return Err(self.err("the move rule is given twice"));
        }
        let start = self.pos;
        let counter = self.parse_u64()?;
        self.pos += 1; // '/'
        if self.digits_len(self.pos) == 0 {
            return Err(self.err("expected the move rule's limit after `/`"));
        }
        let limit_at = self.pos;
        let limit = self.parse_u64()?;
        if limit == 0 {
            return Err(self.err_at(limit_at, "the move rule's limit is at least 1"));
        }
        if counter > limit {
            return Err(self.err_at(
                start,
                format!("the move rule's counter {counter} is above its limit {limit}"),
            ));
        }
        self.game.move_rule = Some(MoveRule { counter, limit });
        self.game.layout.add(TopKey::MoveRule);
        Ok(())
    }

    fn parse_full_move(&mut self) -> Result<(), Error> {
        self.before_position("the full-move number")?;
        if self.game.full_move.is_some() {
            return Err(self.err("the full-move number is given twice"));
        }
        let start = self.pos;
        let n = self.parse_u64()?;
        if n == 0 {
            return Err(self.err_at(start, "the full-move number starts at 1"));
        }
        self.game.full_move = Some(n);
        self.game.layout.add(TopKey::FullMove);
        Ok(())
    }

    /// `(8;Q,R|1;q,r)` promotions or `(checkmate|koth)` win conditions: promotion parts are
    /// empty or start with a rank, win-condition parts with a letter.
    fn parse_parenthesised(&mut self) -> Result<(), Error> {
        // A side with no win condition is empty (`(|allpiecescaptured)`, as notate writes
        // it): then Black's part tells (found by fuzzing).
        let first = match self.peek_at(1) {
            Some(b'|') => self.peek_at(2),
            other => other,
        };
        if first.is_some_and(|b| b.is_ascii_alphabetic()) {
            self.parse_win_conditions()
        } else {
            self.parse_promotions()
        }
    }

    fn parse_promotions(&mut self) -> Result<(), Error> {
        self.before_position("the promotions")?;
        if self.game.promotions.is_some() {
            return Err(self.err("the promotions are given twice"));
        }
        self.pos += 1; // '('
        let white = self.parse_promotion_side()?;
        if self.peek() != Some(b'|') {
            return Err(self.err("expected `|` between White's and Black's promotions"));
        }
        self.pos += 1;
        let black = self.parse_promotion_side()?;
        if self.peek() != Some(b')') {
            return Err(self.err("expected `)` after Black's promotions"));
        }
        self.pos += 1;
        self.game.promotions = Some(Promotions { white, black });
        self.game.layout.add_rule(RuleKey::PromotionRanks);
        self.game.layout.add_rule(RuleKey::PromotionsAllowed);
        Ok(())
    }

    fn parse_promotion_side(&mut self) -> Result<Option<PromotionRule>, Error> {
        if matches!(self.peek(), Some(b'|' | b')')) {
            return Ok(None);
        }
        let mut ranks = Vec::new();
        loop {
            let Some(rank) = self.int()? else {
                return Err(self.err("expected a promotion rank"));
            };
            ranks.push(rank);
            if self.peek() == Some(b',') {
                self.pos += 1;
            } else {
                break;
            }
        }
        let mut pieces = PromotionRule::DEFAULT_PIECES.to_vec();
        if self.peek() == Some(b';') {
            self.pos += 1;
            pieces.clear();
            while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                let len = self.letters_len(self.pos);
                let code = &self.s[self.pos..self.pos + len];
                match PieceKind::from_code(code) {
                    Some(kind) if !kind.is_neutral() && kind != PieceKind::Pawn => {
                        pieces.push(kind)
                    }
                    _ => {
                        return Err(self.err(format!(
                            "a pawn cannot promote to {:?}",
                            String::from_utf8_lossy(code)
                        )))
                    }
                }
                self.pos += len;
                if self.peek() == Some(b',') {
                    self.pos += 1;
                }
            }
        }
        Ok(Some(PromotionRule { ranks, pieces }))
    }

    fn parse_win_conditions(&mut self) -> Result<(), Error> {
        self.before_position("the win conditions")?;
        if self.game.win_conditions.is_some() {
            return Err(self.err("the win conditions are given twice"));
        }
        let parenthesised = self.peek() == Some(b'(');
        if parenthesised {
            self.pos += 1;
        }
        let white = self.parse_win_list()?;
        let black = if self.peek() == Some(b'|') {
            self.pos += 1;
            self.parse_win_list()?
        } else {
            white.clone()
        };
        if parenthesised {
            if self.peek() != Some(b')') {
                return Err(self.err("expected `)` after the win conditions"));
            }
            self.pos += 1;
        }
        self.game.win_conditions = Some(WinConditions { white, black });
        self.game.layout.add_rule(RuleKey::WinConditions);
        Ok(())
    }

    fn parse_win_list(&mut self) -> Result<Vec<WinCondition>, Error> {
        let mut list = Vec::new();
        loop {
            let len = self.letters_len(self.pos);
            let name = std::str::from_utf8(&self.s[self.pos..self.pos + len]).expect("ASCII");
            if len == 0 && list.is_empty() && matches!(self.peek(), Some(b'|' | b')')) {
                // An empty side of `(…|…)`: that side has no way to win.
                return Ok(list);
            }
            let Some(condition) = WinCondition::from_name(name) else {
                return Err(self.err(if len == 0 {
                    "expected a win condition".to_string()
                } else {
                    format!("unknown win condition {name:?}")
                }));
            };
            list.push(condition);
            self.pos += len;
            if self.peek() == Some(b',') {
                self.pos += 1;
            } else {
                return Ok(list);
            }
        }
    }

    fn parse_extra_rules(&mut self) -> Result<(), Error> {
        self.before_position("the JSON rules")?;
        if !self.game.extra_rules.is_empty() {
            return Err(self.err("the JSON rules are given twice"));
        }
        let mut values = serde_json::Deserializer::from_slice(&self.s[self.pos..])
            .into_iter::<serde_json::Map<String, serde_json::Value>>();
        let rules = match values.next() {
            Some(Ok(map)) => map,
            Some(Err(e)) => {
                return Err(self.err(format!("the JSON rules are not a JSON object: {e}")))
            }
            None => return Err(self.err("expected a JSON object")),
        };
        for key in rules.keys() {
            if matches!(
                key.as_str(),
                "promotionRanks" | "promotionsAllowed" | "winConditions" | "worldBorder"
            ) {
                return Err(self.err(format!("{key:?} has its own section, not a JSON rule")));
            }
            self.game.layout.add_rule(RuleKey::Extra(key.clone()));
        }
        self.pos += values.byte_offset();
        self.game.extra_rules = rules;
        Ok(())
    }

    /// `left,right,bottom,top`, each a number or `_` (unbounded).
    fn parse_world_border(&mut self) -> Result<(), Error> {
        self.before_position("the world border")?;
        if self.game.world_border.is_some() {
            return Err(self.err("the world border is given twice"));
        }
        let start = self.pos;
        let mut edges = Vec::with_capacity(4);
        loop {
            if self.peek() == Some(b'_') {
                self.pos += 1;
                edges.push(None);
            } else if let Some(n) = self.int()? {
                edges.push(Some(n));
            } else {
                return Err(self.err("expected a number or `_` in the world border"));
            }
            if self.peek() == Some(b',') && edges.len() < 4 {
                self.pos += 1;
            } else {
                break;
            }
        }
        if edges.len() != 4 {
            return Err(self.err_at(start, "a world border is `left,right,bottom,top`"));
        }
        let mut edges = edges.into_iter();
        let mut next = || edges.next().expect("four edges");
        self.game.world_border = Some(WorldBorder {
            left: next(),
            right: next(),
            bottom: next(),
            top: next(),
        });
        self.game.layout.add_rule(RuleKey::WorldBorder);
        Ok(())
    }

    fn parse_piece_code(&mut self) -> Result<Piece, Error> {
        let len = self.letters_len(self.pos);
        let code = &self.s[self.pos..self.pos + len];
        let piece = Piece::from_code(code).ok_or_else(|| {
            self.err(format!(
                "unknown piece code {:?}",
                String::from_utf8_lossy(code)
            ))
        })?;
        self.pos += len;
        Ok(piece)
    }

    /// A number has no leading zeros and is not `-0`, as the site's converter requires (the
    /// 2024 reference kept such text as it was, so `01,1` and `1,1` were two squares).
    fn check_int(&self, at: usize) -> Result<(), Error> {
        let digits = at + usize::from(self.s.get(at) == Some(&b'-'));
        if self.s.get(digits) != Some(&b'0') {
            return Ok(());
        }
        if self.s.get(digits + 1).is_some_and(|b| b.is_ascii_digit()) {
            return Err(self.err_at(at, "a number is written without leading zeros"));
        }
        if digits > at {
            return Err(self.err_at(at, "`-0` is written 0"));
        }
        Ok(())
    }

    /// An integer here, if there is one.
    fn int(&mut self) -> Result<Option<Int>, Error> {
        let Some((n, len)) = Int::parse_prefix(&self.s[self.pos..]) else {
            if Int::too_long_at(&self.s[self.pos..]) {
                return Err(error::too_long(self.err_at(self.pos, "")));
            }
            return Ok(None);
        };
        self.check_int(self.pos)?;
        self.pos += len;
        Ok(Some(n))
    }

    /// Why no square `x,y` reads at `at`: one of its numbers is too long, or it is no square.
    fn no_square(&self, at: usize) -> Error {
        let x = &self.s[at..];
        let digits = x
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'-')
            .count();
        if Int::too_long_at(x) {
            error::too_long(self.err_at(at, ""))
        } else if x.get(digits) == Some(&b',') && Int::too_long_at(&x[digits + 1..]) {
            error::too_long(self.err_at(at + digits + 1, ""))
        } else {
            self.err_at(at, "expected a square `x,y`")
        }
    }

    fn parse_square(&mut self) -> Result<Coord, Error> {
        let start = self.pos;
        let x = self.int()?;
        let y = if x.is_some() && self.peek() == Some(b',') {
            self.pos += 1;
            self.int()?
        } else {
            None
        };
        match (x, y) {
            (Some(x), Some(y)) => Ok(Coord { x, y }),
            _ => Err(self.err_at(start, "expected a square `x,y`")),
        }
    }

    /// `Squares:x,y|x,y` or `Rays:x,y>dx,dy|x,y>dx,dy` (2025): highlights of the board.
    fn parse_presets(&mut self, squares: bool) -> Result<(), Error> {
        let name = if squares { "Squares:" } else { "Rays:" };
        self.before_position(&format!("the `{name}` section"))?;
        let presets = self.game.presets.get_or_insert_with(Presets::default);
        if (squares && presets.squares.is_some()) || (!squares && presets.rays.is_some()) {
            return Err(self.err(format!("the `{name}` section is given twice")));
        }
        self.pos += name.len();
        let (mut found, mut rays) = (Vec::new(), Vec::new());
        loop {
            let start = self.parse_square()?;
            if squares {
                found.push(start);
            } else {
                if self.peek() != Some(b'>') {
                    return Err(self.err("expected `>` between a ray's start and its step"));
                }
                self.pos += 1;
                let vector = self.parse_square()?;
                rays.push(Ray { start, vector });
            }
            if self.peek() == Some(b'|') {
                self.pos += 1;
            } else {
                break;
            }
        }
        let presets = self.game.presets.get_or_insert_with(Presets::default);
        if squares {
            presets.squares = Some(found);
        } else {
            presets.rays = Some(rays);
        }
        self.game.layout.add(TopKey::PresetAnnotes);
        Ok(())
    }

    /// A position token, or the first move when what follows the first square is a move.
    fn parse_position_or_moves(&mut self) -> Result<(), Error> {
        let start = self.pos;
        self.parse_piece_code()?;
        self.parse_square()?;
        let follows = self.move_follows(self.pos);
        self.pos = start;
        if follows {
            return self.parse_moves();
        }
        if self.game.position.is_some() {
            return Err(self.err("a second position (or a move without `>`)"));
        }
        let position = self.parse_position()?;
        self.game.position = Some(position);
        self.game.layout.add(TopKey::SpecialRights);
        self.game.layout.add(TopKey::StartingPosition);
        self.game.layout.add(TopKey::ShortPosition);
        Ok(())
    }

    fn parse_position(&mut self) -> Result<Position, Error> {
        let mut position = Position::new();
        loop {
            let entry = self.pos;
            let piece = self.parse_piece_code()?;
            let square = self.parse_square()?;
            if self.peek() == Some(b'+') {
                self.pos += 1;
                position.set_special_right(square.clone());
            }
            if position.insert(square.clone(), piece).is_some() {
                return Err(self.err_at(entry, format!("two pieces on {square}")));
            }
            match self.peek() {
                Some(b'|') => self.pos += 1,
                None => break,
                Some(b) if is_blank(b) => break,
                Some(_) => {
                    return Err(self.err("expected `|` or a blank after a piece of the position"))
                }
            }
        }
        Ok(position)
    }

    /// Moves to the end of the text: moves separated by `|` or blanks, move numbers (`12.`,
    /// `1. ...`), comments after a move.
    fn parse_moves(&mut self) -> Result<(), Error> {
        let mut moves: Vec<Move> = Vec::new();
        loop {
            while self.peek().is_some_and(|b| is_blank(b) || b == b'|') {
                self.pos += 1;
            }
            let Some(b) = self.peek() else { break };
            match b {
                b'0'..=b'9' => {
                    let digits = self.digits_len(self.pos);
                    if self.peek_at(digits) == Some(b'.') {
                        self.pos += digits + 1;
                        // `1...` or `1. ...`: Black's move comes first.
                        let mut i = self.pos;
                        while self.s.get(i).copied().is_some_and(is_blank) {
                            i += 1;
                        }
                        if self.s[i..].starts_with(b"...") {
                            self.pos = i + 3;
                        } else if self.s[self.pos..].starts_with(b"..") {
                            self.pos += 2;
                        }
                        continue;
                    }
                    moves.push(self.parse_move()?);
                }
                b'{' => {
                    let open = self.pos;
                    let Some(last) = moves.last_mut() else {
                        return Err(self.err("a comment must follow a move"));
                    };
                    let Some(close) = memchr::memchr(b'}', &self.s[open..]).map(|i| open + i)
                    else {
                        return Err(self.err("this comment is never closed with `}`"));
                    };
                    if close == open + 1 {
                        // The site's converter refuses it too.
                        return Err(self.err("an empty comment `{}`"));
                    }
                    let text = std::str::from_utf8(&self.s[open + 1..close])
                        .map_err(|_| self.err("the comment is not UTF-8"))?;
                    add_comment(last, text).map_err(|m| self.err_at(open, m))?;
                    self.pos = close + 1;
                }
                b'[' => return Err(self.err("a tag must come before the other sections")),
                _ => moves.push(self.parse_move()?),
            }
            if !self
                .peek()
                .is_none_or(|b| is_blank(b) || matches!(b, b'|' | b'{'))
            {
                return Err(self.err("expected `|`, a blank or a comment after the move"));
            }
        }
        self.game.moves = Some(moves);
        self.game.layout.add(TopKey::Moves);
        Ok(())
    }

    /// `[P]x,y (>|x)+ x,y [[=]Q] [+|#] [!?…] [e.p.]`, blanks allowed between the parts.
    fn parse_move(&mut self) -> Result<Move, Error> {
        let piece = if self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            Some(self.parse_piece_code()?)
        } else {
            None
        };
        let from = self.parse_square()?;
        self.skip_inline_blanks();
        let mut capture = false;
        let mut arrows = 0;
        while let Some(b @ (b'>' | b'x')) = self.peek() {
            capture |= b == b'x';
            arrows += 1;
            self.pos += 1;
        }
        if arrows == 0 {
            return Err(self.err("expected `>` or `x` between the squares of a move"));
        }
        self.skip_inline_blanks();
        let to = self.parse_square()?;
        let mut mv = Move::new(from, to);
        mv.piece = piece;
        mv.capture = capture;
        // A promotion touches the square (`1,8Q`) or follows `=` (`1,8 =Q`).
        let mut i = self.pos;
        while self
            .s
            .get(i)
            .copied()
            .is_some_and(|b| b == b' ' || b == b'\t')
        {
            i += 1;
        }
        if self.s.get(i) == Some(&b'=') {
            self.pos = i + 1;
            mv.promotion = Some(self.parse_promotion()?);
        } else if self.peek().is_some_and(|b| b.is_ascii_alphabetic()) && !self.at_ep() {
            mv.promotion = Some(self.parse_promotion()?);
        } else if i > self.pos && self.promotion_apart(i) {
            // `1,8 Q`, as the original README's long example writes it: letters standing
            // alone, not the piece of the next move (whose square follows its letters).
            self.pos = i;
            mv.promotion = Some(self.parse_promotion()?);
        }
        // Check, mate, annotation and `e.p.`, each at most once, blanks between.
        loop {
            let mark = self.pos;
            self.skip_inline_blanks();
            match self.peek() {
                Some(b'+') if !mv.check && !mv.mate => {
                    self.pos += 1;
                    mv.check = true;
                }
                Some(b'#') if !mv.check && !mv.mate => {
                    self.pos += 1;
                    mv.mate = true;
                }
                Some(b'!' | b'?') if mv.notes.is_none() => {
                    let len = self.s[self.pos..]
                        .iter()
                        .take_while(|b| matches!(b, b'!' | b'?'))
                        .count();
                    let annotation = self.utf8(self.pos, self.pos + len)?;
                    if len > 2 {
                        return Err(self.err("an annotation is at most two of `!` and `?`"));
                    }
                    mv.notes_mut().annotation = annotation;
                    self.pos += len;
                }
                Some(b'e') if self.at_ep() => self.pos += 4,
                _ => {
                    self.pos = mark;
                    break;
                }
            }
        }
        Ok(mv)
    }

    /// Whether letters at `i` stand alone (a promotion written apart from its square): not
    /// `e.p.`, and followed by no square.
    fn promotion_apart(&self, i: usize) -> bool {
        let letters = self.s[i..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        letters > 0
            && !self.s[i..].starts_with(b"e.p.")
            && !matches!(
                self.s.get(i + letters),
                Some(b'0'..=b'9' | b'-' | b'.' | b',')
            )
    }

    fn at_ep(&self) -> bool {
        self.s[self.pos..].starts_with(b"e.p.")
    }

    fn skip_inline_blanks(&mut self) {
        while self.peek().is_some_and(|b| b == b' ' || b == b'\t') {
            self.pos += 1;
        }
    }

    fn parse_promotion(&mut self) -> Result<Piece, Error> {
        let piece = self.parse_piece_code()?;
        if piece.kind == PieceKind::Pawn || piece.player == Player::Neutral {
            return Err(self.err("a pawn cannot promote to that"));
        }
        Ok(piece)
    }
}

/// Reads a comment's text into the move: `[%clk h:mm:ss.s]` is the clock, the rest the
/// comment.
fn add_comment(mv: &mut Move, text: &str) -> Result<(), String> {
    let mut rest = String::with_capacity(text.len());
    let mut clock = None;
    let mut remaining = text;
    while let Some(start) = remaining.find("[%clk") {
        let Some(len) = remaining[start..].find(']') else {
            return Err("a `[%clk` command is never closed with `]`".into());
        };
        let value = remaining[start + 5..start + len].trim();
        clock = Some(
            parse_clock(value)
                .ok_or_else(|| format!("bad clock {value:?}: expected h:mm:ss or h:mm:ss.s"))?,
        );
        rest.push_str(&remaining[..start]);
        remaining = &remaining[start + len + 1..];
    }
    rest.push_str(remaining);
    let comment = rest.trim();
    let notes = mv.notes_mut();
    if !comment.is_empty() {
        match &mut notes.comment {
            Some(existing) => {
                existing.push(' ');
                existing.push_str(comment);
            }
            None => notes.comment = Some(comment.to_owned()),
        }
    }
    if clock.is_some() {
        notes.clock_ms = clock;
    }
    Ok(())
}

/// `h:mm:ss` with an optional fraction of a second, in milliseconds.
pub(crate) fn parse_clock(text: &str) -> Option<u64> {
    let (whole, fraction) = match text.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (text, None),
    };
    let mut parts = whole.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || m.len() != 2 || s.len() != 2 {
        return None;
    }
    let num = |t: &str| -> Option<u64> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.len() > 12 {
            return None;
        }
        t.parse().ok()
    };
    let (h, m, s) = (num(h)?, num(m)?, num(s)?);
    if m >= 60 || s >= 60 {
        return None;
    }
    let mut ms = ((h * 60 + m) * 60 + s) * 1000;
    if let Some(f) = fraction {
        if f.is_empty() || f.len() > 3 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let scale = [100, 10, 1][f.len() - 1];
        ms += f.parse::<u64>().ok()? * scale;
    }
    Some(ms)
}

/// Which notation the writers produce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// The 2024 reference (`FormatConverter.js`): promotions as `1,8Q`, JSON rules, and a
    /// long form whose moves are plain strings.
    #[default]
    V2024,
    /// The 2025 site converter (`icnconverter.ts`): `w:b` turn order, `=` before promotions,
    /// world border, clock stamps; the long form keeps comments and clocks.
    V2025,
}

/// How moves are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveStyle {
    /// Numbered and spaced: `1. P4,2 > 4,4 | p4,7 > 4,6` (the reference's compact_moves 0).
    #[default]
    Pretty,
    /// `P4,2>4,4|p4,7>4,6`, with piece codes, `x`, `=Q`, `+`, `#` (compact_moves 1).
    Compact,
    /// The interface form `4,2>4,4|4,7>4,6` (compact_moves 2).
    Minimal,
}

/// How ICN is written.
///
/// The 2025 writer reaches every style of the site's converter; [`SiteStyle`] converts its
/// options into these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// How moves are written.
    pub moves: MoveStyle,
    /// One line: sections separated by spaces instead of line breaks.
    pub single_line: bool,
    /// Write the position (`false`: the reader must know it from the variant).
    pub position: bool,
    /// Which notation.
    pub dialect: Dialect,
    /// 2025: blanks between the parts of a move (`P4,2 > 4,4`) and around the `|` between
    /// moves; `None`: as `moves` says (only [`MoveStyle::Pretty`] is spaced).
    pub spaces: Option<bool>,
    /// 2025: a number before each pair of moves (`1. `); `None`: as `moves` says (only
    /// [`MoveStyle::Pretty`] is numbered).
    pub move_numbers: Option<bool>,
    /// Write comments and clock stamps (`{[%clk 0:09:56.7] fine}`).
    pub comments: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            moves: MoveStyle::Pretty,
            single_line: false,
            position: true,
            dialect: Dialect::V2024,
            spaces: None,
            move_numbers: None,
            comments: true,
        }
    }
}

/// The options of the site's `LongToShort_Format`, by their names there; each style it
/// writes is a [`WriteOptions`] of the 2025 dialect.
///
/// `compact` writes moves as coordinates only ([`MoveStyle::Minimal`]); otherwise with
/// piece codes, `x`, `+` and `#` ([`MoveStyle::Compact`]).
///
/// ```
/// use notate::infinite::short::{self, SiteStyle, WriteOptions};
/// let game = short::read_one("w K5,1|k5,8 K5,1>5,2{[%clk 0:01:00.0] fine}|k5,8x5,7+").unwrap();
/// let copy_game = SiteStyle { compact: false, ..SiteStyle::default() };
/// assert_eq!(short::to_string_with(&game, copy_game.into()).unwrap(), "w 1 K5,1|k5,8 K5,1>5,2|k5,8x5,7+\n");
/// let pretty = SiteStyle { compact: false, spaces: true, comments: true, move_numbers: true, make_new_lines: true, skip_position: false };
/// assert_eq!(
///     short::to_string_with(&game, WriteOptions::from(pretty)).unwrap(),
///     "w 1 K5,1|k5,8\n\n1. K5,1 > 5,2 {[%clk 0:01:00.0] fine} | k5,8 x 5,7 +\n"
/// );
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SiteStyle {
    /// Coordinates only (`4,2>4,4=Q`).
    pub compact: bool,
    /// Blanks between a move's parts and around `|`.
    pub spaces: bool,
    /// Comments and clock stamps.
    pub comments: bool,
    /// `1. ` before each pair of moves.
    pub move_numbers: bool,
    /// Tags on lines of their own, sections apart by a blank line, numbered pairs on lines
    /// of their own.
    pub make_new_lines: bool,
    /// Leave the position out (the site requires `Variant`, `UTCDate` and `UTCTime` then;
    /// notate does not).
    pub skip_position: bool,
}

impl From<SiteStyle> for WriteOptions {
    fn from(style: SiteStyle) -> WriteOptions {
        WriteOptions {
            moves: if style.compact {
                MoveStyle::Minimal
            } else {
                MoveStyle::Compact
            },
            single_line: !style.make_new_lines,
            position: !style.skip_position,
            dialect: Dialect::V2025,
            spaces: Some(style.spaces),
            move_numbers: Some(style.move_numbers),
            comments: style.comments,
        }
    }
}

/// The tags the writers put first, in this order.
const KNOWN_TAGS: [&str; 11] = [
    "Event",
    "Site",
    "Variant",
    "Round",
    "UTCDate",
    "UTCTime",
    "TimeControl",
    "White",
    "Black",
    "Result",
    "Termination",
];

/// Writes ICN.
///
/// In the 2024 dialect the output is the reference's byte for byte, except that it never
/// ends with blanks; moves that carry no piece codes (read from plain strings) are written
/// in the interface form whatever the style, as the reference does.
///
/// ```
/// use notate::infinite::short::{self, MoveStyle, WriteOptions};
/// let game = short::read_one("w K5,1|k5,8 1. K5,1 > 5,2 | k5,8 x 5,7 +").unwrap();
/// let compact = WriteOptions { moves: MoveStyle::Compact, ..WriteOptions::default() };
/// assert_eq!(short::to_string_with(&game, compact).unwrap(), "\nw K5,1|k5,8\n\nK5,1>5,2|k5,8x5,7+\n");
/// ```
pub(crate) fn write(game: &Game, options: &WriteOptions) -> Result<String, Error> {
    let mut out = String::with_capacity(estimate_len(game));
    match options.dialect {
        Dialect::V2024 => write_2024(game, options, &mut out)?,
        Dialect::V2025 => write_2025(game, options, &mut out)?,
    }
    out.truncate(out.trim_end().len());
    // A game with nothing ICN writes (no tags, turn, position or moves) would be an empty
    // text, which the reader refuses as the site does: refused here too (found by fuzzing).
    if out.is_empty() {
        return Err(error::unwritable(
            "the game has nothing ICN writes (no tags, turn, position or moves): its text \
             would be empty, and an empty text is no game"
                .to_string(),
        ));
    }
    Ok(out)
}

fn estimate_len(game: &Game) -> usize {
    256 + game.position.as_ref().map_or(0, |p| p.len() * 12)
        + game.moves.as_ref().map_or(0, |m| m.len() * 16)
}

fn write_tags(game: &Game, sep: &str, out: &mut String) -> Result<(), Error> {
    let mut write_tag = |key: &str, value: &str| -> Result<(), Error> {
        if key.is_empty()
            || key
                .bytes()
                .any(|b| is_blank(b) || matches!(b, b'"' | b']' | b'[' | b':'))
        {
            return Err(error::unwritable(format!(
                "tag key {key:?} cannot be written in ICN"
            )));
        }
        // The reader ends a value at its first `"`.
        if value.contains(['"', '\n', '\r']) {
            return Err(error::unwritable(format!(
                "the value of tag {key} cannot be written in ICN: {value:?}"
            )));
        }
        out.push('[');
        out.push_str(key);
        out.push_str(" \"");
        out.push_str(value);
        out.push_str("\"]");
        out.push_str(sep);
        Ok(())
    };
    for known in KNOWN_TAGS {
        if let Some((k, v)) = game.metadata.iter().find(|(k, _)| k == known) {
            write_tag(k, v)?;
        }
    }
    for (k, v) in &game.metadata {
        if !KNOWN_TAGS.contains(&k.as_str()) {
            write_tag(k, v)?;
        }
    }
    Ok(())
}

fn write_promotion_side(
    rule: &Option<PromotionRule>,
    player: Player,
    lower: bool,
    out: &mut String,
) {
    let Some(rule) = rule else { return };
    for (i, rank) in rule.ranks.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        rank.write_to(out);
    }
    if !rule.has_default_pieces() {
        out.push(';');
        for (i, kind) in rule.pieces.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let code = if lower {
                kind.code_lower()
            } else {
                Piece::new(*kind, player).code()
            };
            out.push_str(code);
        }
    }
}

fn write_win_list(list: &[WinCondition], out: &mut String) {
    for (i, w) in list.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(w.name());
    }
}

fn write_win_conditions(game: &Game, out: &mut String) {
    let Some(win) = &game.win_conditions else {
        return;
    };
    if win.symmetric() {
        if !win.white.iter().all(|&w| w == WinCondition::Checkmate) || win.white.is_empty() {
            write_win_list(&win.white, out);
            out.push(' ');
        }
    } else {
        out.push('(');
        write_win_list(&win.white, out);
        out.push('|');
        write_win_list(&win.black, out);
        out.push_str(") ");
    }
}

/// The position as a piece list (`K5,1+|k5,8`).
///
/// ```
/// use notate::infinite::short;
/// let position = short::parse_position("K5,1+|k5,8|ob0,0").unwrap();
/// assert_eq!(short::write_position(&position), "K5,1+|k5,8|ob0,0");
/// ```
pub fn write_position(position: &Position) -> String {
    let mut out = String::with_capacity(position.len() * 12);
    push_position(position, &mut out);
    out
}

fn push_position(position: &Position, out: &mut String) {
    let check_rights = position.special_rights_len() > 0;
    for (i, (square, piece)) in position.iter().enumerate() {
        if i > 0 {
            out.push('|');
        }
        out.push_str(piece.code());
        square.write_to(out);
        if check_rights && position.has_special_right(square) {
            out.push('+');
        }
    }
}

fn write_2024(game: &Game, options: &WriteOptions, out: &mut String) -> Result<(), Error> {
    let sep = if options.single_line { " " } else { "\n" };
    write_tags(game, sep, out)?;
    // The tags are always followed by their separator, even when there are none.
    out.push_str(sep);
    match game.turn {
        Some(Player::White) => out.push_str("w "),
        Some(Player::Black) => out.push_str("b "),
        Some(Player::Neutral) | None => {}
    }
    if let Some(ep) = &game.en_passant {
        ep.write_to(out);
        out.push(' ');
    }
    if let Some(rule) = &game.move_rule {
        out.push_str(&format!("{}/{} ", rule.counter, rule.limit));
    }
    if let Some(n) = game.full_move {
        out.push_str(itoa::Buffer::new().format(n));
        out.push(' ');
    }
    if let Some(promotions) = &game.promotions {
        out.push('(');
        write_promotion_side(&promotions.white, Player::White, false, out);
        out.push('|');
        write_promotion_side(&promotions.black, Player::Black, false, out);
        out.push_str(") ");
    }
    write_win_conditions(game, out);
    if !game.extra_rules.is_empty() {
        out.push_str(&serde_json::to_string(&game.extra_rules).expect("JSON to memory"));
        out.push(' ');
    }
    if game.world_border.is_some() {
        return Err(error::unwritable(
            "the 2024 dialect has no world border (use --dialect 2025)".into(),
        ));
    }
    if game.presets.is_some() {
        return Err(error::unwritable(
            "the 2024 dialect has no `Squares:` or `Rays:` presets (use --dialect 2025)".into(),
        ));
    }
    if options.position
        && let Some(position) = &game.position
    {
        push_position(position, out);
        if game.moves.is_some() {
            out.push_str(sep);
            out.push_str(sep);
        }
    }
    if let Some(moves) = &game.moves {
        write_moves(game, moves, options, out);
    }
    Ok(())
}

fn write_moves(game: &Game, moves: &[Move], options: &WriteOptions, out: &mut String) {
    let Some(first) = moves.first() else { return };
    let style = if first.piece.is_none() && !game.layout.moves_as_objects {
        // Moves read from plain strings know no pieces; the reference writes them as they
        // are, joined by `|`, whatever the style (objects without a piece, in the style).
        MoveStyle::Minimal
    } else {
        options.moves
    };
    let start = out.len();
    match style {
        MoveStyle::Minimal | MoveStyle::Compact => {
            for (i, mv) in moves.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                if style == MoveStyle::Minimal {
                    push_minimal(mv, options.dialect, out);
                } else {
                    push_compact(mv, out);
                    push_notes(mv, options.dialect, options.comments, out);
                }
            }
        }
        MoveStyle::Pretty => {
            let mut number = game.full_move.unwrap_or(1);
            let mut black = game.turn == Some(Player::Black);
            for (i, mv) in moves.iter().enumerate() {
                if black {
                    if i == 0 {
                        push_number(number, out);
                        out.push_str("  ...   | ");
                    } else {
                        out.push_str(" | ");
                    }
                } else {
                    push_number(number, out);
                }
                let move_start = out.len();
                push_pretty(mv, out);
                push_notes(mv, options.dialect, options.comments, out);
                out.truncate(move_start + out[move_start..].trim_end().len());
                if black {
                    number += 1;
                    if i + 1 < moves.len() {
                        out.push_str(if options.single_line { " | " } else { "\n" });
                    }
                }
                black = !black;
            }
        }
    }
    out.truncate(start + out[start..].trim_end().len());
}

fn push_number(number: u64, out: &mut String) {
    out.push_str(itoa::Buffer::new().format(number));
    out.push_str(". ");
}

fn push_minimal(mv: &Move, dialect: Dialect, out: &mut String) {
    mv.from.write_to(out);
    out.push('>');
    mv.to.write_to(out);
    if let Some(p) = mv.promotion {
        if dialect == Dialect::V2025 {
            out.push('=');
        }
        out.push_str(p.code());
    }
}

fn push_compact(mv: &Move, out: &mut String) {
    if let Some(p) = mv.piece {
        out.push_str(p.code());
    }
    mv.from.write_to(out);
    out.push(if mv.capture { 'x' } else { '>' });
    mv.to.write_to(out);
    if let Some(p) = mv.promotion {
        out.push('=');
        out.push_str(p.code());
    }
    if mv.mate {
        out.push('#');
    } else if mv.check {
        out.push('+');
    }
}

fn push_pretty(mv: &Move, out: &mut String) {
    if let Some(p) = mv.piece {
        out.push_str(p.code());
    }
    mv.from.write_to(out);
    out.push_str(if mv.capture { " x " } else { " > " });
    mv.to.write_to(out);
    out.push(' ');
    if let Some(p) = mv.promotion {
        out.push('=');
        out.push_str(p.code());
    }
    if mv.mate {
        out.push('#');
    } else if mv.check {
        out.push('+');
    }
}

/// The annotation and the comment (with its clock, when `comments`) after a 2024 pretty or
/// compact move.
fn push_notes(mv: &Move, dialect: Dialect, comments: bool, out: &mut String) {
    let Some(notes) = &mv.notes else { return };
    if !notes.annotation.is_empty() {
        out.push(' ');
        out.push_str(&notes.annotation);
    }
    // An empty comment is none: `{}` does not read.
    let comment = notes.comment.as_deref().filter(|c| !c.is_empty());
    if comments && (comment.is_some() || notes.clock_ms.is_some()) {
        out.push_str(" {");
        if let Some(ms) = notes.clock_ms {
            out.push_str("[%clk ");
            push_clock(ms, dialect, out);
            out.push(']');
            if comment.is_some() {
                out.push(' ');
            }
        }
        if let Some(c) = comment {
            // A `}` would end the comment early.
            out.push_str(&c.replace('}', ")"));
        }
        out.push('}');
    }
}

/// `h:mm:ss` and the tenths (or finer) when there are any: 596 700 ms is `0:09:56.7`. The
/// 2025 dialect always writes tenths, rounded up, as the site does.
pub(crate) fn push_clock(ms: u64, dialect: Dialect, out: &mut String) {
    if dialect == Dialect::V2025 {
        let tenths = ms.div_ceil(100);
        let secs = tenths / 10;
        out.push_str(&format!(
            "{}:{:02}:{:02}.{}",
            secs / 3600,
            secs / 60 % 60,
            secs % 60,
            tenths % 10
        ));
        return;
    }
    let (secs, frac) = (ms / 1000, ms % 1000);
    out.push_str(&format!(
        "{}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    ));
    if frac != 0 {
        let digits = format!("{frac:03}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
}

/// The tags the 2025 writer puts first, in this order.
const KNOWN_TAGS_2025: [&str; 17] = [
    "Event",
    "Site",
    "Variant",
    "Round",
    "UTCDate",
    "UTCTime",
    "TimeControl",
    "White",
    "Black",
    "WhiteID",
    "BlackID",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "Result",
    "Termination",
];

/// The site's converter (`LongToShort_Format`), byte for byte: tags (letters only; values
/// of 1 to 200 characters without `"`), then one line of header and position, then the
/// moves; parts apart by a blank line, or a blank when on one line.
fn write_2025(game: &Game, options: &WriteOptions, out: &mut String) -> Result<(), Error> {
    let mut parts: Vec<String> = Vec::with_capacity(3);
    let mut tags = String::new();
    let tag_sep = if options.single_line { " " } else { "\n" };
    let known = |k: &str| KNOWN_TAGS_2025.contains(&k);
    // The site refuses other tags; notate writes them after the ones it knows.
    let ordered = KNOWN_TAGS_2025
        .iter()
        .filter_map(|k| game.metadata.iter().find(|(key, _)| key == k))
        .chain(game.metadata.iter().filter(|(k, _)| !known(k)));
    for (key, value) in ordered {
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(error::unwritable(format!(
                "tag key {key:?}: the 2025 dialect allows letters only"
            )));
        }
        // What the site's reader takes back (it writes longer values, and `"`, unchecked).
        if value.is_empty() || value.chars().count() > 200 || value.contains('"') {
            return Err(error::unwritable(format!(
                "tag {key}: the 2025 dialect needs 1 to 200 characters without `\"`, not {value:?}"
            )));
        }
        if !tags.is_empty() {
            tags.push_str(tag_sep);
        }
        tags.push_str(&format!("[{key} \"{value}\"]"));
    }
    if !tags.is_empty() {
        parts.push(tags);
    }
    if !game.extra_rules.is_empty() {
        return Err(error::unwritable(format!(
            "the 2025 dialect has no JSON rules ({})",
            game.extra_rules
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut header = String::new();
    header.push_str(match game.turn {
        Some(Player::Black) => "b",
        _ => "w",
    });
    if let Some(ep) = &game.en_passant {
        header.push(' ');
        ep.write_to(&mut header);
    }
    if let Some(rule) = &game.move_rule {
        header.push_str(&format!(" {}/{}", rule.counter, rule.limit));
    }
    header.push(' ');
    header.push_str(itoa::Buffer::new().format(game.full_move.unwrap_or(1)));
    if let Some(promotions) = &game.promotions {
        header.push_str(" (");
        write_promotion_side(&promotions.white, Player::White, true, &mut header);
        header.push('|');
        write_promotion_side(&promotions.black, Player::Black, true, &mut header);
        header.push(')');
    }
    if let Some(border) = &game.world_border {
        header.push(' ');
        for (i, edge) in [&border.left, &border.right, &border.bottom, &border.top]
            .into_iter()
            .enumerate()
        {
            if i > 0 {
                header.push(',');
            }
            match edge {
                Some(n) => n.write_to(&mut header),
                None => header.push('_'),
            }
        }
    }
    if let Some(win) = &game.win_conditions {
        // The site compares the lists as written: the same lists in the same order are
        // written once, bare, and left out when that is `checkmate`.
        if win.white == win.black {
            if win.white != [WinCondition::Checkmate] {
                header.push(' ');
                write_win_list(&win.white, &mut header);
            }
        } else {
            header.push_str(" (");
            write_win_list(&win.white, &mut header);
            header.push('|');
            write_win_list(&win.black, &mut header);
            header.push(')');
        }
    }
    if let Some(presets) = &game.presets {
        if let Some(squares) = &presets.squares {
            header.push_str(" Squares:");
            for (i, square) in squares.iter().enumerate() {
                if i > 0 {
                    header.push('|');
                }
                square.write_to(&mut header);
            }
        }
        if let Some(rays) = &presets.rays {
            header.push_str(" Rays:");
            for (i, ray) in rays.iter().enumerate() {
                if i > 0 {
                    header.push('|');
                }
                ray.start.write_to(&mut header);
                header.push('>');
                ray.vector.write_to(&mut header);
            }
        }
    }
    if options.position
        && let Some(position) = game.position.as_ref().filter(|p| !p.is_empty())
    {
        header.push(' ');
        push_position(position, &mut header);
    }
    parts.push(header);
    if let Some(moves) = game.moves.as_deref().filter(|m| !m.is_empty()) {
        let style = SiteMoves::new(options, moves);
        let mut text = String::with_capacity(moves.len() * 16);
        if style.numbers {
            // Numbered by rounds of the turn order (two players), from the full move, whoever
            // moves first; rounds apart by a line break (or a blank), moves within by ` | `.
            let mut number = game.full_move.unwrap_or(1);
            for (i, mv) in moves.iter().enumerate() {
                if i % 2 == 0 {
                    if i > 0 {
                        text.push_str(if options.single_line { " " } else { "\n" });
                    }
                    push_number(number, &mut text);
                    number += 1;
                } else {
                    text.push_str(" | ");
                }
                style.push(mv, &mut text);
            }
        } else {
            for (i, mv) in moves.iter().enumerate() {
                if i > 0 {
                    text.push_str(if style.spaces { " | " } else { "|" });
                }
                style.push(mv, &mut text);
            }
        }
        parts.push(text);
    }
    out.push_str(&parts.join(if options.single_line { " " } else { "\n\n" }));
    Ok(())
}

/// How the 2025 writer writes each move: the site's `getShortFormMoveFromMove` options.
struct SiteMoves {
    /// Coordinates only: no piece code, `>` for captures too, no `+`, `#` or annotation.
    compact: bool,
    spaces: bool,
    comments: bool,
    numbers: bool,
}

impl SiteMoves {
    fn new(options: &WriteOptions, moves: &[Move]) -> SiteMoves {
        // Moves read from plain strings know no pieces: written in the interface form, as
        // the 2024 writer does (the site's converter refuses them in its non-compact styles).
        let style = if moves.iter().any(|m| m.piece.is_none()) {
            MoveStyle::Minimal
        } else {
            options.moves
        };
        SiteMoves::of_style(style, options)
    }

    fn of_style(style: MoveStyle, options: &WriteOptions) -> SiteMoves {
        let pretty = style == MoveStyle::Pretty;
        SiteMoves {
            compact: style == MoveStyle::Minimal,
            spaces: options.spaces.unwrap_or(pretty),
            comments: options.comments,
            numbers: options.move_numbers.unwrap_or(pretty),
        }
    }

    /// One move: its parts joined by a blank when `spaces`, else touching, comment included
    /// (`P1,7 x 2,8 =Q + {[%clk 0:09:56.7] fine}`, `P1,7x2,8=Q+{fine}`).
    fn push(&self, mv: &Move, out: &mut String) {
        let sep = if self.spaces { " " } else { "" };
        if !self.compact
            && let Some(p) = mv.piece
        {
            out.push_str(p.code());
        }
        mv.from.write_to(out);
        out.push_str(sep);
        out.push(if !self.compact && mv.capture {
            'x'
        } else {
            '>'
        });
        out.push_str(sep);
        mv.to.write_to(out);
        if let Some(p) = mv.promotion {
            out.push_str(sep);
            out.push('=');
            out.push_str(p.code());
        }
        if !self.compact && (mv.mate || mv.check) {
            out.push_str(sep);
            out.push(if mv.mate { '#' } else { '+' });
        }
        let Some(notes) = &mv.notes else { return };
        // The site's model has no annotation, but its reader takes one here (and drops it).
        if !self.compact && !notes.annotation.is_empty() {
            out.push_str(sep);
            out.push_str(&notes.annotation);
        }
        let comment = notes.comment.as_deref().map(str::trim).unwrap_or_default();
        if self.comments && (notes.clock_ms.is_some() || !comment.is_empty()) {
            out.push_str(sep);
            out.push('{');
            if let Some(ms) = notes.clock_ms {
                out.push_str("[%clk ");
                push_clock(ms, Dialect::V2025, out);
                out.push(']');
                if !comment.is_empty() {
                    out.push(' ');
                }
            }
            // A `}` would end the comment early (the site writes it, and cannot read it back).
            out.push_str(&comment.replace('}', ")"));
            out.push('}');
        }
    }
}

/// Writes one move alone (no move number).
///
/// ```
/// use notate::infinite::short::{self, Dialect, MoveStyle};
/// let mv = short::parse_move("P2,7x1,8=Q+").unwrap();
/// assert_eq!(short::write_move(&mv, MoveStyle::Minimal, Dialect::V2024), "2,7>1,8Q");
/// assert_eq!(short::write_move(&mv, MoveStyle::Minimal, Dialect::V2025), "2,7>1,8=Q");
/// assert_eq!(short::write_move(&mv, MoveStyle::Compact, Dialect::V2024), "P2,7x1,8=Q+");
/// assert_eq!(short::write_move(&mv, MoveStyle::Pretty, Dialect::V2024), "P2,7 x 1,8 =Q+");
/// assert_eq!(short::write_move(&mv, MoveStyle::Pretty, Dialect::V2025), "P2,7 x 1,8 =Q +");
/// ```
pub fn write_move(mv: &Move, style: MoveStyle, dialect: Dialect) -> String {
    let mut out = String::with_capacity(24);
    if dialect == Dialect::V2025 {
        let options = WriteOptions {
            dialect,
            ..WriteOptions::default()
        };
        SiteMoves::of_style(style, &options).push(mv, &mut out);
        return out;
    }
    match style {
        MoveStyle::Minimal => push_minimal(mv, dialect, &mut out),
        MoveStyle::Compact => {
            push_compact(mv, &mut out);
            push_notes(mv, dialect, true, &mut out);
        }
        MoveStyle::Pretty => {
            push_pretty(mv, &mut out);
            push_notes(mv, dialect, true, &mut out);
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// ICN, the short form: one game per text, either dialect read, the one asked written.
#[derive(Debug, Default)]
pub struct Icn {
    options: WriteOptions,
}

/// How ICN is read (nothing to choose: both dialects are read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {}

read_format!(Icn, Game, "ICN", ReadOptions, whole, |record, options| {
    vec![utf8(record).and_then(parse)]
});

impl WriteFormat for Icn {
    type Game = Game;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> Icn {
        Icn { options }
    }

    fn write_game(&mut self, game: &Game, out: &mut Vec<u8>) -> Result<(), Error> {
        out.extend_from_slice(write(game, &self.options)?.as_bytes());
        out.push(b'\n');
        Ok(())
    }
}

write_verbs!(Icn, Game, "ICN");
