//! Shared by the integration tests: finding the corpus of real game files.
//!
//! The corpus lives outside the repository (`../shared/corpus`, or the directory named by
//! `GMKIT_CORPUS`); a test that needs it fails with a message saying how to point at it.
#![allow(dead_code)]

use std::path::PathBuf;

/// The corpus directory (checked to hold `MANIFEST.tsv`).
pub fn corpus_dir() -> PathBuf {
    let dir = std::env::var_os("GMKIT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    assert!(
        dir.join("MANIFEST.tsv").is_file(),
        "corpus not found at {} (set GMKIT_CORPUS to the directory holding MANIFEST.tsv)",
        dir.display()
    );
    dir
}

/// The bytes of one corpus file.
pub fn corpus_file(name: &str) -> Vec<u8> {
    let dir = corpus_dir();
    std::fs::read(dir.join(name))
        .unwrap_or_else(|e| panic!("corpus file {name} in {}: {e}", dir.display()))
}

/// (file name, bytes) of every corpus file listed in the manifest.
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    manifest
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let name = l.split('\t').next().unwrap().to_string();
            let bytes = corpus_file(&name);
            (name, bytes)
        })
        .collect()
}

/// (name, body start, body end) of every chunk of a FORM file, read independently of the
/// library under test.
pub fn chunk_table(data: &[u8]) -> Vec<([u8; 4], usize, usize)> {
    let mut v = Vec::new();
    let mut pos = 8;
    while pos + 8 <= data.len() {
        let name: [u8; 4] = data[pos..pos + 4].try_into().unwrap();
        let len = u32::from_le_bytes(data[pos + 4..pos + 8].try_into().unwrap()) as usize;
        v.push((name, pos + 8, pos + 8 + len));
        pos += 8 + len;
    }
    v
}
