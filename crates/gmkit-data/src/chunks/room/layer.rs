//! Room layers (GMS2+): a common header, then data by layer type.
//!
//! Header: name; u32 id; u32 type (0 path before 2024.13, 1 background, 2 instances, 3 assets,
//! 4 tiles, 6 effect, 7 path from 2024.13); i32 depth; f32 X/Y offset; f32 H/V speed; bool32
//! visible; [2022.1] bool32 effect enabled, effect type string, effect properties.

use super::assets::AssetLayer;
use super::tiles::TileLayer;
use crate::error::Result;
use crate::read::Reader;
use crate::refs::{AssetRef, StringRef};
use crate::version::Version;
use crate::write::Writer;

/// A room layer.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Layer {
    /// Layer name.
    pub name: StringRef,
    /// Layer id.
    pub id: u32,
    /// Depth.
    pub depth: i32,
    /// X offset.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub x_offset: f32,
    /// Y offset.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub y_offset: f32,
    /// Horizontal scroll speed.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub h_speed: f32,
    /// Vertical scroll speed.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub v_speed: f32,
    /// Whether the layer is visible.
    pub visible: bool,
    /// The layer's filter/effect settings (2022.1+: every layer has them; `None` before).
    pub effect: Option<LayerEffect>,
    /// Type-specific data.
    pub data: LayerData,
}

/// A layer's effect settings.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LayerEffect {
    /// Whether the effect is enabled (2022.1+ header field; always true for pre-2022.1 effect
    /// layers, which have no such field).
    pub enabled: bool,
    /// Effect type name (none when the layer has no effect).
    pub effect_type: Option<StringRef>,
    /// Effect parameters.
    pub properties: Vec<EffectProperty>,
}

/// One effect parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EffectProperty {
    /// Parameter kind (0 real, 1 colour, 2 sampler).
    pub kind: i32,
    /// Parameter name.
    pub name: StringRef,
    /// Value as text.
    pub value: Option<StringRef>,
}

/// Type-specific layer data.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LayerData {
    /// A path layer (type 0 before 2024.13, 7 since; no data).
    Path,
    /// A background layer (type 1).
    Background(BackgroundLayer),
    /// An instance layer (type 2): the instance ids of the room instances on it.
    Instances(Vec<u32>),
    /// An asset layer (type 3).
    Assets(AssetLayer),
    /// A tile layer (type 4).
    Tiles(TileLayer),
    /// An effect layer (type 6). Before 2022.1 it carries its effect here; since, the effect
    /// is in [`Layer::effect`] and this is `None`.
    Effect(Option<LayerEffect>),
}

impl Default for LayerData {
    fn default() -> Self {
        LayerData::Instances(Vec::new())
    }
}

/// A background layer's data.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BackgroundLayer {
    /// Whether the background is visible.
    pub visible: bool,
    /// Whether it is drawn in front.
    pub foreground: bool,
    /// Sprite id (-1 = none).
    pub sprite: AssetRef<crate::chunks::sprite::Sprite>,
    /// Tiled horizontally.
    pub tiled_h: bool,
    /// Tiled vertically.
    pub tiled_v: bool,
    /// Stretched to the room.
    pub stretch: bool,
    /// Colour.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub colour: u32,
    /// First frame.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub first_frame: f32,
    /// Animation speed.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub animation_speed: f32,
    /// Animation speed type.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::speed_type"))]
    pub speed_type: u32,
}

/// Whether every layer carries effect fields in its header (2022.1+).
pub(crate) fn has_header_effect(v: &Version) -> bool {
    v.at_least(2022, 1)
}

/// The type number of path layers (0 before 2024.13, 7 since).
pub(crate) fn path_layer_type(v: &Version) -> u32 {
    if v.at_least(2024, 13) { 7 } else { 0 }
}

fn read_effect_properties(r: &mut Reader) -> Result<Vec<EffectProperty>> {
    let n = r.count("effect property", 12)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut f = r.fields::<12>("effect property")?;
        out.push(EffectProperty {
            kind: f.i32(),
            name: f.string()?,
            value: f.string_opt()?,
        });
    }
    Ok(out)
}

