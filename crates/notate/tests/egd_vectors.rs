//! Every EGD vector of `vectors/egd/` is a test (the gem's own fixtures, `f*`, are not in the
//! repository: `egd_fixtures.rs` tests them from `../shared/vectors/egd/`).
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

use serde_json::Value;

#[path = "egd_common/mod.rs"]
mod egd_common;
use egd_common::{canonical, convert, differences, one_line, reference};

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/egd")
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
    ] {
        let ours = one_line(&vectors(), name);
        // Byte-equal after the reference is put in serde_json's form (the same bytes here:
        // compact, `/` unescaped, raw UTF-8), which also checks the key order.
        assert_eq!(ours, canonical(&reference(&vectors(), name)), "{name}");
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
    ];
    for (name, why, expected) in cases {
        let diff = differences(&one_line(&vectors(), name), &reference(&vectors(), name));
        let expected: BTreeMap<String, Value> = expected
            .iter()
            .map(|(p, v)| (p.to_string(), v.clone()))
            .collect();
        assert_eq!(diff, expected, "{name}: {why}");
    }
    // The key order of a corrected document is the reference's too (e08 adds two tags in
    // file order after the ones the reference kept).
    let line = one_line(&vectors(), "e08_tricky_header_values");
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
    ];
    let expected_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/egd");
    let mut files: Vec<String> = std::fs::read_dir(&expected_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    // f10_invalid.jsonl belongs to the gem's fixture of that name (egd_fixtures.rs).
    files.retain(|f| f != "f10_invalid.jsonl");
    let mut named: Vec<String> = cases.iter().map(|(n, _)| format!("{n}.jsonl")).collect();
    named.sort();
    assert_eq!(files, named, "every expected file belongs to a case");
    for (name, what) in cases {
        let expected = std::fs::read_to_string(expected_dir.join(format!("{name}.jsonl"))).unwrap();
        let ours: Vec<String> = convert(&vectors(), name)
            .into_iter()
            .map(|g| g.unwrap_or_else(|e| panic!("{name} ({what}): {e:?}")))
            .collect();
        let expected: Vec<&str> = expected.lines().collect();
        assert_eq!(ours, expected, "{name}: {what}");
    }
    // Spot checks of what the cases are about, so a wrong expected file cannot hide.
    let c13 = one_line(&vectors(), "c13_castle_with_mate_OOO");
    assert!(c13.contains(r#""18w":{"start_position":{"fen":"rn3r2/pbppq1p1/1p2pN2/8/3P2NP/6P1/PPP1BP1R/R3K1k1 w Q - 5 18","features":{}},"move":{"player":"w","san":"O-O-O#","lran":"O-O-O","from_square":"e1","to_square":"c1","piece":"K","move_type":"long_castle"},"end_position":{"fen":"rn3r2/pbppq1p1/1p2pN2/8/3P2NP/6P1/PPP1BP1R/2KR2k1 b - - 6 18","features":{"check":true,"checkmate":true}}}"#));
    let c14 = one_line(&vectors(), "c14_lasker_trap_underpromotion_check");
    assert!(c14.contains(r#""san":"fxg1=N+","lran":"f2xNg1=N","from_square":"f2","to_square":"g1","piece":"p","move_type":"promotion_capture","captured_piece":"N","promotion":"N""#));
    let e11 = one_line(&vectors(), "e11_setup_fen_header_ignored");
    assert!(e11.contains(r#""1w":{"start_position":{"fen":"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1""#));
    let e14 = one_line(&vectors(), "e14_promotion_without_equals");
    assert!(e14.contains(r#""san":"gxh8=Q+","lran":"g7xRh8=Q","from_square":"g7","to_square":"h8","piece":"p","move_type":"promotion_capture","captured_piece":"R","promotion":"Q""#));
    assert_eq!(
        one_line(&vectors(), "e16_headers_only"),
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
        let games = convert(&vectors(), name);
        assert_eq!(games.len(), 1, "{name}");
        let error = games[0].as_ref().unwrap_err();
        assert_eq!(error.ply, Some(ply), "{name}");
        assert_eq!(error.token.as_deref(), Some(token), "{name}");
        assert!(error.message.contains(reason), "{name}: {}", error.message);
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
