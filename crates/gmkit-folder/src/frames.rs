//! Images of texture page items as PNG files: a sprite's frames at its full size
//! (`sprites/spr_player/0.png`, `1.png`, ...), a background's or 2.x tile set's image
//! (`backgrounds/bg_sky/bg_sky.png`) and a font's glyph sheet (`fonts/fnt_main/fnt_main.png`;
//! the glyph rectangles stay in `font.json`, relative to the sheet).
//!
//! Unpack cuts each image from its texture page, placed at its item's target offset inside the
//! asset's canvas (a sprite's width × height; a background's or font's item bounding size), so
//! an image is never the trimmed one. The record `frames.json` in the asset's folder holds what
//! pack cannot recompute: the texture page item of each image (`items`, out of the asset's JSON,
//! which pack fills back from here; a JSON naming its `frames` or `texture` itself keeps them)
//! and a hash of every PNG unpack wrote (`png_fnv64`). Pack skips PNGs whose bytes still have
//! that hash; any other PNG is decoded and compared with the image cut from the packed page.
//! An image whose pixels changed is put back into its page (and the page re-encoded in its own
//! format); an image that no longer fits its trimmed area, one whose item other images share,
//! and a frame beyond the sprite's last one (an added frame) get a page of their own and a new
//! texture page item. Pages with no changed image keep their bytes. A PNG unpack wrote that is
//! gone is refused, as is one of another size.

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

/// Name of the record of an asset's images (items and hashes of the PNGs written), in the
/// asset's folder.
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

/// Key of the record's list of texture page items, one per image (`null`: none).
pub const ITEMS: &str = "items";

/// `frames.json` as pack reads it: one hash (or null) per image, parsed straight into numbers
/// (no JSON tree, no string per entry).
#[derive(serde::Deserialize)]
struct Record {
    #[serde(default)]
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

/// Key of the one-line note in `frames.json` of an asset whose images were not cut (they stay
/// as its stored texture page items, which pack keeps as they are).
pub const KEPT_STORED: &str = "kept_stored";

/// Prefix of every such note.
const KEPT_NOTE: &str = "frames kept as stored texture items";

/// The notes of an unpacked folder: (asset folder, note) for every sprite, background or font
/// whose images were kept as stored texture items (see [`unpack`]), in path order.
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

/// An asset kind whose images are texture page items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A sprite: one image per frame, at the sprite's width × height.
    Sprite,
    /// A background (or a 2.x tile set): one image, at its item's bounding size.
    Background,
    /// A font: its glyph sheet, at its item's bounding size.
    Font,
}

impl Kind {
    /// Every kind, in the order pack applies their edits.
    pub const ALL: [Kind; 3] = [Kind::Sprite, Kind::Background, Kind::Font];

    /// The model field (and folder) of the kind.
    pub fn field(self) -> &'static str {
        match self {
            Kind::Sprite => "sprites",
            Kind::Background => "backgrounds",
            Kind::Font => "fonts",
        }
    }

    /// The kind of a model field, if its assets have images.
    pub fn of_field(field: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.field() == field)
    }

    /// The key of the asset's JSON naming its texture page items (kept in the record instead).
    pub fn key(self) -> &'static str {
        match self {
            Kind::Sprite => "frames",
            Kind::Background | Kind::Font => "texture",
        }
    }

    /// What one image is, in messages.
    fn noun(self) -> &'static str {
        match self {
            Kind::Sprite => "the sprite's frame",
            Kind::Background => "the background's image",
            Kind::Font => "the font's glyph sheet",
        }
    }

    /// What an image's size is, in messages.
    fn size_noun(self) -> &'static str {
        match self {
            Kind::Sprite => "the sprite's width × height",
            Kind::Background => "the background's size",
            Kind::Font => "the glyph sheet's size",
        }
    }

    /// File name of image `k` of the asset whose folder is `dir`: `k.png` for a sprite frame,
    /// the folder's own name for a background's or font's image (`bg_sky/bg_sky.png`).
    pub fn png_name(self, dir: &str, k: usize) -> String {
        match self {
            Kind::Sprite => format!("{k}.png"),
            Kind::Background | Kind::Font => {
                format!("{}.png", dir.rsplit('/').next().unwrap_or(dir))
            }
        }
    }

    /// The image number of file `name` in the asset folder `dir`, if it is one of its images.
    fn image_number(self, dir: &str, name: &str) -> Option<usize> {
        match self {
            Kind::Sprite => {
                let k = name.strip_suffix(".png")?;
                (!k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| k.parse().ok())
                    .flatten()
            }
            Kind::Background | Kind::Font => (name == self.png_name(dir, 0)).then_some(0),
        }
    }
}

