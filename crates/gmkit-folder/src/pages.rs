//! Texture pages as PNG, always: `textures/0003.png` is the page as a viewer opens it, and
//! `textures/stored/0003.2zoq` (or `.fioq`, `.dds`, ...; `.png.stored` for a page stored as
//! PNG, so that no tool re-encoding every `.png` touches it) the page's bytes as the game
//! stores them. The page's record (`textures/0003.json`) names both and holds the hash of the
//! PNG unpack wrote:
//!
//! ```json
//! "data": { "file": "stored/0003.2zoq", "png": "0003.png", "png_fnv64": "5f0c..." }
//! ```
//!
//! Pack uses the stored bytes while the PNG keeps that hash, and while its pixels equal the
//! stored page's (a PNG re-encoded by an editor packs identical). A PNG whose pixels changed is
//! a page edit: the page is re-encoded in its own format.
//!
//! A page PNG and the frame PNGs cut from it (see [`crate::frames`]) are two views of the same
//! pixels. **Frames win**: pack applies page edits first and then edited frames over them; a
//! page edit is taken where no frame on it changed. A page edit and a frame edit that touch the
//! same frame's area are refused with one line (which edit to keep cannot be told).
//!
//! Memory: unpack produces a page's PNG only when the folder is written (one page per thread at
//! a time, see [`crate::Folder`]); pack reads one page image at a time.

use crate::error::{Error, Result};
use crate::folder::{Deferred, Folder};
use crate::frames::fnv;
use crate::layout::{TEXTURES, TEXTURES_STORED, index_name, texture_ext};
use bytes::Bytes;
use gmkit_data::DataFile;
use gmkit_data::chunks::texture::{PageData, TexturePage};
use serde_json::{Value, json};
use std::collections::HashSet;

/// Whether a folder path is a texture page's image (a PNG view or a stored blob), which
/// [`Folder::read_dir`] leaves on disk until pack reads it.
pub(crate) fn is_page_image(rel: &str) -> bool {
    if rel.ends_with(".json") {
        return false;
    }
    let segs: Vec<&str> = rel.split('/').collect();
    let n = segs.len();
    let parent =
        |k: usize| n > k && segs[n - 1 - k] == TEXTURES && (n - 1 - k == 0 || n - 1 - k == 2);
    parent(1) || (n > 2 && segs[n - 2] == TEXTURES_STORED && parent(2))
}

/// Unpacks page `i` (record `v`, without its data) under `prefix`: its files go to `out`, its
/// record to `docs` (or, for a page whose PNG is produced when written, into the deferred
/// entry that writes both).
pub(crate) fn unpack(
    prefix: &str,
    i: usize,
    page: Option<&TexturePage>,
    out: &mut Folder,
    docs: &mut Vec<(String, Value)>,
) -> Result<()> {
    let record_path = format!("{prefix}{TEXTURES}/{}.json", index_name(i));
    let Some(page) = page else {
        docs.push((record_path, Value::Null));
        return Ok(());
    };
    let mut meta = page.clone();
    let blob = match &page.data {
        PageData::Embedded(b) => {
            meta.data = PageData::Embedded(Bytes::new());
            Some(b.clone())
        }
        PageData::External { .. } => None,
    };
    let mut v = serde_json::to_value(&meta)
        .map_err(|e| Error::new(&record_path, "", format!("cannot be written: {e}")))?;
    let Some(blob) = blob else {
        docs.push((record_path, v));
        return Ok(());
    };
    // A page stored as PNG keeps its bytes as `NNNN.png.stored`: a tool that re-encodes every
    // `.png` of the folder must not touch the only copy of the stored bytes.
    let stored = match texture_ext(&blob) {
        "png" => format!("{TEXTURES_STORED}/{}.png.stored", index_name(i)),
        ext => format!("{TEXTURES_STORED}/{}.{ext}", index_name(i)),
    };
    let png = format!("{}.png", index_name(i));
    let png_path = format!("{prefix}{TEXTURES}/{png}");
    out.defer(
        format!("{prefix}{TEXTURES}/{stored}"),
        Deferred::Shared(blob.clone()),
    );
    v["data"] = json!({ "file": stored, "png": png });
    if texture_ext(&blob) == "png" {
        // The stored bytes are a PNG already: the view is the same file.
        v["data"]["png_fnv64"] = json!(fnv(&blob));
        out.defer(png_path, Deferred::Shared(blob));
        docs.push((record_path, v));
    } else {
        out.defer(
            png_path,
            Deferred::PagePng {
                blob,
                record: v,
                record_path,
            },
        );
    }
    Ok(())
}

