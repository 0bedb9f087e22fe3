//! Hostile data files from `../shared/repro` (found by mutating corpus files): each gives a
//! clear error or a correct model, with bounded work and memory.
//!
//! Memory is measured with a counting global allocator: the total of every allocation made while
//! parsing (not just the peak) must stay under 64× the input or 64 MB, whichever is larger. The
//! counter is global, so the checks run one after another in a single test.

use gmkit_data::{ErrorKind, ParseOptions, build_bytes, parse_bytes_with};

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

/// Bytes allocated while running `f`.
fn allocated_by<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = gmkit_testdata::alloc::total();
    let out = f();
    (out, gmkit_testdata::alloc::total() - before)
}

fn limit(input: usize) -> usize {
    (64 * input).max(64 << 20)
}

/// A changed sprite count (u32 at the given offset): version detection used to scan up to 4
/// billion pointer slots. Now the count is checked against the bytes of SPRT everywhere it is
/// read, so detection skips it and the SPRT reader refuses it.
fn sprite_count(name: &str, count_at: usize) {
    let path = gmkit_testdata::need!(gmkit_testdata::repro_path(name));
    let data = std::fs::read(&path).unwrap();
    let count = u32::from_le_bytes(data[count_at..count_at + 4].try_into().unwrap());
    assert!(
        count as usize > data.len(),
        "{name}: the count is the damaged one"
    );
    for lenient in [false, true] {
        let opts = ParseOptions {
            lenient,
            track_coverage: false,
        };
        let (res, bytes) = allocated_by(|| parse_bytes_with(data.clone(), &opts));
        assert!(bytes < limit(data.len()), "{name}: {bytes} bytes allocated");
        println!(
            "{name} (lenient: {lenient}): {bytes} bytes allocated for {} bytes of input",
            data.len()
        );
        match res {
            Err(e) => {
                let text = e.to_string();
                assert!(
                    matches!(&e.kind, ErrorKind::CountTooLarge { count: c, .. } if *c == count as u64),
                    "{name}: {text}"
                );
                assert!(text.contains("SPRT"), "{name}: {text}");
            }
            // Lenient mode keeps SPRT as bytes: the rest is usable and rebuilds identically.
            Ok((file, report)) => {
                assert!(lenient, "{name}: strict parse must fail");
                assert!(file.opaque_chunks().iter().any(|c| c.as_str() == "SPRT"));
                let _ = report;
                assert_eq!(build_bytes(&file).unwrap(), data, "{name}");
            }
        }
    }
}

#[test]
fn hostile_sprite_counts_are_refused_cheaply() {
    sprite_count("hang-sprt-count-gml-simpledraw.win", 0x1C8);
    sprite_count("hang-sprt-count-the-game.win", 0x120);
}