impl BackgroundLayer {
    /// Reads a background layer's data (40 bytes).
    fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<40>("background layer")?;
        Ok(BackgroundLayer {
            visible: f.bool32()?,
            foreground: f.bool32()?,
            sprite: AssetRef::from_stored(f.i32(), -1),
            tiled_h: f.bool32()?,
            tiled_v: f.bool32()?,
            stretch: f.bool32()?,
            colour: f.u32(),
            first_frame: f.f32(),
            animation_speed: f.f32(),
            speed_type: f.u32(),
        })
    }

    /// Writes a background layer's data.
    fn write(&self, w: &mut Writer) {
        w.bool32(self.visible);
        w.bool32(self.foreground);
        w.i32(self.sprite.to_stored(-1));
        w.bool32(self.tiled_h);
        w.bool32(self.tiled_v);
        w.bool32(self.stretch);
        w.u32(self.colour);
        w.f32(self.first_frame);
        w.f32(self.animation_speed);
        w.u32(self.speed_type);
    }
}

fn write_effect_properties(w: &mut Writer, props: &[EffectProperty]) {
    w.u32(props.len() as u32);
    for p in props {
        w.i32(p.kind);
        w.string(p.name);
        w.string_opt(p.value);
    }
}

impl Layer {
    /// Reads a layer.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let mut f = r.fields::<36>("layer")?;
        let name = f.string()?;
        let id = f.u32();
        let type_at = f.pos();
        let kind = f.u32();
        let depth = f.i32();
        let x_offset = f.f32();
        let y_offset = f.f32();
        let h_speed = f.f32();
        let v_speed = f.f32();
        let visible = f.bool32()?;
        let effect = if has_header_effect(&v) {
            Some(LayerEffect {
                enabled: r.bool32()?,
                effect_type: r.string_opt()?,
                properties: read_effect_properties(r)?,
            })
        } else {
            None
        };
        let data = match kind {
            0 | 7 => {
                if kind != path_layer_type(&v) {
                    return Err(r.error_at(
                        type_at,
                        crate::error::invalid("path layer type", path_layer_type(&v), kind),
                    ));
                }
                LayerData::Path
            }
            1 => LayerData::Background(BackgroundLayer::read(r)?),
            2 => LayerData::Instances(r.pointers("layer instance")?.collect()),
            3 => LayerData::Assets(AssetLayer::read(r)?),
            4 => LayerData::Tiles(TileLayer::read(r)?),
            6 => LayerData::Effect(if has_header_effect(&v) {
                None
            } else {
                Some(LayerEffect {
                    enabled: true,
                    effect_type: r.string_opt()?,
                    properties: read_effect_properties(r)?,
                })
            }),
            k => {
                return Err(r.error_at(
                    type_at,
                    crate::error::invalid("layer type", "0, 1, 2, 3, 4, 6 or 7", k),
                ));
            }
        };
        Ok(Layer {
            name,
            id,
            depth,
            x_offset,
            y_offset,
            h_speed,
            v_speed,
            visible,
            effect,
            data,
        })
    }

    /// Writes a layer.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        w.string(self.name);
        w.u32(self.id);
        w.u32(match self.data {
            LayerData::Path => path_layer_type(&v),
            LayerData::Background(_) => 1,
            LayerData::Instances(_) => 2,
            LayerData::Assets(_) => 3,
            LayerData::Tiles(_) => 4,
            LayerData::Effect(_) => 6,
        });
        w.i32(self.depth);
        w.f32(self.x_offset);
        w.f32(self.y_offset);
        w.f32(self.h_speed);
        w.f32(self.v_speed);
        w.bool32(self.visible);
        if has_header_effect(&v) {
            let e = self.effect.clone().unwrap_or_default();
            w.bool32(e.enabled);
            w.string_opt(e.effect_type);
            write_effect_properties(w, &e.properties);
        }
        match &self.data {
            LayerData::Path => {}
            LayerData::Background(b) => b.write(w),
            LayerData::Instances(ids) => {
                w.u32(ids.len() as u32);
                for &id in ids {
                    w.u32(id);
                }
            }
            LayerData::Assets(a) => a.write(w)?,
            LayerData::Tiles(t) => t.write(w)?,
            LayerData::Effect(e) => {
                if !has_header_effect(&v) {
                    let e = e.clone().unwrap_or_default();
                    w.string_opt(e.effect_type);
                    write_effect_properties(w, &e.properties);
                }
            }
        }
        Ok(())
    }
}
