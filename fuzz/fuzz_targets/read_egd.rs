//! Reads arbitrary text as an EGD line and writes what reads back as EGD again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::chess::egd::{read_egd, EgdOptions, EgdWriter};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(game) = read_egd(text, 0) {
        let mut out = Vec::new();
        let options = EgdOptions { extended: true, pretty: true };
        EgdWriter::new(options).write(&game, &mut out).expect("a game read from EGD is EGD");
    }
});
