//! Decodes arbitrary text as a packed move in a few positions, and as a jsonchess game line
//! that is written back as jsonchess and as piece tracks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::chess::jsonchess::{self, decode};
use notate::chess::tracks;
use notate::shakmaty::{fen::Fen, CastlingMode, Chess, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pp3ppp/2p2n2/3pP3/8/2N5/PPP2PPP/R3K2R w KQkq d6 0 12",
    ] {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        if let Ok(mv) = decode(&pos, text) {
            assert!(pos.is_legal(mv));
        }
    }
    for game in jsonchess::Reader::new(data).flatten() {
        jsonchess::to_string(&game).expect("a game read from jsonchess is jsonchess");
        tracks::to_string(&game).expect("every replayed game has tracks");
    }
});
