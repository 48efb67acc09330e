//! Every EGD vector of `../shared/vectors/egd/` is a test.
//!
//! - Where the reference (the Ruby gem `egd`) is right, notate's output is the same JSON:
//!   same keys, same order, same values.
//! - Where the reference has a bug listed in `spec/egd.md`, the output differs from the
//!   reference in exactly the fields listed here, with notate's values.
//! - Where the reference crashed, notate's output is `tests/egd/NAME.jsonl`, written by
//!   notate, checked by hand and against python-chess (`scripts/egd-crosscheck.py`).
//! - Where notate refuses a game, the error names the ply, the token and the reason.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use notate::chess::egd::{EgdOptions, EgdWriter};
use notate::chess::{pgn::read_pgn_games, replay, GameError};
use serde_json::Value;

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors/egd")
}

/// notate's EGD for every game of a vector: a line, or the error.
fn convert(name: &str) -> Vec<Result<String, GameError>> {
    let text = std::fs::read(vectors().join(format!("{name}.pgn"))).unwrap();
    let text = String::from_utf8(text).unwrap();
    let mut writer = EgdWriter::new(EgdOptions::default());
    read_pgn_games(&text)
        .into_iter()
        .map(|game| {
            let game = game.and_then(replay).map_err(|f| f.error)?;
            let mut out = Vec::new();
            writer.write(&game, &mut out)?;
            let line = String::from_utf8(out).unwrap();
            assert!(
                line.ends_with('\n') && line.matches('\n').count() == 1,
                "{name}"
            );
            Ok(line.trim_end().to_string())
        })
        .collect()
}

fn one_line(name: &str) -> String {
    let mut games = convert(name);
    assert_eq!(games.len(), 1, "{name}: one game");
    games.remove(0).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn reference(name: &str) -> String {
    std::fs::read_to_string(vectors().join(format!("{name}.json"))).unwrap()
}

/// JSON text in serde_json's canonical compact form (key order kept).
fn canonical(text: &str) -> String {
    serde_json::to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
}

/// Every leaf of a JSON document by its path, in document order.
fn leaves(value: &Value, path: String, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                leaves(v, format!("{path}/{k}"), out);
            }
        }
        other => out.push((path, other.clone())),
    }
}

/// The leaves where notate's document differs from the reference: path → notate's value
/// (`null` where notate has no such key).
fn differences(ours: &str, theirs: &str) -> BTreeMap<String, Value> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    leaves(&serde_json::from_str(ours).unwrap(), String::new(), &mut a);
    leaves(
        &serde_json::from_str(theirs).unwrap(),
        String::new(),
        &mut b,
    );
    let ours: BTreeMap<_, _> = a.iter().cloned().collect();
    let theirs: BTreeMap<_, _> = b.iter().cloned().collect();
    let mut diff = BTreeMap::new();
    for (path, value) in &ours {
        if theirs.get(path) != Some(value) {
            diff.insert(path.clone(), value.clone());
        }
    }
    for path in theirs.keys() {
        if !ours.contains_key(path) {
            diff.insert(path.clone(), Value::Null);
        }
    }
    diff
}

#[test]
fn same_as_the_reference_where_it_is_right() {
    for name in [
        "c01_opera_game_morphy_1858",
        "c03_evergreen_game_anderssen_1852",
        "c05_en_passant_both_sides",
        "c06_both_castlings_and_bishops",
        "c08_lichess_clock_comments",
        "c10_annotated_nags_variations",
        "c18_pinned_piece_disambiguation",
        "e09_crlf_line_endings",
        "e18_black_move_number_styles",
        "e21_ascii_plus_minus_eval",
        "e22_eval_glyphs_stripped",
        "f00_readme_example",
        "f01_fen_test",
        "f02_polgar_vs_kasparov",
        // A comment with nested braces: read again with nesting, as the reference reads it.
        "f03_nested",
        "f04_termination",
        "f05_no_termination",
        "f08_chesscom",
    ] {
        let ours = one_line(name);
        // Byte-equal after the reference is put in serde_json's form (the same bytes here:
        // compact, `/` unescaped, raw UTF-8), which also checks the key order.
        assert_eq!(ours, canonical(&reference(name)), "{name}");
    }
}

