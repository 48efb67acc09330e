//! jsonchess move codec speed against the EGD writer, per move, single-threaded (issue 4:
//! encoding and decoding must be at least as fast per move as the EGD writer).
//!
//! Usage: `cargo bench -p notate --bench jsonchess_codec -- FILE [COPIES]` (default 10
//! copies). The games are read and replayed once, untimed; each pass then works through them
//! COPIES times, and the best of 3 passes is printed:
//!
//! - `encode`: the jsonchess writer, a game line per game (SAN, check marks, rights, groups);
//! - `decode`: the jsonchess reader on those lines (JSON, then every string checked in its
//!   position: legality, SAN, check marks, rights, en passant target);
//! - `egd`: the EGD writer on the same games.

use std::{env, fs::File, time::Instant};

use notate::chess::egd::Egd;
use notate::chess::jsonchess::{self, Jsonchess};
use notate::chess::pgn;
use notate::chess::ChessGame;
use notate::format::{ReadFormat, WriteFormat};

fn best_of_3(mut pass: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut work = 0;
    for _ in 0..3 {
        let t0 = Instant::now();
        work = pass();
        best = best.min(t0.elapsed().as_secs_f64());
    }
    (best, work)
}

fn main() {
    let args: Vec<String> = env::args().skip(1).filter(|a| a != "--bench").collect();
    let Some(path) = args.first() else {
        eprintln!("usage: jsonchess_codec FILE [COPIES]");
        std::process::exit(2);
    };
    let copies: usize = args.get(1).and_then(|c| c.parse().ok()).unwrap_or(10);
    let games: Vec<ChessGame> = pgn::Reader::new(File::open(path).expect("input file"))
        .filter_map(Result::ok)
        .filter(|g| g.moves.plies.iter().all(|p| p.mv.mv.is_some()))
        .collect();
    let moves: usize = games.iter().map(|g| g.moves.plies.len()).sum::<usize>() * copies;

    let mut lines = Vec::new();
    let mut out = Vec::with_capacity(1 << 20);
    let (t_encode, _) = best_of_3(|| {
        lines.clear();
        for _ in 0..copies {
            for game in &games {
                out.clear();
                Jsonchess.write_game(game, &mut out).expect("no null moves");
                if lines.len() < games.len() {
                    lines.push(String::from_utf8(out.clone()).expect("ASCII"));
                }
            }
        }
        lines.len()
    });
    let (t_decode, _) = best_of_3(|| {
        let mut plies = 0;
        for _ in 0..copies {
            for line in &lines {
                let options = jsonchess::ReadOptions::default();
                plies += Jsonchess::read_record(line.trim_end().as_bytes(), &options)
                    .remove(0)
                    .expect("decodes")
                    .moves
                    .plies
                    .len();
            }
        }
        plies
    });
    let mut egd = Egd::default();
    let (t_egd, _) = best_of_3(|| {
        for _ in 0..copies {
            for game in &games {
                out.clear();
                egd.write_game(game, &mut out).expect("no null moves");
            }
        }
        0
    });
    let rate = |t: f64| moves as f64 / t / 1e6;
    println!("games {} x {copies}, moves {moves}", games.len());
    println!("encode {:.3} s  {:.2} M moves/s", t_encode, rate(t_encode));
    println!("decode {:.3} s  {:.2} M moves/s", t_decode, rate(t_decode));
    println!("egd    {:.3} s  {:.2} M moves/s", t_egd, rate(t_egd));
}
