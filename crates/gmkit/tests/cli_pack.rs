//! `gmkit pack` on hostile folders (issue 15, cases F7, F12, F15, F16, F21, F22, F24 of
//! `../shared/repro/round2/mkfolders.sh`), each built here from the unpacked
//! asteroid-destroyer.win and run in a child process under a memory limit: a one-line error
//! naming the folder file (exit 1 or 3), nothing written, nothing touched beside the output.

use gmkit_folder::Folder;
use gmkit_testdata::limited::{Limits, run};
use gmkit_testdata::{corpus_path, need};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const GAME: &str = "asteroid-destroyer.win";

/// The game unpacked in memory.
fn base() -> Option<Folder> {
    let game = gmkit_folder::Game::open(corpus_path(GAME)?).expect("opens");
    Some(gmkit_folder::unpack(&game).expect("unpacks"))
}

fn set(f: &mut Folder, file: &str, edit: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(f.get(file).expect(file)).unwrap();
    edit(&mut v);
    f.insert(file, serde_json::to_vec_pretty(&v).unwrap());
}

fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    v.sort();
    v
}

/// A case: the folder written to `root/name`, then `plant` applied to it on disk.
fn make(root: &Path, name: &str, f: &Folder, plant: impl FnOnce(&Path)) -> PathBuf {
    let dir = root.join(name);
    f.write_dir(&dir).unwrap();
    plant(&dir);
    dir
}

/// Packs `dir` into `out/new.win` (beside a precious `victim.dat` and `audiogroup1.dat`) and
/// checks: exit 1 or 3, one line naming `file`, no new or changed file in `out`.
fn refused(dir: &Path, file: &str) {
    let out = dir.with_extension("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("victim.dat"), b"precious").unwrap();
    std::fs::write(out.join("audiogroup1.dat"), b"precious too").unwrap();
    let before = listing(&out);
    let parent = own_rss();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gmkit"));
    cmd.arg("pack").arg(dir).arg(out.join("new.win"));
    let r = run(
        cmd,
        Limits {
            address_space: 2 << 30,
            ..Limits::default()
        },
    );
    assert!(r.exited_with(&[1, 3]), "{}: {r}", dir.display());
    let err = r.stderr.trim_end();
    assert!(!err.contains('\n') && err.len() < 2000, "{r}");
    assert!(
        err.contains(&format!("/{file}: ")),
        "expected {file} named: {r}"
    );
    // A forked child's peak RSS starts at the test process's resident size at the fork (the
    // kernel counts the pages it copies before exec), so the bound is 64 MB above that.
    assert!(
        r.peak_rss < (64 << 20) + parent,
        "{r} (test process: {parent} bytes)"
    );
    assert_eq!(
        listing(&out),
        before,
        "{}: the output directory changed",
        dir.display()
    );
}

/// This process's resident size in bytes (`VmRSS`), 0 where `/proc` has none.
fn own_rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

#[test]
fn f7_manifest_values() {
    let f = need!(base());
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &str, Value); 7] = [
        ("strings-end-align-0", "strings", "end_align", 0.into()),
        (
            "strings-end-align-1.5e9",
            "strings",
            "end_align",
            1_500_000_000u64.into(),
        ),
        (
            "textures-end-align-2e9",
            "textures",
            "end_align",
            2_000_000_000u64.into(),
        ),
        (
            "chunk-align-1e9",
            "layout",
            "chunk_align",
            1_000_000_000u64.into(),
        ),
        (
            "chunk-align-32M",
            "layout",
            "chunk_align",
            33_554_432u64.into(),
        ),
        ("audio-entries-u64max", "audio", "entries", u64::MAX.into()),
        (
            "audio-entries-1e11",
            "audio",
            "entries",
            100_000_000_000u64.into(),
        ),
    ];
    for (name, section, key, value) in cases {
        let mut g = f.clone();
        set(&mut g, "manifest.json", |m| m[section][key] = value);
        refused(&make(tmp.path(), name, &g, |_| {}), "manifest.json");
    }
}

#[cfg(unix)]
#[test]
fn f12_links_and_fifos() {
    let f = need!(base());
    let tmp = tempfile::tempdir().unwrap();
    let page = "textures/stored/0000.2zoq";
    assert!(f.get(page).is_some(), "{GAME} has {page}");
    for target in ["/etc/passwd", "/dev/zero"] {
        let dir = make(
            tmp.path(),
            &format!("link{}", target.replace('/', "-")),
            &f,
            |d| {
                std::fs::remove_file(d.join(page)).unwrap();
                std::os::unix::fs::symlink(target, d.join(page)).unwrap();
            },
        );
        refused(&dir, page);
    }
    let dir = make(tmp.path(), "fifo", &f, |d| {
        let ok = Command::new("mkfifo").arg(d.join("zz.json")).status();
        assert!(ok.is_ok_and(|s| s.success()), "mkfifo");
    });
    refused(&dir, "zz.json");
}

