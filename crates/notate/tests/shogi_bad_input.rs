//! Bad input never panics the shogi readers: arbitrary bytes, broken Shift_JIS, mutated
//! vectors; errors carry their place. And random legal games (notate's own generator) go
//! through every writer and back unchanged, while the fast legality test agrees with the
//! full move generator.

use notate::shogi::encoding::Encoding;
use notate::shogi::encoding::ReadOptions;
use notate::shogi::{book, csa, jkf, ki2, kif, usi, western, Move, Position, Record, RecordMove};
use notate::{Error, ErrorKind};
use proptest::prelude::*;

fn vector(name: &str) -> Vec<u8> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors/shogi")
        .join(name);
    std::fs::read(path).unwrap()
}

/// Every reader on the bytes; returns the errors (which must name a line inside the text
/// when they name one).
fn read_everything(bytes: &[u8]) -> Vec<Error> {
    let lines = bytes.split(|&b| b == b'\n').count().max(1);
    let mut results: Vec<Result<Record, Error>> = Vec::new();
    for encoding in [None, Some(Encoding::Utf8), Some(Encoding::ShiftJis)] {
        results.extend(notate::format::read_bytes::<kif::Kif>(
            bytes,
            ReadOptions { encoding },
        ));
        results.extend(notate::format::read_bytes::<ki2::Ki2>(
            bytes,
            ReadOptions { encoding },
        ));
        results.extend(notate::format::read_bytes::<csa::Csa>(
            bytes,
            ReadOptions { encoding },
        ));
    }
    let text = String::from_utf8_lossy(bytes);
    results.push(jkf::read_one(&text));
    results.extend(usi::Reader::new(text.as_bytes()));
    results.push(western::read_one(&text));
    results.extend(book::Reader::new(text.as_bytes()));
    let _ = Position::from_sfen(&text);
    let errors: Vec<Error> = results.into_iter().filter_map(Result::err).collect();
    for e in &errors {
        if let Some(line) = e.place.map(|p| p.line as usize).filter(|&l| l > 0) {
            assert!(
                line >= 1 && line <= lines + 1,
                "{e} (text has {lines} lines)"
            );
        }
        assert!(!e.to_string().is_empty());
    }
    errors
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        read_everything(&bytes);
    }

    #[test]
    fn record_like_text_never_panics(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("   1 ７六歩(77)   ( 0:05/00:00:05)".to_string()),
                Just("   2 同　銀(31)".to_string()),
                Just("▲７六歩    △３四歩    ▲２二角不成  △同　銀".to_string()),
                Just("+7776FU,T5".to_string()),
                Just("P-00AL".to_string()),
                Just("PI82HI".to_string()),
                Just("P1 *  *  *  * -OU *  *  *  * ".to_string()),
                Just("変化：3手".to_string()),
                Just("| ・ ・ ・ ・v玉 ・ ・ ・ ・|一".to_string()),
                Just("後手の持駒：飛二　歩十八".to_string()),
                Just("まで10手で後手の勝ち".to_string()),
                Just("%TORYO".to_string()),
                "[ -~]{0,30}",
                "[０-９一-九歩香桂銀金角飛玉と成同打不()0-9 　▲△]{0,20}",
            ],
            0..12,
        )
    ) {
        read_everything(lines.join("\n").as_bytes());
    }

    #[test]
    fn broken_shift_jis_is_an_error_with_a_line(
        prefix in proptest::collection::vec(0x20u8..0x7f, 0..60),
        lead in 0x81u8..0xa0,
        trail in prop_oneof![Just(0x0au8), Just(0x20), Just(0x7f), 0xfdu8..=0xff],
    ) {
        let mut bytes = prefix.clone();
        bytes.push(b'\n');
        bytes.push(lead);
        bytes.push(trail);
        for e in notate::format::read_bytes::<kif::Kif>(&bytes, ReadOptions { encoding: Some(Encoding::ShiftJis) }).into_iter().filter_map(Result::err) {
            if e.kind != ErrorKind::Encoding {
                continue;
            }
            let line = e.place.expect("an encoding error names its line").line as usize;
            prop_assert!(line >= 1 && line <= prefix.iter().filter(|&&b| b == b'\n').count() + 3);
        }
        read_everything(&bytes);
    }

    #[test]
    fn mutated_vectors_never_panic(
        which in 0usize..8,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
    ) {
        let names = [
            "game1.kifu", "game1.ki2", "game1.csa", "game1_commas.csa", "pos2.csa",
            "pos2_bod.kifu", "game1_sjis.kif", "game1_variation.kifu",
        ];
        let mut bytes = vector(names[which]);
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        read_everything(&bytes);
    }

    #[test]
    fn random_legal_games_round_trip_through_every_format(
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 0..120),
        start in 0usize..3,
    ) {
        let starts = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b G2P2r2b3g4s4n4l16p 1",
        ];
        let mut record = Record::new(Position::from_sfen(starts[start]).unwrap());
        let mut pos = record.start.clone();
        for pick in picks {
            let legal = pos.legal_moves();
            // The fast legality test agrees with the generator (which plays every move out).
            for mv in pseudo_moves(&pos) {
                prop_assert_eq!(pos.check_move(mv).is_ok(), legal.contains(&mv), "{} in {:?}", mv, pos);
            }
            if legal.is_empty() {
                prop_assert!(pos.is_checkmate() || !pos.in_check());
                break;
            }
            let mv = legal[pick.index(legal.len())];
            pos.play(mv).unwrap();
            record.moves.push(RecordMove::new(mv));
        }
        let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        let same = |r: Record, via: &str| -> Result<(), TestCaseError> {
            prop_assert_eq!(&r.start, &record.start, "start via {}", via);
            prop_assert_eq!(r.moves.iter().map(|m| m.mv).collect::<Vec<_>>(), moves.clone(), "via {}", via);
            Ok(())
        };
        same(kif::read_one(&kif::to_string(&record).unwrap()).unwrap(), "KIF")?;
        let unmarked = kif::WriteOptions { mark_declined: false, ..Default::default() };
        same(kif::read_one(&kif::to_string_with(&record, unmarked.clone()).unwrap()).unwrap(), "KIF without 不成")?;
        same(ki2::read_one(&ki2::to_string(&record).unwrap()).unwrap(), "KI2")?;
        same(csa::read_one(&csa::to_string_with(&record, csa::WriteOptions::default()).unwrap()).unwrap(), "CSA")?;
        same(jkf::read_one(&jkf::to_string_with(&record, jkf::WriteOptions { pretty: false }).unwrap()).unwrap(), "JKF")?;
        for style in [western::SquareStyle::Letter, western::SquareStyle::Digit] {
            same(western::read_one(&western::to_string_with(&record, western::WriteOptions { squares: style }).unwrap()).unwrap(), "Western")?;
        }
        let mut line = String::new();
        line.push_str(&usi::to_string(&record).unwrap());
        same(usi::read_one(&line).unwrap(), "USI")?;
        prop_assert_eq!(record.end_position(), pos);
    }
}

