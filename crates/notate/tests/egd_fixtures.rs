//! The egd gem's own spec fixtures (`f*` in `../shared/vectors/egd/`), which are another
//! project's files and so stay out of the repository. Run by `scripts/shared-suites` (never by
//! `cargo test`), which fails when `../shared` is missing.
//!
//! Same rules as `egd_vectors.rs`: equal where the reference is right, the listed fields
//! differ where it is wrong, notate's own output where it failed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "egd_common/mod.rs"]
mod egd_common;
use egd_common::{canonical, convert, differences, one_line, reference};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors/egd")
}

#[test]
fn same_as_the_reference_where_it_is_right() {
    for name in [
        "f00_readme_example",
        "f01_fen_test",
        "f02_polgar_vs_kasparov",
        // A comment with nested braces: read again with nesting, as the reference reads it.
        "f03_nested",
        "f04_termination",
        "f05_no_termination",
        "f08_chesscom",
    ] {
        let ours = one_line(&fixtures(), name);
        assert_eq!(ours, canonical(&reference(&fixtures(), name)), "{name}");
    }
}

/// A fixture, why notate differs from the reference, and the fields that differ.
type Correction<'a> = (&'a str, &'a str, &'a [(&'a str, Value)]);

#[test]
fn corrected_where_the_reference_is_wrong() {
    let cases: &[Correction] = &[
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
        let diff = differences(&one_line(&fixtures(), name), &reference(&fixtures(), name));
        let expected: BTreeMap<String, Value> = expected
            .iter()
            .map(|(p, v)| (p.to_string(), v.clone()))
            .collect();
        assert_eq!(diff, expected, "{name}: {why}");
    }
}

/// f10 has a token that is no move: the reference raised, notate skips it with a warning.
/// notate's output is `tests/egd/f10_invalid.jsonl`.
#[test]
fn converts_what_the_reference_could_not() {
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/egd/f10_invalid.jsonl"),
    )
    .unwrap();
    let ours: Vec<String> = convert(&fixtures(), "f10_invalid")
        .into_iter()
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(ours, expected.lines().collect::<Vec<_>>());
}

/// Every fixture is accounted for by one of the tests above.
#[test]
fn every_fixture_has_a_test() {
    let source = include_str!("egd_fixtures.rs");
    let mut seen = 0;
    for entry in std::fs::read_dir(fixtures()).expect("../shared/vectors/egd beside the project") {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".pgn").filter(|s| s.starts_with('f')) {
            assert!(
                source.contains(&format!("\"{stem}\"")),
                "{stem} is not in a test"
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 12);
}
