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

/// Key of the one-line note in `frames.json` of a sprite whose frames were not cut (they stay
/// as its stored texture page items, which pack keeps as they are).
pub const KEPT_STORED: &str = "kept_stored";

/// Prefix of every such note.
const KEPT_NOTE: &str = "frames kept as stored texture items";

/// The notes of an unpacked folder: (sprite folder, note) for every sprite whose frames were
/// kept as stored texture items (see [`unpack`]), in path order.
pub fn notes(folder: &Folder) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = folder
        .files
        .iter()
        .filter_map(|(p, b)| note_of(p, b))
        .collect();
    out.extend(folder.spilled_notes().iter().cloned());
    out.sort();
    out
}

/// The note of one folder file: (sprite folder, note) when `path` is a sprite's
/// [`FRAMES_RECORD`] whose frames stay stored items.
pub(crate) fn note_of(path: &str, bytes: &[u8]) -> Option<(String, String)> {
    let dir = path.strip_suffix(FRAMES_RECORD)?.strip_suffix('/')?;
    // Cheap test first: most records have no note.
    if !bytes
        .windows(KEPT_STORED.len())
        .any(|w| w == KEPT_STORED.as_bytes())
    {
        return None;
    }
    let v: Value = serde_json::from_slice(bytes).ok()?;
    let note = v.get(KEPT_STORED)?.as_str()?;
    Some((dir.to_owned(), note.to_owned()))
}

/// One frame to cut: (sprite, frame, item).
type Job = (usize, usize, TexturePageItem);

/// Writes the frames of every sprite: `stems[i]` is the file stem of sprite `i`.
///
/// Memory stays bounded by one page and the frames being cut from it, whatever the game holds:
/// every size is checked against [`gmkit_media::budget`] from the headers first, the pages are
/// decoded one at a time (each dropped once its frames are cut), and each frame is encoded as
/// a PNG as soon as it is cut. A sprite whose frames cannot all be cut (a size of 0 or over
/// the budget, an item that does not fit its page, a page that cannot be decoded) keeps its
/// stored items: no PNG, and `frames.json` says why in one line under [`KEPT_STORED`].
pub fn unpack(file: &DataFile, prefix: &str, stems: &[String], out: &mut Folder) -> Result<()> {
    let (Some(sprites), Some(textures)) = (&file.sprites, &file.textures) else {
        return Ok(());
    };
    // Plan from the headers alone: the frames to cut, by page, or why a sprite cannot be cut.
    let mut notes: Vec<Option<String>> = vec![None; sprites.sprites.len()];
    let mut by_page: Vec<Vec<Job>> = vec![Vec::new(); textures.pages.len()];
    for (i, s) in sprites.sprites.iter().enumerate() {
        let (Some(s), Some(_)) = (s, stems.get(i)) else {
            continue;
        };
        if s.frames.iter().all(Option::is_none) {
            continue;
        }
        match plan_sprite(file, textures, s) {
            Ok(jobs) => {
                for (k, p, item) in jobs {
                    by_page[p].push((i, k, item));
                }
            }
            Err(why) => notes[i] = Some(why),
        }
    }
    // Cut page by page, frames of a page in parallel within the live budget.
    let budget = gmkit_media::budget::Budget::default();
    let mut pngs: HashMap<(usize, usize), Vec<u8>> = HashMap::new();
    for (p, jobs) in by_page.iter().enumerate() {
        let jobs: Vec<&Job> = jobs.iter().filter(|j| notes[j.0].is_none()).collect();
        if jobs.is_empty() {
            continue;
        }
        let page = match gmkit_media::decode_page_within(textures, p, &budget) {
            Ok(page) => page,
            Err(e) => {
                for j in &jobs {
                    notes[j.0].get_or_insert_with(|| format!("{KEPT_NOTE}: frame {}: {e}", j.1));
                }
                continue;
            }
        };
        let cut: Vec<(usize, usize, std::result::Result<Vec<u8>, String>)> = jobs
            .par_iter()
            .map(|&&(i, k, ref item)| {
                let Some(Some(s)) = sprites.sprites.get(i) else {
                    return (i, k, Err("no such sprite".to_owned()));
                };
                let png = budget
                    .wait_for(s.width, s.height)
                    .and_then(|_grant| {
                        let img = gmkit_media::frame::cut(&page.0, item, s.width, s.height)?;
                        gmkit_media::encode_png(&img)
                    })
                    .map_err(|e| e.to_string());
                (i, k, png)
            })
            .collect();
        drop(page);
        for (i, k, png) in cut {
            match png {
                Ok(png) => {
                    pngs.insert((i, k), png);
                }
                Err(e) => {
                    notes[i].get_or_insert_with(|| format!("{KEPT_NOTE}: frame {k}: {e}"));
                }
            }
        }
    }
    for (i, s) in sprites.sprites.iter().enumerate() {
        let (Some(s), Some(stem)) = (s, stems.get(i)) else {
            continue;
        };
        let dir = format!("{prefix}sprites/{stem}");
        if let Some(note) = &notes[i] {
            out.insert(
                format!("{dir}/{FRAMES_RECORD}"),
                crate::unpack::pretty(&json!({ KEPT_STORED: note })),
            );
            continue;
        }
        let mut hashes = Vec::new();
        let mut any = false;
        for (k, f) in s.frames.iter().enumerate() {
            match f.and_then(|_| pngs.remove(&(i, k))) {
                Some(png) => {
                    hashes.push(json!(fnv(&png)));
                    out.insert(format!("{dir}/{k}.png"), png);
                    any = true;
                }
                None => hashes.push(Value::Null),
            }
        }
        if any {
            out.insert(
                format!("{dir}/{FRAMES_RECORD}"),
                crate::unpack::pretty(&json!({ "png_fnv64": hashes })),
            );
        }
    }
    Ok(())
}

