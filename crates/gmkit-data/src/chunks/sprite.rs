//! `SPRT`: sprites.
//!
//! Layout: a pointer list; each sprite is preceded by zero padding to 4. Sprite: name; `u32`
//! width, height; `i32` margins left, right, bottom, top; bool32 transparent, smooth, preload;
//! `u32` bbox mode; `u32` separate-masks mode; `i32` origin X, Y. Then either (old style) the
//! frame list and masks, or the marker `i32` -1 and a special header ([`SpecialHeader`]) followed
//! by a body that depends on the sprite type ([`SpecialBody`]: [`swf`], [`spine`], [`vector`]),
//! then the embedded sequence and nine-slice records the header points at ([`mask`],
//! [`nine_slice`]).

pub mod mask;
pub mod nine_slice;
pub mod spine;
pub mod swf;
pub mod vector;

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::sequence::Sequence;
use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::{Result, invalid};
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;
use bytes::Bytes;
pub use nine_slice::NineSlice;
pub use spine::{SpineSprite, SpineTexture, SpineTextureData, SpineTextures};
pub use swf::SwfSprite;
pub use vector::{VectorMasks, VectorShape, VectorSprite};

/// The `SPRT` chunk: sprites.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sprites {
    /// The sprites (`None`: null pointer of a stripped sprite).
    pub sprites: Vec<Option<Sprite>>,
}

/// One sprite.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sprite {
    /// Asset name.
    pub name: StringRef,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Bounding box margin: left.
    pub margin_left: i32,
    /// Bounding box margin: right.
    pub margin_right: i32,
    /// Bounding box margin: bottom.
    pub margin_bottom: i32,
    /// Bounding box margin: top.
    pub margin_top: i32,
    /// Transparent flag.
    pub transparent: bool,
    /// Smooth edges flag.
    pub smooth: bool,
    /// Preload texture flag.
    pub preload: bool,
    /// Bounding box mode (automatic, full image, manual).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::bbox_mode"))]
    pub bbox_mode: u32,
    /// Collision mask kind (0 axis-aligned rectangle, 1 precise, 2 rotated rectangle; see
    /// [`crate::serde_values::kinds::collision_kind`]).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::collision_kind"))]
    pub sep_masks: u32,
    /// Origin X.
    pub origin_x: i32,
    /// Origin Y.
    pub origin_y: i32,
    /// The special header (`None`: old-style sprite without the `-1` marker).
    pub special: Option<Box<SpecialHeader>>,
    /// Frames: texture page items (normal sprites).
    pub frames: Vec<Option<TpagRef>>,
    /// Collision masks (normal sprites): one bitmap per mask, rows of `ceil(w/8)` bytes, `w × h`
    /// being the full sprite size before 2024.6 and the bounding-box size from 2024.6
    /// (see [`Sprite::mask_size`]).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub masks: Vec<Bytes>,
    /// Body of a SWF / Spine / vector sprite (`None` for normal sprites, which use
    /// [`Sprite::frames`] and [`Sprite::masks`]). Must match [`SpecialHeader::sprite_type`].
    pub special_body: Option<Box<SpecialBody>>,
}

/// The type-specific body of a special sprite.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SpecialBody {
    /// Sprite type 1: SWF (its timeline stays uninterpreted bytes).
    Swf(SwfSprite),
    /// Sprite type 2: Spine.
    Spine(SpineSprite),
    /// Sprite type 3: vector.
    Vector(VectorSprite),
    /// Any other sprite type: the body kept verbatim up to the next record, sprite or chunk end
    /// (it may hold absolute pointers, so it is only valid at its original position).
    Unknown(#[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))] Bytes),
}

impl SpecialBody {
    /// Whether part of the body remains uninterpreted bytes (SWF timeline, an unknown sprite
    /// type).
    pub fn is_opaque(&self) -> bool {
        match self {
            SpecialBody::Swf(s) => !s.timeline.is_empty(),
            SpecialBody::Spine(_) => false,
            SpecialBody::Vector(_) => false,
            SpecialBody::Unknown(_) => true,
        }
    }

