//! Reads arbitrary bytes as PGN, in both reading modes, and writes what replays (also as
//! database rows).
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::chess::pgn::{self, read_chunk, GameSplitter, Keep, ReadOptions};
use notate::chess::rows::{RowBatch, RowWriter};
use notate::chess::{json, replay};

fuzz_target!(|data: &[u8]| {
    for options in [
        ReadOptions::default(),
        ReadOptions {
            keep: Keep::Nothing,
            ..ReadOptions::default()
        },
    ] {
        let mut splitter = GameSplitter::with_limits(data, 4096, options);
        while let Ok(Some(chunk)) = splitter.next_chunk() {
            for read in read_chunk(&chunk, options) {
                if let Ok(game) = read.game.and_then(replay) {
                    pgn::to_string(&game).expect("a replayed game writes as PGN");
                    json::to_string(&game).expect("a replayed game writes as JSON");
                    let _ = RowWriter::new().write(&game, &mut RowBatch::new());
                }
            }
        }
    }
    // The streaming reader of the library face, on the same bytes.
    for game in pgn::Reader::new(data) {
        if let Err(e) = game {
            assert!(e.game.is_some() && !e.message.is_empty());
        }
    }
});
