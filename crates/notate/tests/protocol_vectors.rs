//! Premoves and Glicko-2 against the reference vectors in `vectors/jsonchess/`.

use std::path::Path;

use notate::protocol::glicko2::{rate, RatedResult, Rating};
use notate::protocol::premoves::{Premove, PremoveError, PremoveJson};
use notate::shakmaty::{fen::Fen, CastlingMode, Chess, Position, Role, Square};
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors/jsonchess")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).expect("vectors/ in the repository"))
        .unwrap()
}

fn position(description: &str) -> Chess {
    let fen = match description {
        "initial position" => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "initial position with f1,g1 emptied" => {
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1"
        }
        fen => fen,
    };
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn square(v: &Value) -> Square {
    v.as_str().unwrap().parse().unwrap()
}

#[test]
fn premoves() {
    let cases = load("premoves.json");
    let mut castling = 0;
    for case in cases["cases"].as_array().unwrap() {
        let note = case["note"].as_str().unwrap();
        let pos = position(case["position"].as_str().unwrap());
        let promote_to = case["promoteTo_arg"]
            .as_str()
            .map(|s| Role::from_char(s.chars().next().unwrap()).unwrap());
        let result = Premove::new(&pos, square(&case["from"]), square(&case["to"]), promote_to);
        if case.get("exception").is_some() {
            // The reference throws on every castling premove; notate decides.
            castling += 1;
            if note.contains("no rights") {
                assert!(
                    matches!(result, Err(PremoveError::Castling(..))),
                    "{note}: {result:?}"
                );
            } else {
                let premove = result.unwrap();
                assert_eq!(
                    serde_json::to_string(&PremoveJson::from(premove)).unwrap(),
                    r#"{"from":4,"to":6}"#
                );
                assert_eq!(
                    premove.board_after(pos.board()).to_string(),
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1"
                );
            }
            continue;
        }
        let valid = case["isValid"].as_bool().unwrap();
        assert_eq!(result.is_ok(), valid, "{note}: {result:?}");
        if let Ok(premove) = result {
            assert_eq!(
                serde_json::to_value(PremoveJson::from(premove)).unwrap(),
                case["toJSON"],
                "{note}"
            );
            assert_eq!(
                premove.board_after(pos.board()).to_string(),
                case["boardAfter"].as_str().unwrap(),
                "{note}"
            );
        }
    }
    assert_eq!(castling, 2);
}

fn rating(v: &Value) -> Rating {
    Rating {
        rating: v["rating"].as_f64().unwrap(),
        rd: v["rd"].as_f64().unwrap(),
        vol: v["vol"].as_f64().unwrap(),
    }
}

#[test]
fn glicko2() {
    let vectors = load("glicko2_vectors.json");
    for v in vectors["vectors"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let results: Vec<RatedResult> = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| RatedResult {
                opponent: rating(&r["opponent"]),
                score: r["score"].as_f64().unwrap(),
            })
            .collect();
        let after = rate(rating(&v["before"]), &results, v["tau"].as_f64().unwrap());
        let expected = rating(&v["after"]);
        assert!(
            (after.rating - expected.rating).abs() < 1e-6,
            "{name}: {after:?}"
        );
        assert!((after.rd - expected.rd).abs() < 1e-6, "{name}: {after:?}");
        assert!((after.vol - expected.vol).abs() < 1e-6, "{name}: {after:?}");
    }
}