#[test]
fn f24_a_frames_record_past_the_limit() {
    let f = need!(base());
    let tmp = tempfile::tempdir().unwrap();
    let record = "sprites/spr_player/frames.json";
    assert!(f.get(record).is_some(), "{GAME} has {record}");
    let dir = make(tmp.path(), "frames-json-50M", &f, |d| {
        let file = std::fs::File::create(d.join(record)).unwrap();
        file.set_len(50 << 20).unwrap();
    });
    refused(&dir, record);
}

#[test]
fn f15_f16_audio_groups() {
    let f = need!(base());
    let tmp = tempfile::tempdir().unwrap();
    // Any folder name under audiogroups/ that is not audiogroupN.
    let mut g = f.clone();
    for (p, b) in f.files.iter() {
        g.insert(format!("audiogroups/victim/{p}"), b.clone());
    }
    refused(
        &make(tmp.path(), "audiogroup-overwrite", &g, |_| {}),
        "audiogroups/victim",
    );
    // An audio group of the table whose file is invalid: nothing is written at all.
    let mut g = f.clone();
    g.insert(
        "audio_groups/0001_audiogroup1.json",
        br#"{"name": "audiogroup1"}"#.to_vec(),
    );
    for (p, b) in f.files.iter() {
        g.insert(format!("audiogroups/audiogroup1/{p}"), b.clone());
    }
    let obj = "audiogroups/audiogroup1/objects/obj_player/object.json";
    set(&mut g, obj, |v| v["sprite"] = 9999.into());
    refused(&make(tmp.path(), "audiogroup-invalid", &g, |_| {}), obj);
}

#[test]
fn f22_manifest_without_textures() {
    let f = need!(base());
    let tmp = tempfile::tempdir().unwrap();
    for part in ["textures", "strings"] {
        let mut g = f.clone();
        set(&mut g, "manifest.json", |m| {
            m.as_object_mut().unwrap().remove(part);
        });
        refused(
            &make(tmp.path(), &format!("no-{part}"), &g, |_| {}),
            "manifest.json",
        );
    }
}

#[test]
fn f21_in_place_twice_keeps_every_backup() {
    let f = need!(base());
    let tmp = tempfile::tempdir().unwrap();
    let dir = make(tmp.path(), "game", &f, |_| {});
    let file = tmp.path().join("data.win");
    let original = std::fs::read(corpus_path(GAME).unwrap()).unwrap();
    std::fs::write(&file, &original).unwrap();
    let pack = |in_place: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gmkit"));
        cmd.arg("pack");
        if in_place {
            cmd.arg("--in-place");
        }
        cmd.arg(&dir).arg(&file);
        run(cmd, Limits::default())
    };
    let r = pack(false);
    assert!(
        r.exited_with(&[2]),
        "refuses to replace without --in-place: {r}"
    );
    for _ in 0..2 {
        let r = pack(true);
        assert!(r.exited_with(&[0]), "{r}");
    }
    assert_eq!(
        std::fs::read(tmp.path().join("data.win.bak")).unwrap(),
        original
    );
    assert_eq!(
        std::fs::read(tmp.path().join("data.win.bak.1")).unwrap(),
        original
    );
    assert_eq!(std::fs::read(&file).unwrap(), original);
}

/// A pack that succeeds stays within the memory bound of issue 18 (bar 4) on a corpus game:
/// the element files are read one at a time, so pack's peak RSS is the model, one element's
/// JSON and the payloads it maps, far below 64 MB here, and the output is identical.
#[test]
fn a_successful_pack_stays_within_its_memory_bound() {
    let f = need!(base());
    let tmp = tempfile::tempdir().unwrap();
    let dir = make(tmp.path(), "game", &f, |_| {});
    let out = tmp.path().join("new.win");
    let original = std::fs::read(corpus_path(GAME).unwrap()).unwrap();
    let parent = own_rss();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gmkit"));
    cmd.arg("pack").arg(&dir).arg(&out);
    let r = run(cmd, Limits::default());
    assert!(r.exited_with(&[0]), "{r}");
    assert_eq!(std::fs::read(&out).unwrap(), original, "identical");
    // (As in `refused`: a forked child's peak starts at the test process's resident size.)
    assert!(
        r.peak_rss < (64 << 20) + parent,
        "{r} (test process: {parent} bytes)"
    );
}
