//! Bar 4: edits in an unpacked folder carry into the packed file, and `diff` of the original
//! and the re-parsed result reports exactly the edit.

mod common;
use common::{entry_texts, header_of};
use gmkit_folder::diff::{Change, diff};
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_file, need};
use serde_json::Value;

/// A VM game with sprites of several frames on PNG pages, embedded sounds and code.
const GAME: &str = "dangaliensreop.win";

fn load(name: &str) -> Option<(Vec<u8>, Folder)> {
    let bytes = corpus_file(name)?;
    let data = gmkit_data::parse_bytes(bytes.clone()).expect("parses");
    let folder = unpack(&Game {
        data,
        audio_groups: Vec::new(),
    })
    .expect("unpacks");
    Some((bytes, folder))
}

/// Packs, builds, re-parses and unpacks again; returns the diff against `orig`.
fn round(orig: &Folder, edited: &Folder) -> Vec<String> {
    let game = pack(edited).unwrap_or_else(|e| panic!("pack: {e}"));
    let bytes = gmkit_data::build_bytes(&game.data).expect("builds");
    let again = gmkit_data::parse_bytes(bytes).expect("re-parses");
    let back = unpack(&Game {
        data: again,
        audio_groups: Vec::new(),
    })
    .expect("unpacks again");
    diff(orig, &back).iter().map(Change::to_string).collect()
}

fn json(f: &Folder, p: &str) -> Value {
    serde_json::from_slice(f.get(p).unwrap_or_else(|| panic!("{p} missing"))).unwrap()
}

fn put_json(f: &mut Folder, p: &str, v: &Value) {
    let mut b = serde_json::to_vec_pretty(v).unwrap();
    b.push(b'\n');
    f.insert(p, b);
}

/// A sprite with at least two frames: (its frame directory, its name).
fn multi_frame_sprite(f: &Folder) -> (String, String) {
    for (p, b) in f.under("sprites") {
        let Some(dir) = p.strip_suffix("/sprite.json") else {
            continue;
        };
        let v: Value = serde_json::from_slice(b).unwrap();
        // The frames' texture page items are in the sprite's record.
        let frames = f
            .get(&format!("{dir}/frames.json"))
            .and_then(|r| serde_json::from_slice::<Value>(r).ok())
            .map_or(0, |r| r["items"].as_array().map_or(0, Vec::len));
        if frames >= 2 && f.get(&format!("{dir}/1.png")).is_some() {
            return (dir.to_owned(), v["name"].as_str().unwrap().to_owned());
        }
    }
    panic!("no sprite with two frames");
}

#[test]
fn unchanged_folder_diffs_empty_and_packs_identically() {
    let (bytes, folder) = need!(load(GAME));
    let game = pack(&folder).unwrap();
    assert_eq!(gmkit_data::build_bytes(&game.data).unwrap(), bytes);
    assert_eq!(round(&folder, &folder), Vec::<String>::new());
}

