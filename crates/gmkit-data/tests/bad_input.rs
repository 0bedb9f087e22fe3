//! Damaged inputs: truncations, flipped bytes and broken headers must give an error that says
//! where, never a panic or a hang.

use gmkit_data::{ErrorKind, ParseOptions, build_bytes, parse_bytes, parse_bytes_with};
use std::panic::{AssertUnwindSafe, catch_unwind};

mod common;
use common::*;

/// Every corpus file both manifests list (every layout family, every size, the newest layouts).
fn all_files() -> Option<Vec<(String, Vec<u8>)>> {
    let v = corpus_all()?;
    assert!(
        v.len() >= 8,
        "expected at least 8 corpus files, found {}",
        v.len()
    );
    Some(v)
}

/// Mutations per file: many on small files, fewer on large ones (the whole sweep stays within
/// a few seconds of work per megabyte of corpus).
fn budget(len: usize, small: usize, large: usize) -> usize {
    (4_000_000 / len.max(1)).clamp(large, small)
}

/// Runs `check` over every file in parallel and collects the panics it reports.
fn sweep(
    files: Vec<(String, Vec<u8>)>,
    check: impl Fn(&str, &[u8], &mut Vec<String>) + Sync,
) -> Vec<String> {
    use rayon::prelude::*;
    files
        .par_iter()
        .flat_map_iter(|(name, bytes)| {
            let mut panics = Vec::new();
            check(name, bytes, &mut panics);
            panics
        })
        .collect()
}

/// Parses strictly and, when that fails, leniently (a file strict mode accepts reads the same
/// leniently); rebuilds what parsed. Returns a description of a panic if one happened.
fn survive(bytes: Vec<u8>) -> Option<String> {
    let r = catch_unwind(AssertUnwindSafe(|| {
        for lenient in [false, true] {
            let opts = ParseOptions {
                lenient,
                track_coverage: false,
            };
            if let Ok((file, _)) = parse_bytes_with(bytes.clone(), &opts) {
                let _ = build_bytes(&file);
                break;
            }
        }
    }));
    r.err().map(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn truncations_never_panic() {
    let panics = sweep(need!(all_files()), |name, bytes, panics| {
        let cuts = budget(bytes.len(), 400, 30);
        let step = (bytes.len() / cuts).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            if let Some(msg) = survive(bytes[..cut].to_vec()) {
                panics.push(format!("{name} cut at {cut}: {msg}"));
            }
        }
    });
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}

#[test]
fn byte_flips_never_panic() {
    let panics = sweep(need!(all_files()), |name, bytes, panics| {
        // One generator per file, seeded from its name: the same mutations on every run.
        let seed = name.bytes().fold(0x9E37_79B9_7F4A_7C15u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
        });
        let mut rng = XorShift(seed | 1);
        // Chunk bodies start with counts and pointers: aim a third of the changes there.
        let starts: Vec<usize> = chunk_table(bytes).iter().map(|c| c.1).collect();
        for _ in 0..budget(bytes.len(), 600, 16) {
            let mut m = bytes.to_vec();
            // One to four random changes: a flipped byte, or a whole u32 set to a nasty value.
            for _ in 0..=(rng.next() % 4) {
                let at = if rng.next().is_multiple_of(3) && !starts.is_empty() {
                    starts[(rng.next() as usize) % starts.len()] + (rng.next() % 64) as usize
                } else {
                    rng.next() as usize
                } % m.len();
                match rng.next() % 3 {
                    0 => m[at] ^= 1 << (rng.next() % 8),
                    1 => m[at] = rng.next() as u8,
                    _ => {
                        let at = at & !3;
                        let v: u32 = [
                            0,
                            1,
                            0xFFFF_FFFF,
                            0x7FFF_FFFF,
                            0x8000_0000,
                            m.len() as u32,
                            8,
                        ][(rng.next() % 7) as usize];
                        if at + 4 <= m.len() {
                            m[at..at + 4].copy_from_slice(&v.to_le_bytes());
                        }
                    }
                }
            }
            if let Some(msg) = survive(m) {
                panics.push(format!("{name}: {msg}"));
            }
        }
    });
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}

#[test]
fn errors_say_what_and_where() {
    let bytes = need!(corpus_file("the-game.win"));
    // Wrong magic.
    let mut m = bytes.clone();
    m[0..4].copy_from_slice(b"MROF");
    let e = parse_bytes(m).unwrap_err();
    assert_eq!(e.location.offset, 0);
    assert!(e.to_string().contains("FORM"), "{e}");
    // A chunk length pointing past the end names the chunk and the offset of the length field.
    let mut m = bytes.clone();
    m[12..16].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    let e = parse_bytes(m).unwrap_err();
    assert_eq!(
        e.location.chunk.map(|c| c.to_string()).as_deref(),
        Some("GEN8")
    );
    assert_eq!(e.location.offset, 12);
    // Truncated inside GEN8.
    let e = parse_bytes(bytes[..20].to_vec()).unwrap_err();
    assert!(
        matches!(
            e.kind,
            ErrorKind::Invalid { .. } | ErrorKind::Truncated { .. }
        ),
        "{e}"
    );
    // Empty input.
    let e = parse_bytes(Vec::new()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Truncated { .. }), "{e}");
    // A string reference that points nowhere names GEN8 and the field's offset.
    let mut m = bytes.clone();
    m[20..24].copy_from_slice(&3u32.to_le_bytes());
    let e = parse_bytes(m).unwrap_err();
    assert_eq!(
        e.location.chunk.map(|c| c.to_string()).as_deref(),
        Some("GEN8")
    );
    assert_eq!(e.location.offset, 20, "{e}");
    assert!(e.to_string().contains("STRG"), "{e}");
}
