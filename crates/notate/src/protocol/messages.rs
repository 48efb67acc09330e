//! Every message the jsonchess server and client exchange, typed.
//!
//! On the wire a message is `{"topic": "/game/123/move", "data": …}` (`data` may be absent).
//! [`ClientMessage`] holds what a client sends, [`ServerMessage`] what a server sends; both
//! parse from and serialize to exactly that JSON. Parsing refuses an unknown topic, unknown
//! or missing fields and values out of range, with an error naming the topic and the field.
//!
//! ```
//! use notate::protocol::messages::{ClientMessage, MoveRequest};
//! let msg = ClientMessage::parse(r#"{"topic":"/game/7/move","data":{"from":12,"to":28}}"#).unwrap();
//! assert_eq!(msg, ClientMessage::Move { game: "7".into(), request: MoveRequest::new(12, 28, None).unwrap() });
//! assert_eq!(msg.to_json(), r#"{"topic":"/game/7/move","data":{"from":12,"to":28}}"#);
//! let err = ClientMessage::parse(r#"{"topic":"/game/7/move","data":{"from":64,"to":28}}"#).unwrap_err();
//! assert_eq!(err.to_string(), "/game/7/move: data.from: 64 is not a square number (0 = a1 … 63 = h8)");
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::wire::{path_at, read_number, read_str, wire_names};
use crate::chess::jsonchess::PackedMove;

/// A message as it travels: a topic and optional data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    /// The topic, a path such as `/game/123/move`.
    pub topic: String,
    /// The data.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub data: Option<Value>,
}

/// A message that cannot be read: which topic, which field, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{field}: {reason}", if topic.is_empty() { String::new() } else { format!("{topic}: ") })]
pub struct MessageError {
    /// The topic (empty when the envelope itself is bad).
    pub topic: String,
    /// The field: `topic`, `data`, or a path into the data (`data.history[3]`).
    pub field: String,
    /// What is wrong.
    pub reason: String,
}

fn error(topic: &str, field: &str, reason: impl Into<String>) -> MessageError {
    MessageError {
        topic: topic.chars().take(200).collect(),
        field: field.chars().take(200).collect(),
        reason: reason.into(),
    }
}

// ---------------------------------------------------------------------------------------
// Values that appear in the data.

/// A colour on the wire: `"w"` or `"b"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// `"w"`.
    White,
    /// `"b"`.
    Black,
}

wire_names!(Colour {
    White = "w",
    Black = "b",
});

/// A square number: 0 = a1, 1 = b1 … 63 = h8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct SquareNo(u8);

impl SquareNo {
    /// A square number, if it is one (0 … 63).
    pub fn new(n: u8) -> Option<SquareNo> {
        (n < 64).then_some(SquareNo(n))
    }

    /// The square.
    pub fn square(self) -> shakmaty::Square {
        shakmaty::Square::new(u32::from(self.0))
    }
}

impl<'de> Deserialize<'de> for SquareNo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SquareNo, D::Error> {
        read_number(d, "u64", u64::MAX, |n| {
            u8::try_from(n)
                .ok()
                .and_then(SquareNo::new)
                .ok_or_else(|| format!("{n} is not a square number (0 = a1 … 63 = h8)"))
        })
    }
}

/// A promotion piece: `"N"`, `"B"`, `"R"` or `"Q"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromotionPiece {
    /// Knight.
    N,
    /// Bishop.
    B,
    /// Rook.
    R,
    /// Queen.
    Q,
}

wire_names!(PromotionPiece {
    N = "N",
    B = "B",
    R = "R",
    Q = "Q",
});

impl PromotionPiece {
    /// The piece.
    pub fn role(self) -> shakmaty::Role {
        match self {
            PromotionPiece::N => shakmaty::Role::Knight,
            PromotionPiece::B => shakmaty::Role::Bishop,
            PromotionPiece::R => shakmaty::Role::Rook,
            PromotionPiece::Q => shakmaty::Role::Queen,
        }
    }
}

/// A move or premove request: `{"from":12,"to":28}`, `"promoteTo"` for promotions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MoveRequest {
    /// From.
    pub from: SquareNo,
    /// To.
    pub to: SquareNo,
    /// The promotion piece.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub promote_to: Option<PromotionPiece>,
}

impl MoveRequest {
    /// A request from square numbers, if they are squares.
    pub fn new(from: u8, to: u8, promote_to: Option<PromotionPiece>) -> Option<MoveRequest> {
        Some(MoveRequest {
            from: SquareNo::new(from)?,
            to: SquareNo::new(to)?,
            promote_to,
        })
    }
}

/// A seek's rating bound: `"+100"`/`"-100"` relative to the seeker's rating, or an absolute
/// `"1800"` (strings on the wire, as the reference server parses them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RatingBound {
    /// Relative to the seeker's rating.
    Relative(i32),
    /// An absolute rating.
    Absolute(u32),
}

impl Serialize for RatingBound {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            RatingBound::Relative(n) if n >= 0 => s.serialize_str(&format!("+{n}")),
            RatingBound::Relative(n) => s.serialize_str(&n.to_string()),
            RatingBound::Absolute(n) => s.serialize_str(&n.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for RatingBound {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RatingBound, D::Error> {
        read_str(d, RatingBound::parse)
    }
}

impl RatingBound {
    fn parse(text: &str) -> Result<RatingBound, String> {
        let bad = || format!("{text:?} is not a rating bound (\"+100\", \"-100\" or \"1800\")");
        let digits =
            |t: &str| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit());
        if let Some(rest) = text.strip_prefix('+') {
            return digits(rest)
                .then(|| RatingBound::Relative(rest.parse().unwrap_or(0)))
                .ok_or_else(bad);
        }
        if let Some(rest) = text.strip_prefix('-') {
            return digits(rest)
                .then(|| RatingBound::Relative(-rest.parse::<i32>().unwrap_or(0)))
                .ok_or_else(bad);
        }
        digits(text)
            .then(|| RatingBound::Absolute(text.parse().unwrap_or(0)))
            .ok_or_else(bad)
    }
}

/// A value for each colour: `{"w":…,"b":…}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByColour<T> {
    /// White's.
    pub w: T,
    /// Black's.
    pub b: T,
}

