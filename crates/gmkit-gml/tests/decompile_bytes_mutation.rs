//! Seeded byte mutations of the bytecode of real code entries (every corpus file, a few
//! hundred mutations in all): the mutated file is parsed again, and every entry of the mutated
//! blob that decodes must decompile and print, or fail with an error, without a panic, a stack
//! overflow or a runaway allocation. The same sweep, unbounded, is the `decompile_bytes` fuzz
//! target (`crates/gmkit-gml/fuzz`).

use gmkit_data::chunks::code::CodeBody;
use gmkit_gml::{Game, decompile, print};
use gmkit_testdata::{Rng, corpus, need};
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Mutations in all, spread evenly over the corpus files (`GMKIT_DECOMPILE_MUTATIONS` sets
/// another number, for a longer sweep).
const MUTATIONS: usize = 330;

/// Changes per mutation: 1 to this many.
const MAX_CHANGES: usize = 3;

/// Changes `blob` (the bytes of one entry's instructions, 32-bit little-endian words whose
/// high byte is the opcode) at one place: a byte flipped; a byte copied from the same place of
/// another word (a plausible opcode, type or operand); or the 16-bit low half of a word (an
/// immediate, an argument count, a branch offset) set to an extreme. Returns where.
fn mutate(blob: &mut [u8], rng: &mut Rng) -> usize {
    let p = rng.below(blob.len());
    match rng.below(3) {
        0 => blob[p] ^= 1 + rng.below(255) as u8,
        1 => {
            let q = rng.below(blob.len() / 4) * 4 + p % 4;
            if q < blob.len() {
                blob[p] = blob[q];
            }
        }
        _ => {
            let w = p & !3;
            let v: u16 = [0, 1, 0x7FFF, 0x8000, 0xFFFF][rng.below(5)];
            if w + 2 <= blob.len() {
                blob[w..w + 2].copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    p
}

/// The root entries of `bytes` with a non-empty blob, and where each blob lies in `bytes`.
fn blobs(bytes: &[u8]) -> Vec<(usize, Range<usize>)> {
    let v = bytes.to_vec();
    let base = v.as_ptr() as usize;
    let Ok(file) = gmkit_data::parse_bytes(v) else {
        return Vec::new();
    };
    let Some(code) = &file.code else {
        return Vec::new();
    };
    code.entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.body {
            CodeBody::Encoded(b) if !b.is_empty() => {
                // The blob is a view of the input buffer.
                let start = (b.bytes().as_ptr() as usize).checked_sub(base)?;
                (start + b.len() <= bytes.len()).then_some((i, start..start + b.len()))
            }
            _ => None,
        })
        .collect()
}

/// Decompiles and prints every entry whose code is the blob of root `root`: (entries that
/// decompiled, entries that failed with an error).
fn decompile_root(bytes: Vec<u8>, root: usize) -> Option<(usize, usize)> {
    let file = gmkit_data::parse_bytes(bytes).ok()?;
    let code = file.code.as_ref()?;
    let game = Game::new(&file);
    let (mut ok, mut err) = (0, 0);
    for (i, e) in code.entries.iter().enumerate() {
        let mine =
            i == root || matches!(e.body, CodeBody::Shared { parent } if parent as usize == root);
        if !mine {
            continue;
        }
        match decompile::decompile_entry(&game, i) {
            Ok(d) => {
                let text = print::print_stmts(&d.body);
                assert!(d.failures > 0 || !text.contains("__gmkit_unknown__"));
                ok += 1;
            }
            Err(e) => {
                let m = e.to_string();
                assert!(!m.contains('\n') && m.len() < 1000, "{m}");
                err += 1;
            }
        }
    }
    Some((ok, err))
}

#[test]
fn mutated_bytecode_decompiles_or_fails_cleanly() {
    let files = need!(corpus());
    let total = std::env::var("GMKIT_DECOMPILE_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(MUTATIONS);
    let per_file = (total / files.len().max(1)).max(1);
    let mut rng = Rng(0x0DEC_0B17_E5EE_D015);
    let (mut tried, mut parsed, mut decompiled, mut refused) = (0, 0, 0, 0);
    let mut panics = Vec::new();
    for (name, bytes) in &files {
        let blobs = blobs(bytes);
        if blobs.is_empty() {
            continue; // a YYC build: no bytecode
        }
        for _ in 0..per_file {
            let (root, range) = blobs[rng.below(blobs.len())].clone();
            let mut m = bytes.clone();
            let at: Vec<usize> = (0..1 + rng.below(MAX_CHANGES))
                .map(|_| range.start + mutate(&mut m[range.clone()], &mut rng))
                .collect();
            tried += 1;
            match catch_unwind(AssertUnwindSafe(|| decompile_root(m, root))) {
                Ok(Some((ok, err))) => {
                    parsed += 1;
                    decompiled += ok;
                    refused += err;
                }
                Ok(None) => {}
                Err(_) => panics.push(format!("{name}: entry {root}, bytes changed at {at:?}")),
            }
        }
    }
    assert!(panics.is_empty(), "panics:\n{}", panics.join("\n"));
    eprintln!(
        "{tried} mutations: {parsed} parsed; {decompiled} entries decompiled, {refused} refused"
    );
    // Most mutants that parse still decompile: the sweep reaches the decompiler.
    assert!(
        tried >= total / 2 && parsed >= tried / 5 && decompiled >= parsed,
        "{tried} {parsed} {decompiled}"
    );
}