#[test]
fn translation_loop() {
    let (bytes, folder) = need!(load(GAME));
    // Strings that only code pushes (JSON files do not name them), each once in one entry.
    let json_files: Vec<&[u8]> = folder
        .files
        .iter()
        .filter(|(p, _)| *p != "strings.json" && p.ends_with(".json"))
        .map(|(_, b)| b.as_slice())
        .collect();
    let asm_files: Vec<(&str, &str)> = folder
        .files
        .iter()
        .filter(|(p, _)| p.ends_with(".asm"))
        .map(|(p, b)| (p.as_str(), std::str::from_utf8(b).unwrap()))
        .collect();
    let pushes = |t: &str| -> Vec<&str> {
        asm_files
            .iter()
            .flat_map(|(p, b)| b.matches(t).map(move |_| *p))
            .collect()
    };
    let table =
        gmkit_folder::strings::parse_entries("strings.json", folder.get("strings.json").unwrap())
            .unwrap();
    let picked: Vec<u32> = table
        .iter()
        .filter(|(_, s)| {
            let t = serde_json::to_string(&s.to_string()).unwrap();
            s.len() > 3
                && s.as_bytes()
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || *c == b' ')
                && !json_files
                    .iter()
                    .any(|b| b.windows(t.len()).any(|w| w == t.as_bytes()))
                && pushes(&format!("push.s {t}\n")).len() == 1
        })
        .map(|(i, _)| *i)
        .take(2)
        .collect();
    assert_eq!(picked.len(), 2, "two strings to translate");
    // export strings → edit → import → build
    let mut data = gmkit_data::parse_bytes(bytes).unwrap();
    let edit = format!(
        "{{\"{}\": \"Bonjour\", \"{}\": \"Au revoir ✓\"}}",
        picked[0], picked[1]
    );
    assert_eq!(
        gmkit_folder::import::strings(&mut data, "fr.json", edit.as_bytes()).unwrap(),
        2
    );
    let out = gmkit_data::build_bytes(&data).unwrap();
    let again = unpack(&Game {
        data: gmkit_data::parse_bytes(out).unwrap(),
        audio_groups: Vec::new(),
    })
    .unwrap();
    let d: Vec<String> = diff(&folder, &again)
        .iter()
        .map(Change::to_string)
        .collect();
    let old = |i: u32| table.iter().find(|e| e.0 == i).unwrap().1.to_string();
    assert_eq!(
        d,
        vec![
            format!("string {}: {:?} → \"Bonjour\"", picked[0], old(picked[0])),
            format!(
                "string {}: {:?} → \"Au revoir ✓\"",
                picked[1],
                old(picked[1])
            ),
        ]
    );
    // The same through the folder: code names strings by their text, so a translation is a
    // search and replace over the folder (strings.json and the .asm that pushes it); the
    // entry is translated in place (nothing added to the table) and the code is unchanged.
    let mut edited = folder.clone();
    let mut s = json(&folder, "strings.json");
    s[picked[0].to_string()] = "Bonjour".into();
    put_json(&mut edited, "strings.json", &s);
    let from = format!("push.s {:?}\n", old(picked[0]));
    let asm = pushes(&from)[0];
    let text = std::str::from_utf8(folder.get(asm).unwrap()).unwrap();
    edited.insert(
        asm,
        text.replace(&from, "push.s \"Bonjour\"\n").into_bytes(),
    );
    let d = round(&folder, &edited);
    assert_eq!(
        d,
        vec![format!(
            "string {}: {:?} → \"Bonjour\"",
            picked[0],
            old(picked[0])
        )]
    );
}

#[test]
fn replaced_sprite_frame() {
    let (_, folder) = need!(load(GAME));
    let (dir, name) = multi_frame_sprite(&folder);
    let p = format!("{dir}/1.png");
    let mut img = gmkit_media::decode_png(folder.get(&p).unwrap()).unwrap();
    let mut n = 0;
    for px in img.pixels_mut().chunks_exact_mut(4) {
        if px[3] == 255 {
            px[0] ^= 0xFF;
            n += 1;
        }
    }
    assert!(n > 0);
    let mut edited = folder.clone();
    edited.insert(&p, gmkit_media::encode_png(&img).unwrap());
    let d = round(&folder, &edited);
    // The page holding the frame is listed too, saying why (or the frame's own new page).
    let (pages, changed): (Vec<&String>, Vec<&String>) =
        d.iter().partition(|l| l.starts_with("texture page "));
    assert!(
        pages
            .iter()
            .all(|l| l.ends_with("(changed sprite frames are on it)") || l.ends_with(": added")),
        "{d:#?}"
    );
    assert_eq!(changed.len(), 1, "{d:#?}");
    assert!(
        changed[0].starts_with(&format!("sprite {name} frame 1: ")),
        "{d:#?}"
    );
}

#[test]
fn added_sprite_frame() {
    let (_, folder) = need!(load(GAME));
    let (dir, name) = multi_frame_sprite(&folder);
    let record: Value = json(&folder, &format!("{dir}/frames.json"));
    let k = record["items"].as_array().unwrap().len();
    let mut img = gmkit_media::decode_png(folder.get(&format!("{dir}/0.png")).unwrap()).unwrap();
    for px in img.pixels_mut().chunks_exact_mut(4) {
        px[1] = px[1].wrapping_add(40);
        px[3] = 255;
    }
    let mut edited = folder.clone();
    edited.insert(
        format!("{dir}/{k}.png"),
        gmkit_media::encode_png(&img).unwrap(),
    );
    let d = round(&folder, &edited);
    // The frame gets a page of its own, listed once as added.
    let (pages, rest): (Vec<String>, Vec<String>) =
        d.into_iter().partition(|l| l.starts_with("texture page "));
    assert_eq!(rest, vec![format!("sprite {name} frame {k}: added")]);
    assert!(
        pages.len() <= 1 && pages.iter().all(|l| l.ends_with(": added")),
        "{pages:#?}"
    );
}

