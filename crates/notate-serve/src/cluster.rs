//! Several `notate serve` processes on one PostgreSQL database, with PostgreSQL's own
//! mechanisms: an advisory lock elects the process that runs the hub, LISTEN/NOTIFY carries
//! the messages between processes, `pg_locks` tells which processes are alive.
//!
//! - **One hub.** The process holding the session advisory lock [`LEADER_LOCK`] leads: it
//!   runs the hub, the one owner of players, seeks and games, so a game's moves have one order
//!   as with a single process, and every move is stored (in PostgreSQL) before it is sent.
//! - **Every process serves WebSockets**, the leader too. A process that does not lead passes
//!   its connections' events to the hub on the channel `notate_hub`, and the hub's messages
//!   come back on the process's own channel `notate_node_N`. Notifications of one channel
//!   arrive in the order their transactions committed, and one thread commits each process's
//!   mail in order, so a connection's messages keep their order. A message too long for a
//!   notification's payload travels through the table `serve_mail`.
//! - **Processes come and go.** Each holds a second advisory lock, its own number's, while it
//!   lives; each second the leader closes the connections of a process whose lock is gone.
//!   When the leader dies its session ends and frees [`LEADER_LOCK`]: another process takes it
//!   within [`POLL`], loads the games in progress (the restart of a single process after
//!   `kill -9`: every stored move is there, the side to move is credited the time) and says so
//!   on `notate_cluster`; every process then closes its WebSockets, whose clients come back
//!   with their session tokens to the new hub.
//! - **A process that loses its database stops** (the error comes out of
//!   [`crate::Server::wait`]), rather than go on alone beside a new leader.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use postgres::fallible_iterator::FallibleIterator;
use postgres::Client;
use serde::{Deserialize, Serialize};
use tokio::runtime::Handle;
use tokio::sync::mpsc;

use crate::hub::{self, Event, NODE_SHIFT, QUEUE};
use crate::store::{self, Database};

/// The advisory lock of the leader (the bytes of "leader").
pub const LEADER_LOCK: i64 = 0x6c65_6164_6572;
/// The first key of each process's own advisory lock (the second is its number).
const NODE_LOCK: i32 = 0x6e6f_6465;
/// How often a process that does not lead tries to take the lead.
pub const POLL: Duration = Duration::from_millis(250);
/// How often the leader looks for processes that are gone.
const LIVENESS: Duration = Duration::from_secs(1);
/// The longest payload sent in the notification itself (PostgreSQL's limit is 8,000 bytes).
const PAYLOAD: usize = 7_000;
/// The channel of the hub, and of news for every process.
const HUB: &str = "notate_hub";
const CLUSTER: &str = "notate_cluster";

/// To the hub: what happened on a connection of another process.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ToHub {
    Open { conn: u64, token: Option<String> },
    Text { conn: u64, text: String },
    Close { conn: u64 },
}

/// To a process: a message for one of its connections, that connection's end, or (to every
/// process) a new leader.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ToNode {
    Text { conn: u64, text: String },
    Close { conn: u64 },
    Leader { node: u64 },
}

fn node_channel(node: u64) -> String {
    format!("notate_node_{node}")
}

/// What the process's router hears besides its WebSockets.
enum NodeEvent {
    Mail(ToNode),
    /// This process now leads: the hub's events.
    Leading(mpsc::UnboundedSender<Event>),
}

/// A process of the cluster, joined.
pub struct Node {
    /// Its number (from the sequence `serve_nodes`).
    pub number: u64,
    /// Where its WebSockets' events go.
    pub events: mpsc::UnboundedSender<Event>,
    /// The error that stopped it.
    pub fatal: mpsc::UnboundedReceiver<anyhow::Error>,
}

