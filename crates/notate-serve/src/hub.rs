//! The hub: the one task that owns players, connections, seeks and games. Connections send it
//! events; it answers by putting JSON texts on each connection's queue. One owner means no
//! lock and one order: every client sees a game's moves in the order they were stored.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{SystemTime, UNIX_EPOCH};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use notate::protocol::glicko2::{PendingResults, Rating};
use notate::protocol::messages::Credentials;
use notate::protocol::messages::{BoardString, LastMove, RandomGame, SquareNo};
use notate::protocol::messages::{
    ByColour, ChatLine, ClientMessage, Envelope, Feed, GameJson, MoveRequest, Player, Prefs,
    PrivateUser, RatingBound, Seek, SeekOptions, ServerMessage, TimeOptions,
};
use notate::protocol::messages::{Colour, GameDetails, RestoreRequest};
use notate::protocol::updates::{Op, Update};
use notate::protocol::{MIN_PLIES_TO_RESTORE, REMATCH_TIMEOUT_MS, SEEK_TIMEOUT_MS};
use notate::shakmaty::{Color, Position, Square};
use tokio::sync::{mpsc, oneshot};

use crate::game::{self, colour, premove_request, Game};
use crate::store::{Store, StoredPlayer};

/// Connection ids carry the number of the process that holds the WebSocket in their high
/// bits (0 for a server alone): see [`crate::cluster`].
pub const NODE_SHIFT: u32 = 40;

/// What connections and the web routes tell the hub.
pub enum Event {
    /// A WebSocket opened, with the session token it gave (`/ws?token=…`), if any.
    Open {
        conn: u64,
        token: Option<String>,
        out: mpsc::Sender<String>,
    },
    /// A text frame.
    Text { conn: u64, text: String },
    /// The WebSocket closed.
    Close { conn: u64 },
    /// A registration's password hashed (off the hub: argon2 takes tens of milliseconds).
    Registered {
        conn: u64,
        player: String,
        username: String,
        hash: String,
    },
    /// A login's password checked: the account's player when it matched.
    Verified { conn: u64, player: Option<String> },
    /// A finished game's PGN, for `GET /games/ID.pgn`.
    Pgn {
        game: String,
        reply: oneshot::Sender<Option<String>>,
    },
    /// The server process `node` is gone (a cluster's member stopped): its connections with it.
    NodeGone { node: u64 },
    /// Time passes: clocks, seeks, rematch offers and the lobby's updates (every 50 ms).
    Tick,
}

/// Messages a connection may have queued before it counts as too slow and is closed.
pub const QUEUE: usize = 4096;
/// The longest chat message kept (characters).
const CHAT_CHARS: usize = 500;
/// How long a finished game stays in memory for rematches and late requests.
const KEEP_FINISHED_MS: u64 = REMATCH_TIMEOUT_MS + 60_000;
/// How often the hub notes in the store that it runs: after a restart, the side to move is
/// credited the time since the last note (so at most this much thinking before a stop goes
/// uncharged).
const ALIVE_EVERY_MS: u64 = 1_000;

/// How long a guest no connection speaks for is kept, and a registered player's session
/// lasts with no connection: the protocol's server drops idle users after 24 hours
/// (anonymous) and 30 days (logged in). Without it a guest made for every visit without a
/// token (a crawler's, a private window's) would stay in memory and in the store for good.
const GUEST_IDLE_MS: u64 = 24 * 3_600_000;
const SESSION_IDLE_MS: u64 = 30 * 24 * 3_600_000;
/// How often idle players are looked for, and how many one look forgets or signs out at
/// most (in one transaction each: the hub waits for them); a look that finds more looks
/// again at the next tick, so that guests made faster than that still go.
const IDLE_SWEEP_MS: u64 = 60_000;
const IDLE_PER_SWEEP: usize = 2_000;

/// Password checks and hashes run at once: argon2 takes 19 MiB and tens of milliseconds each,
/// so a burst of logins must wait its turn rather than take the machine's memory (60 at once
/// took 1.15 GB). Two: the machine's cores.
const PASSWORD_WORKERS: usize = 2;
/// Password work that may wait for a worker; past it a login or registration is refused.
const PASSWORD_QUEUE: usize = 64;

/// Password work: argon2 run off the hub, its answer an event for the connection.
type PasswordJob = Box<dyn FnOnce() -> Event + Send>;

struct Conn {
    player: String,
    out: mpsc::Sender<String>,
    feeds: HashSet<Feed>,
}

struct PlayerState {
    name: String,
    /// The session token (never logged).
    token: String,
    /// The argon2 hash of a registered player's password (never logged, never sent).
    password: Option<String>,
    rating: Rating,
    pending: PendingResults,
    conns: Vec<u64>,
    /// Since when no connection speaks for the player (when its last one closed: kept in the
    /// store, so that restarts do not start it again; when the hub stopped, for a player
    /// connected then); meaningless while `conns` has one.
    idle_since: u64,
    /// Whether the store holds `idle_since` (it holds none while the player is connected).
    idle_stored: bool,
    seek: Option<String>,
    last_seek: Option<SeekOptions>,
    prefs: Prefs,
}

/// A player's backup of a game the server does not have, sent to be restored.
struct Restoration {
    player: String,
    details: GameDetails,
    colour: Color,
}

pub struct Hub {
    store: std::cell::RefCell<Box<dyn Store>>,
    /// Where work that must not hold the hub (password hashing) runs.
    runtime: tokio::runtime::Handle,
    /// For work done off the hub (password hashing) to come back as events.
    events: mpsc::UnboundedSender<Event>,
    /// Registered names (lower case) and their players.
    usernames: HashMap<String, String>,
    conns: HashMap<u64, Conn>,
    players: HashMap<String, PlayerState>,
    tokens: HashMap<String, String>,
    seeks: Vec<(Seek, String)>,
    games: HashMap<String, Game>,
    watchers: HashMap<String, HashSet<u64>>,
    /// The game the random-games feed shows.
    featured: Option<String>,
    /// Connections whose queue was full: closed after the event (the client reconnects and
    /// asks for what it missed), never a message silently lost to a connection kept open.
    overflowed: std::cell::RefCell<Vec<u64>>,
    /// Why the store failed: the hub stops after the event (a move it could not store is
    /// never sent; another process of the cluster, or a restart, goes on from what is
    /// stored).
    failed: std::cell::RefCell<Option<anyhow::Error>>,
    /// Restoration requests waiting for the other player's, by game id.
    restorations: HashMap<String, Restoration>,
    /// Changes to the lobby document not yet sent: they go out together each tick.
    lobby: std::cell::RefCell<Vec<Update>>,
    /// Games that moved since the last tick (their `plies` in the lobby document).
    lobby_moved: std::cell::RefCell<HashSet<String>>,
    /// When the hub last noted in the store that it runs (see [`Store::set_alive`]).
    alive_noted: u64,
    /// When the hub last looked for idle players (see [`Hub::forget_idle`]).
    idle_swept: u64,
    /// Connections whose password work runs (one each at a time).
    password_running: HashSet<u64>,
    /// Password work waiting for a worker, oldest first.
    password_waiting: VecDeque<(u64, PasswordJob)>,
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A random identifier: `bytes` random bytes in hex (session tokens 16, ids 6).
pub fn random_id(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("the operating system's random numbers");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a seek's options, of a player rated `own`, accept an opponent rated `other`.
fn accepts(o: &SeekOptions, own: f64, other: f64) -> bool {
    let bound = |b: RatingBound| match b {
        RatingBound::Relative(n) => own + f64::from(n),
        RatingBound::Absolute(n) => f64::from(n),
    };
    other >= bound(o.accept_rating_min) && other <= bound(o.accept_rating_max)
}

/// The hash a login of a name without an account is checked against (made once).
fn unknown_account_hash() -> String {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| {
        let salt = SaltString::encode_b64(&[0u8; 16]).expect("16 bytes of salt");
        Argon2::default()
            .hash_password(b"", &salt)
            .expect("argon2 with its default parameters")
            .to_string()
    })
    .clone()
}

/// The protocol's `/error` message: `field` of a message of `topic` refused for `reason`.
pub fn error_text(topic: &str, field: &str, reason: &str) -> String {
    let envelope = Envelope {
        topic: "/error".into(),
        data: Some(serde_json::json!({ "topic": topic, "field": field, "reason": reason })),
    };
    serde_json::to_string(&envelope).expect("JSON")
}

/// Starts a hub on a thread of its own over the store `open` makes there (a PostgreSQL
/// client must not run on the runtime's threads), with its ticks: its events, once it has
/// loaded its players and games in progress. Why it stopped, if it does, goes to `fatal`.
pub fn spawn(
    open: impl FnOnce() -> anyhow::Result<Box<dyn Store>> + Send + 'static,
    runtime: tokio::runtime::Handle,
    fatal: mpsc::UnboundedSender<anyhow::Error>,
) -> anyhow::Result<mpsc::UnboundedSender<Event>> {
    let (events, inbox) = mpsc::unbounded_channel();
    let (ready, started) = std::sync::mpsc::channel();
    let own = events.clone();
    let handle = runtime.clone();
    std::thread::Builder::new()
        .name("notate-hub".into())
        .spawn(
            move || match open().and_then(|store| Hub::new(store, own, handle)) {
                Ok(hub) => {
                    let _ = ready.send(Ok(()));
                    let stopped =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hub.run(inbox)));
                    let error = match stopped {
                        Ok(Ok(())) => return,
                        Ok(Err(e)) => e,
                        Err(_) => anyhow::anyhow!("the hub panicked (see above)"),
                    };
                    let _ = fatal.send(error.context("the hub stopped"));
                }
                Err(e) => {
                    let _ = ready.send(Err(e));
                }
            },
        )?;
    started
        .recv()
        .map_err(|_| anyhow::anyhow!("the hub's thread ended"))??;
    let ticks = events.clone();
    runtime.spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(50));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if ticks.send(Event::Tick).is_err() {
                return;
            }
        }
    });
    Ok(events)
}

