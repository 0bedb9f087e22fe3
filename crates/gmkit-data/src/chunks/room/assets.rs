//! Asset layers: legacy tiles, sprite instances, sequence instances, nine-slices (2.3 to
//! 2.3.2), particle-system instances (2023.2, non-LTS) and text items (2024.6).
//!
//! Layout: one pointer per present list, then the lists (pointer lists) in the same order.

use super::instance::Tile;
use crate::error::Result;
use crate::read::Reader;
use crate::chunks::sequence::Sequence;
use crate::chunks::sprite::Sprite;
use crate::refs::{AssetRef, StringRef};
use crate::version::Version;
use crate::write::Writer;

/// The contents of an asset layer. Version-dependent lists are `None` when the file's version
/// does not have them.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AssetLayer {
    /// Legacy tiles.
    pub legacy_tiles: Vec<Tile>,
    /// Sprite instances.
    pub sprites: Vec<SpriteInstance>,
    /// Sequence instances (2.3+).
    pub sequences: Option<Vec<SequenceInstance>>,
    /// Nine-slice sprite instances (2.3 up to 2.3.2 only).
    pub nine_slices: Option<Vec<SpriteInstance>>,
    /// Particle-system instances (2023.2+, not in LTS).
    pub particle_systems: Option<Vec<ParticleSystemInstance>>,
    /// Text items (2024.6+).
    pub text_items: Option<Vec<TextItem>>,
}

/// A sprite (`T` = [`Sprite`]; also a nine-slice) or a sequence (`T` = [`Sequence`], see
/// [`SequenceInstance`]) placed on an asset layer: the two share one record.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "T: crate::refs::Target",
        deserialize = "T: crate::refs::Target"
    ))
)]
pub struct SpriteInstance<T = Sprite> {
    /// Instance name.
    pub name: StringRef,
    /// The sprite (or sequence) placed.
    pub asset: AssetRef<T>,
    /// X position.
    pub x: i32,
    /// Y position.
    pub y: i32,
    /// Horizontal scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_x: f32,
    /// Vertical scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_y: f32,
    /// Blend colour.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub colour: u32,
    /// Animation speed.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub animation_speed: f32,
    /// Animation speed type (0 frames per second, 1 frames per game frame).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::speed_type"))]
    pub speed_type: u32,
    /// Frame index.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub frame_index: f32,
    /// Rotation in degrees.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub rotation: f32,
}

/// A particle system placed on an asset layer (2023.2+).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParticleSystemInstance {
    /// Instance name.
    pub name: StringRef,
    /// Instance id (2024.14+).
    pub instance_id: Option<i32>,
    /// Particle system id (PSYS index).
    pub system: AssetRef<crate::chunks::particle_system::ParticleSystem>,
    /// X position.
    pub x: i32,
    /// Y position.
    pub y: i32,
    /// Horizontal scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_x: f32,
    /// Vertical scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_y: f32,
    /// Blend colour.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub colour: u32,
    /// Rotation in degrees.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub rotation: f32,
}

/// A text item placed on an asset layer (2024.6+).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TextItem {
    /// Item name.
    pub name: StringRef,
    /// X position.
    pub x: i32,
    /// Y position.
    pub y: i32,
    /// Font id (FONT index).
    pub font: AssetRef<crate::chunks::font::Font>,
    /// Horizontal scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_x: f32,
    /// Vertical scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_y: f32,
    /// Rotation in degrees.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub rotation: f32,
    /// Blend colour.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub colour: u32,
    /// Origin X.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub origin_x: f32,
    /// Origin Y.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub origin_y: f32,
    /// The text.
    pub text: Option<StringRef>,
    /// Alignment.
    pub alignment: i32,
    /// Character spacing.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub char_spacing: f32,
    /// Line spacing.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub line_spacing: f32,
    /// Paragraph spacing (2024.14+).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub paragraph_spacing: Option<f32>,
    /// Frame width.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub frame_width: f32,
    /// Frame height.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub frame_height: f32,
    /// Whether the text wraps.
    pub wrap: bool,
    /// Wrap mode and origin mode (2024.14+).
    pub wrap_mode_origin: Option<(i32, i32)>,
}