/// Joins the cluster on `url`: takes a number, listens, leads if no process does (before it
/// returns, so the first process started leads), and starts routing its WebSockets' events.
/// Blocks: call it off the runtime (`spawn_blocking`), since the PostgreSQL client runs a
/// runtime of its own.
pub fn join(url: &str, runtime: Handle) -> Result<Node> {
    let (fatal_tx, fatal) = mpsc::unbounded_channel();
    let mut listener = store::postgres::connect(url, "listen")?;
    // Mail carries what clients send: a text the database cannot hold would fail a whole
    // batch of it, and stop the process.
    let encoding: String = listener.query_one("SHOW server_encoding", &[])?.get(0);
    if encoding != "UTF8" {
        anyhow::bail!(
            "the database's encoding is {encoding}: notate serve needs UTF8 \
             (CREATE DATABASE … ENCODING 'UTF8')"
        );
    }
    let number: i64 = listener
        .query_one("SELECT nextval('serve_nodes')", &[])?
        .get(0);
    let number = number as u64;
    listener.execute(
        "SELECT pg_advisory_lock($1, $2)",
        &[&NODE_LOCK, &(number as i32)],
    )?;
    listener.batch_execute(&format!(
        "LISTEN {}; LISTEN {CLUSTER};",
        node_channel(number)
    ))?;
    let mailer = Mailer::start(url, fatal_tx.clone())?;
    let (node_tx, node_rx) = mpsc::unbounded_channel();
    let (ws_tx, ws_rx) = mpsc::unbounded_channel();

    let mut leadership = store::postgres::connect_as(url, "lead")?;
    let first_hub = if try_lead(&mut leadership)? {
        Some(take_lead(url, &mut leadership, &runtime, fatal_tx.clone())?)
    } else {
        None
    };

    let to_router = node_tx.clone();
    let stop = fatal_tx.clone();
    std::thread::Builder::new()
        .name("notate-listen".into())
        .spawn(move || {
            if let Err(e) = listen(&mut listener, &to_router) {
                let _ = stop.send(e.context("the cluster's mail to this process"));
            }
        })?;

    let url_owned = url.to_string();
    let lead_runtime = runtime.clone();
    let lead_mailer = mailer.clone();
    let hub = first_hub.clone();
    std::thread::Builder::new()
        .name("notate-lead".into())
        .spawn(move || {
            let result = (|| -> Result<()> {
                let hub = match hub {
                    Some(hub) => hub,
                    None => {
                        while !try_lead(&mut leadership)? {
                            std::thread::sleep(POLL);
                        }
                        let hub = take_lead(
                            &url_owned,
                            &mut leadership,
                            &lead_runtime,
                            fatal_tx.clone(),
                        )?;
                        // The router first, then everyone (below): the router hears that it
                        // leads before the news, which would otherwise let a connection opened
                        // between the two be mailed to this process's own hub, which drops
                        // such mail. (A first hub is the router's from its start.)
                        let _ = node_tx.send(NodeEvent::Leading(hub.clone()));
                        hub
                    }
                };
                lead_mailer.send(CLUSTER, &ToNode::Leader { node: number });
                serve_hub(number, &mut leadership, &hub, &lead_runtime, &lead_mailer)
            })();
            if let Err(e) = result {
                let _ = fatal_tx.send(e.context("leading the cluster"));
            }
        })?;

    let router = Router {
        number,
        local: HashMap::new(),
        leader: first_hub.as_ref().map(|_| number),
        hub: first_hub,
        mailer,
        url: url.to_string(),
        pgn_reader: Arc::new(Mutex::new(None)),
    };
    runtime.spawn(router.run(ws_rx, node_rx));
    Ok(Node {
        number,
        events: ws_tx,
        fatal,
    })
}

/// Takes [`LEADER_LOCK`] if it is free (a session lock: it stays with the connection).
fn try_lead(client: &mut Client) -> Result<bool> {
    Ok(client
        .query_one("SELECT pg_try_advisory_lock($1)", &[&LEADER_LOCK])?
        .get(0))
}

/// Starts leading, once [`LEADER_LOCK`] is held on `client`: listens to the hub's channel
/// and starts the hub over the database (its games in progress go on). The hub's events; the
/// caller tells its router, then every process.
fn take_lead(
    url: &str,
    client: &mut Client,
    runtime: &Handle,
    fatal: mpsc::UnboundedSender<anyhow::Error>,
) -> Result<mpsc::UnboundedSender<Event>> {
    client.batch_execute(&format!("LISTEN {HUB}"))?;
    let db = Database::Postgres(url.to_string());
    hub::spawn(move || store::open(&db), runtime.clone(), fatal)
}

