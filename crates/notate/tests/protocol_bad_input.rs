//! jsonchess decoding, protocol messages, key paths, premoves and tracks on arbitrary input:
//! nothing panics, and every error names its field, topic or key part.

use notate::chess::jsonchess::{self, decode, PackedMove};
use notate::protocol::messages::{ClientMessage, ServerMessage};
use notate::protocol::premoves::Premove;
use notate::protocol::updates::{Op, Update};
use notate::shakmaty::{fen::Fen, CastlingMode, Chess, Position, Role, Square};
use proptest::prelude::*;
use serde_json::json;

/// Positions to decode in: the start, a middlegame with castling rights and an en passant
/// square, and a promotion race.
fn positions() -> Vec<Chess> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pp3ppp/2p2n2/3pP3/8/2N5/PPP2PPP/R3K2R w KQkq d6 0 12",
        "8/1P4k1/8/8/8/8/6p1/4K3 b - - 0 50",
    ]
    .iter()
    .map(|f| {
        f.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    })
    .collect()
}

/// Packed strings of legal moves in those positions, to mutate.
fn valid_strings() -> Vec<String> {
    let mut out = Vec::new();
    for pos in positions() {
        for mv in pos.legal_moves() {
            out.push(PackedMove::encode(&pos, mv, 1407781768400).to_string());
        }
    }
    out
}

const MESSAGES: &[&str] = &[
    r#"{"topic":"/game/g1/move","data":{"from":52,"to":60,"promoteTo":"N"}}"#,
    r#"{"topic":"/seek","data":{"initialTime":600000,"timeIncrement":5000,"acceptRatingMin":"-100","acceptRatingMax":"+100"}}"#,
    r#"{"topic":"/game/restore","data":{"gameDetails":{"history":["1,0,e4,0,e2,e4,N,e3"],"startTime":1,"options":{"initialTime":60000,"timeIncrement":0},"addedTime":{"w":0,"b":0},"id":"g1"},"playingAs":"b"}}"#,
    r#"{"topic":"/game/g1/move","data":"3,4,exd6,1407781781169,e5,d6,N,N,ep,d5"}"#,
    r#"{"topic":"/game/g1/game_over","data":{"winner":null,"isDraw":true,"scores":{"w":0.5,"b":0.5},"type":"stalemate","description":"stalemate","summary":"½-½"}}"#,
];

