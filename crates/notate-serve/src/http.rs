//! HTTP and WebSocket on one port (axum): `/ws` speaks jsonchess, `/games/ID.pgn` gives a
//! finished game, `/` is the live client's page. Each WebSocket is two tasks: a reader that
//! limits size and rate and hands text frames to the hub, and a writer that sends what the
//! hub queued for it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};

use crate::hub::{error_text, Event, QUEUE};

/// The largest message a client may send (bytes): the biggest protocol message, a
/// restoration request of a long game, is well under it.
pub const MAX_MESSAGE: usize = 64 << 10;
/// Messages a client may send per second, on average, and in a burst.
const RATE: f64 = 20.0;
const BURST: f64 = 60.0;
/// How long a closing connection's last messages may take to leave.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

#[derive(Clone)]
struct App {
    events: mpsc::UnboundedSender<Event>,
    next_conn: Arc<AtomicU64>,
}

/// The routes; connections are numbered from `first_conn` on (a cluster's process number in
/// the high bits, so numbers are unique across processes).
pub fn router(events: mpsc::UnboundedSender<Event>, first_conn: u64) -> Router {
    let app = App {
        events,
        next_conn: Arc::new(AtomicU64::new(first_conn + 1)),
    };
    Router::new()
        .route("/", get(index))
        .route("/ws", get(websocket))
        .route("/games/{file}", get(pgn))
        .with_state(app)
}

/// The live client (`js/src/live.js` around the viewer), whole in one page, made once.
async fn index() -> Html<&'static str> {
    static PAGE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    Html(PAGE.get_or_init(notate_page::live_page))
}

/// A browser says where its page came from: it must be this server (any other site could
/// otherwise play in its visitors' names). Clients that are not browsers send no Origin.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    origin_host.is_some() && origin_host == host
}

async fn websocket(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    let token = query.get("token").cloned();
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| connection(socket, app, token))
}

async fn connection(socket: WebSocket, app: App, token: Option<String>) {
    let conn = app.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out, mut queue) = mpsc::channel::<String>(QUEUE);
    let (mut sink, mut stream) = socket.split();
    // Refusals of frames go straight to the connection's queue, never through the hub: a
    // flood of frames must not fill the hub's channel (nor keep it busy).
    let refusals = out.clone();
    if app.events.send(Event::Open { conn, token, out }).is_err() {
        return;
    }
    let writer = tokio::spawn(async move {
        while let Some(text) = queue.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
        let _ = sink.close().await;
    });
    // Whether the refusal was queued: a client that sends on without reading fills its
    // queue, and is closed as the hub closes one that does not read its messages.
    let refuse = |reason: &str| refusals.try_send(error_text("", "message", reason)).is_ok();
    let mut allowance = BURST;
    let mut last = Instant::now();
    while let Some(message) = stream.next().await {
        let message = match message {
            Ok(message) => message,
            Err(e) => {
                // The client hears why before the connection ends: mostly a message over
                // MAX_MESSAGE. (No close frame: the socket cannot be read to its end after
                // such an error, and closing it with bytes unread resets it.)
                refuse(&format!("{e}: the connection is closed"));
                break;
            }
        };
        let text = match message {
            Message::Text(text) => Some(text),
            Message::Binary(_) => None,
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        // Every data frame counts against the rate, binary ones too.
        let now = Instant::now();
        allowance = (allowance + now.duration_since(last).as_secs_f64() * RATE).min(BURST);
        last = now;
        let queued = if allowance < 1.0 {
            refuse(&format!(
                "more than {RATE} messages a second: this one was dropped"
            ))
        } else {
            allowance -= 1.0;
            match text {
                Some(text) => app
                    .events
                    .send(Event::Text {
                        conn,
                        text: text.to_string(),
                    })
                    .is_ok(),
                None => refuse("jsonchess messages are text frames"),
            }
        };
        if !queued {
            break;
        }
    }
    let _ = app.events.send(Event::Close { conn });
    drop(refusals);
    // The hub drops the connection's queue at `Close`: the writer sends what it still holds
    // and the close frame, unless the client does not read them.
    let mut writer = writer;
    if tokio::time::timeout(CLOSE_WAIT, &mut writer).await.is_err() {
        writer.abort();
    }
}

async fn pgn(State(app): State<App>, Path(file): Path<String>) -> Response {
    let Some(id) = file.strip_suffix(".pgn") else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (reply, answer) = oneshot::channel();
    let asked = app.events.send(Event::Pgn {
        game: id.to_string(),
        reply,
    });
    match (asked, answer.await) {
        (Ok(()), Ok(Some(text))) => (
            [(
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8",
            )],
            text,
        )
            .into_response(),
        _ => (StatusCode::NOT_FOUND, "no finished game of that id").into_response(),
    }
}
