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
    // The streaming reader of the library face, on the same bytes.
    for game in pgn::Reader::new(data) {
        if let Err(e) = game {
            assert!(e.game.is_some() && !e.message.is_empty());
        }
    }
});
