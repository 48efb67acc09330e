//! The long form: one JSON object per game, with the reference's keys and key order.
//!
//! ```json
//! {"gameRules":{"promotionRanks":[8,1],…},"metadata":{…},"turn":"white",
//!  "specialRights":{"5,1":true},"startingPosition":{"5,1":"kingsW"},"moves":["5,1>5,2"]}
//! ```
//!
//! Numbers are read from their JSON text, so coordinates past 2^53 survive exactly. A text holds
//! one or more documents (one per line, or simply one after another); each is written
//! followed by a newline.

use std::borrow::Cow;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::coord::{Coord, Int};
use super::error::{self, Error};
use super::game::{
    Game, Layout, Move, MoveRule, Position, Presets, PromotionRule, Promotions, Ray, RuleKey,
    TopKey, WinCondition, WinConditions, WorldBorder,
};
use super::piece::{Piece, PieceKind, Player};
use super::replay;
use super::short::{self, Dialect};
use crate::format::{read_format, utf8, write_verbs, WriteFormat};

/// How the long form is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// 2024: moves are strings (`"2,7>1,8Q"`); 2025: moves are objects that keep comments and
    /// clock stamps.
    pub dialect: Dialect,
    /// Write moves as the reference's legacy objects (`type`, `captured`, `enpassant`,
    /// `castle`, …), worked out by replaying the game.
    pub legacy_moves: bool,
    /// Indent with two spaces, as `JSON.stringify(game, null, 2)`; `false`: one line.
    pub pretty: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            dialect: Dialect::V2024,
            legacy_moves: false,
            pretty: true,
        }
    }
}

/// Reads one game in the long form.
///
/// Moves may be strings (`"2,7>1,8Q"`, `"2,7>1,8=Q"`) or objects (the reference's legacy
/// `{type, startCoords, endCoords, captured, promotion, …}` or the 2025 form with `comment`
/// and `clockStamp`). Errors name the path of the bad value (`$.moves[3].endCoords`).
///
/// ```
/// use notate::infinite::{long, Coord};
/// let game = long::read_one(r#"{"metadata":{},"turn":"white",
///     "startingPosition":{"5,1":"kingsW","100000000000000000000,-7":"kingsB"},
///     "moves":[{"type":"kingsW","startCoords":[5,1],"endCoords":[5,2]}]}"#).unwrap();
/// let position = game.position.unwrap();
/// assert!(position.get(&"100000000000000000000,-7".parse::<Coord>().unwrap()).is_some());
/// assert!(long::read_one(r#"{"metadata":{},"moves":["5,1>"]}"#).is_err());
/// ```
pub(crate) fn from_json(text: &str) -> Result<Game, Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let object = Object::deserialize(&mut de).map_err(|e| error::json("$", e.to_string()))?;
    de.end().map_err(|e| error::json("$", e.to_string()))?;
    read_game(object)
}

/// Reads every game of a text holding one or more long-form documents (one per line, or
/// simply one after another).
pub(crate) fn from_json_stream(text: &str) -> impl Iterator<Item = Result<Game, Error>> + '_ {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<&RawValue>();
    std::iter::from_fn(move || {
        let raw = match stream.next()? {
            Ok(raw) => raw,
            Err(e) => {
                // After a syntax error the rest cannot be split into documents.
                let err = error::json("$", e.to_string());
                while stream.next().is_some_and(|r| r.is_ok()) {}
                return Some(Err(err));
            }
        };
        Some(from_json(raw.get()))
    })
}

/// A JSON object as its entries in order, values left as text, keys borrowed from the text
/// when they hold no escape.
struct Object<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

/// An object's key, borrowed from the text when it can be.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }
            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// An object's first this many keys are checked for a key given twice by looking through
/// them; from then on (a position's squares) a hash set of them all is kept.
const KEYS_LOOKED_THROUGH: usize = 16;

/// Where a value is in the document (`$.moves[3].endCoords`): built as the reader goes down,
/// written out only when an error names it (building the text for every value was a fifth of
/// the time of reading a small game).
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Path::Root => f.write_str("$"),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

impl From<Path<'_>> for String {
    fn from(path: Path<'_>) -> String {
        path.to_string()
    }
}

impl<'de> Deserialize<'de> for Object<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Object<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object<'de>, A::Error> {
                let mut entries: Vec<(Cow<'de, str>, &'de RawValue)> =
                    Vec::with_capacity(map.size_hint().unwrap_or(8));
                let mut seen: Option<rustc_hash::FxHashSet<Cow<'de, str>>> = None;
                while let Some((Key(k), v)) = map.next_entry::<Key<'de>, &'de RawValue>()? {
                    let twice = match &mut seen {
                        Some(seen) => !seen.insert(k.clone()),
                        None => entries.iter().any(|(e, _)| *e == k),
                    };
                    if twice {
                        return Err(serde::de::Error::custom(format!("key {k:?} given twice")));
                    }
                    entries.push((k, v));
                    if seen.is_none() && entries.len() == KEYS_LOOKED_THROUGH {
                        seen = Some(entries.iter().map(|(e, _)| e.clone()).collect());
                    }
                }
                Ok(Object(entries))
            }
        }
        d.deserialize_map(V)
    }
}