/// The leader's loop: the other processes' connection events into the hub, and each second
/// the connections of processes that are gone closed. Mail about this process's own
/// connections is dropped: it was sent before this process led, and those connections were
/// closed when it began to (their `Close` may even have reached the hub before the mailed
/// `Open`, which would leave the hub a connection it never sees close).
fn serve_hub(
    number: u64,
    client: &mut Client,
    hub: &mpsc::UnboundedSender<Event>,
    runtime: &Handle,
    mailer: &Mailer,
) -> Result<()> {
    // The processes whose connections the hub has, to close them if the process goes.
    let mut nodes: HashSet<u64> = HashSet::new();
    let mut checked = Instant::now();
    loop {
        for (_, payload) in receive(client, LIVENESS)? {
            let mail: ToHub = serde_json::from_str(&payload)
                .with_context(|| format!("mail to the hub: {payload:.80}"))?;
            let conn = match &mail {
                ToHub::Open { conn, .. } | ToHub::Text { conn, .. } | ToHub::Close { conn } => {
                    *conn
                }
            };
            if conn >> NODE_SHIFT == number {
                continue;
            }
            let event = match mail {
                ToHub::Open { conn, token } => {
                    nodes.insert(conn >> NODE_SHIFT);
                    let (out, queue) = mpsc::channel(QUEUE);
                    runtime.spawn(forward(conn, queue, mailer.clone()));
                    Event::Open { conn, token, out }
                }
                ToHub::Text { conn, text } => Event::Text { conn, text },
                ToHub::Close { conn } => Event::Close { conn },
            };
            if hub.send(event).is_err() {
                anyhow::bail!("the hub stopped");
            }
        }
        if checked.elapsed() >= LIVENESS {
            checked = Instant::now();
            let alive: HashSet<u64> = client
                .query(
                    "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' \
                     AND classid::bigint = $1 AND objsubid = 2 AND granted \
                     AND database = (SELECT oid FROM pg_database \
                     WHERE datname = current_database())",
                    &[&i64::from(NODE_LOCK)],
                )?
                .iter()
                .map(|r| r.get::<_, i64>(0) as u64)
                .collect();
            for node in nodes.iter().copied().filter(|n| !alive.contains(n)) {
                let _ = hub.send(Event::NodeGone { node });
            }
            nodes.retain(|n| alive.contains(n));
            client.execute(
                "DELETE FROM serve_mail WHERE sent < now() - interval '1 minute'",
                &[],
            )?;
        }
    }
}

/// A remote connection's queue in the hub, emptied into its process's channel; its end is
/// the connection's close.
async fn forward(conn: u64, mut queue: mpsc::Receiver<String>, mailer: Mailer) {
    let channel = node_channel(conn >> NODE_SHIFT);
    while let Some(text) = queue.recv().await {
        mailer.send(&channel, &ToNode::Text { conn, text });
    }
    mailer.send(&channel, &ToNode::Close { conn });
}

/// This process's mail, to its router, until the router is gone.
fn listen(client: &mut Client, router: &mpsc::UnboundedSender<NodeEvent>) -> Result<()> {
    loop {
        for (_, payload) in receive(client, Duration::from_secs(60))? {
            let mail: ToNode = serde_json::from_str(&payload)
                .with_context(|| format!("mail to this process: {payload:.80}"))?;
            if router.send(NodeEvent::Mail(mail)).is_err() {
                return Ok(());
            }
        }
    }
}

