//! The everyday commands (issue 18): `ls` with its columns, `diff` old → new, `info` refusing a
//! file that is not a data file, no "Broken pipe" when the output is cut short, and `demo`
//! leaving its folder. Each on the built-in sample and on corpus files.

use gmkit_data::chunks::object::Object;
use gmkit_data::chunks::sprite::Sprite;
use gmkit_testdata::{corpus_names_all, corpus_path, need};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn gmkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The built-in sample written as `dir/sample.win`.
fn sample_file(dir: &Path) -> PathBuf {
    let data = gmkit_folder::sample::sample_data().unwrap();
    let path = dir.join("sample.win");
    gmkit_data::build_file(&data, &path).unwrap();
    path
}

fn ls_json(file: &Path, kind: &str) -> Vec<Value> {
    let o = gmkit(&["ls", "--json", file.to_str().unwrap(), kind]);
    assert!(o.status.success(), "ls {kind}: {}", err(&o));
    match serde_json::from_slice(&o.stdout).unwrap() {
        Value::Array(v) => v,
        other => panic!("ls --json {kind}: {other}"),
    }
}

#[test]
fn ls_shows_the_columns_of_the_sample() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample_file(dir.path());
    let f = file.to_str().unwrap();
    let rows = |kind: &str| -> Vec<String> {
        let o = gmkit(&["ls", f, kind]);
        assert!(o.status.success(), "{}", err(&o));
        text(&o).lines().map(str::to_owned).collect()
    };
    let squash = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    let sprites = rows("sprites");
    assert_eq!(squash(&sprites[0]), "index name width height frames");
    assert_eq!(squash(&sprites[1]), "0 spr_ball 32 32 1");
    let objects = rows("objects");
    assert_eq!(squash(&objects[0]), "index name sprite parent events");
    assert_eq!(squash(&objects[1]), "0 obj_ball spr_ball - 1");
    assert_eq!(squash(&rows("rooms")[1]), "0 rm_start 320 240 0");
    // A tenth of a second of WAV.
    assert_eq!(
        squash(&rows("sounds")[1]),
        "0 snd_beep wav 0.10s snd_beep.wav"
    );
    assert_eq!(squash(&rows("code")[1]), "0 gml_Object_obj_ball_Create_0 -");
    // Kinds without columns: index and name, no header.
    assert!(rows("strings").iter().any(|l| l.ends_with(" spr_ball")));

    let objects = ls_json(&file, "objects");
    assert_eq!(objects[0]["sprite"], "spr_ball");
    assert_eq!(objects[0]["parent"], Value::Null);
    let sounds = ls_json(&file, "sounds");
    assert_eq!(sounds[0]["type"], "wav");
    assert_eq!(sounds[0]["length"], 0.1);
    // The JSON keys come in the columns' order.
    let o = gmkit(&["ls", "--json", f, "sprites"]);
    let at = |k: &str| text(&o).find(&format!("\"{k}\":")).unwrap();
    let order = ["index", "name", "width", "height", "frames"].map(at);
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{}", text(&o));

    let o = gmkit(&["ls", f, "spritez"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("expected one of: sprites"), "{}", err(&o));
}

/// Every corpus file: the columns agree with the model (sizes, frame counts, names of the
/// objects' sprites and parents, instance counts), and every child code entry names its root.
#[test]
fn ls_columns_agree_with_the_model_on_every_corpus_file() {
    let names = need!(corpus_names_all());
    let mut checked = [0usize; 4];
    for name in &names {
        let path = corpus_path(name).unwrap();
        let data = gmkit_data::parse_file(&path).unwrap();
        let sprites = ls_json(&path, "sprites");
        for row in &sprites {
            let i = row["index"].as_u64().unwrap() as usize;
            let Some(s) = data.sprites.as_ref().and_then(|t| t.sprites[i].as_ref()) else {
                continue;
            };
            assert_eq!(row["width"], s.width, "{name} sprite {i}");
            assert_eq!(row["height"], s.height, "{name} sprite {i}");
            assert_eq!(row["frames"], s.frames.len(), "{name} sprite {i}");
            checked[0] += 1;
        }
        for row in ls_json(&path, "objects") {
            let i = row["index"].as_u64().unwrap() as u32;
            let Some(o) = data.asset(gmkit_data::Id::<Object>::new(i)) else {
                continue;
            };
            let parent = o
                .parent_id()
                .map(|p| data.asset_name(gmkit_data::Id::<Object>::new(p)).unwrap());
            assert_eq!(
                row["parent"].as_str(),
                parent.as_deref(),
                "{name} object {i}"
            );
            match &row["sprite"] {
                Value::Null => {}
                Value::String(s) => {
                    assert!(data.find_asset::<Sprite>(s).is_some(), "{name} object {i}")
                }
                other => panic!("{name} object {i}: sprite {other}"),
            }
            checked[1] += 1;
        }
        for row in ls_json(&path, "rooms") {
            let i = row["index"].as_u64().unwrap() as usize;
            let Some(r) = data.rooms.as_ref().and_then(|t| t.rooms[i].as_ref()) else {
                continue;
            };
            assert_eq!(row["instances"], r.instances.len(), "{name} room {i}");
            assert_eq!(row["width"], r.width, "{name} room {i}");
            checked[2] += 1;
        }
        let code = ls_json(&path, "code");
        for row in &code {
            if let Value::String(root) = &row["parent"] {
                assert!(
                    code.iter()
                        .any(|r| r["name"] == *root && r["parent"].is_null()),
                    "{name}: {row}"
                );
                checked[3] += 1;
            }
        }
    }
    eprintln!(
        "{} files: {} sprites, {} objects, {} rooms, {} child code entries",
        names.len(),
        checked[0],
        checked[1],
        checked[2],
        checked[3]
    );
    assert!(checked.iter().all(|n| *n > 0), "{checked:?}");
}

