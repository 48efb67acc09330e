//! Reads arbitrary bytes as PGN, in both reading modes, and writes what replays (also as
//! database rows).
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::chess::pgn::{read_chunk, write_pgn, GameSplitter, ReadOptions};
use notate::chess::rows::{RowBatch, RowWriter};
use notate::chess::{json, replay};

fuzz_target!(|data: &[u8]| {
    for options in [
        ReadOptions::default(),
        ReadOptions { validate_only: true, keep_comments: false, ..ReadOptions::default() },
    ] {
        let mut splitter = GameSplitter::with_limits(data, 4096, options);
        while let Ok(Some(chunk)) = splitter.next_chunk() {
            for read in read_chunk(&chunk, options) {
                if let Ok(game) = read.game.and_then(replay) {
                    let mut out = Vec::new();
                    write_pgn(&game, &mut out);
                    let _ = json::write_json(&game, &mut out);
                    let _ = RowWriter::new().write(&game, &mut RowBatch::new());
                }
            }
        }
    }
});