/// The notifications that arrive within `wait` (at least one, or none when none came), each
/// as (channel, payload), a payload that travelled through `serve_mail` fetched (and
/// deleted).
fn receive(client: &mut Client, wait: Duration) -> Result<Vec<(String, String)>> {
    let mut got = Vec::new();
    {
        let mut notifications = client.notifications();
        let first = notifications.timeout_iter(wait).next()?;
        if let Some(first) = first {
            got.push((first.channel().to_string(), first.payload().to_string()));
            let mut more = notifications.iter();
            while let Some(n) = more.next()? {
                got.push((n.channel().to_string(), n.payload().to_string()));
            }
        }
    }
    let mut mails = Vec::with_capacity(got.len());
    for (channel, payload) in got {
        let payload = match payload.strip_prefix("mail:") {
            Some(id) => {
                let id: i64 = id.parse().context("a mail number")?;
                let row = client.query_opt(
                    "DELETE FROM serve_mail WHERE id = $1 RETURNING body",
                    &[&id],
                )?;
                // Only a process over a minute behind misses its mail: the leader removes
                // it then (see `serve_hub`).
                let Some(row) = row else {
                    eprintln!("notate serve: mail {id} was removed before it was read");
                    continue;
                };
                row.get(0)
            }
            None => payload,
        };
        // The number the mailer put in front (see `push_notify`).
        let (_, mail) = payload.split_once(' ').context("numbered mail")?;
        mails.push((channel, mail.to_string()));
    }
    Ok(mails)
}

/// The sender of the process's notifications: one thread, one connection, so what it is
/// given is committed in that order; what waits is sent together, in one round trip.
#[derive(Clone)]
struct Mailer(std::sync::mpsc::Sender<(String, String)>);

impl Mailer {
    fn start(url: &str, fatal: mpsc::UnboundedSender<anyhow::Error>) -> Result<Mailer> {
        let mut client = store::postgres::connect_as(url, "mail")?;
        // Payloads are quoted as SQL literals, where a backslash is a backslash.
        client.batch_execute("SET standard_conforming_strings = on")?;
        let (tx, rx) = std::sync::mpsc::channel::<(String, String)>();
        std::thread::Builder::new()
            .name("notate-mail".into())
            .spawn(move || {
                let mut sql = String::new();
                let mut number = 0u64;
                while let Ok(first) = rx.recv() {
                    sql.clear();
                    number += 1;
                    push_notify(&mut sql, &first.0, number, &first.1);
                    while sql.len() < 1 << 20 {
                        match rx.try_recv() {
                            Ok((channel, payload)) => {
                                number += 1;
                                push_notify(&mut sql, &channel, number, &payload);
                            }
                            Err(_) => break,
                        }
                    }
                    if let Err(e) = client.batch_execute(&sql) {
                        let _ =
                            fatal.send(anyhow::Error::new(e).context("sending the cluster's mail"));
                        return;
                    }
                }
            })?;
        Ok(Mailer(tx))
    }

    fn send(&self, channel: &str, mail: &impl Serialize) {
        let payload = serde_json::to_string(mail).expect("mail is JSON");
        let _ = self.0.send((channel.to_string(), payload));
    }
}

/// The SQL that notifies `channel` of `payload` numbered `number`: in the notification, or
/// through `serve_mail` when it is too long for one. The number makes every payload of a
/// transaction differ: PostgreSQL delivers a payload sent twice on a channel in one
/// transaction once (two equal chat lines would be one).
fn push_notify(sql: &mut String, channel: &str, number: u64, payload: &str) {
    let quoted = format!("{number} {}", payload.replace('\'', "''"));
    if quoted.len() <= PAYLOAD {
        sql.push_str(&format!("SELECT pg_notify('{channel}', '{quoted}');"));
    } else {
        sql.push_str(&format!(
            "WITH m AS (INSERT INTO serve_mail (body) VALUES ('{quoted}') RETURNING id) \
             SELECT pg_notify('{channel}', 'mail:' || id) FROM m;"
        ));
    }
}

/// The process's side of its WebSockets: their events to the hub (directly when this process
/// leads, else as mail), the hub's messages to them.
struct Router {
    number: u64,
    /// This process's connections: their queues.
    local: HashMap<u64, mpsc::Sender<String>>,
    /// The leader this process knows of.
    leader: Option<u64>,
    /// The hub, when this process leads.
    hub: Option<mpsc::UnboundedSender<Event>>,
    mailer: Mailer,
    url: String,
    /// The connection that reads finished games' PGN, once one was asked for.
    pgn_reader: Arc<Mutex<Option<Client>>>,
}

