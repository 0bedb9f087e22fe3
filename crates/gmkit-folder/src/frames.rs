//! Sprite frames as PNG files at the sprite's full size: `sprites/0003_spr_player/2.png`.
//!
//! Unpack cuts each frame from its texture page (placed at its target offset inside a
//! width × height canvas, so a frame is never the trimmed one) and records a hash of every PNG
//! it wrote in `sprites/0003_spr_player/frames.json`. Pack skips PNGs whose bytes still have
//! that hash; any other PNG is decoded and compared with the frame cut from the packed page.
//! A frame whose pixels changed is put back into its page (and the page re-encoded in its own
//! format); a frame that no longer fits its trimmed area, and a frame beyond the sprite's
//! last one (an added frame), gets a page of its own and a new texture page item. Pages with
//! no changed frame keep their bytes.

use crate::error::{Error, Result};
use crate::folder::Folder;
use gmkit_data::DataFile;
use gmkit_data::chunks::texture::{PageData, TexturePage};
use gmkit_data::chunks::texture_page_item::{TexturePageItem, TpagRef};
use gmkit_media::Image;
use gmkit_media::frame::Pages;
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::HashMap;

/// Name of the per-sprite record of the PNGs written.
pub const FRAMES_RECORD: &str = "frames.json";

/// 64-bit FNV-1a, as hex: recognizes a PNG left untouched without decoding it.
pub fn fnv(b: &[u8]) -> String {
    format!("{:016x}", fnv64(b))
}