    /// Whether this body belongs to a sprite of type `t` ([`SpecialBody::Unknown`]: types > 3).
    pub fn matches(&self, t: u32) -> bool {
        self.sprite_type().map_or(t > 3, |x| x == t)
    }

    /// The sprite type this body belongs to (`None` for [`SpecialBody::Unknown`]).
    pub fn sprite_type(&self) -> Option<u32> {
        match self {
            SpecialBody::Swf(_) => Some(1),
            SpecialBody::Spine(_) => Some(2),
            SpecialBody::Vector(_) => Some(3),
            SpecialBody::Unknown(_) => None,
        }
    }
}

/// The header of a "special" sprite (marker -1).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SpecialHeader {
    /// Special header version (1–3): 2 adds the sequence pointer, 3 the nine-slice pointer.
    pub version: u32,
    /// Sprite type: 0 normal, 1 SWF, 2 Spine, 3 vector.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::sprite_type"))]
    pub sprite_type: u32,
    /// GMS2: playback speed and speed type.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub playback: Option<(f32, u32)>,
    /// The embedded sequence (version 2+, when the pointer is not null).
    pub sequence: Option<EmbeddedSequence>,
    /// The nine-slice settings (version 3+, when the pointer is not null).
    pub nine_slice: Option<NineSlice>,
}

/// A sequence embedded in a sprite.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EmbeddedSequence {
    /// Record version (1).
    pub version: i32,
    /// The sequence.
    pub sequence: Sequence,
}

/// Whether the special header carries playback speed and type.
fn has_playback(v: &Version) -> bool {
    v.is_gms2()
}

impl Sprite {
    /// Size of one collision mask (`ceil(w/8) × h` bytes) under the file's version, or `None` on
    /// overflow.
    pub fn mask_size(&self, v: &Version) -> Option<usize> {
        mask::mask_size(
            v,
            (self.width, self.height),
            [
                self.margin_left,
                self.margin_right,
                self.margin_bottom,
                self.margin_top,
            ],
        )
    }
}

fn read_sprite(r: &mut Reader, next: usize) -> Result<Sprite> {
    let mut f = r.fields::<56>("sprite")?;
    let mut s = Sprite {
        name: f.string()?,
        width: f.u32(),
        height: f.u32(),
        margin_left: f.i32(),
        margin_right: f.i32(),
        margin_bottom: f.i32(),
        margin_top: f.i32(),
        transparent: f.bool32()?,
        smooth: f.bool32()?,
        preload: f.bool32()?,
        bbox_mode: f.u32(),
        sep_masks: f.u32(),
        origin_x: f.i32(),
        origin_y: f.i32(),
        ..Default::default()
    };
    let at = r.pos();
    if r.i32()? != -1 {
        r.seek(at)?;
        read_normal_body(r, &mut s)?;
        return Ok(s);
    }
    let mut h = SpecialHeader {
        version: r.u32()?,
        sprite_type: r.u32()?,
        ..Default::default()
    };
    if !(1..=3).contains(&h.version) {
        return Err(r.error_at(at + 4, invalid("special sprite version", "1, 2 or 3", h.version)));
    }
    if has_playback(r.version()) {
        h.playback = Some((r.f32()?, r.u32()?));
    }
    let seq_ptr = if h.version >= 2 { r.u32()? } else { 0 };
    let nine_ptr = if h.version >= 3 { r.u32()? } else { 0 };
    // Where the body must end: the first record the header points at, or the next sprite /
    // chunk end (then zero padding may follow the body).
    let record = [seq_ptr, nine_ptr]
        .iter()
        .filter(|&&p| p != 0)
        .map(|&p| p as usize)
        .min();
    let end = record.unwrap_or(next);
    match h.sprite_type {
        0 => read_normal_body(r, &mut s)?,
        1 => s.special_body = Some(Box::new(SpecialBody::Swf(SwfSprite::read(r, end)?))),
        2 => s.special_body = Some(Box::new(SpecialBody::Spine(SpineSprite::read(r)?))),
        3 => s.special_body = Some(Box::new(SpecialBody::Vector(VectorSprite::read(r)?))),
        _ => {
            let start = r.pos();
            if end < start {
                return Err(r.invalid("sprite record pointer", "a position after the body", end));
            }
            s.special_body = Some(Box::new(SpecialBody::Unknown(
                r.bytes(end - start, "special sprite body")?,
            )));
        }
    }
    // The embedded records follow the body in pointer order.
    let mut records = [(seq_ptr, 0u8), (nine_ptr, 1u8)];
    records.sort_by_key(|x| x.0);
    for (p, which) in records {
        if p == 0 {
            continue;
        }
        if p as usize != r.pos() {
            return Err(r.invalid(
                "sprite record pointer",
                format!("the record right after the body ({})", r.pos()),
                p,
            ));
        }
        if which == 0 {
            h.sequence = Some(EmbeddedSequence {
                version: r.i32()?,
                sequence: Sequence::read(r)?,
            });
        } else {
            h.nine_slice = Some(NineSlice::read(r)?);
        }
    }
    s.special = Some(Box::new(h));
    Ok(s)
}