impl Hub {
    /// The hub over `store`: its players, and its games in progress replayed from their
    /// stored moves (the side to move is not charged for the time the server was down, as
    /// the protocol's restoration credits it).
    pub fn new(
        store: Box<dyn Store>,
        events: mpsc::UnboundedSender<Event>,
        runtime: tokio::runtime::Handle,
    ) -> anyhow::Result<Hub> {
        let mut hub = Hub {
            store: std::cell::RefCell::new(store),
            runtime,
            events,
            usernames: HashMap::new(),
            conns: HashMap::new(),
            players: HashMap::new(),
            tokens: HashMap::new(),
            seeks: Vec::new(),
            games: HashMap::new(),
            watchers: HashMap::new(),
            featured: None,
            overflowed: std::cell::RefCell::new(Vec::new()),
            failed: std::cell::RefCell::new(None),
            restorations: HashMap::new(),
            lobby: std::cell::RefCell::new(Vec::new()),
            lobby_moved: std::cell::RefCell::new(HashSet::new()),
            alive_noted: 0,
            idle_swept: 0,
            password_running: HashSet::new(),
            password_waiting: VecDeque::new(),
        };
        let now = now_ms();
        let stopped = hub.store.get_mut().alive_at()?;
        let players = hub.store.get_mut().players()?;
        for p in players {
            hub.tokens.insert(p.token.clone(), p.id.clone());
            if p.password.is_some() {
                hub.usernames.insert(p.name.to_lowercase(), p.id.clone());
            }
            let mut state = PlayerState::new(p.name, p.token, p.rating);
            state.password = p.password;
            state.pending = p.pending;
            state.idle_stored = p.last_seen.is_some();
            state.idle_since = p.last_seen.or(stopped).unwrap_or(now);
            hub.players.insert(p.id, state);
        }
        let games = hub.store.get_mut().games_in_progress()?;
        for stored in games {
            let id = stored.id.clone();
            let mut game = Game::replayed(
                stored.id,
                stored.players,
                stored.options,
                stored.start_time,
                &stored.history,
            )
            .map_err(|e| anyhow::anyhow!("stored game {id}: {e}"))?;
            game.add_time(stored.added);
            if game.resume(now, stopped) != 0 {
                hub.store.get_mut().set_added(&game)?;
            }
            hub.games.insert(game.id.clone(), game);
        }
        // Noted once every game's credit is stored: a hub that failed before would leave
        // the next one to credit the whole stop again, never too little.
        hub.store.get_mut().set_alive(now)?;
        hub.alive_noted = now;
        Ok(hub)
    }

    /// Runs until every sender of `events` is gone, or the store fails (the error), on the
    /// calling thread (the hub's own: its store's calls block). Time comes as
    /// [`Event::Tick`]s ([`spawn`] sends them).
    pub fn run(mut self, mut events: mpsc::UnboundedReceiver<Event>) -> anyhow::Result<()> {
        while let Some(event) = events.blocking_recv() {
            self.handle(event);
            if let Some(e) = self.failed.borrow_mut().take() {
                return Err(e);
            }
            let overflowed = std::mem::take(&mut *self.overflowed.borrow_mut());
            for conn in overflowed {
                self.close(conn);
            }
        }
        Ok(())
    }

