//! `BGND`: backgrounds (GMS1) and tilesets (GMS2).
//!
//! Layout: a pointer list of records, each 8-aligned in files where every pointer is a multiple
//! of 8. Record: name; `bool32` transparent, smooth, preload; TPAG item pointer; \[GMS2\] tileset
//! fields: `u32` version, tile width, tile height, [2024.14.1] separation X, Y, output border
//! X, Y, columns, frames per tile, tile count; `i32` exported sprite; `i64` frame length; then
//! tile count × frames `u32` tile ids.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::{AssetRef, StringRef};
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// The `BGND` chunk: backgrounds / tilesets.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Backgrounds {
    /// The backgrounds, in id order (`None`: null pointer of a stripped asset, 2024.11+).
    pub backgrounds: Vec<Option<Background>>,
    /// Whether each record starts on an 8-byte boundary (inferred per file: true when every
    /// pointer is a multiple of 8).
    pub aligned: bool,
}

impl Default for Backgrounds {
    fn default() -> Self {
        Backgrounds {
            backgrounds: Vec::new(),
            aligned: true,
        }
    }
}

/// A background (GMS1) or tileset (GMS2).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Background {
    /// Asset name.
    pub name: StringRef,
    /// Transparent flag.
    pub transparent: bool,
    /// Smooth (interpolated) flag.
    pub smooth: bool,
    /// Preload flag.
    pub preload: bool,
    /// The image (`None`: null pointer).
    pub texture: Option<TpagRef>,
    /// Tileset fields (GMS2 files; `None` in GMS1 files).
    pub tileset: Option<Tileset>,
}

/// The tileset part of a GMS2 background.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tileset {
    /// Tileset format version (2 in known files).
    pub version: u32,
    /// Tile width in pixels.
    pub tile_width: u32,
    /// Tile height in pixels.
    pub tile_height: u32,
    /// Separation between tiles, X and Y (2024.14.1+; `None` before).
    pub separation: Option<[u32; 2]>,
    /// Output border X.
    pub output_border_x: u32,
    /// Output border Y.
    pub output_border_y: u32,
    /// Number of tile columns.
    pub columns: u32,
    /// Animation frames per tile.
    pub frames_per_tile: u32,
    /// Number of tiles.
    pub tile_count: u32,
    /// Sprite exported from this tileset (2023.8+; 0 before).
    pub exported_sprite: AssetRef<crate::chunks::sprite::Sprite>,
    /// Duration of an animation frame (microseconds).
    pub frame_length: i64,
    /// Tile ids, `tile_count × frames_per_tile` values, as stored.
    pub tile_ids: Vec<u32>,
}

/// GMS2 files store tilesets.
fn has_tileset(v: &Version) -> bool {
    v.is_gms2()
}
/// 2024.14.1+: tilesets carry the tile separation.
fn has_separation(v: &Version) -> bool {
    v.at_least_full(2024, 14, 1, 0)
}

fn read_tileset(r: &mut Reader, v: &Version) -> Result<Tileset> {
    let version = r.u32()?;
    let tile_width = r.u32()?;
    let tile_height = r.u32()?;
    let separation = if has_separation(v) {
        Some([r.u32()?, r.u32()?])
    } else {
        None
    };
    let output_border_x = r.u32()?;
    let output_border_y = r.u32()?;
    let columns = r.u32()?;
    let frames_per_tile = r.u32()?;
    let at = r.pos();
    let tile_count = r.u32()?;
    let exported_sprite = AssetRef::from_stored(r.i32()?, -1);
    let frame_length = r.i64()?;
    let n = (tile_count as usize).checked_mul(frames_per_tile as usize);
    let n = match n {
        Some(n) => n,
        None => {
            return Err(r.error_at(
                at,
                crate::error::invalid(
                    "tile count",
                    "tile count × frames within the chunk",
                    format!("{tile_count} × {frames_per_tile}"),
                ),
            ));
        }
    };
    r.check_count(at, "tile id", n, 4)?;
    let tile_ids = r
        .bytes_ref(n * 4, "tile id")?
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok(Tileset {
        version,
        tile_width,
        tile_height,
        separation,
        output_border_x,
        output_border_y,
        columns,
        frames_per_tile,
        tile_count,
        exported_sprite,
        frame_length,
        tile_ids,
    })
}

impl Chunk for Backgrounds {
    const NAME: ChunkName = ChunkName(*b"BGND");

    fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let ptrs = r.pointers("background")?;
        let aligned = ptrs.clone().all(|p| p % 8 == 0);
        let mut backgrounds = Vec::with_capacity(ptrs.len());
        for (i, p) in ptrs.enumerate() {
            if p == 0 {
                backgrounds.push(None);
                continue;
            }
            let prev = r.set_element("background", i);
            if aligned {
                r.align(8)?;
            }
            r.expect_element_at(p, "background pointer")?;
            let mut f = r.fields::<20>("background")?;
            let name = f.string()?;
            let transparent = f.bool32()?;
            let smooth = f.bool32()?;
            let preload = f.bool32()?;
            let texture = TexturePageItems::read_ref_field(&mut f)?;
            let tileset = if has_tileset(&v) {
                Some(read_tileset(r, &v)?)
            } else {
                None
            };
            backgrounds.push(Some(Background {
                name,
                transparent,
                smooth,
                preload,
                texture,
                tileset,
            }));
            r.restore_element(prev);
        }
        Ok(Backgrounds {
            backgrounds,
            aligned,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        let aligned = self.aligned;
        w.pointer_list(
            &self.backgrounds,
            |w| {
                if aligned {
                    w.align(8);
                }
            },
            |w, b| {
                w.string(b.name);
                w.bool32(b.transparent);
                w.bool32(b.smooth);
                w.bool32(b.preload);
                TexturePageItems::write_ref(w, b.texture);
                if has_tileset(&v) {
                    let t = b.tileset.as_ref().ok_or_else(|| {
                        w.unwritable("background", "GMS2 backgrounds need tileset fields")
                    })?;
                    let expected = (t.tile_count as usize).checked_mul(t.frames_per_tile as usize);
                    if expected != Some(t.tile_ids.len()) {
                        return Err(w.unwritable(
                            "tileset",
                            format!(
                                "{} tile ids for {} tiles × {} frames",
                                t.tile_ids.len(),
                                t.tile_count,
                                t.frames_per_tile
                            ),
                        ));
                    }
                    w.u32(t.version);
                    w.u32(t.tile_width);
                    w.u32(t.tile_height);
                    if has_separation(&v) {
                        let [x, y] = t.separation.unwrap_or_default();
                        w.u32(x);
                        w.u32(y);
                    }
                    w.u32(t.output_border_x);
                    w.u32(t.output_border_y);
                    w.u32(t.columns);
                    w.u32(t.frames_per_tile);
                    w.u32(t.tile_count);
                    w.i32(t.exported_sprite.to_stored(-1));
                    w.i64(t.frame_length);
                    for &id in &t.tile_ids {
                        w.u32(id);
                    }
                }
                Ok(())
            },
        )
    }
}

/// Size of a tileset record at `p` in the old (pre-2024.14.1) or new layout, from its tile
/// count and frame fields.
fn tileset_end(d: &Detect, p: usize, separation: bool) -> Option<usize> {
    let extra = if separation { 8 } else { 0 };
    let frames = d.u32(p + 44 + extra)? as usize;
    let count = d.u32(p + 48 + extra)? as usize;
    let ids = count.checked_mul(frames)?.checked_mul(4)?;
    p.checked_add(64 + extra)?.checked_add(ids)
}

/// BGND checks (GMS2 tilesets). 2023.8: a non-zero exported sprite id in any tileset (the
/// field was always 0 before). 2024.14.1 (needs 2024.13): the first tileset's size computed from
/// the old layout does not reach the next tileset (or the chunk end), but the new layout (with
/// tile separation X/Y) does.
///
/// Also 2024.11 (needs 2.3): a null pointer in the list (stripped asset).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    crate::chunks::audio_group::detect_stripped(d, v, b"BGND", 0);
    if !v.is_gms2() {
        return;
    }
    let Some((start, end)) = d.chunk(b"BGND") else {
        return;
    };
    let Some(n) = d.u32(start) else { return };
    let n = (n as usize).min(end.saturating_sub(start + 4) / 4);
    let ptr = |i: usize| d.u32(start + 4 + 4 * i).map(|p| p as usize);
    if !v.at_least(2023, 8) {
        for i in 0..n {
            let Some(p) = ptr(i) else { return };
            if p != 0 && d.u32(p + 52).is_some_and(|x| x != 0) {
                v.raise(FormatVersion::new(2023, 8, 0, 0));
                break;
            }
        }
    }
    if v.at_least(2024, 13) && !v.at_least_full(2024, 14, 1, 0) {
        let Some(i) = (0..n).find(|&i| ptr(i).is_some_and(|p| p != 0)) else {
            return;
        };
        let Some(p) = ptr(i) else { return };
        let next = (i + 1..n).filter_map(ptr).find(|&q| q != 0);
        let lands = |e: Option<usize>| match (e, next) {
            (Some(e), Some(q)) => e == q || e.next_multiple_of(8) == q,
            (Some(e), None) => e <= end && end - e < 16,
            _ => false,
        };
        if !lands(tileset_end(d, p, false)) && lands(tileset_end(d, p, true)) {
            v.raise(FormatVersion::new(2024, 14, 1, 0));
        }
    }
}