fn parse<'a, T: Deserialize<'a>>(
    raw: &'a RawValue,
    path: Path<'_>,
    what: &str,
) -> Result<T, Error> {
    serde_json::from_str(raw.get()).map_err(|_| error::json(path, format!("expected {what}")))
}

fn object<'a>(raw: &'a RawValue, path: Path<'_>) -> Result<Object<'a>, Error> {
    if !raw.get().starts_with('{') {
        return Err(error::json(path, "expected an object"));
    }
    // The value is valid JSON: what can fail is a key given twice, which the message says.
    serde_json::from_str(raw.get()).map_err(|e| {
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(m, _)| m);
        error::json(path, message)
    })
}

fn int(raw: &RawValue, path: Path<'_>) -> Result<Int, Error> {
    raw.get().parse::<Int>().map_err(|_| {
        unread(raw.get(), path, || {
            let text = raw.get();
            // `1e21` is whole, but JavaScript writes every number from 10^21 on so, and it
            // is no longer exact there: coordinates are written out in digits.
            if text.starts_with(|c: char| c == '-' || c.is_ascii_digit())
                && text.contains(['e', 'E'])
            {
                format!("expected a whole number written out in digits, not {text}")
            } else {
                format!("expected a whole number, not {text}")
            }
        })
    })
}

/// `[x, y]` or the reference's `"x,y"`.
fn coords(raw: &RawValue, path: Path<'_>) -> Result<Coord, Error> {
    if let Ok(text) = serde_json::from_str::<&str>(raw.get()) {
        return text.parse().map_err(|_| {
            unread(text, path, || {
                format!("expected a square \"x,y\", not {text:?}")
            })
        });
    }
    let items: Vec<&RawValue> = parse(raw, path, "a square [x, y]")?;
    if items.len() != 2 {
        return Err(error::json(path, "expected a square [x, y]"));
    }
    Ok(Coord {
        x: int(items[0], path)?,
        y: int(items[1], path)?,
    })
}

fn square_key(key: &str, path: Path<'_>) -> Result<Coord, Error> {
    key.parse()
        .map_err(|_| unread(key, path, || format!("{key:?} is not a square \"x,y\"")))
}

/// Why a number or a square `text` (at `path`) did not read: one of its numbers has too
/// many digits, or else `wrong`.
fn unread(text: &str, path: Path<'_>, wrong: impl FnOnce() -> String) -> Error {
    if text.split(',').any(|n| Int::too_long_at(n.as_bytes())) {
        error::too_long_json(path)
    } else {
        error::json(path, wrong())
    }
}

fn piece_name(name: &str, path: Path<'_>) -> Result<Piece, Error> {
    Piece::from_long_name(name)
        .ok_or_else(|| error::json(path, format!("unknown piece type {name:?}")))
}

