//! Reads arbitrary bytes as KIF, KI2 and CSA (both encodings, detected and forced), and as
//! JKF, USI, Western, SFEN and an opening book; whatever reads is written as KIF and CSA
//! and must read back to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::shogi::encoding::Encoding;
use notate::shogi::{book, csa, jkf, ki2, kif, usi, western, Position, Record};

fn check(record: &Record) {
    let moves: Vec<_> = record.moves.iter().map(|m| m.mv).collect();
    let back = kif::read(&kif::write(record)).expect("written KIF reads back");
    assert_eq!(back.moves.iter().map(|m| m.mv).collect::<Vec<_>>(), moves);
    let text = csa::write(record, &csa::CsaOptions::default());
    let back = csa::read(&text).expect("written CSA reads back");
    assert_eq!(back.moves.iter().map(|m| m.mv).collect::<Vec<_>>(), moves);
}

fuzz_target!(|data: &[u8]| {
    let mut records = Vec::new();
    for encoding in [None, Some(Encoding::Utf8), Some(Encoding::ShiftJis)] {
        records.extend(kif::read_bytes(data, encoding));
        records.extend(ki2::read_bytes(data, encoding));
        records.extend(csa::read_bytes(data, encoding).into_iter().flatten());
    }
    if let Ok(text) = std::str::from_utf8(data) {
        records.extend(jkf::read(text));
        records.extend(usi::read(text).into_iter().flatten());
        records.extend(western::read(text));
        if let Ok(openings) = book::read(text) {
            records.extend(openings.into_iter().flatten());
        }
        let _ = Position::from_sfen(text);
    }
    for record in &records {
        check(record);
    }
});
