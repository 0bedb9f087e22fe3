//! `FONT`: fonts and their glyphs.
//!
//! Layout: a pointer list of fonts, the fonts (each followed by its glyphs, see [`glyph`]), then
//! before 2024.14 a 512-byte trailer (128 `u16` 0..127 then 128 `u16` 0x3F; kept as read). Font:
//! name; display name; `u32` em size (sign bit set: a negated `f32`); bool32 bold, italic; `u16`
//! range start; `u8` charset; `u8` anti-aliasing; `u32` range end; TPAG pointer; `f32` scale X,
//! Y; [bc ≥ 17] `i32` ascender offset; [2022.2] `u32` ascender; [2023.2 non-LTS] `u32` SDF
//! spread; [2023.6 or LTS 2022.0.3] `u32` line height; pointer list of glyphs; [2024.14]
//! 4-alignment after the glyphs.

pub mod glyph;

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;
use bytes::Bytes;
pub use glyph::{Glyph, Kerning};

/// The `FONT` chunk: fonts.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Fonts {
    /// The fonts (`None`: null pointer of a stripped font).
    pub fonts: Vec<Option<Font>>,
    /// Before 2024.14: the 512-byte trailer after the fonts, kept as read.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub trailer: Option<Bytes>,
}

/// The em size of a font, as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EmSize {
    /// An integer size (the sign bit is clear).
    Int(u32),
    /// A fractional size, stored as the negated `f32` (so the sign bit is set); this holds the
    /// positive size.
    Float(
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
        f32,
    ),
}

impl Default for EmSize {
    fn default() -> Self {
        EmSize::Int(0)
    }
}

impl EmSize {
    /// The size as a number.
    pub fn value(self) -> f32 {
        match self {
            EmSize::Int(v) => v as f32,
            EmSize::Float(f) => f,
        }
    }
    fn from_raw(v: u32) -> Self {
        if v & 0x8000_0000 != 0 {
            EmSize::Float(-f32::from_bits(v))
        } else {
            EmSize::Int(v)
        }
    }
    fn to_raw(self) -> u32 {
        match self {
            EmSize::Int(v) => v,
            EmSize::Float(f) => (-f).to_bits(),
        }
    }
}

/// One font.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Font {
    /// Asset name.
    pub name: StringRef,
    /// Font family name.
    pub display_name: StringRef,
    /// Em size.
    pub em_size: EmSize,
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// First character of the range.
    pub range_start: u16,
    /// Character set.
    pub charset: u8,
    /// Anti-aliasing level.
    pub anti_aliasing: u8,
    /// Last character of the range.
    pub range_end: u32,
    /// Texture page item holding the glyphs.
    pub texture: Option<TpagRef>,
    /// Scale X.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_x: f32,
    /// Scale Y.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_y: f32,
    /// Ascender offset (bytecode 17+).
    pub ascender_offset: Option<i32>,
    /// Ascender (2022.2+).
    pub ascender: Option<u32>,
    /// SDF spread (2023.2+, non-LTS).
    pub sdf_spread: Option<u32>,
    /// Line height (2023.6+, or LTS 2022.0.3).
    pub line_height: Option<u32>,
    /// Glyphs (`None`: null pointer).
    pub glyphs: Vec<Option<Glyph>>,
}

/// The LTS 2022.0.3 layout (font line height on the LTS branch), recorded as `2022.9.0.3` with
/// `lts = true`: ordered between 2022.9 and 2023.1.
pub const LTS_2022_0_3: FormatVersion = FormatVersion::new(2022, 9, 0, 3);

/// Which optional header fields a font has under a version.
#[derive(Clone, Copy, Debug, PartialEq)]
struct FontLayout {
    ascender_offset: bool,
    ascender: bool,
    sdf_spread: bool,
    line_height: bool,
    glyph_extra: bool,
    aligned: bool,
}

impl FontLayout {
    fn of(v: &Version) -> Self {
        FontLayout {
            ascender_offset: v.bytecode >= 17,
            ascender: v.at_least(2022, 2),
            sdf_spread: v.non_lts_at_least(2023, 2),
            line_height: v.at_least(2023, 6) || (v.lts && v.format >= LTS_2022_0_3),
            glyph_extra: v.at_least(2024, 11),
            aligned: v.at_least(2024, 14),
        }
    }
    /// Size of the fixed header before the glyph pointer list.
    fn header_size(&self) -> usize {
        40 + 4
            * (self.ascender_offset as usize
                + self.ascender as usize
                + self.sdf_spread as usize
                + self.line_height as usize)
    }
}

fn read_font(r: &mut Reader, l: FontLayout) -> Result<Font> {
    let mut h = r.fields::<40>("font")?;
    let mut f = Font {
        name: h.string()?,
        display_name: h.string()?,
        em_size: EmSize::from_raw(h.u32()),
        bold: h.bool32()?,
        italic: h.bool32()?,
        range_start: h.u16(),
        charset: h.u8(),
        anti_aliasing: h.u8(),
        range_end: h.u32(),
        texture: TexturePageItems::read_ref_field(&mut h)?,
        scale_x: h.f32(),
        scale_y: h.f32(),
        ..Default::default()
    };
    if l.ascender_offset {
        f.ascender_offset = Some(r.i32()?);
    }
    if l.ascender {
        f.ascender = Some(r.u32()?);
    }
    if l.sdf_spread {
        f.sdf_spread = Some(r.u32()?);
    }
    if l.line_height {
        f.line_height = Some(r.u32()?);
    }
    let ptrs = r.pointers("glyph")?;
    f.glyphs.reserve(ptrs.len());
    for (i, p) in ptrs.enumerate() {
        if p == 0 {
            f.glyphs.push(None);
            continue;
        }
        let prev = r.set_element("glyph", i);
        r.expect_element_at(p, "glyph pointer")?;
        f.glyphs.push(Some(Glyph::read(r, l.glyph_extra)?));
        r.restore_element(prev);
    }
    if l.aligned {
        r.align(4)?;
    }
    Ok(f)
}

