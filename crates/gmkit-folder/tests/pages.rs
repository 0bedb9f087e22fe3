//! Texture pages as PNG (`textures/NNNN.png`) beside their stored bytes
//! (`textures/stored/NNNN.<format>`): every PNG re-encoded packs identical on every corpus file;
//! a page edit is taken where no frame changed, frames win, an overlap is refused; and every
//! image that cannot be taken is refused with one line naming its file.

use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_all, corpus_file, need};
use rayon::prelude::*;
use serde_json::Value;

/// A game with three texture pages (bz2-compressed QOI) and sprites with frames on them.
const PAGES_GAME: &str = "platformermonster.win";

fn folder_of(bytes: Vec<u8>) -> (gmkit_data::DataFile, Folder) {
    let data = gmkit_data::parse_bytes(bytes).expect("parses");
    let folder = unpack(&Game {
        data: data.clone(),
        audio_groups: Vec::new(),
    })
    .expect("unpacks");
    (data, folder)
}

fn packed(folder: &Folder) -> Vec<u8> {
    let game = pack(folder).unwrap_or_else(|e| panic!("pack: {e}"));
    gmkit_data::build_bytes(&game.data).expect("builds")
}

/// The same pixels written by another PNG encoder setting (other bytes).
fn reencode(png: &[u8]) -> Vec<u8> {
    let img = gmkit_media::decode_png(png).expect("a PNG");
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width(), img.height());
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::High);
        enc.set_filter(png::Filter::Paeth);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(img.pixels()).unwrap();
    }
    out
}

/// The page PNGs of a folder (`textures/NNNN.png`): (path, page index).
fn page_pngs(f: &Folder) -> Vec<(String, usize)> {
    f.files
        .keys()
        .filter_map(|p| {
            let n = p.strip_prefix("textures/")?.strip_suffix(".png")?;
            Some((p.clone(), n.parse().ok()?))
        })
        .collect()
}

