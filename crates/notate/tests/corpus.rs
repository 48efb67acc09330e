//! Every file of the PGN corpus in `../shared/corpus/` (other projects' files, never in the
//! repository) reads; every game converts or is reported precisely; and the whole corpus
//! passes the round-trip checks of `roundtrip_common` that `roundtrip.rs` runs on generated
//! games. Run by `scripts/shared-suites` (never by `cargo test`); fails when `../shared` is missing.

use std::path::{Path, PathBuf};

#[path = "roundtrip_common/mod.rs"]
mod roundtrip_common;
use roundtrip_common::{read_all, Source};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn pgn_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![corpus()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("shared/corpus is beside the project") {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 60, "corpus incomplete: {}", files.len());
    files
}

fn sources() -> Vec<Source> {
    pgn_files().iter().map(|p| Source::file(p)).collect()
}

#[test]
fn every_game_converts_or_is_reported_precisely() {
    let mut rejected = Vec::new();
    let mut games = 0;
    for path in pgn_files() {
        let (ok, failed) = read_all(&Source::file(&path));
        games += ok.len() + failed.len();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (game, ply, token, reason) in failed {
            rejected.push(format!(
                "{name} {game} {ply:?} {token:?} {}",
                reason.split(" in ").next().unwrap()
            ));
        }
    }
    let expected = [
        r#"antichess-programfox.pgn 1 None None variant "Antichess" is not supported (standard chess and Chess960 are)"#,
        r#"antichess-programfox.pgn 2 None None variant "Antichess" is not supported (standard chess and Chess960 are)"#,
        r#"knightvuillaume-jannlee-zh-lichess.pgn 1 None None variant "Crazyhouse" is not supported (standard chess and Chess960 are)"#,
        r#"saturs-jannlee-zh-lichess.pgn 1 None None variant "Crazyhouse" is not supported (standard chess and Chess960 are)"#,
        r#"black2move.pgn 1 Some(1) Some("0-0-0") illegal move"#,
        r#"ambiguous.pgn 1 Some(25) Some("Rd1") ambiguous move"#,
        r#"chessdoctor.pgn 36 Some(57) Some("Be3") illegal move"#,
        r#"chessdoctor.pgn 38 Some(20) Some("Ne7") ambiguous move"#,
        r#"chessdoctor.pgn 39 Some(4) Some("Bb4+") illegal move"#,
        r#"chessdoctor.pgn 43 Some(1) Some("Bd3") illegal move"#,
        // Game 20 is cut short inside a comment; the two games after it are read (before, the
        // comment ran into them and they were lost).
        r#"europe_echecs.pgn 20 None None comment is not closed by `}`"#,
        r#"europe_echecs.pgn 212 Some(70) Some("cxd3") illegal move"#,
        r#"hayes.pgn 1 Some(52) Some("Kg6") illegal move"#,
        r#"immortal_games.pgn 1 Some(10) Some("Nd7") ambiguous move"#,
        r#"immortal_games.pgn 17 Some(30) Some("Rf8") ambiguous move"#,
        r#"immortal_games.pgn 25 Some(25) Some("Rd1") ambiguous move"#,
        r#"immortal_games.pgn 34 Some(18) Some("Nd7") ambiguous move"#,
        r#"perle.pgn 39 Some(26) Some("Qd5") illegal move"#,
    ];
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    rejected.sort();
    assert_eq!(rejected, want);
    assert!(games > 12_000, "{games}");
}

#[test]
fn pgn_and_json_round_trips_keep_every_game() {
    let checked = roundtrip_common::pgn_and_json_round_trips_keep_every_game(&sources());
    assert!(checked > 12_000, "{checked}");
}

#[test]
fn validate_only_reading_agrees_with_read_then_replay() {
    roundtrip_common::validate_only_reading_agrees_with_read_then_replay(&sources());
}

/// Games with a null move cannot be EGD: they are refused, and counted.
#[test]
fn egd_round_trip_keeps_tags_and_moves() {
    let (checked, null_games) = roundtrip_common::egd_round_trip_keeps_tags_and_moves(&sources());
    assert!(checked > 12_000, "{checked}");
    assert!(null_games < 20, "{null_games}");
}

#[test]
fn tracks_follow_every_corpus_game() {
    let (games, plies) = roundtrip_common::tracks_follow_every_game(&sources());
    assert!(games > 12_000, "{games}");
    assert!(plies > 700_000, "{plies}");
}

#[test]
fn jsonchess_round_trip_keeps_moves() {
    let (checked, null_games) = roundtrip_common::jsonchess_round_trip_keeps_moves(&sources());
    assert!(checked > 12_000, "{checked}");
    assert!(null_games < 20, "{null_games}");
}
