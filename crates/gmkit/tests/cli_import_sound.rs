//! `gmkit import --sound NAME=FILE` for a sound of an audio group: the audio goes into its
//! `audiogroupN.dat`, written beside the output the way `gmkit pack` writes (temporary files
//! read back and parsed, nothing written when any part fails); `--in-place` keeps backups and
//! never overwrites one. No corpus game has audio groups: one sound of a corpus game is moved
//! into an `audiogroup1.dat` made beside it.

use gmkit_data::DataFile;
use gmkit_testdata::{corpus_names_all, corpus_path};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn gmkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A mono 16-bit WAV of 441 silent samples.
fn tiny_wav() -> Vec<u8> {
    let samples = 441u32;
    let data = samples * 2;
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + data).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes());
    w.extend_from_slice(&44100u32.to_le_bytes());
    w.extend_from_slice(&88200u32.to_le_bytes());
    w.extend_from_slice(&2u16.to_le_bytes());
    w.extend_from_slice(&16u16.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&data.to_le_bytes());
    w.resize(w.len() + data as usize, 0);
    w
}

/// A game with an audio group, written into a directory.
struct Fixture {
    dir: tempfile::TempDir,
    /// `dir/game.win`.
    file: PathBuf,
    /// The moved sound's name.
    sound: String,
    /// Its audio before the import.
    original: Vec<u8>,
    /// `dir/new.wav`.
    wav: PathBuf,
}

/// A corpus game with one embedded sound moved into `audiogroup1.dat` beside it (the sound's
/// group becomes 1, its audio entry 0 of the group file), and a new WAV beside it.
fn fixture() -> Option<Fixture> {
    use gmkit_data::AssetRef;
    use gmkit_data::chunks::audio::EmbeddedAudio;
    use gmkit_data::chunks::audio_group::{AudioGroup, AudioGroups};
    use gmkit_data::chunks::sound::GroupOrPreload;
    let dir = tempfile::tempdir().unwrap();
    for name in corpus_names_all()? {
        let mut data = gmkit_data::parse_file(corpus_path(&name)?).unwrap();
        let Some((i, audio)) = data.sounds.as_ref().and_then(|s| {
            s.sounds.iter().enumerate().find_map(|(i, s)| {
                let s = s.as_ref()?;
                if !matches!(s.group, GroupOrPreload::Group(g) if g.index() == Some(0)) {
                    return None;
                }
                let bytes = data
                    .audio
                    .as_ref()?
                    .entries
                    .get(s.audio_id.index()?)?
                    .clone()?;
                Some((i, bytes))
            })
        }) else {
            continue;
        };
        let group_name = data.strings.as_mut().unwrap().push("audiogroup_test");
        let groups = data.audio_groups.get_or_insert_with(AudioGroups::default);
        while groups.groups.len() < 2 {
            groups.groups.push(Some(AudioGroup {
                name: group_name,
                path: None,
            }));
        }
        let sound = data.sounds.as_mut().unwrap().sounds[i].as_mut().unwrap();
        sound.group = GroupOrPreload::Group(AssetRef::at(1));
        sound.audio_id = AssetRef::at(0);
        let sound_name = data
            .strings
            .as_ref()
            .unwrap()
            .get(sound.name)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let group = DataFile {
            audio: Some(EmbeddedAudio {
                entries: vec![Some(audio.clone())],
            }),
            ..Default::default()
        };
        let file = dir.path().join("game.win");
        std::fs::write(&file, gmkit_data::build_bytes(&data).unwrap()).unwrap();
        std::fs::write(
            dir.path().join("audiogroup1.dat"),
            gmkit_data::build_bytes(&group).unwrap(),
        )
        .unwrap();
        let wav = dir.path().join("new.wav");
        std::fs::write(&wav, tiny_wav()).unwrap();
        eprintln!("{name}: sound {sound_name} moved into audiogroup1.dat");
        return Some(Fixture {
            dir,
            file,
            sound: sound_name,
            original: audio.to_vec(),
            wav,
        });
    }
    panic!("no corpus game has an embedded sound of the default group")
}

