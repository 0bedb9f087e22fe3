//! Sprite collision masks as 1-bit PNGs: `sprites/spr_player/mask_0.png` (white =
//! collision), named in the sprite's JSON (`"masks": ["mask_0.png"]`).
//!
//! A mask row is `ceil(w / 8)` bytes, exactly the row of a 1-bit greyscale PNG, so the PNG
//! holds the mask byte for byte, padding bits included. A mask whose length does not fit the
//! sprite's size stays hex in the JSON, as does any list element that is not a file name.

use crate::error::{Error, Result};
use crate::folder::Folder;
use gmkit_data::DataFile;
use rayon::prelude::*;
use serde_json::Value;

/// File name of mask `k`.
pub fn file_name(k: usize) -> String {
    format!("mask_{k}.png")
}

/// Whether a `masks` list element names a file (hex strings never end in `.png`).
fn is_file(s: &str) -> bool {
    s.ends_with(".png")
}

/// Replaces the hex masks of `sprite` (its JSON, sprite `i`) by file names, for the masks that
/// [`unpack`] writes as PNG.
pub(crate) fn name_files(file: &DataFile, i: usize, sprite: &mut Value) {
    let Some(Some(s)) = file.sprites.as_ref().and_then(|c| c.sprites.get(i)) else {
        return;
    };
    let (w, h) = gmkit_media::mask::mask_size(s, &file.version);
    let Some(Value::Array(list)) = sprite.get_mut("masks") else {
        return;
    };
    for (k, (m, v)) in s.masks.iter().zip(list.iter_mut()).enumerate() {
        if fits(m.len(), w, h) {
            *v = Value::String(file_name(k));
        }
    }
}

fn fits(len: usize, w: u32, h: u32) -> bool {
    (w as usize).div_ceil(8).checked_mul(h as usize) == Some(len) && w > 0 && h > 0
}

/// Writes the mask PNGs of every sprite: `dirs[i]` is the folder of sprite `i` (with the data
/// file's prefix).
pub(crate) fn unpack(file: &DataFile, dirs: &[Option<String>], out: &mut Folder) -> Result<()> {
    let Some(sprites) = &file.sprites else {
        return Ok(());
    };
    let written: Vec<Vec<(String, Vec<u8>)>> = sprites
        .sprites
        .par_iter()
        .zip(dirs)
        .map(|(s, dir)| {
            let (Some(s), Some(dir)) = (s, dir) else {
                return Ok(Vec::new());
            };
            let (w, h) = gmkit_media::mask::mask_size(s, &file.version);
            s.masks
                .iter()
                .enumerate()
                .filter(|(_, m)| fits(m.len(), w, h))
                .map(|(k, m)| {
                    let p = format!("{dir}/{}", file_name(k));
                    gmkit_media::mask::to_png(m, w, h)
                        .map(|png| (p.clone(), png))
                        .map_err(|e| Error::new(p, "", format!("cannot be written: {e}")))
                })
                .collect()
        })
        .collect::<Result<_>>()?;
    for (p, b) in written.into_iter().flatten() {
        out.insert(p, b);
    }
    Ok(())
}

/// The mask files named in sprite JSONs, taken out before the model is read: (sprite, mask,
/// PNG path, JSON path); the list elements become empty masks, filled by [`pack`].
pub(crate) fn take_files(
    sprites: &mut Value,
    files: &[String],
) -> Vec<(usize, usize, String, String)> {
    let mut out = Vec::new();
    let Some(Value::Array(list)) = sprites.get_mut("sprites") else {
        return out;
    };
    for (i, (s, json)) in list.iter_mut().zip(files).enumerate() {
        let Some(Value::Array(masks)) = s.get_mut("masks") else {
            continue;
        };
        let dir = crate::frames::asset_dir("sprites", json);
        for (k, m) in masks.iter_mut().enumerate() {
            if let Value::String(name) = m
                && is_file(name)
            {
                out.push((i, k, format!("{dir}/{name}"), json.clone()));
                *m = Value::String(String::new());
            }
        }
    }
    out
}

/// Reads the mask PNGs [`take_files`] took out into the packed model.
pub(crate) fn pack(
    file: &mut DataFile,
    folder: &Folder,
    taken: Vec<(usize, usize, String, String)>,
) -> Result<()> {
    let version = file.version;
    let Some(sprites) = file.sprites.as_mut() else {
        return Ok(());
    };
    let sprites_ref = &sprites.sprites;
    let decoded: Vec<(usize, usize, Vec<u8>)> = taken
        .into_par_iter()
        .map(|(i, k, png, json)| {
            let Some(Some(s)) = sprites_ref.get(i) else {
                return Err(Error::new(json, "masks", "expected a sprite"));
            };
            let (w, h) = gmkit_media::mask::mask_size(s, &version);
            gmkit_media::budget::check_image(w, h).map_err(|e| {
                Error::new(
                    &json,
                    format!("masks[{k}]"),
                    format!(
                        "expected a mask size within the image budget; the sprite's {} give {w}×{h}: {e}",
                        if version.at_least(2024, 6) {
                            "margins"
                        } else {
                            "width and height"
                        }
                    ),
                )
            })?;
            let bytes = folder.get(&png).ok_or_else(|| {
                Error::new(
                    &json,
                    format!("masks[{k}]"),
                    format!("expected the mask file {png} (missing)"),
                )
            })?;
            let m = gmkit_media::mask::from_png(bytes, w, h).map_err(|e| {
                Error::new(
                    &png,
                    "",
                    format!("expected a {w}×{h} PNG (the sprite's mask size): {e}"),
                )
            })?;
            Ok((i, k, m))
        })
        .collect::<Result<_>>()?;
    for (i, k, m) in decoded {
        if let Some(Some(s)) = sprites.sprites.get_mut(i)
            && let Some(slot) = s.masks.get_mut(k)
        {
            *slot = m.into();
        }
    }
    Ok(())
}
