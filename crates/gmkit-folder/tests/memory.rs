//! Bounded memory (issue 18, "Memory"): `unpack_to_dir` writes each file as it is made, into a
//! temporary directory renamed into place when complete; `Folder::read_dir_lazy` leaves every
//! payload (page images, stored blobs, audio) on disk until pack maps it, and a payload file
//! changed after it was mapped is caught before the output is committed.

use gmkit_folder::{Folder, Game, pack, unpack};
use std::path::Path;

/// The built-in sample: a sprite with its page, a sound, a room, an object with code.
fn sample() -> (Game, Vec<u8>) {
    let data = gmkit_folder::sample::sample_data().unwrap_or_else(|e| panic!("sample: {e}"));
    let bytes = gmkit_data::build_bytes(&data).unwrap();
    let data = gmkit_data::parse_bytes(bytes.clone()).unwrap();
    (
        Game {
            data,
            audio_groups: Vec::new(),
        },
        bytes,
    )
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn unpack_to_dir_writes_what_unpack_makes() {
    let (game, _) = sample();
    let in_memory = unpack(&game).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    let done = gmkit_folder::unpack_to_dir(&game, &dir).unwrap();
    // Only the folder beside it: the temporary directory was renamed, not left behind.
    assert_eq!(names(tmp.path()), ["game"]);
    let mut back = Folder::read_dir(&dir).unwrap();
    back.materialize().unwrap();
    assert_eq!(back, in_memory);
    assert_eq!(done.files, in_memory.len());
    assert_eq!(done.bytes, in_memory.size() as u64);
}

#[test]
fn unpack_to_dir_refuses_a_directory_with_files_and_writes_nothing() {
    let (game, _) = sample();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("mine.txt"), b"mine").unwrap();
    let e = gmkit_folder::unpack_to_dir(&game, &dir).unwrap_err();
    assert!(
        e.message.contains("expected a new or empty directory"),
        "{e}"
    );
    assert_eq!(names(tmp.path()), ["game"]);
    assert_eq!(names(&dir), ["mine.txt"]);
}

#[test]
fn a_lazy_folder_leaves_payloads_on_disk_and_packs_the_same() {
    let (game, bytes) = sample();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    gmkit_folder::unpack_to_dir(&game, &dir).unwrap();
    let lazy = Folder::read_dir_lazy(&dir).unwrap();
    // The sound's audio is not read with the folder, only when pack takes it.
    assert!(lazy.get("sounds/snd_beep.wav").is_none());
    assert!(lazy.contains("sounds/snd_beep.wav"));
    assert_eq!(
        lazy.read("sounds/snd_beep.wav").unwrap().unwrap().as_ref(),
        std::fs::read(dir.join("sounds/snd_beep.wav")).unwrap()
    );
    // The elements pack reads one at a time (a sound's, a room's JSON) stay on disk too; the
    // JSON pack edits first (an object's), chunk files, strings and code stay in memory.
    for on_disk in ["sounds/snd_beep.json", "rooms/rm_start/room.json"] {
        assert!(lazy.get(on_disk).is_none(), "{on_disk}");
        assert!(lazy.contains(on_disk), "{on_disk}");
        assert!(lazy.paths().contains(&on_disk), "{on_disk}");
    }
    for held in [
        "objects/obj_ball/object.json",
        "rooms/_chunk.json",
        "strings.json",
    ] {
        assert!(lazy.get(held).is_some(), "{held}");
    }
    let packed = pack(&lazy).unwrap();
    assert_eq!(gmkit_data::build_bytes(&packed.data).unwrap(), bytes);
    let eager = pack(&Folder::read_dir(&dir).unwrap()).unwrap();
    assert_eq!(gmkit_data::build_bytes(&eager.data).unwrap(), bytes);
    assert!(lazy.payload_check().check().is_ok());
}

#[test]
fn a_payload_cut_after_it_was_mapped_is_caught() {
    let (game, _) = sample();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    gmkit_folder::unpack_to_dir(&game, &dir).unwrap();
    let lazy = Folder::read_dir_lazy(&dir).unwrap();
    let packed = pack(&lazy).unwrap();
    let check = lazy.payload_check();
    assert!(check.check().is_ok());
    let wav = dir.join("sounds/snd_beep.wav");
    let len = std::fs::metadata(&wav).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&wav)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let e = check.check().unwrap_err();
    assert_eq!(e.file, "sounds/snd_beep.wav", "{e}");
    assert!(e.message.contains("changed on disk"), "{e}");
    // The model's audio is a view of the cut file: reading it past the cut gives zeros, never
    // a crash.
    let audio = packed.data.audio.as_ref().unwrap();
    let b = audio.entries.iter().flatten().next().unwrap();
    assert_eq!(b.len() as u64, len);
    assert!(b[b.len() - 16..].iter().all(|&x| x == 0));
}
