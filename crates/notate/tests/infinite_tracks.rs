//! Infinite-chess piece tracks, checked as chess and shogi tracks are: the tracks written for
//! a game (the JSON line, read back) are replayed action by action on a board of named pieces,
//! and after every ply that board must be the real position, square by square. The games:
//! castling both ways, en passant, promotions (one with a capture), fairy and neutral pieces,
//! coordinates past 10^40, every ICN input of the vectors that reads, and random games.

use std::collections::HashMap;
use std::path::PathBuf;

use notate::infinite::replay::Board;
use notate::infinite::{short, tracks, Coord, Game, Move, Piece, PieceKind, Player};
use notate_testdata::SplitMix64;
use serde_json::Value;

/// The side and kind a name stands for: `wP1,7` a white pawn, `wP1,7=Q` the queen it became.
fn piece_of(name: &str) -> (char, String) {
    let side = name.chars().next().unwrap();
    let code = match name.split_once('=') {
        Some((_, code)) => code.to_string(),
        None => name[1..]
            .chars()
            .take_while(char::is_ascii_uppercase)
            .collect(),
    };
    (side, code)
}

fn side_of(player: Player) -> char {
    match player {
        Player::White => 'w',
        Player::Black => 'b',
        Player::Neutral => 'n',
    }
}

fn check(game: &Game, what: &str) {
    let line = tracks::to_string(game).unwrap();
    assert!(
        line.ends_with("}\n") && line.matches('\n').count() == 1,
        "{what}: one line"
    );
    let json: Value = serde_json::from_str(&line).unwrap();
    let mut squares: HashMap<String, String> = HashMap::new(); // name → square
    for (name, square) in json["start"].as_object().unwrap() {
        squares.insert(name.clone(), square.as_str().unwrap().to_string());
    }
    let mut board = Board::new(game);
    compare(&squares, &board, &format!("{what}, start"));
    let moves = json["moves"].as_array().unwrap();
    let played: &[Move] = game.moves.as_deref().unwrap_or(&[]);
    assert_eq!(moves.len(), played.len(), "{what}: plies");
    for (i, (written, mv)) in moves.iter().zip(played).enumerate() {
        assert_eq!(written["ply"], i + 1);
        for action in written["actions"].as_array().unwrap() {
            let (name, target) = (action[0].as_str().unwrap(), action[1].as_str().unwrap());
            match target {
                "x" | "p" => {
                    assert!(
                        squares.remove(name).is_some(),
                        "{what}, ply {}: {name} was not on the board",
                        i + 1
                    );
                }
                square => {
                    squares.insert(name.to_string(), square.to_string());
                }
            }
        }
        board.play(mv, i + 1).unwrap();
        compare(&squares, &board, &format!("{what}, after ply {}", i + 1));
    }
}

fn compare(squares: &HashMap<String, String>, board: &Board, what: &str) {
    let mut drawn: HashMap<String, (char, String)> = HashMap::new();
    for (name, square) in squares {
        assert!(
            drawn.insert(square.clone(), piece_of(name)).is_none(),
            "{what}: two pieces on {square}"
        );
    }
    let real: HashMap<String, (char, String)> = board
        .position
        .iter()
        .map(|(square, piece)| {
            (
                square.to_string(),
                (side_of(piece.player), piece.kind.code().to_string()),
            )
        })
        .collect();
    assert_eq!(drawn, real, "{what}");
}