fn mutate(text: &str, edits: &[(prop::sample::Index, char, u8)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (at, c, kind) in edits {
        let i = at.index(chars.len().max(1));
        match kind {
            0 if i < chars.len() => chars[i] = *c,
            1 => chars.insert(i.min(chars.len()), *c),
            _ if i < chars.len() => {
                chars.remove(i);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn edits() -> impl Strategy<Value = Vec<(prop::sample::Index, char, u8)>> {
    proptest::collection::vec(
        (
            any::<prop::sample::Index>(),
            prop::sample::select(vec![
                ',', 'N', 'K', 'A', 'e', '4', '9', 'p', 'c', 'x', '+', '#', '"', '{', '}', ':',
                '/', '0', '1',
            ]),
            0u8..3,
        ),
        1..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn decoding_takes_any_string(text in ".{0,80}", which in 0usize..3) {
        let pos = &positions()[which];
        if let Err(e) = decode(pos, &text) {
            prop_assert!((1..=12).contains(&e.field), "{e}");
        }
    }

    #[test]
    fn decoding_takes_mutated_moves(pick in any::<prop::sample::Index>(), which in 0usize..3, edits in edits()) {
        let strings = valid_strings();
        let text = mutate(&strings[pick.index(strings.len())], &edits);
        let pos = &positions()[which];
        match decode(pos, &text) {
            // What decodes is a legal move that encodes back to the same fields (the time and
            // a reference-style field 7 aside).
            Ok(mv) => {
                prop_assert!(pos.is_legal(mv));
                let again = PackedMove::encode(pos, mv, 0);
                let parsed = PackedMove::parse(&text).unwrap();
                prop_assert_eq!((again.from, again.to, again.extra, again.ep_target, again.rights_lost), (parsed.from, parsed.to, parsed.extra, parsed.ep_target, parsed.rights_lost));
                // The SAN may only differ by wider disambiguation: same piece, capture mark,
                // target, promotion and check mark.
                let strip = |s: &str| -> String {
                    let s = s.trim_end_matches(['+', '#']);
                    let (head, tail) = s.split_at(s.len().saturating_sub(2));
                    let head: String = head.chars().filter(|c| !c.is_ascii_lowercase() && !c.is_ascii_digit() || *c == 'x').collect();
                    format!("{head}{tail}")
                };
                prop_assert_eq!(strip(again.san.as_str()).replace('=', ""), strip(parsed.san.as_str()).replace('=', ""));
                prop_assert_eq!(again.san.as_str().ends_with('+'), parsed.san.as_str().ends_with('+'));
                prop_assert_eq!(again.san.as_str().ends_with('#'), parsed.san.as_str().ends_with('#'));
            }
            Err(e) => prop_assert!((1..=12).contains(&e.field), "{e}"),
        }
    }

    #[test]
    fn jsonchess_games_take_any_string(text in ".{0,200}") {
        let _ = jsonchess::read_str(&text);
    }

    #[test]
    fn messages_take_any_string(text in ".{0,200}") {
        if let Err(e) = ClientMessage::parse(&text) {
            prop_assert!(!e.field.is_empty());
        }
        let _ = ServerMessage::parse(&text);
    }

    #[test]
    fn messages_take_mutated_messages(pick in 0usize..5, edits in edits()) {
        let text = mutate(MESSAGES[pick], &edits);
        for result in [ClientMessage::parse(&text).map(|m| m.to_json()), ServerMessage::parse(&text).map(|m| m.to_json())] {
            match result {
                Ok(_) => {}
                Err(e) => prop_assert!(!e.field.is_empty(), "{e}"),
            }
        }
        // What parses serializes to JSON that parses to the same message.
        if let Ok(msg) = ClientMessage::parse(&text) {
            prop_assert_eq!(ClientMessage::parse(&msg.to_json()), Ok(msg));
        }
        if let Ok(msg) = ServerMessage::parse(&text) {
            prop_assert_eq!(ServerMessage::parse(&msg.to_json()), Ok(msg));
        }
    }

    #[test]
    fn updates_are_all_or_nothing(
        key in prop_oneof![
            "[a-z0-9:.]{0,20}",
            proptest::collection::vec(prop::sample::select(vec!["a", "b", "x", "c", "l", "l:x", "l:3", "b:x", "0", "1", "01", ""]), 1..4).prop_map(|parts| parts.join(".")),
        ], op in 0u8..3, value in prop::sample::select(vec![json!(1), json!("x"), json!({"id": "x"}), json!(null)])) {
        let original = json!({"a": {"b": [1, {"id": "x", "c": []}], "x": 2}, "l": [{"id": "x"}, {"id": 3}]});
        let mut doc = original.clone();
        let op = [Op::Add, Op::Remove, Op::Update][usize::from(op)];
        let update = Update { op, key: key.clone(), value };
        match update.apply(&mut doc) {
            // The update did what it says, at the place its key names.
            Ok(()) => {
                let pointer: String = key
                    .split('.')
                    .map(|part| match part.split_once(':') {
                        Some((name, id)) => {
                            let list = original.pointer(&format!("/{name}")).or_else(|| original.pointer(&format!("/a/{name}")));
                            let at = list.and_then(|l| l.as_array()).and_then(|items| items.iter().position(|e| e["id"].to_string().trim_matches('"') == id)).unwrap_or(usize::MAX);
                            format!("/{name}/{at}")
                        }
                        None => format!("/{part}"),
                    })
                    .collect();
                match op {
                    Op::Update => prop_assert_eq!(doc.pointer(&pointer), Some(&update.value), "{}", pointer),
                    Op::Add => {
                        let items = doc.pointer(&pointer).and_then(|v| v.as_array()).unwrap();
                        let before = original.pointer(&pointer).and_then(|v| v.as_array()).unwrap();
                        prop_assert_eq!(items.len(), before.len() + 1);
                        prop_assert_eq!(items.last(), Some(&update.value));
                    }
                    Op::Remove => {
                        let items = doc.pointer(&pointer).and_then(|v| v.as_array()).unwrap();
                        let before = original.pointer(&pointer).and_then(|v| v.as_array()).unwrap();
                        prop_assert_eq!(items.len() + 1, before.len());
                    }
                }
            }
            Err(e) => {
                prop_assert_eq!(&doc, &original);
                prop_assert!(key.contains(e.part.as_str()), "{}", e);
            }
        }
    }

    #[test]
    fn premoves_take_any_squares(from in 0u32..64, to in 0u32..64, promote in 0usize..7, which in 0usize..3) {
        let pos = &positions()[which];
        let role = [None, Some(Role::Pawn), Some(Role::Knight), Some(Role::Bishop), Some(Role::Rook), Some(Role::Queen), Some(Role::King)][promote];
        if let Ok(premove) = Premove::new(pos, Square::new(from), Square::new(to), role) {
            // The moved piece (or its promotion, of its colour) stands on `to`; `from` is empty.
            let moved = pos.board().piece_at(Square::new(from)).unwrap();
            let after = premove.board_after(pos.board());
            let landed = after.piece_at(Square::new(to)).unwrap();
            prop_assert_eq!(landed.color, moved.color);
            prop_assert_eq!(landed.role, premove.promote_to.unwrap_or(moved.role));
            prop_assert!(after.piece_at(Square::new(from)).is_none());
        }
    }
}
