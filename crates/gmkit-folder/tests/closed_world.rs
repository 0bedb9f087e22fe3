//! Issue 15, "the folder is a closed world" (cases F7, F12, F15, F16, F21, F22, F24, F25 of
//! `../shared/repro/round2/`): pack reads only regular files inside the folder, each within its
//! size limit; manifest values are range-checked; audio groups are written only as
//! `audiogroupN.dat` beside the output, all outputs checked before any is written; backups are
//! never overwritten; a manifest that omits a part the folder has is an error; errors are one
//! short line naming the folder file. The hostile folders are built here from the built-in sample.

use gmkit_folder::{Folder, pack, unpack};
use serde_json::Value;
use std::path::Path;

/// The built-in sample, unpacked.
fn sample_folder() -> Folder {
    unpack(&gmkit_folder::sample::sample().expect("sample")).expect("unpacks")
}

fn json(f: &Folder, p: &str) -> Value {
    serde_json::from_slice(f.get(p).unwrap_or_else(|| panic!("{p} missing"))).unwrap()
}

fn put_json(f: &mut Folder, p: &str, v: &Value) {
    f.insert(p, serde_json::to_vec_pretty(v).unwrap());
}

/// Packs and expects an error; checks it is one short line and returns it.
fn pack_err(f: &Folder) -> gmkit_folder::Error {
    let e = pack(f).expect_err("the folder must not pack");
    let line = e.to_string();
    assert!(!line.contains('\n') && line.len() < 2000, "{line}");
    e
}

/// The names in a directory, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A file the sample's folder has, to replace with something hostile.
fn some_texture(f: &Folder) -> String {
    f.under("textures")
        .map(|(p, _)| p.to_owned())
        .find(|p| !p.ends_with(".json"))
        .expect("a texture page file")
}

#[cfg(unix)]
#[test]
fn f12_links_fifos_and_devices_are_refused_by_name() {
    let folder = sample_folder();
    let page = some_texture(&folder);
    type Plant = fn(&Path);
    let cases: [(&str, Plant); 4] = [
        ("link to /etc/passwd", |p| {
            std::os::unix::fs::symlink("/etc/passwd", p).unwrap()
        }),
        ("link to /dev/zero", |p| {
            std::os::unix::fs::symlink("/dev/zero", p).unwrap()
        }),
        ("link to a file inside", |p| {
            std::os::unix::fs::symlink("manifest.json", p).unwrap()
        }),
        ("FIFO", |p| {
            let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        }),
    ];
    for (what, plant) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("game");
        folder.write_dir(&dir).unwrap();
        let at = dir.join(&page);
        std::fs::remove_file(&at).unwrap();
        plant(&at);
        let e = Folder::read_dir(&dir).expect_err(what);
        assert_eq!(e.file, page, "{what}: {e}");
        assert!(
            e.message.starts_with("expected a regular file"),
            "{what}: {e}"
        );
    }
    // A linked directory is refused too (it could lead anywhere).
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    folder.write_dir(&dir).unwrap();
    std::os::unix::fs::symlink("/etc", dir.join("sprites/etc")).unwrap();
    let e = Folder::read_dir(&dir).expect_err("a linked directory");
    assert_eq!(e.file, "sprites/etc", "{e}");
}

#[test]
fn f12_f24_files_past_their_size_limit_are_refused_before_reading() {
    use gmkit_folder::reader::{MAX_BINARY_FILE, MAX_TEXT_FILE};
    let folder = sample_folder();
    let page = some_texture(&folder);
    for (file, size) in [
        (
            "sprites/frames_big/frames.json".to_owned(),
            MAX_TEXT_FILE + 1,
        ),
        ("strings.json".to_owned(), MAX_TEXT_FILE + 1),
        (page, MAX_BINARY_FILE + 1),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("game");
        folder.write_dir(&dir).unwrap();
        let at = dir.join(&file);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        // Sparse: no disk or memory used; the size check comes before any read.
        std::fs::File::create(&at).unwrap().set_len(size).unwrap();
        let e = Folder::read_dir(&dir).expect_err("too large");
        assert_eq!(e.file, file, "{e}");
        assert!(e.message.contains(&format!("found {size} bytes")), "{e}");
    }
}

