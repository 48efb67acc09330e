//! `notate serve`: a jsonchess game server. HTTP and WebSocket on one port (tokio + axum), the
//! protocol's messages exactly as [`notate::protocol`] models them, clocks kept by the server,
//! and every game stored as it is played (SQLite), finished games also in `notate load`'s
//! tables.
//!
//! ```no_run
//! # async fn run() -> anyhow::Result<()> {
//! let config = notate_serve::Config {
//!     listen: "127.0.0.1:0".parse()?,
//!     db: "games.sqlite".into(),
//! };
//! let server = notate_serve::start(&config).await?;
//! println!("listening on http://{}", server.addr);
//! server.wait().await
//! # }
//! ```

mod game;
mod http;
mod hub;
mod store;

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Where the server listens and what it stores into.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address (`127.0.0.1:0`: a free port).
    pub listen: SocketAddr,
    /// The SQLite file (created on the first start).
    pub db: PathBuf,
}

/// A started server.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    http: JoinHandle<std::io::Result<()>>,
    hub: JoinHandle<()>,
}

impl Server {
    /// Serves until the listener fails.
    pub async fn wait(self) -> Result<()> {
        let result = self.http.await.context("the HTTP task")?;
        self.hub.abort();
        result.context("serving HTTP")
    }
}

/// Opens the store (its games in progress go on), binds the address and starts serving.
pub async fn start(config: &Config) -> Result<Server> {
    let store = store::Store::open(&config.db)?;
    let (events, inbox) = mpsc::unbounded_channel();
    let hub = hub::Hub::new(store, events.clone())?;
    let hub = tokio::spawn(hub.run(inbox));
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let addr = listener.local_addr()?;
    let app = http::router(events);
    let http = tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(Server { addr, http, hub })
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
