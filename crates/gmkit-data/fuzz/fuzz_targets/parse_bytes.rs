//! Fuzz target: any input must parse to a model or an error, never panic or hang; a model that
//! parses must also build without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for lenient in [false, true] {
        let opts = gmkit_data::ParseOptions {
            lenient,
            track_coverage: false,
        };
        if let Ok((file, _)) = gmkit_data::parse_bytes_with(data.to_vec(), &opts) {
            let _ = gmkit_data::build_bytes(&file);
        }
    }
});
