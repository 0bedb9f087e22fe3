//! Mutation sweep over real texture page blobs: flipped bits, overwritten header bytes and
//! truncations must decode to an image or an error, never panic or hang. Deterministic
//! (xorshift) and bounded, so it runs in CI.

use gmkit_media::Error;
use std::panic::{AssertUnwindSafe, catch_unwind};

mod common;
use common::parse;

use gmkit_testdata::Rng;

/// One mutation of `blob`: most land in the first 64 bytes (headers, where sizes live).
fn mutate(rng: &mut Rng, blob: &[u8]) -> Vec<u8> {
    let mut b = blob.to_vec();
    match rng.below(5) {
        0 => b.truncate(rng.below(b.len())),
        1 => {
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
        }
        2 => {
            let i = rng.below(b.len().min(64));
            b[i] = rng.next() as u8;
        }
        3 => {
            // A size-like field set to an extreme.
            let i = rng.below(b.len().min(48).saturating_sub(4));
            let v = [0u32, 1, 0xFFFF, 0x7FFF_FFFF, u32::MAX][rng.below(5)];
            b[i..i + 4].copy_from_slice(&v.to_le_bytes());
        }
        _ => {
            let i = rng.below(b.len());
            let n = rng.below(64).min(b.len() - i);
            for x in &mut b[i..i + n] {
                *x = rng.next() as u8;
            }
        }
    }
    b
}

/// Up to 2 pages per corpus file (the smallest blobs, to keep the sweep fast), 40 mutations
/// each: no panic, a decoded image has consistent dimensions, and damage errors point inside
/// the blob.
#[test]
fn mutated_page_blobs_never_panic() {
    let names = gmkit_testdata::need!(gmkit_testdata::corpus_names());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut runs, mut errors) = (0usize, 0usize);
    for name in &names {
        let data = parse(&gmkit_testdata::corpus_path(name).unwrap());
        let Some(tx) = &data.textures else { continue };
        let mut blobs: Vec<&[u8]> = tx
            .pages
            .iter()
            .flatten()
            .filter_map(|p| p.blob())
            .map(|b| b.as_ref())
            .filter(|b| !b.is_empty() && b.len() <= 512 * 1024)
            .collect();
        blobs.sort_by_key(|b| b.len());
        for blob in blobs.into_iter().take(2) {
            for _ in 0..40 {
                let m = mutate(&mut rng, blob);
                let r = catch_unwind(AssertUnwindSafe(|| gmkit_media::decode(&m)));
                let r = r.unwrap_or_else(|_| {
                    panic!(
                        "{name}: decode panicked on a mutated blob {:02x?}",
                        &m[..m.len().min(64)]
                    )
                });
                runs += 1;
                match r {
                    Ok(img) => assert_eq!(
                        img.pixels().len(),
                        img.width() as usize * img.height() as usize * 4,
                        "{name}"
                    ),
                    Err(Error::Corrupt { offset, format, .. }) => {
                        // Offsets are in the blob, or in the decompressed stream (and say so).
                        assert!(
                            offset <= m.len() || format.contains("decompressed"),
                            "{name}: {format} offset {offset} > blob length {}",
                            m.len()
                        );
                        errors += 1;
                    }
                    Err(_) => errors += 1,
                }
            }
        }
    }
    assert!(runs > 0, "no page blobs in the corpus");
    eprintln!("{runs} mutated blobs decoded, {errors} errors");
}

/// Mask import of mutated PNGs (a real page blob when it is a PNG, else a fresh mask PNG).
#[test]
fn mutated_mask_pngs_never_panic() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let (w, h) = (37usize, 19usize);
    let mask: Vec<u8> = (0..w.div_ceil(8) * h).map(|i| (i * 37) as u8).collect();
    let png = gmkit_media::mask::to_png(&mask, w as u32, h as u32).unwrap();
    assert_eq!(
        gmkit_media::mask::from_png(&png, w as u32, h as u32).unwrap(),
        mask
    );
    for _ in 0..2000 {
        let m = mutate(&mut rng, &png);
        let r = catch_unwind(|| gmkit_media::mask::from_png(&m, w as u32, h as u32));
        let r = r.unwrap_or_else(|_| panic!("mask::from_png panicked on {m:02x?}"));
        if let Ok(out) = r {
            assert_eq!(out.len(), mask.len());
        }
    }
}
