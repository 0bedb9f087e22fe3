//! Fuzz target: any bytes as a texture page blob (PNG, `fioq`, `2zoq`, anything else) decode to
//! an image or an error, never panic, hang or allocate from an unchecked size: every decoded
//! image fits the per-image budget (`gmkit_media::budget`), checked from the header first.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Let the fuzzer reach the QOI decoders directly as well as through the magic.
    for blob in [data.to_vec(), [b"fioq".as_slice(), data].concat(), [b"2zoq".as_slice(), data].concat()] {
        if let Ok(img) = gmkit_media::decode(&blob) {
            assert_eq!(img.pixels().len(), img.width() as usize * img.height() as usize * 4);
            assert!(img.pixels().len() as u64 <= gmkit_media::budget::MAX_IMAGE_BYTES);
            assert_eq!(gmkit_media::declared_size(&blob).ok(), Some((img.width(), img.height())));
        }
    }
});
