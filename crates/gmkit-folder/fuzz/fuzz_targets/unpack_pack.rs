//! Fuzz target: a data file that `gmkit check` accepts (strict parse, byte-identical rebuild)
//! is refused by unpack with an error, or unpacks to a folder that packs back to the same bytes;
//! never a panic, a lost value or a pack failure. Seed it with corpus files:
//! `cargo +nightly fuzz run unpack_pack corpus/ ../../../../shared/corpus -- -max_len=2000000 -rss_limit_mb=2048`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(m) = gmkit_folder::roundtrip::round_trip(data) {
        panic!("unpack → pack is not exact: {m}");
    }
});