/// Every move a piece could make by its movement or a hand could drop, legal or not
/// (promotion both ways): what the fast legality test is checked on.
fn pseudo_moves(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    for from in (0..81).filter_map(notate::shogi::Square::from_index) {
        if pos
            .piece_at(from)
            .is_none_or(|p| p.color != pos.side_to_move())
        {
            continue;
        }
        for to in (0..81).filter_map(notate::shogi::Square::from_index) {
            for promote in [false, true] {
                moves.push(Move::Normal { from, to, promote });
            }
        }
    }
    for kind in notate::shogi::HAND_ORDER {
        if pos.hand_count(pos.side_to_move(), kind) > 0 {
            for to in (0..81).filter_map(notate::shogi::Square::from_index) {
                moves.push(Move::Drop { kind, to });
            }
        }
    }
    moves
}

/// Found by fuzzing: a CSA header with a blank in its key (`$START_T2 10IME:…`) was written
/// to a KIF that notate then refused ("not a KIF line"). Every record read writes, in every
/// shogi format that holds headers, a record that reads back the same.
#[test]
fn an_odd_csa_header_survives_every_format() {
    let record =
        csa::read_one("V2.2\nN+Alice\n$START_T2 10IME:2024/01/01 10:00:00\nPI\n+\n+7776FU\n")
            .unwrap();
    assert!(record
        .header
        .iter()
        .any(|(k, v)| k == "$START_T2 10IME" && v == "2024/01/01 10:00:00"));
    // KIF and KI2 always say the handicap (手合割), which a CSA record leaves implicit.
    let header = |r: &Record| {
        r.header
            .iter()
            .filter(|(k, _)| k != "手合割")
            .cloned()
            .collect::<Vec<_>>()
    };
    let kif = kif::read_one(&kif::to_string(&record).unwrap()).unwrap();
    assert_eq!(header(&kif), header(&record));
    assert_eq!(kif.moves, record.moves);
    let ki2 = ki2::read_one(&ki2::to_string(&record).unwrap()).unwrap();
    assert_eq!(header(&ki2), header(&record));
    let back = csa::read_one(&csa::to_string(&record).unwrap()).unwrap();
    assert_eq!(header(&back), header(&record));
    let jkf = jkf::read_one(&jkf::to_string(&record).unwrap()).unwrap();
    assert_eq!(header(&jkf), header(&record));
}

