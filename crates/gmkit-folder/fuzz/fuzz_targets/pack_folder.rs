//! Pack of a mutated folder: the built-in sample, unpacked once, with one file (chosen by the
//! input's first bytes: JSON, `.asm`, `.gml`, PNG, the manifest, ...) replaced by or spliced with
//! the rest of the input. Pack (and building the packed model) must never panic; errors are
//! fine. Run: `cd crates/gmkit-folder/fuzz && cargo +nightly fuzz run pack_folder`.

#![no_main]

use gmkit_folder::Folder;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn sample() -> &'static Folder {
    static FOLDER: OnceLock<Folder> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let game = gmkit_folder::sample::sample().expect("the sample builds");
        gmkit_folder::unpack(&game).expect("the sample unpacks")
    })
}

fuzz_target!(|data: &[u8]| {
    let [pick, mode, at_hi, at_lo, rest @ ..] = data else {
        return;
    };
    let base = sample();
    let mut folder = base.clone();
    let names: Vec<&String> = base.files.keys().collect();
    // The first byte picks the file; 0xff adds a new file named by the input instead.
    let (name, old) = if *pick == 0xff {
        let (n, body) = rest.split_at(rest.len().min(24));
        let name = String::from_utf8_lossy(n).into_owned();
        folder.insert(name, body.to_vec());
        return check(&folder);
    } else {
        let name = names[*pick as usize % names.len()].clone();
        let old = base.get(&name).unwrap_or_default().to_vec();
        (name, old)
    };
    let at = (usize::from(*at_hi) << 8 | usize::from(*at_lo)) % (old.len() + 1);
    let new = match mode % 4 {
        // Replace the whole file.
        0 => rest.to_vec(),
        // Overwrite bytes at `at`.
        1 => {
            let mut v = old.clone();
            for (k, b) in rest.iter().enumerate() {
                match v.get_mut(at + k) {
                    Some(x) => *x = *b,
                    None => v.push(*b),
                }
            }
            v
        }
        // Insert at `at`.
        2 => {
            let mut v = old[..at].to_vec();
            v.extend_from_slice(rest);
            v.extend_from_slice(&old[at..]);
            v
        }
        // Cut `rest.len()` bytes at `at`.
        _ => {
            let end = (at + rest.len()).min(old.len());
            let mut v = old[..at].to_vec();
            v.extend_from_slice(&old[end..]);
            v
        }
    };
    folder.insert(name, new);
    check(&folder);
});

fn check(folder: &Folder) {
    if let Ok(game) = gmkit_folder::pack(folder) {
        let _ = gmkit_data::build_bytes(&game.data);
        for (_, g) in &game.audio_groups {
            let _ = gmkit_data::build_bytes(g);
        }
    }
}
