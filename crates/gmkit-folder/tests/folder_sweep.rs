//! A bounded, seeded mutation sweep of unpacked folders (issue 15): for every corpus file, a few
//! folder files (JSON, `.asm`, `.gml`, PNG, the manifest) are mutated and the folder packed.
//! Pack must return a value or an error, never panic, and every error must be one short line
//! naming a folder file. (The fuzz target `pack_folder` in `../fuzz` runs the same without bound.)

use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{Rng, corpus, need};
use rayon::prelude::*;

/// Mutations per corpus file.
const PER_FILE: usize = 6;

/// One mutation of `bytes`: flip a byte, cut a run, duplicate a run, or replace a number.
fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    if v.is_empty() {
        return b"{".to_vec();
    }
    let at = rng.below(v.len());
    let len = 1 + rng.below(16.min(v.len() - at));
    match rng.below(5) {
        0 => v[at] ^= 1 << rng.below(8),
        1 => {
            v.drain(at..at + len);
        }
        2 => {
            let run = v[at..at + len].to_vec();
            v.splice(at..at, run);
        }
        3 => {
            // A digit becomes a large number (counts, sizes, indices).
            if let Some(d) = v[at..].iter().position(u8::is_ascii_digit) {
                let big: &[u8] =
                    [&b"4294967295"[..], b"-1", b"99999999999999999999", b"0"][rng.below(4)];
                v.splice(at + d..at + d + 1, big.iter().copied());
            }
        }
        _ => v.truncate(at),
    }
    v
}

#[test]
fn mutated_folders_pack_or_fail_cleanly() {
    let files = need!(corpus());
    let failures: Vec<String> = files
        .into_par_iter()
        .enumerate()
        .flat_map_iter(|(n, (name, bytes))| {
            let mut out = Vec::new();
            let Ok(data) = gmkit_data::parse_bytes(bytes) else {
                return out;
            };
            let Ok(folder) = unpack(&Game {
                data,
                audio_groups: Vec::new(),
            }) else {
                return out;
            };
            // Texts and images, weighted toward the files a modder edits.
            let names: Vec<&String> = folder
                .files
                .keys()
                .filter(|p| {
                    [".json", ".asm", ".gml", ".png"]
                        .iter()
                        .any(|e| p.ends_with(e))
                })
                .collect();
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (n as u64 + 1));
            for k in 0..PER_FILE {
                let file = if k == 0 {
                    "manifest.json".to_owned()
                } else {
                    names[rng.below(names.len())].clone()
                };
                let mut f: Folder = folder.clone();
                let new = mutate(&mut rng, folder.get(&file).unwrap_or_default());
                f.insert(file.clone(), new);
                let r = std::panic::catch_unwind(|| {
                    pack(&f).map(|g| {
                        let _ = gmkit_data::build_bytes(&g.data);
                    })
                });
                match r {
                    Err(_) => out.push(format!("{name}: {file} (mutation {k}): pack panicked")),
                    Ok(Err(e)) => {
                        let line = e.to_string();
                        if line.contains('\n') || line.len() > 2000 || e.file.is_empty() {
                            out.push(format!("{name}: {file} (mutation {k}): bad error {line:?}"));
                        }
                    }
                    Ok(Ok(())) => {}
                }
            }
            out
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