/// The first `pushi.e N` line of an assembly text, and the text with N changed.
fn edit_first_pushi(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut done = false;
    for line in text.lines() {
        match line.trim().strip_prefix("pushi.e ") {
            Some(n) if !done => {
                let n: i16 = n.trim().parse().ok()?;
                out.push_str(&format!("pushi.e {}", if n == 7 { 8 } else { 7 }));
                done = true;
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    done.then_some(out)
}

#[test]
fn edited_code_entry() {
    let (_, folder) = need!(load(GAME));
    let (path, text) = entry_texts(&folder, "asm")
        .into_iter()
        .map(|(p, _)| (p.clone(), folder.get(&p).unwrap()))
        .find_map(|(p, b)| {
            Some((
                p.to_owned(),
                edit_first_pushi(std::str::from_utf8(b).ok()?)?,
            ))
        })
        .expect("a code entry pushing a 16-bit constant");
    let name = header_of(&folder, &path)["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut edited = folder.clone();
    edited.insert(&path, text.into_bytes());
    assert_eq!(
        round(&folder, &edited),
        vec![format!("code {name}: 1 instruction changed")]
    );
}

#[test]
fn a_broken_asm_file_gets_one_error_line_naming_file_and_line() {
    let (_, folder) = need!(load(GAME));
    let (path, text) = entry_texts(&folder, "asm")
        .into_iter()
        .map(|(p, _)| (p.clone(), folder.get(&p).unwrap()))
        .find(|(_, b)| b.len() > 40)
        .map(|(p, b)| (p, String::from_utf8(b.to_vec()).unwrap()))
        .expect("a code entry");
    let mut edited = folder.clone();
    edited.insert(&path, format!("{text}pushi.e banana\n").into_bytes());
    let e = pack(&edited).unwrap_err();
    assert_eq!(e.file, path);
    let line = text.lines().count() + 1;
    assert!(e.field.starts_with(&format!("line {line}, column ")), "{e}");
    assert!(e.message.starts_with("expected "), "{e}");
    assert!(!e.to_string().contains('\n'));
    // An .asm without its entry's JSON.
    let mut edited = folder.clone();
    edited.insert("code/9999_orphan.asm", b"pushi.e 1\n".to_vec());
    let e = pack(&edited).unwrap_err();
    assert_eq!(e.file, "code/9999_orphan.asm");
}

/// A game with embedded audio.
const SOUND_GAME: &str = "patapon-like-compiled.win";

#[test]
fn replaced_and_added_sound() {
    let (_, folder) = need!(load(SOUND_GAME));
    let (audio, bytes) = folder
        .under("sounds")
        .find(|(p, _)| p.ends_with(".wav") || p.ends_with(".ogg"))
        .map(|(p, b)| (p.to_owned(), b.to_vec()))
        .expect("an embedded sound, beside its sound");
    let sound_name = audio["sounds/".len()..]
        .rsplit_once('.')
        .unwrap()
        .0
        .to_owned();
    let sound_json = json(&folder, &format!("sounds/{sound_name}.json"));
    let idx = sound_json["audio_id"].as_u64().unwrap() as usize;
    let manifest = json(&folder, "manifest.json");
    assert_eq!(
        manifest["audio"]["in_sounds"][idx.to_string()],
        sound_name.as_str()
    );
    // Replace: same container, different bytes.
    let mut replaced = bytes.clone();
    let last = replaced.len() - 1;
    replaced[last] ^= 0x55;
    let mut edited = folder.clone();
    edited.insert(&audio, replaced);
    assert_eq!(
        round(&folder, &edited),
        vec![format!(
            "sound {sound_name}.{}: changed ({} → {} bytes)",
            audio.rsplit('.').next().unwrap(),
            bytes.len(),
            bytes.len()
        )]
    );

    // Add: a new audio entry and a sound that plays it.
    let n = manifest["audio"]["entries"].as_u64().unwrap() as usize;
    let ext = audio.rsplit('.').next().unwrap();
    let mut edited = folder.clone();
    edited.insert(format!("audio/{n:04}.{ext}"), bytes.clone());
    let (sound_path, mut sound) = folder
        .under("sounds")
        .filter(|(p, _)| !p.ends_with("_chunk.json"))
        .find_map(|(p, b)| {
            let v: Value = serde_json::from_slice(b).ok()?;
            (v["audio_id"].as_i64() == Some(idx as i64)).then(|| (p.to_owned(), v))
        })
        .expect("the sound of that audio");
    let _ = sound_path;
    sound["name"] = "snd_added_by_test".into();
    sound["audio_id"] = (n as i64).into();
    put_json(&mut edited, "sounds/snd_added_by_test.json", &sound);
    let strings =
        gmkit_folder::strings::parse_entries("strings.json", folder.get("strings.json").unwrap())
            .unwrap();
    let d = round(&folder, &edited);
    assert_eq!(
        d,
        vec![
            // The new sound's audio moves beside it when unpacked again.
            "sound snd_added_by_test: added".to_owned(),
            format!("sound snd_added_by_test.{ext}: added"),
            format!("string {}: added \"snd_added_by_test\"", strings.len()),
        ]
    );
}

#[test]
fn a_broken_folder_gets_one_error_line_naming_file_and_field() {
    let (_, folder) = need!(load(GAME));
    let (dir, _) = multi_frame_sprite(&folder);
    let mut edited = folder.clone();
    let mut v = json(&folder, &format!("{dir}/sprite.json"));
    v["width"] = "wide".into();
    put_json(&mut edited, &format!("{dir}/sprite.json"), &v);
    let e = pack(&edited).unwrap_err();
    assert_eq!(e.file, format!("{dir}/sprite.json"));
    assert_eq!(e.field, "width");
    assert!(!e.to_string().contains('\n'));
    // A frame of the wrong size.
    let mut edited = folder.clone();
    edited.insert(
        format!("{dir}/0.png"),
        gmkit_media::encode_png(&gmkit_media::Image::transparent(3, 3).unwrap()).unwrap(),
    );
    let e = pack(&edited).unwrap_err();
    assert_eq!(e.file, format!("{dir}/0.png"));
    assert!(e.message.contains("expected a"), "{e}");
}

#[test]
fn edited_collision_mask() {
    let (_, folder) = need!(load(GAME));
    let (p, png) = folder
        .under("sprites")
        .find(|(p, _)| p.ends_with("/mask_0.png"))
        .map(|(p, b)| (p.to_owned(), b.to_vec()))
        .expect("a sprite with a collision mask");
    let dir = p.rsplit_once('/').unwrap().0;
    let name = json(&folder, &format!("{dir}/sprite.json"))["name"]
        .as_str()
        .unwrap()
        .to_owned();
    // Flip the top-left pixel, saved as an ordinary RGBA PNG (as an image editor would).
    let mut img = gmkit_media::decode_png(&png).unwrap();
    let px = &mut img.pixels_mut()[..4];
    let on = px[0] >= 128;
    px.copy_from_slice(if on {
        &[0, 0, 0, 255]
    } else {
        &[255, 255, 255, 255]
    });
    let mut edited = folder.clone();
    edited.insert(&p, gmkit_media::encode_png(&img).unwrap());
    assert_eq!(
        round(&folder, &edited),
        vec![format!("sprite {name} mask 0: 1 pixels changed")]
    );
}

#[test]
fn imported_code_assembly() {
    let (bytes, folder) = need!(load(GAME));
    let (path, text) = entry_texts(&folder, "asm")
        .into_iter()
        .map(|(p, _)| (p.clone(), folder.get(&p).unwrap()))
        .find_map(|(p, b)| {
            Some((
                p.to_owned(),
                edit_first_pushi(std::str::from_utf8(b).ok()?)?,
            ))
        })
        .expect("a code entry pushing a 16-bit constant");
    let name = header_of(&folder, &path)["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut data = gmkit_data::parse_bytes(bytes).unwrap();
    // A broken text changes nothing and names the line.
    let e = gmkit_folder::import::code(&mut data, &name, "x.asm", "pushi.e banana\n").unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.field.as_str()),
        ("x.asm", "line 1, column 9")
    );
    gmkit_folder::import::code(&mut data, &name, "x.asm", &text).unwrap();
    let again = unpack(&Game {
        data: gmkit_data::parse_bytes(gmkit_data::build_bytes(&data).unwrap()).unwrap(),
        audio_groups: Vec::new(),
    })
    .unwrap();
    let d: Vec<String> = diff(&folder, &again)
        .iter()
        .map(Change::to_string)
        .collect();
    assert_eq!(d, vec![format!("code {name}: 1 instruction changed")]);
}
