//! Shared by the integration tests: the corpus of real game files (through `gmkit-testdata`,
//! which skips a test when `../shared` is absent and fails it under `GMKIT_REQUIRE_CORPUS=1`)
//! and an independent chunk-table reader.
#![allow(dead_code, unused_imports)]

pub use gmkit_testdata::{corpus, corpus_all, corpus_dir, corpus_file, need};

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