/// The files of a [`Deferred::PagePng`]: the page's PNG and its record with the PNG's hash. A
/// page that cannot be decoded (DDS, damaged, over the image budget) gets no PNG: its record
/// says why under `png_note`, and pack keeps its stored bytes.
pub(crate) fn produce(
    blob: &[u8],
    record: &Value,
    record_path: &str,
    png_path: &str,
) -> Vec<(String, Vec<u8>)> {
    let png = gmkit_media::declared_size(blob)
        .and_then(|(w, h)| gmkit_media::budget::check_image(w, h))
        .and_then(|()| gmkit_media::decode(blob))
        .and_then(|img| gmkit_media::encode_png(&img));
    with_png(png, record, record_path, png_path)
}

/// The files [`produce`] gives for a page already decoded (`img`, decoded from `blob`): the
/// same bytes, without decoding the page again (unpack decodes each page once, to cut its
/// frames, and writes its PNG from that image).
pub(crate) fn produce_decoded(
    blob: &[u8],
    img: &gmkit_media::Image,
    record: &Value,
    record_path: &str,
    png_path: &str,
) -> Vec<(String, Vec<u8>)> {
    let png = gmkit_media::declared_size(blob)
        .and_then(|(w, h)| gmkit_media::budget::check_image(w, h))
        .and_then(|()| gmkit_media::encode_png(img));
    with_png(png, record, record_path, png_path)
}

/// A page's PNG (or why there is none) and its record with the PNG's hash or the note.
fn with_png(
    png: std::result::Result<Vec<u8>, gmkit_media::Error>,
    record: &Value,
    record_path: &str,
    png_path: &str,
) -> Vec<(String, Vec<u8>)> {
    let mut record = record.clone();
    let mut out = Vec::with_capacity(2);
    match png {
        Ok(png) => {
            record["data"]["png_fnv64"] = json!(fnv(&png));
            out.push((png_path.to_owned(), png));
        }
        Err(e) => {
            if let Some(d) = record["data"].as_object_mut() {
                d.remove("png");
                d.insert(
                    "png_note".into(),
                    json!(format!("no PNG: {e}; pack keeps the stored bytes")),
                );
            }
        }
    }
    out.push((record_path.to_owned(), crate::unpack::pretty(&record)));
    out
}

/// A page whose PNG changed since unpack: (page, PNG path).
pub(crate) type PageEdit = (usize, String);

/// Reads page `i`'s stored bytes named by its record's `data` (`record` names the record's
/// file in errors); returns them and, when the page's PNG changed since unpack, the edit to
/// apply with [`apply`].
pub(crate) fn read(
    folder: &Folder,
    prefix: &str,
    i: usize,
    data: &Value,
    record: &str,
) -> Result<(Bytes, Option<PageEdit>)> {
    let file = data.get("file").and_then(Value::as_str).unwrap_or("");
    let path = format!("{prefix}{TEXTURES}/{file}");
    let stored = folder.read_bytes(&path)?.ok_or_else(|| {
        Error::new(
            record,
            "data.file",
            format!("expected the page's stored image {path} (missing: pack uses it while the PNG is unchanged)"),
        )
    })?;
    let Some(png) = data.get("png").and_then(Value::as_str) else {
        return Ok((stored, None));
    };
    let png_path = format!("{prefix}{TEXTURES}/{png}");
    let bytes = folder.read(&png_path)?.ok_or_else(|| {
        Error::new(
            &png_path,
            "",
            format!(
                "expected this page's PNG (missing: a page cannot be deleted; restore it, or remove \"png\" from {record} to keep the stored page)"
            ),
        )
    })?;
    let unchanged = data
        .get("png_fnv64")
        .and_then(Value::as_str)
        .is_some_and(|h| h == fnv(&bytes));
    Ok((stored, (!unchanged).then_some((i, png_path))))
}