/// A number as JavaScript writes it: `1500`, not `1500.0` (the reference server's numbers
/// are JavaScript's, and a whole rating must serialize as it came); a whole number up to
/// 2^64 in digits, `1152921504606847000` (the shortest digits that read back, then zeros),
/// as JavaScript writes it.
fn js_number<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.fract() == 0.0 && x.abs() < 1e21 {
        // Rust writes a double as JavaScript does in this range: its shortest digits that
        // read back, without an exponent. As an i64 or u64, which every serializer takes
        // (serde_json's `Value` refuses a wider i128); past them, the exponent form.
        let digits = format!("{x}");
        if let Ok(n) = digits.parse::<i64>() {
            return s.serialize_i64(n);
        }
        if let Ok(n) = digits.parse::<u64>() {
            return s.serialize_u64(n);
        }
    }
    s.serialize_f64(*x)
}

fn js_numbers<S: Serializer>(x: &ByColour<f64>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    struct Js(f64);
    impl Serialize for Js {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            js_number(&self.0, s)
        }
    }
    let mut st = s.serialize_struct("ByColour", 2)?;
    st.serialize_field("w", &Js(x.w))?;
    st.serialize_field("b", &Js(x.b))?;
    st.end()
}

/// Time added to each clock (ms). The reference server also writes a key `"undefined"` here
/// after a restoration (its bug); such extra keys are kept, so the game still reads and
/// writes back as it came.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AddedTime {
    /// White's.
    pub w: u64,
    /// Black's.
    pub b: u64,
    /// Any other keys, as sent.
    #[serde(flatten)]
    pub other: serde_json::Map<String, Value>,
}

/// A time control in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TimeOptions {
    /// Time on each clock at the start.
    pub initial_time: u64,
    /// Added after each timed move.
    pub time_increment: u64,
}

/// What a seek asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SeekOptions {
    /// Time on each clock at the start (ms).
    pub initial_time: u64,
    /// Added after each timed move (ms).
    pub time_increment: u64,
    /// The lowest opponent rating accepted.
    pub accept_rating_min: RatingBound,
    /// The highest.
    pub accept_rating_max: RatingBound,
}

/// A player (or a bot: `isUser` false, no `isConnected`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Player {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Rating.
    #[serde(serialize_with = "js_number")]
    pub rating: f64,
    /// A user, not a bot.
    pub is_user: bool,
    /// Whether the user is connected (users only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub is_connected: Option<bool>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultType {
    /// `checkmate`
    Checkmate,
    /// `resignation`
    Resignation,
    /// `fifty move rule`
    FiftyMoveRule,
    /// `threefold`
    Threefold,
    /// `timeout`
    Timeout,
    /// `insufficient material`
    InsufficientMaterial,
    /// `stalemate`
    Stalemate,
    /// `draw agreed`
    DrawAgreed,
}

wire_names!(ResultType {
    Checkmate = "checkmate",
    Resignation = "resignation",
    FiftyMoveRule = "fifty move rule",
    Threefold = "threefold",
    Timeout = "timeout",
    InsufficientMaterial = "insufficient material",
    Stalemate = "stalemate",
    DrawAgreed = "draw agreed",
});

/// A game's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GameOutcome {
    /// The winner, `null` for a draw.
    pub winner: Option<Colour>,
    /// A draw.
    pub is_draw: bool,
    /// 1, 0 or 0.5 each.
    #[serde(serialize_with = "js_numbers")]
    pub scores: ByColour<f64>,
    /// How it ended.
    #[serde(rename = "type")]
    pub kind: ResultType,
    /// In words: "white won by checkmate".
    pub description: String,
    /// "1-0", "0-1" or "½-½".
    pub summary: String,
}

/// A game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GameJson {
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The moves, packed.
    pub history: Vec<PackedMove>,
    /// Still being played.
    pub is_in_progress: bool,
    /// The result, once over.
    pub result: Option<GameOutcome>,
    /// Start, ms since the Unix epoch.
    pub start_time: u64,
    /// End.
    pub end_time: Option<u64>,
    /// Ratings at the start.
    #[serde(serialize_with = "js_numbers")]
    pub initial_ratings: ByColour<f64>,
    /// Time added to the clocks (restoration).
    pub added_time: AddedTime,
    /// An undo was requested.
    pub is_undo_requested: bool,
    /// A draw is offered.
    pub is_draw_offered: bool,
    /// Who offered a rematch.
    pub rematch_offered_by: Option<Colour>,
    /// Time control.
    pub options: TimeOptions,
    /// Id.
    pub id: String,
}

/// A seek.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Seek {
    /// Id.
    pub id: String,
    /// Who seeks.
    pub owner: Player,
    /// What for.
    pub options: SeekOptions,
    /// When it expires, ms since the Unix epoch.
    pub expiry_time: u64,
}

/// A user's preferences; an update carries only the ones that change.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Prefs {
    /// Premoves on.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub premove: Option<bool>,
    /// Always promote to a queen.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub always_queen: Option<bool>,
    /// Sound on.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sound: Option<bool>,
    /// Piece set.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub piece_style: Option<String>,
    /// Board size.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub board_size: Option<u32>,
    /// Board colours.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub board_style: Option<String>,
}

/// The private view of the connected user.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PrivateUser {
    /// The player id.
    pub player_id: String,
    /// User name (`"Anonymous"` when logged out).
    pub username: String,
    /// Logged in.
    pub is_logged_in: bool,
    /// Rating.
    #[serde(serialize_with = "js_number")]
    pub rating: f64,
    /// The open seek.
    pub current_seek: Option<Seek>,
    /// The options of the last seek.
    pub last_seek_options: Option<SeekOptions>,
    /// Preferences.
    pub prefs: Prefs,
}

/// Login or registration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// User name.
    pub username: String,
    /// Password.
    pub password: String,
}

/// A game as a client backed it up, to be restored after a server restart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GameDetails {
    /// The moves, packed.
    pub history: Vec<PackedMove>,
    /// Start, ms since the Unix epoch.
    pub start_time: u64,
    /// Time control.
    pub options: TimeOptions,
    /// Time added to the clocks.
    pub added_time: AddedTime,
    /// Id.
    pub id: String,
}

/// A restoration request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RestoreRequest {
    /// The game.
    pub game_details: GameDetails,
    /// The colour the sender played.
    pub playing_as: Colour,
}

/// A new tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TournamentOptions {
    /// Name.
    pub name: String,
    /// Players: a power of two, at least 4.
    #[serde(deserialize_with = "players_required")]
    pub players_required: u32,
    /// Time on each clock at the start (ms).
    pub initial_time: u64,
    /// Added after each timed move (ms).
    pub time_increment: u64,
}

fn players_required<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    read_number(d, "u32", u32::MAX.into(), |n| {
        let n = n as u32; // At most `u32::MAX`.
        if n >= 4 && n.is_power_of_two() {
            Ok(n)
        } else {
            Err(format!("{n} players: a power of two, at least 4"))
        }
    })
}

