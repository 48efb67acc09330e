//! Reads arbitrary bytes as PGN, in both reading modes (which must find the same games,
//! failing at the same place), and writes what replays (also as database rows).
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::chess::pgn::{self, read_chunk, GameSplitter, Keep, ReadOptions};
use notate::chess::rows::{RowBatch, RowWriter};
use notate::chess::{json, replay, uci};

fuzz_target!(|data: &[u8]| {
    // What each reading finds: per game, where, at which ply and token it failed, and its
    // warnings.
    let mut verdicts = Vec::new();
    for options in [
        ReadOptions::default(),
        ReadOptions {
            keep: Keep::Nothing,
            ..ReadOptions::default()
        },
    ] {
        let mut found = Vec::new();
        let mut splitter = GameSplitter::with_limits(data, 4096, options);
        while let Ok(Some(chunk)) = splitter.next_chunk() {
            for read in read_chunk(&chunk, options) {
                let warnings = read.warnings.len();
                match read.game.and_then(replay) {
                    Ok(game) => {
                        // What export format writes reads back to the same moves, and is
                        // written the same from the second writing on (a comment braces
                        // cannot hold becomes `;` comments, one a line, at the first).
                        let text = pgn::to_string(&game).expect("a replayed game writes as PGN");
                        let back = pgn::read_one(&text).expect("what notate writes reads back");
                        assert_eq!(uci::to_string(&back).ok(), uci::to_string(&game).ok());
                        let second = pgn::to_string(&back).expect("writes again");
                        let third = pgn::read_one(&second)
                            .map(|g| pgn::to_string(&g).expect("and again"))
                            .expect("reads again");
                        assert_eq!(second, third, "export format is a fixed point");
                        json::to_string(&game).expect("a replayed game writes as JSON");
                        let _ = RowWriter::new().write(&game, &mut RowBatch::new());
                        found.push((None, None, None, warnings));
                    }
                    Err(mut failed) => {
                        failed.error.locate(&mut chunk.locator());
                        let error = failed.error;
                        found.push((error.offset(), error.ply, error.token, warnings));
                    }
                }
            }
        }
        verdicts.push(found);
    }
    // Validating as it reads (`notate check`) finds what reading then replaying finds.
    assert_eq!(verdicts[0], verdicts[1]);
    // Where games start does not depend on how the bytes arrive, comments over their limit
    // included: in one read, or in reads of 1 to 8 bytes (sizes taken from the data).
    let limits = ReadOptions {
        max_comment_bytes: 16,
        ..ReadOptions::default()
    };
    let ranges = |input: &mut dyn std::io::Read| {
        let mut splitter = GameSplitter::with_limits(input, 64, limits);
        let mut ranges = Vec::new();
        while let Ok(Some(chunk)) = splitter.next_chunk() {
            let first = chunk.first_byte as usize;
            ranges.extend(chunk.games.iter().map(|g| first + g.start..first + g.end));
        }
        ranges
    };
    let mut trickle = Trickle { data, at: 0 };
    assert_eq!(ranges(&mut &data[..]), ranges(&mut trickle));
    // With lines of games without tags too large together (cut apart), and games too large
    // (their heads reported, their rests skipped: the skip keeps only the last bytes it has
    // scanned, the longest tag line's worth or 128, and a few), the same games however the
    // bytes arrive: where each starts or fails, and its moves.
    let limits = ReadOptions {
        max_game_bytes: 200,
        max_tag_bytes: 32,
        ..limits
    };
    let games = |input: &mut dyn std::io::Read, limits: ReadOptions| {
        let mut splitter = GameSplitter::with_limits(input, 64, limits);
        let mut games = Vec::new();
        while let Ok(Some(chunk)) = splitter.next_chunk() {
            for read in read_chunk(&chunk, limits) {
                games.push(match read.game {
                    Ok(game) => Ok(game.moves.plies.len()),
                    Err(mut failed) => {
                        failed.error.locate(&mut chunk.locator());
                        Err((failed.error.offset(), failed.error.message))
                    }
                });
            }
        }
        games
    };
    let whole = games(&mut &data[..], limits);
    let skipped = |game: &Result<_, (_, String)>| {
        game.as_ref()
            .is_err_and(|e| e.1.starts_with("game longer than"))
    };
    assert_eq!(whole, games(&mut Trickle { data, at: 0 }, limits));
    if !whole.iter().any(skipped) {
        // Lines of games cut apart (every stretch over a quarter of the limit is) read as
        // they read whole: no stretch of these bytes is cut at the default limits.
        let uncut = ReadOptions {
            max_game_bytes: ReadOptions::default().max_game_bytes,
            ..limits
        };
        assert_eq!(whole, games(&mut &data[..], uncut));
    }
    // The streaming reader of the library face, on the same bytes.
    for game in pgn::Reader::new(data) {
        if let Err(e) = game {
            assert!(e.game.is_some() && !e.message.is_empty());
        }
    }
});

/// The bytes in small reads, of sizes the bytes themselves choose.
struct Trickle<'a> {
    data: &'a [u8],
    at: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let size = self.data.get(self.at).map_or(1, |b| usize::from(b % 8) + 1);
        let n = size.min(out.len()).min(self.data.len() - self.at);
        out[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
