//! Fuzz the ds_* reader: any input must give `Ok` or `Err`, never a panic, a hang or a huge
//! allocation; whatever decodes strictly must re-encode to data that decodes the same.
//!
//! Run: `cd crates/gmkit-value && cargo +nightly fuzz run ds_decode`

#![no_main]

use gmkit_value::ds::{self, DecodeOptions, DsKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let kind = DsKind::ALL.get(usize::from(selector % 8)).copied();
    let opts = if selector & 0x80 != 0 {
        DecodeOptions::html5()
    } else {
        DecodeOptions::default()
    };
    // the raw byte stream
    if let Ok(d) = ds::decode_bytes(rest, kind, &opts) {
        let _ = ds::encode(&d);
    }
    // the text layer
    if let Ok(text) = std::str::from_utf8(rest) {
        if let Ok(d) = ds::decode_with(text, kind, &opts) {
            let hex = ds::encode(&d).expect("decoded data encodes");
            if !opts.html5_compat {
                let again = ds::decode(&hex, kind).expect("own output decodes");
                assert_eq!(again, d);
            }
        }
    }
});
