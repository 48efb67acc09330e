//! Reads arbitrary bytes as KIF, KI2 and CSA (every encoding, detected and forced), and as
//! JKF, USI, Western, SFEN and an opening book. Whatever reads must write, in every shogi
//! format, a record that reads back with the same moves, and the formats that keep endings
//! and variations (KIF, KI2, JKF) keep them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::shogi::encoding::{Encoding, ReadOptions};
use notate::shogi::{book, csa, jkf, ki2, kif, usi, western, EndingKind, Position, Record};
use notate::{Error, ErrorKind};

fn moves(record: &Record) -> Vec<String> {
    record.moves.iter().map(|m| m.mv.to_string()).collect()
}

/// The ending as every format can say it: KIF and KI2 have one word for both kinds of foul,
/// JKF and CSA none for a sealed move.
fn ending(record: &Record) -> Option<EndingKind> {
    record.ending.as_ref().map(|e| match e.kind {
        EndingKind::IllegalAction => EndingKind::IllegalLoss,
        EndingKind::Sealed => EndingKind::Abort,
        // KIF and KI2 have no word for it and write 持将棋.
        EndingKind::MaxMoves => EndingKind::Impasse,
        kind => kind,
    })
}

fn check(record: &Record) {
    type Write = fn(&Record) -> Result<String, Error>;
    type Read = fn(&str) -> Result<Record, Error>;
    let written: [(&str, Write, Read, bool); 6] = [
        ("KIF", kif::to_string, kif::read_one, true),
        ("KI2", ki2::to_string, ki2::read_one, true),
        ("JKF", jkf::to_string, jkf::read_one, true),
        ("CSA", csa::to_string, csa::read_one, false),
        ("USI", usi::to_string, usi::read_one, false),
        ("Western", western::to_string, western::read_one, false),
    ];
    for (name, write, read, keeps_all) in written {
        // A format may refuse what it cannot hold (a header with a line break), saying so.
        let text = match write(record) {
            Ok(text) => text,
            Err(e) if e.kind == ErrorKind::Unwritable => continue,
            Err(e) => panic!("{name} write: {e}"),
        };
        let back = read(&text).unwrap_or_else(|e| panic!("written {name} reads back: {e}\n{text}"));
        assert_eq!(moves(&back), moves(record), "{name} moves\n{text}");
        // The start's move number is SFEN's alone: the board, hands and side must agree.
        assert!(
            back.start.same_position(&record.start),
            "{name} start\n{text}"
        );
        if keeps_all {
            assert_eq!(ending(&back), ending(record), "{name} ending\n{text}");
            assert_eq!(
                back.variations.len(),
                record.variations.len(),
                "{name} variations\n{text}"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut records = Vec::new();
    let encodings = [
        None,
        Some(Encoding::Utf8),
        Some(Encoding::ShiftJis),
        Some(Encoding::EucJp),
    ];
    for encoding in encodings {
        let options = ReadOptions { encoding };
        records.extend(
            notate::format::read_bytes::<kif::Kif>(data, options)
                .into_iter()
                .flatten(),
        );
        records.extend(
            notate::format::read_bytes::<ki2::Ki2>(data, options)
                .into_iter()
                .flatten(),
        );
        records.extend(
            notate::format::read_bytes::<csa::Csa>(data, options)
                .into_iter()
                .flatten(),
        );
        records.extend(
            notate::format::read_bytes::<jkf::Jkf>(data, options)
                .into_iter()
                .flatten(),
        );
    }
    if let Ok(text) = std::str::from_utf8(data) {
        records.extend(usi::Reader::new(text.as_bytes()).into_iter().flatten());
        records.extend(western::read_one(text));
        records.extend(book::Reader::new(text.as_bytes()).flatten());
        let _ = Position::from_sfen(text);
    }
    for record in &records {
        check(record);
    }
});
