//! `diff_games` (only what differs unpacked) gives exactly `diff(unpack(a), unpack(b))`, on
//! every corpus file with a few edits each, and an unchanged or string-edited game decodes no
//! texture page.

use gmkit_data::DataFile;
use gmkit_folder::diff::{Change, Work, diff, diff_games_counted};
use gmkit_folder::{Game, unpack};
use gmkit_testdata::{corpus_all, need};

fn game(data: DataFile) -> Game {
    Game {
        data,
        audio_groups: Vec::new(),
    }
}

/// The full diff and the incremental one of `a` against `b` (asserted equal) and its work.
fn both(name: &str, what: &str, a: &Game, full_a: &gmkit_folder::Folder, b: &Game) -> Work {
    let full = diff(full_a, &unpack(b).expect("unpacks"));
    let (quick, work) = diff_games_counted(a, b).expect("diffs");
    let shown = |d: &[Change]| d.iter().map(Change::to_string).collect::<Vec<_>>();
    assert_eq!(
        shown(&quick),
        shown(&full),
        "{name}: {what}: the incremental diff differs"
    );
    assert_eq!(quick, full, "{name}: {what}: fields differ");
    work
}

/// A string's text changed (the last one: rarely a name).
fn edit_string(d: &mut DataFile) -> bool {
    let Some(t) = d.strings.as_mut() else {
        return false;
    };
    let Some(last) = t.len().checked_sub(1) else {
        return false;
    };
    let r = gmkit_data::StringRef(last as u32);
    let text = format!(
        "{} (edited by test)",
        t.get(r).map(|s| s.to_string()).unwrap()
    );
    t.set(r, text.as_str()).is_some()
}

/// One pixel of sprite frame 0 changed (the first sprite whose frame can be cut).
fn edit_frame(d: &mut DataFile) -> bool {
    let Some(textures) = d.textures.clone() else {
        return false;
    };
    let pages = gmkit_media::frame::Pages::new(&textures);
    let n = d.sprites.as_ref().map_or(0, |s| s.sprites.len());
    for i in 0..n {
        let Ok(frames) = gmkit_media::frame::sprite_frames(d, &pages, i) else {
            continue;
        };
        let Some(Some(mut img)) = frames.into_iter().next() else {
            continue;
        };
        if img.width() == 0 || img.height() == 0 {
            continue;
        }
        let px = img.pixels_mut();
        px[0] = px[0].wrapping_add(77);
        px[3] = 255;
        let png = gmkit_media::encode_png(&img).unwrap();
        if gmkit_folder::import::frame(d, i, 0, "test.png", &png).is_ok() {
            return true;
        }
    }
    false
}

/// An embedded sound's audio replaced by another sound's (or its own with a byte changed).
fn edit_sound(d: &mut DataFile) -> bool {
    let Some(audio) = d.audio.as_ref() else {
        return false;
    };
    let Some((i, bytes)) = audio
        .entries
        .iter()
        .enumerate()
        .find_map(|(i, e)| Some((i, e.clone()?)))
    else {
        return false;
    };
    let mut b = bytes.to_vec();
    if let Some(x) = b.last_mut() {
        *x ^= 0x5a;
    }
    d.audio.as_mut().unwrap().entries[i] = Some(b.into());
    true
}

/// A room instance moved one pixel.
fn edit_instance(d: &mut DataFile) -> bool {
    for r in d
        .rooms
        .iter_mut()
        .flat_map(|r| r.rooms.iter_mut())
        .flatten()
    {
        if let Some(inst) = r.instances.first_mut() {
            inst.x += 1;
            return true;
        }
    }
    false
}

/// A sprite (or else an object) renamed.
fn edit_rename(d: &mut DataFile) -> bool {
    let sprite = d.sprites().map(|(id, _, _)| id).next();
    if let Some(id) = sprite {
        return d.set_name(id, "spr_renamed_by_diff_test").is_ok();
    }
    let object = d.objects().map(|(id, _, _)| id).next();
    if let Some(id) = object {
        return d.set_name(id, "obj_renamed_by_diff_test").is_ok();
    }
    false
}

/// A code entry's GML replaced (the first object event that compiles the new text).
fn edit_code(d: &mut DataFile) -> bool {
    let names: Vec<String> = d
        .code
        .as_ref()
        .map(|c| {
            c.entries
                .iter()
                .filter(|e| e.body.is_root())
                .filter_map(|e| d.strings.as_ref()?.get(e.name).map(|s| s.to_string()))
                .filter(|n| n.starts_with("gml_Object_"))
                .take(20)
                .collect()
        })
        .unwrap_or_default();
    for n in names {
        let mut copy = d.clone();
        if gmkit_folder::import::code(&mut copy, &n, "t.gml", "x = 12345;\n").is_ok() {
            *d = copy;
            return true;
        }
    }
    false
}

type Edit = (&'static str, fn(&mut DataFile) -> bool);

const EDITS: &[Edit] = &[
    ("string", edit_string),
    ("frame", edit_frame),
    ("sound", edit_sound),
    ("instance", edit_instance),
    ("rename", edit_rename),
    ("code", edit_code),
];

#[test]
fn the_incremental_diff_equals_the_full_one_on_every_corpus_file() {
    let files = need!(corpus_all());
    let mut applied = std::collections::BTreeMap::<&str, usize>::new();
    for (name, bytes) in &files {
        let Ok(data) = gmkit_data::parse_bytes(bytes.clone()) else {
            continue;
        };
        let a = game(data);
        let Ok(full_a) = unpack(&a) else { continue };
        // Unchanged: nothing differs and no page is decoded.
        let same = both(name, "unchanged", &a, &full_a, &a.clone());
        assert_eq!(same.pages_decoded, 0, "{name}: unchanged");
        for (what, edit) in EDITS {
            let mut data = a.data.clone();
            if !edit(&mut data) {
                continue;
            }
            *applied.entry(what).or_default() += 1;
            let w = both(name, what, &a, &full_a, &game(data));
            if *what == "string" || *what == "instance" {
                assert_eq!(w.pages_decoded, 0, "{name}: {what}: {w:?}");
            }
            if *what == "frame" {
                assert!(w.pages_decoded > 0, "{name}: {what}: {w:?}");
            }
        }
    }
    eprintln!("edits applied: {applied:?} over {} files", files.len());
    for (what, _) in EDITS {
        assert!(
            applied.get(what).copied().unwrap_or(0) > 0,
            "edit {what} applied to no corpus file"
        );
    }
}

/// A string edit on a game with pages: the unchanged pages, frames and audio are compared,
/// none decoded or produced, and the diff names the string.
#[test]
fn a_string_edit_decodes_no_page() {
    let bytes = need!(gmkit_testdata::corpus_file("dangaliensreop.win"));
    let a = game(gmkit_data::parse_bytes(bytes).unwrap());
    let mut data = a.data.clone();
    assert!(edit_string(&mut data));
    let (d, w) = diff_games_counted(&a, &game(data)).unwrap();
    assert!(d.iter().any(|c| c.asset.starts_with("string ")), "{d:?}");
    assert_eq!(w.pages_decoded, 0, "{w:?}");
    assert!(w.compared > 0, "{w:?}");
    assert_eq!(w.produced, 0, "{w:?}");
}