/// A vector, why notate differs from the reference, and the fields that differ.
type Correction<'a> = (&'a str, &'a str, &'a [(&'a str, Value)]);

/// The reference's bugs (spec/egd.md, "deliberately different"): exactly these fields
/// differ, with these values.
#[test]
fn corrected_where_the_reference_is_wrong() {
    let cases: &[Correction] = &[
        (
            "c11_no_headers_no_result_castling",
            "no result anywhere: `*`, not the movetext before the last move",
            &[("/game_tags/Result", Value::from("*"))],
        ),
        (
            "c12_lichess_no_result_header_trailing_clock",
            "the movetext's termination, not the trailing comment text",
            &[("/game_tags/Result", Value::from("0-1"))],
        ),
        (
            "c16_ep_capture_with_check",
            "exd6+ en passant starts on e5 (the reference read the `+` as the rank)",
            &[
                ("/moves/4w/move/from_square", Value::from("e5")),
                ("/moves/4w/move/lran", Value::from("e5xd6")),
            ],
        ),
        (
            "c17_checks_not_marked",
            "mate written without `#` is still mate: features are computed",
            &[
                // (the reference's empty `{}` is no longer a leaf)
                ("/moves/4w/end_position/features", Value::Null),
                ("/moves/4w/end_position/features/check", Value::from(true)),
                (
                    "/moves/4w/end_position/features/checkmate",
                    Value::from(true),
                ),
            ],
        ),
        (
            "e08_tricky_header_values",
            "escaped quotes and `]` inside tag values; the later tags are not lost",
            &[
                ("/game_tags/Event", Value::from("The \"Big\" Match")),
                ("/game_tags/Site", Value::from("Room [A]")),
                ("/game_tags/White", Value::from("Doe, John")),
                ("/game_tags/Black", Value::from("Roe, Richard")),
            ],
        ),
        (
            "e10_move_numbers_without_space_and_false_check",
            "a wrong `+` in the file is not a check",
            &[
                ("/moves/2w/end_position/features", serde_json::json!({})),
                ("/moves/2w/end_position/features/check", Value::Null),
            ],
        ),
        (
            "f06_annotations",
            "a trailing `+/-` glyph is not a result",
            &[("/game_tags/Result", Value::from("*"))],
        ),
        (
            "f07_promotion",
            "no result anywhere: `*`",
            &[("/game_tags/Result", Value::from("*"))],
        ),
        (
            "f09_enpassant",
            "a trailing FEN comment is not a result",
            &[("/game_tags/Result", Value::from("*"))],
        ),
        (
            "f11_invalid_header",
            "`[Event S ]` (no quotes) has the value `S`",
            &[("/game_tags/Event", Value::from("S"))],
        ),
    ];
    for (name, why, expected) in cases {
        let diff = differences(&one_line(name), &reference(name));
        let expected: BTreeMap<String, Value> = expected
            .iter()
            .map(|(p, v)| (p.to_string(), v.clone()))
            .collect();
        assert_eq!(diff, expected, "{name}: {why}");
    }
    // The key order of a corrected document is the reference's too (e08 adds two tags in
    // file order after the ones the reference kept).
    let line = one_line("e08_tricky_header_values");
    let doc: Value = serde_json::from_str(&line).unwrap();
    let keys: Vec<&String> = doc["game_tags"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["Result", "Event", "Site", "White", "Black"]);
}

/// Where the reference crashed (or ignored the FEN tag): notate's expected output, written
/// by notate and checked by hand and with python-chess.
#[test]
fn converts_what_the_reference_could_not() {
    let cases = [
        ("c13_castle_with_mate_OOO", "castling with `#`"),
        ("c14_lasker_trap_underpromotion_check", "promotion with `+`"),
        ("c15_promotion_with_check", "promotion with `+`"),
        ("e01_two_games_in_one_file", "two games: two lines"),
        ("e02_zero_digit_castling", "`0-0` (written as `O-O`)"),
        ("e05_trailing_annotation_no_result", "a `!` at the very end"),
        ("e06_unicode_evaluation_symbol", "a `±` glyph"),
        ("e07_comment_after_result", "a comment after the result"),
        ("e11_setup_fen_header_ignored", "plays from the FEN tag"),
        ("e13_ep_suffix", "an `e.p.` mark"),
        (
            "e14_promotion_without_equals",
            "`gxh8Q+` (written as `gxh8=Q+`)",
        ),
        (
            "e15_comment_line_starting_with_bracket",
            "a comment line starting with `[`",
        ),
        ("e16_headers_only", "a game without moves"),
        ("e17_long_algebraic_input", "`e2-e4` (written as `e4`)"),
        ("e19_utf8_bom", "a byte order mark"),
        ("e20_semicolon_comment", "a `;` comment"),
        ("f10_invalid", "`^5blergh` (skipped with a warning)"),
    ];
    let expected_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/egd");
    let mut files: Vec<String> = std::fs::read_dir(&expected_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut named: Vec<String> = cases.iter().map(|(n, _)| format!("{n}.jsonl")).collect();
    named.sort();
    assert_eq!(files, named, "every expected file belongs to a case");
    for (name, what) in cases {
        let expected = std::fs::read_to_string(expected_dir.join(format!("{name}.jsonl"))).unwrap();
        let ours: Vec<String> = convert(name)
            .into_iter()
            .map(|g| g.unwrap_or_else(|e| panic!("{name} ({what}): {e:?}")))
            .collect();
        let expected: Vec<&str> = expected.lines().collect();
        assert_eq!(ours, expected, "{name}: {what}");
    }
    // Spot checks of what the cases are about, so a wrong expected file cannot hide.
    let c13 = one_line("c13_castle_with_mate_OOO");
    assert!(c13.contains(r#""18w":{"start_position":{"fen":"rn3r2/pbppq1p1/1p2pN2/8/3P2NP/6P1/PPP1BP1R/R3K1k1 w Q - 5 18","features":{}},"move":{"player":"w","san":"O-O-O#","lran":"O-O-O","from_square":"e1","to_square":"c1","piece":"K","move_type":"long_castle"},"end_position":{"fen":"rn3r2/pbppq1p1/1p2pN2/8/3P2NP/6P1/PPP1BP1R/2KR2k1 b - - 6 18","features":{"check":true,"checkmate":true}}}"#));
    let c14 = one_line("c14_lasker_trap_underpromotion_check");
    assert!(c14.contains(r#""san":"fxg1=N+","lran":"f2xNg1=N","from_square":"f2","to_square":"g1","piece":"p","move_type":"promotion_capture","captured_piece":"N","promotion":"N""#));
    let e11 = one_line("e11_setup_fen_header_ignored");
    assert!(e11.contains(r#""1w":{"start_position":{"fen":"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1""#));
    let e14 = one_line("e14_promotion_without_equals");
    assert!(e14.contains(r#""san":"gxh8=Q+","lran":"g7xRh8=Q","from_square":"g7","to_square":"h8","piece":"p","move_type":"promotion_capture","captured_piece":"R","promotion":"Q""#));
    assert_eq!(
        one_line("e16_headers_only"),
        r#"{"game_tags":{"Result":"*","Event":"Headers only, no moves"},"moves":{}}"#
    );
}

/// Games notate refuses, each with its ply, token and reason (the rest of a file goes on).
#[test]
fn refuses_illegal_ambiguous_and_null_moves() {
    let cases = [
        ("e03_illegal_move", 3, "Nf6", "illegal move"),
        ("e04_ambiguous_san", 5, "Nd2", "ambiguous move"),
        ("e12_null_move", 2, "--", "null move"),
    ];
    for (name, ply, token, reason) in cases {
        let games = convert(name);
        assert_eq!(games.len(), 1, "{name}");
        let error = games[0].as_ref().unwrap_err();
        assert_eq!(error.ply, Some(ply), "{name}");
        assert_eq!(error.token.as_deref(), Some(token), "{name}");
        assert!(error.reason.contains(reason), "{name}: {}", error.reason);
    }
}

/// Every vector is accounted for by one of the tests above.
#[test]
fn every_vector_has_a_test() {
    let source = include_str!("egd_vectors.rs");
    for entry in std::fs::read_dir(vectors()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".pgn") {
            assert!(
                source.contains(&format!("\"{stem}\"")),
                "{stem} is not in a test"
            );
        }
    }
}