/// A chat line as the server relays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatLine {
    /// Sender's name.
    pub from: String,
    /// Text.
    pub body: String,
}

/// A move shown as from/to square numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LastMove {
    /// From.
    pub from: SquareNo,
    /// To.
    pub to: SquareNo,
}

/// A board of the random-games feed: 64 characters in square-number order, a FEN piece
/// letter or a space each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct BoardString(String);

impl BoardString {
    /// The string, if it is a board.
    pub fn new(text: String) -> Option<BoardString> {
        let ok = text.len() == 64 && text.bytes().all(|b| b" PNBRQKpnbrqk".contains(&b));
        ok.then_some(BoardString(text))
    }

    /// The 64 characters.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for BoardString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BoardString, D::Error> {
        read_str(d, |text| {
            BoardString::new(text.to_string()).ok_or_else(|| {
                "not a board: 64 characters, each a FEN piece letter or a space".to_string()
            })
        })
    }
}

/// A game of the random-games feed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RandomGame {
    /// Game id.
    pub id: String,
    /// The board.
    pub board: BoardString,
    /// The last move.
    pub last_move: Option<LastMove>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// "10/0" and the like.
    pub timing_description: String,
}

/// The feeds a client can switch on and off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feed {
    /// `/random_games`
    RandomGames,
    /// `/list/seeks`
    Seeks,
    /// `/users_online`
    UsersOnline,
    /// `/lobby`: notate's channel of generic updates, which the protocol's README plans to
    /// supersede the feeds: the lobby as one document (`seeks`, `users` online, `games` in
    /// progress), then [`crate::protocol::updates`] to it.
    Lobby,
}

wire_names!(Feed {
    RandomGames = "/random_games",
    Seeks = "/list/seeks",
    UsersOnline = "/users_online",
    Lobby = "/lobby",
});

impl Serialize for PackedMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PackedMove {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PackedMove, D::Error> {
        read_str(d, |text| PackedMove::parse(text).map_err(|e| e.to_string()))
    }
}

// ---------------------------------------------------------------------------------------
// Reading data.

/// Reads the data of `topic` as a `T`, naming the failing field.
///
/// The data is read from its JSON text, written one value a line, and the place serde_json
/// gives for a failure is turned into the field's path by `wire::path_at`. serde_path_to_error,
/// which wraps the deserializer of every nested value and so makes a copy of every message
/// type's reader, gave the same paths for 66 KB more WebAssembly (10 KB gzipped, in an npm
/// package with a size budget); the unit tests compare the two.
fn data<T: DeserializeOwned>(topic: &str, data: Option<Value>) -> Result<T, MessageError> {
    let value = data.ok_or_else(|| error(topic, "data", "missing"))?;
    #[cfg(test)]
    if tests::BY_PATH_TO_ERROR.with(|on| on.get()) {
        return tests::data_by_path_to_error(topic, value);
    }
    // One value a line: where a value ends is then never where its object or array ends
    // (see `path_at`).
    let text = serde_json::to_string_pretty(&value).expect("a JSON value serializes");
    serde_json::from_str(&text).map_err(|e| {
        let line_start: usize = text
            .split_inclusive('\n')
            .take(e.line().saturating_sub(1))
            .map(str::len)
            .sum();
        // serde_json's column is the number of bytes before the place on its line.
        let path = path_at(&text, line_start + e.column());
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&place).unwrap_or(&message);
        error(topic, &format!("data{path}"), message)
    })
}

/// A topic without data (an absent or `null` data is accepted).
fn no_data(topic: &str, data: &Option<Value>) -> Result<(), MessageError> {
    match data {
        None | Some(Value::Null) => Ok(()),
        Some(_) => Err(error(topic, "data", "this topic carries no data")),
    }
}

fn envelope(text: &str) -> Result<Envelope, MessageError> {
    serde_json::from_str(text).map_err(|e| error("", "envelope", e.to_string()))
}

/// The parts of a topic: `/game/123/move` → `["game", "123", "move"]`.
fn parts(topic: &str) -> Result<Vec<&str>, MessageError> {
    let rest = topic
        .strip_prefix('/')
        .ok_or_else(|| error(topic, "topic", "a topic starts with /"))?;
    let parts: Vec<&str> = rest.split('/').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(error(topic, "topic", "an empty part"));
    }
    Ok(parts)
}

fn unknown(topic: &str) -> MessageError {
    error(topic, "topic", "unknown topic")
}

fn with_data(topic: String, value: impl Serialize) -> Envelope {
    Envelope {
        topic,
        data: Some(serde_json::to_value(value).expect("protocol data serializes")),
    }
}

fn bare(topic: String) -> Envelope {
    Envelope { topic, data: None }
}

// ---------------------------------------------------------------------------------------
// Client → server.

