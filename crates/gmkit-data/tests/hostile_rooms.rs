//! Hostile ROOM inputs (`../shared/repro`): room layer detection used to be quadratic
//! (65,536 rooms × 65,536 layers) and allocated ~9 MB from one room-count word. Each must give a
//! clear error with bounded memory and work. Memory is measured by a counting global allocator; this file
//! holds a single test so that nothing else allocates meanwhile.

use gmkit_data::{ParseOptions, build_bytes, parse_bytes_with};

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

/// The bound: 64× the input or 64 MB, whichever is larger.
fn bound(len: usize) -> usize {
    (64 * len).max(64 << 20)
}

#[test]
fn room_detection_is_linear_and_bounded() {
    for (name, expect) in [
        ("hang-room-detect-quadratic.win", "STRG"),
        ("bigalloc-room-count-dieback.win", "room count"),
    ] {
        let path = gmkit_testdata::need!(gmkit_testdata::repro_path(name));
        let bytes = std::fs::read(path).unwrap();
        for lenient in [false, true] {
            let opts = ParseOptions {
                lenient,
                track_coverage: false,
            };
            let input = bytes.clone();
            let before = gmkit_testdata::alloc::live();
            gmkit_testdata::alloc::reset_peak();
            let total = gmkit_testdata::alloc::total();
            let result = parse_bytes_with(input, &opts);
            if let Ok((file, _)) = &result {
                let _ = build_bytes(file);
            }
            let peak = gmkit_testdata::alloc::peak() - before;
            let total = gmkit_testdata::alloc::total() - total;
            // The input itself is not counted (cloned before); what parsing allocates is.
            assert!(
                peak <= bound(bytes.len()),
                "{name}: {peak} bytes allocated for a {}-byte input",
                bytes.len()
            );
            // Tighter than the bar: detection must not allocate from the counts at all.
            assert!(
                peak <= 64 * bytes.len() + (1 << 20),
                "{name}: {peak} bytes allocated for a {}-byte input",
                bytes.len()
            );
            // The quadratic walk allocated a list per room (32 GB in all, 4 billion reads).
            assert!(
                total <= 64 * bytes.len() + (4 << 20),
                "{name}: {total} bytes allocated in all for a {}-byte input",
                bytes.len()
            );
            match result {
                Err(e) => assert!(
                    e.to_string().contains(expect),
                    "{name}: unexpected error {e}"
                ),
                Ok(_) => assert!(lenient, "{name}: parsed in strict mode"),
            }
        }
    }
}
