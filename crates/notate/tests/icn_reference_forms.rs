//! ICN forms FormatConverter.js (the 2024 reference) reads and writes that a black-box
//! comparison found notate reading or writing otherwise. The inputs are our own; each
//! expected output is what FormatConverter.js gives for the same input.

use notate::infinite::short::{self, MoveStyle, WriteOptions};
use notate::infinite::{long, PieceKind};

#[test]
fn a_promotion_apart_from_its_square_is_the_moves_not_the_next_moves_piece() {
    // The original README's long example writes `P2,7 x 1,8 Q`.
    let game = short::read_one("K1,1|P2,7|b-4,4 5. P2,7 x 1,8 Q | b-4,4 > 2,-2 +").unwrap();
    let moves = game.moves.as_ref().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0].promotion.unwrap().kind, PieceKind::Queen);
    assert!(moves[1].promotion.is_none() && moves[1].check);
    let json: serde_json::Value = serde_json::from_str(&long::to_string(&game).unwrap()).unwrap();
    assert_eq!(json["moves"], serde_json::json!(["2,7>1,8Q", "-4,4>2,-2"]));
    // Letters followed by a square are the next move's piece; `e.p.` stays a mark.
    let game = short::read_one("K1,1|P2,7|q-4,4 2,7>1,8 q-4,4>2,-2").unwrap();
    let moves = game.moves.as_ref().unwrap();
    assert!(moves[0].promotion.is_none());
    assert_eq!(moves[1].piece.unwrap().kind, PieceKind::Queen);
    let game = short::read_one("K1,1|P2,5|p3,5 P2,5 x 3,6 e.p.").unwrap();
    assert!(game.moves.as_ref().unwrap()[0].promotion.is_none());
}

const TYPELESS: &str = r#"{"metadata":{"Event":"x"},"turn":"white","fullMove":3,
 "gameRules":{"winConditions":{"white":["checkmate"],"black":["checkmate"]}},
 "startingPosition":{"1,1":"kingsW","5,5":"kingsB","2,7":"pawnsW"},
 "moves":[{"startCoords":[1,1],"endCoords":[1,2],"promotion":null,"type":""},
          {"startCoords":[5,5],"endCoords":[5,4],"captured":false,"castle":null},
          {"startCoords":[2,7],"endCoords":[2,8],"promotion":"queensW"}]}"#;

#[test]
fn legacy_move_fields_that_are_null_false_or_empty_are_absent() {
    let game = long::read_one(TYPELESS).unwrap();
    let moves = game.moves.as_ref().unwrap();
    assert!(moves[0].promotion.is_none() && moves[0].piece.is_none());
    assert!(!moves[1].capture);
    // Coordinates are not optional.
    let bad = TYPELESS.replace(r#""startCoords":[1,1]"#, r#""startCoords":null"#);
    assert!(long::read_one(&bad).is_err());
}

#[test]
fn move_objects_without_pieces_are_written_in_the_style_asked_for() {
    let game = long::read_one(TYPELESS).unwrap();
    let written = |moves| {
        let options = WriteOptions {
            moves,
            ..WriteOptions::default()
        };
        short::to_string_with(&game, options).unwrap()
    };
    assert_eq!(
        written(MoveStyle::Pretty),
        "[Event \"x\"]\n\nw 3 K1,1|k5,5|P2,7\n\n3. 1,1 > 1,2 | 5,5 > 5,4\n4. 2,7 > 2,8 =Q\n"
    );
    assert_eq!(
        written(MoveStyle::Compact),
        "[Event \"x\"]\n\nw 3 K1,1|k5,5|P2,7\n\n1,1>1,2|5,5>5,4|2,7>2,8=Q\n"
    );
    // Strings are joined as they are, whatever the style.
    let strings = long::read_one(&TYPELESS.replace(
        r#"{"startCoords":[1,1],"endCoords":[1,2],"promotion":null,"type":""}"#,
        r#""1,1>1,2""#,
    ))
    .unwrap();
    let options = WriteOptions {
        moves: MoveStyle::Pretty,
        ..WriteOptions::default()
    };
    assert!(short::to_string_with(&strings, options)
        .unwrap()
        .ends_with("\n\n1,1>1,2|5,5>5,4|2,7>2,8Q\n"));
}
