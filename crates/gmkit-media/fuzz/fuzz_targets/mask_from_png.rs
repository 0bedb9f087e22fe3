//! Fuzz target: mask import from any bytes as a PNG, against a small mask size taken from the
//! first two bytes (and against the 1M × 1M a hostile sprite's margins can give, which the
//! budget must refuse before allocating); the result is an error or exactly the mask's length.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [w, h, png @ ..] = data else { return };
    let (w, h) = (u32::from(*w), u32::from(*h));
    if let Ok(mask) = gmkit_media::mask::from_png(png, w, h) {
        assert_eq!(mask.len(), (w as usize).div_ceil(8) * h as usize);
    }
    assert!(gmkit_media::mask::from_png(png, 1 << 20, 1 << 20).is_err());
});
