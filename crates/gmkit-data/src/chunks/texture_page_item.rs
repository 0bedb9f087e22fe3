//! `TPAG`: texture page items, the rectangles of texture pages that sprites, backgrounds, fonts
//! and embedded images draw from. Other chunks point at items; the model turns those pointers
//! into [`TpagRef`] indices.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::{Fields, Reader, Target};
use crate::version::{Detect, Version};
use crate::write::Writer;

/// A reference to a texture page item (an index into [`TexturePageItems::items`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TpagRef(pub u32);

/// One rectangle of a texture page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TexturePageItem {
    /// Source rectangle on the texture page: x, y, width, height.
    pub source: [u16; 4],
    /// Target rectangle inside the sprite frame: x, y, width, height.
    pub target: [u16; 4],
    /// Bounding size: width, height.
    pub bounding: [u16; 2],
    /// Texture page index (into TXTR); -1 when none.
    pub texture_page: i16,
}

/// The `TPAG` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TexturePageItems {
    /// The items (`None`: null pointer of a stripped item).
    pub items: Vec<Option<TexturePageItem>>,
    /// Whether the items are followed by zero padding to 4 bytes (ARM targets).
    pub pad_to_4: bool,
}

impl TexturePageItems {
    /// Reads the pointer to an item as a reference (`None` for a null pointer).
    pub(crate) fn read_ref(r: &mut Reader) -> Result<Option<TpagRef>> {
        Ok(r.target_opt(Target::TexturePageItem, "texture page item pointer")?.map(TpagRef))
    }
    /// [`TexturePageItems::read_ref`] for a field of a fixed-size record.
    pub(crate) fn read_ref_field<const N: usize>(f: &mut Fields<'_, '_, N>) -> Result<Option<TpagRef>> {
        Ok(f.target_opt(Target::TexturePageItem, "texture page item pointer")?.map(TpagRef))
    }
    /// Reads a count, then that many pointers to items, as references (`None` for a null
    /// pointer).
    pub(crate) fn read_refs(r: &mut Reader, what: &'static str) -> Result<Vec<Option<TpagRef>>> {
        let at = r.pos() + 4;
        let ptrs = r.pointers(what)?;
        let mut refs = Vec::with_capacity(ptrs.len());
        for (i, p) in ptrs.enumerate() {
            let t = r.target_opt_at(at + 4 * i, p, Target::TexturePageItem, "texture page item pointer")?;
            refs.push(t.map(TpagRef));
        }
        Ok(refs)
    }
    /// Writes a reference to an item as a pointer.
    pub(crate) fn write_ref(w: &mut Writer, t: Option<TpagRef>) {
        w.target(Target::TexturePageItem, t.map(|t| t.0));
    }
}

impl Chunk for TexturePageItems {
    const NAME: ChunkName = ChunkName(*b"TPAG");
    const PHASE: u8 = 1;

    fn read(r: &mut Reader) -> Result<Self> {
        let ptrs = r.pointer_list("texture page item")?;
        let mut items = Vec::with_capacity(ptrs.len());
        for (i, &p) in ptrs.iter().enumerate() {
            if p == 0 {
                items.push(None);
                continue;
            }
            let prev = r.set_element("texture page item", i);
            r.expect_element_at(p, "item pointer")?;
            let mut f = r.fields::<22>("texture page item")?;
            items.push(Some(TexturePageItem {
                source: [f.u16(), f.u16(), f.u16(), f.u16()],
                target: [f.u16(), f.u16(), f.u16(), f.u16()],
                bounding: [f.u16(), f.u16()],
                texture_page: f.i16(),
            }));
            r.restore_element(prev);
        }
        r.publish(Target::TexturePageItem, &ptrs);
        let pad_to_4 = !r.pos().is_multiple_of(4) && r.chunk_end().is_multiple_of(4) && r.is_zero_padding(4);
        if pad_to_4 {
            r.align(4)?;
        }
        Ok(TexturePageItems { items, pad_to_4 })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let slots = w.pointer_slots(self.items.len());
        for (i, item) in self.items.iter().enumerate() {
            let Some(t) = item else { continue };
            w.fill_slot(slots, i);
            w.define(Target::TexturePageItem, i as u32);
            for v in t.source.iter().chain(&t.target).chain(&t.bounding) {
                w.u16(*v);
            }
            w.i16(t.texture_page);
        }
        if self.pad_to_4 {
            w.align(4);
        }
        Ok(())
    }
}

/// No layout checks in TPAG.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
