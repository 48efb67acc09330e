//! ICN speed (issue 5): a generated game of 1,000,000 moves and a generated position of
//! 100,000 pieces, each parsed and written both ways (short ICN and the long JSON form),
//! one thread, best of 3. The goal: the short parser reads at least 100 MB/s.
//!
//! Usage: `cargo bench -p notate --bench icn_codec`

use std::time::Instant;

use notate::infinite::long;
use notate::infinite::short::{self, MoveStyle, WriteOptions};
use notate::infinite::Game;

fn best_of_3<T>(mut pass: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..3 {
        let t0 = Instant::now();
        let out = pass();
        best = best.min(t0.elapsed().as_secs_f64());
        last = Some(out);
    }
    (best, last.expect("three passes"))
}

/// A deterministic pseudo-random sequence (xorshift), so every run measures the same input.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: i64) -> i64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as i64
    }
}

/// Kings and rooks walking over a wide board; every 50th move a comment, every 20th a
/// promotion: the pretty form with move numbers, as a site exports it.
fn game_text(moves: usize) -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut text = String::from(
        "[Event \"bench\"]\n[Variant \"Classical\"]\n\nw 0/100 1 (8|1) K0,0|k0,100|R5,0|r5,100\n\n",
    );
    for i in 0..moves {
        let white = i % 2 == 0;
        if white {
            text.push_str(&format!("{}. ", i / 2 + 1));
        } else {
            text.push_str(" | ");
        }
        let (x, y) = (rng.next(2000) - 1000, rng.next(2000) - 1000);
        let piece = if white { "R" } else { "r" };
        text.push_str(&format!("{piece}{x},{y} > {},{}", x + rng.next(50), y));
        if i % 20 == 0 {
            text.push_str(if white { " =Q" } else { " =q" });
        }
        if i % 50 == 0 {
            text.push_str(" {[%clk 0:09:56.7] a comment}");
        }
        if !white {
            text.push('\n');
        }
    }
    text
}

fn position_text(pieces: usize) -> String {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let codes = ["P", "p", "N", "n", "AM", "ha", "CH", "ar", "GU", "ob"];
    let mut text = String::from("w 0/100 1 (8|1) ");
    for i in 0..pieces {
        if i > 0 {
            text.push('|');
        }
        // Distinct squares: one column per piece, a random rank.
        let code = codes[rng.next(codes.len() as i64) as usize];
        text.push_str(&format!(
            "{code}{},{}",
            i as i64 - 50_000,
            rng.next(100_000) - 50_000
        ));
        if code == "P" || code == "p" {
            text.push('+');
        }
    }
    text
}

fn report(name: &str, text: &str) {
    let mb = |bytes: usize, secs: f64| bytes as f64 / secs / 1e6;
    let (t_parse, game): (f64, Game) = best_of_3(|| short::read_one(text).expect("valid ICN"));
    let pretty = WriteOptions::default();
    let minimal = WriteOptions {
        moves: MoveStyle::Minimal,
        ..WriteOptions::default()
    };
    let (t_write, written) = best_of_3(|| short::to_string_with(&game, pretty).expect("writes"));
    let (t_minimal, minimal_text) =
        best_of_3(|| short::to_string_with(&game, minimal).expect("writes"));
    let (t_minimal_parse, _) = best_of_3(|| short::read_one(&minimal_text).expect("valid ICN"));
    let options = long::WriteOptions {
        pretty: false,
        ..long::WriteOptions::default()
    };
    let (t_long_write, json) = best_of_3(|| long::to_string_with(&game, options).expect("writes"));
    let (t_long_parse, _) = best_of_3(|| long::read_one(&json).expect("valid JSON"));
    println!("{name}:");
    println!(
        "  parse ICN (as generated)  {:>8.1} MB/s  ({} bytes, {:.3} s)",
        mb(text.len(), t_parse),
        text.len(),
        t_parse
    );
    println!(
        "  write ICN (pretty)        {:>8.1} MB/s  ({} bytes, {:.3} s)",
        mb(written.len(), t_write),
        written.len(),
        t_write
    );
    println!(
        "  write ICN (minimal)       {:>8.1} MB/s  ({} bytes, {:.3} s)",
        mb(minimal_text.len(), t_minimal),
        minimal_text.len(),
        t_minimal
    );
    println!(
        "  parse ICN (minimal)       {:>8.1} MB/s  ({:.3} s)",
        mb(minimal_text.len(), t_minimal_parse),
        t_minimal_parse
    );
    println!(
        "  write long JSON           {:>8.1} MB/s  ({} bytes, {:.3} s)",
        mb(json.len(), t_long_write),
        json.len(),
        t_long_write
    );
    println!(
        "  parse long JSON           {:>8.1} MB/s  ({:.3} s)",
        mb(json.len(), t_long_parse),
        t_long_parse
    );
}

fn main() {
    report("game of 1,000,000 moves", &game_text(1_000_000));
    report("position of 100,000 pieces", &position_text(100_000));
}