/// Sounds: every corpus sound with embedded WAV audio has a positive length and type `wav`.
#[test]
fn ls_sounds_have_type_and_length() {
    let names = need!(corpus_names_all());
    let mut with_length = 0;
    for name in &names {
        let path = corpus_path(name).unwrap();
        for row in ls_json(&path, "sounds") {
            if let Some(l) = row["length"].as_f64() {
                assert!((0.0..36_000.0).contains(&l), "{name}: {row}");
                assert!(row["type"].is_string(), "{name}: {row}");
                with_length += 1;
            }
        }
    }
    assert!(with_length > 0);
}

#[test]
fn diff_shows_old_and_new_values() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample_file(dir.path());
    let folder = dir.path().join("f");
    let (f, d) = (file.to_str().unwrap(), folder.to_str().unwrap());
    assert!(gmkit(&["unpack", f, d]).status.success());
    assert_eq!(gmkit(&["diff", f, d]).status.code(), Some(0));
    // The sprite's JSON, wherever the layout puts it.
    let json = walk(&folder)
        .into_iter()
        .find(|p| {
            p.extension().is_some_and(|e| e == "json")
                && std::fs::read_to_string(p)
                    .is_ok_and(|t| t.contains("\"spr_ball\"") && t.contains("\"origin_x\""))
        })
        .expect("the sprite's JSON");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    v["origin_x"] = Value::from(v["origin_x"].as_i64().unwrap() + 5);
    let old = v["origin_x"].as_i64().unwrap() - 5;
    std::fs::write(&json, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let o = gmkit(&["diff", f, d]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o),
        format!("sprite spr_ball: origin_x {old} → {}\n", old + 5)
    );
    let o = gmkit(&["diff", "--json", f, d]);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j[0]["field"], "origin_x");
    assert_eq!(j[0]["old"], old.to_string());
    assert_eq!(j[0]["new"], (old + 5).to_string());
}

/// A `.gml` edited in an unpacked folder (its `.asm` unchanged: pack compiles the text) is a
/// change of that entry, by lines; so is a new `.gml` file.
#[test]
fn diff_against_a_folder_shows_an_edited_gml() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample_file(dir.path());
    let folder = dir.path().join("f");
    let (f, d) = (file.to_str().unwrap(), folder.to_str().unwrap());
    assert!(gmkit(&["unpack", f, d]).status.success());
    let gml = walk(&folder)
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with("Create_0.gml"))
        .expect("the create event's GML");
    let source = std::fs::read_to_string(&gml).unwrap();
    assert!(source.contains("lives = 3;"), "{source}");
    std::fs::write(&gml, source.replace("lives = 3;", "lives = 5;")).unwrap();
    let o = gmkit(&["diff", f, d]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let out = text(&o);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("obj_ball"), "{out}");
    assert!(out.ends_with(": GML edited (1 line changed)\n"), "{out}");
    // Packed, the change is one instruction of that entry.
    let packed = dir.path().join("out.win");
    assert!(
        gmkit(&["pack", d, packed.to_str().unwrap()])
            .status
            .success()
    );
    let o = gmkit(&["diff", f, packed.to_str().unwrap()]);
    assert_eq!(
        text(&o),
        "code gml_Object_obj_ball_Create_0: 1 instruction changed\n"
    );
}

/// All files under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A corpus game with a sprite renamed and its origin moved in the model: the diff of the two
/// data files says "renamed" once and gives the old and new origin under the new name.
#[test]
fn diff_of_data_files_renames_and_values() {
    let path = need!(corpus_path("dangaliensreop.win"));
    let mut data = gmkit_data::parse_file(&path).unwrap();
    let (id, old, y) = data
        .sprites()
        .map(|(id, s, n)| (id, n.unwrap().to_string(), s.origin_y))
        .next()
        .unwrap();
    data.set_name(id, "spr_renamed_by_cli_test").unwrap();
    data.asset_mut(id).unwrap().origin_y = y + 16;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("edited.win");
    gmkit_data::build_file(&data, &out).unwrap();
    let o = gmkit(&["diff", path.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let lines: Vec<String> = text(&o).lines().map(str::to_owned).collect();
    assert!(
        lines.contains(&format!(
            "sprite spr_renamed_by_cli_test: renamed {old} → spr_renamed_by_cli_test"
        )),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&format!(
            "sprite spr_renamed_by_cli_test: origin_y {y} → {}",
            y + 16
        )),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.ends_with(": removed")),
        "{lines:#?}"
    );
}

