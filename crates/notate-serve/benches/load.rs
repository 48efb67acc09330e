//! Load on `notate serve`: GAMES concurrent games (2 × GAMES WebSocket clients, each a player
//! that picks a random legal move after a think of 0.5–1.5 s) for SECONDS seconds on loopback,
//! against the `notate` command in its own process (built first: `cargo build --release`).
//! Every client checks that the moves of its game arrive in order, each once; at the end every
//! move a client sent must have come back. Reports moves/s, the move round trip (send → the
//! server's broadcast of it back to the mover: p50, p99, max) and the server's memory per game.
//!
//! `cargo bench -p notate-serve --bench load -- [GAMES] [SECONDS] [--think MS]
//! [--postgres PROCESSES]` (default 1000 games, 60 s, thinks of 500–1500 ms, one process on a
//! SQLite file). `--think MS` makes each think MS to 3 × MS (0: none, as fast as the server
//! answers, to find its ceiling). With `--postgres N` the bench starts a PostgreSQL
//! server of its own (Debian's `postgresql`) and N `notate serve` processes on it, and puts
//! the two players of a game on different processes (N ≥ 2): every move crosses from one
//! process to the other through the leader's hub. Memory is then that of every process.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use notate::chess::jsonchess::PackedMove;
use notate::shakmaty::{Chess, Color, File, Move, Position, Square};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

#[derive(Default)]
struct Stats {
    moves: AtomicU64,
    games_started: AtomicU64,
    games_finished: AtomicU64,
    out_of_order: AtomicU64,
    lost: AtomicU64,
    errors: AtomicU64,
    round_trips: Mutex<Vec<f64>>,
}

fn cli() -> PathBuf {
    if let Ok(path) = std::env::var("NOTATE_CLI") {
        return path.into();
    }
    let target = std::env::var("CARGO_TARGET_DIR").map_or_else(
        |_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    target.join("release/notate")
}

/// A player's think: from `THINK_MS` to three times it.
static THINK_MS: AtomicU64 = AtomicU64::new(500);

fn think(rng: &mut Rng) -> Duration {
    let min = THINK_MS.load(Ordering::Relaxed);
    Duration::from_millis(min + rng.next() % (2 * min).max(1))
}

/// CPU time a process has used (user and system), in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or(0)
}

/// A small generator for think times and move choices (the bench needs no statistics).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn request(mv: &Move) -> Value {
    let (from, to) = match *mv {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                File::G
            } else {
                File::C
            };
            (king, Square::from_coords(file, king.rank()))
        }
        _ => (mv.from().expect("not a drop"), mv.to()),
    };
    let mut data = json!({"from": u8::from(from), "to": u8::from(to)});
    if let Some(role) = mv.promotion() {
        data["promoteTo"] = json!(role.upper_char().to_string());
    }
    data
}

struct Table {
    id: String,
    color: Color,
    pos: Chess,
    plies: u32,
    /// The ply this client sent and when, waiting for its echo.
    pending: Option<(u32, Instant)>,
    move_at: Option<tokio::time::Instant>,
}

