//! Shogi records as real programs write them (issue "records as found in the wild"): one
//! minimal input of our own per class, read without losing anything, and written back.

use notate::shogi::encoding::{Encoding, ReadOptions};
use notate::shogi::{csa, jkf, ki2, kif, usi, EndingKind, Record};

fn kif_bytes(bytes: &[u8]) -> Vec<Result<Record, notate::Error>> {
    notate::format::read_bytes::<kif::Kif>(bytes, ReadOptions::default())
}

fn usi_moves(record: &Record) -> String {
    record
        .moves
        .iter()
        .map(|m| m.mv.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

const OPENING: &str = "手合割：平手\n手数----指手---------消費時間--\n";

#[test]
fn a_sealed_move_line_is_the_ending_with_its_time() {
    let text = format!(
        "{OPENING}   1 ７六歩(77)   ( 0:05/00:00:05)\n   2 封じ手       (25:00/04:07:00)\n"
    );
    let record = kif::read_one(&text).unwrap();
    let ending = record.ending.as_ref().unwrap();
    assert_eq!(ending.kind, EndingKind::Sealed);
    assert_eq!(ending.time.unwrap().spent_ms, 25 * 60_000);
    // KIF keeps the word; CSA and JKF have none and write CHUDAN, as json-kifu-format reads it.
    assert!(kif::to_string(&record)
        .unwrap()
        .contains("   2 封じ手       (25:00/04:07:00)\n"));
    assert!(jkf::to_string(&record)
        .unwrap()
        .contains(r#""special":"CHUDAN""#));
    assert!(csa::to_string(&record).unwrap().contains("%CHUDAN\n"));
    assert_eq!(
        kif::read_one(&kif::to_string(&record).unwrap()).unwrap(),
        record
    );
}

#[test]
fn ki2_endings_written_as_moves_end_the_game() {
    let resign = ki2::read_one("▲７六歩 △３四歩 ▲２六歩 △投了\nまで3手で先手の勝ち\n").unwrap();
    assert_eq!(usi_moves(&resign), "7g7f 3c3d 2g2f");
    assert_eq!(resign.ending.unwrap().kind, EndingKind::Resign);
    // Shogi DB2 may mark the ending with the side that moved last: read all the same.
    let draw = ki2::read_one("▲７六歩 △３四歩 △千日手\nまで2手で千日手\n").unwrap();
    assert_eq!(draw.moves.len(), 2);
    assert_eq!(draw.ending.unwrap().kind, EndingKind::Repetition);
    // A move after the ending is still an error.
    let err = ki2::read_one("▲７六歩 △３四歩 △投了 ▲２六歩\n").unwrap_err();
    assert!(err.to_string().contains("after the end"), "{err}");
}

#[test]
fn problem_summaries_say_mate() {
    for summary in ["まで3手で詰", "まで3手詰", "まで3手で詰み"] {
        let text = format!("▲７六歩 △３四歩 ▲２二角成\n{summary}\n");
        let record = ki2::read_one(&text).unwrap();
        assert_eq!(record.ending.unwrap().kind, EndingKind::Mate, "{summary}");
    }
}

#[test]
fn a_summary_ending_keeps_the_winner_it_names() {
    // Two moves: 先手 is to move. Each summary read as KI2 (its only ending) and as a KIF
    // without an ending line; the winner is the one named, whoever moved last.
    let cases = [
        ("後手の勝ち", EndingKind::Resign),
        ("時間切れにより後手の勝ち", EndingKind::TimeUp),
        ("先手の切れ負け", EndingKind::TimeUp),
        ("先手の時間切れ", EndingKind::TimeUp),
        ("先手の時間切れにより後手の勝ち", EndingKind::TimeUp),
        ("先手の反則により後手の勝ち", EndingKind::Resign),
        // cshogi names the side that moved last before 反則勝ち: 先手, to move, fouled.
        ("後手の反則勝ち", EndingKind::IllegalAction),
        ("先手の反則勝ち", EndingKind::IllegalWin),
        ("先手の反則負け", EndingKind::IllegalLoss),
        ("後手の反則負け", EndingKind::IllegalWin),
        ("先手の入玉勝ち", EndingKind::EnteringKing),
        ("後手の不戦勝", EndingKind::DefaultLoss),
        ("上手の不戦敗", EndingKind::DefaultWin),
        ("千日手", EndingKind::Repetition),
    ];
    for (words, kind) in cases {
        let summary = format!("まで2手で{words}\n");
        let ki2 = ki2::read_one(&format!("▲７六歩 △３四歩\n{summary}")).unwrap();
        let kif = kif::read_one(&format!(
            "{OPENING}   1 ７六歩(77)\n   2 ３四歩(33)\n{summary}"
        ))
        .unwrap();
        for record in [ki2, kif] {
            assert_eq!(
                record.ending.as_ref().map(|e| e.kind),
                Some(kind),
                "{words}"
            );
            assert!(record.warnings.is_empty(), "{words}: {:?}", record.warnings);
        }
    }
    // Written back, the KIF summary names the same winner.
    let record = ki2::read_one("▲７六歩 △３四歩\nまで2手で後手の反則勝ち\n").unwrap();
    let kif_text = kif::to_string(&record).unwrap();
    assert!(
        kif_text.ends_with("   3 反則負け\nまで2手で後手の反則勝ち\n"),
        "{kif_text}"
    );
    assert!(csa::to_string(&record)
        .unwrap()
        .ends_with("%+ILLEGAL_ACTION\n"));
    // KI2 (whose ending is its summary) gives the illegal action back.
    let ki2_text = ki2::to_string(&record).unwrap();
    assert_eq!(ki2::read_one(&ki2_text).unwrap().ending, record.ending);
}

#[test]
fn a_summary_naming_a_winner_no_ending_can_have_is_said() {
    // 先手 is to move, and a resignation is the side to move's: it cannot be 先手's win.
    for words in ["先手の勝ち", "時間切れにより先手の勝ち", "後手の入玉勝ち"]
    {
        let text = format!("▲７六歩 △３四歩\nまで2手で{words}\n");
        let record = ki2::read_one(&text).unwrap();
        assert_eq!(record.ending, None, "{words}");
        assert_eq!(record.warnings.len(), 1, "{words}");
        let warning = record.warnings[0].to_string();
        assert!(warning.contains("the ending is left out"), "{warning}");
        assert!(warning.starts_with("line 2, column 1"), "{warning}");
    }
    // Sides are named as the record names them.
    let handicap = "手合割：香落ち\n△３四歩 ▲７六歩\nまで2手で上手の勝ち\n";
    let warning = ki2::read_one(handicap).unwrap().warnings[0].to_string();
    assert!(
        warning.contains("names 上手 the winner, but 上手 is to move"),
        "{warning}"
    );
    // A KIF's ending line is kept, and a summary naming the other winner is said.
    let text =
        format!("{OPENING}   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で先手の勝ち\n");
    let record = kif::read_one(&text).unwrap();
    assert_eq!(record.ending.unwrap().kind, EndingKind::Resign);
    assert!(record.warnings[0].to_string().contains("another winner"));
    let agreeing = text.replace("先手の勝ち", "後手の勝ち");
    assert!(kif::read_one(&agreeing).unwrap().warnings.is_empty());
}

#[test]
fn handicap_players_are_csa_names() {
    let text = "手合割：香落ち\n上手：U\n下手：S\n手数----指手---------消費時間--\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 投了\nまで2手で下手の勝ち\n";
    let record = kif::read_one(text).unwrap();
    assert!(record.warnings.is_empty(), "{:?}", record.warnings);
    let csa_text = csa::to_string(&record).unwrap();
    assert!(csa_text.contains("V3.0\nN+S\nN-U\n"), "{csa_text}");
    let back = csa::read_one(&csa_text).unwrap();
    assert_eq!(back.header_value("先手"), Some("S"));
    assert_eq!(back.header_value("後手"), Some("U"));
}

#[test]
fn a_kif_drop_with_origin_00_and_western_numbers_glued_to_moves() {
    // Some programs write a KIF drop as from 00 (cshogi reads it so).
    let text = format!(
        "{OPENING}   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角(00)\n"
    );
    let record = kif::read_one(&text).unwrap();
    assert_eq!(usi_moves(&record), "7g7f 3c3d 8h2b+ 3a2b B*4e");
    assert!(kif::to_string(&record).unwrap().contains("   5 ４五角打"));
    // Western with no blank after the move number; a game still begins at `1.`.
    let games = notate::shogi::western::read_str("1.P-7f 2.P-3d 3...\n\n1.P-2f\n").unwrap();
    let moves: Vec<String> = games.iter().map(usi_moves).collect();
    assert_eq!(moves, ["7g7f 3c3d", "2g2f"]);
    let error = notate::shogi::western::read_str("1.P-7f 2.K-9a\n").unwrap_err();
    assert_eq!(error.token.as_deref(), Some("K-9a"), "{error}");
    let error = notate::shogi::western::read_str("1.P-7f 2.X-9a\n").unwrap_err();
    assert_eq!(error.place.map(|p| p.column), Some(10), "{error}");
}

#[test]
fn a_variation_may_branch_from_the_ending() {
    let text =
        format!("{OPENING}   1 ７六歩(77)\n   2 中断\n\n変化：2手\n   2 ３四歩(33)\n   3 投了\n");
    let record = kif::read_one(&text).unwrap();
    assert_eq!(record.ending.as_ref().unwrap().kind, EndingKind::Abort);
    assert_eq!(record.variations.len(), 1);
    let v = &record.variations[0];
    assert_eq!((v.parent, v.first_ply), (0, 2));
    assert_eq!(v.moves[0].mv.to_string(), "3c3d");
    assert_eq!(v.ending.as_ref().unwrap().kind, EndingKind::Resign);
    // Written and read back in the two formats that hold variations.
    assert_eq!(
        kif::read_one(&kif::to_string(&record).unwrap()).unwrap(),
        record
    );
    let json = jkf::to_string(&record).unwrap();
    assert!(
        json.contains(r#"{"special":"CHUDAN","forks":[[{"move""#),
        "{json}"
    );
    assert_eq!(jkf::read_one(&json).unwrap(), record);
}

#[test]
fn a_full_width_space_after_the_piece() {
    let text = format!(
        "{OPENING}   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成　(88)\n   4 同銀　(31)   ( 0:01/00:00:01)\n"
    );
    let record = kif::read_one(&text).unwrap();
    assert_eq!(usi_moves(&record), "7g7f 3c3d 8h2b+ 3a2b");
    assert_eq!(record.moves[3].time.unwrap().spent_ms, 1000);
}

#[test]
fn a_move_number_out_of_order_is_read_in_order_with_a_warning() {
    let text = format!("{OPENING}   1 ７六歩(77)\n   1 ３四歩(33)\n   3 ２六歩(27)\n");
    let record = kif::read_one(&text).unwrap();
    assert_eq!(usi_moves(&record), "7g7f 3c3d 2g2f");
    assert_eq!(record.warnings.len(), 1);
    assert_eq!(
        record.warnings[0].to_string(),
        "line 4, column 4 \"   1 ３四歩(33)\": move number 1, expected 2: read as move 2"
    );
    // A number that jumps ahead means a move is missing: that stays an error.
    let gap = format!("{OPENING}   1 ７六歩(77)\n   3 ２六歩(27)\n");
    let err = kif::read_one(&gap).unwrap_err();
    assert!(
        err.to_string().contains("move number 3, expected 2"),
        "{err}"
    );
}

const CSA_HEAD: &str = "V2.2\nN+a\nN-b\nPI\n+\n";

#[test]
fn a_csa_comment_after_a_special_on_its_line_or_after_it_stays_with_the_ending() {
    let text = format!("{CSA_HEAD}+7776FU\n-3334FU\n%KACHI,'* -5000 win, or so\nT10\n'*after\n");
    let record = csa::read_one(&text).unwrap();
    let ending = record.ending.as_ref().unwrap();
    assert_eq!(ending.kind, EndingKind::EnteringKing);
    assert_eq!(ending.comments, [" -5000 win, or so", "after"]);
    assert_eq!(ending.time.unwrap().spent_ms, 10_000);
    assert!(record.moves[1].comments.is_empty());
    // Every format with comments keeps them after the ending.
    let csa_text = csa::to_string(&record).unwrap();
    assert!(
        csa_text.ends_with("%KACHI\nT10\n'* -5000 win, or so\n'*after\n"),
        "{csa_text}"
    );
    assert_eq!(csa::read_one(&csa_text).unwrap(), record);
    let kif_text = kif::to_string(&record).unwrap();
    assert!(kif_text.contains("入玉勝ち"));
    assert!(
        kif_text.contains("\n* -5000 win, or so\n*after\n"),
        "{kif_text}"
    );
    assert_eq!(
        kif::read_one(&kif_text).unwrap().ending.unwrap().comments,
        ending.comments
    );
    let json = jkf::to_string(&record).unwrap();
    assert!(
        json.contains(r#""special":"KACHI","comments":[" -5000 win, or so","after"]"#),
        "{json}"
    );
    // JKF also writes the running total of time: the rest reads back the same.
    assert_eq!(
        jkf::read_one(&json).unwrap().ending.unwrap().comments,
        ending.comments
    );
}

#[test]
fn a_repeated_ending_is_read_once_with_a_warning() {
    let text = format!("{CSA_HEAD}+7776FU\n-3334FU\n%KACHI\n%KACHI\n");
    let record = csa::read_one(&text).unwrap();
    assert_eq!(record.ending.unwrap().kind, EndingKind::EnteringKing);
    assert_eq!(
        record.warnings[0].to_string(),
        "line 9, column 1 \"%KACHI\": the ending is repeated: read once"
    );
    let err = csa::read_one(&format!("{CSA_HEAD}+7776FU\n%TORYO\n%KACHI\n")).unwrap_err();
    assert!(err.to_string().contains("a second ending"), "{err}");
}

#[test]
fn an_illegal_action_keeps_its_side() {
    let text = format!("{CSA_HEAD}+7776FU\n-3334FU\n%+ILLEGAL_ACTION\n");
    let record = csa::read_one(&text).unwrap();
    assert_eq!(
        record.ending.as_ref().unwrap().kind,
        EndingKind::IllegalAction
    );
    assert!(csa::to_string(&record)
        .unwrap()
        .contains("%+ILLEGAL_ACTION\n"));
    assert!(jkf::to_string(&record)
        .unwrap()
        .contains(r#""special":"+ILLEGAL_ACTION""#));
    assert!(kif::to_string(&record).unwrap().contains("反則負け"));
    // The side that acted is the side to move: it loses.
    let other = csa::read_one(&format!("{CSA_HEAD}+7776FU\n-3334FU\n%-ILLEGAL_ACTION\n")).unwrap();
    assert_eq!(other.ending.unwrap().kind, EndingKind::IllegalWin);
}

#[test]
fn comments_and_header_values_keep_their_trailing_blanks() {
    let text = "手合割：平手　　\n棋戦：名人戦 \n*two spaces  \n*\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*after　\n";
    let record = kif::read_one(text).unwrap();
    assert_eq!(record.header_value("手合割"), Some("平手　　"));
    assert_eq!(record.header_value("棋戦"), Some("名人戦 "));
    assert_eq!(record.comments, ["two spaces  ", ""]);
    assert_eq!(record.moves[0].comments, ["after　"]);
    assert_eq!(
        kif::read_one(&kif::to_string(&record).unwrap()).unwrap(),
        record
    );
}

#[test]
fn a_csa_board_with_blank_separated_cells() {
    let board = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * * -KA *\nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
                 P4 * * * * * * * * *\nP5 * * * * * * * * *\nP6 * * * * * * * * *\n\
                 P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA * * * * * +HI *\nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n";
    let record = csa::read_one(&format!("V3.0\n{board}+\n+7776FU\n")).unwrap();
    assert_eq!(
        record.start,
        usi::read_one("position startpos").unwrap().start
    );
    let err = csa::read_one("V3.0\nP2 * -HI * * * * * -KA * *\n+\n").unwrap_err();
    assert!(err.to_string().contains("9 cells"), "{err}");
}

/// `平手` and `７六歩` in Shift_JIS and EUC-JP (bytes from the encodings' tables).
const HIRATE_SJIS: &[u8] = &[0x95, 0xBD, 0x8E, 0xE8];
const HIRATE_EUC: &[u8] = &[0xCA, 0xBF, 0xBC, 0xEA];

fn kif_in(encoding: &'static encoding_rs::Encoding, marker: &str) -> Vec<u8> {
    let text = format!("{marker}手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n");
    encoding.encode(&text).0.into_owned()
}

#[test]
fn a_text_in_another_encoding_than_it_declares_is_read_with_a_warning() {
    let sjis = kif_in(encoding_rs::SHIFT_JIS, "#KIF version=2.0 encoding=UTF-8\n");
    assert!(sjis.windows(4).any(|w| w == HIRATE_SJIS));
    let record = kif_bytes(&sjis).remove(0).unwrap();
    assert_eq!(record.moves.len(), 1);
    assert_eq!(
        record.warnings[0].to_string(),
        "line 1: the text declares UTF-8 but is not; read as Shift_JIS"
    );
    let utf8 = kif_in(encoding_rs::UTF_8, "#KIF version=2.0 encoding=Shift_JIS\n");
    let record = kif_bytes(&utf8).remove(0).unwrap();
    assert_eq!(record.header_value("手合割"), Some("平手"));
    assert_eq!(
        record.warnings[0].to_string(),
        "line 1: the text declares Shift_JIS but is UTF-8; read as UTF-8"
    );
    // Told, the encoding is believed: the bytes then fail where they stop fitting it.
    let forced = notate::format::read_bytes::<kif::Kif>(
        &sjis,
        ReadOptions {
            encoding: Some(Encoding::Utf8),
        },
    );
    assert!(forced[0]
        .as_ref()
        .unwrap_err()
        .to_string()
        .contains("not valid UTF-8"));
}

#[test]
fn euc_jp_is_detected_and_read_with_a_warning() {
    let euc = kif_in(encoding_rs::EUC_JP, "");
    assert!(euc.windows(4).any(|w| w == HIRATE_EUC));
    let record = kif_bytes(&euc).remove(0).unwrap();
    assert_eq!(record.header_value("手合割"), Some("平手"));
    assert_eq!(usi_moves(&record), "7g7f");
    assert!(record.warnings[0]
        .to_string()
        .contains("EUC-JP, which KIF and CSA do not allow"));
    let csa_text = "V2.2\nN+\u{5e73}\u{624b}\nPI\n+\n+7776FU\n";
    let bytes = encoding_rs::EUC_JP.encode(csa_text).0.into_owned();
    let records = notate::format::read_bytes::<csa::Csa>(&bytes, ReadOptions::default());
    let record = records[0].as_ref().unwrap();
    assert_eq!(record.header_value("先手"), Some("平手"));
    assert_eq!(record.warnings.len(), 1);
}

fn two_games() -> Vec<Record> {
    let first = csa::read_one(&format!(
        "{CSA_HEAD}+7776FU\n'*a comment\n-3334FU\n%TORYO\n"
    ))
    .unwrap();
    let mut second = usi::read_one("position startpos moves 2g2f 8c8d 2f2e").unwrap();
    second.header.push(("先手".into(), "c".into()));
    second.ending = Some(notate::shogi::Ending::new(EndingKind::Abort));
    vec![first, second]
}

#[test]
fn several_games_read_back_as_several_in_kif_ki2_and_jkf() {
    let games = two_games();
    // Written one after another as the command line writes them: a blank line between
    // KIF or KI2 records, one JKF document per line.
    let join = |write: &dyn Fn(&Record) -> String, between: &str| {
        games.iter().map(write).collect::<Vec<_>>().join(between)
    };
    let kif_text = join(&|r| kif::to_string(r).unwrap(), "\n");
    let mut back = kif::read_str(&kif_text).unwrap();
    // KIF always states the 手合割; the rest reads back the same.
    for record in &mut back {
        record.header.retain(|(key, _)| key != "手合割");
    }
    assert_eq!(back, games);
    let ki2_text = join(&|r| ki2::to_string(r).unwrap(), "\n");
    let back = ki2::read_str(&ki2_text).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(
        back.iter().map(usi_moves).collect::<Vec<_>>(),
        ["7g7f 3c3d", "2g2f 8c8d 2f2e"]
    );
    assert_eq!(back[1].ending.as_ref().unwrap().kind, EndingKind::Abort);
    let jkf_text = join(&|r| jkf::to_string(r).unwrap(), "");
    assert_eq!(jkf::read_str(&jkf_text).unwrap(), games);
    let pretty = join(
        &|r| jkf::to_string_with(r, jkf::WriteOptions { pretty: true }).unwrap(),
        "\n",
    );
    assert_eq!(jkf::read_str(&pretty).unwrap(), games);
}

#[test]
fn a_header_after_the_moves_with_nothing_after_it_stays_in_the_record() {
    let text = format!("{OPENING}   1 ７六歩(77)\n   2 投了\n\n終了日時：2024/01/01\n");
    let record = kif::read_one(&text).unwrap();
    assert_eq!(record.header_value("終了日時"), Some("2024/01/01"));
}

#[test]
fn errors_of_a_second_record_name_its_line_in_the_text() {
    let text = format!("{OPENING}   1 ７六歩(77)\n\n先手：b\n{OPENING}   1 ７七歩(76)\n");
    let results = notate::format::read_bytes::<kif::Kif>(text.as_bytes(), ReadOptions::default());
    assert_eq!(results.len(), 2);
    assert!(results[0].is_ok());
    let err = results[1].as_ref().unwrap_err();
    assert_eq!(err.place.unwrap().line, 8, "{err}");
}

/// Several games written one after another (as `notate convert` writes them: the format's
/// separator between) read back as the same games, those of no moves and those from a
/// position included; a text of blanks alone is no game.
#[test]
fn several_games_written_read_back_as_several_even_without_moves() {
    use notate::convert::Format;
    use notate::shogi::western;
    let games: Vec<Record> = [
        "position startpos moves 7g7f 3c3d",
        "position startpos",
        "position startpos moves 2g2f 8c8d",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d",
        "position startpos",
    ]
    .iter()
    .map(|line| usi::read_one(line).unwrap())
    .collect();
    let usi_of = |records: &[Record]| -> Vec<String> {
        records
            .iter()
            .map(|r| usi::to_string(r).unwrap().trim_end().to_string())
            .collect()
    };
    let want = usi_of(&games);
    let joined = |format: Format, write: &dyn Fn(&Record) -> String| {
        let texts: Vec<String> = games.iter().map(write).collect();
        texts.join(std::str::from_utf8(format.separator()).unwrap())
    };
    let western_text = joined(Format::Western, &|r| western::to_string(r).unwrap());
    let ki2_text = joined(Format::Ki2, &|r| ki2::to_string(r).unwrap());
    let kif_text = joined(Format::Kif, &|r| kif::to_string(r).unwrap());
    for (name, read) in [
        ("western", western::read_str(&western_text)),
        ("ki2", ki2::read_str(&ki2_text)),
        ("kif", kif::read_str(&kif_text)),
    ] {
        assert_eq!(usi_of(&read.unwrap()), want, "{name}");
    }
    for blank in ["", "\n\n", " \n"] {
        assert!(western::read_str(blank).unwrap().is_empty());
        assert!(ki2::read_str(blank).unwrap().is_empty());
        assert!(kif::read_str(blank).unwrap().is_empty());
    }
}

/// A JKF line that is no JSON is an error at its line; the games after it are read.
#[test]
fn a_jkf_line_that_is_no_json_fails_alone() {
    let game = |usi_line: &str| {
        let text = jkf::to_string(&usi::read_one(usi_line).unwrap()).unwrap();
        text.trim_end().to_string()
    };
    let good = [
        game("position startpos moves 7g7f"),
        game("position startpos moves 2g2f"),
        game("position startpos moves 5g5f"),
    ];
    let cut = &good[0][..good[0].len() - 2];
    let text = format!("{cut}\n{}\n{cut}\n{}\n", good[1], good[2]);
    let read = notate::format::read_bytes::<jkf::Jkf>(text.as_bytes(), ReadOptions::default());
    let summary: Vec<Result<String, u64>> = read
        .iter()
        .map(|r| match r {
            Ok(record) => Ok(usi_moves(record)),
            Err(e) => Err(e.place.as_ref().map_or(0, |p| p.line)),
        })
        .collect();
    assert_eq!(
        summary,
        [Err(2), Ok("2g2f".into()), Err(4), Ok("5g5f".into())]
    );
}

/// Every game of `bytes` read as `F`: the moves, or the error's text.
fn outcomes<F: notate::format::ReadFormat<Game = Record, ReadOptions = ReadOptions>>(
    bytes: &[u8],
) -> Vec<Result<String, String>> {
    notate::format::read_bytes::<F>(bytes, ReadOptions::default())
        .into_iter()
        .map(|r| r.map(|g| usi_moves(&g)).map_err(|e| e.to_string()))
        .collect()
}

#[test]
fn a_bad_byte_fails_its_own_game_only() {
    let ok = |moves: &str| Ok(moves.to_string());
    let bad = |message: &str| Err(message.to_string());
    let kif = |middle: &[u8]| {
        [
            format!("{OPENING}   1 ７六歩(77)\n\n{OPENING}").as_bytes(),
            middle,
            format!("\n\n{OPENING}   1 ５六歩(57)\n").as_bytes(),
        ]
        .concat()
    };
    // UTF-8, a damaged byte in the second game's move line: that game fails at its place.
    let utf8 = kif("   1 ２六歩(27)\u{ff}".as_bytes());
    let damaged = kif(&[b"   1 ".as_slice(), "２六歩(27)".as_bytes(), b"\xff"].concat());
    assert!(std::str::from_utf8(&damaged).is_err() && std::str::from_utf8(&utf8).is_ok());
    assert_eq!(
        outcomes::<kif::Kif>(&damaged),
        [
            ok("7g7f"),
            bad("game 2, line 7, column 13: not valid UTF-8"),
            ok("5g5f")
        ]
    );
    // Shift_JIS with a byte no character starts with.
    let sjis = |text: &str| encoding_rs::SHIFT_JIS.encode(text).0.into_owned();
    let damaged = [
        sjis(&format!(
            "{OPENING}   1 ７六歩(77)\n\n{OPENING}   1 ２六歩(27)"
        )),
        b"\xff".to_vec(),
        sjis(&format!("\n\n{OPENING}   1 ５六歩(57)\n")),
    ]
    .concat();
    assert_eq!(
        outcomes::<kif::Kif>(&damaged),
        [
            ok("7g7f"),
            bad("game 2, line 7, column 13: not valid Shift_JIS"),
            ok("5g5f")
        ]
    );
    let csa = b"V2.2\nPI\n+\n+7776FU\n/\nV2.2\nPI\n+\n'\xff\n+2726FU\n/\nV2.2\nPI\n+\n+5756FU\n";
    assert_eq!(
        outcomes::<csa::Csa>(csa),
        [
            ok("7g7f"),
            bad("game 2, line 9, column 2: not valid Shift_JIS"),
            ok("5g5f")
        ]
    );
    let jkf = b"{\"moves\":[{},{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\",\"color\":0}}]}\n\
        {\"header\":{\"\xff\":\"x\"},\"moves\":[{}]}\n\
        {\"header\":{\"\xff\"\n\
        {\"moves\":[{},{\"move\":{\"from\":{\"x\":5,\"y\":7},\"to\":{\"x\":5,\"y\":6},\"piece\":\"FU\",\"color\":0}}]}\n";
    let read = outcomes::<jkf::Jkf>(jkf);
    assert_eq!(read.len(), 4, "{read:?}");
    assert_eq!(read[0], ok("7g7f"));
    assert!(read[1]
        .as_ref()
        .unwrap_err()
        .ends_with("line 2, column 13: not valid Shift_JIS"));
    assert!(read[2]
        .as_ref()
        .unwrap_err()
        .ends_with("line 3, column 13: not valid Shift_JIS"));
    assert_eq!(read[3], ok("5g5f"));
    // A small UTF-8 text with a bad byte and few characters beyond ASCII stays UTF-8: its
    // names are not read as Shift_JIS mojibake.
    let names = [
        "{\"header\":{\"先手\":\"羽生\"},\"moves\":[{}]}\n".as_bytes(),
        b"{\"header\":{\"x\":\"\xff\"},\"moves\":[{}]}\n",
        "{\"header\":{\"後手\":\"谷川\"},\"moves\":[{}]}\n".as_bytes(),
    ]
    .concat();
    let read = notate::format::read_bytes::<jkf::Jkf>(&names, ReadOptions::default());
    assert_eq!(read[0].as_ref().unwrap().header_value("先手"), Some("羽生"));
    assert!(read[1]
        .as_ref()
        .unwrap_err()
        .to_string()
        .ends_with("not valid UTF-8"));
    assert_eq!(read[2].as_ref().unwrap().header_value("後手"), Some("谷川"));
    let western = b"1. P-7f\n\n1. P-2f\n# \xff\n\n1. P-5f\n";
    assert_eq!(
        outcomes::<notate::shogi::western::Western>(western),
        [
            ok("7g7f"),
            bad("game 2, line 4, column 3: not valid Shift_JIS"),
            ok("5g5f")
        ]
    );
}

/// A diagram of the position after 25 moves, as Kifu for Windows and pages copy it: the
/// `手数＝` line names the last move (▲: 後手 is to move) and no `後手番` line follows.
const AFTER_25: &str = "後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂 ・ ・ ・v玉v角v桂v香|一
| ・v飛 ・v銀v金 ・v金 ・ ・|二
|v歩 ・ ・v歩 ・ ・v銀v歩v歩|三
| ・v歩v歩 ・v歩v歩v歩 ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ 歩 歩 歩 ・ 歩 ・ ・|六
| 歩 歩 銀 金 ・ 歩 銀 歩 歩|七
| ・ ・ 金 ・ ・ ・ ・ 飛 ・|八
| 香 桂 角 玉 ・ ・ ・ 桂 香|九
+---------------------------+
先手の持駒：なし
手数＝25 ▲３七銀 まで
";

const AFTER_25_SFEN: &str = "ln3kbnl/1r1sg1g2/p2p2spp/1pp1ppp2/9/2PPP1P2/PPSG1PSPP/2G4R1/LNBK3NL";

#[test]
fn a_diagram_s_move_count_line_gives_the_side_to_move_and_the_move_number() {
    let record = kif::read_one(AFTER_25).unwrap();
    assert_eq!(record.start.to_sfen(), format!("{AFTER_25_SFEN} w - 26"));
    assert!(record.warnings.is_empty(), "{:?}", record.warnings);
    // Full-width digits, ☗, and the side line agreeing.
    let wide = AFTER_25.replace("手数＝25 ▲", "手数＝２５　☗") + "後手番\n";
    assert_eq!(kif::read_one(&wide).unwrap().start, record.start);
    // The same in KI2.
    assert_eq!(ki2::read_one(AFTER_25).unwrap().start, record.start);
    // A side line that contradicts the last move wins, and the contradiction is said.
    let contradicted = kif::read_one(&(AFTER_25.to_string() + "先手番\n")).unwrap();
    assert_eq!(
        contradicted.start.to_sfen(),
        format!("{AFTER_25_SFEN} b - 26")
    );
    let warning = contradicted.warnings[0].to_string();
    assert!(
        warning.contains("手数＝ and the side line disagree"),
        "{warning}"
    );
    assert!(warning.starts_with("line 15, column 1"), "{warning}");
    // A count alone says nothing of the side.
    let count_only = AFTER_25.replace(" ▲３七銀 まで", "");
    assert_eq!(
        kif::read_one(&count_only).unwrap().start.to_sfen(),
        format!("{AFTER_25_SFEN} b - 26")
    );
    // `手数＝25手` as some pages write it.
    let with_te = AFTER_25.replace("手数＝25 ▲", "手数＝25手　▲");
    assert_eq!(kif::read_one(&with_te).unwrap().start, record.start);
    // A count whose next move number would not fit is said and left out.
    let huge = kif::read_one(&AFTER_25.replace("手数＝25", "手数＝4294967295")).unwrap();
    assert_eq!(huge.start.ply(), 1);
    assert!(huge.warnings[0].to_string().contains("expected 手数＝N"));
    // After a preset the line cannot describe the start: its last move names no side.
    let preset =
        "手合割：平手\n手数＝10 ▲７六歩 まで\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let record = kif::read_one(preset).unwrap();
    assert_eq!(usi_moves(&record), "7g7f");
    assert_eq!(record.start.ply(), 11);
    // A line without a number is said and left out.
    let no_number = kif::read_one(&AFTER_25.replace("手数＝25", "手数＝")).unwrap();
    assert_eq!(no_number.start.to_sfen(), format!("{AFTER_25_SFEN} b - 1"));
    assert!(no_number.warnings[0]
        .to_string()
        .contains("expected 手数＝N"));
}

#[test]
fn moves_after_a_diagram_may_be_numbered_on_from_its_move_count() {
    let moves = "手数----指手---------消費時間--
  26 ４二玉(41)
  27 ５八玉(69)
  28 投了
まで27手で先手の勝ち

変化：27手
  27 ４八銀(37)
  28 ４一玉(42)
";
    let on = kif::read_one(&format!("{AFTER_25}{moves}")).unwrap();
    assert_eq!(usi_moves(&on), "4a4b 6i5h");
    assert_eq!(on.ending.as_ref().unwrap().kind, EndingKind::Resign);
    assert_eq!(on.variations.len(), 1);
    assert_eq!(on.variations[0].first_ply, 2);
    assert_eq!(on.warnings.len(), 0, "{:?}", on.warnings);
    // Numbered from 1 (as notate writes them), with a summary counting the record's moves.
    let from_one = moves
        .replace("  26 ", "   1 ")
        .replace("  27 ", "   2 ")
        .replace("  28 ", "   3 ")
        .replace("まで27手", "まで2手")
        .replace("変化：27手", "変化：2手");
    assert_eq!(kif::read_one(&format!("{AFTER_25}{from_one}")).unwrap(), on);
    // One numbering or the other: mixing them is a missing move.
    let mixed = moves.replacen("  26 ", "   1 ", 1);
    let err = kif::read_one(&format!("{AFTER_25}{mixed}")).unwrap_err();
    assert!(
        err.to_string().contains("move number 27, expected 2"),
        "{err}"
    );
    // Without the count line, 26 is a missing move, as before.
    let without = AFTER_25.replace("手数＝25 ▲３七銀 まで\n", "後手番\n");
    let err = kif::read_one(&format!("{without}{moves}")).unwrap_err();
    assert!(
        err.to_string().contains("move number 26, expected 1"),
        "{err}"
    );
    // Written back: the count line keeps the move number, and moves are numbered from 1.
    let text = kif::to_string(&on).unwrap();
    assert!(
        text.contains("先手の持駒：なし\n手数＝25　まで\n後手番\n"),
        "{text}"
    );
    assert!(text.contains("   1 ４二玉(41)\n"), "{text}");
    assert!(text.contains("まで2手で先手の勝ち\n"), "{text}");
    assert_eq!(kif::read_one(&text).unwrap(), on);
    assert_eq!(ki2::read_one(&ki2::to_string(&on).unwrap()).unwrap(), on);
    // A preset start with a move number keeps it too.
    let later = usi::read_one(
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 12 moves 3c3d",
    )
    .unwrap();
    let text = kif::to_string(&later).unwrap();
    assert!(text.contains("手数＝11　まで\n"), "{text}");
    assert_eq!(kif::read_one(&text).unwrap().start, later.start);
    // After a preset, its line follows the headers.
    let mut named = usi::read_one(
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 5 moves 7g7f",
    )
    .unwrap();
    named.header = vec![
        ("手合割".into(), "平手".into()),
        ("先手".into(), "A".into()),
    ];
    let text = kif::to_string(&named).unwrap();
    assert!(
        text.starts_with("手合割：平手\n先手：A\n手数＝4　まで\n手数----"),
        "{text}"
    );
    assert_eq!(kif::read_one(&text).unwrap(), named);
    // CSA and JKF have no place for the number: converting says so.
    let note = later.unwritten_move_number().unwrap().to_string();
    assert!(note.contains("move number 12 is not written"), "{note}");
    assert!(on.unwritten_move_number().is_some());
    assert!(kif::read_one(&format!("{OPENING}   1 ７六歩(77)\n"))
        .unwrap()
        .unwritten_move_number()
        .is_none());
}

#[test]
fn sides_are_named_for_a_handicap_game_only() {
    let summary = |usi_text: &str| {
        let record = usi::read_one(usi_text).unwrap();
        let text = kif::to_string(&record).unwrap();
        text.lines()
            .find(|l| l.starts_with("まで"))
            .unwrap()
            .to_string()
    };
    // 香落ち, from its start or later: 上手 and 下手.
    let lance = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -";
    assert_eq!(
        summary(&format!("position sfen {lance} 1 moves 3c3d 7g7f resign")),
        "まで2手で下手の勝ち"
    );
    assert_eq!(
        summary(&format!("position sfen {lance} 11 moves 3c3d 7g7f resign")),
        "まで2手で下手の勝ち"
    );
    // Another game's later position with 後手 to move: 先手 and 後手.
    let later = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
    assert_eq!(
        summary(&format!("position sfen {later} 2 moves 3c3d 2g2f resign")),
        "まで2手で先手の勝ち"
    );
}

#[test]
fn a_csa_v3_max_moves_ending_is_a_draw_kept_in_csa_and_jkf() {
    let record = csa::read_one("V3.0\nPI\n+\n+7776FU\n%MAX_MOVES\n").unwrap();
    let ending = record.ending.as_ref().unwrap();
    assert_eq!(ending.kind, EndingKind::MaxMoves);
    assert_eq!(
        ending.kind.winner(record.end_position().side_to_move()),
        None
    );
    assert!(csa::to_string(&record).unwrap().ends_with("%MAX_MOVES\n"));
    let jkf = jkf::to_string(&record).unwrap();
    assert!(jkf.contains(r#"{"special":"MAX_MOVES"}"#), "{jkf}");
    assert_eq!(jkf::read_one(&jkf).unwrap(), record);
    // KIF has no word for it: 持将棋, as tsshogi writes it.
    // V2.2 predates it: the draw it is.
    let v22 = csa::to_string_with(
        &record,
        csa::WriteOptions {
            version: csa::CsaVersion::V22,
        },
    )
    .unwrap();
    assert!(v22.ends_with("%HIKIWAKE\n"), "{v22}");
    let kif = kif::to_string(&record).unwrap();
    assert!(kif.contains("   2 持将棋\nまで1手で持将棋\n"), "{kif}");
    assert_eq!(
        kif::read_one(&kif).unwrap().ending.unwrap().kind,
        EndingKind::Impasse
    );
}

#[test]
fn a_move_count_header_is_written_back() {
    // `手数：N`, a tsume record's header, is no `手数----` or `手数＝` line.
    let text = format!("作品名：test\n手数：1\n{OPENING}   1 ７六歩(77)\n");
    let record = kif::read_one(&text).unwrap();
    assert_eq!(record.header_value("手数"), Some("1"));
    assert_eq!(kif::to_string(&record).unwrap(), text);
    assert_eq!(
        ki2::read_one(&ki2::to_string(&record).unwrap()).unwrap(),
        record
    );
}

#[test]
fn a_comment_that_reads_as_a_bookmark_is_said() {
    let text = format!("{OPENING}   1 ７六歩(77)\n*&not a bookmark\n&bookmark\n");
    let record = kif::read_one(&text).unwrap();
    assert_eq!(record.moves[0].comments, ["&not a bookmark", "&bookmark"]);
    assert_eq!(record.warnings.len(), 1);
    let warning = record.warnings[0].to_string();
    assert!(warning.starts_with("line 4, column 1"), "{warning}");
    assert!(warning.contains("is a bookmark (an & line)"), "{warning}");
}
