//! A real server on loopback and clients speaking jsonchess over WebSocket: seeks, a whole game
//! to mate, refused moves, malformed messages, spectators, premoves, draws, resignation, a
//! reconnect that catches up, the PGN of a finished game and its rows in `notate load`'s tables.

mod support;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};
use support::{http_get, matched_with, Client};
use tungstenite::Message;

/// A server on a free port, over a fresh database, on a thread of its own; the database's
/// directory goes when the guard (the third) is dropped, at the end of the test (the server
/// thread, never stopped, then works on files already unlinked until the process ends).
fn server() -> (SocketAddr, PathBuf, notate_testdata::TempDir) {
    let dir = notate_testdata::scratch_dir("notate-serve-test");
    let db = dir.path().join("games.sqlite");
    let config = notate_serve::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        db: notate_serve::Database::Sqlite(db.clone()),
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        notate_serve::run(&config, |addr| tx.send(addr).unwrap()).unwrap();
    });
    (rx.recv_timeout(Duration::from_secs(20)).unwrap(), db, dir)
}

const SEEK: &str = r#"{"initialTime": 60000, "timeIncrement": 1000, "acceptRatingMin": "-500", "acceptRatingMax": "+500"}"#;

fn seek(client: &mut Client) {
    let options: Value = serde_json::from_str(SEEK).unwrap();
    client.send(json!({"topic": "/seek", "data": options}));
}

/// Two players matched by their seeks: (white, black, game id).
fn matched(addr: SocketAddr) -> (Client, Client, String) {
    let (white, black, game) = matched_with(addr, serde_json::from_str(SEEK).unwrap());
    assert_eq!(game["history"], json!([]));
    assert_eq!(
        game["options"],
        json!({"initialTime": 60000, "timeIncrement": 1000})
    );
    (white, black, game["id"].as_str().unwrap().to_string())
}

fn mv(client: &mut Client, game: &str, from: u8, to: u8) {
    client.send(json!({"topic": format!("/game/{game}/move"), "data": {"from": from, "to": to}}));
}

#[test]
fn a_game_to_mate_with_refusals_spectators_and_a_reconnect() {
    let (addr, db, _dir) = server();
    let (mut white, mut black, game) = matched(addr);
    let topic = format!("/game/{game}/move");
    let mut spectator = Client::connect(addr, None);
    spectator.send(json!({"topic": "/request/game", "data": game}));
    assert_eq!(spectator.expect("/game")["id"], game);

    // 1. f3: the mover, the opponent and the spectator get the packed move with the server's time.
    mv(&mut white, &game, 13, 21);
    let first = white.expect(&topic);
    let packed = first.as_str().unwrap();
    assert!(packed.starts_with("1,0,f3,"), "{packed}");
    assert!(packed.ends_with(",f2,f3,N,N"), "{packed}");
    assert_eq!(black.expect(&topic), first);
    assert_eq!(spectator.expect(&topic), first);

    // Refused: a move out of turn, a spectator's move, an illegal move, bad messages.
    mv(&mut white, &game, 14, 30);
    let error = white.expect("/error");
    assert_eq!(
        error,
        json!({"topic": topic, "field": "topic", "reason": "it is not your turn"})
    );
    mv(&mut spectator, &game, 52, 36);
    assert_eq!(
        spectator.expect("/error")["reason"],
        "you do not play in this game"
    );
    mv(&mut black, &game, 52, 28);
    assert_eq!(
        black.expect("/error")["reason"],
        "e7e4 is not a legal move here"
    );
    black.send(json!({"topic": topic, "data": {"from": 64, "to": 36}}));
    let error = black.expect("/error");
    assert_eq!(error["topic"], topic);
    assert_eq!(error["field"], "data.from");
    black.send(json!({"topic": "/no/such/topic"}));
    assert_eq!(black.expect("/error")["topic"], "/no/such/topic");
    black.ws.send(Message::text("not json")).unwrap();
    assert_eq!(black.expect("/error")["topic"], "");

    // Black drops and comes back with its token: same player, the moves it missed on asking.
    let token = black.token.clone();
    let player = black.player.clone();
    drop(black);
    mv(&mut white, &game, 0, 0); // refused (not white's turn): the server is still there
    assert_eq!(white.expect("/error")["reason"], "it is not your turn");
    let mut black = Client::connect(addr, Some(&token));
    assert_eq!(black.player, player);
    black.send(json!({"topic": format!("/game/{game}/request/moves"), "data": 0}));
    assert_eq!(black.expect(&topic), first);

    // 1... e5 2. g4 Qh4#.
    mv(&mut black, &game, 52, 36);
    white.expect(&topic);
    mv(&mut white, &game, 14, 30);
    white.expect(&topic);
    mv(&mut black, &game, 59, 31);
    let mate = white.expect(&topic);
    assert!(mate.as_str().unwrap().starts_with("2,3,Qh4#,"), "{mate}");
    let over = white.expect(&format!("/game/{game}/game_over"));
    assert_eq!(over["winner"], "b");
    assert_eq!(over["type"], "checkmate");
    assert_eq!(over["description"], "black won by checkmate");
    assert_eq!(over["summary"], "0-1");
    assert_eq!(spectator.expect(&format!("/game/{game}/game_over")), over);

    // The finished game as PGN, and in notate load's tables.
    let response = http_get(addr, &format!("/games/{game}.pgn"));
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("[Result \"0-1\"]"), "{response}");
    assert!(
        response.contains("1. f3 {[%clk 0:01:00]} e5 {[%clk 0:01:00]} 2. g4 "),
        "{response}"
    );
    assert!(response.contains("Qh4# {[%clk 0:01:0"), "{response}");
    let db = rusqlite::Connection::open(db).unwrap();
    let (games, plies): (i64, i64) = db
        .query_row("SELECT count(*), max(ply_count) FROM games", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!((games, plies), (1, 4));
    assert!(http_get(addr, "/games/nothing.pgn").starts_with("HTTP/1.1 404"));
}