async fn player(addr: SocketAddr, pair: usize, seed: u64, stats: Arc<Stats>, stop: Instant) {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("connect");
    let (mut tx, mut rx) = ws.split();
    let mut rng = Rng(seed | 1);
    let mut me = String::new();
    // One time control per pair of clients, so that the pair's seeks match each other.
    let seek = json!({"topic": "/seek", "data": {"initialTime": 3_600_000 + pair as u64 * 1000,
        "timeIncrement": 0, "acceptRatingMin": "-1000", "acceptRatingMax": "+1000"}})
    .to_string();
    tx.send(Message::text(seek.clone())).await.expect("send");
    let mut table: Option<Table> = None;
    let far = tokio::time::Instant::now() + Duration::from_secs(3600);
    // Five seconds after the stop, for the last echoes.
    let end = tokio::time::Instant::now()
        + stop.saturating_duration_since(Instant::now())
        + Duration::from_secs(5);
    loop {
        let wake = table.as_ref().and_then(|t| t.move_at).unwrap_or(far);
        tokio::select! {
            message = rx.next() => {
                let Some(Ok(Message::Text(text))) = message else { break };
                let msg: Value = serde_json::from_str(&text).expect("JSON");
                let topic = msg["topic"].as_str().unwrap_or("");
                if topic == "/session" {
                    me = msg["data"]["playerId"].as_str().unwrap_or("").to_string();
                } else if topic == "/seek/matched" {
                    let game = &msg["data"];
                    let color = if game["white"]["id"] == me.as_str() { Color::White } else { Color::Black };
                    stats.games_started.fetch_add(1, Ordering::Relaxed);
                    let first = (color == Color::White && Instant::now() < stop)
                        .then(|| tokio::time::Instant::now() + think(&mut rng));
                    table = Some(Table { id: game["id"].as_str().unwrap().into(), color, pos: Chess::default(), plies: 0, pending: None, move_at: first });
                } else if topic == "/error" {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                } else if let Some(t) = table.as_mut() {
                    if topic.ends_with("/move") && topic == format!("/game/{}/move", t.id) {
                        let packed = PackedMove::parse(msg["data"].as_str().unwrap_or("")).expect("packed");
                        if packed.index != t.plies {
                            stats.out_of_order.fetch_add(1, Ordering::Relaxed);
                            continue;
                        }
                        let mv = packed.to_move(&t.pos).expect("a legal move");
                        t.pos.play_unchecked(mv);
                        t.plies += 1;
                        if let Some((index, sent)) = t.pending
                            && index == packed.index {
                                stats.round_trips.lock().unwrap().push(sent.elapsed().as_secs_f64() * 1000.0);
                                stats.moves.fetch_add(1, Ordering::Relaxed);
                                t.pending = None;
                            }
                        if t.pos.turn() == t.color && Instant::now() < stop && !t.pos.legal_moves().is_empty() {
                            t.move_at = Some(tokio::time::Instant::now() + think(&mut rng));
                        }
                    } else if topic == format!("/game/{}/game_over", t.id) || topic == format!("/game/{}/aborted", t.id) {
                        stats.games_finished.fetch_add(1, Ordering::Relaxed);
                        if t.pending.is_some() {
                            stats.lost.fetch_add(1, Ordering::Relaxed);
                        }
                        table = None;
                        if Instant::now() < stop {
                            tx.send(Message::text(seek.clone())).await.expect("send");
                        }
                    }
                }
            }
            _ = tokio::time::sleep_until(end) => {
                if table.as_ref().is_some_and(|t| t.pending.is_some()) {
                    stats.lost.fetch_add(1, Ordering::Relaxed);
                }
                break;
            }
            _ = tokio::time::sleep_until(wake) => {
                let Some(t) = table.as_mut() else { continue };
                t.move_at = None;
                if Instant::now() >= stop {
                    continue;
                }
                let moves = t.pos.legal_moves();
                let mv = moves[(rng.next() % moves.len() as u64) as usize];
                let text = json!({"topic": format!("/game/{}/move", t.id), "data": request(&mv)}).to_string();
                t.pending = Some((t.plies, Instant::now()));
                tx.send(Message::text(text)).await.expect("send");
            }
        }
    }
}