/// Areas of texture page items a page edit changed: (page, item source rectangle).
pub(crate) type Touched = HashSet<(i16, [u16; 4])>;

/// Applies edited page PNGs to the packed model, one page at a time: each PNG is checked (the
/// page's size, 8 bits per channel) and compared with the stored page; a PNG whose pixels are
/// the stored page's keeps the stored bytes, another is re-encoded in the page's own format.
/// Returns the item areas whose pixels changed (for the frames-win rule).
pub(crate) fn apply(file: &mut DataFile, edits: Vec<PageEdit>, folder: &Folder) -> Result<Touched> {
    let mut touched = Touched::new();
    for (i, png_path) in edits {
        let Some(Some(page)) = file.textures.as_ref().and_then(|t| t.pages.get(i)) else {
            continue;
        };
        let Some(stored) = page.blob().cloned() else {
            continue;
        };
        let err = |m: String| Error::new(&png_path, "", m);
        let bytes = folder
            .read(&png_path)?
            .ok_or_else(|| err("expected this page's PNG (missing)".into()))?;
        let (w, h) = gmkit_media::declared_size(&stored).map_err(|e| {
            err(format!(
                "expected no change: page {i} is stored in a format gmkit cannot write ({e})"
            ))
        })?;
        check_mode(&bytes).map_err(&err)?;
        let new =
            gmkit_media::decode_png_sized(&bytes, w, h, "the texture page").map_err(
                |e| match e {
                    gmkit_media::Error::Size {
                        found_w, found_h, ..
                    } => err(format!(
                        "expected a {w}×{h} image (the page's size), found {found_w}×{found_h}"
                    )),
                    e => err(format!("expected a PNG: {e}")),
                },
            )?;
        drop(bytes);
        let old = gmkit_media::decode(&stored)
            .map_err(|e| err(format!("cannot compare with the stored page: {e}")))?;
        if old == new {
            continue;
        }
        if let Some(items) = &file.texture_page_items {
            for it in items.items.iter().flatten() {
                if usize::try_from(it.texture_page).ok() == Some(i)
                    && area_differs(&old, &new, it.source)
                {
                    touched.insert((it.texture_page, it.source));
                }
            }
        }
        drop(old);
        let enc = gmkit_media::Encoding::of(&stored).map_err(|e| {
            err(format!(
                "expected no change: page {i} is stored in a format gmkit cannot write ({e})"
            ))
        })?;
        let blob = gmkit_media::encode(&new, enc).map_err(|e| err(e.to_string()))?;
        if let Some(Some(p)) = file.textures.as_mut().and_then(|t| t.pages.get_mut(i)) {
            p.set_blob(blob.into());
        }
    }
    Ok(touched)
}

/// Refuses a PNG whose pixels a page cannot hold: a page is 8-bit RGBA, so a PNG with 16 bits
/// per channel would lose precision silently.
pub(crate) fn check_mode(png: &[u8]) -> std::result::Result<(), String> {
    // IHDR: 8-byte signature, 4 length, 4 type, 4 width, 4 height, then bit depth.
    if png.len() > 24 && png.starts_with(b"\x89PNG\r\n\x1a\n") && png[24] == 16 {
        return Err(
            "expected 8 bits per channel (pages and frames are 8-bit RGBA), found a 16-bit PNG: save it with 8 bits per channel".into(),
        );
    }
    Ok(())
}

/// Whether the pixels of `rect` (x, y, w, h) differ between two images of the same size.
fn area_differs(a: &gmkit_media::Image, b: &gmkit_media::Image, rect: [u16; 4]) -> bool {
    let [x, y, w, h] = rect.map(u32::from);
    let (iw, ih) = (a.width(), a.height());
    if x >= iw || y >= ih {
        return false;
    }
    let (w, h) = (w.min(iw - x), h.min(ih - y));
    let row = iw as usize * 4;
    (y..y + h).any(|r| {
        let s = r as usize * row + x as usize * 4;
        let e = s + w as usize * 4;
        a.pixels()[s..e] != b.pixels()[s..e]
    })
}
