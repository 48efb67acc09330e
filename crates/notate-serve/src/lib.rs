//! `notate serve`: a jsonchess game server. HTTP and WebSocket on one port (tokio + axum), the
//! protocol's messages exactly as [`notate::protocol`] models them, clocks kept by the server,
//! and every game stored as it is played, finished games also in `notate load`'s tables: in a
//! SQLite file (one process), or in PostgreSQL, where several processes serve the same players,
//! seeks and games ([`cluster`]).
//!
//! ```no_run
//! # async fn run() -> anyhow::Result<()> {
//! use notate_serve::{Config, Database};
//!
//! let config = Config {
//!     listen: "127.0.0.1:0".parse()?,
//!     db: Database::parse("games.sqlite")?,
//! };
//! let server = notate_serve::start(&config).await?;
//! println!("listening on http://{}", server.addr);
//! server.wait().await
//! # }
//! ```

pub mod cluster;
mod game;
mod http;
mod hub;
mod store;

use std::net::SocketAddr;

use anyhow::{Context, Result};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

pub use store::Database;

/// Where the server listens and what it stores into.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address (`127.0.0.1:0`: a free port).
    pub listen: SocketAddr,
    /// The SQLite file (created on the first start) or the PostgreSQL database.
    pub db: Database,
}

/// A started server.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// This process's number in its cluster (PostgreSQL), 0 alone (SQLite).
    pub node: u64,
    http: JoinHandle<std::io::Result<()>>,
    /// Errors that stop the server from outside the HTTP task (a store that failed, a
    /// cluster's lost database).
    fatal: mpsc::UnboundedReceiver<anyhow::Error>,
}

impl Server {
    /// Serves until the listener fails, the store fails, or (in a cluster) the database is
    /// lost.
    pub async fn wait(mut self) -> Result<()> {
        tokio::select! {
            result = &mut self.http => result.context("the HTTP task")?.context("serving HTTP"),
            Some(error) = self.fatal.recv() => Err(error),
        }
    }
}

/// Opens the store (its games in progress go on) or joins the cluster on it, binds the
/// address and starts serving.
pub async fn start(config: &Config) -> Result<Server> {
    let runtime = tokio::runtime::Handle::current();
    let (events, node, fatal) = match config.db.clone() {
        Database::Sqlite(_) => {
            let db = config.db.clone();
            let (stopped, fatal) = mpsc::unbounded_channel();
            let events = tokio::task::spawn_blocking(move || {
                hub::spawn(move || store::open(&db), runtime, stopped)
            })
            .await??;
            (events, 0, fatal)
        }
        Database::Postgres(url) => {
            let node = tokio::task::spawn_blocking(move || cluster::join(&url, runtime)).await??;
            (node.events, node.number, node.fatal)
        }
    };
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let addr = listener.local_addr()?;
    let app = http::router(events, node << hub::NODE_SHIFT);
    let http = tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(Server {
        addr,
        node,
        http,
        fatal,
    })
}

/// Runs the server on a runtime of its own until it fails; `ready` is called with the
/// address once it listens.
pub fn run(config: &Config, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = start(config).await?;
        ready(server.addr);
        server.wait().await
    })
}