/// `notate serve` on a free port over `db`: the process and its address.
fn serve(db: &std::ffi::OsStr) -> (std::process::Child, SocketAddr) {
    let mut server = Command::new(cli())
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the notate command (cargo build --release)");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: SocketAddr = line
        .trim()
        .trim_start_matches("listening on http://")
        .parse()
        .unwrap();
    (server, addr)
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let processes = raw.iter().position(|a| a == "--postgres").map(|i| {
        raw.get(i + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(2usize)
    });
    if let Some(i) = raw.iter().position(|a| a == "--think") {
        let ms = raw
            .get(i + 1)
            .and_then(|n| n.parse().ok())
            .expect("--think MS");
        THINK_MS.store(ms, Ordering::Relaxed);
    }
    let args: Vec<u64> = raw
        .iter()
        .take_while(|a| !a.starts_with("--"))
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(1000) as usize;
    let seconds = args.get(1).copied().unwrap_or(60);
    let dir = std::env::temp_dir().join(format!("notate-serve-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let postgres = processes.map(|_| notate_testdata::postgres::Server::start());
    let db: std::ffi::OsString = match &postgres {
        Some(server) => server.url.clone().into(),
        None => dir.join("games.sqlite").into(),
    };
    let mut servers: Vec<(std::process::Child, SocketAddr)> =
        (0..processes.unwrap_or(1)).map(|_| serve(&db)).collect();
    let addrs: Vec<SocketAddr> = servers.iter().map(|(_, addr)| *addr).collect();
    let pids: Vec<u32> = servers.iter().map(|(child, _)| child.id()).collect();
    let cpu_before: Vec<f64> = pids.iter().map(|&pid| cpu_seconds(pid)).collect();
    let rss = {
        let pids = pids.clone();
        move || pids.iter().map(|&pid| rss_kb(pid)).sum::<u64>()
    };
    let idle_kb = rss();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let stats = Arc::new(Stats::default());
    let started = Instant::now();
    let stop = started + Duration::from_secs(seconds);
    let peak_kb = Arc::new(AtomicU64::new(0));
    runtime.block_on(async {
        let mut tasks = Vec::new();
        for pair in 0..games {
            for side in 0..2u64 {
                let stats = stats.clone();
                let addr = addrs[(pair * 2 + side as usize) % addrs.len()];
                tasks.push(tokio::spawn(player(
                    addr,
                    pair,
                    (pair as u64) * 2 + side + 7,
                    stats,
                    stop,
                )));
            }
            if pair % 100 == 99 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        let peak = peak_kb.clone();
        let watcher = tokio::spawn(async move {
            loop {
                peak.fetch_max(rss(), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
        for task in tasks {
            task.await.unwrap();
        }
        watcher.abort();
    });
    let elapsed = seconds as f64;
    let cpu: Vec<f64> = pids
        .iter()
        .zip(&cpu_before)
        .map(|(&pid, before)| cpu_seconds(pid) - before)
        .collect();
    for (server, _) in &mut servers {
        let _ = server.kill();
        let _ = server.wait();
    }
    drop(postgres);
    let mut rtt = stats.round_trips.lock().unwrap().clone();
    rtt.sort_by(f64::total_cmp);
    let at = |q: f64| {
        rtt.get(((rtt.len() as f64 * q) as usize).min(rtt.len().saturating_sub(1)))
            .copied()
            .unwrap_or(f64::NAN)
    };
    let moves = stats.moves.load(Ordering::Relaxed);
    let think_ms = THINK_MS.load(Ordering::Relaxed);
    match processes {
        Some(n) => println!("{n} process(es) on one PostgreSQL (a game's players on two of them when n ≥ 2), thinks of {think_ms}–{} ms\n", 3 * think_ms),
        None => println!("one process on a SQLite file, thinks of {think_ms}–{} ms\n", 3 * think_ms),
    }
    println!("| measure | value | goal |");
    println!("|---|---|---|");
    println!(
        "| games at once / clients | {games} / {} | 1,000 / 2,000 |",
        games * 2
    );
    println!(
        "| games started / finished | {} / {} | |",
        stats.games_started.load(Ordering::Relaxed) / 2,
        stats.games_finished.load(Ordering::Relaxed) / 2
    );
    println!(
        "| moves played in {seconds} s | {moves} ({:.0} moves/s) | |",
        moves as f64 / elapsed
    );
    println!(
        "| moves lost / out of order or twice | {} / {} | 0 / 0 |",
        stats.lost.load(Ordering::Relaxed),
        stats.out_of_order.load(Ordering::Relaxed)
    );
    println!(
        "| error messages | {} | 0 |",
        stats.errors.load(Ordering::Relaxed)
    );
    println!(
        "| move round trip p50 / p99 / max | {:.2} / {:.2} / {:.2} ms | p99 under 20 ms |",
        at(0.5),
        at(0.99),
        rtt.last().copied().unwrap_or(f64::NAN)
    );
    let per_move: Vec<String> = cpu
        .iter()
        .map(|s| format!("{:.0} µs", s * 1e6 / moves.max(1) as f64))
        .collect();
    println!(
        "| server CPU per move (leader first) | {} | |",
        per_move.join(" + ")
    );
    let peak = peak_kb.load(Ordering::Relaxed);
    println!(
        "| server memory: idle / peak / per game | {:.1} MB / {:.1} MB / {:.1} KB | |",
        idle_kb as f64 / 1024.0,
        peak as f64 / 1024.0,
        (peak.saturating_sub(idle_kb)) as f64 / games as f64
    );
    let _ = std::fs::remove_dir_all(&dir);
}
