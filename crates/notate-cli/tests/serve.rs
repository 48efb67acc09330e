//! `notate serve` as a process: it says where it listens, stores every move before sending it,
//! and after `kill -9` and a restart on the same database its games go on — the players come
//! back with their session tokens and find every acknowledged move.

#[path = "../../notate-serve/tests/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};
use support::Client;

/// A server process, killed (SIGKILL) when dropped, so a failing test leaves none behind.
struct Server(Child);

impl Server {
    fn kill(&mut self) {
        self.0.kill().unwrap();
        self.0.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `notate serve` on a free port over `db`: the process and its address.
fn serve(db: &Path) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--db",
            db.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("{line:?}"))
        .to_string();
    (Server(child), addr)
}

#[test]
fn games_survive_kill_9_and_go_on_after_a_restart() {
    let dir = std::env::temp_dir().join(format!("notate-serve-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.sqlite");
    let (mut server, addr) = serve(&db);
    let options = json!({"initialTime": 300000, "timeIncrement": 0,
        "acceptRatingMin": "-1000", "acceptRatingMax": "+1000"});
    let (mut white, mut black, game) = support::matched_with(&addr, options);
    let id = game["id"].as_str().unwrap().to_string();
    let topic = format!("/game/{id}/move");
    let mut acknowledged = Vec::new();
    for (from, to) in [(12, 28), (52, 36), (6, 21)] {
        let mover = if acknowledged.len() % 2 == 0 {
            &mut white
        } else {
            &mut black
        };
        mover.send(json!({"topic": topic, "data": {"from": from, "to": to}}));
        let packed = white.expect(&topic);
        assert_eq!(black.expect(&topic), packed);
        acknowledged.push(packed);
    }

    // kill -9: no chance to write anything more.
    server.kill();
    let (mut server, addr) = serve(&db);
    let mut white = Client::connect(&addr, Some(&white.token.clone()));
    let mut black = Client::connect(&addr, Some(&black.token.clone()));
    black.send(json!({"topic": "/request/games"}));
    let games = black.expect("/games");
    assert_eq!(games.as_array().unwrap().len(), 1);
    assert_eq!(games[0]["id"], id);
    assert_eq!(games[0]["history"], Value::Array(acknowledged.clone()));
    black.send(json!({"topic": format!("/game/{id}/request/moves"), "data": 0}));
    for packed in &acknowledged {
        assert_eq!(&black.expect(&topic), packed);
    }
    // The game goes on: 2… Nc6, then white resigns.
    black.send(json!({"topic": topic, "data": {"from": 57, "to": 42}}));
    assert!(white
        .expect(&topic)
        .as_str()
        .unwrap()
        .starts_with("2,3,Nc6,"));
    white.send(json!({"topic": format!("/game/{id}/resign")}));
    assert_eq!(
        black.expect(&format!("/game/{id}/game_over"))["description"],
        "white resigned"
    );
    server.kill();
    // The game is in notate load's tables, for notate query.
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args([
            "query",
            "--db",
            db.to_str().unwrap(),
            "--format",
            "csv",
            "SELECT result, ply_count, termination FROM games",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "result,ply_count,termination\n0-1,4,white resigned\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