/// The folder of every asset with images, per kind: `dirs[i]` is asset `i`'s folder path
/// (with the data file's prefix; `None`: no folder, a stripped element).
pub(crate) type Dirs = Vec<(Kind, Vec<Option<String>>)>;

/// The folder of an asset's images from its JSON's path: the folder of a chunk written as one
/// folder per element (`sprites/spr_x/sprite.json`), else the JSON's path without `.json`.
pub(crate) fn asset_dir<'a>(field: &str, json: &'a str) -> &'a str {
    if let Some(file) = crate::assets::folder_file(field)
        && let Some(dir) = json.strip_suffix(file).and_then(|d| d.strip_suffix('/'))
    {
        return dir;
    }
    json.strip_suffix(".json").unwrap_or(json)
}

/// An asset's texture page items (one per image) and its canvas size (`None`: each image's item
/// bounding size).
type Refs = (Vec<Option<TpagRef>>, Option<(u32, u32)>);

/// The items and canvas of asset `i` of `kind`.
fn refs_of(file: &DataFile, kind: Kind, i: usize) -> Option<Refs> {
    match kind {
        Kind::Sprite => {
            let s = file.sprites.as_ref()?.sprites.get(i)?.as_ref()?;
            Some((s.frames.clone(), Some((s.width, s.height))))
        }
        Kind::Background => {
            let b = file.backgrounds.as_ref()?.backgrounds.get(i)?.as_ref()?;
            Some((vec![b.texture], None))
        }
        Kind::Font => {
            let f = file.fonts.as_ref()?.fonts.get(i)?.as_ref()?;
            Some((vec![f.texture], None))
        }
    }
}

/// Points image `k` of asset `i` at item `r` (a sprite's frame `k` past its last is added).
fn set_ref(file: &mut DataFile, kind: Kind, i: usize, k: usize, r: TpagRef) {
    match kind {
        Kind::Sprite => {
            if let Some(Some(s)) = file.sprites.as_mut().and_then(|x| x.sprites.get_mut(i)) {
                if k < s.frames.len() {
                    s.frames[k] = Some(r);
                } else {
                    s.frames.push(Some(r));
                }
            }
        }
        Kind::Background => {
            if let Some(Some(b)) = file
                .backgrounds
                .as_mut()
                .and_then(|x| x.backgrounds.get_mut(i))
            {
                b.texture = Some(r);
            }
        }
        Kind::Font => {
            if let Some(Some(f)) = file.fonts.as_mut().and_then(|x| x.fonts.get_mut(i)) {
                f.texture = Some(r);
            }
        }
    }
}

/// The size an image with item `item` is cut at.
fn canvas(size: Option<(u32, u32)>, item: &TexturePageItem) -> (u32, u32) {
    size.unwrap_or((item.bounding[0].into(), item.bounding[1].into()))
}

/// Whether an asset's items are the default its JSON would hold without them (a sprite with no
/// frame, a background or font without an item): no record is written for it.
fn is_default(kind: Kind, refs: &[Option<TpagRef>]) -> bool {
    match kind {
        Kind::Sprite => refs.is_empty(),
        Kind::Background | Kind::Font => refs.iter().all(Option::is_none),
    }
}

