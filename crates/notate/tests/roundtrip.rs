//! The round-trip checks of `roundtrip_common` over generated games (`notate-testdata`): every
//! PGN feature, standard, FEN and Chess960 starts, long games. The same checks run over the
//! PGN corpus of `../shared/` in `corpus.rs`.

#[path = "roundtrip_common/mod.rs"]
mod roundtrip_common;
use roundtrip_common::{read_all, Source};

/// 2,000 generated games in four files of different seeds.
fn sources() -> Vec<Source> {
    (1..=4)
        .map(|seed| Source {
            name: format!("notate_testdata::pgn({seed}, 500)"),
            bytes: notate_testdata::pgn(seed, 500).into_bytes(),
        })
        .collect()
}

#[test]
fn every_generated_game_replays() {
    for source in sources() {
        let (ok, failed) = read_all(&source);
        assert_eq!(failed, vec![], "{}", source.name);
        assert_eq!(ok.len(), 500, "{}", source.name);
    }
}

#[test]
fn pgn_and_json_round_trips_keep_every_game() {
    assert_eq!(
        roundtrip_common::pgn_and_json_round_trips_keep_every_game(&sources()),
        2_000
    );
}

#[test]
fn validate_only_reading_agrees_with_read_then_replay() {
    roundtrip_common::validate_only_reading_agrees_with_read_then_replay(&sources());
}

/// Games with a null move cannot be EGD: they are refused, and counted.
#[test]
fn egd_round_trip_keeps_tags_and_moves() {
    let (checked, null_games) = roundtrip_common::egd_round_trip_keeps_tags_and_moves(&sources());
    assert_eq!(checked + null_games, 2_000);
    assert!(null_games > 0 && null_games < 100, "{null_games}");
}

#[test]
fn tracks_follow_every_generated_game() {
    let (games, plies) = roundtrip_common::tracks_follow_every_game(&sources());
    assert_eq!(games, 2_000);
    assert!(plies > 150_000, "{plies}");
}

#[test]
fn jsonchess_round_trip_keeps_moves() {
    let (checked, null_games) = roundtrip_common::jsonchess_round_trip_keeps_moves(&sources());
    assert_eq!(checked + null_games, 2_000);
    assert!(null_games > 0, "{null_games}");
}

/// The generated games hold what the round trips must see: every move type of EGD, mates,
/// under-promotions, FEN and Chess960 starts, variations, clocks, evals and null moves.
#[test]
fn generated_games_cover_every_feature() {
    use notate::chess::egd::Egd;
    use notate::format::WriteFormat;
    let mut egd = Vec::new();
    let mut writer = Egd::default();
    let mut text = String::new();
    for source in sources() {
        let (games, _) = read_all(&source);
        for game in &games {
            let _ = writer.write_game(game, &mut egd);
        }
        text.push_str(std::str::from_utf8(&source.bytes).unwrap());
    }
    let egd = String::from_utf8(egd).unwrap();
    for move_type in [
        "move",
        "capture",
        "ep_capture",
        "promotion",
        "promotion_capture",
        "short_castle",
        "long_castle",
    ] {
        let count = egd
            .matches(&format!("\"move_type\":\"{move_type}\""))
            .count();
        assert!(count >= 20, "{move_type}: {count}");
    }
    for (what, needle, at_least) in [
        ("mates", "\"checkmate\":true", 50),
        ("under-promotions", "\"promotion\":\"N\"", 20),
        ("FEN starts", "[FEN ", 100),
        ("Chess960 starts", "[Variant \"Chess960\"]", 50),
        ("variations", "(", 300),
        ("clocks", "[%clk ", 1000),
        ("evals", "[%eval ", 1000),
        ("mate evals", "[%eval #", 20),
        ("null moves", " -- ", 10),
        ("zero castling", "0-0", 5),
        ("long algebraic", "-e4", 5),
        ("escaped quotes", "\\\"The King\\\"", 20),
        ("NAGs", " $", 100),
        ("glyphs", "!?", 20),
        ("draws", "1/2-1/2", 100),
        ("unfinished", "\"*\"", 100),
    ] {
        let count = if needle.starts_with('"') && what != "unfinished" {
            egd.matches(needle).count()
        } else {
            text.matches(needle).count()
        };
        assert!(count >= at_least, "{what}: {count}");
    }
}