/// Found by fuzzing: a KIF move line with a time (`1 ７六歩(77) ( 0:16/00:00:16)`) was read by
/// the KI2 reader as a header keyed `1 ７六歩(77) ( 0`, which KIF then wrote back as a move
/// line that does not read. A header key never starts with a digit; and a header or comment
/// a format cannot hold is refused when written, never written so that it reads otherwise.
#[test]
fn a_kif_move_line_is_no_ki2_header_and_unwritable_headers_are_refused() {
    let kif_lines = "手合割：平手\n1 ７六歩(77) ( 0:16/00:00:16)\n";
    let err = ki2::read_one(kif_lines).unwrap_err();
    assert!(err.to_string().contains("not a KIF line"), "{err}");
    let mut record = usi::read_one("position startpos moves 7g7f").unwrap();
    for (key, value) in [
        ("1 手", "x"),
        ("a", "two\nlines"),
        ("*a", "x"),
        ("a：b", "x"),
    ] {
        record.header = vec![(key.to_string(), value.to_string())];
        for e in [
            kif::to_string(&record).unwrap_err(),
            ki2::to_string(&record).unwrap_err(),
        ] {
            assert_eq!(e.kind, ErrorKind::Unwritable, "{key:?}");
            assert!(e.to_string().contains("would not read back"), "{e}");
        }
    }
    record.header = vec![("a".into(), "two\nlines".into())];
    assert_eq!(
        csa::to_string(&record).unwrap_err().kind,
        ErrorKind::Unwritable
    );
    // A comment with line breaks is written one line a line, and reads back line by line.
    record.header.clear();
    record.moves[0].comments = vec!["one\ntwo".into()];
    let text = kif::to_string(&record).unwrap();
    assert!(text.contains("*one\n*two\n"), "{text}");
    assert_eq!(
        kif::read_one(&text).unwrap().moves[0].comments,
        ["one", "two"]
    );
    assert!(csa::to_string(&record).unwrap().contains("'*one\n'*two\n"));
}

/// A KIF whose every variation branches off the one before it, `depth` deep (the fuzzer's
/// input that overflowed JKF's writer's stack at 8,000).
fn nested_kif(depth: usize) -> String {
    let cycle = ["４八飛(28)", "６二飛(82)", "２八飛(48)", "８二飛(62)"];
    let mut text = String::from("手合割：平手\n1 ４八飛(28)\n2 ６二飛(82)\n");
    for k in 2..depth + 2 {
        text += &format!(
            "変化：{k}手\n{k} {}\n{} {}\n",
            cycle[(k - 1) % 4],
            k + 1,
            cycle[k % 4]
        );
    }
    text
}

