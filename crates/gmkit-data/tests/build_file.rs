//! `build_file` writes through a temporary file and never damages the target.

use gmkit_data::{StringRef, build_bytes, build_file, parse_bytes};

mod common;
use common::*;

#[test]
fn writes_the_file_and_leaves_it_untouched_on_failure() {
    let dir = std::env::temp_dir().join(format!("gmkit-build-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("data.win");

    let original = need!(corpus_file("the-game.win"));
    let file = parse_bytes(original.clone()).unwrap();
    build_file(&file, &target).unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), original);

    // A model that cannot be written (a string reference to no entry) fails and the target keeps
    // its previous content; no temporary file is left behind.
    let mut broken = file.clone();
    broken.general.as_mut().unwrap().name = StringRef(1_000_000);
    assert!(build_bytes(&broken).is_err());
    assert!(build_file(&broken, &target).is_err());
    assert_eq!(std::fs::read(&target).unwrap(), original);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("data.win")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn built_in_parts_equals_one_buffer() {
    // Texture- and audio-heavy files: their payloads are kept as views of the input.
    for name in [
        "platformer.win",
        "longdog.win",
        "scp-0-0-3v.win",
        "the-game.win",
    ] {
        let input = need!(corpus_file(name));
        let file = gmkit_data::parse_bytes(input.clone()).unwrap();
        let built = gmkit_data::build(&file).unwrap();
        assert_eq!(built.len(), input.len(), "{name}");
        assert!(
            built.eq_bytes(&input),
            "{name}: parts differ from the input"
        );
        let mut streamed = Vec::new();
        built.write_to(&mut streamed).unwrap();
        assert!(streamed == input, "{name}: written parts differ");
        assert!(
            built.into_vec() == gmkit_data::build_bytes(&file).unwrap(),
            "{name}"
        );
        // A changed byte is noticed (also inside a payload).
        let mut other = input.clone();
        let k = other.len() * 3 / 4;
        other[k] ^= 1;
        assert!(
            !gmkit_data::build(&file).unwrap().eq_bytes(&other),
            "{name}"
        );
    }
}