#[test]
fn f7_manifest_values_are_range_checked() {
    let folder = sample_folder();
    let cases: [(&str, &str, Value); 8] = [
        ("strings", "end_align", 0.into()),
        ("strings", "end_align", 1_500_000_000u64.into()),
        ("textures", "end_align", 2_000_000_000u64.into()),
        ("layout", "chunk_align", 33_554_432u64.into()),
        ("layout", "chunk_align", 0.into()),
        ("layout", "chunk_align", (-4).into()),
        ("audio", "entries", u64::MAX.into()),
        ("audio", "entries", 100_000_000_000u64.into()),
    ];
    for (section, key, value) in cases {
        let mut f = folder.clone();
        let mut m = json(&f, "manifest.json");
        m[section][key] = value.clone();
        put_json(&mut f, "manifest.json", &m);
        let e = pack_err(&f);
        assert_eq!(e.file, "manifest.json", "{section}.{key} = {value}: {e}");
        assert_eq!(e.field, format!("{section}.{key}"), "{e}");
    }
    // The largest alignment allowed still packs.
    let mut f = folder.clone();
    let mut m = json(&f, "manifest.json");
    m["layout"]["chunk_align"] = gmkit_data::MAX_ALIGN.into();
    put_json(&mut f, "manifest.json", &m);
    pack(&f).expect("an alignment of MAX_ALIGN packs");
}

#[test]
fn f7_the_writer_refuses_huge_alignments_even_unchecked() {
    let mut data = gmkit_folder::sample::sample_data().unwrap();
    data.layout.chunk_align = 1 << 40;
    assert!(data.validate().is_err());
    let e = gmkit_data::build_bytes_unchecked(&data).expect_err("refused");
    assert!(e.to_string().contains("alignment of at most 4096"), "{e}");
    let mut data = gmkit_folder::sample::sample_data().unwrap();
    data.strings.as_mut().unwrap().end_align = 0;
    gmkit_data::build_bytes(&data).expect("0 means no alignment, never a division by zero");
}

#[test]
fn f15_only_audiogroup_n_folders_and_only_audiogroup_n_dat_outputs() {
    let folder = sample_folder();
    for name in [
        "victim",
        "audiogroup01",
        "audiogroup0",
        "audiogroup1x",
        "..",
        "audiogroup99999999999",
    ] {
        let mut f = folder.clone();
        for (p, b) in folder.files.iter() {
            f.insert(format!("audiogroups/{name}/{p}"), b.clone());
        }
        let e = pack_err(&f);
        assert_eq!(e.file, format!("audiogroups/{name}"), "{name}: {e}");
    }
    // A file directly under audiogroups/, and a group folder without a manifest.
    let mut f = folder.clone();
    f.insert("audiogroups/x.dat", b"x".to_vec());
    assert_eq!(pack_err(&f).file, "audiogroups/x.dat");
    let mut f = folder.clone();
    f.insert("audiogroups/audiogroup1/strings.json", b"{}".to_vec());
    assert_eq!(pack_err(&f).file, "audiogroups/audiogroup1/manifest.json");
    // The library refuses to write any other name beside the output.
    let mut game = pack(&folder).unwrap();
    game.audio_groups
        .push(("../victim".into(), game.data.clone()));
    let tmp = tempfile::tempdir().unwrap();
    let before = listing(tmp.path());
    assert!(game.write(tmp.path().join("out.win")).is_err());
    assert_eq!(listing(tmp.path()), before);
}

/// The sample folder with an audio group table listing audiogroup1 and an audio group folder
/// `audiogroups/audiogroup1/` (a copy of the game).
fn with_audio_group(folder: &Folder) -> Folder {
    let mut f = folder.clone();
    let groups = f
        .under("audio_groups")
        .filter(|(p, _)| !p.ends_with("_chunk.json"))
        .count();
    assert_eq!(groups, 1, "the sample lists the built-in group only");
    put_json(
        &mut f,
        "audio_groups/0001_audiogroup1.json",
        &serde_json::json!({"name": "audiogroup1"}),
    );
    for (p, b) in folder.files.iter() {
        f.insert(format!("audiogroups/audiogroup1/{p}"), b.clone());
    }
    f
}

