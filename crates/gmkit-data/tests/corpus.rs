//! Round-trip and exactness tests over every file of the real-game corpus (both manifests:
//! `MANIFEST.tsv` and `MANIFEST-next.tsv`, the newest layouts).
//!
//! The corpus lives outside the repository (`../shared/corpus`, or the directory named by
//! `GMKIT_CORPUS`). These tests fail with a clear message when it is missing.

use gmkit_data::{ParseOptions, build_bytes, parse_bytes_with};

mod common;
use common::*;

/// Chunks still carried as bytes in some corpus file. Empty: every chunk of every corpus file is
/// typed, and the test fails if any chunk is opaque.
const STILL_OPAQUE: &[&str] = &[];

#[test]
fn every_corpus_file_parses_and_rebuilds_identically() {
    let mut failures = Vec::new();
    let mut identical = 0;
    let files = need!(corpus_all());
    let total = files.len();
    for (name, bytes) in files {
        let parsed = parse_bytes_with(bytes.clone(), &ParseOptions::default());
        let file = match parsed {
            Ok((f, _)) => f,
            Err(e) => {
                failures.push(format!("{name}: parse failed: {e}"));
                continue;
            }
        };
        match build_bytes(&file) {
            Ok(out) if out == bytes => identical += 1,
            Ok(out) => {
                let first = out
                    .iter()
                    .zip(&bytes)
                    .position(|(a, b)| a != b)
                    .unwrap_or(out.len().min(bytes.len()));
                failures.push(format!(
                    "{name}: rebuilt {} bytes vs {} original, first difference at byte {first}",
                    out.len(),
                    bytes.len()
                ));
            }
            Err(e) => failures.push(format!("{name}: build failed: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{identical} of {total} identical; failures:\n{}",
        failures.join("\n")
    );
    assert_eq!(
        identical, total,
        "every file MANIFEST.tsv and MANIFEST-next.tsv list"
    );
}

#[test]
fn opaque_chunks_only_shrink() {
    let mut seen_opaque = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for (name, bytes) in need!(corpus_all()) {
        let file = match parse_bytes_with(bytes, &ParseOptions::default()) {
            Ok((f, _)) => f,
            Err(_) => continue, // reported by the round-trip test
        };
        for c in file.opaque_chunks() {
            let c = c.as_str();
            if !STILL_OPAQUE.contains(&c.as_str()) {
                failures.push(format!("{name}: chunk {c} is opaque"));
            }
            seen_opaque.insert(c);
        }
    }
    for c in STILL_OPAQUE {
        if !seen_opaque.contains(*c) && CHUNKS_IN_CORPUS.contains(c) {
            failures.push(format!(
                "{c} is typed in every file: remove it from STILL_OPAQUE"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Chunks that occur in the corpus (GMEN does not).
const CHUNKS_IN_CORPUS: &[&str] = &[
    "GEN8", "OPTN", "LANG", "EXTN", "SOND", "AGRP", "SPRT", "BGND", "PATH", "SCPT", "GLOB", "SHDR",
    "FONT", "TMLN", "OBJT", "FEDS", "ACRV", "SEQN", "TAGS", "ROOM", "UILR", "DAFL", "EMBI", "TGIN",
    "CODE", "VARI", "FUNC", "FEAT", "STRG", "TXTR", "AUDO", "PSYS", "PSEM",
];

/// Every byte of every corpus file is explained by a field of the model, except inside chunks
/// still listed in [`STILL_OPAQUE`].
#[test]
fn every_byte_is_explained() {
    let opts = ParseOptions {
        track_coverage: true,
        ..Default::default()
    };
    let mut failures = Vec::new();
    for (name, bytes) in need!(corpus_all()) {
        let chunks = chunk_table(&bytes);
        let Ok((_, report)) = parse_bytes_with(bytes.clone(), &opts) else {
            continue;
        };
        for (s, e) in report.unexplained.unwrap() {
            let owner = chunks
                .iter()
                .find(|c| c.1 <= s && s < c.2)
                .map(|c| String::from_utf8_lossy(&c.0).into_owned());
            match owner {
                Some(c) if STILL_OPAQUE.contains(&c.as_str()) => {}
                owner => failures.push(format!(
                    "{name}: bytes {s}..{e} ({} bytes) in {} not explained by any field",
                    e - s,
                    owner.unwrap_or_else(|| "the container".into())
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} ranges:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Growing the string table moves every chunk after it (and, in most files, every texture and
/// sound): the rebuilt file must parse to the same model but for the edit, in every corpus file.
#[test]
fn every_corpus_file_survives_a_shifting_edit() {
    let mut failures = Vec::new();
    for (name, bytes) in need!(corpus_all()) {
        let Ok(original) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        let mut edited = original.clone();
        let strings = edited.strings.as_mut().unwrap();
        let long = strings.push("x".repeat(1001));
        let general = edited.general.as_mut().unwrap();
        let old_name = general.name;
        general.name = long;
        let rebuilt = match build_bytes(&edited) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{name}: build failed: {e}"));
                continue;
            }
        };
        let mut again = match gmkit_data::parse_bytes(rebuilt) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{name}: the edited file does not parse: {e}"));
                continue;
            }
        };
        let s = again.strings.as_mut().unwrap();
        if s.get(long).map(|s| s.len()) != Some(1001) {
            failures.push(format!("{name}: the new string is not there"));
            continue;
        }
        let n = s.len();
        s.truncate(n - 1);
        again.general.as_mut().unwrap().name = old_name;
        again.layout.size_hint = original.layout.size_hint;
        if again != original {
            failures.push(format!("{name}: the model changed beyond the edit"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