/// 64-bit FNV-1a.
fn fnv64(b: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in b {
        h ^= x as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `frames.json` as pack reads it: one hash (or null) per frame, parsed straight into numbers
/// (no JSON tree, no string per entry).
#[derive(serde::Deserialize)]
struct Record {
    png_fnv64: Vec<Option<Hash>>,
}

/// A hash written by [`fnv`]; text that is not one never matches a PNG.
struct Hash(Option<u64>);

impl<'de> serde::Deserialize<'de> for Hash {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(Hash(u64::from_str_radix(&text, 16).ok()))
    }
}

/// Writes the frames of every sprite: `stems[i]` is the file stem of sprite `i`.
pub fn unpack(file: &DataFile, prefix: &str, stems: &[String], out: &mut Folder) -> Result<()> {
    let (Some(sprites), Some(textures)) = (&file.sprites, &file.textures) else {
        return Ok(());
    };
    let pages = Pages::new(textures);
    pages.decode_all();
    let written: Vec<Vec<(String, Vec<u8>)>> = sprites
        .sprites
        .par_iter()
        .enumerate()
        .map(|(i, s)| {
            let (Some(s), Some(stem)) = (s, stems.get(i)) else {
                return Ok(Vec::new());
            };
            let dir = format!("{prefix}sprites/{stem}");
            let mut files = Vec::new();
            let mut hashes = Vec::new();
            for (k, f) in s.frames.iter().enumerate() {
                let Some(r) = f else {
                    hashes.push(Value::Null);
                    continue;
                };
                // Pages that cannot be decoded (DDS, external) leave their frames out.
                let Ok(img) = pages.cut(file, *r, Some((s.width, s.height))) else {
                    hashes.push(Value::Null);
                    continue;
                };
                let png = gmkit_media::encode_png(&img)
                    .map_err(|e| Error::new(format!("{dir}/{k}.png"), "", e.to_string()))?;
                hashes.push(json!(fnv(&png)));
                files.push((format!("{dir}/{k}.png"), png));
            }
            if !files.is_empty() {
                files.push((
                    format!("{dir}/{FRAMES_RECORD}"),
                    crate::unpack::pretty(&json!({ "png_fnv64": hashes })),
                ));
            }
            Ok(files)
        })
        .collect::<Result<_>>()?;
    for (p, b) in written.into_iter().flatten() {
        out.insert(p, b);
    }
    Ok(())
}

/// Applies edited and added frame PNGs to a packed model: `stems[i]` is the file stem of
/// sprite `i` in the folder.
pub fn pack(file: &mut DataFile, folder: &Folder, prefix: &str, stems: &[String]) -> Result<()> {
    let Some(sprites) = &file.sprites else {
        return Ok(());
    };
    // (sprite, frame, path, image) of every PNG whose bytes changed since unpack.
    let mut edited: Vec<(usize, usize, String, Image)> = Vec::new();
    for (i, stem) in stems.iter().enumerate() {
        let Some(Some(s)) = sprites.sprites.get(i) else {
            continue;
        };
        let dir = format!("{prefix}sprites/{stem}");
        let record: Vec<Option<Hash>> = folder
            .get(&format!("{dir}/{FRAMES_RECORD}"))
            .and_then(|b| serde_json::from_slice::<Record>(b).ok())
            .map(|r| r.png_fnv64)
            .unwrap_or_default();
        for (p, b) in folder.under(&dir) {
            let name = &p[dir.len() + 1..];
            let Some(k) = name
                .strip_suffix(".png")
                .and_then(|n| n.parse::<usize>().ok())
            else {
                continue;
            };
            if record.get(k).and_then(|h| h.as_ref()?.0) == Some(fnv64(b)) {
                continue;
            }
            let img = gmkit_media::decode_png(b)
                .map_err(|e| Error::new(p, "", format!("expected a PNG: {e}")))?;
            if (img.width(), img.height()) != (s.width, s.height) {
                return Err(Error::new(
                    p,
                    "",
                    format!(
                        "expected a {}×{} image (the sprite's width × height), found {}×{}",
                        s.width,
                        s.height,
                        img.width(),
                        img.height()
                    ),
                ));
            }
            if k > s.frames.len() {
                return Err(Error::new(
                    p,
                    "",
                    format!(
                        "expected frame number at most {} (frames are numbered 0, 1, 2, ... without gaps)",
                        s.frames.len()
                    ),
                ));
            }
            edited.push((i, k, p.to_owned(), img));
        }
    }
    if edited.is_empty() {
        return Ok(());
    }
    edited.sort_by_key(|e| (e.0, e.1));
    // How many frames use each texture page item: a shared one is not edited in place (that
    // would change the other frames too); the edited frame gets a page of its own.
    // (Items are counted by the page area they show: identical frames share one.)
    let area = |r: &TpagRef| gmkit_media::frame::item(file, *r).map(|i| (i.texture_page, i.source));
    let mut uses: HashMap<(i16, [u16; 4]), usize> = HashMap::new();
    for s in sprites.sprites.iter().flatten() {
        for a in s.frames.iter().flatten().filter_map(area) {
            *uses.entry(a).or_default() += 1;
        }
    }
    let original = file.textures.clone().unwrap_or_default();
    let pages = Pages::new(&original);
    let mut changed_pages: HashMap<usize, Image> = HashMap::new();
    let mut own_page: Vec<(usize, usize, String, Image)> = Vec::new();
    for (i, k, p, img) in edited {
        let s = file.sprites.as_ref().and_then(|x| x.sprites[i].as_ref());
        let Some(r) = s
            .and_then(|s| s.frames.get(k).copied().flatten())
            .filter(|r| area(r).and_then(|a| uses.get(&a)) == Some(&1))
        else {
            own_page.push((i, k, p, img));
            continue;
        };
        let Some(item) = gmkit_media::frame::item(file, r).copied() else {
            own_page.push((i, k, p, img));
            continue;
        };
        let page_index = item.texture_page as usize;
        let page = match changed_pages.get_mut(&page_index) {
            Some(pg) => pg,
            None => {
                let pg = pages
                    .get(page_index)
                    .map_err(|e| Error::new(&p, "", format!("cannot re-pack the frame: {e}")))?
                    .clone();
                changed_pages.entry(page_index).or_insert(pg)
            }
        };
        let mut trial = page.clone();
        match gmkit_media::frame::put(&mut trial, &item, &img) {
            Ok(0) => {}
            Ok(_) => *page = trial,
            Err(_) => own_page.push((i, k, p, img)),
        }
    }
    // Re-encode the pages whose pixels changed, each in its own format.
    let mut textures = original.clone();
    for (n, img) in changed_pages {
        let Some(Some(page)) = textures.pages.get_mut(n) else {
            continue;
        };
        if pages.get(n).is_ok_and(|orig| *orig == img) {
            continue;
        }
        let old = page.blob().cloned().unwrap_or_default();
        let enc = gmkit_media::Encoding::of(&old)
            .map_err(|e| Error::new(format!("{prefix}textures/{n:04}"), "", e.to_string()))?;
        let blob = gmkit_media::encode(&img, enc)
            .map_err(|e| Error::new(format!("{prefix}textures/{n:04}"), "", e.to_string()))?;
        page.set_blob(blob.into());
    }
    // Frames that need room of their own: a new page and item each.
    for (i, k, p, img) in own_page {
        let template = textures
            .pages
            .iter()
            .flatten()
            .next()
            .cloned()
            .unwrap_or_default();
        let enc = template
            .blob()
            .and_then(|b| gmkit_media::Encoding::of(b).ok())
            .unwrap_or_else(|| gmkit_media::Encoding::for_version(&file.version));
        let blob = gmkit_media::encode(&img, enc).map_err(|e| Error::new(&p, "", e.to_string()))?;
        let mut page = TexturePage {
            data: PageData::Embedded(Vec::new().into()),
            ..template
        };
        page.set_blob(blob.into());
        let page_index = textures.pages.len();
        textures.pages.push(Some(page));
        let (w, h) = (img.width(), img.height());
        let (Ok(w16), Ok(h16), Ok(pi)) = (
            u16::try_from(w),
            u16::try_from(h),
            i16::try_from(page_index),
        ) else {
            return Err(Error::new(
                &p,
                "",
                "expected a frame and page count that fit the format",
            ));
        };
        let items = file.texture_page_items.get_or_insert_with(Default::default);
        items.items.push(Some(TexturePageItem {
            source: [0, 0, w16, h16],
            target: [0, 0, w16, h16],
            bounding: [w16, h16],
            texture_page: pi,
        }));
        let r = TpagRef((items.items.len() - 1) as u32);
        if let Some(Some(s)) = file.sprites.as_mut().map(|x| &mut x.sprites[i]) {
            if k < s.frames.len() {
                s.frames[k] = Some(r);
            } else {
                s.frames.push(Some(r));
            }
        }
    }
    file.textures = Some(textures);
    Ok(())
}