#[test]
fn premoves_draws_claims_and_resignation() {
    let (addr, _, _dir) = server();
    let (mut white, mut black, game) = matched(addr);
    let topic = format!("/game/{game}/move");
    // Black premoves e5 while white thinks; it is played the moment white moves.
    black.send(json!({"topic": format!("/game/{game}/premove"), "data": {"from": 52, "to": 36}}));
    assert_eq!(
        black.expect(&format!("/game/{game}/premove")),
        json!({"from": 52, "to": 36})
    );
    mv(&mut white, &game, 12, 28);
    assert!(white
        .expect(&topic)
        .as_str()
        .unwrap()
        .starts_with("1,0,e4,"));
    assert!(white
        .expect(&topic)
        .as_str()
        .unwrap()
        .starts_with("1,1,e5,"));
    // A draw is offered after one's own move, and accepted by the other side only.
    black.send(json!({"topic": format!("/game/{game}/offer_draw")}));
    assert_eq!(black.expect(&format!("/game/{game}/draw_offer")), "b");
    black.send(json!({"topic": format!("/game/{game}/accept_draw")}));
    assert_eq!(
        black.expect("/error")["reason"],
        "no draw is offered to you"
    );
    // Moving declines it; a claim with nothing to claim is refused.
    white.send(json!({"topic": format!("/game/{game}/claim_draw")}));
    assert!(white.expect("/error")["reason"]
        .as_str()
        .unwrap()
        .starts_with("no draw can be claimed"));
    // Knights out and back twice: the start position's third time after 2… Ng8? No: the
    // position after 1… e5 comes back after 3… Ng8 and 5… Ng8.
    for (from, to) in [
        (6, 21),
        (62, 45),
        (21, 6),
        (45, 62),
        (6, 21),
        (62, 45),
        (21, 6),
        (45, 62),
    ] {
        let (mover, other) = if from < 32 {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        mv(mover, &game, from, to);
        mover.expect(&topic);
        other.expect(&topic);
    }
    white.send(json!({"topic": format!("/game/{game}/claim_draw")}));
    let over = black.expect(&format!("/game/{game}/game_over"));
    assert_eq!(over["type"], "threefold");
    assert_eq!(over["isDraw"], true);
    assert_eq!(over["summary"], "½-½");

    // A rematch: colours swapped; then a resignation.
    white.send(json!({"topic": format!("/game/{game}/rematch")}));
    assert_eq!(black.expect(&format!("/game/{game}/rematch/offered")), "w");
    black.send(json!({"topic": format!("/game/{game}/rematch")}));
    let rematch = white.expect(&format!("/game/{game}/rematch"));
    assert_eq!(rematch["white"]["id"], black.player);
    let second = rematch["id"].as_str().unwrap().to_string();
    // One game, one rematch.
    white.send(json!({"topic": format!("/game/{game}/rematch")}));
    assert_eq!(
        white.expect("/error")["reason"],
        format!("the rematch is game {second}")
    );
    white.send(json!({"topic": format!("/game/{second}/resign")}));
    let over = black.expect(&format!("/game/{second}/game_over"));
    assert_eq!(over["winner"], "w");
    assert_eq!(over["description"], "black resigned");
}

#[test]
fn accounts_register_log_in_and_out_with_hashed_passwords() {
    let (addr, db, _dir) = server();
    let mut guest = Client::connect(addr, None);
    let creds = json!({"username": "morphy", "password": "opera-1858"});
    guest.send(
        json!({"topic": "/user/register", "data": {"username": "x", "password": "opera-1858"}}),
    );
    assert_eq!(
        guest.expect("/user/register/failure"),
        "a name is 3 to 24 letters, digits, - or _"
    );
    guest.send(json!({"topic": "/user/register", "data": creds}));
    let user = guest.expect("/user/register/success");
    assert_eq!(user["username"], "morphy");
    assert_eq!(user["isLoggedIn"], true);
    assert_eq!(user["playerId"], guest.player);
    // The name is taken for anyone else; a wrong password and an unknown name get one answer.
    let mut other = Client::connect(addr, None);
    other.send(json!({"topic": "/user/register", "data": {"username": "Morphy", "password": "something-else"}}));
    assert_eq!(other.expect("/user/register/failure"), "that name is taken");
    // The guests' name is nobody's.
    other.send(json!({"topic": "/user/register", "data": {"username": "anonymous", "password": "something-else"}}));
    assert_eq!(other.expect("/user/register/failure"), "that name is taken");
    other.send(json!({"topic": "/user/login", "data": {"username": "morphy", "password": "wrong-password"}}));
    assert_eq!(
        other.expect("/user/login/failure"),
        "wrong name or password"
    );
    other.send(json!({"topic": "/user/login", "data": {"username": "nobody", "password": "wrong-password"}}));
    assert_eq!(
        other.expect("/user/login/failure"),
        "wrong name or password"
    );
    // One password check at a time per connection (argon2 takes 19 MiB each): a second
    // login sent before the first is answered is refused at once, the first still answered.
    let wrong =
        json!({"topic": "/user/login", "data": {"username": "morphy", "password": "wrong-again"}});
    other.send(wrong.clone());
    other.send(wrong);
    assert_eq!(
        other.expect("/user/login/failure"),
        "your last login or registration is still being checked"
    );
    assert_eq!(
        other.expect("/user/login/failure"),
        "wrong name or password"
    );
    // Logging in makes the connection the account's player, with the account's session.
    other.send(json!({"topic": "/user/login", "data": creds}));
    let session = other.expect("/session");
    assert_eq!(session["playerId"], guest.player);
    assert_eq!(session["token"], guest.token.as_str());
    assert_eq!(other.expect("/user/login/success")["username"], "morphy");
    // Logging out gives a new guest.
    other.send(json!({"topic": "/user/logout"}));
    let session = other.expect("/session");
    assert_ne!(session["playerId"], guest.player);
    assert_eq!(other.expect("/user/logout"), session["playerId"]);
    // Stored as an argon2 hash, never as the password.
    let db = rusqlite::Connection::open(db).unwrap();
    let hash: String = db
        .query_row(
            "SELECT password FROM serve_players WHERE username = 'morphy'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(!hash.contains("opera-1858"));
}

#[test]
fn a_player_in_a_game_cannot_log_in_as_another_and_the_hub_notes_that_it_runs() {
    let (addr, db, _dir) = server();
    let mut account = Client::connect(addr, None);
    let creds = json!({"username": "anderssen", "password": "immortal-1851"});
    account.send(json!({"topic": "/user/register", "data": creds}));
    account.expect("/user/register/success");
    let (mut white, _black, game) = matched(addr);
    white.send(json!({"topic": "/user/login", "data": creds}));
    assert_eq!(
        white.expect("/user/login/failure"),
        "finish or resign your games in progress before you log in"
    );
    // Still the game's white.
    mv(&mut white, &game, 12, 28);
    assert!(white
        .expect(&format!("/game/{game}/move"))
        .as_str()
        .unwrap()
        .starts_with("1,0,e4,"));
    // A restart credits the side to move the time since the hub's last note, not since the
    // last move: the note is there, and recent.
    std::thread::sleep(Duration::from_millis(1_200));
    let at: i64 = rusqlite::Connection::open(db)
        .unwrap()
        .query_row("SELECT at FROM serve_alive WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!((0..=1_500).contains(&(now - at)), "{now} {at}");
}

#[test]
fn ratings_change_when_a_period_of_ten_games_closes() {
    let (addr, _, _dir) = server();
    let mut winner = Client::connect(addr, None);
    let mut loser = Client::connect(addr, None);
    let rating = |client: &mut Client| {
        client.send(json!({"topic": "/request/user"}));
        client.expect("/user")["rating"].as_f64().unwrap()
    };
    for game in 1..=10 {
        seek(&mut winner);
        winner.expect("/seek/waiting");
        seek(&mut loser);
        let id = loser.expect("/seek/matched")["id"]
            .as_str()
            .unwrap()
            .to_string();
        winner.expect("/seek/matched");
        loser.send(json!({"topic": format!("/game/{id}/resign")}));
        winner.expect(&format!("/game/{id}/game_over"));
        loser.expect(&format!("/game/{id}/game_over"));
        if game == 9 {
            assert_eq!((rating(&mut winner), rating(&mut loser)), (1500.0, 1500.0));
        }
    }
    let (w, l) = (rating(&mut winner), rating(&mut loser));
    assert!(w > 1700.0 && l < 1300.0, "{w} {l}");
    assert!((w - 1500.0 + l - 1500.0).abs() < 1e-6, "{w} {l}");
}

#[test]
fn feeds_of_seeks_users_online_and_a_random_game() {
    let (addr, _, _dir) = server();
    let mut watcher = Client::connect(addr, None);
    watcher.send(json!({"topic": "/feed/activate", "data": "/list/seeks"}));
    assert_eq!(watcher.expect("/list/seeks"), json!([]));
    watcher.send(json!({"topic": "/feed/activate", "data": "/users_online"}));
    assert_eq!(
        watcher
            .expect("/list/users_online")
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let (mut white, _black, game) = {
        let mut a = Client::connect(addr, None);
        assert_eq!(watcher.expect("/list/users_online/add")["id"], a.player);
        seek(&mut a);
        let added = watcher.expect("/list/seeks/add");
        assert_eq!(added["owner"]["id"], a.player);
        let mut b = Client::connect(addr, None);
        seek(&mut b);
        assert_eq!(watcher.expect("/list/seeks/remove"), added["id"]);
        let game = b.expect("/seek/matched");
        a.expect("/seek/matched");
        let id = game["id"].as_str().unwrap().to_string();
        if game["white"]["id"] == a.player {
            (a, b, id)
        } else {
            (b, a, id)
        }
    };
    watcher.send(json!({"topic": "/feed/activate", "data": "/random_games"}));
    let shown = watcher.expect("/random_game");
    assert_eq!(shown["id"], game);
    assert_eq!(
        shown["board"],
        "RNBQKBNRPPPPPPPP                                pppppppprnbqkbnr"
    );
    assert_eq!(shown["lastMove"], Value::Null);
    mv(&mut white, &game, 12, 28);
    let shown = watcher.expect("/random_game");
    assert_eq!(shown["lastMove"], json!({"from": 12, "to": 28}));
    assert_eq!(&shown["board"].as_str().unwrap()[24..32], "    P   ");
    white.send(json!({"topic": format!("/game/{game}/resign")}));
    assert_eq!(watcher.expect("/random_game/game_over"), game.as_str());
    let player = white.player.clone();
    drop(white);
    // The player is still online through nothing: removed.
    assert_eq!(watcher.expect("/list/users_online/remove"), player.as_str());
    // With no game left to show, the next game to start is shown at once.
    let (_white, _black, next) = matched(addr);
    assert_eq!(watcher.expect("/random_game")["id"], next.as_str());
}

/// Square number (0 = a1 … 63 = h8) of `e4`.
fn square(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

#[test]
fn en_passant_promotion_and_castling_both_ways_through_the_protocol() {
    let (addr, _, _dir) = server();
    let (mut white, mut black, game) = matched(addr);
    let topic = format!("/game/{game}/move");
    let moves = [
        "e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "b8c6", "f6g7", "c8f5", "g7h8n", "d8d7", "g1f3",
        "e8c8", "f1e2", "e7e5", "e1g1",
    ];
    let mut packed = Vec::new();
    for (i, uci) in moves.iter().enumerate() {
        let mut data = json!({"from": square(&uci[0..2]), "to": square(&uci[2..4])});
        if uci.len() == 5 {
            data["promoteTo"] = json!(uci[4..].to_uppercase());
        }
        let mover = if i % 2 == 0 { &mut white } else { &mut black };
        mover.send(json!({"topic": topic, "data": data}));
        let sent = white.expect(&topic);
        assert_eq!(black.expect(&topic), sent);
        packed.push(sent.as_str().unwrap().to_string());
    }
    let fields = |i: usize| packed[i].split(',').map(String::from).collect::<Vec<_>>();
    let without_time = |i: usize| {
        let mut f = fields(i);
        f.remove(3);
        f.join(",")
    };
    assert_eq!(without_time(4), "3,4,exf6,e5,f6,N,N,ep,f5");
    assert_eq!(without_time(8), "5,8,gxh8=N,g7,h8,N,N,p,N");
    // Black's h8 rook was taken (gxh8=N): castling long loses only the queen side (`Q`), where
    // the reference wrote `A` for any king move.
    assert_eq!(without_time(11), "6,11,O-O-O,e8,c8,Q,N,c,a8,d8");
    assert_eq!(without_time(14), "8,14,O-O,e1,g1,A,N,c,h1,f1");
    // A piece named for a move that promotes nothing is ignored, as the reference's
    // chess.js ignores it (a promotion without its piece is refused: game.rs's tests).
    let (mut w2, _b2, g2) = matched(addr);
    w2.send(json!({"topic": format!("/game/{g2}/move"), "data": {"from": 12, "to": 28, "promoteTo": "Q"}}));
    let packed = w2.expect(&format!("/game/{g2}/move"));
    assert!(packed.as_str().unwrap().starts_with("1,0,e4,"), "{packed}");
}

/// The lobby document of a fresh `/lobby` subscriber.
fn lobby_snapshot(addr: SocketAddr) -> Value {
    let mut looker = Client::connect(addr, None);
    looker.send(json!({"topic": "/feed/activate", "data": "/lobby"}));
    let mut doc = looker.expect("/lobby");
    // The looker itself is online: take it out again.
    let users = doc["users"].as_array_mut().unwrap();
    users.retain(|u| u["id"] != looker.player);
    doc
}

/// A lobby document without what changes with every look (whether a player is connected) and
/// with its users by id (the order they came in is the updates', the server's is its own).
fn without_connection_flags(mut doc: Value) -> Value {
    doc["users"]
        .as_array_mut()
        .unwrap()
        .sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    for game in doc["games"].as_array_mut().unwrap() {
        for side in ["white", "black"] {
            game[side].as_object_mut().unwrap().remove("isConnected");
        }
    }
    for seek in doc["seeks"].as_array_mut().unwrap() {
        seek["owner"].as_object_mut().unwrap().remove("isConnected");
    }
    doc
}

#[test]
fn the_lobby_channel_of_generic_updates_follows_seeks_users_and_games() {
    let (addr, _, _dir) = server();
    let mut watcher = Client::connect(addr, None);
    watcher.send(json!({"topic": "/feed/activate", "data": "/lobby"}));
    let mut doc = watcher.expect("/lobby");
    assert_eq!(doc["seeks"], json!([]));
    assert_eq!(doc["games"], json!([]));
    assert_eq!(doc["users"].as_array().unwrap().len(), 1);
    let apply = |doc: &mut Value, watcher: &mut Client| {
        let updates: Vec<notate::protocol::updates::Update> =
            serde_json::from_value(watcher.expect("/lobby/updates")).unwrap();
        notate::protocol::updates::apply_all(doc, &updates).unwrap();
        updates
    };
    let (mut white, mut black, game) = matched(addr);
    // Two users came, a seek was added and taken, a game started: in one or more batches.
    while doc["games"].as_array().unwrap().is_empty() {
        apply(&mut doc, &mut watcher);
    }
    assert_eq!(doc["users"].as_array().unwrap().len(), 3);
    assert_eq!(doc["seeks"], json!([]));
    assert_eq!(doc["games"][0]["id"], game);
    assert_eq!(doc["games"][0]["plies"], 0);
    // Moves: the game's ply count, once per tick however many moves.
    let topic = format!("/game/{game}/move");
    mv(&mut white, &game, 12, 28);
    black.expect(&topic);
    mv(&mut black, &game, 52, 36);
    white.expect(&topic);
    while doc["games"][0]["plies"] != 2 {
        let updates = apply(&mut doc, &mut watcher);
        assert!(updates
            .iter()
            .all(|u| u.key == format!("games:{game}.plies")));
    }
    assert_eq!(
        without_connection_flags(doc.clone()),
        without_connection_flags(lobby_snapshot(addr))
    );
    // A player who takes a name is shown by it in the lobby's game as among its users.
    white.send(json!({"topic": "/user/register",
        "data": {"username": "lasker", "password": "berlin-1894"}}));
    white.expect("/user/register/success");
    while doc["games"][0]["white"]["name"] != "lasker" {
        apply(&mut doc, &mut watcher);
    }
    assert_eq!(
        without_connection_flags(doc.clone()),
        without_connection_flags(lobby_snapshot(addr))
    );
    // The end: the game leaves the lobby; a new seek enters it.
    white.send(json!({"topic": format!("/game/{game}/resign")}));
    black.expect(&format!("/game/{game}/game_over"));
    seek(&mut black);
    while doc["seeks"].as_array().unwrap().is_empty() {
        apply(&mut doc, &mut watcher);
    }
    assert_eq!(doc["games"], json!([]));
    assert_eq!(doc["seeks"][0]["owner"]["id"], black.player);
    drop(white);
    while doc["users"].as_array().unwrap().len() != 2 {
        apply(&mut doc, &mut watcher);
    }
    assert_eq!(
        without_connection_flags(doc),
        without_connection_flags(lobby_snapshot(addr))
    );
}

#[test]
fn a_flag_when_time_runs_out_and_a_draw_when_the_winner_cannot_mate() {
    let (addr, db, _dir) = server();
    let options = json!({"initialTime": 1000, "timeIncrement": 0,
        "acceptRatingMin": "-500", "acceptRatingMax": "+500"});
    let (mut white, mut black, game) = matched_with(addr, options);
    let id = game["id"].as_str().unwrap().to_string();
    let topic = format!("/game/{id}/move");
    // The first two plies are untimed; then white's second of thinking runs out.
    mv(&mut white, &id, 12, 28);
    black.expect(&topic);
    // Timed from before black's move: white's clock starts when the server takes it, so
    // the second cannot run out sooner than this measures (a busy machine only adds).
    let started = std::time::Instant::now();
    mv(&mut black, &id, 52, 36);
    white.expect(&topic);
    let result = white.expect(&format!("/game/{id}/game_over"));
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(950) && waited < Duration::from_secs(10),
        "{waited:?}"
    );
    assert_eq!(result["winner"], "b");
    assert_eq!(result["type"], "timeout");
    assert_eq!(result["summary"], "0-1");
    assert_eq!(black.expect(&format!("/game/{id}/game_over")), result);
    // Too late: the move is refused.
    mv(&mut white, &id, 6, 21);
    assert_eq!(white.expect("/error")["reason"], "the game is over");
    let pgn = http_get(addr, &format!("/games/{id}.pgn"));
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("forfeit on time"), "{pgn}");
    assert!(db.exists());
}

#[test]
fn a_game_without_its_first_moves_is_aborted_after_the_protocols_30_seconds() {
    let (addr, _, _dir) = server();
    // Timed from before the match: the server's 30 s start when it matches the players, so
    // the abort cannot come sooner than this measures.
    let started = std::time::Instant::now();
    let (mut white, mut black, game) = matched(addr);
    let mut spectator = Client::connect(addr, None);
    spectator.send(json!({"topic": "/request/game", "data": game}));
    spectator.expect("/game");
    // White never moves: after 30 s the game is aborted, for both players and the spectator,
    // and no one is rated.
    let aborted = |c: &mut Client| {
        let deadline = std::time::Instant::now() + Duration::from_secs(40);
        loop {
            assert!(std::time::Instant::now() < deadline, "no abort");
            let msg = c.next();
            if msg["topic"] == format!("/game/{game}/aborted") {
                return msg;
            }
        }
    };
    // Reads time out after 10 s: keep the sockets waiting longer here.
    for c in [&mut white, &mut black, &mut spectator] {
        if let tungstenite::stream::MaybeTlsStream::Plain(s) = c.ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(40))).unwrap();
        }
    }
    assert_eq!(aborted(&mut white).get("data"), None);
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(29_900) && waited < Duration::from_secs(38),
        "{waited:?}"
    );
    aborted(&mut black);
    aborted(&mut spectator);
    mv(&mut white, &game, 12, 28);
    assert_eq!(white.expect("/error")["reason"], "the game is over");
    // An aborted game is no longer among the player's games.
    white.send(json!({"topic": "/request/games"}));
    assert_eq!(white.expect("/games"), json!([]));
}