/// Takes the item references out of the JSON of an element of `field` (they go to its record,
/// see [`unpack`]).
pub(crate) fn strip_items(field: &str, item: &mut Value) {
    if let (Some(kind), Some(obj)) = (Kind::of_field(field), item.as_object_mut()) {
        obj.remove(kind.key());
    }
}

/// Fills the item references of the element JSONs of chunk `field` (`chunk` holds them under
/// `list_key`; `files[i]` is element `i`'s JSON path) from the records beside them. A JSON
/// naming its items itself keeps them; without a record an asset has none.
pub(crate) fn fill_items(
    field: &str,
    chunk: &mut Value,
    list_key: &str,
    files: &[String],
    folder: &Folder,
) -> Result<()> {
    let Some(kind) = Kind::of_field(field) else {
        return Ok(());
    };
    let Some(Value::Array(list)) = chunk.get_mut(list_key) else {
        return Ok(());
    };
    #[derive(serde::Deserialize)]
    struct Items {
        #[serde(default)]
        items: Vec<Value>,
    }
    for (v, path) in list.iter_mut().zip(files) {
        let Some(obj) = v.as_object_mut() else {
            continue;
        };
        if obj.contains_key(kind.key()) {
            continue;
        }
        let record = format!("{}/{FRAMES_RECORD}", asset_dir(field, path));
        let items = match folder.get(&record) {
            None => Vec::new(),
            Some(b) => {
                serde_json::from_slice::<Items>(b)
                    .map_err(|e| {
                        Error::new(
                            &record,
                            ITEMS,
                            format!(
                                "expected the record of the asset's images ({{\"{ITEMS}\": [texture page item, ...], \"png_fnv64\": [...]}}): {e}"
                            ),
                        )
                    })?
                    .items
            }
        };
        let value = match kind {
            Kind::Sprite => Value::Array(items),
            Kind::Background | Kind::Font => items.into_iter().next().unwrap_or(Value::Null),
        };
        obj.insert(kind.key().into(), value);
    }
    Ok(())
}

/// An image not cut yet, in a folder unpacked for a comparison: the page it is cut from, its
/// item and canvas. Two with the same page bytes, item and canvas give the same PNG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LazyImage {
    /// The asset's kind.
    pub(crate) kind: Kind,
    /// The asset's index.
    pub(crate) asset: usize,
    /// The page's index.
    pub(crate) page: usize,
    /// The page's stored bytes.
    pub(crate) blob: bytes::Bytes,
    /// The image's texture page item.
    pub(crate) item: TexturePageItem,
    /// The size the image is cut at.
    pub(crate) canvas: (u32, u32),
}

impl LazyImage {
    /// The image alone as PNG (`None` when its page cannot be decoded or the image cut).
    pub(crate) fn produce(&self) -> Option<Vec<u8>> {
        let (w, h) = gmkit_media::declared_size(&self.blob).ok()?;
        gmkit_media::budget::check_image(w, h).ok()?;
        let page = gmkit_media::decode(&self.blob).ok()?;
        let img = gmkit_media::frame::cut(&page, &self.item, self.canvas.0, self.canvas.1).ok()?;
        gmkit_media::encode_png(&img).ok()
    }
}

/// Whether two payloads hold the same bytes (views of one buffer are, without reading it).
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && (std::ptr::eq(a.as_ptr(), b.as_ptr()) || a == b)
}

/// One image to cut: (kind, asset, image, item, canvas).
type Job = (Kind, usize, usize, TexturePageItem, (u32, u32));

/// One image cut: (kind, asset, image, its PNG or why not).
type Cut = (Kind, usize, usize, std::result::Result<Vec<u8>, String>);

/// An image of an asset to cut: (image, page, item, canvas).
type Planned = (usize, usize, TexturePageItem, (u32, u32));