/// Whether asset layers list sequence instances (2.3+).
pub(crate) fn has_sequences(v: &Version) -> bool {
    v.at_least(2, 3)
}
/// Whether asset layers list nine-slices (2.3 up to, not including, 2.3.2).
pub(crate) fn has_nine_slices(v: &Version) -> bool {
    v.at_least(2, 3) && !v.at_least_full(2, 3, 2, 0)
}
/// Whether asset layers list particle systems (2023.2+, not LTS).
pub(crate) fn has_particle_systems(v: &Version) -> bool {
    v.non_lts_at_least(2023, 2)
}
/// Whether asset layers list text items (2024.6+).
pub(crate) fn has_text_items(v: &Version) -> bool {
    v.at_least(2024, 6)
}
/// Whether particle-system instances and text items carry the 2024.14 fields.
pub(crate) fn has_2024_14_fields(v: &Version) -> bool {
    v.at_least(2024, 14)
}

/// Number of list pointers at the start of an asset layer's data.
pub(crate) fn pointer_count(v: &Version) -> usize {
    2 + has_sequences(v) as usize
        + has_nine_slices(v) as usize
        + has_particle_systems(v) as usize
        + has_text_items(v) as usize
}

/// A sequence placed on an asset layer (or a UI layer): the sprite instance record.
pub type SequenceInstance = SpriteInstance<Sequence>;

impl<T> Default for SpriteInstance<T> {
    fn default() -> Self {
        SpriteInstance {
            name: StringRef::default(),
            asset: AssetRef::NONE,
            x: 0,
            y: 0,
            scale_x: 0.0,
            scale_y: 0.0,
            colour: 0,
            animation_speed: 0.0,
            speed_type: 0,
            frame_index: 0.0,
            rotation: 0.0,
        }
    }
}

impl<T> SpriteInstance<T> {
    /// Reads one record.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<44>("sprite instance")?;
        Ok(SpriteInstance {
            name: f.string()?,
            asset: AssetRef::from_stored(f.i32(), -1),
            x: f.i32(),
            y: f.i32(),
            scale_x: f.f32(),
            scale_y: f.f32(),
            colour: f.u32(),
            animation_speed: f.f32(),
            speed_type: f.u32(),
            frame_index: f.f32(),
            rotation: f.f32(),
        })
    }

    /// Writes the record.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.name);
        w.i32(self.asset.to_stored(-1));
        w.i32(self.x);
        w.i32(self.y);
        w.f32(self.scale_x);
        w.f32(self.scale_y);
        w.u32(self.colour);
        w.f32(self.animation_speed);
        w.u32(self.speed_type);
        w.f32(self.frame_index);
        w.f32(self.rotation);
        Ok(())
    }
}

impl ParticleSystemInstance {
    fn read(r: &mut Reader) -> Result<Self> {
        Ok(ParticleSystemInstance {
            name: r.string()?,
            instance_id: if has_2024_14_fields(r.version()) {
                Some(r.i32()?)
            } else {
                None
            },
            system: AssetRef::from_stored(r.i32()?, -1),
            x: r.i32()?,
            y: r.i32()?,
            scale_x: r.f32()?,
            scale_y: r.f32()?,
            colour: r.u32()?,
            rotation: r.f32()?,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.name);
        if has_2024_14_fields(w.version()) {
            w.i32(self.instance_id.unwrap_or(-1));
        }
        w.i32(self.system.to_stored(-1));
        w.i32(self.x);
        w.i32(self.y);
        w.f32(self.scale_x);
        w.f32(self.scale_y);
        w.u32(self.colour);
        w.f32(self.rotation);
        Ok(())
    }
}

impl TextItem {
    /// Reads one record.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let new = has_2024_14_fields(r.version());
        Ok(TextItem {
            name: r.string()?,
            x: r.i32()?,
            y: r.i32()?,
            font: AssetRef::from_stored(r.i32()?, -1),
            scale_x: r.f32()?,
            scale_y: r.f32()?,
            rotation: r.f32()?,
            colour: r.u32()?,
            origin_x: r.f32()?,
            origin_y: r.f32()?,
            text: r.string_opt()?,
            alignment: r.i32()?,
            char_spacing: r.f32()?,
            line_spacing: r.f32()?,
            paragraph_spacing: if new { Some(r.f32()?) } else { None },
            frame_width: r.f32()?,
            frame_height: r.f32()?,
            wrap: r.bool32()?,
            wrap_mode_origin: if new {
                Some((r.i32()?, r.i32()?))
            } else {
                None
            },
        })
    }

