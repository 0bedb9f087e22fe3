//! Vector sprites (sprite type 3, 2024.13+).
//!
//! Layout (§4 SPRT): `i32` vector version (3, or 4 from 2024.14); a simple list of texture page
//! item pointers; \[v4\] the frame→shape map (`u32` count + `i32` shape indices) and the shape
//! list (`u32` count + the shapes); \[v3\] one shape; then the collision masks: \[v4\] `u32`
//! count / \[v3\] bool32 "has a mask", `i32` width, `i32` height, then per mask a `u32` length and
//! that many bytes of run-length encoded mask data, zero-padded to 4. The shapes are typed
//! ([`shape`]): every byte of the body is a field.

pub mod shape;

use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::{Result, invalid};
use crate::read::Reader;
use crate::write::Writer;
use bytes::Bytes;
pub use shape::VectorShape;

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
    /// The shapes (v3: exactly one; v4: the shape list [`VectorSprite::frame_shapes`] indexes).
    pub shapes: Vec<VectorShape>,
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

/// Whether the sprite has the v4 layout (frame→shape map, shape list, mask count).
fn is_v4(version: i32) -> bool {
    version >= 4
}

impl VectorSprite {
    /// Reads the body.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
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
        let (frame_shapes, shapes) = if v4 {
            let n = r.count("vector frame shape index", 4)?;
            let map = (0..n).map(|_| r.i32()).collect::<Result<Vec<_>>>()?;
            let n = r.count("vector shape", 24)?;
            let shapes = (0..n)
                .map(|_| VectorShape::read(r))
                .collect::<Result<Vec<_>>>()?;
            (Some(map), shapes)
        } else {
            (None, vec![VectorShape::read(r)?])
        };
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
        if !(3..=4).contains(&self.version)
            || self.frame_shapes.is_some() != v4
            || (!v4 && self.shapes.len() != 1)
        {
            return Err(w.unwritable(
                "vector sprite",
                "version must be 3 (exactly one shape, no frame→shape map) or 4 (a frame→shape \
                 map)",
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
            w.u32(super::spine::u32_len(w, self.shapes.len())?);
        }
        for s in &self.shapes {
            s.write(w)?;
        }
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
