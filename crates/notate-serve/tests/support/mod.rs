//! A jsonchess client over a blocking WebSocket, for the server's tests (this crate's and
//! the command line's, which includes this file). Each of the two uses part of it.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::{stream::MaybeTlsStream, Message, WebSocket};

/// A connected client: its player and session token, from the server's `/session`.
pub struct Client {
    pub ws: WebSocket<MaybeTlsStream<TcpStream>>,
    pub player: String,
    pub token: String,
}

impl Client {
    /// Connects to `addr` (`127.0.0.1:PORT`), with a session token to resume.
    pub fn connect(addr: impl std::fmt::Display, token: Option<&str>) -> Client {
        let url = match token {
            Some(t) => format!("ws://{addr}/ws?token={t}"),
            None => format!("ws://{addr}/ws"),
        };
        let (ws, _) = tungstenite::connect(url).unwrap();
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        }
        let mut client = Client {
            ws,
            player: String::new(),
            token: String::new(),
        };
        let session = client.expect("/session");
        client.player = session["playerId"].as_str().unwrap().to_string();
        client.token = session["token"].as_str().unwrap().to_string();
        let user = client.expect("/user");
        assert_eq!(user["playerId"], client.player);
        client
    }

    /// Connects as [`Client::connect`] does, trying again (for 10 s) when the server closes the
    /// connection before it answers, as a client does while a cluster changes its leader.
    pub fn reconnect(addr: impl std::fmt::Display, token: Option<&str>) -> Client {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                Client::connect(&addr, token)
            }));
            match attempt {
                Ok(client) => return client,
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100))
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    }

    pub fn send(&mut self, message: Value) {
        self.ws.send(Message::text(message.to_string())).unwrap();
    }

    /// The next message; panics after 10 s.
    pub fn next(&mut self) -> Value {
        loop {
            match self.ws.read().unwrap_or_else(|e| panic!("{e}")) {
                Message::Text(text) => return serde_json::from_str(&text).unwrap(),
                Message::Close(_) => panic!("closed"),
                _ => {}
            }
        }
    }

    /// Reads until the server closes the connection (panics after 10 s).
    pub fn closed(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            assert!(Instant::now() < deadline, "not closed");
            match self.ws.read() {
                Ok(Message::Close(_)) | Err(_) => return,
                Ok(_) => {}
            }
        }
    }

    /// The data of the next message on `topic`, skipping others.
    pub fn expect(&mut self, topic: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            assert!(Instant::now() < deadline, "no {topic}");
            let message = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.next()))
                .unwrap_or_else(|_| panic!("waiting for {topic}"));
            if message["topic"] == topic {
                return message.get("data").cloned().unwrap_or(Value::Null);
            }
        }
    }
}

/// Two new clients at `addr` matched by the same seek (`options`, the seek's data): white,
/// black and the game JSON.
pub fn matched_with(addr: impl std::fmt::Display, options: Value) -> (Client, Client, Value) {
    let mut a = Client::connect(&addr, None);
    let mut b = Client::connect(&addr, None);
    let seek = serde_json::json!({"topic": "/seek", "data": options});
    a.send(seek.clone());
    let waiting = a.expect("/seek/waiting");
    assert_eq!(waiting["owner"]["id"], a.player);
    b.send(seek);
    let game = b.expect("/seek/matched");
    assert_eq!(a.expect("/seek/matched"), game);
    if game["white"]["id"] == a.player {
        (a, b, game)
    } else {
        (b, a, game)
    }
}

/// The answer (status line, headers and body) to `GET path` at `addr`.
pub fn http_get(addr: impl std::fmt::Display, path: &str) -> String {
    let mut stream = TcpStream::connect(addr.to_string()).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    text
}
