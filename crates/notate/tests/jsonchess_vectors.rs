//! The jsonchess move codec against the reference vectors in `vectors/jsonchess/`.
//!
//! Every field of every reference string is compared with notate's encoding. Field 7 is the
//! one deliberate difference: notate writes the rights the mover really lost, which the test
//! takes from python-chess's FENs in the vectors (the castling field before and after the
//! move), not from notate; the plies where that differs from the reference are listed.

use std::path::{Path, PathBuf};

use notate::chess::jsonchess::{decode, decode_with, Field7, PackedMove};
use notate::shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, EnPassantMode, Position};
use serde_json::Value;

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/jsonchess")
}

fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(vectors().join(name)).expect("vectors/ in the repository");
    serde_json::from_str(&text).unwrap()
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// Board, side to move and castling rights of a FEN.
fn first_three(fen: &str) -> String {
    fen.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

/// The castling rights the side to move of `before` has in FEN `before` but not in `after`
/// (python-chess's FENs), as field 7 writes them.
fn rights_lost_by_fen(before: &str, after: &str, white: bool) -> &'static str {
    let field = |fen: &str| fen.split(' ').nth(2).unwrap().to_string();
    let (b, a) = (field(before), field(after));
    let (k, q) = if white { ('K', 'Q') } else { ('k', 'q') };
    let lost = |c: char| b.contains(c) && !a.contains(c);
    match (lost(k), lost(q)) {
        (false, false) => "N",
        (true, false) => "K",
        (false, true) => "Q",
        (true, true) => "A",
    }
}

/// Runs one game vector; returns the plies (0-based) where notate's field 7 differs from the
/// reference's.
fn check_game(name: &str) -> Vec<usize> {
    let game = load(&format!("{name}.json"));
    let packed_txt = std::fs::read_to_string(vectors().join(format!("{name}.packed.txt"))).unwrap();
    let history: Vec<&str> = packed_txt.lines().collect();
    let plies = game["plies"].as_array().unwrap();
    assert_eq!(history.len(), plies.len(), "{name}");
    let illegal_at = game["python_first_illegal_ply"]
        .as_u64()
        .map(|p| p as usize);
    let mut pos = Chess::default();
    let mut fen_before = Fen::from_position(&pos, EnPassantMode::Always).to_string();
    let mut differs = Vec::new();
    for (i, ply) in plies.iter().enumerate() {
        let reference = ply["packed"].as_str().unwrap();
        assert_eq!(reference, history[i]);
        let uci: UciMove = ply["uci"].as_str().unwrap().parse().unwrap();
        if Some(i) == illegal_at {
            // The reference library accepts a castling that real chess forbids: notate
            // neither plays nor decodes it.
            assert!(uci.to_move(&pos).is_err(), "{name} ply {i} must be illegal");
            let err = decode_with(&pos, reference, Field7::OrReference).unwrap_err();
            assert_eq!(err.field, 10, "{name} ply {i}: {err}");
            assert_eq!(i + 1, plies.len(), "the illegal castle ends the vector");
            break;
        }
        let mv = uci.to_move(&pos).unwrap();
        let time: u64 = ply["fields"][3].as_str().unwrap().parse().unwrap();
        let ours = PackedMove::encode(&pos, mv, time).to_string();
        let python_after = ply["python_fen_after"].as_str().unwrap();
        let lost = rights_lost_by_fen(&fen_before, python_after, pos.turn().is_white());
        let ref_fields: Vec<&str> = reference.split(',').collect();
        let our_fields: Vec<&str> = ours.split(',').collect();
        assert_eq!(
            our_fields.len(),
            ref_fields.len(),
            "{name} ply {i}: {ours} / {reference}"
        );
        for (f, (a, b)) in our_fields.iter().zip(&ref_fields).enumerate() {
            if f == 6 {
                assert_eq!(*a, lost, "{name} ply {i} field 7: {ours}");
                if a != b {
                    differs.push(i);
                }
            } else {
                assert_eq!(a, b, "{name} ply {i} field {}: {ours} / {reference}", f + 1);
            }
        }
        // notate's string decodes to the move; the reference's string too, where its field 7
        // differs only when asked to read the reference's field 7.
        assert_eq!(decode(&pos, &ours), Ok(mv), "{name} ply {i}: {ours}");
        assert_eq!(
            decode_with(&pos, reference, Field7::OrReference),
            Ok(mv),
            "{name} ply {i}: {reference}"
        );
        if ours != reference {
            assert_eq!(
                decode(&pos, reference).unwrap_err().field,
                7,
                "{name} ply {i}"
            );
        }
        pos.play_unchecked(mv);
        let fen_after = Fen::from_position(&pos, EnPassantMode::Always).to_string();
        assert_eq!(
            first_three(&fen_after),
            first_three(python_after),
            "{name} ply {i}"
        );
        fen_before = fen_after;
    }
    differs
}