    /// Stores `what` with `write`, `None` when it fails. A failure stops everything after it:
    /// nothing more is stored or sent in this event (none is even tried), the hub stops after
    /// the event, and the server with it, saying why; a restart, or the next leader, goes on
    /// from what was stored.
    fn stored<T>(
        &self,
        what: impl std::fmt::Display,
        write: impl FnOnce(&mut dyn Store) -> anyhow::Result<T>,
    ) -> Option<T> {
        if self.failed.borrow().is_some() {
            return None;
        }
        let result = write(&mut **self.store.borrow_mut());
        result
            .map_err(|e| {
                *self.failed.borrow_mut() = Some(e.context(format!("cannot store {what}")))
            })
            .ok()
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Open { conn, token, out } => self.open(conn, token, out),
            Event::Text { conn, text } => self.text(conn, &text),
            Event::Close { conn } => self.close(conn),
            Event::Registered {
                conn,
                player,
                username,
                hash,
            } => {
                self.password_done(conn);
                self.registered(conn, &player, username, hash)
            }
            Event::Verified { conn, player } => {
                self.password_done(conn);
                self.verified(conn, player)
            }
            Event::Pgn { game, reply } => {
                let _ = reply.send(self.store.borrow_mut().pgn(&game).ok().flatten());
            }
            Event::NodeGone { node } => {
                let gone: Vec<u64> = self
                    .conns
                    .keys()
                    .copied()
                    .filter(|conn| conn >> NODE_SHIFT == node)
                    .collect();
                for conn in gone {
                    self.close(conn);
                }
            }
            Event::Tick => self.tick(now_ms()),
        }
    }

    // ---- connections and players ----

    fn open(&mut self, conn: u64, token: Option<String>, out: mpsc::Sender<String>) {
        let known = token.as_ref().and_then(|t| self.tokens.get(t)).cloned();
        let (player, token) = match (known, token) {
            (Some(player), Some(token)) => (player, token),
            _ => self.new_guest(),
        };
        self.conns.insert(
            conn,
            Conn {
                player: String::new(),
                out,
                feeds: HashSet::new(),
            },
        );
        self.attach(conn, &player, &token);
        let user = ServerMessage::User(self.private_user(&player));
        self.send(conn, &user);
    }

    /// A new guest player, stored: its id and session token.
    fn new_guest(&mut self) -> (String, String) {
        let stored = StoredPlayer {
            id: random_id(6),
            token: random_id(16),
            name: "Anonymous".into(),
            password: None,
            rating: Rating::default(),
            pending: PendingResults::default(),
            last_seen: None,
        };
        self.stored("a player", |s| s.add_player(&stored));
        self.tokens.insert(stored.token.clone(), stored.id.clone());
        self.players.insert(
            stored.id.clone(),
            PlayerState::new(stored.name, stored.token.clone(), stored.rating),
        );
        (stored.id, stored.token)
    }

    /// Makes `conn` speak for `player` (leaving the player it spoke for), and tells the
    /// client its session.
    fn attach(&mut self, conn: u64, player: &str, token: &str) {
        let Some(previous) = self
            .conns
            .get_mut(&conn)
            .map(|c| std::mem::replace(&mut c.player, player.to_string()))
        else {
            return;
        };
        if !previous.is_empty() {
            self.detach(conn, &previous);
        }
        let (first, idle_stored) = {
            let state = self
                .players
                .get_mut(player)
                .expect("every token has a player");
            state.conns.push(conn);
            let idle_stored = std::mem::take(&mut state.idle_stored);
            (state.conns.len() == 1, idle_stored)
        };
        if idle_stored {
            self.stored("that a player is here", |s| s.set_last_seen(player, None));
        }
        // notate's one addition to the protocol: the session token, to give back as
        // `/ws?token=…` on reconnecting (it is never logged).
        let session = Envelope {
            topic: "/session".into(),
            data: Some(serde_json::json!({ "token": token, "playerId": player })),
        };
        self.send_text(conn, serde_json::to_string(&session).expect("JSON"));
        if first {
            self.connection_status(player, true);
        }
    }

    /// `conn` no longer speaks for `player`; a player with no connection left loses its
    /// seek and is shown as disconnected.
    fn detach(&mut self, conn: u64, player: &str) {
        let last = match self.players.get_mut(player) {
            Some(state) => {
                state.conns.retain(|&x| x != conn);
                state.conns.is_empty()
            }
            None => false,
        };
        if last {
            let now = now_ms();
            if let Some(state) = self.players.get_mut(player) {
                state.idle_since = now;
                state.idle_stored = true;
            }
            self.stored("when a player left", |s| s.set_last_seen(player, Some(now)));
            self.cancel_seek(player, false);
            // A backup waits for the other player's only while its player is here.
            self.restorations.retain(|_, r| r.player != player);
            self.connection_status(player, false);
        }
    }

    fn close(&mut self, conn: u64) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        for watchers in self.watchers.values_mut() {
            watchers.remove(&conn);
        }
        self.password_waiting.retain(|(c, _)| *c != conn);
        self.detach(conn, &c.player);
    }

    fn connection_status(&self, player: &str, connected: bool) {
        let online = if connected {
            let user = self.lobby_user(player);
            self.lobby_change(Op::Add, "users", user.clone());
            ServerMessage::UserOnlineAdded(user)
        } else {
            self.lobby_change(Op::Remove, "users", player.into());
            ServerMessage::UserOnlineRemoved(player.to_string())
        };
        self.send_feed(Feed::UsersOnline, &online);
        let msg = ServerMessage::PlayerConnectionStatus {
            player: player.to_string(),
            connected,
        };
        for game in self.games.values().filter(|g| g.in_progress()) {
            if game.colour_of(player).is_some() {
                self.send_game(game, &msg);
            }
        }
    }

    fn private_user(&self, player: &str) -> PrivateUser {
        let state = &self.players[player];
        PrivateUser {
            player_id: player.to_string(),
            username: state.name.clone(),
            is_logged_in: state.password.is_some(),
            rating: state.rating.rating,
            current_seek: state
                .seek
                .as_ref()
                .and_then(|id| self.seeks.iter().find(|(s, _)| &s.id == id))
                .map(|(s, _)| s.clone()),
            last_seek_options: state.last_seek,
            prefs: state.prefs.clone(),
        }
    }

    fn public_player(&self, player: &str) -> Player {
        let state = self.players.get(player);
        Player {
            id: player.to_string(),
            name: state.map_or_else(|| "Anonymous".into(), |s| s.name.clone()),
            rating: state.map_or(1500.0, |s| s.rating.rating),
            is_user: true,
            is_connected: Some(state.is_some_and(|s| !s.conns.is_empty())),
        }
    }

    // ---- sending ----

    fn send_text(&self, conn: u64, text: String) {
        // After a failed write nothing more goes out: the event's messages may tell of what
        // was not stored.
        if self.failed.borrow().is_some() {
            return;
        }
        if let Some(c) = self.conns.get(&conn)
            && c.out.try_send(text).is_err()
        {
            self.overflowed.borrow_mut().push(conn);
        }
    }

    fn send(&self, conn: u64, msg: &ServerMessage) {
        self.send_text(conn, msg.to_json());
    }

    fn send_player(&self, player: &str, msg: &ServerMessage) {
        if let Some(state) = self.players.get(player) {
            let text = msg.to_json();
            for &conn in &state.conns {
                self.send_text(conn, text.clone());
            }
        }
    }

    /// To both players and every spectator of `game`.
    fn send_game(&self, game: &Game, msg: &ServerMessage) {
        let text = msg.to_json();
        let mut sent = HashSet::new();
        for player in [&game.players.w, &game.players.b] {
            if let Some(state) = self.players.get(player) {
                for &conn in &state.conns {
                    if sent.insert(conn) {
                        self.send_text(conn, text.clone());
                    }
                }
            }
        }
        if let Some(watchers) = self.watchers.get(&game.id) {
            for &conn in watchers {
                if sent.insert(conn) {
                    self.send_text(conn, text.clone());
                }
            }
        }
    }

    fn send_feed(&self, feed: Feed, msg: &ServerMessage) {
        let text = msg.to_json();
        for (&conn, c) in &self.conns {
            if c.feeds.contains(&feed) {
                self.send_text(conn, text.clone());
            }
        }
    }

    /// notate's error message: `{"topic":"/error","data":{"topic","field","reason"}}`, for a
    /// message that cannot be read or cannot be done; the connection stays open.
    fn error(&self, conn: u64, topic: &str, field: &str, reason: &str) {
        self.send_text(conn, error_text(topic, field, reason));
    }

    // ---- messages ----

    fn text(&mut self, conn: u64, text: &str) {
        let Some(player) = self.conns.get(&conn).map(|c| c.player.clone()) else {
            return;
        };
        let msg = match ClientMessage::parse(text) {
            Ok(msg) => msg,
            Err(e) => return self.error(conn, &e.topic, &e.field, &e.reason),
        };
        let topic = msg.to_envelope().topic;
        let now = now_ms();
        use ClientMessage as M;
        match msg {
            M::RequestUser => self.send(conn, &ServerMessage::User(self.private_user(&player))),
            M::RequestTime(id) => {
                let request = match id {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                self.send(conn, &ServerMessage::Time { request, time: now });
            }
            M::UpdatePrefs(prefs) => {
                if let Some(state) = self.players.get_mut(&player) {
                    state.prefs = prefs;
                }
            }
            M::Login(credentials) => self.login(conn, credentials),
            M::Register(credentials) => self.register(conn, &player, credentials),
            M::Logout => {
                // As the protocol's server does: signing out resigns the player's games.
                let playing: Vec<String> = self
                    .games
                    .values()
                    .filter(|g| g.in_progress() && g.colour_of(&player).is_some())
                    .map(|g| g.id.clone())
                    .collect();
                for id in playing {
                    let topic = format!("/game/{id}/resign");
                    self.with_game(conn, &player, &id, &topic, |_, g, color| {
                        g.resign(color, now)
                    });
                }
                let (guest, token) = self.new_guest();
                self.attach(conn, &guest, &token);
                self.send(conn, &ServerMessage::LoggedOut(guest));
            }
            M::Chat(body) => {
                let line = ChatLine {
                    from: self.players[&player].name.clone(),
                    body: body.chars().take(CHAT_CHARS).collect(),
                };
                let text = ServerMessage::Chat(line).to_json();
                for &c in self.conns.keys() {
                    self.send_text(c, text.clone());
                }
            }
            M::Seek(options) => self.seek(conn, &player, options, now),
            M::CancelSeek => self.cancel_seek(&player, true),
            M::AcceptSeek(id) => self.accept_seek(conn, &player, &id, now),
            M::RequestGame(id) => match self.games.get(&id) {
                Some(game) => {
                    self.watchers.entry(id.clone()).or_default().insert(conn);
                    self.send(conn, &ServerMessage::Game(Box::new(self.game_json(game))));
                }
                None => self.send(conn, &ServerMessage::GameNotFound(id)),
            },
            M::RequestGames => {
                let games = self
                    .games
                    .values()
                    .filter(|g| g.in_progress() && g.colour_of(&player).is_some())
                    .map(|g| self.game_json(g))
                    .collect();
                self.send(conn, &ServerMessage::Games(games));
            }
            M::Restore(request) => self.restore(conn, &player, request, now),
            M::CancelRestore(id) => {
                if self
                    .restorations
                    .get(&id)
                    .is_some_and(|r| r.player == player)
                {
                    self.restorations.remove(&id);
                }
            }
            M::RequestRestorationRequests => {
                let mut ids: Vec<String> = self.restorations.keys().cloned().collect();
                ids.sort();
                self.send(conn, &ServerMessage::RestorationRequests(ids))
            }
            M::ActivateFeed(feed) => {
                // What changed before this connection joins goes out first, so the document
                // it is about to receive already holds it.
                if feed == Feed::Lobby {
                    self.flush_lobby();
                }
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.feeds.insert(feed);
                }
                match feed {
                    Feed::Seeks => {
                        let seeks = self.seeks.iter().map(|(s, _)| s.clone()).collect();
                        self.send(conn, &ServerMessage::Seeks(seeks));
                    }
                    Feed::UsersOnline => {
                        let users = self.users_online();
                        self.send(conn, &ServerMessage::UsersOnline(users));
                    }
                    Feed::Lobby => {
                        let doc = self.lobby_document();
                        self.send(conn, &ServerMessage::Lobby(doc));
                    }
                    Feed::RandomGames => {
                        if self.featured.is_none() {
                            self.featured = self
                                .games
                                .values()
                                .find(|g| g.in_progress())
                                .map(|g| g.id.clone());
                        }
                        if let Some(game) = self.featured.as_ref().and_then(|id| self.games.get(id))
                        {
                            self.send(conn, &ServerMessage::RandomGame(self.random_game(game)));
                        }
                    }
                }
            }
            M::DeactivateFeed(feed) => {
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.feeds.remove(&feed);
                }
            }
            M::NewTournament(_) => self.send(
                conn,
                &ServerMessage::TournamentFailure("tournaments are not held on this server".into()),
            ),
            M::RequestTournaments => self.send(
                conn,
                &ServerMessage::Tournaments(serde_json::Value::Array(Vec::new())),
            ),
            M::Move { game, request } => self.play(conn, &player, &game, &topic, request, false),
            M::Premove { game, request } => self.play(conn, &player, &game, &topic, request, true),
            M::CancelPremove { game } => {
                self.with_game(conn, &player, &game, &topic, |hub, g, color| {
                    g.premoves.cancel(color);
                    hub.send_player(
                        g.player(color),
                        &ServerMessage::Premove {
                            game: g.id.clone(),
                            premove: None,
                        },
                    );
                    Ok(())
                })
            }
            M::RequestPremove { game } => {
                self.with_game(conn, &player, &game, &topic, |hub, g, color| {
                    let premove = g.premoves.pending(color).and_then(premove_request);
                    hub.send(
                        conn,
                        &ServerMessage::Premove {
                            game: g.id.clone(),
                            premove,
                        },
                    );
                    Ok(())
                })
            }
            M::RequestMoves { game, from } => match self.games.get(&game) {
                Some(g) => {
                    for packed in g.history.iter().skip(from as usize) {
                        self.send(
                            conn,
                            &ServerMessage::Move {
                                game: game.clone(),
                                packed: packed.clone(),
                            },
                        );
                    }
                }
                None => self.send(conn, &ServerMessage::GameNotFound(game)),
            },
            M::Resign { game } => self.with_game(conn, &player, &game, &topic, |_, g, color| {
                g.resign(color, now)
            }),
            M::OfferDraw { game } => {
                self.with_game(conn, &player, &game, &topic, |hub, g, color| {
                    g.offer_draw(color)?;
                    hub.send_game(
                        g,
                        &ServerMessage::DrawOffer {
                            game: g.id.clone(),
                            by: colour(color),
                        },
                    );
                    Ok(())
                })
            }
            M::AcceptDraw { game } => {
                self.with_game(conn, &player, &game, &topic, |_, g, color| {
                    g.accept_draw(color, now)
                })
            }
            M::ClaimDraw { game } => {
                self.with_game(conn, &player, &game, &topic, |_, g, _| g.claim_draw(now))
            }
            M::Rematch { game } => self.rematch(conn, &player, &game, &topic, now),
            M::DeclineRematch { game } => {
                self.with_game(conn, &player, &game, &topic, |hub, g, color| {
                    match g.rematch {
                        Some((by, _)) if by != color => {
                            g.rematch = None;
                            hub.send_game(
                                g,
                                &ServerMessage::RematchDeclined { game: g.id.clone() },
                            );
                            Ok(())
                        }
                        _ => Err("no rematch is offered to you".into()),
                    }
                })
            }
            M::CancelRematch { game } => {
                self.with_game(conn, &player, &game, &topic, |hub, g, color| {
                    match g.rematch {
                        Some((by, _)) if by == color => {
                            g.rematch = None;
                            hub.send_game(
                                g,
                                &ServerMessage::RematchCanceled { game: g.id.clone() },
                            );
                            Ok(())
                        }
                        _ => Err("you have offered no rematch".into()),
                    }
                })
            }
            M::GameChat { game, text: body } => match self.games.get(&game) {
                Some(g) => {
                    let line = ChatLine {
                        from: self.players[&player].name.clone(),
                        body: body.chars().take(CHAT_CHARS).collect(),
                    };
                    let msg = ServerMessage::GameChat {
                        game: game.clone(),
                        line,
                    };
                    let watching = self.watchers.get(&game).filter(|w| w.contains(&conn));
                    if g.colour_of(&player).is_some() {
                        self.send_game(g, &msg);
                    } else if let Some(watchers) = watching {
                        // A spectator's chat goes to spectators only.
                        for &c in watchers {
                            self.send(c, &msg);
                        }
                    } else {
                        self.error(
                            conn,
                            &topic,
                            "topic",
                            "watch the game (/request/game) to chat in it",
                        );
                    }
                }
                None => self.send(conn, &ServerMessage::GameNotFound(game)),
            },
        }
    }

    /// Runs `action` on `game` for its player `player` (refused to anyone else), then sends
    /// the end of the game if it ended. A refusal is answered with an error message.
    fn with_game(
        &mut self,
        conn: u64,
        player: &str,
        id: &str,
        topic: &str,
        action: impl FnOnce(&mut Hub, &mut Game, Color) -> Result<(), String>,
    ) {
        let Some(mut game) = self.games.remove(id) else {
            return self.send(conn, &ServerMessage::GameNotFound(id.to_string()));
        };
        // A flag that fell since the last tick falls now: no move, resignation or draw
        // after it counts.
        if game.check_time(now_ms()).is_some() {
            self.game_over(&game);
        }
        let was_over = !game.in_progress();
        match game.colour_of(player) {
            None => self.error(conn, topic, "topic", "you do not play in this game"),
            Some(color) => {
                if let Err(reason) = action(self, &mut game, color) {
                    self.error(conn, topic, "topic", &reason);
                }
            }
        }
        if !was_over && !game.in_progress() {
            self.game_over(&game);
        }
        self.games.insert(id.to_string(), game);
    }

    fn play(
        &mut self,
        conn: u64,
        player: &str,
        id: &str,
        topic: &str,
        request: MoveRequest,
        premove: bool,
    ) {
        let now = now_ms();
        self.with_game(conn, player, id, topic, |hub, game, color| {
            if premove && color != game.turn() {
                if !game.in_progress() {
                    return Err("the game is over".into());
                }
                let queued = game
                    .premoves
                    .queue(
                        &game.pos,
                        color,
                        request.from.square(),
                        request.to.square(),
                        request.promote_to.map(|p| p.role()),
                    )
                    .map_err(|e| e.to_string())?;
                hub.send_player(
                    player,
                    &ServerMessage::Premove {
                        game: game.id.clone(),
                        premove: premove_request(queued),
                    },
                );
                return Ok(());
            }
            let packed = game.play_request(color, &request, now)?;
            hub.moved(game, packed);
            // The premove of the side now on move, played at once if it is legal.
            while let Some(next) = game.play_premove(now) {
                match next {
                    Ok(packed) => hub.moved(game, packed),
                    // Not legal after the move: dropped, and its player told.
                    Err(_) => {
                        let side = game.turn();
                        hub.send_player(
                            game.player(side),
                            &ServerMessage::Premove {
                                game: game.id.clone(),
                                premove: None,
                            },
                        );
                        break;
                    }
                }
            }
            Ok(())
        });
    }

    /// A move was played: stored, then sent to players and spectators.
    fn moved(&self, game: &Game, packed: notate::chess::jsonchess::PackedMove) {
        let ply = game.history.len() - 1;
        let what = format!("a move of game {}", game.id);
        if self
            .stored(what, |s| s.add_move(&game.id, ply, &packed))
            .is_none()
        {
            return;
        }
        self.send_game(
            game,
            &ServerMessage::Move {
                game: game.id.clone(),
                packed,
            },
        );
        self.lobby_moved.borrow_mut().insert(game.id.clone());
        if self.featured.as_deref() == Some(game.id.as_str()) {
            self.send_feed(
                Feed::RandomGames,
                &ServerMessage::RandomGame(self.random_game(game)),
            );
        }
    }

    /// The random-games feed's view of a game: the board as 64 letters (a1 first), the last
    /// move, the players and the time control.
    fn random_game(&self, game: &Game) -> RandomGame {
        let board = game.pos.board();
        let text: String = Square::ALL
            .iter()
            .map(|&sq| board.piece_at(sq).map_or(' ', |p| p.char()))
            .collect();
        let last_move = game.history.last().and_then(|m| {
            Some(LastMove {
                from: SquareNo::new(u8::from(m.from))?,
                to: SquareNo::new(u8::from(m.to))?,
            })
        });
        RandomGame {
            id: game.id.clone(),
            board: BoardString::new(text).expect("64 FEN letters or spaces"),
            last_move,
            white: self.public_player(&game.players.w).name,
            black: self.public_player(&game.players.b).name,
            timing_description: format!(
                "{}+{}",
                game.options.initial_time / 60_000,
                game.options.time_increment / 1000
            ),
        }
    }

    /// A game ended: stored (its PGN, its rows in `notate load`'s tables, the ratings), then
    /// told to its players, spectators and feeds, so that a client told of the end finds the
    /// game in the database.
    fn game_over(&mut self, game: &Game) {
        let pgn = self.pgn_text(game);
        let what = format!("the end of game {}", game.id);
        if self.stored(what, |s| s.finish_game(game, &pgn)).is_none() {
            return;
        }
        if let Some(result) = &game.result {
            self.rate(game, result.scores.w);
        }
        let msg = match &game.result {
            Some(result) => ServerMessage::GameOver {
                game: game.id.clone(),
                result: result.clone(),
            },
            None => ServerMessage::Aborted {
                game: game.id.clone(),
            },
        };
        self.send_game(game, &msg);
        self.lobby_change(Op::Remove, "games", game.id.clone().into());
        if self.featured.as_deref() == Some(game.id.as_str()) {
            self.send_feed(
                Feed::RandomGames,
                &ServerMessage::RandomGameOver(game.id.clone()),
            );
            self.featured = self
                .games
                .values()
                .find(|g| g.in_progress())
                .map(|g| g.id.clone());
            if let Some(next) = self.featured.as_ref().and_then(|id| self.games.get(id)) {
                self.send_feed(
                    Feed::RandomGames,
                    &ServerMessage::RandomGame(self.random_game(next)),
                );
            }
        }
    }

    /// The PGN of a game: tags, moves, each with the mover's clock after it.
    fn pgn_text(&self, game: &Game) -> String {
        let name = |p: &str| {
            self.players
                .get(p)
                .map_or("Anonymous", |s| s.name.as_str())
                .replace(['"', '\\'], "")
        };
        let mut text = String::new();
        let (y, m, d) = civil_date(game.start_time);
        let tags = [
            ("Event", "notate serve".to_string()),
            ("Site", format!("notate serve game {}", game.id)),
            ("Date", format!("{y:04}.{m:02}.{d:02}")),
            ("White", name(&game.players.w)),
            ("Black", name(&game.players.b)),
            ("Result", game.result_text().to_string()),
            (
                "WhiteElo",
                format!("{:.0}", self.public_player(&game.players.w).rating),
            ),
            (
                "BlackElo",
                format!("{:.0}", self.public_player(&game.players.b).rating),
            ),
            (
                "TimeControl",
                format!(
                    "{}+{}",
                    game.options.initial_time / 1000,
                    game.options.time_increment / 1000
                ),
            ),
            (
                "Termination",
                game.result
                    .as_ref()
                    .map_or_else(String::new, |r| r.description.clone()),
            ),
        ];
        for (tag, value) in tags {
            text.push_str(&format!("[{tag} \"{value}\"]\n"));
        }
        text.push('\n');
        for (i, (san, clock)) in game.record.iter().enumerate() {
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            let clock = (*clock).max(0) / 1000;
            text.push_str(&format!(
                "{san} {{[%clk {}:{:02}:{:02}]}} ",
                clock / 3600,
                clock / 60 % 60,
                clock % 60
            ));
        }
        text.push_str(game.result_text());
        text.push('\n');
        text
    }

    /// Glicko-2 after a finished game, as the protocol rates: each player's result against
    /// the opponent's rating at the end joins their open period, which closes after 10 games.
    fn rate(&mut self, game: &Game, white_score: f64) {
        let (Some(w), Some(b)) = (
            self.players.get(&game.players.w).map(|s| s.rating),
            self.players.get(&game.players.b).map(|s| s.rating),
        ) else {
            return;
        };
        for (player, opponent, score) in [
            (&game.players.w, b, white_score),
            (&game.players.b, w, 1.0 - white_score),
        ] {
            let Some(state) = self.players.get_mut(player.as_str()) else {
                continue;
            };
            let mut rating = state.rating;
            state.pending.record(&mut rating, opponent, score);
            state.rating = rating;
            let pending = state.pending.clone();
            self.stored(format!("the rating of {player}"), |s| {
                s.rate(player, &rating, &pending)
            });
            self.lobby_player_changed(player, "rating", rating.rating.into());
        }
    }

    // ---- accounts ----

    /// Registers the guest `player` as `credentials.username`: the name checked here, the
    /// password hashed off the hub, the account stored when the hash comes back.
    fn register(&mut self, conn: u64, player: &str, credentials: Credentials) {
        let fail = |hub: &Hub, reason: &str| {
            hub.send(conn, &ServerMessage::RegisterFailure(reason.into()))
        };
        let name = credentials.username.trim().to_string();
        if !(3..=24).contains(&name.chars().count())
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return fail(self, "a name is 3 to 24 letters, digits, - or _");
        }
        if !(8..=256).contains(&credentials.password.chars().count()) {
            return fail(self, "a password is 8 to 256 characters");
        }
        if self.players[player].password.is_some() {
            return fail(self, "you are logged in: log out to register another name");
        }
        // Guests are all "Anonymous": an account of that name would pass for one.
        if self.usernames.contains_key(&name.to_lowercase())
            || name.eq_ignore_ascii_case("anonymous")
        {
            return fail(self, "that name is taken");
        }
        let player = player.to_string();
        let queued = self.password_work(
            conn,
            Box::new(move || {
                let mut salt = [0u8; 16];
                getrandom::fill(&mut salt).expect("the operating system's random numbers");
                let salt = SaltString::encode_b64(&salt).expect("16 bytes of salt");
                let hash = Argon2::default()
                    .hash_password(credentials.password.as_bytes(), &salt)
                    .expect("argon2 with its default parameters")
                    .to_string();
                Event::Registered {
                    conn,
                    player,
                    username: name,
                    hash,
                }
            }),
        );
        if let Err(reason) = queued {
            fail(self, reason);
        }
    }

    fn registered(&mut self, conn: u64, player: &str, username: String, hash: String) {
        // A guest forgotten while its hash was made (idle: see `forget_idle`) has no account
        // to make.
        if !self.players.contains_key(player) {
            return;
        }
        if self.usernames.contains_key(&username.to_lowercase()) {
            return self.send(
                conn,
                &ServerMessage::RegisterFailure("that name is taken".into()),
            );
        }
        // Two registrations of one player (from two connections) both checked before
        // either's hash was made: the first made is the account.
        if self
            .players
            .get(player)
            .is_some_and(|state| state.password.is_some())
        {
            return self.send(
                conn,
                &ServerMessage::RegisterFailure(
                    "you are logged in: log out to register another name".into(),
                ),
            );
        }
        if self
            .stored("an account", |s| s.register(player, &username, &hash))
            .is_none()
        {
            return self.send(
                conn,
                &ServerMessage::RegisterFailure("the account could not be stored".into()),
            );
        }
        self.usernames
            .insert(username.to_lowercase(), player.to_string());
        if let Some(state) = self.players.get_mut(player) {
            state.name = username.clone();
            state.password = Some(hash);
        }
        self.lobby_player_changed(player, "name", username.into());
        self.send(
            conn,
            &ServerMessage::RegisterSuccess(Some(self.private_user(player))),
        );
    }

    /// Checks a login off the hub; one answer for a wrong name and a wrong password.
    fn login(&mut self, conn: u64, credentials: Credentials) {
        let account = self
            .usernames
            .get(&credentials.username.trim().to_lowercase())
            .and_then(|id| Some((id.clone(), self.players.get(id)?.password.clone()?)));
        let queued = self.password_work(
            conn,
            Box::new(move || {
                // A name without an account is checked against a hash of nothing, so that
                // the answer takes as long as for a wrong password and tells nothing more.
                let (id, hash) = account.map_or((None, unknown_account_hash()), |(id, hash)| {
                    (Some(id), hash)
                });
                let matched = PasswordHash::new(&hash).is_ok_and(|parsed| {
                    Argon2::default()
                        .verify_password(credentials.password.as_bytes(), &parsed)
                        .is_ok()
                });
                Event::Verified {
                    conn,
                    player: id.filter(|_| matched),
                }
            }),
        );
        if let Err(reason) = queued {
            self.send(conn, &ServerMessage::LoginFailure(reason.into()));
        }
    }

    /// Runs `job` off the hub when a worker is free, or queues it: refused when this
    /// connection's last login or registration is still being checked, or too many wait.
    fn password_work(&mut self, conn: u64, job: PasswordJob) -> Result<(), &'static str> {
        if self.password_running.contains(&conn)
            || self.password_waiting.iter().any(|(c, _)| *c == conn)
        {
            return Err("your last login or registration is still being checked");
        }
        if self.password_waiting.len() >= PASSWORD_QUEUE {
            return Err("too many logins at once: try again in a moment");
        }
        self.password_waiting.push_back((conn, job));
        self.start_password_work();
        Ok(())
    }

    /// A connection's password work answered: the next waiting one starts.
    fn password_done(&mut self, conn: u64) {
        self.password_running.remove(&conn);
        self.start_password_work();
    }

    fn start_password_work(&mut self) {
        while self.password_running.len() < PASSWORD_WORKERS {
            let Some((conn, job)) = self.password_waiting.pop_front() else {
                return;
            };
            self.password_running.insert(conn);
            let events = self.events.clone();
            self.runtime.spawn_blocking(move || {
                let _ = events.send(job());
            });
        }
    }

    fn verified(&mut self, conn: u64, player: Option<String>) {
        let Some(player) = player else {
            return self.send(
                conn,
                &ServerMessage::LoginFailure("wrong name or password".into()),
            );
        };
        let Some(token) = self.players.get(&player).map(|s| s.token.clone()) else {
            return;
        };
        // Signing in as another player would leave this one's games without anyone to move
        // in them (signing out resigns them; signing in is no resignation).
        let current = self.conns.get(&conn).map(|c| c.player.clone());
        if current.as_ref().is_some_and(|current| {
            *current != player
                && self
                    .games
                    .values()
                    .any(|g| g.in_progress() && g.colour_of(current).is_some())
        }) {
            return self.send(
                conn,
                &ServerMessage::LoginFailure(
                    "finish or resign your games in progress before you log in".into(),
                ),
            );
        }
        self.attach(conn, &player, &token);
        self.send(
            conn,
            &ServerMessage::LoginSuccess(self.private_user(&player)),
        );
    }

    // ---- seeks ----

    fn seek(&mut self, conn: u64, player: &str, options: SeekOptions, now: u64) {
        let control = TimeOptions {
            initial_time: options.initial_time,
            time_increment: options.time_increment,
        };
        if let Some(reason) = game::time_control_refusal(&control) {
            return self.send(conn, &ServerMessage::SeekError(reason.into()));
        }
        self.cancel_seek(player, false);
        let rating = self.players[player].rating.rating;
        if let Some(state) = self.players.get_mut(player) {
            state.last_seek = Some(options);
        }
        // The closest-rated seek with the same time control that both sides accept.
        let matched = self
            .seeks
            .iter()
            .filter(|(s, owner)| {
                owner != player
                    && s.options.initial_time == options.initial_time
                    && s.options.time_increment == options.time_increment
                    && accepts(&s.options, s.owner.rating, rating)
                    && accepts(&options, rating, s.owner.rating)
            })
            .min_by(|a, b| {
                (a.0.owner.rating - rating)
                    .abs()
                    .total_cmp(&(b.0.owner.rating - rating).abs())
            })
            .map(|(s, _)| s.id.clone());
        if let Some(id) = matched {
            return self.accept_seek(conn, player, &id, now);
        }
        let seek = Seek {
            id: random_id(6),
            owner: self.public_player(player),
            options,
            expiry_time: now + SEEK_TIMEOUT_MS,
        };
        if let Some(state) = self.players.get_mut(player) {
            state.seek = Some(seek.id.clone());
        }
        self.seeks.push((seek.clone(), player.to_string()));
        self.send_player(player, &ServerMessage::SeekWaiting(seek.clone()));
        let value = serde_json::to_value(&seek).expect("JSON");
        self.lobby_change(Op::Add, "seeks", value);
        self.send_feed(Feed::Seeks, &ServerMessage::SeekAdded(seek));
    }

    /// Takes `player`'s seek away (`tell`: with `/seek/expired` to them).
    fn cancel_seek(&mut self, player: &str, tell: bool) {
        let Some(id) = self.players.get_mut(player).and_then(|s| s.seek.take()) else {
            return;
        };
        self.seeks.retain(|(s, _)| s.id != id);
        if tell {
            self.send_player(player, &ServerMessage::SeekExpired);
        }
        self.lobby_change(Op::Remove, "seeks", id.clone().into());
        self.send_feed(Feed::Seeks, &ServerMessage::SeekRemoved(id));
    }

    fn accept_seek(&mut self, conn: u64, player: &str, id: &str, now: u64) {
        let Some((seek, owner)) = self.seeks.iter().find(|(s, _)| s.id == id).cloned() else {
            return self.send(conn, &ServerMessage::SeekError(format!("no seek {id}")));
        };
        if owner == player {
            return self.send(
                conn,
                &ServerMessage::SeekError("that is your own seek".into()),
            );
        }
        if !accepts(
            &seek.options,
            seek.owner.rating,
            self.players[player].rating.rating,
        ) {
            return self.send(
                conn,
                &ServerMessage::SeekError("your rating is outside the seek's range".into()),
            );
        }
        self.cancel_seek(&owner, false);
        self.cancel_seek(player, false);
        let mut coin = [0u8; 1];
        getrandom::fill(&mut coin).expect("the operating system's random numbers");
        let (w, b) = if coin[0] & 1 == 0 {
            (owner.clone(), player.to_string())
        } else {
            (player.to_string(), owner.clone())
        };
        let options = notate::protocol::messages::TimeOptions {
            initial_time: seek.options.initial_time,
            time_increment: seek.options.time_increment,
        };
        let game = self.start_game(ByColour { w, b }, options, now);
        let json = Box::new(self.game_json(&game));
        self.send_player(&owner, &ServerMessage::SeekMatched(json.clone()));
        self.send_player(player, &ServerMessage::SeekMatched(json));
        self.games.insert(game.id.clone(), game);
    }

    fn start_game(
        &mut self,
        players: ByColour<String>,
        options: notate::protocol::messages::TimeOptions,
        now: u64,
    ) -> Game {
        let game = Game::new(random_id(6), players, options, now);
        let names = ByColour {
            w: self.public_player(&game.players.w).name,
            b: self.public_player(&game.players.b).name,
        };
        self.stored(format!("game {}", game.id), |s| s.add_game(&game, &names));
        self.lobby_change(Op::Add, "games", self.lobby_game(&game));
        self.feature_if_none(&game);
        game
    }

    /// A game that starts while the random-games feed shows none is shown at once: its
    /// subscribers would otherwise hear nothing until they subscribed again.
    fn feature_if_none(&mut self, game: &Game) {
        if self.featured.is_none() {
            self.featured = Some(game.id.clone());
            self.send_feed(
                Feed::RandomGames,
                &ServerMessage::RandomGame(self.random_game(game)),
            );
        }
    }

    fn rematch(&mut self, conn: u64, player: &str, id: &str, topic: &str, now: u64) {
        let mut new_game = None;
        self.with_game(conn, player, id, topic, |hub, g, color| {
            if g.in_progress() {
                return Err("the game is not over".into());
            }
            if let Some(next) = &g.rematched {
                return Err(format!("the rematch is game {next}"));
            }
            match g.rematch {
                Some((by, _)) if by != color => {
                    g.rematch = None;
                    let players = ByColour {
                        w: g.players.b.clone(),
                        b: g.players.w.clone(),
                    };
                    let game = hub.start_game(players, g.options, now);
                    g.rematched = Some(game.id.clone());
                    hub.send_game(
                        g,
                        &ServerMessage::Rematch {
                            game: g.id.clone(),
                            new_game: Box::new(hub.game_json(&game)),
                        },
                    );
                    new_game = Some(game);
                    Ok(())
                }
                Some(_) => Err("you have offered a rematch already".into()),
                None => {
                    g.rematch = Some((color, now));
                    hub.send_game(
                        g,
                        &ServerMessage::RematchOffered {
                            game: g.id.clone(),
                            by: colour(color),
                        },
                    );
                    Ok(())
                }
            }
        });
        if let Some(game) = new_game {
            self.games.insert(game.id.clone(), game);
        }
    }

    fn game_json(&self, game: &Game) -> GameJson {
        GameJson {
            white: self.public_player(&game.players.w),
            black: self.public_player(&game.players.b),
            history: game.history.clone(),
            is_in_progress: game.in_progress(),
            result: game.result.clone(),
            start_time: game.start_time,
            end_time: game.end_time,
            initial_ratings: ByColour {
                w: self.public_player(&game.players.w).rating,
                b: self.public_player(&game.players.b).rating,
            },
            added_time: notate::protocol::messages::AddedTime {
                w: game.added[0].max(0) as u64,
                b: game.added[1].max(0) as u64,
                other: serde_json::Map::new(),
            },
            is_undo_requested: false,
            is_draw_offered: game.draw_offer.is_some(),
            rematch_offered_by: game.rematch.map(|(c, _)| colour(c)),
            options: game.options,
            id: game.id.clone(),
        }
    }

    // ---- restoration from the players' backups ----

    /// `/game/restore`: a game the server has is given back to its player. Otherwise the
    /// protocol's restoration: the first player's backup waits (`pending`) for the other
    /// player's; with both, the same details (start, time control, added time) and opposite
    /// colours, the game is rebuilt from the longest history both backups share (the
    /// reference compared an undefined field and took the shorter one, whatever it held),
    /// every move checked, the side to move credited the time since the last move.
    fn restore(&mut self, conn: u64, player: &str, request: RestoreRequest, now: u64) {
        let id = request.game_details.id.clone();
        let fail = |hub: &Hub, reason: &str| {
            hub.send(
                conn,
                &ServerMessage::RestoreFailure {
                    game: id.clone(),
                    reason: reason.into(),
                },
            )
        };
        if let Some(game) = self.games.get(&id) {
            return if game.colour_of(player).is_some() {
                self.send(
                    conn,
                    &ServerMessage::RestoreSuccess {
                        game: id.clone(),
                        restored: Box::new(self.game_json(game)),
                    },
                )
            } else {
                fail(self, "that game is not yours")
            };
        }
        // The id goes into topics, the store and the PGN's `Site` tag: only ids of the
        // server's own alphabet are taken (a `/` made a game no topic reaches, a quote or a
        // line break broke its PGN and stopped the hub, a NUL stopped PostgreSQL's store).
        let fits = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if id.is_empty() || id.len() > 64 || !id.chars().all(fits) {
            return fail(self, "not a game id: 1 to 64 letters, digits, - or _");
        }
        match self.stored(format!("(reading) game {id}"), |s| s.has_game(&id)) {
            Some(false) => {}
            Some(true) => return fail(self, "that game is over"),
            None => return,
        }
        let details = request.game_details;
        if details.history.len() < MIN_PLIES_TO_RESTORE {
            return fail(
                self,
                &format!("a game of fewer than {MIN_PLIES_TO_RESTORE} plies is not restored"),
            );
        }
        let colour = match request.playing_as {
            Colour::White => Color::White,
            Colour::Black => Color::Black,
        };
        let checked = Game::replayed(
            id.clone(),
            ByColour {
                w: String::new(),
                b: String::new(),
            },
            details.options,
            details.start_time,
            &details.history,
        );
        match checked {
            Err(reason) => {
                return fail(self, &format!("the backup's moves do not replay: {reason}"));
            }
            // A mate or a draw by the rules on the backup's last move: a game over, which
            // restored would never end (never stored, rated or taken off the lobby).
            Ok(game) if !game.in_progress() => return fail(self, "that game is over"),
            Ok(_) => {}
        }
        if let Some(reason) = game::backup_refusal(&details, now) {
            return fail(self, &reason);
        }
        let mine = Restoration {
            player: player.to_string(),
            details,
            colour,
        };
        let Some(theirs) = self.restorations.remove(&id) else {
            self.restorations.insert(id.clone(), mine);
            return self.send(conn, &ServerMessage::RestorePending { game: id });
        };
        if theirs.player == player {
            // A new backup of the same player replaces the one waiting.
            self.restorations.insert(id.clone(), mine);
            return self.send(conn, &ServerMessage::RestorePending { game: id });
        }
        let (a, b) = (&mine.details, &theirs.details);
        let refusal = if mine.colour == theirs.colour {
            Some("both backups play the same colour")
        } else if a.start_time != b.start_time
            || a.options != b.options
            || (a.added_time.w, a.added_time.b) != (b.added_time.w, b.added_time.b)
        {
            Some("the backups differ in their start, time control or added time")
        } else {
            None
        };
        if let Some(reason) = refusal {
            self.restorations.insert(id.clone(), theirs);
            return fail(self, reason);
        }
        let common = a
            .history
            .iter()
            .zip(&b.history)
            .take_while(|(x, y)| x == y)
            .count();
        if common < MIN_PLIES_TO_RESTORE {
            self.restorations.insert(id.clone(), theirs);
            return fail(
                self,
                &format!("the backups share fewer than {MIN_PLIES_TO_RESTORE} plies"),
            );
        }
        let players = if mine.colour == Color::White {
            ByColour {
                w: mine.player.clone(),
                b: theirs.player.clone(),
            }
        } else {
            ByColour {
                w: theirs.player.clone(),
                b: mine.player.clone(),
            }
        };
        let mut game = match Game::replayed(
            id.clone(),
            players,
            a.options,
            a.start_time,
            &a.history[..common],
        ) {
            Ok(game) => game,
            Err(reason) => return fail(self, &reason),
        };
        game.add_time([a.added_time.w as i64, a.added_time.b as i64]);
        game.resume(now, None);
        let names = ByColour {
            w: self.public_player(&game.players.w).name,
            b: self.public_player(&game.players.b).name,
        };
        self.stored(format!("restored game {id}"), |store| {
            store.add_game(&game, &names)?;
            game.history
                .iter()
                .enumerate()
                .try_for_each(|(ply, packed)| store.add_move(&game.id, ply, packed))
        });
        self.lobby_change(Op::Add, "games", self.lobby_game(&game));
        self.feature_if_none(&game);
        let json = Box::new(self.game_json(&game));
        for p in [&game.players.w, &game.players.b] {
            self.send_player(
                p,
                &ServerMessage::RestoreSuccess {
                    game: id.clone(),
                    restored: json.clone(),
                },
            );
        }
        self.games.insert(id, game);
    }

    // ---- the lobby: notate's generic-updates channel ----

    /// A user in the lobby document and the users-online feed.
    fn lobby_user(&self, player: &str) -> serde_json::Value {
        let p = self.public_player(player);
        serde_json::json!({"id": p.id, "name": p.name, "rating": p.rating})
    }

    fn users_online(&self) -> Vec<serde_json::Value> {
        self.players
            .iter()
            .filter(|(_, s)| !s.conns.is_empty())
            .map(|(id, _)| self.lobby_user(id))
            .collect()
    }

    /// A game in progress in the lobby document.
    fn lobby_game(&self, game: &Game) -> serde_json::Value {
        serde_json::json!({
            "id": game.id,
            "white": self.public_player(&game.players.w),
            "black": self.public_player(&game.players.b),
            "options": game.options,
            "plies": game.history.len(),
        })
    }

    /// The whole lobby, as a `/lobby` subscriber first receives it.
    fn lobby_document(&self) -> serde_json::Value {
        let seeks: Vec<&Seek> = self.seeks.iter().map(|(s, _)| s).collect();
        let mut games: Vec<&Game> = self.games.values().filter(|g| g.in_progress()).collect();
        games.sort_by_key(|g| g.start_time);
        let games: Vec<serde_json::Value> = games.into_iter().map(|g| self.lobby_game(g)).collect();
        serde_json::json!({"seeks": seeks, "users": self.users_online(), "games": games})
    }

    /// A player's `field` (name or rating) is now `value`: in the lobby's users when online,
    /// and in each of the lobby's games the player plays.
    fn lobby_player_changed(&self, player: &str, field: &str, value: serde_json::Value) {
        let online = self
            .players
            .get(player)
            .is_some_and(|state| !state.conns.is_empty());
        if online {
            self.lobby_change(Op::Update, format!("users:{player}.{field}"), value.clone());
        }
        let mut games: Vec<&Game> = self.games.values().filter(|g| g.in_progress()).collect();
        games.sort_by(|a, b| a.id.cmp(&b.id));
        for game in games {
            for (side, id) in [("white", &game.players.w), ("black", &game.players.b)] {
                if id == player {
                    let key = format!("games:{}.{side}.{field}", game.id);
                    self.lobby_change(Op::Update, key, value.clone());
                }
            }
        }
    }

    fn lobby_change(&self, op: Op, key: impl Into<String>, value: serde_json::Value) {
        self.lobby.borrow_mut().push(Update {
            op,
            key: key.into(),
            value,
        });
    }

    /// Sends the lobby's changes since the last flush, in order, as one message; games that
    /// moved give their ply count once, however many moves they made.
    fn flush_lobby(&self) {
        let moved = std::mem::take(&mut *self.lobby_moved.borrow_mut());
        let mut updates = std::mem::take(&mut *self.lobby.borrow_mut());
        let mut moved: Vec<&Game> = moved
            .iter()
            .filter_map(|id| self.games.get(id))
            .filter(|g| g.in_progress())
            .collect();
        moved.sort_by(|a, b| a.id.cmp(&b.id));
        updates.extend(moved.into_iter().map(|g| Update {
            op: Op::Update,
            key: format!("games:{}.plies", g.id),
            value: g.history.len().into(),
        }));
        if !updates.is_empty() {
            self.send_feed(Feed::Lobby, &ServerMessage::LobbyUpdates(updates));
        }
    }

    // ---- time ----

    fn tick(&mut self, now: u64) {
        self.flush_lobby();
        if now >= self.alive_noted + ALIVE_EVERY_MS {
            self.alive_noted = now;
            self.stored("that the hub runs", |s| s.set_alive(now));
        }
        let expired: Vec<String> = self
            .seeks
            .iter()
            .filter(|(s, _)| s.expiry_time <= now)
            .map(|(_, owner)| owner.clone())
            .collect();
        for owner in expired {
            self.cancel_seek(&owner, true);
        }
        if now >= self.idle_swept + IDLE_SWEEP_MS && self.forget_idle(now) {
            self.idle_swept = now;
        }
        let ids: Vec<String> = self.games.keys().cloned().collect();
        for id in ids {
            let Some(mut game) = self.games.remove(&id) else {
                continue;
            };
            if game.check_time(now).is_some() {
                self.game_over(&game);
            }
            if let Some((_, at)) = game.rematch
                && now >= at + REMATCH_TIMEOUT_MS
            {
                game.rematch = None;
                self.send_game(&game, &ServerMessage::RematchExpired { game: id.clone() });
            }
            let stale = game
                .end_time
                .is_some_and(|end| now >= end + KEEP_FINISHED_MS);
            if stale {
                self.watchers.remove(&id);
            } else {
                self.games.insert(id, game);
            }
        }
    }

    /// Forgets the guests no connection has spoken for in [`GUEST_IDLE_MS`] (their rating
    /// with them, as the protocol's server never keeps a guest's), and gives the registered
    /// players idle for [`SESSION_IDLE_MS`] a new token, so that the old one signs in no
    /// more (the account stays: a login gives the new one). A player of a game the hub still
    /// holds (in progress, or finished a moment ago) is kept. At most [`IDLE_PER_SWEEP`] of
    /// each: whether all were done.
    fn forget_idle(&mut self, now: u64) -> bool {
        let playing: HashSet<&str> = self
            .games
            .values()
            .flat_map(|g| [g.players.w.as_str(), g.players.b.as_str()])
            .collect();
        let idle = |state: &PlayerState, limit: u64| {
            state.conns.is_empty() && now.saturating_sub(state.idle_since) >= limit
        };
        let mut guests = Vec::new();
        let mut sessions = Vec::new();
        let mut all = true;
        for (id, state) in &self.players {
            let (due, limit) = match state.password {
                None => (&mut guests, GUEST_IDLE_MS),
                Some(_) => (&mut sessions, SESSION_IDLE_MS),
            };
            if idle(state, limit) && !playing.contains(id.as_str()) {
                if due.len() == IDLE_PER_SWEEP {
                    all = false;
                } else {
                    due.push(id.clone());
                }
            }
        }
        if !guests.is_empty() {
            if self
                .stored("that guests left", |s| s.remove_guests(&guests))
                .is_none()
            {
                return true;
            }
            for id in &guests {
                if let Some(state) = self.players.remove(id) {
                    self.tokens.remove(&state.token);
                }
            }
        }
        if !sessions.is_empty() {
            let tokens: Vec<(String, String)> =
                sessions.into_iter().map(|id| (id, random_id(16))).collect();
            if self
                .stored("new sessions", |s| s.set_tokens(&tokens, now))
                .is_none()
            {
                return true;
            }
            for (id, token) in tokens {
                if let Some(state) = self.players.get_mut(&id) {
                    let old = std::mem::replace(&mut state.token, token.clone());
                    // Idle again from now: not signed out again at every look.
                    state.idle_since = now;
                    self.tokens.remove(&old);
                    self.tokens.insert(token, id);
                }
            }
        }
        all
    }
}