#[test]
fn variations_nest_32_deep_and_no_deeper() {
    let record = kif::read_one(&nested_kif(32)).unwrap();
    assert_eq!(record.variations.len(), 32);
    // Every nested format holds them, and gives them back.
    let jkf_text = jkf::to_string(&record).unwrap();
    assert_eq!(jkf::read_one(&jkf_text).unwrap(), record);
    assert_eq!(
        kif::read_one(&kif::to_string(&record).unwrap()).unwrap(),
        record
    );
    assert_eq!(
        ki2::read_one(&ki2::to_string(&record).unwrap()).unwrap(),
        record
    );
    // A record built one deeper than a reader gives: the writers of nested formats refuse it.
    let mut deeper = record.clone();
    deeper.variations.push(notate::shogi::Variation {
        parent: 32,
        first_ply: 34,
        moves: Vec::new(),
        ending: None,
    });
    for err in [
        kif::to_string(&deeper).unwrap_err(),
        ki2::to_string(&deeper).unwrap_err(),
        jkf::to_string(&deeper).unwrap_err(),
    ] {
        assert_eq!(err.kind, ErrorKind::Unwritable, "{err}");
        assert_eq!(err.message, "variations nested deeper than 32");
    }
    for depth in [33, 8_000] {
        let err = kif::read_one(&nested_kif(depth)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::TooLarge, "{err}");
        assert_eq!(err.message, "variations nested deeper than 32");
        // The 33rd `変化` line, after three lines of header and moves and three per variation.
        assert_eq!(err.place.unwrap().line, 3 + 3 * 32 + 1, "{err}");
    }
}

/// Found by CI's fuzzing: a KIF time of 20 digits of seconds (`( 0:11111111111111111100/…)`)
/// overflowed its milliseconds (a debug build panicked; a release build wrapped to a wrong
/// time), and a JKF time's hours did the same. Such a time is an error with its place.
#[test]
fn a_time_too_long_for_milliseconds_is_an_error() {
    for time in [
        "( 0:11111111111111111100/00:00:00)",
        "( 0:01/18446744073709551:00:00)",
    ] {
        let text = format!("手合割：平手\n1 ７六歩(77) {time}\n");
        let err = kif::read_one(&text).unwrap_err();
        assert!(err.message.contains("expected a time"), "{err}");
        assert_eq!(err.place.unwrap().line, 2, "{err}");
    }
    let mut record = kif::read_one("手合割：平手\n1 ７六歩(77) ( 0:05/00:00:05)\n").unwrap();
    let jkf_text = jkf::to_string(&record).unwrap();
    assert!(jkf_text.contains("\"s\":5"), "{jkf_text}");
    let huge = jkf_text.replacen("\"s\":5", "\"h\":18446744073709551615,\"s\":5", 1);
    let err = jkf::read_one(&huge).unwrap_err();
    assert!(err.message.contains("a time too long"), "{err}");
    // The longest time that fits still reads.
    record.moves[0].time.as_mut().unwrap().spent_ms = u64::MAX / 1000 / 3600 * 3600 * 1000;
    let back = jkf::read_one(&jkf::to_string(&record).unwrap()).unwrap();
    assert_eq!(back.moves[0].time, record.moves[0].time);
}