#[test]
fn f16_an_invalid_audio_group_writes_nothing() {
    let folder = with_audio_group(&sample_folder());
    let game = pack(&folder).expect("a valid audio group packs");
    assert_eq!(game.audio_groups.len(), 1);
    // Pack names the audio group's file at fault.
    let mut bad = folder.clone();
    let obj = bad
        .under("audiogroups/audiogroup1/objects")
        .map(|(p, _)| p.to_owned())
        .find(|p| p.ends_with("/object.json"))
        .expect("an object");
    let mut v = json(&bad, &obj);
    v["sprite"] = 9999.into();
    put_json(&mut bad, &obj, &v);
    let e = pack_err(&bad);
    assert_eq!(e.file, obj, "{e}");
    assert_eq!(e.field, "sprite", "{e}");
    // A game whose audio group is invalid (made without pack) writes nothing at all.
    let mut game = game;
    game.audio_groups[0].1.general.as_mut().unwrap().name = gmkit_data::StringRef(9_999_999);
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("out.win"), b"precious").unwrap();
    let before = listing(tmp.path());
    assert!(game.write(tmp.path().join("out.win")).is_err());
    assert_eq!(
        listing(tmp.path()),
        before,
        "no output, no temporary file left"
    );
    assert_eq!(
        std::fs::read(tmp.path().join("out.win")).unwrap(),
        b"precious"
    );
    // And a valid game writes both, beside each other.
    let game = pack(&folder).unwrap();
    let out = tmp.path().join("new.win");
    game.write(&out).unwrap();
    assert!(tmp.path().join("audiogroup1.dat").is_file());
}

#[test]
fn f21_backups_are_never_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("data.win");
    let mut made = Vec::new();
    for k in 0..3 {
        std::fs::write(&file, format!("version {k}")).unwrap();
        made.push(gmkit_folder::backup(&file).unwrap());
    }
    let names: Vec<String> = made
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["data.win.bak", "data.win.bak.1", "data.win.bak.2"]);
    for (k, p) in made.iter().enumerate() {
        assert_eq!(std::fs::read_to_string(p).unwrap(), format!("version {k}"));
    }
}

#[test]
fn f22_a_manifest_that_omits_a_part_the_folder_has_is_an_error() {
    let folder = sample_folder();
    for part in ["textures", "audio", "strings"] {
        let mut f = folder.clone();
        let mut m = json(&f, "manifest.json");
        assert!(m.as_object_mut().unwrap().remove(part).is_some(), "{part}");
        put_json(&mut f, "manifest.json", &m);
        let e = pack_err(&f);
        assert_eq!(e.file, "manifest.json", "{part}: {e}");
        assert!(e.message.contains(&format!("\"{part}\"")), "{e}");
    }
    // A split chunk without its _chunk.json, and a stray JSON file.
    let mut f = folder.clone();
    f.files
        .remove("sprites/_chunk.json")
        .expect("sprites/_chunk.json");
    assert_eq!(pack_err(&f).file, "sprites/_chunk.json");
    let mut f = folder.clone();
    f.insert("sprite.json", b"{}".to_vec());
    assert_eq!(pack_err(&f).file, "sprite.json");
}

#[test]
fn f25_errors_are_one_short_line_naming_the_folder_file() {
    let folder = sample_folder();
    let sprite = folder
        .under("sprites")
        .map(|(p, _)| p.to_owned())
        .find(|p| p.ends_with("/sprite.json"))
        .expect("a sprite");
    let mut f = folder.clone();
    let mut v = json(&f, &sprite);
    v["width"] = format!("\u{1b}[2J\n{}", "x".repeat(1 << 20)).into();
    put_json(&mut f, &sprite, &v);
    let e = pack_err(&f);
    assert_eq!(e.file, sprite, "{e}");
    let line = e.to_string();
    assert!(!line.contains('\u{1b}'), "{line}");
    assert!(line.len() < 1000, "{}", line.len());
    // A file name with control characters is escaped.
    let e = gmkit_folder::Error::new("a\nb\u{7}.json", "", "x");
    assert_eq!(e.to_string(), "a\\nb\\u{7}.json: x");
}

#[test]
fn frames_record_is_read_typed() {
    // A frames.json of many entries (within the limit) packs without a JSON tree per entry.
    let folder = sample_folder();
    let Some(record) = folder
        .files
        .keys()
        .find(|p| p.ends_with("/frames.json"))
        .cloned()
    else {
        panic!("the sample has a sprite with frames");
    };
    let mut f = folder.clone();
    // The texture page items stay as unpacked; only the hashes are many and wrong.
    let items: Value = serde_json::from_slice(folder.get(&record).unwrap()).unwrap();
    let mut text = format!("{{\"items\": {}, \"png_fnv64\": [", items["items"]);
    for i in 0..200_000 {
        text.push_str(if i == 0 { "\"0\"" } else { ",\"0\"" });
    }
    text.push_str("]}");
    f.insert(record, text.into_bytes());
    let before = pack(&folder).unwrap();
    let after = pack(&f).expect("a record with wrong hashes only means the PNGs are decoded");
    assert_eq!(
        gmkit_data::build_bytes(&before.data).unwrap(),
        gmkit_data::build_bytes(&after.data).unwrap()
    );
}