#[test]
fn castling_en_passant_promotion_fairies_and_far_squares() {
    for (text, what) in [
        ("w K5,1+|R1,1+|R8,1+|k5,8+|r1,8+|r8,8+ 5,1>7,1|5,8>3,8|1,1>1,5|3,8>2,8", "castling both ways"),
        ("w K5,1|k5,8|P4,5+|p3,7+|P7,2+|p8,4 7,2>7,4|8,4>7,3|5,1>5,2|3,7>3,5|4,5>3,6", "en passant both ways"),
        ("w K5,1|k5,8|P1,7|r2,8|p7,2 1,7>2,8=Q|7,2>7,1=n|2,8>2,1|7,1>5,2", "promotions, one taking"),
        ("w K5,1|k5,8|AM3,3|ha4,4|ob0,0|vo1,1|CH-2,-2 3,3>4,4|5,8>5,7|4,4>0,0", "fairy and neutral pieces"),
        (
            "w K10000000000000000000000000000000000000000,1|k-10000000000000000000000000000000000000000,8|Q1,1 \
             1,1>99999999999999999999999999999999999999999,99999999999999999999999999999999999999999|\
             -10000000000000000000000000000000000000000,8>-10000000000000000000000000000000000000001,8",
            "squares past 10^40",
        ),
    ] {
        let game = short::read_one(text).unwrap_or_else(|e| panic!("{what}: {e}"));
        check(&game, what);
    }
    // The names of the documentation.
    let game = short::read_one("w K5,1+|R8,1+|P1,7|r2,8|k5,8 5,1>7,1|2,8>2,7|1,7>1,8=Q").unwrap();
    let line = tracks::to_string(&game).unwrap();
    assert!(
        line.contains(r#"{"ply":1,"icn":"5,1>7,1","actions":[["wK5,1","7,1"],["wR8,1","6,1"]]}"#),
        "{line}"
    );
    assert!(
        line.contains(r#"["wP1,7","1,8"],["wP1,7","p"],["wP1,7=Q","1,8"]"#),
        "{line}"
    );
}

#[test]
fn every_icn_vector_input_that_reads() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors/icn");
    let mut checked = 0;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".input.txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Quirk inputs that notate refuses are the vector tests' business.
        if let Ok(game) = short::read_one(&text)
            && notate::infinite::replay::replay(&game).is_ok()
        {
            check(&game, &name);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} vector games");
}

#[test]
fn random_games() {
    let mut random = SplitMix64::new(7);
    let start = "w K5,1+|Q4,1|R1,1+|R8,1+|B3,1|N2,1|P1,2+|P2,2+|P3,2+|P4,2+|k5,8+|q4,8|r1,8+|r8,8+|b3,8|n2,8|p1,7+|p2,7+|p3,7+|p4,7+|ob0,4|AM9,4|ha-1,5";
    for game_number in 0..60 {
        let mut game = short::read_one(start).unwrap();
        let mut board = Board::new(&game);
        let mut moves = Vec::new();
        for ply in 1..=120 {
            let mine: Vec<(Coord, Piece)> = board
                .position
                .iter()
                .filter(|(_, p)| p.player == board.turn)
                .map(|(c, p)| (c.clone(), p))
                .collect();
            if mine.is_empty() {
                break;
            }
            let (from, piece) = mine[random.below(mine.len())].clone();
            // Near the piece, or far now and then; onto anything but its own side's pieces.
            let reach = if random.below(10) == 0 { 1_000_000 } else { 3 };
            let delta = |r: &mut SplitMix64| r.below(2 * reach + 1) as i64 - reach as i64;
            let to = Coord {
                x: from.x.add_i64(delta(&mut random)),
                y: from.y.add_i64(delta(&mut random)),
            };
            if to == from
                || board
                    .position
                    .get(&to)
                    .is_some_and(|p| p.player == piece.player)
            {
                continue;
            }
            let mut mv = Move::new(from, to);
            if piece.kind == PieceKind::Pawn && random.below(4) == 0 {
                mv.promotion = Some(Piece {
                    kind: [PieceKind::Queen, PieceKind::Knight, PieceKind::Amazon][random.below(3)],
                    player: piece.player,
                });
            }
            board.play(&mv, ply).unwrap();
            moves.push(mv);
        }
        game.moves = Some(moves);
        check(&game, &format!("random game {game_number}"));
    }
}
