//! ICN readers on arbitrary and mutated input: no panic, errors with places; and generated
//! games written in every dialect and style read back to the same game.

use std::path::Path;

use notate::infinite::short::{self, Dialect, MoveStyle, WriteOptions};
use notate::infinite::{long, replay, Coord, Game, Int, Move, Piece, PieceKind, Player, Position};
use notate::{Error, ErrorKind};
use proptest::prelude::*;

fn vector_inputs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/icn");
    let mut inputs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".input."))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    inputs.sort();
    inputs
}

fn check_error(e: &Error) {
    assert!(!e.message.is_empty(), "{e:?}");
    match e.kind {
        ErrorKind::Syntax => match (&e.place, &e.path) {
            (Some(place), None) => assert!(
                place.line >= 1
                    && place.column >= 1
                    && e.token.as_ref().is_none_or(|t| !t.is_empty()),
                "{e:?}"
            ),
            (None, Some(path)) => assert!(path.starts_with('$'), "{e:?}"),
            _ => panic!("a syntax error with a place or a path: {e:?}"),
        },
        ErrorKind::Illegal => assert!(e.ply.is_some_and(|p| p >= 1), "{e:?}"),
        ErrorKind::Unwritable => {}
        // A number of more digits than Int::MAX_DIGITS, where it starts.
        ErrorKind::TooLarge => assert!(e.place.is_some() || e.path.is_some(), "{e:?}"),
        _ => panic!(
            "an ICN error is a syntax error, an illegal move, unwritable or too large: {e:?}"
        ),
    }
}

/// Reads `text` both ways; whatever reads also writes, replays, and reads back.
fn exercise(text: &str) {
    for result in [short::read_one(text), long::read_one(text)] {
        match result {
            Err(e) => check_error(&e),
            Ok(game) => {
                for dialect in [Dialect::V2024, Dialect::V2025] {
                    for moves in [MoveStyle::Pretty, MoveStyle::Compact, MoveStyle::Minimal] {
                        let options = WriteOptions {
                            moves,
                            dialect,
                            ..WriteOptions::default()
                        };
                        match short::to_string_with(&game, options) {
                            // A game with nothing to say is an empty 2024 text (as the
                            // reference writes it), which reads as an error, as on the site.
                            Ok(out) if out.trim().is_empty() => {
                                assert_eq!(dialect, Dialect::V2024, "{game:?}");
                                assert!(short::read_one(&out).is_err());
                            }
                            Ok(out) => {
                                let back = short::read_one(&out)
                                    .unwrap_or_else(|e| panic!("{out:?}: {e}"));
                                assert_eq!(back.position, game.position, "{out}");
                            }
                            Err(e) => check_error(&e),
                        }
                    }
                    let _ = long::to_string_with(
                        &game,
                        long::WriteOptions {
                            dialect,
                            legacy_moves: true,
                            pretty: false,
                        },
                    );
                }
                match replay::position_after(&game, None) {
                    Ok(after) => {
                        let json =
                            long::to_string_with(&after, long::WriteOptions::default()).unwrap();
                        assert_eq!(long::read_one(&json).unwrap().position, after.position);
                    }
                    Err(e) => check_error(&e),
                }
            }
        }
    }
}

fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, op, byte) in edits {
        if bytes.is_empty() {
            bytes.push(byte);
            continue;
        }
        let at = at % bytes.len();
        match op % 3 {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

const ICN_BYTES: &[u8] = b" \n|,>x+#=!?{}[]()\"'.:;/_-0123456789wbKkPpQqNnRrAMamHhOBobvo";

fn coord() -> impl Strategy<Value = Coord> {
    let int = prop_oneof![
        4 => (-20i64..20).prop_map(Int::from),
        1 => any::<i64>().prop_map(Int::from),
        1 => "-?[1-9][0-9]{19,40}".prop_map(|s| s.parse::<Int>().unwrap()),
    ];
    (int.clone(), int).prop_map(|(x, y)| Coord { x, y })
}

fn piece() -> impl Strategy<Value = Piece> {
    (0..PieceKind::ALL.len(), any::<bool>()).prop_map(|(i, white)| {
        let kind = PieceKind::ALL[i];
        let player = if kind.is_neutral() {
            Player::Neutral
        } else if white {
            Player::White
        } else {
            Player::Black
        };
        Piece::new(kind, player)
    })
}

fn mv() -> impl Strategy<Value = Move> {
    (
        coord(),
        coord(),
        piece(),
        proptest::option::of(piece()),
        any::<(bool, bool, bool)>(),
        proptest::option::of((
            "[a-z]{1,5}( [a-z]{1,5})?",
            proptest::option::of(0u64..40_000_000),
        )),
        proptest::sample::select(vec!["", "!", "?", "!!", "??", "!?", "?!"]),
    )
        .prop_map(
            |(from, to, piece, promotion, (capture, check, mate), comment, annotation)| {
                let mut mv = Move::new(from, to);
                mv.piece = Some(piece);
                mv.promotion =
                    promotion.filter(|p| p.kind != PieceKind::Pawn && p.player != Player::Neutral);
                mv.capture = capture;
                mv.check = check && !mate;
                mv.mate = mate;
                if let Some((text, clock)) = comment {
                    mv.notes_mut().comment = Some(text);
                    mv.notes_mut().clock_ms = clock.map(|c| c * 100);
                }
                if !annotation.is_empty() {
                    mv.notes_mut().annotation = annotation.into();
                }
                mv
            },
        )
}

fn game() -> impl Strategy<Value = Game> {
    (
        proptest::collection::vec((coord(), piece(), any::<bool>()), 1..40),
        proptest::collection::vec(mv(), 0..30),
        proptest::option::of(any::<bool>()),
        proptest::option::of(0u64..1000),
    )
        .prop_map(|(pieces, moves, turn, full_move)| {
            let mut position = Position::new();
            for (square, piece, right) in pieces {
                if position.get(&square).is_none() {
                    if right {
                        position.set_special_right(square.clone());
                    }
                    position.insert(square, piece);
                }
            }
            Game {
                turn: turn.map(|w| if w { Player::White } else { Player::Black }),
                full_move: full_move.map(|n| n + 1),
                position: Some(position),
                moves: Some(moves),
                ..Game::default()
            }
        })
}

fn comment_and_clock(mv: &Move) -> Option<(Option<String>, Option<u64>)> {
    mv.notes
        .as_ref()
        .filter(|n| n.comment.is_some() || n.clock_ms.is_some())
        .map(|n| (n.comment.clone(), n.clock_ms))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        exercise(&text);
    }

    #[test]
    fn arbitrary_icn_bytes_never_panic(bytes in proptest::collection::vec(proptest::sample::select(ICN_BYTES.to_vec()), 0..120)) {
        exercise(&String::from_utf8(bytes).unwrap());
    }

    #[test]
    fn mutated_vectors_never_panic(i in 0usize..1000, edits in proptest::collection::vec((any::<usize>(), any::<u8>(), proptest::sample::select(ICN_BYTES.to_vec())), 1..6)) {
        let inputs = vector_inputs();
        exercise(&mutate(&inputs[i % inputs.len()], &edits));
    }

    #[test]
    fn written_games_read_back(game in game()) {
        for dialect in [Dialect::V2024, Dialect::V2025] {
            for moves in [MoveStyle::Pretty, MoveStyle::Compact, MoveStyle::Minimal] {
                let options = WriteOptions { moves, dialect, ..WriteOptions::default() };
                let out = short::to_string_with(&game, options).unwrap();
                let back = short::read_one(&out).unwrap_or_else(|e| panic!("{out}\n{e}"));
                prop_assert_eq!(&back.position, &game.position);
                // The 2025 dialect always writes the turn (White's by default).
                let turn = if dialect == Dialect::V2025 { game.turn.or(Some(Player::White)) } else { game.turn };
                prop_assert_eq!(back.turn, turn);
                let (got, want) = (back.moves.unwrap_or_default(), game.moves.clone().unwrap_or_default());
                prop_assert_eq!(got.len(), want.len());
                for (g, w) in got.iter().zip(&want) {
                    prop_assert_eq!((&g.from, &g.to, g.promotion), (&w.from, &w.to, w.promotion));
                    if moves != MoveStyle::Minimal {
                        prop_assert_eq!((g.piece, g.capture, g.check, g.mate), (w.piece, w.capture, w.check, w.mate));
                    }
                    if moves != MoveStyle::Minimal || dialect == Dialect::V2025 {
                        prop_assert_eq!(comment_and_clock(g), comment_and_clock(w));
                    }
                }
            }
            let json = long::to_string_with(&game, long::WriteOptions { dialect, ..Default::default() }).unwrap();
            let back = long::read_one(&json).unwrap();
            prop_assert_eq!(&back.position, &game.position);
            let moves = back.moves.unwrap_or_default();
            for (g, w) in moves.iter().zip(game.moves.as_deref().unwrap_or_default()) {
                prop_assert_eq!((&g.from, &g.to, g.promotion), (&w.from, &w.to, w.promotion));
                if dialect == Dialect::V2025 {
                    prop_assert_eq!(g.notes.as_ref().and_then(|n| n.comment.clone()), w.notes.as_ref().and_then(|n| n.comment.clone()));
                }
            }
        }
    }
}

/// Inputs that would be slow for a parser that looked back or ahead repeatedly.
#[test]
fn pathological_inputs_are_refused_quickly() {
    for text in [
        "[".repeat(200_000),
        "[a \"b\"]".repeat(50_000),
        format!("w K1,1 1,1>1,2{}", "{".repeat(200_000)),
        format!("w K1,1 {}", "1,1>1,2|".repeat(100_000)),
        "(".repeat(200_000),
        format!("{}K1,1", "{\"a\":".repeat(100_000)),
        "K1,1|".repeat(100_000),
    ] {
        exercise(&text);
    }
}

/// A number of a million digits took seconds to read (its arithmetic grows with the square
/// of its length): more than `Int::MAX_DIGITS` digits is an error, in every place a number
/// stands, where it starts; `Int::MAX_DIGITS` digits still read exactly.
#[test]
fn a_number_of_too_many_digits_is_an_error_where_it_starts() {
    let long = "9".repeat(Int::MAX_DIGITS + 1);
    let longest = "9".repeat(Int::MAX_DIGITS);
    let too_large = |result: Result<Game, Error>| {
        let e = result.expect_err("too many digits");
        assert_eq!(e.kind, ErrorKind::TooLarge, "{e:?}");
        assert_eq!(
            e.message,
            format!("a number of more than {} digits", Int::MAX_DIGITS)
        );
        e
    };
    // The short form: a piece's square (either number), a move, an en passant square.
    for (text, column) in [
        (format!("w K{long},1|k5,8"), 4),
        (format!("w K1,-{long}|k5,8"), 6),
        (format!("w K1,1|k5,8 1,1>{long},2"), 17),
        (format!("w {long},1 K1,1|k5,8"), 3),
    ] {
        let e = too_large(short::read_one(&text));
        assert_eq!(
            e.place.map(|p| (p.line, p.column)),
            Some((1, column)),
            "{text:.40}"
        );
    }
    // The long form: a coordinate in an array, in a string, in a square's key.
    for (json, path) in [
        (
            format!(
                r#"{{"metadata":{{}},"startingPosition":{{"1,1":"kingsW"}},"moves":[{{"startCoords":[1,1],"endCoords":[{long},1]}}]}}"#
            ),
            "$.moves[0].endCoords",
        ),
        (
            format!(
                r#"{{"metadata":{{}},"moves":[{{"startCoords":"1,{long}","endCoords":[1,2]}}]}}"#
            ),
            "$.moves[0].startCoords",
        ),
        (
            format!(r#"{{"metadata":{{}},"startingPosition":{{"{long},1":"kingsW"}}}}"#),
            "$.startingPosition",
        ),
    ] {
        let e = too_large(long::read_one(&json));
        assert!(
            e.path.as_deref().is_some_and(|p| p.starts_with(path)),
            "{e:?}"
        );
    }
    // The most digits a number may have.
    let game = short::read_one(&format!("w K{longest},1|k5,8")).unwrap();
    let square = game.position.unwrap().iter().next().unwrap().0.clone();
    assert_eq!(square.to_string(), format!("{longest},1"));
}

/// Found by fuzzing: a piece name ending in a multi-byte character (`"pawnsB\u{feff}"`)
/// panicked the long-form reader ("end byte index 8 is not a char boundary"). It is an error
/// with its path.
#[test]
fn a_piece_name_ending_in_a_multi_byte_character_is_an_error() {
    let e = long::read_one("{\"metadata\":{},\"startingPosition\":{\"1,1\":\"pawnsB\u{feff}\"}}")
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("$.startingPosition.1,1"), "{e}");
    check_error(&e);
}

/// Found by `mutated_vectors_never_panic` in CI: `read_one` of a text of two games said so
/// with no place. The error now points at the second game.
#[test]
fn a_second_game_where_one_was_expected_is_placed() {
    let e = long::read_one("{\"metadata\":{}}\n{\"metadata\":{}}\n").unwrap_err();
    check_error(&e);
    assert_eq!(
        e.to_string(),
        "line 1, column 1: the text holds 2 games where one was expected"
    );
    let e = short::read_one("w K1,1|k5,5\n\nw K1,1|k5,5\n").unwrap_err();
    check_error(&e);
    assert_eq!(e.place.map(|p| p.line), Some(3), "{e}");
}

/// What infinitechess.org's converter refuses (checked with it) is refused, with its line,
/// column and text, where notate used to read something: a tag value holding `"` swallowed
/// the next tag, the empty text read as `w 1`, `01` and `-0` read as numbers, full move 0 and
/// a move-rule counter above its limit were kept.
#[test]
fn what_the_site_refuses_is_refused_with_its_place() {
    for (text, line, column, token, message) in [
        (
            "[Event \"x\"9] [Variant \"Omega\"] w K1,1|k5,5",
            1,
            11,
            "9]",
            "expected `]` after the tag's value (a value holds no `\"`)",
        ),
        (
            "[Event \"a\"b\"]\nw K1,1",
            1,
            11,
            "b\"]",
            "expected `]` after the tag's value (a value holds no `\"`)",
        ),
        ("", 1, 1, "end of input", "the ICN is empty"),
        (
            "w K01,1|k5,5",
            1,
            4,
            "01,1|k5,5",
            "a number is written without leading zeros",
        ),
        (
            "w K1,01|k5,5",
            1,
            6,
            "01|k5,5",
            "a number is written without leading zeros",
        ),
        ("w K-0,1|k5,5", 1, 4, "-0,1|k5,5", "`-0` is written 0"),
        ("w 1 -0,1,2,3 K1,1", 1, 5, "-0,1,2,3", "`-0` is written 0"),
        (
            "w 0 K1,1|k5,5",
            1,
            3,
            "0",
            "the full-move number starts at 1",
        ),
        (
            "w 0/100 01 K1,1",
            1,
            9,
            "01",
            "a number is written without leading zeros",
        ),
        (
            "w 101/100 1 K1,1|k5,5",
            1,
            3,
            "101/100",
            "the move rule's counter 101 is above its limit 100",
        ),
        (
            "w 01/100 1 K1,1",
            1,
            3,
            "01/100",
            "a number is written without leading zeros",
        ),
        (
            "w 0/0 1 K1,1",
            1,
            5,
            "0",
            "the move rule's limit is at least 1",
        ),
        (
            "w (08|1) K1,1",
            1,
            4,
            "08|1)",
            "a number is written without leading zeros",
        ),
        (
            "w 03,4 K1,1",
            1,
            3,
            "03,4",
            "a number is written without leading zeros",
        ),
        (
            "w 1 5,_,0 K1,1",
            1,
            5,
            "5,_,0",
            "a world border is `left,right,bottom,top`",
        ),
        (
            "w Squares:1,01 K1,1",
            1,
            13,
            "01",
            "a number is written without leading zeros",
        ),
        (
            "w Squares:1,1 Squares:2,2 K1,1",
            1,
            15,
            "Squares:2,2",
            "the `Squares:` section is given twice",
        ),
        (
            "w Rays:1,1 K1,1",
            1,
            11,
            " ",
            "expected `>` between a ray's start and its step",
        ),
        (
            "w K1,1 Rays:1,1>0,1",
            1,
            8,
            "Rays:1,1>0,1",
            "the `Rays:` section must come before the position",
        ),
        (
            "w K1,1|k5,5 1,1>2,2|5,5>05,4",
            1,
            25,
            "05,4",
            "a number is written without leading zeros",
        ),
    ] {
        let e = short::read_one(text).unwrap_err();
        check_error(&e);
        let place = e.place.unwrap();
        assert_eq!(
            (
                place.line,
                place.column,
                e.token.as_deref(),
                e.message.as_str()
            ),
            (line, column, Some(token), message),
            "{text:?}"
        );
    }
    let e = short::read_one("w K1,1 1,1>2,2{}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 1, column 15 \"{}\": an empty comment `{}`"
    );
    // What the site accepts, notate too: a counter at its limit, `0` itself, a zero ray.
    for text in [
        "w 100/100 1 K1,1|k5,5",
        "w 0/1 1 K0,0|k-1,0",
        "w 1 Rays:1,1>0,0 K1,1",
        "[Event \"x\"] [Variant \"Omega\"] w K1,1|k5,5",
    ] {
        short::read_one(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// The 2025 world border and presets, in any header order, kept in both forms; the 2024
/// dialect cannot write them and says so.
#[test]
fn world_border_and_presets_are_read_kept_and_written() {
    let site = "[Variant \"Omega_Squared\"] b 3,6 0/100 7 (8|1) 5,_,0,0 royalcapture Squares:-42,76|16,86 Rays:23,94>-1,0|17,88>0,1 K51,94|k46,80";
    let shuffled = "[Variant \"Omega_Squared\"] Rays:23,94>-1,0|17,88>0,1 5,_,0,0 royalcapture 7 Squares:-42,76|16,86 0/100 (8|1) b 3,6 K51,94|k46,80";
    let options = WriteOptions {
        moves: MoveStyle::Minimal,
        single_line: true,
        dialect: Dialect::V2025,
        ..WriteOptions::default()
    };
    for text in [site, shuffled] {
        let game = short::read_one(text).unwrap();
        let border = game.world_border.as_ref().unwrap();
        assert_eq!(
            (&border.left, &border.right, &border.bottom, &border.top),
            (
                &Some(Int::from(5)),
                &None,
                &Some(Int::from(0)),
                &Some(Int::from(0))
            )
        );
        assert_eq!(
            short::to_string_with(&game, options).unwrap(),
            format!("{site}\n")
        );
        let json = long::to_string_with(
            &game,
            long::WriteOptions {
                pretty: false,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(
            json.contains(r#""presetAnnotes":{"squares":[[-42,76],[16,86]],"rays":[{"start":[23,94],"vector":[-1,0]},{"start":[17,88],"vector":[0,1]}]}"#),
            "{json}"
        );
        assert!(json.contains(r#""worldBorder":[5,null,0,0]"#), "{json}");
        let back = long::read_one(&json).unwrap();
        assert_eq!(
            (&back.presets, &back.world_border),
            (&game.presets, &game.world_border)
        );
        let e = short::to_string(&game).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unwritable, "{e}");
    }
    // A world border right after the turn, as the issue has it.
    let game = short::read_one("w 5,_,0,0 K1,1").unwrap();
    assert_eq!(
        short::to_string_with(&game, options).unwrap(),
        "w 1 5,_,0,0 K1,1\n"
    );
    let game = short::read_one("w _,-5,_,10000000000000000000000000000000000000000 K1,1").unwrap();
    assert_eq!(
        short::to_string_with(&game, options).unwrap(),
        "w 1 _,-5,_,10000000000000000000000000000000000000000 K1,1\n"
    );
}

/// Found by fuzzing: a long-form game with nothing in it (`{"metadata": {}}`) was written as
/// an empty short text, which the reader refuses (as the site does): the writer refuses it.
#[test]
fn a_game_with_nothing_to_write_is_refused_not_written_empty() {
    let game = long::read_one("{\n  \"metadata\": {}\n}").unwrap();
    let options = |dialect| WriteOptions {
        dialect,
        ..WriteOptions::default()
    };
    let err = short::to_string_with(&game, options(Dialect::V2024)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unwritable, "{err}");
    assert!(err.to_string().contains("would be empty"), "{err}");
    // The 2025 dialect always writes the turn and full move, as the site does.
    let text = short::to_string_with(&game, options(Dialect::V2025)).unwrap();
    assert_eq!(text, "w 1\n");
    assert!(short::read_one(&text).is_ok());
}

/// Found by fuzzing: win conditions with an empty side (`"white": []`) were written
/// `(|allpiecescaptured)`, which the reader took for promotions and refused. Both sides
/// empty or not, the text reads back to the same conditions.
#[test]
fn win_conditions_with_an_empty_side_read_back() {
    for (white, black) in [("[]", "[\"allpiecescaptured\"]"), ("[\"checkmate\"]", "[]")] {
        let json = format!(
            "{{\"metadata\":{{}},\"turn\":\"white\",\"gameRules\":{{\"winConditions\":{{\"white\":{white},\"black\":{black}}}}},\"startingPosition\":{{\"5,1\":\"kingsW\",\"5,8\":\"kingsB\"}}}}"
        );
        let game = long::read_one(&json).unwrap();
        for dialect in [Dialect::V2024, Dialect::V2025] {
            let options = WriteOptions {
                dialect,
                ..WriteOptions::default()
            };
            let text = short::to_string_with(&game, options).unwrap();
            let back = short::read_one(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.win_conditions, game.win_conditions, "{text}");
        }
    }
}

/// Found by fuzzing: the long form took `"fullMove": 0` (and a move rule over its limit),
/// which the short form refuses, so the short text written from it did not read back. The
/// long form refuses them too, naming the key.
#[test]
fn the_long_form_refuses_what_the_short_form_refuses() {
    for (key, value, message) in [
        ("fullMove", "0", "the full-move number starts at 1"),
        (
            "moveRule",
            "\"101/100\"",
            "the move rule's counter 101 is above its limit 100",
        ),
        ("moveRule", "\"0/0\"", "the move rule's limit is at least 1"),
    ] {
        let json = format!("{{\"metadata\":{{}},\"turn\":\"white\",\"{key}\":{value}}}");
        let err = long::read_one(&json).unwrap_err();
        assert_eq!(
            err.path.as_deref(),
            Some(format!("$.{key}").as_str()),
            "{err}"
        );
        assert!(err.to_string().contains(message), "{err}");
    }
    assert!(long::read_one("{\"metadata\":{},\"fullMove\":1,\"moveRule\":\"100/100\"}").is_ok());
}

/// An error deep in the long form names the whole path down to the bad value (the path is
/// built only when an error names it, from the keys and indexes passed down).
#[test]
fn long_form_errors_name_the_path_down_to_the_value() {
    for (json, path) in [
        (
            r#"{"metadata":{},"moves":["1,2>1,3",{"startCoords":[1,7],"endCoords":"x"}]}"#,
            "$.moves[1].endCoords",
        ),
        (
            r#"{"metadata":{},"moves":[{"startCoords":[1,7],"endCoords":[1,6],"castle":{"dir":"x"}}]}"#,
            "$.moves[0].castle.dir",
        ),
        (
            r#"{"metadata":{},"gameRules":{"promotionRanks":[8,1],"promotionsAllowed":{"white":["queens"],"black":["pawns"]}}}"#,
            "$.gameRules.promotionsAllowed.black",
        ),
        (
            r#"{"metadata":{},"gameRules":{"promotionRanks":[8,[1,"x"]]}}"#,
            "$.gameRules.promotionRanks[1]",
        ),
        (
            r#"{"metadata":{},"presetAnnotes":{"rays":[{"start":[0,0],"vector":[1,1]},{"start":[0,0],"vector":"q"}]}}"#,
            "$.presetAnnotes.rays[1].vector",
        ),
        (r#"{"metadata":{"Event":7}}"#, "$.metadata.Event"),
        (
            r#"{"metadata":{},"gameRules":{"winConditions":{"white":["checkmate"],"grey":[]}}}"#,
            "$.gameRules.winConditions.grey",
        ),
    ] {
        let e = long::read_one(json).unwrap_err();
        assert_eq!(e.path.as_deref(), Some(path), "{json}: {e}");
        check_error(&e);
    }
}

/// A number in exponent form is refused with a message that says how to write it: `1e21` is
/// whole, so "expected a whole number" alone would be wrong.
#[test]
fn a_coordinate_with_an_exponent_says_to_write_it_in_digits() {
    for (number, message) in [
        (
            "1e21",
            "expected a whole number written out in digits, not 1e21",
        ),
        (
            "2E+3",
            "expected a whole number written out in digits, not 2E+3",
        ),
        ("1.5", "expected a whole number, not 1.5"),
        (
            "1.5e3",
            "expected a whole number written out in digits, not 1.5e3",
        ),
        ("true", "expected a whole number, not true"),
        ("\"seven\"", "expected a whole number, not \"seven\""),
    ] {
        let json = format!(r#"{{"moves":[{{"startCoords":[{number},2],"endCoords":[1,4]}}]}}"#);
        let e = long::read_one(&json).unwrap_err();
        assert_eq!(e.path.as_deref(), Some("$.moves[0].startCoords"), "{json}");
        assert!(e.to_string().ends_with(message), "{json}: {e}");
        check_error(&e);
    }
}

/// A key given twice is an error, in a small object (looked through) and in a large one
/// (a hash set from the 16th key on): the 1st, the 16th, the 17th and the 30th key given again,
/// each named; a key written with escapes is the same key.
#[test]
fn a_long_form_key_given_twice_is_an_error() {
    let tags = |n: usize| -> Vec<String> { (1..=n).map(|i| format!("\"T{i}\":\"v\"")).collect() };
    for again in [1, 16, 17, 30] {
        let mut metadata = tags(30);
        metadata.push(format!("\"T{again}\":\"w\""));
        let json = format!("{{\"metadata\":{{{}}}}}", metadata.join(","));
        let e = long::read_one(&json).unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("key \"T{again}\" given twice")),
            "T{again}: {e}"
        );
        assert_eq!(e.path.as_deref(), Some("$.metadata"), "{e}");
        check_error(&e);
    }
    for json in [
        r#"{"metadata":{},"turn":"white","turn":"black"}"#,
        r#"{"metadata":{"Event":"a","Ev\u0065nt":"b"}}"#,
    ] {
        let e = long::read_one(json).unwrap_err();
        assert!(e.to_string().contains("given twice"), "{json}: {e}");
        check_error(&e);
    }
    let json = format!(
        "{{\"metadata\":{{\"Ev\\u0065nt\":\"a\",{}}}}}",
        tags(30).join(",")
    );
    let game = long::read_one(&json).unwrap();
    assert_eq!(game.metadata.len(), 31);
    assert_eq!(game.metadata[0], ("Event".to_string(), "a".to_string()));
}
