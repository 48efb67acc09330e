//! Reads arbitrary text as ICN (the short parser) and as the long JSON form; what reads is
//! written in both dialects, replayed, and must read back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::infinite::short::{self, Dialect, MoveStyle, WriteOptions};
use notate::infinite::{long, replay};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = short::parse_move(text);
    let _ = short::parse_position(text);
    for game in [short::parse(text), long::from_json(text)].into_iter().flatten() {
        for dialect in [Dialect::V2024, Dialect::V2025] {
            for moves in [MoveStyle::Pretty, MoveStyle::Compact, MoveStyle::Minimal] {
                let options = WriteOptions { moves, dialect, ..WriteOptions::default() };
                if let Ok(out) = short::write(&game, &options) {
                    let back = short::parse(&out).expect("written ICN reads back");
                    assert_eq!(back.position, game.position);
                }
            }
            let options = long::LongOptions { dialect, legacy_moves: true, pretty: false };
            if let Ok(json) = long::to_json(&game, &options) {
                assert_eq!(long::from_json(&json).expect("written JSON reads back").position, game.position);
            }
        }
        let _ = replay::position_after(&game, None);
    }
});