/// What a failed record's error says: its players, the move's column (KI2 writes several
/// moves a line), the ply, and a move no piece can make named as such, not as a drop.
#[test]
fn a_failed_records_error_names_its_players_its_column_and_ply() {
    let header = "手合割：平手\n先手：A\n後手：B\n";
    let kif =
        format!("{header}手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３五歩(33)\n");
    let e = kif::read_one(&kif).unwrap_err();
    assert_eq!(e.players.as_deref(), Some("A – B"));
    assert_eq!(
        e.to_string(),
        "line 6, column 6, ply 2 \"３五歩(33)\": the pawn on 3c cannot reach 3e"
    );
    let ki2 = format!("{header}\n▲７六歩 △３五歩\n");
    let e = ki2::read_one(&ki2).unwrap_err();
    assert_eq!(e.players.as_deref(), Some("A – B"));
    assert_eq!(
        e.to_string(),
        "line 5, column 6, ply 2 \"△３五歩\": no pawn can move to 3e, and none is in hand to drop"
    );
    let csa = "N+A\nN-B\nPI\n+\n+7776FU\n-3335FU\n";
    assert_eq!(
        csa::read_one(csa).unwrap_err().players.as_deref(),
        Some("A – B")
    );
    let jkf = r#"{"header":{"先手":"A","後手":"B"},"moves":[{},{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":5},"piece":"FU","color":1}}]}"#;
    assert_eq!(
        jkf::read_one(jkf).unwrap_err().players.as_deref(),
        Some("A – B")
    );
    // 同 first: the ply, and the ideographic space of the line as it is, not escaped.
    let e = kif::read_one("手数----指手--\n   1 同　歩(77)\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column 6, ply 1 \"   1 同　歩(77)\": 同 with no previous move"
    );
    assert_eq!(e.players, None);
}

/// A summary that counts otherwise than the moves is said, and the record read (cshogi
/// writes `まで79手で持将棋` after 77 moves); cshogi's `入玉宣言` is 入玉勝ち.
#[test]
fn a_summary_that_miscounts_is_a_warning_and_entering_king_declared_reads() {
    let kif = "手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで4手で持将棋\n";
    let record = kif::read_one(kif).unwrap();
    assert_eq!(record.moves.len(), 2);
    assert_eq!(
        record
            .warnings
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>(),
        ["line 4, column 1 \"まで4手で持将棋\": the summary says 4 moves, the main line has 2"]
    );
    let kif = "手数----指手--\n   1 ７六歩(77)\n   2 入玉宣言\n";
    let record = kif::read_one(kif).unwrap();
    assert_eq!(
        record.ending.unwrap().kind,
        notate::shogi::EndingKind::EnteringKing
    );
}

/// CSA V2.2's times are whole seconds (fractions came with V3.0): cut, as KIF's are.
#[test]
fn csa_v2_2_writes_whole_seconds() {
    let record =
        csa::read_one("'CSA encoding=UTF-8\nV3.0\nPI\n+\n+7776FU\nT1.5\n-3334FU\nT3.999\n")
            .unwrap();
    let v22 = csa::WriteOptions {
        version: csa::CsaVersion::V22,
    };
    let written = csa::to_string_with(&record, v22).unwrap();
    assert!(written.ends_with("+7776FU\nT1\n-3334FU\nT3\n"), "{written}");
    let v30 = csa::to_string(&record).unwrap();
    assert!(v30.ends_with("+7776FU\nT1.5\n-3334FU\nT3.999\n"), "{v30}");
}

/// `不成` where the piece could not promote is refused, as `成` there is; where it could, it
/// is a declined promotion.
#[test]
fn declining_a_promotion_that_was_never_offered_is_refused() {
    let e = kif::read_one("手数----指手--\n   1 ７六歩不成(77)\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column 6, ply 1 \"７六歩不成(77)\": 不成 on a move where the pawn could not promote"
    );
    let e = ki2::read_one("手合割：平手\n\n▲７六歩不成\n").unwrap_err();
    assert!(e.to_string().ends_with("could not promote"), "{e}");
    // A silver entering the zone may decline.
    let sfen = "position sfen 4k4/9/9/2S6/9/9/9/9/4K4 b - 1 moves 7d7c";
    let declined = kif::to_string(&usi::read_one(sfen).unwrap()).unwrap();
    assert!(declined.contains("７三銀不成(74)"), "{declined}");
    let record = kif::read_one(&declined).unwrap();
    assert_eq!(record.moves[0].mv.to_string(), "7d7c");
}