#[test]
fn every_page_is_a_png_and_every_png_reencoded_packs_identical() {
    let files = need!(corpus_all());
    let failures: Vec<String> = files
        .into_par_iter()
        .filter_map(|(name, bytes)| {
            let Ok(data) = gmkit_data::parse_bytes(bytes.clone()) else {
                return None; // the data-file parser's corpus test reports these
            };
            let folder = unpack(&Game {
                data: data.clone(),
                audio_groups: Vec::new(),
            })
            .map_err(|e| format!("{name}: unpack: {e}"))
            .ok()?;
            // Every embedded page that can be decoded has its PNG.
            let pages = data.textures.as_ref().map_or(0, |t| t.pages.len());
            for i in 0..pages {
                let record: Value =
                    serde_json::from_slice(folder.get(&format!("textures/{i:04}.json")).unwrap())
                        .unwrap();
                let d = &record["data"];
                if d.get("file").is_some() && d.get("png_note").is_none() {
                    let png = format!("textures/{i:04}.png");
                    if folder.get(&png).is_none() {
                        return Some(format!("{name}: {png} missing"));
                    }
                }
            }
            // Every page and frame PNG re-encoded (masks are 1-bit files of their own).
            let mut edited = folder.clone();
            for (p, b) in &folder.files {
                if p.ends_with(".png") && !p.contains("/mask_") {
                    edited.insert(p.clone(), reencode(b));
                }
            }
            let out = pack(&edited)
                .map_err(|e| e.to_string())
                .and_then(|g| gmkit_data::build_bytes(&g.data).map_err(|e| e.to_string()));
            match out {
                Ok(out) if out == bytes => None,
                Ok(_) => Some(format!("{name}: not identical after re-encoding every PNG")),
                Err(e) => Some(format!("{name}: {e}")),
            }
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A sprite frame of the game: (frame PNG path, page index, item source rectangle).
fn a_frame(data: &gmkit_data::DataFile, f: &Folder) -> (String, usize, [u16; 4]) {
    for p in f.files.keys() {
        let Some(dir) = p.strip_suffix("/0.png") else {
            continue;
        };
        let Some(stem) = dir.strip_prefix("sprites/") else {
            continue;
        };
        // The sprite's index is the place of its folder in the chunk's order.
        let order: Value = serde_json::from_slice(f.get("sprites/_chunk.json").unwrap()).unwrap();
        let i = order["order"]
            .as_array()
            .unwrap()
            .iter()
            .position(|n| n.as_str() == Some(stem))
            .unwrap();
        let s = data.sprites.as_ref().unwrap().sprites[i].as_ref().unwrap();
        let Some(r) = s.frames[0] else { continue };
        let item = gmkit_media::frame::item(data, r).unwrap();
        // An item of this frame only (a shared one gets a page of its own when edited).
        let shared = data
            .sprites
            .as_ref()
            .unwrap()
            .sprites
            .iter()
            .flatten()
            .flat_map(|s| s.frames.iter().flatten())
            .filter(|x| {
                let o = gmkit_media::frame::item(data, **x).unwrap();
                o.texture_page == item.texture_page && o.source == item.source
            })
            .count();
        if shared == 1 && item.source[2] > 1 && item.source[3] > 1 {
            return (p.clone(), item.texture_page as usize, item.source);
        }
    }
    panic!("a sprite frame with an item of its own");
}

/// The page PNG with the pixels of `rect` inverted.
fn page_edited(f: &Folder, page: usize, rect: [u16; 4]) -> Vec<u8> {
    let mut img =
        gmkit_media::decode_png(f.get(&format!("textures/{page:04}.png")).unwrap()).unwrap();
    let w = img.width() as usize;
    let [x, y, rw, rh] = rect.map(usize::from);
    let px = img.pixels_mut();
    for r in y..y + rh {
        for c in x..x + rw {
            let at = (r * w + c) * 4;
            px[at] ^= 0xFF;
            px[at + 3] = 255;
        }
    }
    gmkit_media::encode_png(&img).unwrap()
}

#[test]
fn a_page_edit_is_taken_where_no_frame_changed() {
    let (data, folder) = folder_of(need!(corpus_file(PAGES_GAME)));
    let (frame, page, rect) = a_frame(&data, &folder);
    let mut edited = folder.clone();
    edited.insert(
        format!("textures/{page:04}.png"),
        page_edited(&folder, page, rect),
    );
    let out = packed(&edited);
    assert_ne!(
        out,
        need!(corpus_file(PAGES_GAME)),
        "the page edit changed the game"
    );
    // Unpacked again, the frame cut from the edited page shows the edit.
    let (_, again) = folder_of(out);
    assert_ne!(
        again.get(&frame),
        folder.get(&frame),
        "{frame} shows the page edit"
    );
    let before = gmkit_media::decode_png(folder.get(&frame).unwrap()).unwrap();
    let after = gmkit_media::decode_png(again.get(&frame).unwrap()).unwrap();
    assert!(before.count_differences(&after).unwrap() > 0);
}

#[test]
fn a_page_edit_and_a_frame_edit_of_the_same_pixels_are_refused() {
    let (data, folder) = folder_of(need!(corpus_file(PAGES_GAME)));
    let (frame, page, rect) = a_frame(&data, &folder);
    let mut edited = folder.clone();
    edited.insert(
        format!("textures/{page:04}.png"),
        page_edited(&folder, page, rect),
    );
    let mut img = gmkit_media::decode_png(folder.get(&frame).unwrap()).unwrap();
    for px in img.pixels_mut().chunks_exact_mut(4) {
        px[1] ^= 0x55;
        px[3] = 255;
    }
    edited.insert(&frame, gmkit_media::encode_png(&img).unwrap());
    let e = pack(&edited).expect_err("both views edited the same pixels");
    assert_eq!(e.file, frame, "{e}");
    assert!(
        e.message
            .contains(&format!("textures/{page:04}.png both changed")),
        "{e}"
    );
}

#[test]
fn a_frame_edit_wins_over_an_unrelated_page_edit() {
    let (data, folder) = folder_of(need!(corpus_file(PAGES_GAME)));
    let (frame, page, rect) = a_frame(&data, &folder);
    // The page edit: one pixel outside every item of the page.
    let items = &data.texture_page_items.as_ref().unwrap().items;
    let mut img =
        gmkit_media::decode_png(folder.get(&format!("textures/{page:04}.png")).unwrap()).unwrap();
    let (w, h) = (img.width(), img.height());
    let free = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .find(|&(x, y)| {
            !items.iter().flatten().any(|it| {
                let [sx, sy, sw, sh] = it.source.map(u32::from);
                it.texture_page as usize == page && x >= sx && x < sx + sw && y >= sy && y < sy + sh
            })
        });
    let Some((x, y)) = free else {
        return; // a page full of items: nothing to test here
    };
    let at = ((y * w + x) * 4) as usize;
    img.pixels_mut()[at] ^= 0xFF;
    img.pixels_mut()[at + 3] = 255;
    let mut edited = folder.clone();
    edited.insert(
        format!("textures/{page:04}.png"),
        gmkit_media::encode_png(&img).unwrap(),
    );
    let mut f = gmkit_media::decode_png(folder.get(&frame).unwrap()).unwrap();
    for px in f.pixels_mut().chunks_exact_mut(4) {
        px[2] ^= 0x33;
        px[3] = 255;
    }
    edited.insert(&frame, gmkit_media::encode_png(&f).unwrap());
    let (_, again) = folder_of(packed(&edited));
    let back = gmkit_media::decode_png(again.get(&frame).unwrap()).unwrap();
    let wanted = gmkit_media::decode_png(edited.get(&frame).unwrap()).unwrap();
    assert_eq!(
        back.count_differences(&wanted),
        Some(0),
        "the frame edit is kept"
    );
    let page_back =
        gmkit_media::decode_png(again.get(&format!("textures/{page:04}.png")).unwrap()).unwrap();
    assert_eq!(
        page_back.pixel(x, y),
        img.pixel(x, y),
        "the page edit is kept"
    );
    let _ = rect;
}

/// Packs `edited` expecting a refusal naming `file` with `expected` in its message.
fn refused(edited: &Folder, file: &str, expected: &str) {
    let e = pack(edited).expect_err("refused");
    assert_eq!(e.file, file, "{e}");
    assert!(e.message.contains(expected), "{e}");
    assert!(!e.to_string().contains('\n'), "one line: {e}");
}

#[test]
fn a_deleted_frame_is_refused() {
    let (data, folder) = folder_of(need!(corpus_file(PAGES_GAME)));
    let (frame, _, _) = a_frame(&data, &folder);
    let mut edited = folder.clone();
    edited.files.remove(&frame);
    refused(&edited, &frame, "expected this frame (deleted");
}

#[test]
fn a_deleted_page_png_is_refused() {
    let (_, folder) = folder_of(need!(corpus_file(PAGES_GAME)));
    let (png, _) = page_pngs(&folder).remove(0);
    let mut edited = folder.clone();
    edited.files.remove(&png);
    refused(&edited, &png, "expected this page's PNG (missing");
}

#[test]
fn a_page_png_of_the_wrong_size_is_refused() {
    let (_, folder) = folder_of(need!(corpus_file(PAGES_GAME)));
    let (png, _) = page_pngs(&folder).remove(0);
    let img = gmkit_media::decode_png(folder.get(&png).unwrap()).unwrap();
    let small = gmkit_media::Image::transparent(img.width() / 2, img.height()).unwrap();
    let mut edited = folder.clone();
    edited.insert(&png, gmkit_media::encode_png(&small).unwrap());
    refused(
        &edited,
        &png,
        &format!(
            "expected a {}×{} image (the page's size), found {}×{}",
            img.width(),
            img.height(),
            img.width() / 2,
            img.height()
        ),
    );
}

/// A 16-bit RGBA PNG of `w × h`.
fn png16(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Sixteen);
        let mut wr = enc.write_header().unwrap();
        wr.write_image_data(&vec![0x7Fu8; (w * h * 8) as usize])
            .unwrap();
    }
    out
}

#[test]
fn a_16_bit_page_or_frame_is_refused() {
    let (data, folder) = folder_of(need!(corpus_file(PAGES_GAME)));
    let (png, _) = page_pngs(&folder).remove(0);
    let img = gmkit_media::decode_png(folder.get(&png).unwrap()).unwrap();
    let mut edited = folder.clone();
    edited.insert(&png, png16(img.width(), img.height()));
    refused(&edited, &png, "expected 8 bits per channel");
    let (frame, _, _) = a_frame(&data, &folder);
    let f = gmkit_media::decode_png(folder.get(&frame).unwrap()).unwrap();
    let mut edited = folder.clone();
    edited.insert(&frame, png16(f.width(), f.height()));
    refused(&edited, &frame, "expected 8 bits per channel");
}

#[test]
fn a_folder_on_disk_packs_its_pages_from_disk() {
    let bytes = need!(corpus_file(PAGES_GAME));
    let data = gmkit_data::parse_bytes(bytes.clone()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    let done = gmkit_folder::unpack_to_dir(
        &Game {
            data,
            audio_groups: Vec::new(),
        },
        &dir,
    )
    .unwrap();
    assert!(done.files > 0 && done.bytes > 0);
    assert!(dir.join("textures/0000.png").is_file());
    assert!(dir.join("textures/stored/0000.2zoq").is_file());
    let back = Folder::read_dir(&dir).unwrap();
    // The page images are read when pack needs them, not with the folder.
    assert!(back.get("textures/0000.png").is_none());
    assert!(back.read("textures/0000.png").unwrap().is_some());
    assert_eq!(packed(&back), bytes);
}