fn write_font(w: &mut Writer, f: &Font, l: FontLayout) -> Result<()> {
    w.string(f.name);
    w.string(f.display_name);
    w.u32(f.em_size.to_raw());
    w.bool32(f.bold);
    w.bool32(f.italic);
    w.u16(f.range_start);
    w.u8(f.charset);
    w.u8(f.anti_aliasing);
    w.u32(f.range_end);
    TexturePageItems::write_ref(w, f.texture);
    w.f32(f.scale_x);
    w.f32(f.scale_y);
    if l.ascender_offset {
        w.i32(f.ascender_offset.unwrap_or(0));
    }
    if l.ascender {
        w.u32(f.ascender.unwrap_or(0));
    }
    if l.sdf_spread {
        w.u32(f.sdf_spread.unwrap_or(0));
    }
    if l.line_height {
        w.u32(f.line_height.unwrap_or(0));
    }
    w.pointer_list(&f.glyphs, |_| {}, |w, g| g.write(w, l.glyph_extra))?;
    if l.aligned {
        w.align(4);
    }
    Ok(())
}

/// Size of the trailer before 2024.14.
const TRAILER: usize = 512;

impl Chunk for Fonts {
    const NAME: ChunkName = ChunkName(*b"FONT");

    fn read(r: &mut Reader) -> Result<Self> {
        let l = FontLayout::of(r.version());
        let ptrs = r.pointers("font")?;
        let mut fonts = Vec::with_capacity(ptrs.len());
        for (i, p) in ptrs.enumerate() {
            if p == 0 {
                fonts.push(None);
                continue;
            }
            let prev = r.set_element("font", i);
            r.expect_element_at(p, "font pointer")?;
            fonts.push(Some(read_font(r, l)?));
            r.restore_element(prev);
        }
        let trailer = if l.aligned {
            None
        } else {
            Some(r.bytes(TRAILER, "font trailer")?)
        };
        Ok(Fonts { fonts, trailer })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let l = FontLayout::of(w.version());
        w.pointer_list(&self.fonts, |_| {}, |w, f| write_font(w, f, l))?;
        if !l.aligned {
            match &self.trailer {
                Some(t) if t.len() == TRAILER => w.bytes(t),
                Some(_) => return Err(w.unwritable("font trailer", "must be 512 bytes")),
                None => {
                    // The standard trailer: 0..127, then 128 × 0x3F.
                    for i in 0..128u16 {
                        w.u16(i);
                    }
                    for _ in 0..128 {
                        w.u16(0x3F);
                    }
                }
            }
        }
        Ok(())
    }
}

/// FONT layout checks (§1.3): 2022.2 (ascender), 2023.6 / LTS 2022.0.3 (line height),
/// 2024.11 (glyph extra field), 2024.14 (trailer removed).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    let Some((start, end)) = d.chunk(b"FONT") else {
        return;
    };
    let Some(n) = d.count(start, 4, end) else {
        return;
    };
    let fonts: Vec<usize> = (0..n)
        .filter_map(|i| d.u32(start + 4 + 4 * i))
        .filter(|&p| p != 0)
        .map(|p| p as usize)
        .collect();
    let first = fonts.first().copied();
    let walk_first = |l: FontLayout| first.and_then(|p| glyph::walk(d, p, end, l));
    // 2022.2: ascender after the 2.2.1 fields.
    if v.bytecode >= 17 && v.at_least_full(2, 2, 1, 0) && !v.at_least(2022, 2) {
        let mut l = FontLayout::of(v);
        l.ascender = true;
        if walk_first(l).is_some() || walk_first(FontLayout { glyph_extra: true, ..l }).is_some() {
            v.raise(FormatVersion::new(2022, 2, 0, 0));
        }
    }
    // 2023.6 / LTS 2022.0.3: line height.
    if v.at_least(2022, 8) && !FontLayout::of(v).line_height {
        let mut l = FontLayout::of(v);
        l.line_height = true;
        let ok = walk_first(l).is_some() || walk_first(FontLayout { glyph_extra: true, ..l }).is_some();
        if ok {
            if d.has(b"PSEM") || d.has(b"PSYS") || d.has(b"UILR") || v.non_lts_at_least(2023, 1) {
                v.raise(FormatVersion::new(2023, 6, 0, 0));
            } else {
                v.lts = true;
                v.raise(LTS_2022_0_3);
            }
        }
    }
    // 2024.11: glyphs carry an extra i16.
    if v.at_least(2022, 8) && !v.at_least(2024, 11) {
        let l = FontLayout::of(v);
        if walk_first(l).is_none() && walk_first(FontLayout { glyph_extra: true, ..l }).is_some() {
            v.raise(FormatVersion::new(2024, 11, 0, 0));
        }
    }
    // 2024.14: no room for the trailer after the last font.
    if v.at_least(2024, 13) && !v.at_least(2024, 14) {
        let l = FontLayout::of(v);
        let content_end = match fonts.last() {
            Some(&p) => glyph::walk(d, p, end, l),
            None => Some(start + 4 + 4 * n),
        };
        if let Some(e) = content_end
            && e + TRAILER > end {
                v.raise(FormatVersion::new(2024, 14, 0, 0));
            }
    }
}
