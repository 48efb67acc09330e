//! Reads arbitrary text as ICN (the short parser) and as the long JSON form; what reads is
//! written in both dialects, replayed, and must read back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::infinite::short::{self, Dialect, MoveStyle, WriteOptions};
use notate::infinite::{long, replay, Position};

/// The position's pieces: a position with no pieces (the long form's `"specialRights": {}`
/// alone) writes as no position in the short form, and means the same board.
fn pieces(position: &Option<Position>) -> Option<&Position> {
    position.as_ref().filter(|p| !p.is_empty())
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = short::parse_move(text);
    let _ = short::parse_position(text);
    for game in [short::read_one(text), long::read_one(text)]
        .into_iter()
        .flatten()
    {
        for dialect in [Dialect::V2024, Dialect::V2025] {
            for moves in [MoveStyle::Pretty, MoveStyle::Compact, MoveStyle::Minimal] {
                let options = WriteOptions {
                    moves,
                    dialect,
                    ..WriteOptions::default()
                };
                if let Ok(out) = short::to_string_with(&game, options) {
                    let back = short::read_one(&out).expect("written ICN reads back");
                    assert_eq!(pieces(&back.position), pieces(&game.position));
                }
            }
            let options = long::WriteOptions {
                dialect,
                legacy_moves: true,
                pretty: false,
            };
            if let Ok(json) = long::to_string_with(&game, options) {
                assert_eq!(
                    long::read_one(&json)
                        .expect("written JSON reads back")
                        .position,
                    game.position
                );
            }
        }
        let _ = replay::position_after(&game, None);
    }
});