    /// Writes the record.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        let new = has_2024_14_fields(w.version());
        w.string(self.name);
        w.i32(self.x);
        w.i32(self.y);
        w.i32(self.font.to_stored(-1));
        w.f32(self.scale_x);
        w.f32(self.scale_y);
        w.f32(self.rotation);
        w.u32(self.colour);
        w.f32(self.origin_x);
        w.f32(self.origin_y);
        w.string_opt(self.text);
        w.i32(self.alignment);
        w.f32(self.char_spacing);
        w.f32(self.line_spacing);
        if new {
            w.f32(self.paragraph_spacing.unwrap_or(0.0));
        }
        w.f32(self.frame_width);
        w.f32(self.frame_height);
        w.bool32(self.wrap);
        if new {
            let (mode, origin) = self.wrap_mode_origin.unwrap_or((0, 0));
            w.i32(mode);
            w.i32(origin);
        }
        Ok(())
    }
}

/// Follows the `i`-th list pointer of the block and reads the pointer list there.
fn list_at<T>(
    r: &mut Reader,
    ptrs: &[u32; 6],
    i: &mut usize,
    what: &'static str,
    read: impl FnMut(&mut Reader) -> Result<T>,
) -> Result<Vec<T>> {
    let p = ptrs.get(*i).copied().unwrap_or(0);
    *i += 1;
    r.seek(p as usize)?;
    r.pointer_list_required(what, read)
}

impl AssetLayer {
    /// Reads an asset layer's data.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let n = pointer_count(&v);
        let mut ptrs = [0u32; 6];
        for p in &mut ptrs[..n] {
            *p = r.u32()?;
        }
        let mut i = 0;
        Ok(AssetLayer {
            legacy_tiles: list_at(r, &ptrs, &mut i, "legacy tile", Tile::read)?,
            sprites: list_at(r, &ptrs, &mut i, "sprite instance", SpriteInstance::read)?,
            sequences: if has_sequences(&v) {
                Some(list_at(
                    r,
                    &ptrs,
                    &mut i,
                    "sequence instance",
                    SpriteInstance::read,
                )?)
            } else {
                None
            },
            nine_slices: if has_nine_slices(&v) {
                Some(list_at(
                    r,
                    &ptrs,
                    &mut i,
                    "nine-slice",
                    SpriteInstance::read,
                )?)
            } else {
                None
            },
            particle_systems: if has_particle_systems(&v) {
                Some(list_at(
                    r,
                    &ptrs,
                    &mut i,
                    "particle system instance",
                    ParticleSystemInstance::read,
                )?)
            } else {
                None
            },
            text_items: if has_text_items(&v) {
                Some(list_at(r, &ptrs, &mut i, "text item", TextItem::read)?)
            } else {
                None
            },
        })
    }

    /// Writes an asset layer's data.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        let n = pointer_count(&v);
        let block = w.pos();
        w.zeros(4 * n);
        let mut i = 0;
        let mut next = |w: &mut Writer| {
            let p = w.pos32();
            w.patch_u32(block + 4 * i, p);
            i += 1;
        };
        next(w);
        w.pointer_list_required(&self.legacy_tiles, |w, t| t.write(w))?;
        next(w);
        w.pointer_list_required(&self.sprites, |w, s| s.write(w))?;
        let empty_sprites = Vec::new();
        if has_sequences(&v) {
            next(w);
            let empty = Vec::new();
            let l = self.sequences.as_ref().unwrap_or(&empty);
            w.pointer_list_required(l, |w, s| s.write(w))?;
        }
        if has_nine_slices(&v) {
            next(w);
            let l = self.nine_slices.as_ref().unwrap_or(&empty_sprites);
            w.pointer_list_required(l, |w, s| s.write(w))?;
        }
        if has_particle_systems(&v) {
            next(w);
            let empty = Vec::new();
            let l = self.particle_systems.as_ref().unwrap_or(&empty);
            w.pointer_list_required(l, |w, s| s.write(w))?;
        }
        if has_text_items(&v) {
            next(w);
            let empty = Vec::new();
            let l = self.text_items.as_ref().unwrap_or(&empty);
            w.pointer_list_required(l, |w, s| s.write(w))?;
        }
        Ok(())
    }
}
