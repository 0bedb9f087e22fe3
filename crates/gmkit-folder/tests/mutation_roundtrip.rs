//! Bar 2 of issue 15: every mutated data file that `check` accepts (strict parse, byte-identical
//! rebuild) unpacks → packs identically, or unpack refuses it with an error.
//!
//! Seeded and deterministic: mutant `i` of corpus file `f` is the same on every run (its seed is
//! made from the name and `i`), and a failure names both. Mutations land in chunk bodies, never in
//! the FORM or chunk headers: a flipped bit, a byte set, a 4-aligned word nudged by ±1..3 or set
//! to a sentinel (0, -1, NaN, ±inf, -0.0, a NaN payload, huge), or a few of these at once.
//!
//! CI runs a bounded share (`DEFAULT_MUTANTS` per file, fewer for big files); a longer run:
//! `GMKIT_SWEEP_MUTANTS=2000 cargo test --release -p gmkit-folder --test mutation_roundtrip -- --nocapture`
//! (`GMKIT_SWEEP_SEED=N` shifts every seed for a fresh set).

use gmkit_folder::roundtrip::{Outcome, chunk_at, round_trip};
use gmkit_testdata::Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Mutants per corpus file in CI (a file over `BIG` bytes gets a share scaled by its size).
const DEFAULT_MUTANTS: usize = 60;
/// Files larger than this get proportionally fewer mutants (unpack cost grows with size).
const BIG: usize = 300_000;
/// Bodies of chunks that are mostly opaque payloads are mutated only in their first bytes
/// (the records before the blobs).
const BLOB_HEAD: usize = 256;

/// The chunk bodies of a data file: (name, start, end).
fn bodies(b: &[u8]) -> Vec<([u8; 4], usize, usize)> {
    let mut out = Vec::new();
    let mut off = 8usize;
    while off + 8 <= b.len() {
        let name: [u8; 4] = b[off..off + 4].try_into().unwrap();
        let len = u32::from_le_bytes(b[off + 4..off + 8].try_into().unwrap()) as usize;
        let (start, end) = (off + 8, (off + 8).saturating_add(len).min(b.len()));
        if end > start {
            let end = if matches!(&name, b"TXTR" | b"AUDO" | b"EMBI") {
                end.min(start + BLOB_HEAD)
            } else {
                end
            };
            out.push((name, start, end));
        }
        off = off + 8 + len;
    }
    out
}

/// One seeded mutant of `orig`, and a description of what changed.
fn mutate(orig: &[u8], seed: u64) -> (Vec<u8>, String) {
    let mut rng = Rng(seed | 1);
    for _ in 0..4 {
        rng.next();
    }
    let chunks = bodies(orig);
    let mut b = orig.to_vec();
    let mut what = Vec::new();
    let changes = if rng.below(4) == 0 {
        2 + rng.below(3)
    } else {
        1
    };
    for _ in 0..changes {
        let (name, start, end) = chunks[rng.below(chunks.len())];
        let name = String::from_utf8_lossy(&name).into_owned();
        let i = start + rng.below(end - start);
        let word = start + (i - start) / 4 * 4;
        match rng.below(5) {
            0 => {
                b[i] ^= 1 << rng.below(8);
                what.push(format!("{name}@{i}: bit flip"));
            }
            1 => {
                b[i] = rng.next() as u8;
                what.push(format!("{name}@{i}: byte {:#04x}", b[i]));
            }
            2 | 3 if word + 4 <= end => {
                let old = u32::from_le_bytes(b[word..word + 4].try_into().unwrap());
                let new = if rng.below(2) == 0 {
                    let d = 1 + rng.below(3) as u32;
                    if rng.below(2) == 0 {
                        old.wrapping_add(d)
                    } else {
                        old.wrapping_sub(d)
                    }
                } else {
                    const SENTINELS: [u32; 10] = [
                        0,
                        1,
                        u32::MAX,
                        0x7FC0_0000,
                        0xFFC0_0000,
                        0x7F80_0000,
                        0xFF80_0000,
                        0x8000_0000,
                        0x7FC0_0001,
                        0x7FFF_FFFF,
                    ];
                    SENTINELS[rng.below(SENTINELS.len())]
                };
                b[word..word + 4].copy_from_slice(&new.to_le_bytes());
                what.push(format!("{name}@{word}: u32 {old:#x} -> {new:#x}"));
            }
            _ => {
                b[i] = b[i].wrapping_add(1);
                what.push(format!("{name}@{i}: byte +1"));
            }
        }
    }
    (b, what.join(", "))
}

