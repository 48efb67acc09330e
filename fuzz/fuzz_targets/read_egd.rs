//! Reads arbitrary text as EGD lines and writes what reads back as EGD again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::chess::egd;

fuzz_target!(|data: &[u8]| {
    for game in egd::Reader::new(data).flatten() {
        let options = egd::WriteOptions {
            extended: true,
            pretty: true,
        };
        egd::to_string_with(&game, options).expect("a game read from EGD is EGD");
    }
});
