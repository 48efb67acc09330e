//! Shogi piece tracks, checked as chess tracks are: the tracks written for a game (the JSON
//! line, read back) are replayed action by action on a board of named pieces, and after every
//! ply that board must be the real position, square by square and hand by hand. The games:
//! every record of the shogi vectors, and random legal games (captures, drops, promotions,
//! pieces changing sides many times) from the start and from positions with pieces in hand.

use std::collections::HashMap;
use std::path::PathBuf;

use notate::shogi::{
    csa, jkf, ki2, kif, tracks, Color, Move, Piece, PieceKind, Position, Record, RecordMove,
    Square, HAND_ORDER,
};
use notate_testdata::SplitMix64;
use serde_json::Value;

/// Where a named piece is, whose it is, and whether it stands promoted.
#[derive(Clone, Copy, Debug, PartialEq)]
struct State {
    square: Option<Square>,
    owner: Color,
    promoted: bool,
}

fn side(text: &str) -> Option<Color> {
    match text {
        "b" => Some(Color::Black),
        "w" => Some(Color::White),
        _ => None,
    }
}

fn square(text: &str) -> Square {
    Square::parse_usi(text.as_bytes()).unwrap_or_else(|| panic!("not a square: {text:?}"))
}

fn kind_of(name: &str) -> PieceKind {
    PieceKind::from_letter(name.as_bytes()[1]).unwrap_or_else(|| panic!("name {name:?}"))
}

/// Replays the tracks of `record` and compares them with its positions after every ply.
fn check(record: &Record, what: &str) {
    let line = tracks::to_string(record).unwrap();
    assert!(
        line.ends_with("}\n") && line.matches('\n').count() == 1,
        "{what}: one line"
    );
    let json: Value = serde_json::from_str(&line).unwrap();
    let mut pieces: HashMap<String, State> = HashMap::new();
    for (name, place) in json["start"].as_object().unwrap() {
        let place = place.as_str().unwrap();
        let state = match side(place) {
            Some(owner) => State {
                square: None,
                owner,
                promoted: false,
            },
            None => {
                let sq = square(&place[..2]);
                State {
                    square: Some(sq),
                    owner: record.start.piece_at(sq).unwrap().color,
                    promoted: place.ends_with('+'),
                }
            }
        };
        assert!(
            pieces.insert(name.clone(), state).is_none(),
            "{what}: {name} twice"
        );
    }
    compare(&pieces, &record.start, &format!("{what}, start"));
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), record.moves.len(), "{what}: plies");
    let mut position = record.start.clone();
    for (i, (written, record_move)) in moves.iter().zip(&record.moves).enumerate() {
        let mover = position.side_to_move();
        assert_eq!(written["ply"], i + 1);
        assert_eq!(written["usi"], record_move.mv.to_string());
        for action in written["actions"].as_array().unwrap() {
            let (name, target) = (action[0].as_str().unwrap(), action[1].as_str().unwrap());
            let state = pieces
                .get_mut(name)
                .unwrap_or_else(|| panic!("{what}, ply {}: unknown piece {name}", i + 1));
            match (target, side(target)) {
                ("+", _) => {
                    assert!(
                        !state.promoted,
                        "{what}, ply {}: {name} promoted twice",
                        i + 1
                    );
                    state.promoted = true;
                }
                (_, Some(hand)) => {
                    assert_eq!(
                        hand,
                        mover,
                        "{what}, ply {}: captures go to the mover",
                        i + 1
                    );
                    *state = State {
                        square: None,
                        owner: hand,
                        promoted: false,
                    };
                }
                (sq, None) => {
                    // A drop comes from the mover's hand; a move, from the mover's board.
                    assert_eq!(
                        state.owner,
                        mover,
                        "{what}, ply {}: {name} is not the mover's",
                        i + 1
                    );
                    state.square = Some(square(sq));
                }
            }
        }
        position.play(record_move.mv).unwrap();
        compare(&pieces, &position, &format!("{what}, after ply {}", i + 1));
    }
}

fn compare(pieces: &HashMap<String, State>, position: &Position, what: &str) {
    let mut board: HashMap<Square, Piece> = HashMap::new();
    let mut hands: HashMap<(Color, PieceKind), u8> = HashMap::new();
    for (name, state) in pieces {
        let kind = kind_of(name);
        match state.square {
            Some(sq) => {
                let kind = if state.promoted {
                    kind.promoted().expect("only promotable pieces turn over")
                } else {
                    kind
                };
                let before = board.insert(sq, Piece::new(state.owner, kind));
                assert!(before.is_none(), "{what}: two pieces on {sq}");
            }
            None => *hands.entry((state.owner, kind)).or_default() += 1,
        }
    }
    for index in 0..81 {
        let sq = Square::from_index(index).unwrap();
        assert_eq!(
            board.get(&sq).copied(),
            position.piece_at(sq),
            "{what}: square {sq}"
        );
    }
    for color in [Color::Black, Color::White] {
        for kind in HAND_ORDER {
            assert_eq!(
                hands.get(&(color, kind)).copied().unwrap_or(0),
                position.hand_count(color, kind),
                "{what}: {color:?}'s {kind:?} in hand"
            );
        }
    }
}

