//! Reads arbitrary bytes as KIF, KI2 and CSA (both encodings, detected and forced), and as
//! JKF, USI, Western, SFEN and an opening book; whatever reads is written as KIF and CSA
//! and must read back to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::shogi::encoding::Encoding;
use notate::shogi::encoding::ReadOptions;
use notate::shogi::{book, csa, jkf, ki2, kif, usi, western, Position, Record};

fn check(record: &Record) {
    let moves: Vec<_> = record.moves.iter().map(|m| m.mv).collect();
    let back = kif::read_one(&kif::to_string(record).unwrap()).expect("written KIF reads back");
    assert_eq!(back.moves.iter().map(|m| m.mv).collect::<Vec<_>>(), moves);
    let text = csa::to_string_with(record, csa::WriteOptions::default()).unwrap();
    let back = csa::read_one(&text).expect("written CSA reads back");
    assert_eq!(back.moves.iter().map(|m| m.mv).collect::<Vec<_>>(), moves);
}

fuzz_target!(|data: &[u8]| {
    let mut records = Vec::new();
    for encoding in [None, Some(Encoding::Utf8), Some(Encoding::ShiftJis)] {
        records.extend(
            notate::format::read_bytes::<kif::Kif>(data, ReadOptions { encoding })
                .into_iter()
                .flatten(),
        );
        records.extend(
            notate::format::read_bytes::<ki2::Ki2>(data, ReadOptions { encoding })
                .into_iter()
                .flatten(),
        );
        records.extend(
            notate::format::read_bytes::<csa::Csa>(data, ReadOptions { encoding })
                .into_iter()
                .flatten(),
        );
    }
    if let Ok(text) = std::str::from_utf8(data) {
        records.extend(jkf::read_one(text));
        records.extend(usi::Reader::new(text.as_bytes()).into_iter().flatten());
        records.extend(western::read_one(text));
        records.extend(book::Reader::new(text.as_bytes()).flatten());
        let _ = Position::from_sfen(text);
    }
    for record in &records {
        check(record);
    }
});
