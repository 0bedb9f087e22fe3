//! Font glyphs: `u16` character; `u16` source X, Y, width, height; `i16` shift; `i16` offset;
//! [2024.11] `i16` unknown (0); kerning as a `u16`-counted list of (`i16` other character, `i16`
//! amount).

use super::FontLayout;
use crate::error::Result;
use crate::read::Reader;
use crate::version::Detect;
use crate::write::Writer;

/// One glyph of a font.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Glyph {
    /// The character (UTF-16 code unit).
    pub character: u16,
    /// Source rectangle on the font's texture: x, y, width, height.
    pub source: [u16; 4],
    /// Horizontal advance.
    pub shift: i16,
    /// Horizontal drawing offset.
    pub offset: i16,
    /// 2024.11+: an unknown `i16` (0 so far), kept as read.
    pub unknown: Option<i16>,
    /// Kerning pairs.
    pub kerning: Vec<Kerning>,
}

/// A kerning pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Kerning {
    /// The preceding character.
    pub other: i16,
    /// Adjustment.
    pub amount: i16,
}

impl Glyph {
    pub(crate) fn read(r: &mut Reader, extra: bool) -> Result<Self> {
        let mut f = r.fields::<14>("glyph")?;
        let mut g = Glyph {
            character: f.u16(),
            source: [f.u16(), f.u16(), f.u16(), f.u16()],
            shift: f.i16(),
            offset: f.i16(),
            ..Default::default()
        };
        if extra {
            g.unknown = Some(r.i16()?);
        }
        let at = r.pos();
        let n = r.u16()? as usize;
        r.check_count(at, "kerning pair", n, 4)?;
        if n > 0 {
            let pairs = r.bytes_ref(n * 4, "kerning pair")?;
            g.kerning = pairs
                .chunks_exact(4)
                .map(|k| Kerning {
                    other: i16::from_le_bytes([k[0], k[1]]),
                    amount: i16::from_le_bytes([k[2], k[3]]),
                })
                .collect();
        }
        Ok(g)
    }

    pub(crate) fn write(&self, w: &mut Writer, extra: bool) -> Result<()> {
        w.u16(self.character);
        for v in self.source {
            w.u16(v);
        }
        w.i16(self.shift);
        w.i16(self.offset);
        if extra {
            w.i16(self.unknown.unwrap_or(0));
        }
        let n = u16::try_from(self.kerning.len())
            .map_err(|_| w.unwritable("kerning", "more than 65535 pairs"))?;
        w.u16(n);
        for k in &self.kerning {
            w.i16(k.other);
            w.i16(k.amount);
        }
        Ok(())
    }
}

/// Walks a font's glyphs under a layout: the glyph pointer list must fit in the chunk and each
/// glyph must start where the previous one ended. Returns the font's end.
pub(super) fn walk(d: &Detect, font: usize, chunk_end: usize, l: FontLayout) -> Option<usize> {
    let list = font.checked_add(l.header_size())?;
    let n = d.u32(list)? as usize;
    let mut pos = list.checked_add(4)?.checked_add(n.checked_mul(4)?)?;
    if pos > chunk_end {
        return None;
    }
    for i in 0..n {
        let p = d.u32(list + 4 + 4 * i)? as usize;
        if p == 0 {
            continue;
        }
        if p != pos {
            return None;
        }
        let k = pos + 14 + if l.glyph_extra { 2 } else { 0 };
        let kn = u16::from_le_bytes(d.data.get(k..k + 2)?.try_into().ok()?) as usize;
        pos = k + 2 + kn * 4;
        if pos > chunk_end {
            return None;
        }
    }
    if l.aligned {
        pos = pos.next_multiple_of(4);
    }
    Some(pos)
}
