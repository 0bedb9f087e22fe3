//! Hostile images on unpack and pack (issue 15): a sprite whose frames cannot be cut within the
//! memory budget, or from odd texture items, keeps its stored items with a one-line note and
//! the folder packs back exactly (F1, F5, F6, F27); a frame or mask PNG whose header declares a
//! huge image is refused before it is decoded (F8, F20).

use gmkit_folder::frames::{KEPT_STORED, notes};
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_file, need, repro_path};
use serde_json::Value;
use std::sync::Mutex;

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

/// The allocation counters are process-wide: tests that measure run one at a time.
static MEASURE: Mutex<()> = Mutex::new(());

/// Most bytes a hostile case may have alive at once: 64 MB (the bar for small inputs).
const PEAK_LIMIT: usize = 64 << 20;

fn unpack_bytes(bytes: Vec<u8>) -> Folder {
    let data = gmkit_data::parse_bytes(bytes).expect("parses");
    unpack(&Game {
        data,
        audio_groups: Vec::new(),
    })
    .unwrap_or_else(|e| panic!("unpack: {e}"))
}

/// Unpacks a repro file (peak allocation bounded), checks it packs back byte for byte, and
/// returns its notes.
fn unpack_repro(name: &str) -> Option<(Folder, Vec<(String, String)>)> {
    let path = repro_path(&format!("round2/{name}"))?;
    let bytes = std::fs::read(&path).unwrap();
    let (folder, usage) = {
        let _one = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
        gmkit_testdata::alloc::measure(|| unpack_bytes(bytes.clone()))
    };
    assert!(
        usage.peak < PEAK_LIMIT,
        "{name}: unpack had {} bytes alive at its peak",
        usage.peak
    );
    let game = pack(&folder).unwrap_or_else(|e| panic!("{name}: pack: {e}"));
    let back = gmkit_data::build_bytes(&game.data).expect("builds");
    assert!(back == bytes, "{name}: unpack → pack is not byte-identical");
    let n = notes(&folder);
    Some((folder, n))
}

/// The note of `sprite` (a folder like `sprites/spr_player`), checked to be one line that
/// also stands in its `frames.json`, with no frame PNG beside it.
fn note_of<'a>(folder: &Folder, notes: &'a [(String, String)], sprite: &str) -> &'a str {
    let (_, note) = notes
        .iter()
        .find(|(d, _)| d == sprite)
        .unwrap_or_else(|| panic!("no note for {sprite}: {notes:?}"));
    assert!(!note.contains('\n') && note.len() < 400, "{note}");
    assert!(
        note.starts_with("frames kept as stored texture items: "),
        "{note}"
    );
    let rec: Value =
        serde_json::from_slice(folder.get(&format!("{sprite}/frames.json")).unwrap()).unwrap();
    assert_eq!(rec[KEPT_STORED].as_str(), Some(note.as_str()));
    assert!(
        folder.get(&format!("{sprite}/0.png")).is_none(),
        "{sprite}: a frame PNG beside the note"
    );
    note
}

/// F1: pages that each declare a 1 GiB image: refused from their headers, one at a time.
#[test]
fn page_bombs_keep_their_sprites_stored() {
    for name in [
        "unpack-2zoq-page-bomb-3pages.win",
        "unpack-2zoq-page-bomb-64pages.win",
    ] {
        let (folder, notes) = need!(unpack_repro(name));
        assert!(!notes.is_empty(), "{name}: no note");
        let note = note_of(&folder, &notes, &notes[0].0);
        assert!(
            note.contains("16384×16384") && note.contains("over the 256 MiB per-image budget"),
            "{name}: {note}"
        );
    }
}

/// F5: texture items whose target rectangle lies past the sprite's frame.
#[test]
fn odd_texture_items_keep_their_sprites_stored() {
    for name in [
        "unpack-frame-cut-panic-asteroid-u32-0x125c.win",
        "unpack-frame-cut-panic-the-game.win",
        "unpack-tpag-target-x-200-panic.win",
    ] {
        let (folder, notes) = need!(unpack_repro(name));
        assert_eq!(notes.len(), 1, "{name}: {notes:?}");
        let note = note_of(&folder, &notes, &notes[0].0);
        assert!(
            note.contains("target rectangle") && note.contains("does not fit the"),
            "{name}: {note}"
        );
        // The other sprites still have their frames.
        let sprites = folder
            .files
            .keys()
            .filter(|p| p.ends_with("/frames.json"))
            .count();
        assert!(
            sprites == 1 || folder.files.keys().any(|p| p.ends_with("/0.png")),
            "{name}: no frame PNG at all"
        );
    }
}

