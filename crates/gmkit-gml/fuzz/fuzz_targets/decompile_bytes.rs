//! Fuzz target: raw bytecode of one code entry through the decompiler. The data file is
//! `GMKIT_FUZZ_FILE` (a corpus file, say) or else the built-in sample; the input's first two
//! bytes choose one of its root entries (little-endian, modulo their number) and the rest
//! replaces that entry's blob from its start (the blob keeps its length: a longer input is cut,
//! a shorter one leaves the rest of the blob as it was). Every mutated file that gmkit-data
//! parses must decompile and print each entry of that blob, or fail with an error, without a
//! panic, a hang or a runaway allocation.
#![no_main]

use gmkit_data::chunks::code::CodeBody;
use libfuzzer_sys::fuzz_target;
use std::ops::Range;
use std::sync::OnceLock;

/// The data file and its root entries with a non-empty blob (and where each lies in it).
struct Base {
    bytes: Vec<u8>,
    blobs: Vec<(usize, Range<usize>)>,
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let bytes = match std::env::var_os("GMKIT_FUZZ_FILE") {
            Some(p) => std::fs::read(&p).expect("GMKIT_FUZZ_FILE is readable"),
            None => gmkit_data::build_bytes(&gmkit_data::sample()).expect("the sample builds"),
        };
        let v = bytes.clone();
        let at = v.as_ptr() as usize;
        let file = gmkit_data::parse_bytes(v).expect("the base file parses");
        let blobs = file
            .code
            .as_ref()
            .map(|code| {
                code.entries
                    .iter()
                    .enumerate()
                    .filter_map(|(i, e)| match &e.body {
                        // Blobs are views of the buffer parsed.
                        CodeBody::Encoded(b) if !b.is_empty() => {
                            let start = (b.bytes().as_ptr() as usize).checked_sub(at)?;
                            (start + b.len() <= bytes.len())
                                .then_some((i, start..start + b.len()))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        Base { bytes, blobs }
    })
}

fuzz_target!(|data: &[u8]| {
    let b = base();
    if b.blobs.is_empty() || data.len() < 2 {
        return;
    }
    let pick = u16::from_le_bytes([data[0], data[1]]) as usize % b.blobs.len();
    let (root, range) = b.blobs[pick].clone();
    let mut m = b.bytes.clone();
    let n = (data.len() - 2).min(range.len());
    m[range.start..range.start + n].copy_from_slice(&data[2..2 + n]);
    let Ok(file) = gmkit_data::parse_bytes(m) else {
        return;
    };
    let Some(code) = file.code.as_ref() else {
        return;
    };
    let game = gmkit_gml::Game::new(&file);
    for (i, e) in code.entries.iter().enumerate() {
        let mine = i == root
            || matches!(e.body, CodeBody::Shared { parent } if parent as usize == root);
        if mine && let Ok(d) = gmkit_gml::decompile::decompile_entry(&game, i) {
            let _ = gmkit_gml::print::print_stmts(&d.body);
        }
    }
});
