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

/// Game JSON takes what PGN reads and refuses what PGN could not hold: variations nested as
/// deep as PGN reads them (serde_json's own limit refused 32), tag names PGN would read as
/// another tag, tag lines and comments longer than PGN reads. The same names are refused in
/// EGD and jsonchess games.
#[test]
fn game_json_holds_what_pgn_reads_and_refuses_what_pgn_cannot() {
    use notate::chess::{egd, json, pgn};
    for depth in [31, 32, 64] {
        let text = format!("1. e4 {}e5{} *", "(1. d4 ".repeat(depth), ")".repeat(depth));
        let game = pgn::read_one(&text).unwrap();
        let line = json::to_string(&game).unwrap();
        assert_eq!(json::read_one(&line).unwrap(), game, "depth {depth}");
    }
    let text = format!("1. e4 {}e5{} *", "(1. d4 ".repeat(65), ")".repeat(65));
    assert!(pgn::read_one(&text).is_err());
    // Deeper variations are refused where PGN's limit is passed; JSON nested 100,000 deep
    // (no game) is an error, not a stack overflow.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let variation = r#"{"san":"e4","uci":"e2e4","variations":[{"moves":["#;
    let deep = format!(
        r#"{{"tags":{{}},"start":"{start}","moves":[{}{}]}}"#,
        variation.repeat(70),
        "]}]}".repeat(70)
    );
    let e = json::read_one(&deep).unwrap_err();
    assert!(
        e.to_string().contains("variations nested deeper than 64"),
        "{e}"
    );
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for json in [
        format!(r#"{{"tags":{{}},"start":"{start}","moves":{deep}}}"#),
        format!(
            r#"{{"tags":{{}},"start":"{start}","moves":[{{"san":"e4","uci":"e2e4","variations":{deep}}}]}}"#
        ),
    ] {
        assert!(json::read_one(&json).is_err());
    }

    let game = |tags: &str, comment: &str| {
        format!(
            r#"{{"tags":{tags},"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":[{{"san":"e4","uci":"e2e4","comments":[{{"text":"{comment}"}}]}}]}}"#
        )
    };
    assert!(json::read_one(&game(r#"{"Time-Control":"60+0"}"#, "hi")).is_ok());
    for name in ["My Tag", "", "a\\\"b", "Tag]", "a\\nb"] {
        let e = json::read_one(&game(&format!(r#"{{"{name}":"x"}}"#), "hi")).unwrap_err();
        assert!(
            e.to_string().contains("not a tag name PGN can hold"),
            "{name}: {e}"
        );
    }
    let long = "v".repeat(64 << 10);
    let e = json::read_one(&game(&format!(r#"{{"Event":"{long}"}}"#), "hi")).unwrap_err();
    assert!(
        e.to_string().contains("tag line longer than 65536 bytes"),
        "{e}"
    );
    let long = "c".repeat((1 << 20) + 1);
    let e = json::read_one(&game("{}", &long)).unwrap_err();
    assert!(
        e.to_string()
            .contains("moves[0].comments: comment longer than 1048576 bytes"),
        "{e}"
    );

    let egd_game = r#"{"game_tags":{"My Tag":"x"},"moves":{}}"#;
    let e = egd::read_one(egd_game).unwrap_err();
    assert!(e.to_string().contains("not a tag name PGN can hold"), "{e}");
    // A name PGN reads (a form feed in it) comes back from EGD and JSON.
    let game = pgn::read_one("[A\x0cB \"x\"]\n\n1. e4 *").unwrap();
    assert_eq!(game.tags.get("A\x0cB"), Some("x"));
    let back = egd::read_one(&egd::to_string(&game).unwrap()).unwrap();
    assert_eq!(back.tags.get("A\x0cB"), Some("x"));
    let back = json::read_one(&json::to_string(&game).unwrap()).unwrap();
    assert_eq!(back.tags.get("A\x0cB"), Some("x"));
    // EGD and jsonchess refuse the tag lines PGN cannot read as JSON does.
    let long = "v".repeat(64 << 10);
    type Read = fn(&str) -> Result<notate::chess::ChessGame, notate::Error>;
    let readers: [(Read, &str); 2] = [
        (egd::read_one, "{}"),
        (notate::chess::jsonchess::read_one, "[]"),
    ];
    for (read, moves) in readers {
        let e = read(&format!(
            r#"{{"game_tags":{{"Event":"{long}"}},"moves":{moves}}}"#
        ))
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("game_tags.Event: tag line longer than 65536 bytes"),
            "{e}"
        );
        assert_eq!(e.kind, notate::ErrorKind::TooLarge);
        let e = read(&format!(
            r#"{{"game_tags":{{"My Tag":"x"}},"moves":{moves}}}"#
        ))
        .unwrap_err();
        assert!(e.to_string().contains("not a tag name PGN can hold"), "{e}");
    }
}

/// A move's `[%timestamp ms]` becomes its jsonchess time only when field 4 can hold it and
/// read it back: 1 to 19 digits. Any other is no time (0), as a bad `[%clk]` is no clock.
#[test]
fn jsonchess_times_come_from_timestamp_commands_that_read_back() {
    use notate::chess::{jsonchess, pgn};
    let game = pgn::read_one(
        "1. e4 {[%timestamp 18446744073709551615]} e5 {[%timestamp 12x]} \
         2. Nf3 {[%timestamp  42 ] [%timestamp 7]} Nc6 {%timestamp 5 [%timestamps 6]} \
         3. Bb5 {[%timestamp 9999999999999999999]} *",
    )
    .unwrap();
    let line = jsonchess::to_string(&game).unwrap();
    let times: Vec<&str> = line
        .split('"')
        .filter(|f| f.matches(',').count() == 7)
        .map(|packed| packed.split(',').nth(3).unwrap())
        .collect();
    assert_eq!(
        times,
        ["0", "0", "42", "0", "9999999999999999999"],
        "{line}"
    );
    let back = jsonchess::read_one(&line).unwrap();
    assert_eq!(back.moves.plies.len(), 5);
    assert_eq!(
        back.moves.plies[4].comments[0].text,
        "[%timestamp 9999999999999999999]"
    );
}
