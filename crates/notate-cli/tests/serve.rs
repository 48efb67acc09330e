//! `notate serve` as a process: it says where it listens, stores every move before sending it,
//! and after `kill -9` and a restart on the same database its games go on — the players come
//! back with their session tokens and find every acknowledged move. Several processes on one
//! PostgreSQL serve the same players, seeks and games, and go on when the one that leads is
//! killed.

#[path = "../../notate-serve/tests/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};
use support::{http_get, Client};

/// A server process, killed (SIGKILL) when dropped, so a failing test leaves none behind.
struct Server(Child);

impl Server {
    fn kill(&mut self) {
        self.0.kill().unwrap();
        self.0.wait().unwrap();
    }

    /// How the process ended, by itself, within 10 s.
    fn ended(&mut self) -> std::process::ExitStatus {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return status;
            }
            assert!(std::time::Instant::now() < deadline, "still running");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `notate serve` on a free port over `db` (a file or a PostgreSQL URL): the process and its
/// address.
fn serve(db: impl AsRef<std::ffi::OsStr>) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db.as_ref())
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
    // What a failed run of the same process id left would be games of this one.
    let _ = std::fs::remove_dir_all(&dir);
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

fn query(db: &str, sql: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["query", "--db", db, "--format", "csv", sql])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn processes_on_one_postgres_share_players_seeks_and_games_and_outlive_their_leader() {
    let postgres = notate_testdata::postgres::Server::start();
    let db = postgres.url.as_str();
    // A leads (it started first); B passes its connections' messages through PostgreSQL.
    let (mut a, addr_a) = serve(db);
    let (mut b, addr_b) = serve(db);

    // A seek made on B is in the seeks feed of a client of A, and a player on A takes it.
    let mut lobby_a = Client::connect(&addr_a, None);
    lobby_a.send(json!({"topic": "/feed/activate", "data": "/list/seeks"}));
    assert_eq!(lobby_a.expect("/list/seeks"), json!([]));
    let mut on_b = Client::connect(&addr_b, None);
    let mut on_a = Client::connect(&addr_a, None);
    let options = json!({"initialTime": 300000, "timeIncrement": 0,
        "acceptRatingMin": "-1000", "acceptRatingMax": "+1000"});
    on_b.send(json!({"topic": "/seek", "data": options}));
    on_b.expect("/seek/waiting");
    let seek = lobby_a.expect("/list/seeks/add");
    assert_eq!(seek["owner"]["id"], on_b.player);
    on_a.send(json!({"topic": "/seek/accept", "data": seek["id"]}));
    let game = on_a.expect("/seek/matched");
    assert_eq!(on_b.expect("/seek/matched"), game);
    let id = game["id"].as_str().unwrap().to_string();
    let topic = format!("/game/{id}/move");
    let (mut white, mut black) = if game["white"]["id"] == on_a.player {
        (on_a, on_b)
    } else {
        (on_b, on_a)
    };

    // A spectator on each process; every move reaches both players and both spectators, in
    // order: 1. e4 e5 2. Bc4 Nc6.
    let mut watch_a = Client::connect(&addr_a, None);
    let mut watch_b = Client::connect(&addr_b, None);
    for watcher in [&mut watch_a, &mut watch_b] {
        watcher.send(json!({"topic": "/request/game", "data": id}));
        assert_eq!(watcher.expect("/game")["id"], id);
    }
    let mut acknowledged = Vec::new();
    for (i, (from, to)) in [(12, 28), (52, 36), (5, 26), (57, 42)]
        .into_iter()
        .enumerate()
    {
        let mover = if i % 2 == 0 { &mut white } else { &mut black };
        mover.send(json!({"topic": topic, "data": {"from": from, "to": to}}));
        let packed = white.expect(&topic);
        for other in [&mut black, &mut watch_a, &mut watch_b] {
            assert_eq!(other.expect(&topic), packed);
        }
        acknowledged.push(packed);
    }
    // A move out of turn is refused, whichever process its player is on.
    black.send(json!({"topic": topic, "data": {"from": 51, "to": 35}}));
    assert_eq!(black.expect("/error")["reason"], "it is not your turn");
    // Twenty equal chat lines are twenty lines (PostgreSQL keeps one of equal payloads sent
    // in one transaction: mail is numbered).
    let long = "x".repeat(480);
    for _ in 0..20 {
        white.send(json!({"topic": format!("/game/{id}/chat"), "data": long}));
    }
    for _ in 0..20 {
        assert_eq!(
            black.expect(&format!("/game/{id}/chat"))["body"],
            long.as_str()
        );
    }

    // As do messages longer than a notification's payload, both ways: a time request's id
    // comes back in the answer's topic.
    let long_id = "t".repeat(9000);
    black.send(json!({"topic": "/request/time", "data": long_id}));
    let answer = black.expect(&format!("/time/{long_id}"));
    assert!(answer.as_u64().unwrap() > 0);

    // kill -9 of the leader: B takes the lead, loads the game from PostgreSQL and closes its
    // connections, whose clients come back to it with their tokens.
    a.kill();
    for client in [&mut black, &mut watch_b, &mut white, &mut watch_a] {
        client.closed();
    }
    let mut white = Client::reconnect(&addr_b, Some(&white.token.clone()));
    let black = Client::reconnect(&addr_b, Some(&black.token.clone()));
    let mut watch = Client::reconnect(&addr_b, None);
    white.send(json!({"topic": "/request/games"}));
    let games = white.expect("/games");
    assert_eq!(games[0]["id"], id);
    assert_eq!(games[0]["history"], Value::Array(acknowledged.clone()));
    watch.send(json!({"topic": "/request/game", "data": id}));
    assert_eq!(watch.expect("/game")["history"], Value::Array(acknowledged));

    // A third process joins: its client sees the game being played, and plays on it.
    let (mut c, addr_c) = serve(db);
    let mut watch_c = Client::connect(&addr_c, None);
    watch_c.send(json!({"topic": "/request/game", "data": id}));
    assert_eq!(watch_c.expect("/game")["id"], id);
    let token = black.token.clone();
    drop(black);
    let mut black = Client::connect(&addr_c, Some(&token));
    // 3. Qh5 Nf6 4. Qxf7#.
    for (i, (from, to)) in [(3, 39), (62, 45), (39, 53)].into_iter().enumerate() {
        let mover = if i % 2 == 0 { &mut white } else { &mut black };
        mover.send(json!({"topic": topic, "data": {"from": from, "to": to}}));
        let packed = white.expect(&topic);
        assert_eq!(black.expect(&topic), packed);
        assert_eq!(watch.expect(&topic), packed);
        assert_eq!(watch_c.expect(&topic), packed);
    }
    let over = watch_c.expect(&format!("/game/{id}/game_over"));
    assert_eq!(over["type"], "checkmate");
    assert_eq!(over["winner"], "w");
    let pgn = http_get(&addr_c, &format!("/games/{id}.pgn"));
    assert!(pgn.contains("4. Qxf7#"), "{pgn}");
    assert_eq!(
        query(db, "SELECT result, ply_count, termination FROM games"),
        "result,ply_count,termination\n1-0,7,white won by checkmate\n"
    );

    // A process that dies takes its players offline: the leader sees its lock go.
    watch.send(json!({"topic": "/feed/activate", "data": "/users_online"}));
    let online = watch.expect("/list/users_online");
    assert!(online
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["id"] == black.player));
    c.kill();
    // Its two players (black and the spectator there) leave, in either order.
    let gone = [
        watch.expect("/list/users_online/remove"),
        watch.expect("/list/users_online/remove"),
    ];
    assert!(gone.contains(&json!(black.player)), "{gone:?}");

    // A leader that cannot store stops, rather than send what it did not keep: its store's
    // connection is cut, the next move is never sent, the process ends with status 1, and D
    // leads with every move that was stored.
    let (_d, addr_d) = serve(db);
    let options = json!({"initialTime": 300000, "timeIncrement": 0,
        "acceptRatingMin": "-1000", "acceptRatingMax": "+1000"});
    let (mut white, mut black, game) = support::matched_with(&addr_d, options);
    let id = game["id"].as_str().unwrap().to_string();
    let topic = format!("/game/{id}/move");
    white.send(json!({"topic": topic, "data": {"from": 12, "to": 28}}));
    let e4 = black.expect(&topic);
    query(
        db,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = 'notate serve hub'",
    );
    black.send(json!({"topic": topic, "data": {"from": 52, "to": 36}}));
    assert!(!b.ended().success());
    white.closed();
    black.closed();
    // D closes them when the dead hub's queues end, and again when it leads: they come back.
    let mut white = Client::reconnect(&addr_d, Some(&white.token.clone()));
    let mut black = Client::reconnect(&addr_d, Some(&black.token.clone()));
    white.send(json!({"topic": "/request/games"}));
    assert_eq!(white.expect("/games")[0]["history"], json!([e4]));
    black.send(json!({"topic": topic, "data": {"from": 52, "to": 36}}));
    assert!(white
        .expect(&topic)
        .as_str()
        .unwrap()
        .starts_with("1,1,e5,"));
}

#[test]
fn parquet_cannot_hold_games_being_played() {
    let out = Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db", "parquet:games"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not Parquet (--db games.sqlite or --db postgres://…)"),
        "{err}"
    );
}