/// F6: a 16384² sprite of 64 frames: over the per-image budget, kept as stored.
#[test]
fn a_sprite_too_large_to_convert_is_kept_stored() {
    let (folder, notes) = need!(unpack_repro("unpack-sprite-16384x16384-64frames.win"));
    let note = note_of(&folder, &notes, "sprites/spr_player");
    assert_eq!(
        note,
        "frames kept as stored texture items: a 16384×16384 image needs 1024 MiB of RGBA, over the 256 MiB per-image budget"
    );
}

/// F27: one sprite of width 0 does not fail the unpack.
#[test]
fn a_sprite_of_width_0_is_kept_stored() {
    let (folder, notes) = need!(unpack_repro("unpack-sprite-width-0.win"));
    let note = note_of(&folder, &notes, "sprites/spr_player");
    assert!(note.contains("0×60"), "{note}");
}

/// A chunk of a PNG file.
fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = (data.len() as u32).to_be_bytes().to_vec();
    c.extend_from_slice(kind);
    c.extend_from_slice(data);
    let mut crc = !0u32;
    for &x in &c[4..] {
        crc ^= x as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                0xEDB8_8320 ^ (crc >> 1)
            } else {
                crc >> 1
            };
        }
    }
    c.extend_from_slice(&(!crc).to_be_bytes());
    c
}

/// A PNG whose header declares `w × h` (greyscale, `depth` bits) over a tiny IDAT.
fn png_declaring(w: u32, h: u32, depth: u8) -> Vec<u8> {
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[depth, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(b"IDAT", &[0x78, 0x01, 0x03, 0x00, 0, 0, 0, 1]));
    png.extend(chunk(b"IEND", &[]));
    png
}

/// The asteroid-destroyer folder and the stem of its sprite with frames and a mask-able size.
fn asteroid() -> Option<Folder> {
    Some(unpack_bytes(corpus_file("asteroid-destroyer.win")?))
}

/// Packs `folder` with the peak allocation bounded; returns the error line.
fn pack_error(folder: &Folder) -> String {
    let (r, usage) = {
        let _one = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
        gmkit_testdata::alloc::measure(|| pack(folder).map(|_| ()))
    };
    assert!(
        usage.peak < PEAK_LIMIT,
        "pack had {} bytes alive",
        usage.peak
    );
    let e = r.expect_err("packs a hostile folder").to_string();
    assert!(!e.contains('\n') && e.len() < 400, "{e}");
    e
}

/// F20: a frame PNG declaring 16384² is refused from its header.
#[test]
fn a_frame_png_bomb_is_refused_before_decoding() {
    let mut folder = need!(asteroid());
    let frame = "sprites/spr_player/0.png";
    assert!(folder.get(frame).is_some());
    folder.insert(frame, png_declaring(16384, 16384, 8));
    let e = pack_error(&folder);
    assert_eq!(
        e,
        format!("{frame}: expected a 64×60 image (the sprite's width × height), found 16384×16384")
    );
}

/// F8: a mask PNG declaring 1M × 1M, with sprite margins saying the same: the budget refuses
/// the mask size before any decoding.
#[test]
fn a_mask_png_bomb_is_refused_before_decoding() {
    let mut folder = need!(asteroid());
    let json = "sprites/spr_player/sprite.json";
    let mut v: Value = serde_json::from_slice(folder.get(json).unwrap()).unwrap();
    let side = 1u64 << 20;
    v["masks"] = serde_json::json!(["mask_0.png"]);
    v["margin_left"] = 0.into();
    v["margin_top"] = 0.into();
    v["margin_right"] = (side - 1).into();
    v["margin_bottom"] = (side - 1).into();
    let mut b = serde_json::to_vec_pretty(&v).unwrap();
    b.push(b'\n');
    folder.insert(json, b);
    folder.insert(
        "sprites/spr_player/mask_0.png",
        png_declaring(side as u32, side as u32, 1),
    );
    let e = pack_error(&folder);
    assert!(
        e.contains("1048576×1048576") && e.contains("budget") && e.contains("masks[0]"),
        "{e}"
    );
}

/// F20 through `gmkit import --page`: a page PNG declaring 16384² is refused from its header.
#[test]
fn an_imported_page_png_bomb_is_refused_before_decoding() {
    let bytes = need!(corpus_file("asteroid-destroyer.win"));
    let mut data = gmkit_data::parse_bytes(bytes).expect("parses");
    let (w, h) = {
        let p = data.textures.as_ref().unwrap().pages[0].as_ref().unwrap();
        (p.width().unwrap(), p.height().unwrap())
    };
    let png = png_declaring(16384, 16384, 8);
    let (r, usage) = {
        let _one = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
        gmkit_testdata::alloc::measure(|| {
            gmkit_folder::import::page(&mut data, 0, "bomb.png", &png)
        })
    };
    assert!(usage.peak < PEAK_LIMIT, "{} bytes alive", usage.peak);
    assert_eq!(
        r.unwrap_err().to_string(),
        format!("bomb.png: expected a {w}×{h} image (the page's size), found 16384×16384")
    );
}