/// The audio of entry 0 of an audio group file.
fn group_audio(path: &Path) -> Vec<u8> {
    gmkit_data::parse_file(path).unwrap().audio.unwrap().entries[0]
        .clone()
        .unwrap()
        .to_vec()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_sound_of_an_audio_group_is_written_into_its_group_file_beside_the_output() {
    let Some(f) = fixture() else { return };
    let out_dir = f.dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let out = out_dir.join("game.win");
    let spec = format!("{}={}", f.sound, f.wav.display());
    let o = gmkit(&[
        "import",
        f.file.to_str().unwrap(),
        "--sound",
        &spec,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("audiogroup1.dat"), "{said}");
    // Only the data file and the changed group, both parse; the new audio is in the group.
    assert_eq!(names(&out_dir), ["audiogroup1.dat", "game.win"]);
    gmkit_data::parse_file(&out).expect("the output parses");
    assert_eq!(group_audio(&out_dir.join("audiogroup1.dat")), tiny_wav());
    // The input's group file is untouched.
    assert_eq!(
        group_audio(&f.dir.path().join("audiogroup1.dat")),
        f.original
    );
    // `gmkit check` passes on the written file.
    let c = gmkit(&["check", out.to_str().unwrap()]);
    assert!(c.status.success(), "{}", err(&c));
}

#[test]
fn an_existing_group_file_beside_the_output_is_not_replaced_without_in_place() {
    let Some(f) = fixture() else { return };
    let before = names(f.dir.path());
    let out = f.dir.path().join("other.win");
    let spec = format!("{}={}", f.sound, f.wav.display());
    let o = gmkit(&[
        "import",
        f.file.to_str().unwrap(),
        "--sound",
        &spec,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let e = err(&o);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(
        e.contains("audiogroup1.dat") && e.contains("--in-place"),
        "{e}"
    );
    assert_eq!(names(f.dir.path()), before, "nothing written");
    assert_eq!(
        group_audio(&f.dir.path().join("audiogroup1.dat")),
        f.original
    );
}

#[test]
fn in_place_keeps_backups_of_the_game_and_its_group_and_never_overwrites_one() {
    let Some(f) = fixture() else { return };
    let game_before = std::fs::read(&f.file).unwrap();
    let group_path = f.dir.path().join("audiogroup1.dat");
    let group_before = std::fs::read(&group_path).unwrap();
    let spec = format!("{}={}", f.sound, f.wav.display());
    let args = [
        "import",
        f.file.to_str().unwrap(),
        "--sound",
        &spec,
        "--in-place",
    ];
    let o = gmkit(&args);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(group_audio(&group_path), tiny_wav());
    assert_eq!(
        std::fs::read(f.dir.path().join("game.win.bak")).unwrap(),
        game_before
    );
    assert_eq!(
        std::fs::read(f.dir.path().join("audiogroup1.dat.bak")).unwrap(),
        group_before
    );
    // Again: new backups beside the first ones, which stay as they were.
    let o = gmkit(&args);
    assert!(o.status.success(), "{}", err(&o));
    assert!(f.dir.path().join("audiogroup1.dat.bak.1").is_file());
    assert!(f.dir.path().join("game.win.bak.1").is_file());
    assert_eq!(
        std::fs::read(f.dir.path().join("audiogroup1.dat.bak")).unwrap(),
        group_before
    );
}

#[test]
fn nothing_is_written_when_a_part_fails() {
    let Some(f) = fixture() else { return };
    let out_dir = f.dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let out = out_dir.join("game.win");
    let spec = format!("{}={}", f.sound, f.wav.display());
    // The sound imports; the code does not (no such entry).
    let asm = f.dir.path().join("bad.asm");
    std::fs::write(&asm, "pushi.e 1\n").unwrap();
    let code = format!("gml_Script_no_such_entry_by_test={}", asm.display());
    let o = gmkit(&[
        "import",
        f.file.to_str().unwrap(),
        "--sound",
        &spec,
        "--code",
        &code,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(names(&out_dir).is_empty(), "{:?}", names(&out_dir));
    // A missing group file: one line naming it, exit 3, nothing written.
    std::fs::remove_file(f.dir.path().join("audiogroup1.dat")).unwrap();
    let o = gmkit(&[
        "import",
        f.file.to_str().unwrap(),
        "--sound",
        &spec,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    let e = err(&o);
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(e.contains("audiogroup1.dat"), "{e}");
    assert!(names(&out_dir).is_empty(), "{:?}", names(&out_dir));
}