#[test]
fn info_refuses_what_is_not_a_data_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 5] = [
        ("empty.win", b"", "an empty file"),
        ("page.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "a PNG image"),
        ("game.zip", b"PK\x03\x04\x14\0\0\0", "a ZIP archive"),
        ("game.exe", b"MZ\x90\0\x03\0\0\0", "a Windows executable"),
        ("notes.txt", b"hello\nworld\n", "text"),
    ];
    for (name, bytes, found) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        for json in [false, true] {
            let mut args = vec!["info", p.to_str().unwrap()];
            if json {
                args.insert(1, "--json");
            }
            let o = gmkit(&args);
            let e = err(&o);
            assert_eq!(o.status.code(), Some(1), "{name}: {e}");
            assert!(o.stdout.is_empty(), "{name}: {}", text(&o));
            assert_eq!(e.lines().count(), 1, "{name}: {e}");
            assert!(e.contains("expected a GameMaker data file"), "{name}: {e}");
            assert!(e.contains(&format!("found {found}")), "{name}: {e}");
            assert!(!e.contains("YYC"), "{name}: {e}");
        }
    }
    // A missing file is an I/O error.
    let o = gmkit(&["info", dir.path().join("nope.win").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3));
    // The sample and a corpus file are data files.
    let sample = sample_file(dir.path());
    let o = gmkit(&["info", sample.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text(&o).contains("compiler  VM"), "{}", text(&o));
    if let Some(p) = corpus_path("the-game.win") {
        assert!(gmkit(&["info", p.to_str().unwrap()]).status.success());
    }
}

/// Reads one line of the command's output, closes the pipe, and waits: the command ends with
/// exit status 0 and nothing on stderr (no "Broken pipe"). Each command prints far more than a
/// pipe holds, so it is still writing when the pipe closes.
#[test]
fn output_cut_short_by_head_ends_quietly() {
    let big = need!(corpus_path("vendaval.win"));
    let other = need!(corpus_path("ooo-kaizo.win"));
    let (b, o) = (big.to_str().unwrap(), other.to_str().unwrap());
    let runs: [&[&str]; 6] = [
        &["ls", o, "strings"],
        &["ls", "--json", o, "code"],
        &["ls", o, "code"],
        &["decompile", b],
        &["diff", b, o],
        &["diff", "--json", b, o],
    ];
    for args in runs {
        // The premise: more output than a pipe holds (64 KiB on Linux).
        assert!(gmkit(args).stdout.len() > 128 << 10, "{args:?}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_gmkit"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 64];
        out.read_exact(&mut first).unwrap();
        drop(out);
        let mut e = String::new();
        child.stderr.take().unwrap().read_to_string(&mut e).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(e, "", "{args:?}");
        assert!(status.success(), "{args:?}: {status:?}");
    }
}

#[test]
fn demo_leaves_its_folder_and_shows_gml() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("demo");
    let o = gmkit(&["demo", "--dir", target.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success(), "{t}{}", err(&o));
    assert!(t.contains("byte-identical to the input"), "{t}");
    assert!(t.contains("(decompiled GML; edit it and pack)"), "{t}");
    assert!(
        t.contains("show_debug_message(\"Hello from the gmkit sample\");"),
        "{t}"
    );
    assert!(
        t.contains(&format!("The folder stays at {}", target.display())),
        "{t}"
    );
    assert!(target.join("manifest.json").is_file());
    // What demo left packs to the sample again.
    let packed = dir.path().join("again.win");
    let o = gmkit(&["pack", target.to_str().unwrap(), packed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let sample = gmkit_data::build_bytes(&gmkit_folder::sample::sample_data().unwrap()).unwrap();
    assert_eq!(std::fs::read(&packed).unwrap(), sample);
    // A folder that is not empty is refused, and left alone.
    let o = gmkit(&["demo", "--dir", target.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    assert!(target.join("manifest.json").is_file());
}

/// On a corpus file, demo shows GML of the game and leaves the folder.
#[test]
fn demo_on_a_corpus_file() {
    let path = need!(corpus_path("the-game.win"));
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("demo");
    let o = gmkit(&[
        "demo",
        path.to_str().unwrap(),
        "--dir",
        target.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}{}", err(&o));
    assert!(
        t.contains(".gml (decompiled GML; edit it and pack):"),
        "{t}"
    );
    assert!(target.join("manifest.json").is_file());
}