#[test]
fn every_vector_record_replays_to_its_positions() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors/shogi");
    let mut paths: Vec<PathBuf> = Vec::new();
    for directory in [dir.clone(), dir.join("out")] {
        for entry in std::fs::read_dir(directory).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut checked = 0;
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let options = Default::default();
        let records: Vec<Result<Record, notate::Error>> = match path
            .extension()
            .and_then(|e| e.to_str())
        {
            Some("kifu" | "kif") => notate::format::read_bytes::<kif::Kif>(&bytes, options),
            Some("ki2") => notate::format::read_bytes::<ki2::Ki2>(&bytes, options),
            Some("csa") => notate::format::read_bytes::<csa::Csa>(&bytes, options),
            Some("jkf" | "json") if bytes.starts_with(b"{\"header\"") || name.contains("jkf") => {
                notate::format::read_bytes::<jkf::Jkf>(&bytes, options)
            }
            _ => continue,
        };
        for (i, record) in records.into_iter().enumerate() {
            // Some vectors are bad on purpose; the good ones are checked.
            if let Ok(record) = record {
                check(&record, &format!("{name} record {}", i + 1));
                checked += 1;
            }
        }
    }
    assert!(checked >= 50, "only {checked} vector records");
}

/// A random legal game of up to `plies` plies from `start`, preferring captures and drops
/// (so pieces change sides often).
fn random_game(start: Position, plies: usize, random: &mut SplitMix64) -> Record {
    let mut record = Record::new(start.clone());
    let mut position = start;
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let lively: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| match *mv {
                Move::Drop { .. } => true,
                Move::Normal { to, promote, .. } => promote || position.piece_at(to).is_some(),
            })
            .collect();
        let pool = if !lively.is_empty() && random.below(3) > 0 {
            &lively
        } else {
            &moves
        };
        let mv = pool[random.below(pool.len())];
        position.play(mv).unwrap();
        record.moves.push(RecordMove::new(mv));
    }
    record
}

#[test]
fn random_games_replay_to_their_positions() {
    let mut random = SplitMix64::new(22);
    let starts = [
        Position::startpos(),
        // Pieces in hand at the start, a promoted piece on the board, gote to move.
        Position::from_sfen(
            "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL w Bb 12",
        )
        .unwrap(),
        Position::from_sfen("4k4/9/9/9/+R8/9/9/9/4K4 b 2G2S2N2L9Prb2g2s2n2l9p 1").unwrap(),
    ];
    for game in 0..120 {
        let start = starts[game % starts.len()].clone();
        let record = random_game(start, 200, &mut random);
        check(&record, &format!("random game {game}"));
    }
}

#[test]
fn names_follow_the_documented_rules() {
    let record =
        notate::shogi::usi::read_one("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e").unwrap();
    let line = tracks::to_string(&record).unwrap();
    let json: Value = serde_json::from_str(&line).unwrap();
    let start = json["start"].as_object().unwrap();
    assert_eq!(start.len(), 40);
    assert_eq!(start["bK5i"], "5i");
    assert_eq!(start["wR8b"], "8b");
    let actions: Vec<String> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["actions"].to_string())
        .collect();
    assert_eq!(
        actions,
        [
            r#"[["bP7g","7f"]]"#,
            r#"[["wP3c","3d"]]"#,
            r#"[["bB8h","2b"],["bB8h","+"],["wB2b","b"]]"#,
            // The promoted bishop goes to gote's hand under its name, turned back.
            r#"[["wS3a","2b"],["bB8h","w"]]"#,
            // Sente drops the bishop it took: gote's own, still named wB2b.
            r#"[["wB2b","4e"]]"#,
        ]
    );
    let sfen = "4k4/9/9/9/9/9/9/9/4K4 b 2P 1";
    let record = Record::new(Position::from_sfen(sfen).unwrap());
    let line = tracks::to_string(&record).unwrap();
    assert!(line.contains(r#""bP*1":"b","bP*2":"b""#), "{line}");
}

#[test]
fn the_converter_writes_shogi_tracks_as_the_command_line_does() {
    use notate::convert::{Converter, Format, Options};
    let mut converter =
        Converter::new(Format::Usi, Some(Format::Tracks), &Options::default()).unwrap();
    let input = b"position startpos moves 7g7f 3c3d\n";
    let mut out = Vec::new();
    for game in converter.read(input).collect::<Vec<_>>() {
        converter.write(&game.unwrap(), &mut out).unwrap();
    }
    let record = notate::shogi::usi::read_one("position startpos moves 7g7f 3c3d").unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        tracks::to_string(&record).unwrap()
    );
    assert!(Converter::new(Format::Kif, Some(Format::Icn), &Options::default()).is_err());
}
