//! Shogi reading speed (issue 6): 10,000 random legal games, generated (seeded) with
//! notate's own move generator, written as KIF and CSA; reading them back to an SFEN per
//! ply must be at least 10× faster than cshogi's readers. `scripts/bench-shogi` runs this,
//! the `notate` command and cshogi side by side on the same files.
//!
//! Usage: `cargo bench -p notate --bench shogi_records -- [--games N] [--write DIR]`
//! (`--write` also writes the games as DIR/kif/*.kifu and DIR/csa/*.csa).

use std::path::PathBuf;
use std::time::Instant;

use notate::shogi::encoding::ReadOptions;
use notate::shogi::{csa, kif, sfen, Ending, EndingKind, MoveTime, Position, Record, RecordMove};

/// A deterministic pseudo-random sequence (xorshift): every run measures the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A game of uniformly random legal moves, with random times, to mate or `max_plies`.
fn random_game(rng: &mut Rng, max_plies: usize) -> Record {
    let mut record = Record::new(Position::startpos());
    record.header.push(("先手".into(), "random".into()));
    record.header.push(("後手".into(), "random".into()));
    let mut pos = record.start.clone();
    for _ in 0..max_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        pos.play(mv).expect("generated moves are legal");
        record.moves.push(RecordMove {
            mv,
            time: Some(MoveTime {
                spent_ms: rng.below(60) as u64 * 1000,
                total_ms: None,
            }),
            comments: Vec::new(),
        });
    }
    let kind = if pos.has_legal_move() {
        EndingKind::Abort
    } else {
        EndingKind::Mate
    };
    record.ending = Some(Ending::new(kind));
    record
}

/// Reads every file and writes an SFEN per ply; returns the bytes of SFEN written.
fn read_to_sfens(files: &[Vec<u8>], read: fn(&[u8]) -> Record, threads: usize) -> usize {
    let chunk = files.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut out = String::with_capacity(1 << 20);
                    let mut total = 0;
                    for bytes in part {
                        out.clear();
                        out.push_str(&sfen::to_string(&read(bytes)).unwrap());
                        total += out.len();
                    }
                    total
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("worker")).sum()
    })
}

fn read_kif(bytes: &[u8]) -> Record {
    notate::format::read_bytes::<kif::Kif>(bytes, ReadOptions::default())
        .remove(0)
        .expect("notate reads its own KIF")
}

fn read_csa(bytes: &[u8]) -> Record {
    csa::read_one(std::str::from_utf8(bytes).expect("UTF-8")).expect("notate reads its own CSA")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let games: usize = value("--games").map_or(10_000, |v| v.parse().expect("--games N"));
    let write_dir = value("--write").map(PathBuf::from);

    let t0 = Instant::now();
    let mut rng = Rng(0x5107_1D0C_AFE5_EED5);
    let records: Vec<Record> = (0..games).map(|_| random_game(&mut rng, 200)).collect();
    let plies: usize = records.iter().map(|r| r.moves.len()).sum();
    println!(
        "generated {games} random games, {plies} plies, in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    // cshogi's KIF reader stops at 不成, so the shared files leave it unmarked (as the KIF
    // specification does).
    let kif_options = kif::WriteOptions {
        mark_declined: false,
        ..Default::default()
    };
    let kif_files: Vec<Vec<u8>> = records
        .iter()
        .map(|r| {
            kif::to_string_with(r, kif_options.clone())
                .unwrap()
                .into_bytes()
        })
        .collect();
    let csa_files: Vec<Vec<u8>> = records
        .iter()
        .map(|r| {
            csa::to_string_with(r, csa::WriteOptions::default())
                .unwrap()
                .into_bytes()
        })
        .collect();
    if let Some(dir) = &write_dir {
        for (sub, files, ext) in [("kif", &kif_files, "kifu"), ("csa", &csa_files, "csa")] {
            let d = dir.join(sub);
            std::fs::create_dir_all(&d).expect("create the bench directory");
            for (i, bytes) in files.iter().enumerate() {
                std::fs::write(d.join(format!("g{i:05}.{ext}")), bytes).expect("write a game");
            }
        }
        let mut sfens = String::new();
        for r in &records {
            sfens.push_str(&sfen::to_string(r).unwrap());
            sfens.push('\n');
        }
        std::fs::write(dir.join("expected.sfen"), sfens).expect("write the expected SFENs");
        println!("wrote {}", dir.display());
    }
    for (name, files, read) in [
        ("KIF", &kif_files, read_kif as fn(&[u8]) -> Record),
        ("CSA", &csa_files, read_csa as fn(&[u8]) -> Record),
    ] {
        let bytes: usize = files.iter().map(Vec::len).sum();
        for threads in [1, 2] {
            let mut best = f64::MAX;
            let mut written = 0;
            for _ in 0..3 {
                let t = Instant::now();
                written = read_to_sfens(files, read, threads);
                best = best.min(t.elapsed().as_secs_f64());
            }
            println!(
                "{name} -> SFEN per ply, {threads} thread(s): {best:.3} s, {:.0} games/s, {:.1} M plies/s, {:.0} MB/s in ({:.0} MB of SFEN)",
                games as f64 / best,
                plies as f64 / best / 1e6,
                bytes as f64 / best / 1e6,
                written as f64 / 1e6
            );
        }
    }
}