/// The frames of sprite `s` to cut: (frame, page, item), checked from the headers alone (no
/// page decoded), or a one-line note saying why its frames stay stored.
fn plan_sprite(
    file: &DataFile,
    textures: &gmkit_data::chunks::texture::Textures,
    s: &gmkit_data::chunks::sprite::Sprite,
) -> std::result::Result<Vec<(usize, usize, TexturePageItem)>, String> {
    let why = |k: Option<usize>, e: &dyn std::fmt::Display| match k {
        Some(k) => format!("{KEPT_NOTE}: frame {k}: {e}"),
        None => format!("{KEPT_NOTE}: {e}"),
    };
    if s.width == 0 || s.height == 0 {
        return Err(why(
            None,
            &format!(
                "the sprite is {}×{}: a frame image needs a width and height of at least 1",
                s.width, s.height
            ),
        ));
    }
    gmkit_media::budget::check_image(s.width, s.height).map_err(|e| why(None, &e))?;
    let mut jobs = Vec::new();
    for (k, r) in s.frames.iter().enumerate() {
        let Some(r) = r else { continue };
        let Some(item) = gmkit_media::frame::item(file, *r) else {
            return Err(why(
                Some(k),
                &format!("texture page item {} does not exist", r.0),
            ));
        };
        let Some(page) = usize::try_from(item.texture_page)
            .ok()
            .filter(|&p| p < textures.pages.len())
        else {
            return Err(why(
                Some(k),
                &format!(
                    "texture page item {} names page {}, expected 0..{}",
                    r.0,
                    item.texture_page,
                    textures.pages.len()
                ),
            ));
        };
        let (w, h) = match textures.pages[page].as_ref() {
            Some(gmkit_data::chunks::texture::TexturePage {
                data: PageData::Embedded(blob),
                ..
            }) => gmkit_media::declared_size(blob)
                .and_then(|(w, h)| gmkit_media::budget::check_image(w, h).map(|()| (w, h)))
                .map_err(|e| why(Some(k), &format!("texture page {page}: {e}")))?,
            Some(_) => {
                return Err(why(
                    Some(k),
                    &format!("texture page {page} is stored outside the data file"),
                ));
            }
            None => {
                return Err(why(
                    Some(k),
                    &format!("texture page {page} is an empty slot"),
                ));
            }
        };
        gmkit_media::frame::check_source(item, w, h)
            .map_err(|e| why(Some(k), &format!("item {}: {e}", r.0)))?;
        gmkit_media::frame::check_target(item, s.width, s.height)
            .map_err(|e| why(Some(k), &format!("item {}: {e}", r.0)))?;
        jobs.push((k, page, *item));
    }
    Ok(jobs)
}

/// Applies edited and added frame PNGs to a packed model: `stems[i]` is the file stem of
/// sprite `i` in the folder. `touched` holds the item areas that page edits changed (see
/// [`crate::pages`]): a frame edited there too is refused (frames win elsewhere). A frame PNG
/// deleted since unpack is refused, as is one of the wrong size or with 16 bits per channel.
pub fn pack(
    file: &mut DataFile,
    folder: &Folder,
    prefix: &str,
    stems: &[String],
    touched: &crate::pages::Touched,
) -> Result<()> {
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
        // A frame PNG unpack wrote that is gone: refused (it would silently keep the old frame).
        for (k, h) in record.iter().enumerate().take(s.frames.len()) {
            if h.is_some() && !folder.contains(&format!("{dir}/{k}.png")) {
                return Err(Error::new(
                    format!("{dir}/{k}.png"),
                    "",
                    format!(
                        "expected this frame (deleted: the sprite has {} frames; restore the PNG, removing frames is not supported)",
                        s.frames.len()
                    ),
                ));
            }
        }
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
            crate::pages::check_mode(b).map_err(|m| Error::new(p, "", m))?;
            // The size in the PNG's header is checked before it is decoded.
            let img = gmkit_media::decode_png_sized(b, s.width, s.height, "the sprite's frame")
                .map_err(|e| match e {
                    gmkit_media::Error::Size {
                        found_w, found_h, ..
                    } => Error::new(
                        p,
                        "",
                        format!(
                            "expected a {}×{} image (the sprite's width × height), found {found_w}×{found_h}",
                            s.width, s.height
                        ),
                    ),
                    e => Error::new(p, "", format!("expected a PNG: {e}")),
                })?;
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
        // A PNG re-encoded with the same pixels (another tool's bytes) changes nothing.
        if let Some((r, s)) = s.and_then(|s| Some((s.frames.get(k).copied().flatten()?, s)))
            && pages
                .cut(file, r, Some((s.width, s.height)))
                .is_ok_and(|f| f == img)
        {
            continue;
        }
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
        if touched.contains(&(item.texture_page, item.source)) {
            return Err(Error::new(
                &p,
                "",
                format!(
                    "expected one edit of these pixels: this frame and {prefix}textures/{:04}.png both changed its area (frames win where only a frame changed; undo one of the two edits)",
                    item.texture_page
                ),
            ));
        }
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