/// Writes the images of every sprite, background and font with a folder in `dirs`, and each
/// one's record (`frames.json`: its items, and the hashes of its PNGs).
///
/// Memory stays bounded by one page and the images being cut from it, whatever the game holds:
/// every size is checked against [`gmkit_media::budget`] from the headers first, the pages are
/// decoded one at a time (each dropped once its images are cut), and each image is encoded as
/// a PNG as soon as it is cut. An asset whose images cannot all be cut (a size of 0 or over
/// the budget, an item that does not fit its page, a page that cannot be decoded) keeps its
/// stored items: no PNG, and `frames.json` says why in one line under [`KEPT_STORED`].
///
/// In a folder unpacked for a comparison ([`Folder::for_diff`]) nothing is cut: each image is a
/// [`LazyImage`] (its page, item and canvas) and the record's hashes are `null`. Returns the
/// number of pages decoded.
pub(crate) fn unpack(file: &DataFile, dirs: &Dirs, out: &mut Folder) -> Result<usize> {
    // Plan from the headers alone: the images to cut, by page, or why an asset cannot be cut.
    let mut notes: HashMap<(Kind, usize), String> = HashMap::new();
    let n_pages = file.textures.as_ref().map_or(0, |t| t.pages.len());
    let mut by_page: Vec<Vec<Job>> = vec![Vec::new(); n_pages];
    for (kind, list) in dirs {
        for (i, dir) in list.iter().enumerate() {
            let (Some(_), Some((refs, size))) = (dir, refs_of(file, *kind, i)) else {
                continue;
            };
            if refs.iter().all(Option::is_none) {
                continue;
            }
            match plan_asset(file, &refs, size) {
                Ok(jobs) => {
                    for (k, p, item, c) in jobs {
                        by_page[p].push((*kind, i, k, item, c));
                    }
                }
                Err(why) => {
                    notes.insert((*kind, i), why);
                }
            }
        }
    }
    // Cut page by page, images of a page in parallel within the live budget.
    let budget = gmkit_media::budget::Budget::default();
    let mut pngs: HashMap<(Kind, usize, usize), Vec<u8>> = HashMap::new();
    let mut lazy: HashMap<(Kind, usize, usize), LazyImage> = HashMap::new();
    let mut decoded = 0;
    if let (Some(textures), true) = (&file.textures, out.for_diff) {
        for (p, jobs) in by_page.iter().enumerate() {
            let Some(TexturePage {
                data: PageData::Embedded(blob),
                ..
            }) = textures.pages.get(p).and_then(Option::as_ref)
            else {
                continue;
            };
            for &(kind, asset, k, item, canvas) in jobs {
                if !notes.contains_key(&(kind, asset)) {
                    let image = LazyImage {
                        kind,
                        asset,
                        page: p,
                        blob: blob.clone(),
                        item,
                        canvas,
                    };
                    lazy.insert((kind, asset, k), image);
                }
            }
        }
    } else if let Some(textures) = &file.textures {
        // A folder written as it is made gets each page's PNG from the page decoded here for
        // its images, instead of decoding the page again when the PNG is written.
        let mut page_pngs = out.spilled_page_pngs();
        for (p, jobs) in by_page.iter().enumerate() {
            let jobs: Vec<&Job> = jobs
                .iter()
                .filter(|j| !notes.contains_key(&(j.0, j.1)))
                .collect();
            if jobs.is_empty() {
                continue;
            }
            decoded += 1;
            let page = match gmkit_media::decode_page_within(textures, p, &budget) {
                Ok(page) => page,
                Err(e) => {
                    for j in &jobs {
                        notes
                            .entry((j.0, j.1))
                            .or_insert_with(|| format!("{KEPT_NOTE}: frame {}: {e}", j.2));
                    }
                    continue;
                }
            };
            let page_png = match textures.pages.get(p).and_then(Option::as_ref) {
                Some(TexturePage {
                    data: PageData::Embedded(blob),
                    ..
                }) if !blob.is_empty() => {
                    page_pngs
                        .remove(&(blob.as_ptr() as usize))
                        .and_then(|path| {
                            let (record, record_path) = out.take_page_png(&path)?;
                            Some((blob, path, record, record_path))
                        })
                }
                _ => None,
            };
            let page_files = || {
                page_png.as_ref().map(|(blob, path, record, record_path)| {
                    crate::pages::produce_decoded(blob, &page.0, record, record_path, path)
                })
            };
            let cut_jobs = || -> Vec<Cut> {
                jobs.par_iter()
                    .map(|&&(kind, i, k, ref item, (w, h))| {
                        let png = budget
                            .wait_for(w, h)
                            .and_then(|_grant| {
                                let img = gmkit_media::frame::cut(&page.0, item, w, h)?;
                                gmkit_media::encode_png(&img)
                            })
                            .map_err(|e| e.to_string());
                        (kind, i, k, png)
                    })
                    .collect()
            };
            let (cut, page_files) = rayon::join(cut_jobs, page_files);
            drop(page);
            for (path, bytes) in page_files.into_iter().flatten() {
                out.insert(path, bytes);
            }
            for (kind, i, k, png) in cut {
                match png {
                    Ok(png) => {
                        pngs.insert((kind, i, k), png);
                    }
                    Err(e) => {
                        notes
                            .entry((kind, i))
                            .or_insert_with(|| format!("{KEPT_NOTE}: frame {k}: {e}"));
                    }
                }
            }
        }
    }
    for (kind, list) in dirs {
        for (i, dir) in list.iter().enumerate() {
            let (Some(dir), Some((refs, _))) = (dir, refs_of(file, *kind, i)) else {
                continue;
            };
            if is_default(*kind, &refs) {
                continue;
            }
            let items = serde_json::to_value(&refs)
                .map_err(|e| Error::new(dir, "", format!("cannot be written: {e}")))?;
            let record = format!("{dir}/{FRAMES_RECORD}");
            if let Some(note) = notes.get(&(*kind, i)) {
                out.insert(
                    record,
                    crate::unpack::pretty(&json!({ ITEMS: items, KEPT_STORED: note })),
                );
                continue;
            }
            let mut hashes = Vec::with_capacity(refs.len());
            for (k, f) in refs.iter().enumerate() {
                if let Some(image) = f.and_then(|_| lazy.remove(&(*kind, i, k))) {
                    hashes.push(Value::Null);
                    out.defer(
                        format!("{dir}/{}", kind.png_name(dir, k)),
                        crate::folder::Deferred::Frame(Box::new(image)),
                    );
                    continue;
                }
                match f.and_then(|_| pngs.remove(&(*kind, i, k))) {
                    Some(png) => {
                        hashes.push(json!(fnv(&png)));
                        out.insert(format!("{dir}/{}", kind.png_name(dir, k)), png);
                    }
                    None => hashes.push(Value::Null),
                }
            }
            out.insert(
                record,
                crate::unpack::pretty(&json!({ ITEMS: items, "png_fnv64": hashes })),
            );
        }
    }
    Ok(decoded)
}

