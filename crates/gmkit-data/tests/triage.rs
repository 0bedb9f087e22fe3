//! Triage of files with one broken chunk: the strict error names the chunk, the offset and the
//! version the rest of the file points to (with the evidence); lenient parsing keeps the chunk
//! as bytes, everything else typed, and rebuilds the file byte for byte.

use gmkit_data::{
    ChunkName, ErrorKind, EvidenceSource, ParseOptions, build_bytes, detect_version,
    parse_bytes_with,
};

mod common;
use common::*;

const FILES: &[&str] = &[
    "the-game.win",
    "tricking-the-vikings.win",
    "dieback.win",
    "deltarun.win",
    "teatree.win",
];

/// Chunks whose body starts with an element count (damaged to a count the chunk cannot hold).
const CHUNKS: &[&[u8; 4]] = &[b"SPRT", b"OBJT", b"FONT", b"CODE", b"STRG"];

const BAD_COUNT: u32 = 0x0FFF_FFFF;

fn lenient() -> ParseOptions {
    ParseOptions {
        lenient: true,
        track_coverage: false,
    }
}

#[test]
fn one_broken_chunk_is_named_strictly_and_kept_as_bytes_leniently() {
    let mut checked = 0;
    for name in FILES {
        let data = need!(corpus_file(name));
        let version = detect_version(&data).unwrap();
        for chunk in CHUNKS {
            let Some(&(_, start, end)) = chunk_table(&data).iter().find(|c| &c.0 == *chunk) else {
                continue;
            };
            if end - start < 4 {
                continue;
            }
            let mut bad = data.clone();
            bad[start..start + 4].copy_from_slice(&BAD_COUNT.to_le_bytes());
            let what = format!(
                "{name} with a damaged {} count",
                String::from_utf8_lossy(*chunk)
            );

            // Strict: the error names the chunk, the offset, the count, and the version.
            let e = parse_bytes_with(bad.clone(), &ParseOptions::default())
                .err()
                .unwrap_or_else(|| panic!("{what}: strict parse must fail"));
            assert_eq!(e.location.chunk, Some(ChunkName(**chunk)), "{what}: {e}");
            assert_eq!(e.location.offset, start, "{what}: {e}");
            assert!(
                matches!(e.kind, ErrorKind::CountTooLarge { count, .. } if count == BAD_COUNT as u64),
                "{what}: {e}"
            );
            let v = e
                .version
                .as_deref()
                .unwrap_or_else(|| panic!("{what}: no version in {e}"));
            assert!(!v.evidence.is_empty(), "{what}");
            // The damage is in one count: the rest of the file points to the same version,
            // unless the damaged chunk was part of the evidence (then to no later one).
            let own = EvidenceSource::Layout(ChunkName(**chunk));
            if version.evidence.iter().any(|x| x.source == own) {
                assert!(v.version.format <= version.version.format, "{what}: {e}");
            } else {
                assert_eq!(v.version, version.version, "{what}: {e}");
            }
            let text = e.to_string();
            assert!(text.contains(&v.version.to_string()), "{what}: {text}");

            // Lenient: the chunk is kept as bytes, the rest is typed, the file rebuilds.
            let (file, report) = parse_bytes_with(bad.clone(), &lenient())
                .unwrap_or_else(|e| panic!("{what}: lenient parse failed: {e}"));
            // The damaged chunk fails first (chunks that need its strings fail after it).
            assert_eq!(
                report.failed_chunks[0].location.chunk,
                Some(ChunkName(**chunk))
            );
            if *chunk != b"STRG" {
                assert_eq!(report.failed_chunks.len(), 1, "{what}");
            }
            let opaque = file.opaque_chunks();
            assert!(opaque.contains(&ChunkName(**chunk)), "{what}: {opaque:?}");
            // Only the chunk and what depends on it (strings: most chunks; CODE: VARI, FUNC)
            // are kept as bytes.
            match *chunk {
                b"STRG" => {}
                b"CODE" => assert!(opaque.len() <= 3, "{what}: {opaque:?}"),
                _ => assert_eq!(opaque.len(), 1, "{what}: {opaque:?}"),
            }
            assert!(file.general.is_some() || *chunk == b"STRG", "{what}");
            assert_eq!(
                build_bytes(&file).unwrap(),
                bad,
                "{what}: rebuilt byte for byte"
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn detect_version_explains_itself() {
    let data = need!(corpus_file("teatree.win"));
    let v = detect_version(&data).unwrap();
    let (file, report) = parse_bytes_with(data, &ParseOptions::default()).unwrap();
    assert_eq!(v, report.version);
    assert_eq!(v.version, file.version);
    // Each step raises the version; the last one is the detected version.
    assert!(v.evidence.windows(2).all(|w| w[0].format <= w[1].format));
    assert_eq!(v.evidence.last().unwrap().format, file.version.format);
}