fn read_normal_body(r: &mut Reader, s: &mut Sprite) -> Result<()> {
    s.frames = TexturePageItems::read_refs(r, "sprite frame")?;
    let size = s
        .mask_size(r.version())
        .ok_or_else(|| r.invalid("sprite size", "a mask size that fits in memory", s.width))?;
    s.masks = mask::read_masks(r, size)?;
    Ok(())
}

fn write_sprite(w: &mut Writer, s: &Sprite) -> Result<()> {
    w.string(s.name);
    w.u32(s.width);
    w.u32(s.height);
    w.i32(s.margin_left);
    w.i32(s.margin_right);
    w.i32(s.margin_bottom);
    w.i32(s.margin_top);
    w.bool32(s.transparent);
    w.bool32(s.smooth);
    w.bool32(s.preload);
    w.u32(s.bbox_mode);
    w.u32(s.sep_masks);
    w.i32(s.origin_x);
    w.i32(s.origin_y);
    let Some(h) = &s.special else {
        return write_normal_body(w, s);
    };
    w.i32(-1);
    w.u32(h.version);
    w.u32(h.sprite_type);
    if has_playback(w.version()) {
        let (speed, kind) = h.playback.unwrap_or((1.0, 0));
        w.f32(speed);
        w.u32(kind);
    }
    let seq_slot = (h.version >= 2).then(|| {
        let at = w.pos();
        w.u32(0);
        at
    });
    let nine_slot = (h.version >= 3).then(|| {
        let at = w.pos();
        w.u32(0);
        at
    });
    match &s.special_body {
        None if h.sprite_type == 0 => write_normal_body(w, s)?,
        Some(b) if b.matches(h.sprite_type) => match &**b {
            SpecialBody::Swf(x) => x.write(w)?,
            SpecialBody::Spine(x) => x.write(w)?,
            SpecialBody::Vector(x) => x.write(w)?,
            SpecialBody::Unknown(x) => w.bytes(x),
        },
        _ => {
            return Err(w.unwritable(
                "sprite",
                "the special body must match the sprite type (0 normal: none, 1 SWF, 2 Spine, \
                 3 vector, other: unknown bytes)",
            ));
        }
    }
    if let Some(seq) = &h.sequence {
        let Some(at) = seq_slot else {
            return Err(w.unwritable("sprite", "an embedded sequence needs special version 2+"));
        };
        let p = w.pos32();
        w.patch_u32(at, p);
        w.i32(seq.version);
        seq.sequence.write(w)?;
    }
    if let Some(n) = &h.nine_slice {
        let Some(at) = nine_slot else {
            return Err(w.unwritable("sprite", "a nine-slice needs special version 3"));
        };
        let p = w.pos32();
        w.patch_u32(at, p);
        n.write(w);
    }
    Ok(())
}

fn write_normal_body(w: &mut Writer, s: &Sprite) -> Result<()> {
    w.u32(s.frames.len() as u32);
    for &f in &s.frames {
        TexturePageItems::write_ref(w, f);
    }
    let size = s.mask_size(w.version()).unwrap_or(usize::MAX);
    mask::write_masks(w, &s.masks, size)
}

