//! Every ICN reference vector (`vectors/icn/index.json`) as a test.
//!
//! Cases not tagged `quirk` must give the reference's output exactly (long form: the same
//! JSON with the same key order; short form: the same bytes). `error` cases must be refused
//! with a message naming the place. `quirk` cases assert notate's corrected behaviour; each
//! says what the reference did.

use std::path::{Path, PathBuf};

use notate::infinite::short::{self, Dialect, MoveStyle, WriteOptions};
use notate::infinite::{long, replay, Game, PieceKind};
use notate::{Error, ErrorKind};
use serde_json::Value;

/// A text as the reference returns it: what notate writes, without the record's newline.
fn reference(text: Result<String, Error>) -> Result<String, Error> {
    text.map(|mut s| {
        s.pop();
        s
    })
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/icn")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// JSON text with the key order kept (`preserve_order`), for order-sensitive comparison.
fn canonical(text: &str) -> String {
    let v: Value = serde_json::from_str(text).expect("valid JSON");
    serde_json::to_string(&v).unwrap()
}

fn to_long(game: &Game) -> String {
    reference(long::to_string_with(game, long::WriteOptions::default())).unwrap()
}

fn write_options(case: &Value) -> WriteOptions {
    let o = &case["options"];
    WriteOptions {
        moves: match o["compact_moves"].as_u64().unwrap_or(0) {
            0 => MoveStyle::Pretty,
            1 => MoveStyle::Compact,
            _ => MoveStyle::Minimal,
        },
        single_line: o["make_new_lines"] == Value::Bool(false),
        position: o["specifyPosition"] != Value::Bool(false),
        dialect: Dialect::V2024,
        ..WriteOptions::default()
    }
}

fn halfmoves(case: &Value) -> Option<usize> {
    match &case["halfmoves"] {
        Value::String(s) if s == "Infinity" => None,
        v => Some(v.as_u64().unwrap() as usize),
    }
}

/// What notate produces for a case: Ok(output text) or Err(error).
fn run(case: &Value) -> Result<String, Error> {
    let input = case["input_file"].as_str().unwrap();
    match case["function"].as_str().unwrap() {
        "ShortToLong_Format" => short::read_one(&read(input)).map(|g| to_long(&g)),
        "LongToShort_Format" => {
            let game = long::read_one(&read(input))?;
            reference(short::to_string_with(&game, write_options(case)))
        }
        "GameToPosition" => {
            let game = long::read_one(&read(input))?;
            replay::position_after(&game, halfmoves(case)).map(|g| to_long(&g))
        }
        "ShortToLong_CompactMove" => short::parse_move(&read(input)).map(|mv| {
            let mut out = serde_json::json!({
                "compact": read(input),
                "startCoords": [mv.from.x.to_i64(), mv.from.y.to_i64()],
                "endCoords": [mv.to.x.to_i64(), mv.to.y.to_i64()],
            });
            if let Some(p) = mv.promotion {
                out["promotion"] = Value::String(p.long_name());
            }
            out.to_string()
        }),
        "LongToShort_CompactMove" => long::move_from_json(&read(input)).map(|mv| short::write_move(&mv, MoveStyle::Minimal, Dialect::V2024)),
        "getStartingPositionAndSpecialRightsFromShortPosition" => {
            short::parse_position(&read(input)).map(|p| {
                let game = Game { position: Some(p), ..Game::default() };
                let v: Value = serde_json::from_str(&to_long(&game)).unwrap();
                serde_json::json!({"startingPosition": v["startingPosition"], "specialRights": v["specialRights"]}).to_string()
            })
        }
        "generateSpecialRights" | "LongToShort_Position_FromGamerules" => {
            let pieces = read(input);
            let game = long::read_one(&format!(r#"{{"metadata":{{}},"startingPosition":{pieces}}}"#))?;
            let mut position = game.position.unwrap();
            let args = case["extra_args"].as_array().unwrap();
            let castle_with = args[1].as_str().and_then(PieceKind::from_plural);
            position.generate_special_rights(args[0].as_bool().unwrap(), castle_with);
            if case["function"] == "generateSpecialRights" {
                let game = Game { position: Some(position), ..Game::default() };
                let v: Value = serde_json::from_str(&to_long(&game)).unwrap();
                Ok(v["specialRights"].to_string())
            } else {
                Ok(short::write_position(&position))
            }
        }
        "convertShortMovesToLong" => short::read_one(&read(input)).map(|g| {
            let moves: Vec<String> = g.moves.unwrap().iter().map(|m| short::write_move(m, MoveStyle::Minimal, Dialect::V2024)).collect();
            serde_json::to_string(&moves).unwrap()
        }),
        f => panic!("unknown function {f}"),
    }
}

fn tags(case: &Value) -> Vec<&str> {
    case["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect()
}

#[test]
fn reference_cases_give_the_reference_output() {
    let index: Value = serde_json::from_str(&read("index.json")).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in index["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        let tags = tags(case);
        if tags.contains(&"quirk") || SAME_QUIRKS.contains(&id) || SITE_REFUSES.contains(&id) {
            continue;
        }
        let got = run(case);
        let output_file = case["output_file"].as_str().unwrap();
        if tags.contains(&"error") || case["output_type"] == "error" {
            match got {
                Err(e) if !e.message.is_empty() => {}
                Err(e) => failures.push(format!("{id}: an error without a message: {e:?}")),
                Ok(out) => failures.push(format!("{id}: accepted, gave {out}")),
            }
        } else {
            let expected = read(output_file);
            match got {
                Err(e) => failures.push(format!("{id}: {e}")),
                Ok(out) => {
                    let same = if case["output_type"] == "json" {
                        canonical(&out) == canonical(&expected)
                    } else {
                        out == expected
                    };
                    if !same {
                        failures.push(format!("{id}:\n got {out}\nwant {expected}"));
                    }
                }
            }
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 72 - SAME_QUIRKS.len() - SITE_REFUSES.len());
}

/// Cases the 2024 reference accepted and infinitechess.org's 2025 converter refuses; notate
/// follows the site: 088, the empty text (the site: "ICN is empty.").
const SITE_REFUSES: [&str; 1] = ["088"];

#[test]
fn site_refuses_088_the_empty_text() {
    for text in [read("088.input.txt"), " \n\t ".into(), "\u{feff}".into()] {
        // Placed at the end, where something was expected.
        let (line, column, token, message) = syntax_error(short::read_one(&text));
        assert_eq!(
            (message.as_str(), token.as_str()),
            ("the ICN is empty", "end of input")
        );
        assert!(line >= 1 && column >= 1, "{text:?}");
    }
}

/// Cases not tagged `quirk` that show a quirk `reference/icn.md` §7 lists: Q9 (case 009 copies
/// the stray comma of `"-4,4>2,-2,"` as 008 does) and Q13 (103, 104, 106, 107: the compact-move
/// parser). They are asserted with the quirks below.
const SAME_QUIRKS: [&str; 5] = ["009", "103", "104", "106", "107"];

fn case(id: &str) -> Value {
    let index: Value = serde_json::from_str(&read("index.json")).unwrap();
    index["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap()
        .clone()
}

fn long_of(text: &str) -> Value {
    serde_json::from_str(&to_long(&short::read_one(text).unwrap())).unwrap()
}

fn syntax_error(result: Result<impl std::fmt::Debug, Error>) -> (usize, usize, String, String) {
    match result {
        Err(Error {
            kind: ErrorKind::Syntax,
            place: Some(place),
            token: Some(token),
            message,
            ..
        }) => (place.line as usize, place.column as usize, token, message),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

/// Q9: the reference copies `"-4,4>2,-2,"` into its output (008, 009). notate refuses the
/// malformed move and says where.
#[test]
fn quirk_008_009_stray_comma_in_a_string_move_is_refused() {
    for id in ["008", "009"] {
        let c = case(id);
        match run(&c) {
            Err(Error {
                path: Some(path),
                message,
                ..
            }) => {
                assert_eq!(path, "$.moves[9]");
                assert!(
                    message.contains("column 10") && message.contains("\",\""),
                    "{message}"
                );
            }
            other => panic!("{id}: {other:?}"),
        }
    }
}

/// Q14: the documented positional call `LongToShort_Format(x, 2, false)` was ignored by the
/// reference (default options, 016). notate's options are named; asking for what the call
/// meant (minimal moves, one line) gives that.
#[test]
fn quirk_016_the_documented_options_work() {
    let game = long::read_one(&read("016.input.json")).unwrap();
    let options = WriteOptions {
        moves: MoveStyle::Minimal,
        single_line: true,
        ..WriteOptions::default()
    };
    let expected = read("012.output.txt").replace('\n', " ");
    assert_eq!(
        reference(short::to_string_with(&game, options)).unwrap(),
        expected
    );
}

/// Q8: the reference ends with blanks: two newlines after an empty move list (027, 080), two
/// spaces on one line (028), a space with no position (043). notate writes the same without
/// the trailing blanks. For an empty game (042) the reference writes a lone newline: an
/// empty text, which reads as no game (the 2025 site refuses it, and so does notate's
/// reader), so notate refuses to write it.
#[test]
fn quirk_027_028_042_043_080_no_trailing_blanks() {
    for id in ["027", "028", "043", "080"] {
        let c = case(id);
        let reference = read(c["output_file"].as_str().unwrap());
        let out = run(&c).unwrap();
        assert_ne!(out, reference, "{id}");
        assert_eq!(out, reference.trim_end(), "{id}");
    }
    let c = case("042");
    assert_eq!(read(c["output_file"].as_str().unwrap()).trim(), "");
    let err = run(&c).unwrap_err();
    assert!(err.to_string().contains("would be empty"), "{err}");
}

/// 034: the reference writes this, but cannot read it back (its tag extraction breaks the
/// JSON rules' array, Q2). notate writes the same and reads it back to the same game.
#[test]
fn quirk_034_written_rules_with_arrays_read_back() {
    let c = case("034");
    let out = run(&c).unwrap();
    assert_eq!(out, read("034.output.txt"));
    let game = long::read_one(&read("034.input.json")).unwrap();
    let back = short::read_one(&out).unwrap();
    assert_eq!(back.extra_rules, game.extra_rules);
    assert_eq!(back.win_conditions, game.win_conditions);
    assert_eq!(back.promotions, game.promotions);
    assert_eq!(back.position, game.position);
    assert_eq!(
        (back.turn, back.en_passant, back.move_rule, back.full_move),
        (game.turn, game.en_passant, game.move_rule, game.full_move)
    );
}

/// 054: the reference reads sections in any order and silently ignores what it cannot place;
/// here JSON rules, a tag and win conditions follow the position. notate stops at the first
/// section after the position.
#[test]
fn quirk_054_sections_after_the_position_are_refused() {
    let (line, column, token, message) = syntax_error(short::read_one(&read("054.input.txt")));
    assert_eq!((line, column), (1, 38));
    assert!(token.starts_with("{\"asdds}sd"), "{token}");
    assert_eq!(message, "the JSON rules must come before the position");
}

/// Q12: `8,16` became rank 8 in the reference (058). notate keeps both ranks (the 2025
/// dialect's several ranks); promotion pieces are read in either case.
#[test]
fn quirk_058_several_promotion_ranks_are_kept() {
    let v = long_of(&read("058.input.txt"));
    assert_eq!(
        v["gameRules"]["promotionRanks"],
        serde_json::json!([[8, 16], 1])
    );
    assert_eq!(
        v["gameRules"]["promotionsAllowed"],
        serde_json::json!({"white": ["queens", "rooks", "amazons"], "black": ["hawks", "knights"]})
    );
}

/// Q1: `(win|win)` without a promotion section made the reference throw `Promotion rank is
/// NaN` (060, and 063 on the writer's own output 062). notate reads both.
#[test]
fn quirk_060_062_063_asymmetric_win_conditions_read_without_promotions() {
    let v = long_of(&read("060.input.txt"));
    assert_eq!(
        v["gameRules"]["winConditions"],
        serde_json::json!({"white": ["checkmate"], "black": ["checkmate", "allpiecescaptured"]})
    );
    let out = run(&case("062")).unwrap();
    assert_eq!(out, read("062.output.txt"));
    let v = long_of(&read("063.input.txt"));
    assert_eq!(
        v["gameRules"]["winConditions"],
        serde_json::json!({"white": ["checkmate"], "black": ["allpiecescaptured"]})
    );
    assert_eq!(
        v["startingPosition"],
        serde_json::json!({"5,1": "kingsW", "5,8": "kingsB"})
    );
}

/// Q4: `e.p.` after a move became the promotion `e` (069). notate reads it as a remark.
#[test]
fn quirk_069_annotation_letters_are_not_a_promotion() {
    let v = long_of(&read("069.input.txt"));
    assert_eq!(v["moves"], serde_json::json!(["4,5>3,6", "5,8>5,7"]));
}

/// Q2: `[%clk …]` inside a move comment became the metadata key `"%clk 0:09:56.7"` (070).
/// notate reads it as the move's clock; the comment keeps the rest.
#[test]
fn quirk_070_clock_in_a_comment_is_a_clock_stamp() {
    let game = short::read_one(&read("070.input.txt")).unwrap();
    assert!(game.metadata.is_empty());
    let notes = game.moves.as_ref().unwrap()[0].notes.as_ref().unwrap();
    assert_eq!(
        (notes.clock_ms, notes.comment.as_deref()),
        (Some(596_700), Some("good"))
    );
    assert_eq!(
        long_of(&read("070.input.txt"))["moves"],
        serde_json::json!(["5,1>5,2", "5,8>5,7"])
    );
}

/// Q5: spaced moves without move numbers were dropped (071: `4,4` became the en passant
/// square) or taken for the position (072). notate reads them as moves.
#[test]
fn quirk_071_072_spaced_moves_without_numbers_are_moves() {
    let v = long_of(&read("071.input.txt"));
    assert_eq!(v["moves"], serde_json::json!(["4,2>4,4", "5,8>5,7"]));
    assert!(v.get("enpassant").is_none());
    let v = long_of(&read("072.input.txt"));
    assert_eq!(v["moves"], serde_json::json!(["4,2>4,4"]));
    assert!(v.get("startingPosition").is_none());
}

/// Q3: extra spaces before the value stayed in the key (`"Event  "`, 073).
#[test]
fn quirk_073_tag_keys_have_no_trailing_spaces() {
    let v = long_of(&read("073.input.txt"));
    assert_eq!(
        v["metadata"],
        serde_json::json!({"Event": "Spaced", "Site": "x y"})
    );
}

/// Q6: unplaceable tokens were ignored or misread: a second `w` became a win condition
/// (074), `x` a win condition and `K1,1+Q2,2` was dropped (078), `junk` stayed in a square
/// key (079); a repeated square kept the later piece (075). notate refuses each, saying where.
#[test]
fn quirk_074_075_078_079_unplaceable_text_is_refused() {
    let (_, column, token, message) = syntax_error(short::read_one(&read("074.input.txt")));
    assert_eq!(
        (column, token.as_str(), message.as_str()),
        (3, "w", "the turn is given twice")
    );
    let (_, column, token, message) = syntax_error(short::read_one(&read("075.input.txt")));
    assert_eq!((column, token.as_str()), (35, "007,-0|K5000,10000+|k2,3"));
    assert_eq!(message, "a number is written without leading zeros");
    let fixed = read("075.input.txt").replace("N007,-0", "N7,0");
    let (_, column, token, message) = syntax_error(short::read_one(&fixed));
    assert_eq!((column, token.as_str()), (39, "K5000,10000+|k2,3"));
    assert_eq!(message, "two pieces on 5000,10000");
    let (_, column, token, message) = syntax_error(short::read_one(&read("078.input.txt")));
    assert_eq!(
        (column, token.as_str(), message.as_str()),
        (3, "x", "unknown win condition \"x\"")
    );
    let (_, column, token, _) = syntax_error(short::read_one(&read("079.input.txt")));
    assert_eq!((column, token.as_str()), (12, "junk"));
    // Q16: leading zeros and -0, which the reference kept as text, are refused as the site's
    // converter does; big numbers stay exact.
    let (_, column, _, message) = syntax_error(short::read_one("w N7,-0|K1,1"));
    assert_eq!((column, message.as_str()), (6, "`-0` is written 0"));
    let v = long_of("w N7,0|q-1000000000000,-7|K5000,10000+");
    assert_eq!(
        v["startingPosition"],
        serde_json::json!({"7,0": "knightsW", "-1000000000000,-7": "queensB", "5000,10000": "kingsW"})
    );
}

/// 076: a JSON rules block holding an array broke the reference (Q2). notate reads it.
#[test]
fn quirk_076_json_rules_may_hold_arrays() {
    let v = long_of(&read("076.input.txt"));
    assert_eq!(v["gameRules"]["extraRanks"], serde_json::json!([3, 4]));
    assert_eq!(v["gameRules"]["slideLimit"], serde_json::json!(7));
}

/// Q2: a tag after the moves was still read as metadata (077). In notate tags come first.
#[test]
fn quirk_077_a_tag_after_the_moves_is_refused() {
    let (line, column, token, message) = syntax_error(short::read_one(&read("077.input.txt")));
    assert_eq!((line, column, token.as_str()), (1, 29, "[Result"));
    assert_eq!(message, "a tag must come before the other sections");
}

/// Q7: with an initial en passant square, the reference deleted the capturing pawn (091).
/// notate removes the captured pawn, beside the capturing pawn's start.
#[test]
fn quirk_091_en_passant_removes_the_captured_pawn() {
    let v: Value = serde_json::from_str(&run(&case("091")).unwrap()).unwrap();
    assert_eq!(
        v["startingPosition"],
        serde_json::json!({"5,8": "kingsB", "4,3": "pawnsB", "4,2": "kingsW"})
    );
    assert_eq!(
        (
            v["moveRule"].as_str(),
            v["fullMove"].as_u64(),
            v["turn"].as_str()
        ),
        (Some("1/100"), Some(2), Some("black"))
    );
}

/// Q7: with no moves the reference returned the input object itself (095); notate returns
/// an equal document.
#[test]
fn quirk_095_no_moves_gives_the_same_document() {
    let out = run(&case("095")).unwrap();
    assert_eq!(canonical(&out), canonical(&read("095.input.json")));
}

/// Q7: the reference crashed on string moves (096). notate replays them.
#[test]
fn quirk_096_string_moves_replay() {
    let v: Value = serde_json::from_str(&run(&case("096")).unwrap()).unwrap();
    // 4,2>4,4 4,7>4,6 4,4>4,5: White's pawn on 4,5, Black's on 4,6; en passant gone. The
    // record has neither turn nor full-move number, and gets none.
    assert_eq!(v["startingPosition"]["4,5"], "pawnsW");
    assert_eq!(v["startingPosition"]["4,6"], "pawnsB");
    assert!(v["startingPosition"].get("4,2").is_none());
    assert_eq!(
        (
            v["turn"].as_str(),
            v["fullMove"].as_u64(),
            v["moveRule"].as_str()
        ),
        (None, None, Some("0/100"))
    );
    assert!(v.get("enpassant").is_none());
    assert!(v["specialRights"].get("4,2").is_none() && v["specialRights"].get("4,7").is_none());
    assert_eq!(v["moves"], serde_json::json!([]));
}

/// Q9: re-reading 008's output, the reference dropped the stray comma (118). notate refuses
/// it, naming the line and column.
#[test]
fn quirk_118_stray_comma_between_moves_is_refused() {
    let (line, column, token, message) = syntax_error(short::read_one(&read("118.input.txt")));
    assert_eq!((line, column), (14, 86));
    assert!(token.starts_with(",|5,1>4,2"), "{token}");
    assert_eq!(message, "expected `|`, a blank or a comment after the move");
}

/// Q13: the compact-move parser took a piece prefix for the promotion (103: `pawnsW`),
/// refused `x` (104), and went through JavaScript numbers (106: `1e23`; 107: a 400-digit
/// number thrown out as infinite). notate reads the piece, the capture and exact numbers.
#[test]
fn quirk_103_104_106_107_compact_moves() {
    let mv = short::parse_move(&read("103.input.txt")).unwrap();
    assert_eq!(mv.piece.unwrap().long_name(), "pawnsW");
    assert_eq!(mv.promotion.unwrap().long_name(), "queensW");
    let mv = short::parse_move(&read("104.input.txt")).unwrap();
    assert!(mv.capture);
    assert_eq!(
        short::write_move(&mv, MoveStyle::Compact, Dialect::V2024),
        "1,2x3,4"
    );
    for id in ["106", "107"] {
        let text = read(&format!("{id}.input.txt"));
        let mv = short::parse_move(&text).unwrap();
        assert_eq!(
            short::write_move(&mv, MoveStyle::Minimal, Dialect::V2024),
            text
        );
        assert_eq!(mv.from.x.to_i64(), None);
    }
}

/// Error cases name the token and its place.
#[test]
fn error_cases_name_the_place() {
    let (line, column, token, message) = syntax_error(short::read_one(&read("081.input.txt")));
    assert!(token.starts_with("XX"), "{line}:{column} {token} {message}");
    assert_eq!(message, "unknown piece code \"XX\"");
    for id in ["082", "083", "084", "085", "086", "087"] {
        let (line, column, token, message) =
            syntax_error(short::read_one(&read(&format!("{id}.input.txt"))));
        assert!(
            line >= 1 && column >= 1 && !token.is_empty() && !message.is_empty(),
            "{id}"
        );
    }
}

/// Every position of `variants.json` reads, and writes back to an equal position, in both
/// dialects (through the short and the long form).
#[test]
fn every_variant_position_round_trips() {
    let variants: Value = serde_json::from_str(&read("variants.json")).unwrap();
    let mut count = 0;
    for variant in variants["variants"].as_array().unwrap() {
        for version in variant["positions"].as_array().unwrap() {
            let Some(text) = version["position"].as_str() else {
                continue;
            };
            let name = variant["code"].as_str().unwrap();
            let position = short::parse_position(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(short::write_position(&position), text, "{name}");
            let game = short::read_one(&format!("w 0/100 1 (8|1) {text}")).unwrap();
            for dialect in [Dialect::V2024, Dialect::V2025] {
                let options = WriteOptions {
                    dialect,
                    ..WriteOptions::default()
                };
                let back =
                    short::read_one(&reference(short::to_string_with(&game, options)).unwrap())
                        .unwrap();
                assert_eq!(back.position, game.position, "{name} {dialect:?}");
                assert_eq!(back.promotions, game.promotions, "{name} {dialect:?}");
                let long_options = long::WriteOptions {
                    dialect,
                    ..Default::default()
                };
                let back =
                    long::read_one(&reference(long::to_string_with(&game, long_options)).unwrap())
                        .unwrap();
                assert_eq!(back.position, game.position, "{name} {dialect:?}");
            }
            count += 1;
        }
    }
    assert_eq!(count, 37);
}

/// A number of the game's rules comes back as the double written: every double, not one
/// last place off (serde_json parses exactly with its `float_roundtrip` feature).
#[test]
fn numbers_of_the_rules_come_back_as_the_doubles_written() {
    for x in [
        "0.39217527067594915",
        "189.67303681636994",
        "-9.039535415048791e166",
    ] {
        let text = format!(r#"{{"metadata":{{}},"gameRules":{{"x":{x}}}}}"#);
        let game = long::read_one(&text).unwrap();
        let back = long::to_string_with(&game, long::WriteOptions::default()).unwrap();
        let value: serde_json::Value = serde_json::from_str(&back).unwrap();
        assert_eq!(
            value["gameRules"]["x"].as_f64(),
            x.parse::<f64>().ok(),
            "{back}"
        );
    }
}
