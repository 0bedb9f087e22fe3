//! Vector sprites (sprite type 3, 2024.13+).
//!
//! Layout (§4 SPRT): `i32` vector version (3, or 4 from 2024.14); a simple list of texture page
//! item pointers; \[v4\] the frame→shape map (`u32` count + `i32` shape indices) and the shape
//! list; \[v3\] one shape; then the collision masks: \[v4\] `u32` count / \[v3\] bool32 "has a mask",
//! `i32` width, `i32` height, then per mask a `u32` length and that many bytes of run-length
//! encoded mask data, zero-padded to 4.
//!
//! The shape layout is not documented, and neither is the length of the shape data: the shapes
//! (the v4 shape list or the v3 single shape) are kept as one uninterpreted [`Bytes`] piece
//! ([`VectorSprite::shapes`]), which therefore makes the chunk opaque. Its end is found as the
//! first position from which the collision-mask section parses and ends exactly at the end of the
//! sprite body (the first embedded record, the next sprite, or the chunk end up to its zero
//! padding). Nothing is known about absolute pointers inside shapes; if there were any, they
//! would not be relocated.

use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::{Result, invalid};
use crate::read::Reader;
use crate::write::Writer;
use bytes::Bytes;

/// The body of a vector sprite.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VectorSprite {
    /// Vector data version: 3 (2024.13) or 4 (2024.14+, several shapes and masks).
    pub version: i32,
    /// Texture page items (pre-rendered frames).
    pub frames: Vec<Option<TpagRef>>,
    /// \[v4\] For each frame, the index of its shape (`None` for v3).
    pub frame_shapes: Option<Vec<i32>>,
    /// The shape data (v4: the shape list, v3: the single shape), uninterpreted: its layout is
    /// not documented.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub shapes: Bytes,
    /// The collision masks.
    pub masks: VectorMasks,
}

/// Collision masks of a vector sprite.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VectorMasks {
    /// Mask width.
    pub width: i32,
    /// Mask height.
    pub height: i32,
    /// Each mask's run-length encoded data (v3: at most one).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub masks: Vec<Bytes>,
}

/// Upper bound on the masks visited while looking for the mask section (bad input cannot make the
/// scan quadratic beyond this).
const SCAN_BUDGET: u32 = 1 << 22;

/// Whether the sprite has the v4 layout (frame→shape map, shape list, mask count).
fn is_v4(version: i32) -> bool {
    version >= 4
}

fn word(data: &[u8], at: usize) -> Option<u32> {
    let b = data.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Where a mask section starting at `p` ends (absolute), if it parses inside `..limit`.
/// `budget` bounds the total work of a scan (each mask visited costs 1).
fn masks_end(data: &[u8], p: usize, v4: bool, limit: usize, budget: &mut u32) -> Option<usize> {
    let count = word(data, p)?;
    if !v4 && count > 1 {
        return None;
    }
    let mut q = p.checked_add(12)?;
    if q > limit {
        return None;
    }
    for _ in 0..count {
        *budget = budget.checked_sub(1)?;
        let n = word(data, q)? as usize;
        q = q.checked_add(4)?.checked_add(n)?;
        if q > limit {
            return None;
        }
        let padded = q.next_multiple_of(4);
        if padded > limit || data.get(q..padded)?.iter().any(|&b| b != 0) {
            return None;
        }
        q = padded;
    }
    Some(q)
}

impl VectorSprite {
    /// Reads the body; `end` is where the body must end (`slack`: trailing zero padding of fewer
    /// than 16 bytes may follow, when the body is the last thing before the next sprite or the
    /// chunk end).
    pub(crate) fn read(r: &mut Reader, end: usize, slack: bool) -> Result<Self> {
        let at = r.pos();
        let version = r.i32()?;
        if !(3..=4).contains(&version) {
            return Err(r.error_at(at, invalid("vector sprite version", "3 or 4", version)));
        }
        let n = r.count("vector sprite frame", 4)?;
        let frames = (0..n)
            .map(|_| TexturePageItems::read_ref(r))
            .collect::<Result<Vec<_>>>()?;
        let v4 = is_v4(version);
        let frame_shapes = if v4 {
            let n = r.count("vector frame shape index", 4)?;
            Some((0..n).map(|_| r.i32()).collect::<Result<Vec<_>>>()?)
        } else {
            None
        };
        let start = r.pos();
        let data = r.file();
        let limit = end.min(data.len());
        let fits = |q: usize| {
            q == limit
                || (slack
                    && q < limit
                    && limit - q < 16
                    && data.get(q..limit).is_some_and(|t| t.iter().all(|&b| b == 0)))
        };
        let mut budget = SCAN_BUDGET;
        let masks_at = (start..limit)
            .find(|&p| masks_end(data, p, v4, limit, &mut budget).is_some_and(fits))
            .ok_or_else(|| {
                r.invalid(
                    "vector sprite collision masks",
                    format!("a mask section ending at {end}"),
                    "none after the shapes",
                )
            })?;
        let shapes = r.bytes(masks_at - start, "vector sprite shapes")?;
        let count = if v4 {
            r.count("vector collision mask", 4)?
        } else {
            usize::from(r.bool32()?)
        };
        let mut masks = VectorMasks {
            width: r.i32()?,
            height: r.i32()?,
            masks: Vec::with_capacity(count),
        };
        for _ in 0..count {
            let l = r.u32()? as usize;
            masks.masks.push(r.bytes(l, "vector collision mask")?);
            r.align(4)?;
        }
        Ok(VectorSprite {
            version,
            frames,
            frame_shapes,
            shapes,
            masks,
        })
    }

    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        let v4 = is_v4(self.version);
        if !(3..=4).contains(&self.version) || self.frame_shapes.is_some() != v4 {
            return Err(w.unwritable(
                "vector sprite",
                "version must be 3 or 4, with a frame→shape map exactly for version 4",
            ));
        }
        w.i32(self.version);
        w.u32(super::spine::u32_len(w, self.frames.len())?);
        for &f in &self.frames {
            TexturePageItems::write_ref(w, f);
        }
        if let Some(map) = &self.frame_shapes {
            w.u32(super::spine::u32_len(w, map.len())?);
            for &i in map {
                w.i32(i);
            }
        }
        w.bytes(&self.shapes);
        let m = &self.masks;
        if v4 {
            w.u32(super::spine::u32_len(w, m.masks.len())?);
        } else if m.masks.len() > 1 {
            return Err(w.unwritable("vector sprite", "version 3 has at most one collision mask"));
        } else {
            w.bool32(m.masks.len() == 1);
        }
        w.i32(m.width);
        w.i32(m.height);
        for b in &m.masks {
            w.u32(super::spine::u32_len(w, b.len())?);
            w.bytes(b);
            w.align(4);
        }
        Ok(())
    }
}
