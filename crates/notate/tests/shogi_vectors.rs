//! The shogi reference vectors (`vectors/shogi/`): every file reads to the
//! expected moves and the expected SFEN after every ply; every format written reads back to
//! the same game; every row of the oracle matrix in `spec/reference/d3shogi.md` passes.

use std::path::PathBuf;

use notate::shogi::encoding::ReadOptions;
use notate::shogi::encoding::{self, Encoding};
use notate::shogi::{csa, jkf, ki2, kif, sfen, usi, western, EndingKind, Position, Record};
use notate::ErrorKind;
use serde_json::Value;

fn vectors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors/shogi")
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(vectors().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn text(name: &str) -> String {
    String::from_utf8(bytes(name)).unwrap()
}

fn expected(game: &str) -> Value {
    let all: Value = serde_json::from_slice(&bytes("expected_vectors.json")).unwrap();
    all[game].clone()
}

/// Asserts the record's moves, SFEN after every ply and final SFEN are the expected ones.
fn assert_game(record: &Record, game: &str, source: &str) {
    let want = expected(game);
    assert_eq!(
        record.start.to_sfen(),
        want["start_sfen"],
        "{source}: start"
    );
    let plies = want["plies"].as_array().unwrap();
    assert_eq!(record.moves.len(), plies.len(), "{source}: ply count");
    let mut pos = record.start.clone();
    for (m, p) in record.moves.iter().zip(plies) {
        assert_eq!(m.mv.to_string(), p["usi"], "{source}: ply {}", p["ply"]);
        pos.play(m.mv).unwrap();
        assert_eq!(pos.to_sfen(), p["sfen_after"], "{source}: ply {}", p["ply"]);
    }
    assert_eq!(pos.to_sfen(), want["final_sfen"], "{source}: final");
    let mut line = String::new();
    line.push_str(&usi::to_string(record).unwrap());
    let usi_position = want["usi_position"].as_str().unwrap();
    // notate writes `startpos` for the even-game start, which is the same command.
    assert_eq!(
        line.trim_end().replace(
            "position startpos",
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        ),
        usi_position,
        "{source}: usi"
    );
}

fn ending(record: &Record) -> Option<EndingKind> {
    record.ending.as_ref().map(|e| e.kind)
}

#[test]
fn every_kif_vector_reads_to_the_expected_game() {
    for name in [
        "game1.kifu",
        "game1_no_funari.kifu",
        "game1_variation.kifu",
        "game1_variation_nofunari.kifu",
    ] {
        let record = notate::format::read_bytes::<kif::Kif>(&bytes(name), ReadOptions::default())
            .remove(0)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_game(&record, "game1", name);
        assert_eq!(ending(&record), Some(EndingKind::Resign), "{name}");
        assert_eq!(record.header_value("先手"), Some("Alice"));
        assert_eq!(record.moves[2].time.unwrap().spent_ms, 10_000);
        assert_eq!(record.moves[2].time.unwrap().total_ms, Some(15_000));
    }
    for name in ["pos2_bod.kifu", "pos2_bod_noteai.kifu"] {
        let record = notate::format::read_bytes::<kif::Kif>(&bytes(name), ReadOptions::default())
            .remove(0)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_game(&record, "pos2", name);
        assert_eq!(ending(&record), Some(EndingKind::Abort), "{name}");
    }
}

#[test]
fn shift_jis_kif_is_detected_and_reads_like_utf8() {
    let raw = bytes("game1_sjis.kif");
    assert_eq!(encoding::detect(&raw), Encoding::ShiftJis);
    let record = notate::format::read_bytes::<kif::Kif>(&raw, ReadOptions::default())
        .remove(0)
        .unwrap();
    assert_game(&record, "game1", "game1_sjis.kif");
    assert_eq!(record, kif::read_one(&text("game1.kifu")).unwrap());
    // Forcing the wrong encoding is an error that names the line, never garbage.
    let e = notate::format::read_bytes::<kif::Kif>(
        &raw,
        ReadOptions {
            encoding: Some(Encoding::Utf8),
        },
    )
    .remove(0)
    .unwrap_err();
    assert_eq!(
        (e.kind, e.place.map(|p| p.line)),
        (ErrorKind::Encoding, Some(2)),
        "{e}"
    );
}

#[test]
fn every_ki2_vector_reads_to_the_expected_game() {
    for name in ["game1.ki2", "game1_1perline.ki2"] {
        let record = ki2::read_one(&text(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_game(&record, "game1", name);
        assert_eq!(ending(&record), Some(EndingKind::Resign), "{name}");
    }
}

#[test]
fn every_csa_vector_reads_to_the_expected_game() {
    for name in [
        "game1.csa",
        "game1_commas.csa",
        "game1_commas_v22.csa",
        "game1_noenc.csa",
        "game1_noenc_v22.csa",
        "game1_v22.csa",
    ] {
        let record = csa::read_one(&text(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_game(&record, "game1", name);
        assert_eq!(ending(&record), Some(EndingKind::Resign), "{name}");
        assert_eq!(record.header_value("先手"), Some("Alice"), "{name}");
        assert_eq!(record.header_value("開始日時"), Some("2024/01/02 10:00:00"));
        // Times survive commas (cshogi loses them) and the ending keeps its own.
        assert_eq!(record.moves[2].time.unwrap().spent_ms, 10_000, "{name}");
        assert_eq!(
            record.ending.as_ref().unwrap().time.unwrap().spent_ms,
            30_000,
            "{name}"
        );
    }
    let record = csa::read_one(&text("pos2.csa")).unwrap();
    assert_game(&record, "pos2", "pos2.csa");
    assert_eq!(ending(&record), Some(EndingKind::Abort));
}

#[test]
fn the_expected_notations_of_every_ply_are_what_notate_writes() {
    for game in ["game1", "pos2"] {
        let want = expected(game);
        let record = usi::read_one(want["usi_position"].as_str().unwrap()).unwrap();
        let mut pos = record.start.clone();
        let mut last_to = None;
        for (m, p) in record.moves.iter().zip(want["plies"].as_array().unwrap()) {
            let western = western::move_text(&pos, m.mv, western::SquareStyle::Letter);
            assert_eq!(western, p["western_letter"], "{game} ply {}", p["ply"]);
            let digit = western::move_text(&pos, m.mv, western::SquareStyle::Digit);
            assert_eq!(digit, p["western_digit"], "{game} ply {}", p["ply"]);
            assert_eq!(
                csa::move_text(&pos, m.mv),
                p["csa"],
                "{game} ply {}",
                p["ply"]
            );
            // KIF and KI2 text through the writers (one-move records from this position).
            let mut one = Record::new(pos.clone());
            one.moves.push(m.clone());
            let kif_text = kif::to_string(&one).unwrap();
            let kif_move = p["kif"].as_str().unwrap();
            if last_to == Some(m.mv.to()) {
                // A lone move cannot say 同: check the square form instead.
                assert!(kif_move.starts_with('同'));
            } else {
                assert!(
                    kif_text.contains(&format!("   1 {kif_move}")),
                    "{game} ply {}: {kif_text}",
                    p["ply"]
                );
                let ki2_text = ki2::to_string(&one).unwrap();
                assert!(
                    ki2_text.contains(p["ki2"].as_str().unwrap()),
                    "{game} ply {}: {ki2_text}",
                    p["ply"]
                );
            }
            last_to = Some(m.mv.to());
            pos.play(m.mv).unwrap();
        }
    }
    // In a whole record, 同 is written where the expected notation has it.
    let record = kif::read_one(&text("game1.kifu")).unwrap();
    let ki2_text = ki2::to_string(&record).unwrap();
    for p in expected("game1")["plies"].as_array().unwrap() {
        assert!(
            ki2_text.contains(p["ki2"].as_str().unwrap()),
            "{}",
            p["ki2"]
        );
        assert!(
            kif::to_string(&record)
                .unwrap()
                .contains(p["kif"].as_str().unwrap()),
            "{}",
            p["kif"]
        );
    }
}

#[test]
fn kif_written_by_notate_is_the_vector_itself() {
    // Everything but the leading `#` comment line, byte for byte, and a `+` after the move a
    // variation replaces, which Kifu for Windows writes and the vector leaves out.
    for name in ["game1.kifu", "game1_variation.kifu", "pos2_bod.kifu"] {
        let source = text(name);
        let record = kif::read_one(&source).unwrap();
        let without_comment: String = source
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .replacen(
                "( 0:01/00:00:26)\n",
                "( 0:01/00:00:26)+\n",
                usize::from(name == "game1_variation.kifu"),
            );
        assert_eq!(kif::to_string(&record).unwrap(), without_comment, "{name}");
    }
    let source = text("game1.ki2");
    assert_eq!(
        ki2::to_string(&ki2::read_one(&source).unwrap()).unwrap(),
        source
    );
    let source = text("game1.csa");
    assert_eq!(
        csa::to_string_with(
            &csa::read_one(&source).unwrap(),
            csa::WriteOptions::default()
        )
        .unwrap(),
        source
    );
}

#[test]
fn variations_are_kept_apart_from_the_main_line() {
    let record = kif::read_one(&text("game1_variation.kifu")).unwrap();
    assert_eq!(record.moves.len(), 10);
    assert_eq!(record.variations.len(), 1);
    let v = &record.variations[0];
    assert_eq!((v.parent, v.first_ply), (0, 9));
    let moves: Vec<String> = v.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(moves, ["3d4c+", "4b4c"]);
}

/// Every format notate writes reads back to the same game.
fn round_trip(record: &Record, name: &str) {
    let same_moves = |other: &Record, format: &str| {
        assert_eq!(other.start, record.start, "{name} via {format}: start");
        let a: Vec<_> = record.moves.iter().map(|m| m.mv).collect();
        let b: Vec<_> = other.moves.iter().map(|m| m.mv).collect();
        assert_eq!(a, b, "{name} via {format}: moves");
    };
    let back = kif::read_one(&kif::to_string(record).unwrap()).unwrap();
    assert_eq!(&back, record, "{name} via KIF");
    let mut writer = kif::Writer::with_options(
        Vec::new(),
        kif::WriteOptions {
            encoding: Encoding::ShiftJis,
            ..Default::default()
        },
    );
    writer.write(record).unwrap();
    let bytes = writer.into_inner().unwrap();
    assert_eq!(
        &notate::format::read_bytes::<kif::Kif>(&bytes, ReadOptions::default())
            .remove(0)
            .unwrap(),
        record,
        "{name} via Shift_JIS KIF"
    );
    let back = ki2::read_one(&ki2::to_string(record).unwrap()).unwrap();
    same_moves(&back, "KI2");
    assert_eq!(ending(&back), ending(record), "{name} via KI2");
    assert_eq!(
        back.variations.len(),
        record.variations.len(),
        "{name} via KI2"
    );
    assert_eq!(
        &jkf::read_one(&jkf::to_string_with(record, jkf::WriteOptions { pretty: true }).unwrap())
            .unwrap(),
        record,
        "{name} via JKF"
    );
    for version in [csa::CsaVersion::V22, csa::CsaVersion::V30] {
        let text = csa::to_string_with(record, csa::WriteOptions { version }).unwrap();
        let back = csa::read_one(&text).unwrap();
        same_moves(&back, "CSA");
        assert_eq!(ending(&back), ending(record), "{name} via CSA");
        // CSA puts the names first; every other key keeps its value.
        let mut want: Vec<_> = record
            .header
            .iter()
            .filter(|(k, _)| k != "手合割")
            .cloned()
            .collect();
        let mut got = back.header.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{name} via CSA: header");
    }
    for style in [western::SquareStyle::Letter, western::SquareStyle::Digit] {
        same_moves(
            &western::read_one(
                &western::to_string_with(record, western::WriteOptions { squares: style }).unwrap(),
            )
            .unwrap(),
            "Western",
        );
    }
    let mut line = String::new();
    line.push_str(&usi::to_string(record).unwrap());
    same_moves(&usi::read_one(&line).unwrap(), "USI");
    let sfens = sfen::to_string(record).unwrap();
    // One SFEN per position, then the blank line that ends the game.
    let sfens = sfens.strip_suffix("\n\n").unwrap();
    assert_eq!(sfens.lines().count(), record.moves.len() + 1);
    assert_eq!(
        sfens.lines().last().unwrap(),
        record.end_position().to_sfen()
    );
}

#[test]
fn every_format_written_reads_back_to_the_same_game() {
    for name in [
        "game1.kifu",
        "game1_variation.kifu",
        "pos2_bod.kifu",
        "pos2_bod_noteai.kifu",
    ] {
        round_trip(&kif::read_one(&text(name)).unwrap(), name);
    }
    round_trip(&csa::read_one(&text("pos2.csa")).unwrap(), "pos2.csa");
    round_trip(&ki2::read_one(&text("game1.ki2")).unwrap(), "game1.ki2");
}

/// The oracle matrix of `d3shogi.md`, one row at a time: notate passes every row, including
/// those where each existing library fails.
#[test]
fn oracle_matrix() {
    let final_sfen = |r: &Record| r.end_position().to_sfen();
    let game1 = expected("game1")["final_sfen"]
        .as_str()
        .unwrap()
        .to_string();
    let pos2 = expected("pos2")["final_sfen"].as_str().unwrap().to_string();
    // game1.kifu with 不成: cshogi drops the line, shogi-kifu-converter stops after 2 plies.
    let r = kif::read_one(&text("game1.kifu")).unwrap();
    assert_eq!((final_sfen(&r), r.moves.len()), (game1.clone(), 10));
    // game1_no_funari.kifu.
    let r = kif::read_one(&text("game1_no_funari.kifu")).unwrap();
    assert_eq!((final_sfen(&r), r.moves.len()), (game1.clone(), 10));
    // game1_dou_ascii.kifu (`同 銀`): every library failed.
    let dou_ascii = text("game1.kifu").replace("同　", "同 ");
    let r = kif::read_one(&dou_ascii).unwrap();
    assert_eq!((final_sfen(&r), r.moves.len()), (game1.clone(), 10));
    let dou_bare = text("game1.kifu").replace("同　", "同");
    assert_eq!(final_sfen(&kif::read_one(&dou_bare).unwrap()), game1);
    // Variations: python-shogi appends them to the main line.
    for name in ["game1_variation.kifu", "game1_variation_nofunari.kifu"] {
        let r = kif::read_one(&text(name)).unwrap();
        assert_eq!(
            (final_sfen(&r), r.moves.len(), r.variations.len()),
            (game1.clone(), 10, 1)
        );
    }
    // game1.ki2, six moves a line: cshogi raises IndexError.
    let r = ki2::read_one(&text("game1.ki2")).unwrap();
    assert_eq!((final_sfen(&r), r.moves.len()), (game1.clone(), 10));
    let r = ki2::read_one(&text("game1_1perline.ki2")).unwrap();
    assert_eq!((final_sfen(&r), r.moves.len()), (game1.clone(), 10));
    // CSA V3.0 (shogi-kifu-converter reads only V2.x), without the encoding line, V2.2, commas.
    for name in [
        "game1.csa",
        "game1_noenc.csa",
        "game1_v22.csa",
        "game1_commas_v22.csa",
        "game1_commas.csa",
    ] {
        let r = csa::read_one(&text(name)).unwrap();
        assert_eq!(
            (final_sfen(&r), r.moves.len()),
            (game1.clone(), 10),
            "{name}"
        );
        assert_eq!(ending(&r), Some(EndingKind::Resign), "{name}: result lost");
    }
    // pos2.csa, `P-00AL` after Black's hand: cshogi ignores AL, shogi-kifu-converter forgets
    // Black's hand.
    let r = csa::read_one(&text("pos2.csa")).unwrap();
    assert_eq!((final_sfen(&r), r.moves.len()), (pos2.clone(), 4));
    // pos2_explicit.csa: the hands listed piece by piece.
    let explicit = text("pos2.csa").replace(
        "P-00AL",
        &format!(
            "P-{}",
            "00HI".repeat(2)
                + &"00KA".repeat(2)
                + &"00KI".repeat(3)
                + &"00GI".repeat(4)
                + &"00KE".repeat(4)
                + &"00KY".repeat(4)
                + &"00FU".repeat(16)
        ),
    );
    let r = csa::read_one(&explicit).unwrap();
    assert_eq!(
        r.start.to_sfen(),
        "4k4/9/9/9/9/9/9/9/4K4 b G2P2r2b3g4s4n4l16p 1"
    );
    assert_eq!((final_sfen(&r), r.moves.len()), (pos2.clone(), 4));
    // pos2_bod.kifu (手合割：その他) and pos2_bod_noteai.kifu: cshogi ignores the diagram.
    for name in ["pos2_bod.kifu", "pos2_bod_noteai.kifu"] {
        let r = kif::read_one(&text(name)).unwrap();
        assert_eq!((final_sfen(&r), r.moves.len()), (pos2.clone(), 4), "{name}");
    }
}

#[test]
fn a_line_notate_cannot_read_is_an_error_with_its_place() {
    let broken = text("game1.kifu").replace("   5 ４五角打", "   5 ４五角打ち");
    let e = kif::read_one(&broken).unwrap_err();
    assert_eq!(
        (e.kind, e.place.map(|p| p.line)),
        (ErrorKind::Syntax, Some(11)),
        "{e}"
    );
    assert!(e.to_string().contains("４五角打ち"), "{e}");
    // A move missing from the middle is not skipped: the numbers say so.
    let missing = text("game1.kifu").replace("   6 １四歩(13)   ( 0:04/00:00:09)\n", "");
    let e = kif::read_one(&missing).unwrap_err();
    assert!(e.to_string().contains("move number 7, expected 6"), "{e}");
    // An illegal move names its ply and the move as written.
    let illegal = text("game1.kifu").replace("１四歩(13)", "１五歩(13)");
    let e = kif::read_one(&illegal).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 12, column 6, ply 6 \"１五歩(13)\": the pawn on 1c cannot reach 1e"
    );
    let e = csa::read_one(&text("game1.csa").replace("-1314FU", "-1315FU")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 18, ply 6 \"-1315FU\": the pawn on 1c cannot reach 1e"
    );
    let e = ki2::read_one(&text("game1.ki2").replace("▲３四角", "▲３四金")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("line 7, column 1, ply 7 \"▲３四金\": "),
        "{e}"
    );
    let e = csa::read_one("V2.2\nPI\n+\n+7776FU\nXYZ\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 5, column 1 \"XYZ\": not a CSA statement"
    );
}

#[test]
fn every_start_position_has_one_sfen_per_ply() {
    let record = kif::read_one(&text("game1.kifu")).unwrap();
    let mut out = String::new();
    out.push_str(&sfen::to_string(&record).unwrap());
    let want = expected("game1");
    let mut lines = out.lines();
    assert_eq!(lines.next().unwrap(), want["start_sfen"]);
    for (line, p) in lines.zip(want["plies"].as_array().unwrap()) {
        assert_eq!(line, p["sfen_after"]);
    }
    assert_eq!(Position::startpos().to_sfen(), want["start_sfen"]);
}