fn seed_of(name: &str, i: usize, shift: u64) -> u64 {
    let h = name.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    });
    h ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ shift.wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

fn env_usize(key: &str) -> Option<usize> {
    std::env::var(key).ok().and_then(|v| v.parse().ok())
}

/// The files of `MANIFEST.tsv` and `MANIFEST-next.tsv` (when present).
fn files() -> Option<Vec<(String, Vec<u8>)>> {
    let mut files = gmkit_testdata::corpus()?;
    let dir = gmkit_testdata::corpus_dir()?;
    if let Ok(next) = std::fs::read_to_string(dir.join("MANIFEST-next.tsv")) {
        for line in next.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let name = line.split('\t').next().unwrap_or_default();
            if let Ok(b) = std::fs::read(dir.join(name)) {
                files.push((name.to_owned(), b));
            }
        }
    }
    Some(files)
}

#[test]
fn mutants_that_check_accepts_unpack_and_pack_identically() {
    let files = gmkit_testdata::need!(files());
    let per_file = env_usize("GMKIT_SWEEP_MUTANTS").unwrap_or(DEFAULT_MUTANTS);
    let shift = env_usize("GMKIT_SWEEP_SEED").unwrap_or(0) as u64;
    let long = std::env::var_os("GMKIT_SWEEP_MUTANTS").is_some();
    // (file, mutant index) pairs; a file that itself fails the check contributes none.
    let mut jobs: Vec<(usize, usize)> = Vec::new();
    let mut skipped = Vec::new();
    for (f, (name, bytes)) in files.iter().enumerate() {
        match round_trip(bytes) {
            Ok(Outcome::Identical) => {}
            Ok(other) => {
                skipped.push(format!("{name}: {other:?}"));
                continue;
            }
            Err(e) => panic!("{name} (unmutated): {e}"),
        }
        let n = if long || bytes.len() <= BIG {
            per_file
        } else {
            (per_file * BIG / bytes.len()).max(4)
        };
        jobs.extend((0..n).map(|i| (f, i)));
    }
    let results: Vec<(usize, usize, String, Result<Outcome, String>)> = jobs
        .into_par_iter()
        .map(|(f, i)| {
            let (name, orig) = &files[f];
            let (m, what) = mutate(orig, seed_of(name, i, shift));
            let r = std::panic::catch_unwind(|| round_trip(&m));
            let r = match r {
                Ok(Ok(o)) => Ok(o),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err("panicked".to_owned()),
            };
            (f, i, what, r)
        })
        .collect();
    let (mut unchecked, mut refused, mut identical) = (0usize, 0usize, 0usize);
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (f, i, what, r) in &results {
        match r {
            Ok(Outcome::NotChecked(_)) => unchecked += 1,
            Ok(Outcome::UnpackRefused(e)) => {
                refused += 1;
                *refusals
                    .entry(e.message.chars().take(60).collect())
                    .or_default() += 1;
            }
            Ok(Outcome::Identical) => identical += 1,
            Err(e) => failures.push(format!("{} #{i} [{what}]: {e}", files[*f].0)),
        }
    }
    for s in &skipped {
        eprintln!("not swept (the file itself is not checked): {s}");
    }
    for (m, n) in &refusals {
        eprintln!("unpack refused {n}x: {m}");
    }
    let _ = chunk_at;
    eprintln!(
        "{} mutants: {unchecked} rejected by check, {refused} refused by unpack, {identical} identical, {} failed",
        results.len(),
        failures.len()
    );
    assert!(identical > 0, "no mutant got through the round trip");
    assert!(
        failures.is_empty(),
        "{} of {} checked mutants do not pack back identically:\n{}",
        failures.len(),
        results.len() - unchecked,
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