/// The images of an asset with items `refs` to cut: (image, page, item, canvas), checked from
/// the headers alone (no page decoded), or a one-line note saying why its images stay stored.
fn plan_asset(
    file: &DataFile,
    refs: &[Option<TpagRef>],
    size: Option<(u32, u32)>,
) -> std::result::Result<Vec<Planned>, String> {
    let why = |k: Option<usize>, e: &dyn std::fmt::Display| match k {
        Some(k) => format!("{KEPT_NOTE}: frame {k}: {e}"),
        None => format!("{KEPT_NOTE}: {e}"),
    };
    let Some(textures) = &file.textures else {
        return Err(why(None, &"the file has no texture pages"));
    };
    let check_size = |k: Option<usize>, (w, h): (u32, u32)| {
        if w == 0 || h == 0 {
            return Err(why(
                k,
                &format!("the image is {w}×{h}: an image needs a width and height of at least 1"),
            ));
        }
        gmkit_media::budget::check_image(w, h).map_err(|e| why(k, &e))
    };
    if let Some((w, h)) = size {
        check_size(None, (w, h)).map_err(|e| {
            e.replace("the image is", "the sprite is")
                .replace("an image needs", "a frame image needs")
        })?;
    }
    let mut jobs = Vec::new();
    for (k, r) in refs.iter().enumerate() {
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
            Some(TexturePage {
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
        let c = canvas(size, item);
        if size.is_none() {
            check_size(Some(k), c)?;
        }
        gmkit_media::frame::check_source(item, w, h)
            .map_err(|e| why(Some(k), &format!("item {}: {e}", r.0)))?;
        gmkit_media::frame::check_target(item, c.0, c.1)
            .map_err(|e| why(Some(k), &format!("item {}: {e}", r.0)))?;
        jobs.push((k, page, *item, c));
    }
    Ok(jobs)
}

/// One edited image: (kind, asset, image, PNG path, pixels).
type Edit = (Kind, usize, usize, String, Image);

/// Applies edited and added images (sprite frames, background images, font sheets) to a packed
/// model: `dirs` gives each asset's folder. `touched` holds the item areas that page edits
/// changed (see [`crate::pages`]): an image edited there too is refused (images win elsewhere).
/// An image PNG deleted since unpack is refused, as is one of the wrong size or with 16 bits per
/// channel.
pub(crate) fn pack(
    file: &mut DataFile,
    folder: &Folder,
    prefix: &str,
    dirs: &Dirs,
    touched: &crate::pages::Touched,
) -> Result<()> {
    let mut edited: Vec<Edit> = Vec::new();
    for (kind, list) in dirs {
        for (i, dir) in list.iter().enumerate() {
            let (Some(dir), Some((refs, size))) = (dir, refs_of(file, *kind, i)) else {
                continue;
            };
            edited_images(file, folder, *kind, i, dir, &refs, size, &mut edited)?;
        }
    }
    if edited.is_empty() {
        return Ok(());
    }
    edited.sort_by_key(|e| (e.0 as u8, e.1, e.2));
    // How many images use each texture page item: a shared one is not edited in place (that
    // would change the other images too); the edited image gets a page of its own.
    // (Items are counted by the page area they show: identical frames share one.)
    let area = |r: &TpagRef| gmkit_media::frame::item(file, *r).map(|i| (i.texture_page, i.source));
    let mut uses: HashMap<(i16, [u16; 4]), usize> = HashMap::new();
    for kind in Kind::ALL {
        let n = match kind {
            Kind::Sprite => file.sprites.as_ref().map_or(0, |c| c.sprites.len()),
            Kind::Background => file.backgrounds.as_ref().map_or(0, |c| c.backgrounds.len()),
            Kind::Font => file.fonts.as_ref().map_or(0, |c| c.fonts.len()),
        };
        for i in 0..n {
            let Some((refs, _)) = refs_of(file, kind, i) else {
                continue;
            };
            for a in refs.iter().flatten().filter_map(area) {
                *uses.entry(a).or_default() += 1;
            }
        }
    }
    let original = file.textures.clone().unwrap_or_default();
    let pages = Pages::new(&original);
    let mut changed_pages: HashMap<usize, Image> = HashMap::new();
    let mut own_page: Vec<Edit> = Vec::new();
    for (kind, i, k, p, img) in edited {
        let r = refs_of(file, kind, i).and_then(|(refs, _)| refs.get(k).copied().flatten());
        // A PNG re-encoded with the same pixels (another tool's bytes) changes nothing.
        if let Some(r) = r
            && pages
                .cut(file, r, Some((img.width(), img.height())))
                .is_ok_and(|f| f == img)
        {
            continue;
        }
        let Some(item) = r
            .filter(|r| area(r).and_then(|a| uses.get(&a)) == Some(&1))
            .and_then(|r| gmkit_media::frame::item(file, r).copied())
        else {
            own_page.push((kind, i, k, p, img));
            continue;
        };
        if touched.contains(&(item.texture_page, item.source)) {
            return Err(Error::new(
                &p,
                "",
                format!(
                    "expected one edit of these pixels: this image and {prefix}textures/{:04}.png both changed its area (images win where only an image changed; undo one of the two edits)",
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
                    .map_err(|e| Error::new(&p, "", format!("cannot re-pack the image: {e}")))?
                    .clone();
                changed_pages.entry(page_index).or_insert(pg)
            }
        };
        let mut trial = page.clone();
        match gmkit_media::frame::put(&mut trial, &item, &img) {
            Ok(0) => {}
            Ok(_) => *page = trial,
            Err(_) => own_page.push((kind, i, k, p, img)),
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
    // Images that need room of their own: a new page and item each.
    for (kind, i, k, p, img) in own_page {
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
                "expected an image and page count that fit the format",
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
        set_ref(file, kind, i, k, r);
    }
    file.textures = Some(textures);
    Ok(())
}

/// Adds to `edited` the images of asset `i` (folder `dir`) whose PNG bytes changed since unpack,
/// decoded and checked; refuses a deleted image, one of another size and a 16-bit PNG.
#[allow(clippy::too_many_arguments)]
fn edited_images(
    file: &DataFile,
    folder: &Folder,
    kind: Kind,
    i: usize,
    dir: &str,
    refs: &[Option<TpagRef>],
    size: Option<(u32, u32)>,
    edited: &mut Vec<Edit>,
) -> Result<()> {
    let record: Vec<Option<Hash>> = folder
        .get(&format!("{dir}/{FRAMES_RECORD}"))
        .and_then(|b| serde_json::from_slice::<Record>(b).ok())
        .map(|r| r.png_fnv64)
        .unwrap_or_default();
    // An image PNG unpack wrote that is gone: refused (it would silently keep the old image).
    for (k, h) in record.iter().enumerate().take(refs.len()) {
        let png = format!("{dir}/{}", kind.png_name(dir, k));
        if h.is_some() && !folder.contains(&png) {
            let why = match kind {
                Kind::Sprite => format!(
                    "expected this frame (deleted: the sprite has {} frames; restore the PNG, removing frames is not supported)",
                    refs.len()
                ),
                Kind::Background | Kind::Font => format!(
                    "expected {} (deleted: restore the PNG; an image cannot be removed)",
                    kind.noun()
                ),
            };
            return Err(Error::new(png, "", why));
        }
    }
    for (p, b) in folder.under(dir) {
        let name = &p[dir.len() + 1..];
        let Some(k) = kind.image_number(dir, name) else {
            continue;
        };
        if record.get(k).and_then(|h| h.as_ref()?.0) == Some(fnv64(b)) {
            continue;
        }
        let item = refs
            .get(k)
            .copied()
            .flatten()
            .and_then(|r| gmkit_media::frame::item(file, r));
        let (w, h) = match (size, item) {
            (Some(s), _) => s,
            (None, Some(item)) => canvas(None, item),
            (None, None) => {
                return Err(Error::new(
                    p,
                    "",
                    format!(
                        "expected no image here: {} has no texture page item to give it a size",
                        kind.noun()
                    ),
                ));
            }
        };
        crate::pages::check_mode(b).map_err(|m| Error::new(p, "", m))?;
        // The size in the PNG's header is checked before it is decoded.
        let img = gmkit_media::decode_png_sized(b, w, h, kind.noun()).map_err(|e| match e {
            gmkit_media::Error::Size {
                found_w, found_h, ..
            } => Error::new(
                p,
                "",
                format!(
                    "expected a {w}×{h} image ({}), found {found_w}×{found_h}",
                    kind.size_noun()
                ),
            ),
            e => Error::new(p, "", format!("expected a PNG: {e}")),
        })?;
        if k > refs.len() {
            return Err(Error::new(
                p,
                "",
                format!(
                    "expected frame number at most {} (frames are numbered 0, 1, 2, ... without gaps)",
                    refs.len()
                ),
            ));
        }
        edited.push((kind, i, k, p.to_owned(), img));
    }
    Ok(())
}
