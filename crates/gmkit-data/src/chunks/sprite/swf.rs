//! SWF sprites (sprite type 1).
//!
//! Layout (§4 SPRT): `i32` SWF version (7 or 8); \[v8\] a simple list of texture page item
//! pointers; zero padding to 4; the YYSWF block: `i32` JPEG-table length with the top bit set,
//! `i32` YYSWF version, the JPEG table bytes, zero padding to 4, then the timeline (frames,
//! items, shapes, bitmaps).
//!
//! The timeline is not modelled: it is kept as one uninterpreted [`Bytes`] payload
//! ([`SwfSprite::timeline`]) running to the end of the sprite body (the first embedded record,
//! the next sprite, or the chunk end), so it includes any zero padding before that point. By the
//! notes it holds no absolute pointers (pre-2022.1 bitmaps embed their image bytes, later ones a
//! texture index); it does make the chunk opaque.

use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::{Result, invalid};
use crate::read::Reader;
use crate::write::Writer;
use bytes::Bytes;

/// Top bit of the JPEG-table length field.
const JPEG_FLAG: u32 = 0x8000_0000;

/// The body of a SWF sprite.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SwfSprite {
    /// SWF version (7 or 8).
    pub swf_version: i32,
    /// \[v8\] Texture page items used by the timeline (`None` for version 7).
    pub frames: Option<Vec<Option<TpagRef>>>,
    /// Whether the JPEG-table length field has its top bit set (always so far).
    pub jpeg_flag: bool,
    /// YYSWF block version.
    pub yyswf_version: i32,
    /// The shared JPEG tables.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub jpeg_table: Bytes,
    /// The timeline (frames, items, shapes, bitmaps), uninterpreted, up to the end of the body.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub timeline: Bytes,
}

/// Whether the SWF version stores a texture page item list.
fn has_frames(swf_version: i32) -> bool {
    swf_version >= 8
}

impl SwfSprite {
    /// Reads the body, which ends at `end`.
    pub(crate) fn read(r: &mut Reader, end: usize) -> Result<Self> {
        let at = r.pos();
        let swf_version = r.i32()?;
        if !(7..=8).contains(&swf_version) {
            return Err(r.error_at(at, invalid("SWF version", "7 or 8", swf_version)));
        }
        let frames = if has_frames(swf_version) {
            let n = r.count("SWF texture page item", 4)?;
            Some(
                (0..n)
                    .map(|_| TexturePageItems::read_ref(r))
                    .collect::<Result<Vec<_>>>()?,
            )
        } else {
            None
        };
        r.align(4)?;
        let field = r.u32()?;
        let yyswf_version = r.i32()?;
        let jpeg_table = r.bytes((field & !JPEG_FLAG) as usize, "SWF JPEG table")?;
        r.align(4)?;
        let start = r.pos();
        if end < start {
            return Err(r.invalid("sprite record pointer", "a position after the SWF header", end));
        }
        let timeline = r.bytes(end - start, "SWF timeline")?;
        Ok(SwfSprite {
            swf_version,
            frames,
            jpeg_flag: field & JPEG_FLAG != 0,
            yyswf_version,
            jpeg_table,
            timeline,
        })
    }

    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        if !(7..=8).contains(&self.swf_version)
            || self.frames.is_some() != has_frames(self.swf_version)
        {
            return Err(w.unwritable(
                "SWF sprite",
                "version must be 7 or 8, with texture page items exactly for version 8",
            ));
        }
        w.i32(self.swf_version);
        if let Some(f) = &self.frames {
            w.u32(super::spine::u32_len(w, f.len())?);
            for &t in f {
                TexturePageItems::write_ref(w, t);
            }
        }
        w.align(4);
        let len = super::spine::u32_len(w, self.jpeg_table.len())?;
        if len & JPEG_FLAG != 0 {
            return Err(w.unwritable("SWF JPEG table", "longer than 2 GiB"));
        }
        w.u32(len | if self.jpeg_flag { JPEG_FLAG } else { 0 });
        w.i32(self.yyswf_version);
        w.bytes(&self.jpeg_table);
        w.align(4);
        w.bytes(&self.timeline);
        Ok(())
    }
}