impl Router {
    async fn run(
        mut self,
        mut ws: mpsc::UnboundedReceiver<Event>,
        mut mail: mpsc::UnboundedReceiver<NodeEvent>,
    ) {
        loop {
            tokio::select! {
                event = ws.recv() => match event {
                    Some(event) => self.websocket(event),
                    None => return,
                },
                event = mail.recv() => match event {
                    Some(NodeEvent::Mail(mail)) => self.mail(mail),
                    Some(NodeEvent::Leading(hub)) => {
                        // The connections spoke to the old hub: they come back to this one.
                        self.local.clear();
                        self.leader = Some(self.number);
                        self.hub = Some(hub);
                    }
                    None => return,
                },
            }
        }
    }

    fn to_hub(&self, event: Event) {
        if let Some(hub) = &self.hub {
            let _ = hub.send(event);
            return;
        }
        let mail = match event {
            Event::Open { conn, token, .. } => ToHub::Open { conn, token },
            Event::Text { conn, text } => ToHub::Text { conn, text },
            Event::Close { conn } => ToHub::Close { conn },
            _ => return,
        };
        self.mailer.send(HUB, &mail);
    }

    fn websocket(&mut self, event: Event) {
        match event {
            Event::Open { conn, token, out } => {
                // The leader's own connections are the hub's alone: when it drops their queue
                // (a client that stopped reading), the WebSocket closes.
                if self.hub.is_none() {
                    self.local.insert(conn, out.clone());
                }
                self.to_hub(Event::Open { conn, token, out });
            }
            Event::Close { conn } => {
                self.local.remove(&conn);
                self.to_hub(Event::Close { conn });
            }
            // The leader's store is in another process: the database answers.
            Event::Pgn { game, reply } => {
                let url = self.url.clone();
                let reader = self.pgn_reader.clone();
                tokio::task::spawn_blocking(move || {
                    // One connection, taken in turn: requests wait rather than each open a
                    // connection of the database's few.
                    let mut client = reader.lock().unwrap_or_else(|e| e.into_inner());
                    let text = store::postgres::finished_pgn(&mut client, &url, &game);
                    let _ = reply.send(text.ok().flatten());
                });
            }
            event => self.to_hub(event),
        }
    }

    fn mail(&mut self, mail: ToNode) {
        match mail {
            ToNode::Text { conn, text } => {
                let Some(out) = self.local.get(&conn) else {
                    return;
                };
                // A client that stops reading is closed, as the hub closes its own.
                if out.try_send(text).is_err() {
                    self.local.remove(&conn);
                    self.to_hub(Event::Close { conn });
                }
            }
            // Dropping the queue closes the WebSocket.
            ToNode::Close { conn } => {
                self.local.remove(&conn);
            }
            ToNode::Leader { node } => {
                if self.leader != Some(node) {
                    self.leader = Some(node);
                    self.local.clear();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_is_quoted_and_long_mail_goes_through_the_table() {
        let mut sql = String::new();
        push_notify(
            &mut sql,
            "notate_hub",
            7,
            r#"{"text":{"conn":1,"text":"it's \ ok"}}"#,
        );
        assert_eq!(
            sql,
            r#"SELECT pg_notify('notate_hub', '7 {"text":{"conn":1,"text":"it''s \ ok"}}');"#
        );
        sql.clear();
        push_notify(&mut sql, "notate_node_2", 8, &"x".repeat(PAYLOAD));
        assert!(sql.starts_with("WITH m AS (INSERT INTO serve_mail (body) VALUES ('8 xxx"));
        assert!(sql.ends_with("SELECT pg_notify('notate_node_2', 'mail:' || id) FROM m;"));
    }

    #[test]
    fn mail_reads_back() {
        for mail in [
            ToHub::Open {
                conn: 3 << NODE_SHIFT | 7,
                token: Some("t".into()),
            },
            ToHub::Close { conn: 1 },
        ] {
            let text = serde_json::to_string(&mail).unwrap();
            assert_eq!(serde_json::from_str::<ToHub>(&text).unwrap(), mail);
        }
        let text = serde_json::to_string(&ToNode::Leader { node: 2 }).unwrap();
        assert_eq!(text, r#"{"leader":{"node":2}}"#);
    }
}