fn read_game(object: Object) -> Result<Game, Error> {
    let mut game = Game {
        layout: Layout {
            top: Vec::new(),
            rules: Vec::new(),
            position_as_text: false,
            moves_as_objects: false,
        },
        ..Game::default()
    };
    let mut special_rights: Vec<Coord> = Vec::new();
    let mut has_rights_key = false;
    for (key, raw) in object.0 {
        let path = Path::Root.key(&key);
        let top = match &*key {
            "metadata" => {
                for (k, v) in self::object(raw, path)?.0 {
                    let value: String = parse(v, path.key(&k), "a string")?;
                    game.metadata.push((k.into_owned(), value));
                }
                TopKey::Metadata
            }
            "turn" => {
                let name: &str = parse(raw, path, "\"white\" or \"black\"")?;
                game.turn = Some(match name {
                    "white" => Player::White,
                    "black" => Player::Black,
                    _ => return Err(error::json(path, "expected \"white\" or \"black\"")),
                });
                TopKey::Turn
            }
            "enpassant" => {
                game.en_passant = Some(coords(raw, path)?);
                TopKey::EnPassant
            }
            "moveRule" => {
                let text: &str = parse(raw, path, "a string \"N/M\"")?;
                game.move_rule = Some(
                    text.split_once('/')
                        .and_then(|(n, m)| {
                            Some(MoveRule {
                                counter: n.parse().ok()?,
                                limit: m.parse().ok()?,
                            })
                        })
                        .filter(|_| text.bytes().all(|b| b.is_ascii_digit() || b == b'/'))
                        .ok_or_else(|| {
                            error::json(path, format!("expected \"N/M\", not {text:?}"))
                        })?,
                );
                // As the short form (and the site) refuse them, so that what reads writes
                // short text that reads back (found by fuzzing).
                if let Some(rule) = &game.move_rule {
                    if rule.limit == 0 {
                        return Err(error::json(path, "the move rule's limit is at least 1"));
                    }
                    if rule.counter > rule.limit {
                        return Err(error::json(
                            path,
                            format!(
                                "the move rule's counter {} is above its limit {}",
                                rule.counter, rule.limit
                            ),
                        ));
                    }
                }
                TopKey::MoveRule
            }
            "fullMove" => {
                let n: u64 = parse(raw, path, "a whole number")?;
                if n == 0 {
                    return Err(error::json(path, "the full-move number starts at 1"));
                }
                game.full_move = Some(n);
                TopKey::FullMove
            }
            "gameRules" => {
                read_rules(self::object(raw, path)?, path, &mut game)?;
                TopKey::GameRules
            }
            "specialRights" => {
                has_rights_key = true;
                for (k, v) in self::object(raw, path)?.0 {
                    let p = path.key(&k);
                    let square = square_key(&k, p)?;
                    if parse::<bool>(v, p, "true or false")? {
                        special_rights.push(square);
                    }
                }
                TopKey::SpecialRights
            }
            "startingPosition" => {
                game.layout.position_as_text = raw.get().starts_with('"');
                game.position = Some(read_position(raw, path)?);
                TopKey::StartingPosition
            }
            "shortposition" => {
                // The reference's copy of the position it read; the writers ignore it.
                let _: &str = parse(raw, path, "a string")?;
                TopKey::ShortPosition
            }
            "presetAnnotes" => {
                game.presets = Some(read_presets(raw, path)?);
                TopKey::PresetAnnotes
            }
            "moves" => {
                let items: Vec<&RawValue> = parse(raw, path, "an array of moves")?;
                game.layout.moves_as_objects =
                    items.first().is_some_and(|m| m.get().starts_with('{'));
                let mut moves = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    moves.push(read_move(item, path.index(i))?);
                }
                game.moves = Some(moves);
                TopKey::Moves
            }
            _ => return Err(error::json(path, format!("unknown key {key:?}"))),
        };
        game.layout.top.push(top);
    }
    if !game.layout.top.contains(&TopKey::Metadata) {
        return Err(error::json("$", "no \"metadata\" (use {} for none)"));
    }
    if !special_rights.is_empty() || has_rights_key {
        let position = game.position.get_or_insert_with(Position::new);
        for square in special_rights {
            // A right belongs to a piece; ICN could not even write one on an empty square.
            if position.get(&square).is_none() {
                return Err(error::json(
                    format!("$.specialRights.{square}"),
                    "no piece stands on this square",
                ));
            }
            position.set_special_right(square);
        }
    }
    Ok(game)
}

/// The site's `presetAnnotes`: `{"squares": [[x, y], …], "rays": [{"start": [x, y],
/// "vector": [dx, dy]}, …]}`, each list optional.
fn read_presets(raw: &RawValue, path: Path<'_>) -> Result<Presets, Error> {
    let mut presets = Presets::default();
    for (key, v) in object(raw, path)?.0 {
        let p = path.key(&key);
        match &*key {
            "squares" => {
                let items: Vec<&RawValue> = parse(v, p, "an array of squares")?;
                let squares = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| coords(item, p.index(i)))
                    .collect::<Result<_, _>>()?;
                presets.squares = Some(squares);
            }
            "rays" => {
                let items: Vec<&RawValue> = parse(v, p, "an array of rays")?;
                let mut rays = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    let p = p.index(i);
                    let (mut start, mut vector) = (None, None);
                    for (k, v) in object(item, p)?.0 {
                        let p = p.key(&k);
                        match &*k {
                            "start" => start = Some(coords(v, p)?),
                            "vector" => vector = Some(coords(v, p)?),
                            _ => return Err(error::json(p, format!("unknown key {k:?}"))),
                        }
                    }
                    let (Some(start), Some(vector)) = (start, vector) else {
                        return Err(error::json(p, "a ray needs \"start\" and \"vector\""));
                    };
                    rays.push(Ray { start, vector });
                }
                presets.rays = Some(rays);
            }
            _ => return Err(error::json(p, format!("unknown key {key:?}"))),
        }
    }
    Ok(presets)
}

fn read_position(raw: &RawValue, path: Path<'_>) -> Result<Position, Error> {
    if let Ok(text) = serde_json::from_str::<&str>(raw.get()) {
        // The reference also takes the piece list itself.
        return short::parse_position(text).map_err(|e| error::json(path, e.to_string()));
    }
    let mut position = Position::new();
    for (k, v) in object(raw, path)?.0 {
        let p = path.key(&k);
        let square = square_key(&k, p)?;
        let name: &str = parse(v, p, "a piece type such as \"pawnsW\"")?;
        if position.insert(square, piece_name(name, p)?).is_some() {
            return Err(error::json(p, "a square given twice"));
        }
    }
    Ok(position)
}

/// The keys of a `{"white": …, "black": …}` object, by side index.
const COLOR_KEYS: [&str; 2] = ["white", "black"];