#[test]
fn signing_out_resigns_the_players_games() {
    let (addr, _, _dir) = server();
    let (mut white, mut black, game) = matched(addr);
    mv(&mut white, &game, 12, 28);
    black.expect(&format!("/game/{game}/move"));
    black.send(json!({"topic": "/user/logout"}));
    let result = white.expect(&format!("/game/{game}/game_over"));
    assert_eq!(result["type"], "resignation");
    assert_eq!(result["winner"], "w");
    assert_eq!(result["description"], "black resigned");
    let guest = black.expect("/user/logout");
    assert_ne!(guest, black.player);
}

/// Packed moves of `ucis` from the start, the i-th played at `start + 1000 (i + 1)`.
fn packed_history(ucis: &[&str], start: u64) -> Vec<String> {
    use notate::shakmaty::{uci::UciMove, Chess, Position};
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for (i, uci) in ucis.iter().enumerate() {
        let mv = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let packed =
            notate::chess::jsonchess::PackedMove::encode(&pos, mv, start + 1000 * (i as u64 + 1));
        out.push(packed.to_string());
        pos.play_unchecked(mv);
    }
    out
}

fn restore(client: &mut Client, id: &str, history: &[String], start: u64, colour: &str) {
    client.send(json!({"topic": "/game/restore", "data": {
        "gameDetails": {
            "history": history,
            "startTime": start,
            "options": {"initialTime": 600000, "timeIncrement": 0},
            "addedTime": {"w": 0, "b": 0},
            "id": id,
        },
        "playingAs": colour,
    }}));
}