/// What a client sends.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientMessage {
    /// `/request/user`: asks for its user.
    RequestUser,
    /// `/request/time`: asks for the server time; the id comes back in the reply's topic.
    RequestTime(Value),
    /// `/user/login`
    Login(Credentials),
    /// `/user/logout`
    Logout,
    /// `/user/register`
    Register(Credentials),
    /// `/user/prefs/update`
    UpdatePrefs(Prefs),
    /// `/chat`: a lobby chat line.
    Chat(String),
    /// `/seek`
    Seek(SeekOptions),
    /// `/seek/cancel`
    CancelSeek,
    /// `/seek/accept`: a seek id.
    AcceptSeek(String),
    /// `/request/game`: a game id.
    RequestGame(String),
    /// `/request/games`
    RequestGames,
    /// `/game/restore`
    Restore(RestoreRequest),
    /// `/game/restore/cancel`: a game id.
    CancelRestore(String),
    /// `/request/restoration_requests`
    RequestRestorationRequests,
    /// `/feed/activate`
    ActivateFeed(Feed),
    /// `/feed/deactivate`
    DeactivateFeed(Feed),
    /// `/tournament/new`
    NewTournament(TournamentOptions),
    /// `/request/tournaments`
    RequestTournaments,
    /// `/game/<id>/move`
    Move {
        /// Game id.
        game: String,
        /// The move.
        request: MoveRequest,
    },
    /// `/game/<id>/premove`
    Premove {
        /// Game id.
        game: String,
        /// The premove.
        request: MoveRequest,
    },
    /// `/game/<id>/premove/cancel`
    CancelPremove {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/request/premove`
    RequestPremove {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/request/moves`: every move from this ply index.
    RequestMoves {
        /// Game id.
        game: String,
        /// The first ply index wanted.
        from: u32,
    },
    /// `/game/<id>/resign`
    Resign {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/offer_draw`
    OfferDraw {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/accept_draw`
    AcceptDraw {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/claim_draw`
    ClaimDraw {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/rematch`: offers a rematch, or accepts the opponent's offer.
    Rematch {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/rematch/decline`
    DeclineRematch {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/rematch/cancel`
    CancelRematch {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/chat`
    GameChat {
        /// Game id.
        game: String,
        /// The line.
        text: String,
    },
}

impl ClientMessage {
    /// Reads a message from its JSON text.
    pub fn parse(text: &str) -> Result<ClientMessage, MessageError> {
        ClientMessage::from_envelope(envelope(text)?)
    }

    /// Reads a message from its envelope.
    pub fn from_envelope(envelope: Envelope) -> Result<ClientMessage, MessageError> {
        use ClientMessage as M;
        let Envelope { topic, data: d } = envelope;
        let t = topic.as_str();
        let p = parts(t)?;
        let none = |m: ClientMessage| no_data(t, &d).map(|()| m);
        let game = |id: &str| id.to_string();
        Ok(match p.as_slice() {
            ["request", "user"] => none(M::RequestUser)?,
            ["request", "time"] => {
                M::RequestTime(d.ok_or_else(|| error(t, "data", "missing: the request id"))?)
            }
            ["user", "login"] => M::Login(data(t, d)?),
            ["user", "logout"] => none(M::Logout)?,
            ["user", "register"] => M::Register(data(t, d)?),
            ["user", "prefs", "update"] => M::UpdatePrefs(data(t, d)?),
            ["chat"] => M::Chat(data(t, d)?),
            ["seek"] => M::Seek(data(t, d)?),
            ["seek", "cancel"] => none(M::CancelSeek)?,
            ["seek", "accept"] => M::AcceptSeek(data(t, d)?),
            ["request", "game"] => M::RequestGame(data(t, d)?),
            ["request", "games"] => none(M::RequestGames)?,
            ["game", "restore"] => M::Restore(data(t, d)?),
            ["game", "restore", "cancel"] => M::CancelRestore(data(t, d)?),
            ["request", "restoration_requests"] => none(M::RequestRestorationRequests)?,
            ["feed", "activate"] => M::ActivateFeed(data(t, d)?),
            ["feed", "deactivate"] => M::DeactivateFeed(data(t, d)?),
            ["tournament", "new"] => M::NewTournament(data(t, d)?),
            ["request", "tournaments"] => none(M::RequestTournaments)?,
            ["game", id, "move"] => M::Move {
                game: game(id),
                request: data(t, d)?,
            },
            ["game", id, "premove"] => M::Premove {
                game: game(id),
                request: data(t, d)?,
            },
            ["game", id, "premove", "cancel"] => none(M::CancelPremove { game: game(id) })?,
            ["game", id, "request", "premove"] => none(M::RequestPremove { game: game(id) })?,
            ["game", id, "request", "moves"] => M::RequestMoves {
                game: game(id),
                from: data(t, d)?,
            },
            ["game", id, "resign"] => none(M::Resign { game: game(id) })?,
            ["game", id, "offer_draw"] => none(M::OfferDraw { game: game(id) })?,
            ["game", id, "accept_draw"] => none(M::AcceptDraw { game: game(id) })?,
            ["game", id, "claim_draw"] => none(M::ClaimDraw { game: game(id) })?,
            ["game", id, "rematch"] => none(M::Rematch { game: game(id) })?,
            ["game", id, "rematch", "decline"] => none(M::DeclineRematch { game: game(id) })?,
            ["game", id, "rematch", "cancel"] => none(M::CancelRematch { game: game(id) })?,
            ["game", id, "chat"] => M::GameChat {
                game: game(id),
                text: data(t, d)?,
            },
            _ => return Err(unknown(t)),
        })
    }

    /// The message's envelope.
    pub fn to_envelope(&self) -> Envelope {
        use ClientMessage as M;
        let s = |t: &str| t.to_string();
        match self {
            M::RequestUser => bare(s("/request/user")),
            M::RequestTime(id) => with_data(s("/request/time"), id),
            M::Login(c) => with_data(s("/user/login"), c),
            M::Logout => bare(s("/user/logout")),
            M::Register(c) => with_data(s("/user/register"), c),
            M::UpdatePrefs(p) => with_data(s("/user/prefs/update"), p),
            M::Chat(text) => with_data(s("/chat"), text),
            M::Seek(o) => with_data(s("/seek"), o),
            M::CancelSeek => bare(s("/seek/cancel")),
            M::AcceptSeek(id) => with_data(s("/seek/accept"), id),
            M::RequestGame(id) => with_data(s("/request/game"), id),
            M::RequestGames => bare(s("/request/games")),
            M::Restore(r) => with_data(s("/game/restore"), r),
            M::CancelRestore(id) => with_data(s("/game/restore/cancel"), id),
            M::RequestRestorationRequests => bare(s("/request/restoration_requests")),
            M::ActivateFeed(f) => with_data(s("/feed/activate"), f),
            M::DeactivateFeed(f) => with_data(s("/feed/deactivate"), f),
            M::NewTournament(o) => with_data(s("/tournament/new"), o),
            M::RequestTournaments => bare(s("/request/tournaments")),
            M::Move { game, request } => with_data(format!("/game/{game}/move"), request),
            M::Premove { game, request } => with_data(format!("/game/{game}/premove"), request),
            M::CancelPremove { game } => bare(format!("/game/{game}/premove/cancel")),
            M::RequestPremove { game } => bare(format!("/game/{game}/request/premove")),
            M::RequestMoves { game, from } => {
                with_data(format!("/game/{game}/request/moves"), from)
            }
            M::Resign { game } => bare(format!("/game/{game}/resign")),
            M::OfferDraw { game } => bare(format!("/game/{game}/offer_draw")),
            M::AcceptDraw { game } => bare(format!("/game/{game}/accept_draw")),
            M::ClaimDraw { game } => bare(format!("/game/{game}/claim_draw")),
            M::Rematch { game } => bare(format!("/game/{game}/rematch")),
            M::DeclineRematch { game } => bare(format!("/game/{game}/rematch/decline")),
            M::CancelRematch { game } => bare(format!("/game/{game}/rematch/cancel")),
            M::GameChat { game, text } => with_data(format!("/game/{game}/chat"), text),
        }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.to_envelope()).expect("envelopes serialize")
    }
}

// ---------------------------------------------------------------------------------------
// Server → client.

/// What a server sends.
#[derive(Clone, Debug, PartialEq)]
pub enum ServerMessage {
    /// `/user`: the private user.
    User(PrivateUser),
    /// `/time/<id>`: the server time (ms) for a `/request/time`.
    Time {
        /// The request id.
        request: String,
        /// Server time, ms since the Unix epoch.
        time: u64,
    },
    /// `/user/login/success`
    LoginSuccess(PrivateUser),
    /// `/user/login/failure`: why.
    LoginFailure(String),
    /// `/user/logout`: the new anonymous player id.
    LoggedOut(String),
    /// `/user/register/success`: the user, or `null` when not logged in automatically.
    RegisterSuccess(Option<PrivateUser>),
    /// `/user/register/failure`: why.
    RegisterFailure(String),
    /// `/chat`: a lobby chat line.
    Chat(ChatLine),
    /// `/seek/matched`: the new game.
    SeekMatched(Box<GameJson>),
    /// `/seek/waiting`: the open seek.
    SeekWaiting(Seek),
    /// `/seek/expired`
    SeekExpired,
    /// `/seek/error`: why.
    SeekError(String),
    /// `/game`: a game (the receiver is now a spectator or player).
    Game(Box<GameJson>),
    /// `/games`: the receiver's games.
    Games(Vec<GameJson>),
    /// `/game/not_found`: the id asked for.
    GameNotFound(String),
    /// `/game/restore/<id>/pending`
    RestorePending {
        /// Game id.
        game: String,
    },
    /// `/game/restore/<id>/success`
    RestoreSuccess {
        /// Game id.
        game: String,
        /// The restored game.
        restored: Box<GameJson>,
    },
    /// `/game/restore/<id>/failure`
    RestoreFailure {
        /// Game id.
        game: String,
        /// Why.
        reason: String,
    },
    /// `/restoration_requests`: ids of games waiting for the other player.
    RestorationRequests(Vec<String>),
    /// `/tournaments`: the tournament list, sent through the reference's "sup" update
    /// library, whose wire shape is not documented (kept as JSON; see
    /// [`crate::protocol::updates`] for the updates it carries).
    Tournaments(Value),
    /// `/tournament/new/success`: the tournament (its shape is not fixed by the protocol).
    TournamentCreated(Value),
    /// `/tournament/new/failure`: why.
    TournamentFailure(String),
    /// `/tournament/<id>/<event>`: `game`, `finished`, `player_eliminated`, `started`,
    /// `canceled`, `player_joined`, `player_left`.
    TournamentEvent {
        /// Tournament id.
        tournament: String,
        /// The event.
        event: TournamentEvent,
        /// The data, as sent.
        data: Option<Value>,
    },
    /// `/game/<id>/move`: a move, packed.
    Move {
        /// Game id.
        game: String,
        /// The move.
        packed: PackedMove,
    },
    /// `/game/<id>/game_over`
    GameOver {
        /// Game id.
        game: String,
        /// The result.
        result: GameOutcome,
    },
    /// `/game/<id>/aborted`
    Aborted {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/draw_offer`: who offers.
    DrawOffer {
        /// Game id.
        game: String,
        /// The offerer.
        by: Colour,
    },
    /// `/game/<id>/rematch/offered`: who offers.
    RematchOffered {
        /// Game id.
        game: String,
        /// The offerer.
        by: Colour,
    },
    /// `/game/<id>/rematch/declined`
    RematchDeclined {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/rematch/canceled`
    RematchCanceled {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/rematch/expired`
    RematchExpired {
        /// Game id.
        game: String,
    },
    /// `/game/<id>/rematch`: the new game, on the old game's topic.
    Rematch {
        /// The old game's id.
        game: String,
        /// The new game.
        new_game: Box<GameJson>,
    },
    /// `/game/<id>/premove`: the receiver's premove, or `null`.
    Premove {
        /// Game id.
        game: String,
        /// The premove.
        premove: Option<MoveRequest>,
    },
    /// `/game/<id>/chat`
    GameChat {
        /// Game id.
        game: String,
        /// The line.
        line: ChatLine,
    },
    /// `/player_connection_status/<playerId>`
    PlayerConnectionStatus {
        /// The player.
        player: String,
        /// Connected.
        connected: bool,
    },
    /// `/random_game`
    RandomGame(RandomGame),
    /// `/random_game/game_over`: the game id.
    RandomGameOver(String),
    /// `/list/seeks`: every open seek.
    Seeks(Vec<Seek>),
    /// `/list/seeks/add`
    SeekAdded(Seek),
    /// `/list/seeks/remove`: the seek id.
    SeekRemoved(String),
    /// `/list/users_online`: every user online. The reference server sends its internal user
    /// objects here (no defined shape), so they are kept as JSON.
    UsersOnline(Vec<Value>),
    /// `/list/users_online/add`: a user came online (shape as for [`ServerMessage::UsersOnline`]).
    UserOnlineAdded(Value),
    /// `/list/users_online/remove`: the id of a user who left.
    UserOnlineRemoved(String),
    /// `/lobby`: the lobby document `{"seeks": [seek…], "users": [{id, name, rating}…],
    /// "games": [{id, white, black, options, plies}…]}`, sent when the `/lobby` feed starts.
    Lobby(Value),
    /// `/lobby/updates`: changes to the lobby document since the last message, in order,
    /// to apply all or none.
    LobbyUpdates(Vec<crate::protocol::updates::Update>),
}

/// The events of a tournament's topic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TournamentEvent {
    /// `game`
    Game,
    /// `finished`
    Finished,
    /// `player_eliminated`
    PlayerEliminated,
    /// `started`
    Started,
    /// `canceled`
    Canceled,
    /// `player_joined`
    PlayerJoined,
    /// `player_left`
    PlayerLeft,
}

impl TournamentEvent {
    const ALL: [(TournamentEvent, &'static str); 7] = [
        (TournamentEvent::Game, "game"),
        (TournamentEvent::Finished, "finished"),
        (TournamentEvent::PlayerEliminated, "player_eliminated"),
        (TournamentEvent::Started, "started"),
        (TournamentEvent::Canceled, "canceled"),
        (TournamentEvent::PlayerJoined, "player_joined"),
        (TournamentEvent::PlayerLeft, "player_left"),
    ];

    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(e, _)| *e == self)
            .map(|(_, n)| *n)
            .expect("every event is named")
    }

    fn from_name(name: &str) -> Option<TournamentEvent> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(e, _)| *e)
    }
}

impl ServerMessage {
    /// Reads a message from its JSON text.
    pub fn parse(text: &str) -> Result<ServerMessage, MessageError> {
        ServerMessage::from_envelope(envelope(text)?)
    }

    /// Reads a message from its envelope.
    pub fn from_envelope(envelope: Envelope) -> Result<ServerMessage, MessageError> {
        use ServerMessage as M;
        let Envelope { topic, data: d } = envelope;
        let t = topic.as_str();
        let p = parts(t)?;
        let none = |m: ServerMessage| no_data(t, &d).map(|()| m);
        let id = |s: &str| s.to_string();
        Ok(match p.as_slice() {
            ["user"] => M::User(data(t, d)?),
            ["time", request] => M::Time {
                request: id(request),
                time: data(t, d)?,
            },
            ["user", "login", "success"] => M::LoginSuccess(data(t, d)?),
            ["user", "login", "failure"] => M::LoginFailure(data(t, d)?),
            ["user", "logout"] => M::LoggedOut(data(t, d)?),
            ["user", "register", "success"] => M::RegisterSuccess(match d {
                None | Some(Value::Null) => None,
                d => Some(data(t, d)?),
            }),
            ["user", "register", "failure"] => M::RegisterFailure(data(t, d)?),
            ["chat"] => M::Chat(data(t, d)?),
            ["seek", "matched"] => M::SeekMatched(data(t, d)?),
            ["seek", "waiting"] => M::SeekWaiting(data(t, d)?),
            ["seek", "expired"] => none(M::SeekExpired)?,
            ["seek", "error"] => M::SeekError(data(t, d)?),
            ["game"] => M::Game(data(t, d)?),
            ["games"] => M::Games(data(t, d)?),
            ["game", "not_found"] => M::GameNotFound(data(t, d)?),
            ["game", "restore", g, "pending"] => none(M::RestorePending { game: id(g) })?,
            ["game", "restore", g, "success"] => M::RestoreSuccess {
                game: id(g),
                restored: data(t, d)?,
            },
            ["game", "restore", g, "failure"] => M::RestoreFailure {
                game: id(g),
                reason: data(t, d)?,
            },
            ["restoration_requests"] => M::RestorationRequests(data(t, d)?),
            ["tournaments"] => M::Tournaments(data(t, d)?),
            ["tournament", "new", "success"] => M::TournamentCreated(data(t, d)?),
            ["tournament", "new", "failure"] => M::TournamentFailure(data(t, d)?),
            ["tournament", tid, event] => M::TournamentEvent {
                tournament: id(tid),
                event: TournamentEvent::from_name(event).ok_or_else(|| unknown(t))?,
                data: d,
            },
            ["game", g, "move"] => M::Move {
                game: id(g),
                packed: data(t, d)?,
            },
            ["game", g, "game_over"] => M::GameOver {
                game: id(g),
                result: data(t, d)?,
            },
            ["game", g, "aborted"] => none(M::Aborted { game: id(g) })?,
            ["game", g, "draw_offer"] => M::DrawOffer {
                game: id(g),
                by: data(t, d)?,
            },
            ["game", g, "rematch", "offered"] => M::RematchOffered {
                game: id(g),
                by: data(t, d)?,
            },
            ["game", g, "rematch", "declined"] => none(M::RematchDeclined { game: id(g) })?,
            ["game", g, "rematch", "canceled"] => none(M::RematchCanceled { game: id(g) })?,
            ["game", g, "rematch", "expired"] => none(M::RematchExpired { game: id(g) })?,
            ["game", g, "rematch"] => M::Rematch {
                game: id(g),
                new_game: data(t, d)?,
            },
            ["game", g, "premove"] => M::Premove {
                game: id(g),
                premove: match d {
                    None | Some(Value::Null) => None,
                    d => Some(data(t, d)?),
                },
            },
            ["game", g, "chat"] => M::GameChat {
                game: id(g),
                line: data(t, d)?,
            },
            ["player_connection_status", player] => M::PlayerConnectionStatus {
                player: id(player),
                connected: data(t, d)?,
            },
            ["random_game"] => M::RandomGame(data(t, d)?),
            ["random_game", "game_over"] => M::RandomGameOver(data(t, d)?),
            ["list", "seeks"] => M::Seeks(data(t, d)?),
            ["list", "seeks", "add"] => M::SeekAdded(data(t, d)?),
            ["list", "seeks", "remove"] => M::SeekRemoved(data(t, d)?),
            ["list", "users_online"] => M::UsersOnline(data(t, d)?),
            ["list", "users_online", "add"] => M::UserOnlineAdded(data(t, d)?),
            ["list", "users_online", "remove"] => M::UserOnlineRemoved(data(t, d)?),
            ["lobby"] => M::Lobby(data(t, d)?),
            ["lobby", "updates"] => M::LobbyUpdates(data(t, d)?),
            _ => return Err(unknown(t)),
        })
    }

    /// The message's envelope.
    pub fn to_envelope(&self) -> Envelope {
        use ServerMessage as M;
        let s = |t: &str| t.to_string();
        match self {
            M::User(u) => with_data(s("/user"), u),
            M::Time { request, time } => with_data(format!("/time/{request}"), time),
            M::LoginSuccess(u) => with_data(s("/user/login/success"), u),
            M::LoginFailure(r) => with_data(s("/user/login/failure"), r),
            M::LoggedOut(p) => with_data(s("/user/logout"), p),
            M::RegisterSuccess(u) => with_data(s("/user/register/success"), u),
            M::RegisterFailure(r) => with_data(s("/user/register/failure"), r),
            M::Chat(line) => with_data(s("/chat"), line),
            M::SeekMatched(g) => with_data(s("/seek/matched"), g),
            M::SeekWaiting(seek) => with_data(s("/seek/waiting"), seek),
            M::SeekExpired => bare(s("/seek/expired")),
            M::SeekError(r) => with_data(s("/seek/error"), r),
            M::Game(g) => with_data(s("/game"), g),
            M::Games(g) => with_data(s("/games"), g),
            M::GameNotFound(id) => with_data(s("/game/not_found"), id),
            M::RestorePending { game } => bare(format!("/game/restore/{game}/pending")),
            M::RestoreSuccess { game, restored } => {
                with_data(format!("/game/restore/{game}/success"), restored)
            }
            M::RestoreFailure { game, reason } => {
                with_data(format!("/game/restore/{game}/failure"), reason)
            }
            M::RestorationRequests(ids) => with_data(s("/restoration_requests"), ids),
            M::Tournaments(v) => with_data(s("/tournaments"), v),
            M::TournamentCreated(v) => with_data(s("/tournament/new/success"), v),
            M::TournamentFailure(r) => with_data(s("/tournament/new/failure"), r),
            M::TournamentEvent {
                tournament,
                event,
                data,
            } => Envelope {
                topic: format!("/tournament/{tournament}/{}", event.name()),
                data: data.clone(),
            },
            M::Move { game, packed } => with_data(format!("/game/{game}/move"), packed),
            M::GameOver { game, result } => with_data(format!("/game/{game}/game_over"), result),
            M::Aborted { game } => bare(format!("/game/{game}/aborted")),
            M::DrawOffer { game, by } => with_data(format!("/game/{game}/draw_offer"), by),
            M::RematchOffered { game, by } => {
                with_data(format!("/game/{game}/rematch/offered"), by)
            }
            M::RematchDeclined { game } => bare(format!("/game/{game}/rematch/declined")),
            M::RematchCanceled { game } => bare(format!("/game/{game}/rematch/canceled")),
            M::RematchExpired { game } => bare(format!("/game/{game}/rematch/expired")),
            M::Rematch { game, new_game } => with_data(format!("/game/{game}/rematch"), new_game),
            M::Premove { game, premove } => with_data(format!("/game/{game}/premove"), premove),
            M::GameChat { game, line } => with_data(format!("/game/{game}/chat"), line),
            M::PlayerConnectionStatus { player, connected } => {
                with_data(format!("/player_connection_status/{player}"), connected)
            }
            M::RandomGame(g) => with_data(s("/random_game"), g),
            M::RandomGameOver(id) => with_data(s("/random_game/game_over"), id),
            M::Seeks(list) => with_data(s("/list/seeks"), list),
            M::SeekAdded(seek) => with_data(s("/list/seeks/add"), seek),
            M::SeekRemoved(id) => with_data(s("/list/seeks/remove"), id),
            M::UsersOnline(list) => with_data(s("/list/users_online"), list),
            M::UserOnlineAdded(user) => with_data(s("/list/users_online/add"), user),
            M::UserOnlineRemoved(id) => with_data(s("/list/users_online/remove"), id),
            M::Lobby(doc) => with_data(s("/lobby"), doc),
            M::LobbyUpdates(updates) => with_data(s("/lobby/updates"), updates),
        }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.to_envelope()).expect("envelopes serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::cell::Cell;

    thread_local! {
        /// Whether [`data`] reads by serde_path_to_error, the reference its paths are
        /// compared with.
        pub(super) static BY_PATH_TO_ERROR: Cell<bool> = const { Cell::new(false) };
    }

    /// [`data`] by serde_path_to_error.
    pub(super) fn data_by_path_to_error<T: DeserializeOwned>(
        topic: &str,
        value: Value,
    ) -> Result<T, MessageError> {
        serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            let field = match path.as_str() {
                "." | "" => "data".to_string(),
                // An array's element: `data[0]`, where the reference writes `data.[0]`.
                _ if path.starts_with('[') => format!("data{path}"),
                _ => format!("data.{path}"),
            };
            error(topic, &field, e.into_inner().to_string())
        })
    }

    /// Every way of breaking one value of a message's data: other types, a key removed or
    /// added.
    fn broken_data(data: &Value) -> Vec<Value> {
        let others = [
            json!("?"),
            json!(1.5),
            json!(-1),
            json!(1e300),
            json!({}),
            json!([]),
            json!([1, "x"]),
            json!({"w": "x", "b": 2}),
            Value::Null,
            json!(true),
        ];
        let mut out: Vec<Value> = others.to_vec();
        // Each value's pointer, the data's own first.
        fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
            out.push(at.clone());
            match v {
                Value::Object(map) => {
                    for (k, x) in map {
                        let k = k.replace('~', "~0").replace('/', "~1");
                        pointers(x, format!("{at}/{k}"), out);
                    }
                }
                Value::Array(items) => {
                    for (i, x) in items.iter().enumerate() {
                        pointers(x, format!("{at}/{i}"), out);
                    }
                }
                _ => {}
            }
        }
        let mut all = Vec::new();
        pointers(data, String::new(), &mut all);
        for pointer in all.iter().skip(1) {
            for other in &others {
                let mut changed = data.clone();
                *changed.pointer_mut(pointer).unwrap() = other.clone();
                out.push(changed);
            }
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            let mut changed = data.clone();
            match changed.pointer_mut(parent).unwrap() {
                Value::Object(map) => {
                    map.shift_remove(key);
                }
                Value::Array(items) => {
                    items.remove(key.parse::<usize>().unwrap());
                }
                _ => unreachable!(),
            }
            out.push(changed);
        }
        for pointer in &all {
            let mut changed = data.clone();
            if let Some(Value::Object(map)) = changed.pointer_mut(pointer) {
                map.insert("zz\"\n.".into(), json!(1));
                out.push(changed);
            }
        }
        out
    }

    #[test]
    fn names_of_unit_enums_read_back() {
        fn check<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(
            all: &[T],
            names: &str,
        ) {
            let text = serde_json::to_string(all).unwrap();
            assert_eq!(text, names);
            assert_eq!(&serde_json::from_str::<Vec<T>>(&text).unwrap(), all);
        }
        use super::super::updates::Op;
        check(&[Colour::White, Colour::Black], r#"["w","b"]"#);
        check(
            &[
                PromotionPiece::N,
                PromotionPiece::B,
                PromotionPiece::R,
                PromotionPiece::Q,
            ],
            r#"["N","B","R","Q"]"#,
        );
        use ResultType as R;
        check(
            &[
                R::Checkmate,
                R::Resignation,
                R::FiftyMoveRule,
                R::Threefold,
                R::Timeout,
            ],
            r#"["checkmate","resignation","fifty move rule","threefold","timeout"]"#,
        );
        check(
            &[R::InsufficientMaterial, R::Stalemate, R::DrawAgreed],
            r#"["insufficient material","stalemate","draw agreed"]"#,
        );
        check(
            &[
                Feed::RandomGames,
                Feed::Seeks,
                Feed::UsersOnline,
                Feed::Lobby,
            ],
            r#"["/random_games","/list/seeks","/users_online","/lobby"]"#,
        );
        check(
            &[Op::Add, Op::Remove, Op::Update],
            r#"["add","remove","update"]"#,
        );
        let e = serde_json::from_str::<Colour>("1").unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid type: integer `1`, expected one of `w`, `b` at line 1 column 1"
        );
        let e = serde_json::from_str::<Op>(r#""put""#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "unknown variant `put`, expected one of `add`, `remove`, `update` at line 1 column 5"
        );
    }

    #[test]
    fn data_errors_name_the_fields_serde_path_to_error_names() {
        let (mut compared, mut failed) = (0, 0);
        let mut differ = Vec::new();
        for line in TOPICS
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (side, text) = line.split_once(' ').unwrap();
            let mut envelope: Envelope = serde_json::from_str(text).unwrap();
            let Some(data) = envelope.data.take() else {
                continue;
            };
            for broken in broken_data(&data) {
                let text = serde_json::to_string(&Envelope {
                    topic: envelope.topic.clone(),
                    data: Some(broken),
                })
                .unwrap();
                let read = |reference: bool| {
                    BY_PATH_TO_ERROR.with(|on| on.set(reference));
                    let e = match side {
                        "client" => ClientMessage::parse(&text).err(),
                        _ => ServerMessage::parse(&text).err(),
                    };
                    BY_PATH_TO_ERROR.with(|on| on.set(false));
                    e
                };
                let (ours, reference) = (read(false), read(true));
                // A name of a unit enum (`"w"`, `"N"`, `"add"` …) is read as a string, so
                // what else came is refused with the names it could be, where the reference
                // also took an object with one key for a variant.
                let by_name = |ours: &MessageError, reference: &MessageError| {
                    (reference.reason.ends_with("expected string or map")
                        || reference.reason.ends_with("expected map with a single key"))
                        && ours.field == reference.field
                        && ours.reason.starts_with("invalid type: ")
                        && ours.reason.contains(", expected one of `")
                };
                let same = match (&ours, &reference) {
                    (Some(ours), Some(reference)) => ours == reference || by_name(ours, reference),
                    _ => ours == reference,
                };
                if !same {
                    differ.push(format!(
                        "{text}\n  ours: {ours:?}\n  reference: {reference:?}"
                    ));
                }
                compared += 1;
                failed += usize::from(ours.is_some());
            }
        }
        assert!(
            differ.is_empty(),
            "{} of {compared} differ:\n{}",
            differ.len(),
            differ[..differ.len().min(12)].join("\n")
        );
        // Most broken messages fail, each compared.
        assert!(
            compared > 4_000 && failed > compared / 2,
            "{compared} {failed}"
        );
    }

    /// Parses, serializes and parses again: the JSON is exactly the input.
    fn client_round_trip(text: &str) {
        let msg = ClientMessage::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(msg.to_json(), text);
    }

    fn server_round_trip(text: &str) {
        let msg = ServerMessage::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(msg.to_json(), text);
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        struct Js(f64);
        impl Serialize for Js {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                js_number(&self.0, s)
            }
        }
        // What JSON.stringify gives for each.
        for (x, written) in [
            (1500.0, "1500"),
            (-0.0, "0"),
            (1500.5, "1500.5"),
            (9007199254740992.0, "9007199254740992"),
            (1152921504606846976.0, "1152921504606847000"),
            (-1e18, "-1000000000000000000"),
            (1e19, "10000000000000000000"),
            // Past u64: the exponent form (JavaScript writes the digits up to 10^21).
            (2e19, "2e+19"),
        ] {
            assert_eq!(serde_json::to_string(&Js(x)).unwrap(), written, "{x}");
            // Also into a `Value`, as messages are built: no serializer refuses it.
            assert_eq!(
                serde_json::to_value(Js(x)).unwrap().to_string(),
                written,
                "{x}"
            );
        }
    }

    /// One message of every topic, each side's, as `client JSON` or `server JSON` lines:
    /// shared with the JavaScript package's tests (js/test/jsonchess.test.mjs).
    const TOPICS: &str = include_str!("../../tests/protocol/topics.txt");

    #[test]
    fn every_topic_of_each_side() {
        let (mut client, mut server) = (0, 0);
        for line in TOPICS
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            match line.split_once(' ') {
                Some(("client", text)) => {
                    client_round_trip(text);
                    client += 1;
                }
                Some(("server", text)) => {
                    server_round_trip(text);
                    server += 1;
                }
                _ => panic!("not `client JSON` or `server JSON`: {line}"),
            }
        }
        assert_eq!((client, server), (32, 48));
    }

    #[test]
    fn errors_name_topic_and_field() {
        let cases = [
            (r#"{"topic":"/game/g1/jump","data":1}"#, "/game/g1/jump: topic: unknown topic"),
            (r#"{"topic":"game/g1/move"}"#, "game/g1/move: topic: a topic starts with /"),
            (r#"{"topic":"/game/g1/move"}"#, "/game/g1/move: data: missing"),
            (r#"{"topic":"/game/g1/move","data":{"from":1}}"#, "/game/g1/move: data: missing field `to`"),
            (r#"{"topic":"/game/g1/move","data":{"from":1,"to":2,"promoteTo":"K"}}"#, "/game/g1/move: data.promoteTo: unknown variant `K`, expected one of `N`, `B`, `R`, `Q`"),
            (r#"{"topic":"/game/g1/move","data":{"from":1,"to":2,"via":3}}"#, "/game/g1/move: data.via: unknown field `via`, expected one of `from`, `to`, `promoteTo`"),
            (r#"{"topic":"/seek","data":{"initialTime":1,"timeIncrement":0,"acceptRatingMin":-100,"acceptRatingMax":"+100"}}"#, "/seek: data.acceptRatingMin: invalid type: integer `-100`, expected a string"),
            (r#"{"topic":"/seek","data":{"initialTime":1,"timeIncrement":0,"acceptRatingMin":"abc","acceptRatingMax":"+100"}}"#, "/seek: data.acceptRatingMin: \"abc\" is not a rating bound (\"+100\", \"-100\" or \"1800\")"),
            (r#"{"topic":"/tournament/new","data":{"name":"x","playersRequired":6,"initialTime":1,"timeIncrement":0}}"#, "/tournament/new: data.playersRequired: 6 players: a power of two, at least 4"),
            (r#"{"topic":"/game/restore","data":{"gameDetails":{"history":["1,0,e4,0,e2,e4,N"],"startTime":1,"options":{"initialTime":1,"timeIncrement":0},"addedTime":{"w":0,"b":0},"id":"g"},"playingAs":"w"}}"#, "/game/restore: data.gameDetails.history[0]: field 8 \"\": missing: a packed move has 8 fields, this one 7"),
            (r#"{"topic":"/game/g1/resign","data":5}"#, "/game/g1/resign: data: this topic carries no data"),
            (r#"{"topic":"/chat","data":"x","extra":1}"#, "envelope: unknown field `extra`, expected `topic` or `data` at line 1 column 35"),
        ];
        for (text, expected) in cases {
            assert_eq!(
                ClientMessage::parse(text).unwrap_err().to_string(),
                expected,
                "{text}"
            );
        }
        let err = ServerMessage::parse(r#"{"topic":"/game/g1/move","data":"1,0,e4,0,e2,e4,N,x9"}"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "/game/g1/move: data: field 8 \"x9\": not a square (a1 … h8)"
        );
    }
}