impl PlayerState {
    fn new(name: String, token: String, rating: Rating) -> PlayerState {
        PlayerState {
            name,
            token,
            password: None,
            rating,
            pending: PendingResults::default(),
            conns: Vec::new(),
            idle_since: now_ms(),
            idle_stored: false,
            seek: None,
            last_seek: None,
            prefs: Prefs::default(),
        }
    }
}

/// The calendar date (UTC) of a time in ms since the Unix epoch (Hinnant's civil_from_days).
fn civil_date(ms: u64) -> (i64, u32, u32) {
    let z = (ms / 86_400_000) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use notate::protocol::messages::Colour;

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(1_407_781_768_400), (2014, 8, 11));
        assert_eq!(civil_date(1_795_564_800_000), (2026, 11, 25));
    }

    /// A hub over `db`, and its runtime.
    fn hub_on(db: &crate::Database) -> (Hub, tokio::runtime::Runtime) {
        let store = crate::store::open(db).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (events, _) = mpsc::unbounded_channel();
        let hub = Hub::new(store, events, runtime.handle().clone()).unwrap();
        (hub, runtime)
    }

    /// Opens connection `conn` (with `token`, if any): the player it speaks for.
    fn open(hub: &mut Hub, conn: u64, token: Option<&str>) -> String {
        let (out, _) = mpsc::channel(QUEUE);
        let token = token.map(str::to_string);
        hub.handle(Event::Open { conn, token, out });
        hub.conns[&conn].player.clone()
    }

    fn stored_ids(hub: &mut Hub) -> Vec<String> {
        let mut ids: Vec<String> = hub
            .store
            .get_mut()
            .players()
            .unwrap()
            .into_iter()
            .map(|p| p.id)
            .collect();
        ids.sort();
        ids
    }

    #[test]
    fn idle_guests_are_forgotten_and_idle_sessions_end() {
        let dir = notate_testdata::scratch_dir("notate-hub");
        idle_players_on(&crate::Database::Sqlite(dir.path().join("games.sqlite")));
        let postgres = notate_testdata::postgres::Server::start();
        idle_players_on(&crate::Database::Postgres(postgres.url.clone()));
    }

    fn idle_players_on(db: &crate::Database) {
        let (mut hub, _runtime) = hub_on(db);
        let left = open(&mut hub, 1, None);
        let stays = open(&mut hub, 2, None);
        let plays = open(&mut hub, 3, None);
        let registers = open(&mut hub, 4, None);
        hub.registered(4, &registers, "Ada".into(), "not a real hash".into());
        let left_token = hub.players[&left].token.clone();
        let session = hub.players[&registers].token.clone();
        let players = ByColour {
            w: plays.clone(),
            b: stays.clone(),
        };
        let options = TimeOptions {
            initial_time: 600_000,
            time_increment: 0,
        };
        hub.games.insert(
            "g1".into(),
            Game::new("g1".into(), players, options, now_ms()),
        );
        for conn in [1, 3, 4] {
            hub.handle(Event::Close { conn });
        }

        // A day less a minute: everyone is kept.
        hub.tick(now_ms() + GUEST_IDLE_MS - 60_000);
        assert_eq!(hub.players.len(), 4);
        // A day on: the guest that left is forgotten, in memory and in the store; the one
        // still connected and the one in a game the hub holds are kept, as is the account.
        hub.tick(now_ms() + GUEST_IDLE_MS + 1);
        assert!(!hub.players.contains_key(&left));
        assert!(!hub.tokens.contains_key(&left_token));
        let mut kept = vec![stays.clone(), plays.clone(), registers.clone()];
        kept.sort();
        assert_eq!(stored_ids(&mut hub), kept);
        // Its token now opens a new guest.
        let again = open(&mut hub, 5, Some(&left_token));
        assert_ne!(again, left);
        hub.handle(Event::Close { conn: 5 });

        // 30 days on, the account's session ends: its old token opens a guest, the account
        // stays with a new token, stored.
        hub.tick(now_ms() + SESSION_IDLE_MS + 1);
        assert_eq!(hub.usernames["ada"], registers);
        let new_session = hub.players[&registers].token.clone();
        assert_ne!(new_session, session);
        assert_eq!(hub.tokens[&new_session], registers);
        let stored = hub.store.get_mut().players().unwrap();
        let account = stored.iter().find(|p| p.id == registers).unwrap();
        assert_eq!(account.token, new_session);
        assert_ne!(open(&mut hub, 6, Some(&session)), registers);
        assert_eq!(open(&mut hub, 7, Some(&new_session)), registers);

        // A restart goes on from the store: a guest that left 23 hours ago goes an hour
        // later; one connected when the hub stopped is idle from then.
        let left = open(&mut hub, 8, None);
        hub.handle(Event::Close { conn: 8 });
        let connected = hub.conns[&2].player.clone();
        let an_hour = 3_600_000;
        let store = hub.store.get_mut();
        store
            .set_last_seen(&left, Some(now_ms() - GUEST_IDLE_MS + an_hour))
            .unwrap();
        // (The ticks above, a month ahead, noted the hub running then.)
        store.set_alive(now_ms()).unwrap();
        drop(hub);
        let (mut hub, _runtime) = hub_on(db);
        hub.tick(now_ms() + an_hour - 60_000);
        assert!(hub.players.contains_key(&left));
        hub.tick(now_ms() + an_hour + 1);
        assert!(!hub.players.contains_key(&left));
        assert!(hub.players.contains_key(&connected));
        hub.tick(now_ms() + GUEST_IDLE_MS + 1);
        assert!(!hub.players.contains_key(&connected));
        // The store says when a player left, and nothing while one is here.
        let last_seen = |hub: &mut Hub| {
            let stored = hub.store.get_mut().players().unwrap();
            stored
                .into_iter()
                .find(|p| p.id == registers)
                .unwrap()
                .last_seen
        };
        assert_eq!(last_seen(&mut hub), None); // connected when the first hub stopped
        let before = now_ms();
        let token = hub.players[&registers].token.clone();
        open(&mut hub, 9, Some(&token));
        hub.handle(Event::Close { conn: 9 });
        assert!(last_seen(&mut hub).is_some_and(|at| at >= before && at <= now_ms()));
        open(&mut hub, 10, Some(&token));
        assert_eq!(last_seen(&mut hub), None);
    }

    #[test]
    fn colours() {
        assert_eq!(colour(Color::Black), Colour::Black);
    }
}
