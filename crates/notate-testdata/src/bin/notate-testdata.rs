//! Writes generated test games as PGN on stdout, for suites outside Rust (the Python wheel's
//! Spark tests) that need the same games as the Rust store tests.
//!
//! `notate-testdata SEED GAMES [SEED GAMES]...`

use std::io::Write;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!(
                    "usage: notate-testdata SEED GAMES [SEED GAMES]... ({a:?} is not a number)"
                );
                std::process::exit(2)
            })
        })
        .collect();
    if args.is_empty() || !args.len().is_multiple_of(2) {
        eprintln!("usage: notate-testdata SEED GAMES [SEED GAMES]...");
        std::process::exit(2);
    }
    let mut out = std::io::stdout().lock();
    for pair in args.chunks(2) {
        let games = usize::try_from(pair[1]).unwrap_or(usize::MAX);
        if out
            .write_all(notate_testdata::pgn(pair[0], games).as_bytes())
            .is_err()
        {
            std::process::exit(1);
        }
    }
}
