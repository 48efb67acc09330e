//! Parses arbitrary text as client and server messages (what parses must serialize and parse
//! again) and applies it as a generic update to a small document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notate::protocol::messages::{ClientMessage, ServerMessage};
use notate::protocol::updates::Update;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = ClientMessage::parse(text) {
        assert_eq!(ClientMessage::parse(&msg.to_json()).as_ref(), Ok(&msg));
    }
    if let Ok(msg) = ServerMessage::parse(text) {
        assert_eq!(ServerMessage::parse(&msg.to_json()).as_ref(), Ok(&msg));
    }
    if let Ok(update) = serde_json::from_str::<Update>(text) {
        let original = serde_json::json!({"a": {"b": [1, {"id": "x"}]}, "l": [{"id": 3}]});
        let mut doc = original.clone();
        if update.apply(&mut doc).is_err() {
            assert_eq!(doc, original);
        }
    }
});