/// A backup's id reaches topics, the store and the PGN: ids outside the server's alphabet
/// are refused before anything is looked up (one with a quote and a line break stopped the
/// hub when its game ended; a NUL stopped it on PostgreSQL at once).
#[test]
fn a_backup_with_an_id_the_server_could_not_have_made_is_refused() {
    let (addr, _, _dir) = server();
    let start = hub_now() - 60_000;
    let long = packed_history(&["e2e4", "e7e5", "g1f3", "b8c6"], start);
    let mut white = Client::connect(addr, None);
    let too_long = "a".repeat(65);
    for id in [
        "x\"]\n\n1. e4 *",
        "a\u{0}b",
        "a/b",
        "a.b",
        "",
        too_long.as_str(),
    ] {
        restore(&mut white, id, &long, start, "w");
        let failure = white.expect(&format!("/game/restore/{id}/failure"));
        assert_eq!(
            failure, "not a game id: 1 to 64 letters, digits, - or _",
            "{id:?}"
        );
    }
    restore(&mut white, "Ab-9_z", &long, start, "w");
    white.expect("/game/restore/Ab-9_z/pending");
}

/// A backup whose last move mates is a game over: restored, it would never end.
#[test]
fn a_backup_that_ends_in_mate_is_refused() {
    let (addr, _, _dir) = server();
    let start = hub_now() - 60_000;
    let mated = packed_history(&["f2f3", "e7e5", "g2g4", "d8h4"], start);
    let mut white = Client::connect(addr, None);
    restore(&mut white, "m1", &mated, start, "w");
    assert_eq!(
        white.expect("/game/restore/m1/failure"),
        "that game is over"
    );
}

