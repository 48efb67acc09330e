//! The jsonchess online-play protocol: typed messages, generic updates, premoves and
//! Glicko-2 ratings, with the protocol's constants. The move encoding is chess notation and
//! lives in [`crate::chess::jsonchess`].
//!
//! A server's move handler, from the client's request to the broadcast:
//!
//! ```
//! use notate::protocol::messages::{ClientMessage, ServerMessage};
//! use notate::chess::jsonchess::PackedMove;
//! use notate::shakmaty::{Chess, Position};
//!
//! let msg = ClientMessage::parse(r#"{"topic":"/game/g1/move","data":{"from":12,"to":28}}"#).unwrap();
//! let ClientMessage::Move { game, request } = msg else { unreachable!() };
//! let pos = Chess::default();
//! let mv = pos.legal_moves().into_iter()
//!     .find(|m| m.from() == Some(request.from.square()) && m.to() == request.to.square())
//!     .unwrap();
//! let reply = ServerMessage::Move { game, packed: PackedMove::encode(&pos, mv, 1407781768400) };
//! assert_eq!(reply.to_json(), r#"{"topic":"/game/g1/move","data":"1,0,e4,1407781768400,e2,e4,N,e3"}"#);
//! assert_eq!(notate::protocol::SEEK_TIMEOUT_MS, 60_000);
//! ```

pub mod glicko2;
pub mod messages;
pub mod premoves;
pub mod updates;
mod wire;

/// A seek expires after this long without a match (ms).
pub const SEEK_TIMEOUT_MS: u64 = 60_000;
/// A rematch offer expires after this long (ms).
pub const REMATCH_TIMEOUT_MS: u64 = 15_000;
/// Each of the first two plies, made before the clocks start, must come within this long or
/// the game is aborted (ms).
pub const TIME_FOR_MOVES_BEFORE_CLOCK_START_MS: u64 = 30_000;
/// A client keeps a backup of a game for restoration once it has this many plies.
pub const MIN_PLIES_TO_RESTORE: usize = 4;
/// The first ply (0-based index) whose thinking time is taken from the clock.
pub const FIRST_TIMED_PLY: usize = 2;

/// The kinds of chat message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ChatMessageType {
    /// From the site.
    Admin = 0,
    /// From a user.
    User = 1,
}