/// The entries of a `{"white": …, "black": …}` object: side index (0 White, 1 Black; its key
/// is `COLOR_KEYS[index]`) and value.
fn per_color<'a>(raw: &'a RawValue, path: Path<'_>) -> Result<Vec<(usize, &'a RawValue)>, Error> {
    object(raw, path)?
        .0
        .into_iter()
        .map(
            |(color, v)| match COLOR_KEYS.iter().position(|c| *c == color) {
                Some(side) => Ok((side, v)),
                None => Err(error::json(
                    path.key(&color),
                    "expected \"white\" or \"black\"",
                )),
            },
        )
        .collect()
}

fn read_rules(object: Object, path: Path<'_>, game: &mut Game) -> Result<(), Error> {
    let mut ranks: Option<[Option<Vec<Int>>; 2]> = None;
    let mut allowed: Option<[Vec<PieceKind>; 2]> = None;
    for (key, raw) in object.0 {
        let p = path.key(&key);
        let rule = match &*key {
            "promotionRanks" => {
                let items: Vec<&RawValue> = parse(raw, p, "[white rank, black rank]")?;
                if items.len() != 2 {
                    return Err(error::json(p, "expected [white rank, black rank]"));
                }
                let side = |item: &RawValue, i: usize| -> Result<Option<Vec<Int>>, Error> {
                    let p = p.index(i);
                    if item.get() == "null" {
                        return Ok(None);
                    }
                    if item.get().starts_with('[') {
                        let list: Vec<&RawValue> = parse(item, p, "a list of ranks")?;
                        let ranks = list
                            .iter()
                            .map(|r| int(r, p))
                            .collect::<Result<Vec<_>, _>>()?;
                        if ranks.is_empty() {
                            return Err(error::json(p, "an empty list of ranks (use null)"));
                        }
                        return Ok(Some(ranks));
                    }
                    Ok(Some(vec![int(item, p)?]))
                };
                ranks = Some([side(items[0], 0)?, side(items[1], 1)?]);
                RuleKey::PromotionRanks
            }
            "promotionsAllowed" => {
                let mut lists = [Vec::new(), Vec::new()];
                for (i, v) in per_color(raw, p)? {
                    let p = p.key(COLOR_KEYS[i]);
                    let names: Vec<&str> = parse(v, p, "a list of piece names")?;
                    for name in names {
                        match PieceKind::from_plural(name) {
                            Some(k) if !k.is_neutral() && k != PieceKind::Pawn => lists[i].push(k),
                            _ => {
                                return Err(error::json(
                                    p,
                                    format!("a pawn cannot promote to {name:?}"),
                                ))
                            }
                        }
                    }
                }
                allowed = Some(lists);
                RuleKey::PromotionsAllowed
            }
            "winConditions" => {
                let mut lists = [None, None];
                for (i, v) in per_color(raw, p)? {
                    let p = p.key(COLOR_KEYS[i]);
                    let names: Vec<&str> = parse(v, p, "a list of win conditions")?;
                    let list = names
                        .into_iter()
                        .map(|n| {
                            WinCondition::from_name(n).ok_or_else(|| {
                                error::json(p, format!("unknown win condition {n:?}"))
                            })
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    lists[i] = Some(list);
                }
                let [Some(white), Some(black)] = lists else {
                    return Err(error::json(p, "expected both \"white\" and \"black\""));
                };
                game.win_conditions = Some(WinConditions { white, black });
                RuleKey::WinConditions
            }
            "worldBorder" => {
                let items: Vec<&RawValue> = parse(raw, p, "[left, right, bottom, top]")?;
                if items.len() != 4 {
                    return Err(error::json(p, "expected [left, right, bottom, top]"));
                }
                let edge = |r: &RawValue| -> Result<Option<Int>, Error> {
                    if r.get() == "null" {
                        Ok(None)
                    } else {
                        int(r, p).map(Some)
                    }
                };
                game.world_border = Some(WorldBorder {
                    left: edge(items[0])?,
                    right: edge(items[1])?,
                    bottom: edge(items[2])?,
                    top: edge(items[3])?,
                });
                RuleKey::WorldBorder
            }
            _ => {
                let value: serde_json::Value = parse(raw, p, "JSON")?;
                game.extra_rules.insert(key.to_string(), value);
                RuleKey::Extra(key.into_owned())
            }
        };
        game.layout.rules.push(rule);
    }
    if let Some([white, black]) = ranks {
        let [aw, ab] = allowed.unwrap_or_else(|| {
            [
                PromotionRule::DEFAULT_PIECES.to_vec(),
                PromotionRule::DEFAULT_PIECES.to_vec(),
            ]
        });
        let rule = |ranks: Option<Vec<Int>>, pieces: Vec<PieceKind>| {
            ranks.map(|ranks| PromotionRule { ranks, pieces })
        };
        game.promotions = Some(Promotions {
            white: rule(white, aw),
            black: rule(black, ab),
        });
    } else if allowed.is_some() {
        return Err(error::json(
            path,
            "\"promotionsAllowed\" without \"promotionRanks\"",
        ));
    }
    Ok(())
}

/// Reads one move of the long form: a string or an object.
///
/// ```
/// use notate::infinite::{long, Coord};
/// let mv = long::move_from_json(r#"{"startCoords":"2,-3","endCoords":[2,-4],"promotion":"hawksB"}"#).unwrap();
/// assert_eq!(mv.to, Coord::new(2, -4));
/// assert!(long::move_from_json(r#"{"startCoords":[0,0],"endCoords":[1,1],"promotion":"dragonsW"}"#).is_err());
/// ```
pub fn move_from_json(text: &str) -> Result<Move, Error> {
    let raw: &RawValue = serde_json::from_str(text).map_err(|e| error::json("$", e.to_string()))?;
    read_move(raw, Path::Root)
}

/// Reads a move as the long form writes it in a string: `2,7>1,8Q` (or `2,7>1,8=Q`).
///
/// ```
/// use notate::infinite::{long, Coord};
/// let mv = long::move_from_text("2,7>1,8Q").unwrap();
/// assert_eq!(mv.to, Coord::new(1, 8));
/// assert!(long::move_from_text("2,7>").is_err());
/// ```
pub fn move_from_text(text: &str) -> Result<Move, Error> {
    short::parse_move(text)
}

/// Writes a move as the long form's 2024 dialect holds it, a string: `2,7>1,8Q`.
///
/// ```
/// use notate::infinite::{long, Coord, Move};
/// let mut text = String::new();
/// long::write_move_text(&Move::new(Coord::new(5, 1), Coord::new(5, 2)), &mut text);
/// assert_eq!(text, "5,1>5,2");
/// ```
pub fn write_move_text(mv: &Move, out: &mut String) {
    mv.from.write_to(out);
    out.push('>');
    mv.to.write_to(out);
    if let Some(p) = mv.promotion {
        out.push_str(p.code());
    }
}

fn read_move(raw: &RawValue, path: Path<'_>) -> Result<Move, Error> {
    if let Ok(text) = serde_json::from_str::<&str>(raw.get()) {
        return move_from_text(text).map_err(|e| error::json(path, e.to_string()));
    }
    let mut from = None;
    let mut to = None;
    let mut mv_piece = None;
    let mut captured = None;
    let mut promotion = None;
    let (mut check, mut mate) = (false, false);
    let mut comment = None;
    let mut clock = None;
    for (key, v) in object(raw, path)?.0 {
        let p = path.key(&key);
        // The reference tests each optional field for truth: `null`, `false` and `""` are
        // absent (what other tools write for a field they have no value for).
        let optional = !matches!(&*key, "startCoords" | "endCoords");
        if optional && matches!(v.get().trim(), "null" | "false" | "\"\"") {
            continue;
        }
        match &*key {
            "startCoords" => from = Some(coords(v, p)?),
            "endCoords" => to = Some(coords(v, p)?),
            "type" => mv_piece = Some(piece_name(parse(v, p, "a piece type")?, p)?),
            "captured" => captured = Some(piece_name(parse(v, p, "a piece type")?, p)?),
            "promotion" => promotion = Some(piece_name(parse(v, p, "a piece type")?, p)?),
            "check" => check = parse(v, p, "true or false")?,
            "mate" => mate = parse(v, p, "true or false")?,
            "comment" => comment = Some(parse::<String>(v, p, "a string")?),
            "clockStamp" => clock = Some(parse::<u64>(v, p, "milliseconds")?),
            // Worked out again by the replay; only their shape is checked.
            "enpassant" => {
                let d: i64 = parse(v, p, "-1 or 1")?;
                if d != 1 && d != -1 {
                    return Err(error::json(p, "expected -1 or 1"));
                }
            }
            "castle" => {
                let c = object(v, p)?;
                for (k, v) in c.0 {
                    match &*k {
                        "dir" => {
                            let _: i64 = parse(v, p.key("dir"), "-1 or 1")?;
                        }
                        "coord" => {
                            coords(v, p.key("coord"))?;
                        }
                        _ => return Err(error::json(p.key(&k), "unknown key")),
                    }
                }
            }
            "compact" | "token" => {
                let _: &str = parse(v, p, "a string")?;
            }
            _ => return Err(error::json(p, format!("unknown key {key:?}"))),
        }
    }
    let (Some(from), Some(to)) = (from, to) else {
        return Err(error::json(
            path,
            "a move needs \"startCoords\" and \"endCoords\"",
        ));
    };
    let mut mv = Move::new(from, to);
    mv.piece = mv_piece;
    mv.capture = captured.is_some();
    mv.captured = captured;
    mv.promotion = promotion;
    mv.check = check;
    mv.mate = mate;
    if comment.is_some() || clock.is_some() {
        let notes = mv.notes_mut();
        notes.comment = comment;
        notes.clock_ms = clock;
    }
    Ok(mv)
}

/// Writes the long form.
///
/// Keys come in the order of [`Game::layout`] (the order they were read in), then any other
/// key in the reference's order.
///
/// ```
/// use notate::infinite::{long, short};
/// let game = short::read_one("b K5,1+|k5,8 1. ... k5,8 > 5,7").unwrap();
/// let options = long::WriteOptions { pretty: false, ..Default::default() };
/// assert_eq!(
///     long::to_string_with(&game, options).unwrap(),
///     r#"{"gameRules":{"winConditions":{"white":["checkmate"],"black":["checkmate"]}},"metadata":{},"turn":"black","specialRights":{"5,1":true},"startingPosition":{"5,1":"kingsW","5,8":"kingsB"},"shortposition":"K5,1+|k5,8","moves":["5,8>5,7"]}"#.to_owned() + "\n"
/// );
/// ```
pub(crate) fn to_json(game: &Game, options: &WriteOptions) -> Result<String, Error> {
    let legacy = if options.legacy_moves && game.moves.as_ref().is_some_and(|m| !m.is_empty()) {
        Some(replay::replay(game)?)
    } else {
        None
    };
    let mut json = JsonWriter::new(options.pretty, estimate(game));
    json.open('{');
    let mut keys: Vec<TopKey> = game.layout.top.clone();
    for key in TopKey::ALL {
        if !keys.contains(&key) && has_top(game, key) {
            keys.push(key);
        }
    }
    for key in keys {
        match key {
            TopKey::GameRules => {
                json.key("gameRules");
                write_rules(game, &mut json);
            }
            TopKey::Metadata => {
                json.key("metadata");
                json.open('{');
                for (k, v) in &game.metadata {
                    json.key(k);
                    json.string(v);
                }
                json.close('}');
            }
            TopKey::Turn => {
                if let Some(turn) = game.turn {
                    json.key("turn");
                    json.string(turn.name());
                }
            }
            TopKey::EnPassant => {
                if let Some(ep) = &game.en_passant {
                    json.key("enpassant");
                    json.coords(ep);
                }
            }
            TopKey::MoveRule => {
                if let Some(rule) = &game.move_rule {
                    json.key("moveRule");
                    json.string(&format!("{}/{}", rule.counter, rule.limit));
                }
            }
            TopKey::FullMove => {
                if let Some(n) = game.full_move {
                    json.key("fullMove");
                    json.raw(itoa::Buffer::new().format(n));
                }
            }
            TopKey::SpecialRights => {
                if let Some(position) = &game.position {
                    json.key("specialRights");
                    json.open('{');
                    let mut key = String::new();
                    for square in position.special_rights() {
                        key.clear();
                        square.write_to(&mut key);
                        json.key(&key);
                        json.raw("true");
                    }
                    json.close('}');
                }
            }
            TopKey::StartingPosition => {
                if let Some(position) = &game.position {
                    json.key("startingPosition");
                    if game.layout.position_as_text {
                        json.string(&short::write_position(position));
                        continue;
                    }
                    json.open('{');
                    let mut key = String::new();
                    let mut name = String::new();
                    for (square, piece) in position.iter() {
                        key.clear();
                        square.write_to(&mut key);
                        json.key(&key);
                        name.clear();
                        name.push_str(piece.kind.plural());
                        name.push_str(match piece.player {
                            Player::White => "W",
                            Player::Black => "B",
                            Player::Neutral => "N",
                        });
                        json.string(&name);
                    }
                    json.close('}');
                }
            }
            TopKey::ShortPosition => {
                if let Some(position) = &game.position {
                    json.key("shortposition");
                    json.string(&short::write_position(position));
                }
            }
            TopKey::Moves => {
                if let Some(moves) = &game.moves {
                    json.key("moves");
                    write_moves(moves, legacy.as_deref(), options, &mut json);
                }
            }
            TopKey::PresetAnnotes => {
                if let Some(presets) = &game.presets {
                    json.key("presetAnnotes");
                    write_presets(presets, &mut json);
                }
            }
        }
    }
    json.close('}');
    Ok(json.finish())
}

fn estimate(game: &Game) -> usize {
    512 + game.position.as_ref().map_or(0, |p| p.len() * 40)
        + game.moves.as_ref().map_or(0, |m| m.len() * 20)
}

fn has_top(game: &Game, key: TopKey) -> bool {
    match key {
        TopKey::Metadata => true,
        TopKey::GameRules => {
            game.promotions.is_some()
                || game.win_conditions.is_some()
                || game.world_border.is_some()
                || !game.extra_rules.is_empty()
        }
        TopKey::Turn => game.turn.is_some(),
        TopKey::EnPassant => game.en_passant.is_some(),
        TopKey::MoveRule => game.move_rule.is_some(),
        TopKey::FullMove => game.full_move.is_some(),
        TopKey::SpecialRights => {
            !game.layout.position_as_text
                && game
                    .position
                    .as_ref()
                    .is_some_and(|p| p.special_rights_len() > 0)
        }
        TopKey::StartingPosition => game.position.is_some(),
        TopKey::ShortPosition => false,
        TopKey::Moves => game.moves.is_some(),
        TopKey::PresetAnnotes => game.presets.is_some(),
    }
}

/// The site's `presetAnnotes` object.
fn write_presets(presets: &Presets, json: &mut JsonWriter) {
    json.open('{');
    if let Some(squares) = &presets.squares {
        json.key("squares");
        json.open('[');
        for square in squares {
            json.coords(square);
        }
        json.close(']');
    }
    if let Some(rays) = &presets.rays {
        json.key("rays");
        json.open('[');
        for ray in rays {
            json.open('{');
            json.key("start");
            json.coords(&ray.start);
            json.key("vector");
            json.coords(&ray.vector);
            json.close('}');
        }
        json.close(']');
    }
    json.close('}');
}

fn write_rules(game: &Game, json: &mut JsonWriter) {
    let mut keys = game.layout.rules.clone();
    let mut wanted = Vec::new();
    if let Some(p) = &game.promotions {
        wanted.push(RuleKey::PromotionRanks);
        // Like the reference, a document without the list gets none (the default applies).
        let default = |r: &Option<PromotionRule>| r.as_ref().is_none_or(|r| r.has_default_pieces());
        if !(default(&p.white) && default(&p.black)) {
            wanted.push(RuleKey::PromotionsAllowed);
        }
    }
    if game.win_conditions.is_some() {
        wanted.push(RuleKey::WinConditions);
    }
    if game.world_border.is_some() {
        wanted.push(RuleKey::WorldBorder);
    }
    wanted.extend(game.extra_rules.keys().map(|k| RuleKey::Extra(k.clone())));
    for key in wanted {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    json.open('{');
    for key in keys {
        match key {
            RuleKey::PromotionRanks => {
                let Some(p) = &game.promotions else { continue };
                json.key("promotionRanks");
                json.open('[');
                for side in [&p.white, &p.black] {
                    match side {
                        None => json.raw("null"),
                        Some(rule) if rule.ranks.len() == 1 => json.int(&rule.ranks[0]),
                        Some(rule) => {
                            json.open('[');
                            for r in &rule.ranks {
                                json.int(r);
                            }
                            json.close(']');
                        }
                    }
                }
                json.close(']');
            }
            RuleKey::PromotionsAllowed => {
                let Some(p) = &game.promotions else { continue };
                json.key("promotionsAllowed");
                json.open('{');
                for (name, side) in [("white", &p.white), ("black", &p.black)] {
                    json.key(name);
                    json.open('[');
                    for kind in side.iter().flat_map(|r| r.pieces.iter()) {
                        json.string(kind.plural());
                    }
                    json.close(']');
                }
                json.close('}');
            }
            RuleKey::WinConditions => {
                let Some(w) = &game.win_conditions else {
                    continue;
                };
                json.key("winConditions");
                json.open('{');
                for (name, list) in [("white", &w.white), ("black", &w.black)] {
                    json.key(name);
                    json.open('[');
                    for c in list {
                        json.string(c.name());
                    }
                    json.close(']');
                }
                json.close('}');
            }
            RuleKey::WorldBorder => {
                let Some(b) = &game.world_border else {
                    continue;
                };
                json.key("worldBorder");
                json.open('[');
                for edge in [&b.left, &b.right, &b.bottom, &b.top] {
                    match edge {
                        Some(n) => json.int(n),
                        None => json.raw("null"),
                    }
                }
                json.close(']');
            }
            RuleKey::Extra(k) => {
                let Some(v) = game.extra_rules.get(&k) else {
                    continue;
                };
                json.key(&k);
                json.value(v);
            }
        }
    }
    json.close('}');
}

fn write_moves(
    moves: &[Move],
    legacy: Option<&[replay::Played]>,
    options: &WriteOptions,
    json: &mut JsonWriter,
) {
    json.open('[');
    let mut text = String::new();
    for (i, mv) in moves.iter().enumerate() {
        if let Some(played) = legacy {
            write_legacy(mv, &played[i], json);
        } else if options.dialect == Dialect::V2025 {
            json.open('{');
            json.key("startCoords");
            json.coords(&mv.from);
            json.key("endCoords");
            json.coords(&mv.to);
            if let Some(p) = mv.promotion {
                json.key("promotion");
                json.string(&p.long_name());
            }
            if let Some(notes) = &mv.notes {
                if let Some(c) = &notes.comment {
                    json.key("comment");
                    json.string(c);
                }
                if let Some(ms) = notes.clock_ms {
                    json.key("clockStamp");
                    json.raw(itoa::Buffer::new().format(ms));
                }
            }
            json.close('}');
        } else {
            text.clear();
            write_move_text(mv, &mut text);
            json.string(&text);
        }
    }
    json.close(']');
}

fn write_legacy(mv: &Move, played: &replay::Played, json: &mut JsonWriter) {
    json.open('{');
    json.key("type");
    json.string(&played.piece.long_name());
    json.key("startCoords");
    json.coords(&mv.from);
    json.key("endCoords");
    json.coords(&mv.to);
    if let Some((_, captured)) = &played.captured {
        json.key("captured");
        json.string(&captured.long_name());
    }
    if let Some(p) = mv.promotion {
        json.key("promotion");
        json.string(&p.long_name());
    }
    if played.en_passant {
        json.key("enpassant");
        json.raw(if played.piece.player == Player::White {
            "-1"
        } else {
            "1"
        });
    }
    if let Some((dir, partner)) = &played.castle {
        json.key("castle");
        json.open('{');
        json.key("dir");
        json.raw(if *dir > 0 { "1" } else { "-1" });
        json.key("coord");
        json.coords(partner);
        json.close('}');
    }
    if mv.check || mv.mate {
        json.key("check");
        json.raw("true");
    }
    if mv.mate {
        json.key("mate");
        json.raw("true");
    }
    json.close('}');
}

/// A JSON writer laid out as `JSON.stringify(value, null, 2)` (or on one line). Written by
/// hand because numbers of any size must go out as they are, which `serde_json::Value`
/// cannot hold without changing every other user of the crate (`arbitrary_precision`).
struct JsonWriter {
    out: String,
    pretty: bool,
    /// One entry per open container: whether it has an item yet.
    stack: Vec<bool>,
    after_key: bool,
}

impl JsonWriter {
    fn new(pretty: bool, capacity: usize) -> JsonWriter {
        JsonWriter {
            out: String::with_capacity(capacity),
            pretty,
            stack: Vec::new(),
            after_key: false,
        }
    }

    fn newline(&mut self, depth: usize) {
        self.out.push('\n');
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    /// Before a value or a key: the comma and the line break.
    fn item(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        let depth = self.stack.len();
        if let Some(has_items) = self.stack.last_mut() {
            if *has_items {
                self.out.push(',');
            }
            *has_items = true;
            if self.pretty {
                self.newline(depth);
            }
        }
    }

    fn open(&mut self, bracket: char) {
        self.item();
        self.out.push(bracket);
        self.stack.push(false);
    }

    fn close(&mut self, bracket: char) {
        let had_items = self.stack.pop().expect("balanced");
        if had_items && self.pretty {
            self.newline(self.stack.len());
        }
        self.out.push(bracket);
    }

    fn key(&mut self, key: &str) {
        self.item();
        push_string(&mut self.out, key);
        self.out.push_str(if self.pretty { ": " } else { ":" });
        self.after_key = true;
    }

    fn string(&mut self, s: &str) {
        self.item();
        push_string(&mut self.out, s);
    }

    fn raw(&mut self, text: &str) {
        self.item();
        self.out.push_str(text);
    }

    fn int(&mut self, n: &Int) {
        self.item();
        n.write_to(&mut self.out);
    }

    fn coords(&mut self, c: &Coord) {
        self.open('[');
        self.int(&c.x);
        self.int(&c.y);
        self.close(']');
    }

    fn value(&mut self, v: &serde_json::Value) {
        match v {
            serde_json::Value::Array(items) => {
                self.open('[');
                for item in items {
                    self.value(item);
                }
                self.close(']');
            }
            serde_json::Value::Object(map) => {
                self.open('{');
                for (k, item) in map {
                    self.key(k);
                    self.value(item);
                }
                self.close('}');
            }
            other => {
                let text = serde_json::to_string(other).expect("JSON to memory");
                self.raw(&text);
            }
        }
    }

    fn finish(self) -> String {
        self.out
    }
}

fn push_string(out: &mut String, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        out.push_str(&serde_json::to_string(s).expect("JSON to memory"));
    }
}

/// The long form: JSON documents, one game each.
#[derive(Debug, Default)]
pub struct IcnJson {
    options: WriteOptions,
}

/// How the long form is read (nothing to choose: both dialects are read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {}

read_format!(
    IcnJson,
    Game,
    "ICN long-form JSON",
    ReadOptions,
    whole,
    |record, options| {
        match utf8(record) {
            Ok(text) => from_json_stream(text).collect(),
            Err(e) => vec![Err(e)],
        }
    }
);

impl WriteFormat for IcnJson {
    type Game = Game;
    type WriteOptions = WriteOptions;

    fn new(options: WriteOptions) -> IcnJson {
        IcnJson { options }
    }

    fn write_game(&mut self, game: &Game, out: &mut Vec<u8>) -> Result<(), Error> {
        out.extend_from_slice(to_json(game, &self.options)?.as_bytes());
        out.push(b'\n');
        Ok(())
    }
}

write_verbs!(IcnJson, Game, "ICN long-form JSON");