#[test]
fn a_game_the_server_never_had_is_restored_from_both_players_backups() {
    let (addr, _, _dir) = server();
    let start = hub_now() - 60_000;
    let long = packed_history(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"], start);
    let mut white = Client::connect(addr, None);
    let mut black = Client::connect(addr, None);
    let mut other = Client::connect(addr, None);
    let prefix = "/game/restore/r1";

    // Refused: fewer plies than the protocol restores, and a backup whose moves do not replay.
    restore(&mut white, "r1", &long[..3], start, "w");
    let failure = white.expect(&format!("{prefix}/failure"));
    assert_eq!(failure, "a game of fewer than 4 plies is not restored");
    let mut bad = long.clone();
    bad.swap(0, 1);
    restore(&mut white, "r1", &bad, start, "w");
    let failure = white.expect(&format!("{prefix}/failure"));
    assert!(
        failure
            .as_str()
            .unwrap()
            .starts_with("the backup's moves do not replay: ply 1"),
        "{failure}"
    );

    // White's backup waits for black's; a third player claiming white too is refused.
    restore(&mut white, "r1", &long, start, "w");
    white.expect(&format!("{prefix}/pending"));
    other.send(json!({"topic": "/request/restoration_requests"}));
    assert_eq!(other.expect("/restoration_requests"), json!(["r1"]));
    restore(&mut other, "r1", &long, start, "w");
    assert_eq!(
        other.expect(&format!("{prefix}/failure")),
        "both backups play the same colour"
    );

    // A black backup that went another way at the second ply shares too little with
    // white's, which goes on waiting.
    let other_way = packed_history(&["e2e4", "c7c5", "g1f3", "d7d6"], start);
    restore(&mut black, "r1", &other_way, start, "b");
    assert_eq!(
        black.expect(&format!("{prefix}/failure")),
        "the backups share fewer than 4 plies"
    );

    // Black's backup lacks white's last move: the game goes on from the 4 plies both share,
    // white (to move) credited the time since the last of them.
    restore(&mut black, "r1", &long[..4], start, "b");
    let game = black.expect(&format!("{prefix}/success"));
    assert_eq!(white.expect(&format!("{prefix}/success")), game);
    assert_eq!(game["history"], json!(long[..4]));
    assert_eq!(game["white"]["id"], white.player);
    assert_eq!(game["black"]["id"], black.player);
    assert_eq!(game["isInProgress"], true);
    let added = game["addedTime"]["w"].as_u64().unwrap();
    assert!((50_000..70_000).contains(&added), "{game}");
    assert_eq!(game["addedTime"]["b"], 0);
    other.send(json!({"topic": "/request/restoration_requests"}));
    assert_eq!(other.expect("/restoration_requests"), json!([]));

    // It is a game like any other: black cannot move, white can; asking again gives it back,
    // to its players only.
    mv(&mut black, "r1", 52, 36);
    assert_eq!(black.expect("/error")["reason"], "it is not your turn");
    mv(&mut white, "r1", 5, 26);
    let topic = "/game/r1/move";
    let packed = white.expect(topic);
    assert!(packed.as_str().unwrap().starts_with("3,4,Bc4,"), "{packed}");
    assert_eq!(black.expect(topic), packed);
    restore(&mut white, "r1", &long, start, "w");
    assert_eq!(
        white.expect(&format!("{prefix}/success"))["history"][4],
        packed
    );
    restore(&mut other, "r1", &long, start, "b");
    assert_eq!(
        other.expect(&format!("{prefix}/failure")),
        "that game is not yours"
    );
}

fn hub_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

#[test]
fn game_chat_reaches_players_and_spectators_and_a_spectators_only_spectators() {
    let (addr, _, _dir) = server();
    let (mut white, mut black, game) = matched(addr);
    let mut spectator = Client::connect(addr, None);
    spectator.send(json!({"topic": "/request/game", "data": game}));
    spectator.expect("/game");
    let topic = format!("/game/{game}/chat");
    white.send(json!({"topic": topic, "data": "good luck"}));
    let line = json!({"from": "Anonymous", "body": "good luck"});
    for client in [&mut white, &mut black, &mut spectator] {
        assert_eq!(client.expect(&topic), line);
    }
    spectator.send(json!({"topic": topic, "data": "x".repeat(600)}));
    let line = spectator.expect(&topic);
    assert_eq!(line["body"].as_str().unwrap().len(), 500);
    // The players did not get it: their next message is the next players' line.
    black.send(json!({"topic": topic, "data": "thanks"}));
    assert_eq!(white.expect(&topic)["body"], "thanks");
    // Someone who does not watch the game is told so, and nobody gets the line.
    let mut stranger = Client::connect(addr, None);
    stranger.send(json!({"topic": topic, "data": "hello"}));
    assert_eq!(
        stranger.expect("/error")["reason"],
        "watch the game (/request/game) to chat in it"
    );
    spectator.send(json!({"topic": topic, "data": "seen"}));
    assert_eq!(spectator.expect(&topic)["body"], "thanks");
    assert_eq!(spectator.expect(&topic)["body"], "seen");
}

/// Plays `sans` from the start in `game`, white and black in turn, each move checked to come
/// back to both players.
fn play_sans(white: &mut Client, black: &mut Client, game: &str, sans: &[&str]) {
    use notate::shakmaty::{san::San, Chess, Position};
    let mut pos = Chess::default();
    for (i, san) in sans.iter().enumerate() {
        let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        let (mover, other) = if i % 2 == 0 {
            (&mut *white, &mut *black)
        } else {
            (&mut *black, &mut *white)
        };
        mv_move(mover, game, &mv);
        let topic = format!("/game/{game}/move");
        let packed = mover.expect(&topic);
        assert_eq!(other.expect(&topic), packed);
        pos.play_unchecked(mv);
    }
}

fn mv_move(client: &mut Client, game: &str, played: &notate::shakmaty::Move) {
    mv(
        client,
        game,
        u8::from(played.from().unwrap()),
        u8::from(played.to()),
    );
}

/// 100 plies of knight moves from the start that capture nothing, check no one and never
/// come back to a position (board, side to move, rights and en passant: the FEN without its
/// counters): what a fifty-move claim needs and no threefold claim has.
fn knight_walk() -> Vec<notate::shakmaty::Move> {
    use notate::shakmaty::{Chess, Position, Role};
    fn walk(
        pos: &Chess,
        seen: &mut std::collections::HashSet<String>,
        line: &mut Vec<notate::shakmaty::Move>,
    ) -> bool {
        if line.len() == 100 {
            return true;
        }
        for mv in pos.legal_moves() {
            if mv.role() != Role::Knight || mv.is_capture() {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let key = notate::shakmaty::fen::Fen::from_position(
                &next,
                notate::shakmaty::EnPassantMode::Legal,
            )
            .to_string()
            .split(' ')
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
            if next.is_check() || !seen.insert(key) {
                continue;
            }
            line.push(mv);
            if walk(&next, seen, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let mut line = Vec::new();
    assert!(walk(
        &Chess::default(),
        &mut std::collections::HashSet::new(),
        &mut line
    ));
    line
}

#[test]
fn each_draw_by_the_protocol_agreement_fifty_moves_and_stalemate() {
    let (addr, _, _dir) = server();

    // Agreement: black offers after its move, white accepts.
    let (mut white, mut black, game) = matched(addr);
    play_sans(&mut white, &mut black, &game, &["e4", "e5"]);
    black.send(json!({"topic": format!("/game/{game}/offer_draw")}));
    assert_eq!(white.expect(&format!("/game/{game}/draw_offer")), "b");
    white.send(json!({"topic": format!("/game/{game}/accept_draw")}));
    let over = black.expect(&format!("/game/{game}/game_over"));
    assert_eq!(
        (over["type"].as_str(), over["isDraw"].as_bool()),
        (Some("draw agreed"), Some(true))
    );

    // Fifty moves: claimed after 100 plies without a capture or a pawn move, not before.
    let (mut white, mut black, game) = matched(addr);
    let walk = knight_walk();
    let topic = format!("/game/{game}/move");
    for (i, mv) in walk.iter().enumerate() {
        if i == 99 {
            white.send(json!({"topic": format!("/game/{game}/claim_draw")}));
            assert!(white.expect("/error")["reason"]
                .as_str()
                .unwrap()
                .starts_with("no draw can be claimed"));
        }
        let (mover, other) = if i % 2 == 0 {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        mv_move(mover, &game, mv);
        let packed = mover.expect(&topic);
        assert_eq!(other.expect(&topic), packed);
    }
    black.send(json!({"topic": format!("/game/{game}/claim_draw")}));
    let over = white.expect(&format!("/game/{game}/game_over"));
    assert_eq!(over["type"], "fifty move rule");
    assert_eq!(over["summary"], "½-½");

    // Stalemate, in Sam Loyd's ten moves.
    let (mut white, mut black, game) = matched(addr);
    play_sans(
        &mut white,
        &mut black,
        &game,
        &[
            "e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7+", "Kf7",
            "Qxb7", "Qd3", "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6",
        ],
    );
    let over = black.expect(&format!("/game/{game}/game_over"));
    assert_eq!(over["type"], "stalemate");
    assert_eq!(over["isDraw"], true);
}

#[test]
fn a_message_over_64_kib_is_answered_with_an_error_before_the_connection_ends() {
    let (addr, _, _dir) = server();
    let mut client = Client::connect(addr, None);
    client.send(json!({"topic": "/chat", "data": "x".repeat(70_000)}));
    let error = client.expect("/error");
    let reason = error["reason"].as_str().unwrap();
    assert!(reason.ends_with(": the connection is closed"), "{reason}");
    assert!(reason.contains("too long"), "{reason}");
    client.closed();
}

/// Frames over the rate (binary ones too) are refused by the connection itself, never
/// queued for the hub: a flood neither grows the server's memory nor delays other players.
#[test]
fn a_flood_of_frames_is_refused_past_the_rate_and_the_hub_stays_quick() {
    let (addr, _, _dir) = server();
    let mut flooder = Client::connect(addr, None);
    let mut other = Client::connect(addr, None);
    for _ in 0..200 {
        flooder.ws.send(Message::binary(vec![0u8])).unwrap();
    }
    // Answered while the flood is read: the hub had none of it.
    other.send(json!({"topic": "/request/user"}));
    other.expect("/user");
    let reasons: Vec<String> = (0..200)
        .map(|_| {
            let msg = flooder.next();
            assert_eq!(msg["topic"], "/error", "{msg}");
            msg["data"]["reason"].as_str().unwrap().to_string()
        })
        .collect();
    let binary = reasons
        .iter()
        .filter(|r| *r == "jsonchess messages are text frames")
        .count();
    let over = reasons
        .iter()
        .filter(|r| *r == "more than 20 messages a second: this one was dropped")
        .count();
    // The burst of 60, and 20 a second more while the 200 were sent.
    assert!((60..=80).contains(&binary), "{binary} {reasons:?}");
    assert_eq!(binary + over, 200, "{reasons:?}");
    // Once the rate allows it again, messages go through.
    std::thread::sleep(Duration::from_millis(200));
    flooder.send(json!({"topic": "/request/user"}));
    assert_eq!(flooder.expect("/user")["playerId"], flooder.player);
}

/// Accepting a seek honours the seeker's rating range, as matching seeks does.
#[test]
fn a_seek_is_accepted_only_by_players_in_its_rating_range() {
    let (addr, _, _dir) = server();
    let mut seeker = Client::connect(addr, None);
    let mut taker = Client::connect(addr, None);
    // New players are rated 1500: a seek of players from 1800 up is not theirs to take.
    seeker.send(
        json!({"topic": "/seek", "data": {"initialTime": 60000, "timeIncrement": 0,
        "acceptRatingMin": "1800", "acceptRatingMax": "+500"}}),
    );
    let id = seeker.expect("/seek/waiting")["id"]
        .as_str()
        .unwrap()
        .to_string();
    taker.send(json!({"topic": "/seek/accept", "data": id}));
    assert_eq!(
        taker.expect("/seek/error"),
        "your rating is outside the seek's range"
    );
    seeker.send(
        json!({"topic": "/seek", "data": {"initialTime": 60000, "timeIncrement": 0,
        "acceptRatingMin": "-100", "acceptRatingMax": "+100"}}),
    );
    let id = seeker.expect("/seek/waiting")["id"]
        .as_str()
        .unwrap()
        .to_string();
    taker.send(json!({"topic": "/seek/accept", "data": id}));
    let game = taker.expect("/seek/matched");
    assert_eq!(seeker.expect("/seek/matched"), game);
}