// Each list holds the plies (0-based) where notate's field 7 differs from the reference's,
// with the reference's value and the mover's rights before the move.

#[test]
fn g1_opera_game() {
    // 23 Rd8 (N; black had kq): the a8 rook leaves, black loses q. The reference writes
    // nothing for a black rook on the a-file.
    assert_eq!(check_game("g1_opera_game"), [23]);
}

#[test]
fn g2_castle_both_sides_en_passant() {
    // 20 Kh1, 21 Kb8 (A; no rights left after castling): nothing lost.
    assert_eq!(check_game("g2_castle_both_sides_en_passant"), [20, 21]);
}

#[test]
fn g3_promotions() {
    // 17 Kxd7 (A; black had only k): K. 21 Kc6, 23 Kb7 (A; black had none): N.
    // 26 Kd2 (A; white had only Q): Q. 38 Rxb1 (Q), 39 Rxh2 (K), 41 Rxg8 (K): no rights
    // left, nothing lost; the reference writes the rook's file whatever the rights.
    assert_eq!(check_game("g3_promotions"), [17, 21, 23, 26, 38, 39, 41]);
}

#[test]
fn g4_rook_captures_castling_rights() {
    // 26 Kxf1 (A; black had only q): Q. 27 Ke7, 28 Ke2, 29 Kf8 (A; no rights): N.
    assert_eq!(
        check_game("g4_rook_captures_castling_rights"),
        [26, 27, 28, 29]
    );
}

#[test]
fn q1_white_h1_rook_returns_then_castles() {
    // 2 Rg1 (N): the h1 rook leaves, white loses K, so the later O-O is illegal.
    assert_eq!(check_game("q1_white_h1_rook_returns_then_castles"), [2]);
}

#[test]
fn q2_black_a8_rook_returns_then_castles() {
    // 3 Rb8 (N): black loses q, so the later O-O-O is illegal.
    assert_eq!(check_game("q2_black_a8_rook_returns_then_castles"), [3]);
}

#[test]
fn q3_captured_h8_rook_replaced_then_castles() {
    // 7 Ra6 (N; black had q): the a8 rook leaves, black loses q. Black's k was lost when
    // white took on h8 (ply 4), which field 7 of white's move does not carry: it is the
    // board that tells the decoder, so the later O-O is illegal.
    assert_eq!(check_game("q3_captured_h8_rook_replaced_then_castles"), [7]);
}

#[test]
fn single_moves() {
    let cases = load("single_moves.json");
    let time = cases["time_field"].as_u64().unwrap();
    let mut seen = 0;
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let pos = position(case["fen_before"].as_str().unwrap());
        let uci: UciMove = case["uci"].as_str().unwrap().parse().unwrap();
        let mv = uci.to_move(&pos).unwrap();
        let reference = case["packed"].as_str().unwrap();
        let ours = PackedMove::encode(&pos, mv, time).to_string();
        // Where notate differs, why.
        let expected = match name {
            // Standard SAN: the g3 knight is the only one that can legally reach e4 (the c3
            // knight is pinned); the reference ignores pins.
            "pinned_knight_disambiguation" => "1,0,Ne4,1407781765400,g3,e4,N,N",
            // White had only K: castling loses K, not A.
            "castle_kingside_with_check" => "1,0,O-O+,1407781765400,e1,g1,K,N,c,h1,f1",
            // Black had only q.
            "castle_queenside_black_mate_free" => "1,1,O-O-O,1407781765400,e8,c8,Q,N,c,a8,d8",
            // No rights left: nothing lost (the reference writes A for every king move).
            "king_move_without_rights" => "40,78,Kf2,1407781765400,e1,f2,N,N",
            // The h1 rook leaving costs K (the reference never sees white h-file rooks).
            "rook_move_from_h1_with_K_right" => "1,0,Rh5,1407781765400,h1,h5,K,N",
            // The a8 rook leaving costs black q (the reference writes nothing).
            "rook_move_from_a8_with_q_right" => "1,1,Ra5,1407781765400,a8,a5,Q,N",
            // No rights left: nothing lost (the reference writes Q for any a-file rook).
            "fiftymove_clock_and_mate" => "40,78,Ra8#,1407781765400,a1,a8,N,N",
            _ => reference,
        };
        assert_eq!(ours, expected, "{name}");
        if expected != reference {
            seen += 1;
        }
        assert_eq!(decode(&pos, &ours), Ok(mv), "{name}");
        // The reference's own string decodes too (`Nge4` names the same move), its field 7
        // when asked to read the reference's.
        assert_eq!(
            decode_with(&pos, reference, Field7::OrReference),
            Ok(mv),
            "{name}: {reference}"
        );
        let mut after = pos.clone();
        after.play_unchecked(mv);
        assert_eq!(
            first_three(&Fen::from_position(&after, EnPassantMode::Legal).to_string()),
            first_three(case["python_fen_after"].as_str().unwrap()),
            "{name}"
        );
    }
    assert_eq!(seen, 7);
}