impl Chunk for Sprites {
    const NAME: ChunkName = ChunkName(*b"SPRT");

    fn read(r: &mut Reader) -> Result<Self> {
        let ptrs = r.pointers("sprite")?;
        let mut sprites = Vec::with_capacity(ptrs.len());
        let mut rest = ptrs.clone();
        for (i, p) in ptrs.enumerate() {
            rest.next();
            if p == 0 {
                sprites.push(None);
                continue;
            }
            let prev = r.set_element("sprite", i);
            r.align(4)?;
            r.expect_element_at(p, "sprite pointer")?;
            let next = rest
                .clone()
                .find(|&q| q != 0)
                .map_or(r.chunk_end(), |q| q as usize);
            sprites.push(Some(read_sprite(r, next)?));
            r.restore_element(prev);
        }
        Ok(Sprites { sprites })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.pointer_list(&self.sprites, |w| w.align(4), write_sprite)
    }

    fn is_opaque(&self) -> bool {
        self.sprites
            .iter()
            .flatten()
            .any(|s| s.special_body.as_deref().is_some_and(SpecialBody::is_opaque))
    }
}

/// SPRT layout checks (§1.3): 2.3.2 (special version 3), 2024.6 (bbox-sized masks), 2024.14
/// (vector sprite version 4).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    let Some((start, end)) = d.chunk(b"SPRT") else {
        return;
    };
    let Some(n) = d.count(start, 4, end) else {
        return;
    };
    let gms2 = v.is_gms2();
    let mut mask_checked = false;
    for i in 0..n {
        let Some(p) = d.u32(start + 4 + 4 * i) else {
            return;
        };
        let p = p as usize;
        if p == 0 {
            continue;
        }
        let next = (i + 1..n)
            .filter_map(|j| d.u32(start + 4 + 4 * j))
            .find(|&q| q != 0)
            .map_or(end, |q| q as usize);
        let Some(info) = sprite_info(d, p, gms2) else {
            continue;
        };
        if info.special_version >= 3 && gms2 {
            v.raise(FormatVersion::new(2, 3, 2, 0));
        }
        if info.sprite_type == 3
            && v.at_least(2024, 13)
            && d.i32(info.body) == Some(4)
        {
            v.raise(FormatVersion::new(2024, 14, 0, 0));
        }
        if info.sprite_type == 0
            && !mask_checked
            && v.non_lts_at_least(2023, 2)
            && !v.at_least(2024, 6)
            && let Some(bbox) = mask::uses_bbox_masks(d, &info, next) {
                mask_checked = true;
                if bbox {
                    v.raise(FormatVersion::new(2024, 6, 0, 0));
                }
            }
    }
}

/// Offsets of a sprite's parts, for the version checks.
pub(crate) struct SpriteInfo {
    width: u32,
    height: u32,
    margins: [i32; 4],
    special_version: u32,
    sprite_type: u32,
    /// Start of the type-specific body.
    body: usize,
    /// First embedded-record pointer (sequence or nine-slice), 0 if none.
    first_record: usize,
}

fn sprite_info(d: &Detect, p: usize, gms2: bool) -> Option<SpriteInfo> {
    let mut info = SpriteInfo {
        width: d.u32(p + 4)?,
        height: d.u32(p + 8)?,
        margins: [d.i32(p + 12)?, d.i32(p + 16)?, d.i32(p + 20)?, d.i32(p + 24)?],
        special_version: 0,
        sprite_type: 0,
        body: p + 56,
        first_record: 0,
    };
    if d.i32(p + 56)? == -1 {
        info.special_version = d.u32(p + 60)?;
        info.sprite_type = d.u32(p + 64)?;
        let mut q = p + 68 + if gms2 { 8 } else { 0 };
        let mut recs = [0usize; 2];
        if info.special_version >= 2 {
            recs[0] = d.u32(q)? as usize;
            q += 4;
        }
        if info.special_version >= 3 {
            recs[1] = d.u32(q)? as usize;
            q += 4;
        }
        info.first_record = recs.into_iter().filter(|&x| x != 0).min().unwrap_or(0);
        info.body = q;
    }
    Some(info)
}