/// A JKF move's `capture` and `same` are checked, as its `piece` and `color` are.
#[test]
fn a_jkf_moves_capture_and_same_are_checked() {
    let game = |second: &str| {
        format!(
            r#"{{"header":{{}},"moves":[{{}},{{"move":{{"color":0,"from":{{"x":7,"y":7}},"to":{{"x":7,"y":6}},"piece":"FU"}}}},{second}]}}"#
        )
    };
    let capture = r#"{"move":{"color":1,"from":{"x":8,"y":2},"to":{"x":5,"y":2},"piece":"HI","capture":"HI"}}"#;
    let e = jkf::read_one(&game(capture)).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("$.moves[2].move.capture"));
    assert!(
        e.message
            .ends_with("capture \"HI\", but the move takes nothing"),
        "{e}"
    );
    let same =
        r#"{"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU","same":true}}"#;
    let e = jkf::read_one(&game(same)).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("$.moves[2].move.same"));
    // What notate writes reads back: captures and 同 included.
    let record = usi::read_one("position startpos moves 7g7f 3c3d 8h2b+ 3a2b").unwrap();
    let text = jkf::to_string(&record).unwrap();
    assert!(
        text.contains(r#""capture":"KA""#) && text.contains(r#""same":true"#),
        "{text}"
    );
    assert_eq!(jkf::read_one(&text).unwrap().moves.len(), 4);
}

/// KIF is written as Kifu for Windows lays out variations: a `+` after each move (or ending)
/// a variation replaces, and each line's own summary; such a file comes back byte for byte.
#[test]
fn kif_variations_are_written_with_their_marks_and_summaries() {
    let kif = "手合割：平手
先手：
後手：
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:02/00:00:02)+
   2 ３四歩(33)   ( 0:01/00:00:01)
   3 ２六歩(27)   ( 0:01/00:00:03)+
   4 投了         ( 0:00/00:00:01)
まで3手で先手の勝ち

変化：3手
   3 ７五歩(76)   ( 0:01/00:00:03)
   4 中断         ( 0:00/00:00:01)+
まで3手で中断

変化：4手
   4 ８四歩(83)   ( 0:01/00:00:02)
   5 詰み         ( 0:00/00:00:03)
まで4手で詰

変化：1手
   1 ２六歩(27)   ( 0:05/00:00:05)
   2 千日手       ( 0:00/00:00:03)
まで1手で千日手
";
    let record = kif::read_one(kif).unwrap();
    assert_eq!(record.variations.len(), 3);
    assert_eq!(kif::to_string(&record).unwrap(), kif);
    // Two alternatives at one ply: the first is marked too, as another follows it; without
    // times, the `+` stands where the time would.
    let siblings = "手合割：平手
先手：
後手：
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２六歩(27)   +
   4 ８四歩(83)

変化：3手
   3 ６八銀(79)   +
   4 ８四歩(83)

変化：3手
   3 ４八銀(39)
";
    let record = kif::read_one(siblings).unwrap();
    assert_eq!(record.variations.len(), 2);
    assert_eq!(kif::to_string(&record).unwrap(), siblings);
}

/// A JKF fork whose first move has forks of its own is, in KIF's listing, alternatives at
/// one ply: each but the last gets its `+`, so the KIF written reads back to what it writes.
#[test]
fn kif_marks_the_alternatives_a_jkf_nests_at_one_ply() {
    let jkf = r#"{"header":{},"initial":{"preset":"HIRATE"},"moves":[{},
{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},
{"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"},"forks":[
  [{"move":{"color":1,"from":{"x":8,"y":3},"to":{"x":8,"y":4},"piece":"FU"},"forks":[[{"move":{"color":1,"from":{"x":7,"y":1},"to":{"x":6,"y":2},"piece":"GI"}}]]}],
  [{"move":{"color":1,"from":{"x":4,"y":3},"to":{"x":4,"y":4},"piece":"FU"}}]
]}]}"#;
    let first = kif::to_string(&jkf::read_one(jkf).unwrap()).unwrap();
    assert_eq!(first.matches("   +\n").count(), 3, "{first}");
    let again = kif::to_string(&kif::read_one(&first).unwrap()).unwrap();
    assert_eq!(again, first);
}
