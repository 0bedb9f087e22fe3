//! Room instances and legacy tiles (the fixed-size records of a room and of asset layers).

use crate::chunks::background::Background;
use crate::chunks::code::CodeEntry;
use crate::chunks::sprite::Sprite;
use crate::chunks::object::Object;
use crate::error::Result;
use crate::read::Reader;
use crate::refs::AssetRef;
use crate::version::Version;
use crate::write::Writer;

/// An instance of an object placed in a room.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Instance {
    /// X position.
    pub x: i32,
    /// Y position.
    pub y: i32,
    /// The object (stored -1 = none).
    pub object: AssetRef<Object>,
    /// Instance id (unique in the game; layers refer to instances by it).
    pub instance_id: u32,
    /// Creation code (stored CODE entry id, -1 = none).
    pub creation_code: AssetRef<CodeEntry>,
    /// Horizontal scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_x: f32,
    /// Vertical scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_y: f32,
    /// Image speed and image index (2.2.2.302+; `None` before).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub image: Option<(f32, i32)>,
    /// Blend colour (ABGR).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub colour: u32,
    /// Rotation in degrees.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub rotation: f32,
    /// Pre-create code (CODE entry id, -1 = none; bytecode 16+, `None` before).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::serde_names::optional"
        )
    )]
    pub pre_create_code: Option<AssetRef<CodeEntry>>,
}

/// Whether instances carry image speed and index (2.2.2.302+).
pub(crate) fn has_image_fields(v: &Version) -> bool {
    v.at_least_full(2, 2, 2, 302)
}

/// Whether instances carry a pre-create code id (bytecode 16+).
pub(crate) fn has_pre_create(v: &Version) -> bool {
    v.bytecode >= 16
}

impl Instance {
    /// Reads one instance.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        // One record read per layout: 36 bytes, + 8 with the image fields, + 4 with the
        // pre-create code.
        let v = r.version();
        match (has_image_fields(v), has_pre_create(v)) {
            (false, false) => Self::read_layout::<36>(r),
            (false, true) => Self::read_layout::<40>(r),
            (true, false) => Self::read_layout::<44>(r),
            (true, true) => Self::read_layout::<48>(r),
        }
    }

    /// Reads one instance of the `N`-byte layout (see [`Instance::read`]).
    #[inline(always)]
    fn read_layout<const N: usize>(r: &mut Reader) -> Result<Self> {
        let (image, pre_create) = (N >= 44, N.is_multiple_of(8));
        let mut f = r.fields::<N>("room instance")?;
        let x = f.i32();
        let y = f.i32();
        let at = f.pos();
        let object = f.i32();
        if object < -1 {
            return Err(bad_object(f.reader(), at, object));
        }
        Ok(Instance {
            x,
            y,
            object: AssetRef::from_stored(object, -1),
            instance_id: f.u32(),
            creation_code: AssetRef::from_stored(f.i32(), -1),
            scale_x: f.f32(),
            scale_y: f.f32(),
            image: if image {
                Some((f.f32(), f.i32()))
            } else {
                None
            },
            colour: f.u32(),
            rotation: f.f32(),
            pre_create_code: if pre_create {
                Some(AssetRef::from_stored(f.i32(), -1))
            } else {
                None
            },
        })
    }

    /// Writes the instance (the layout [`Instance::read`] reads).
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        w.i32(self.x);
        w.i32(self.y);
        w.i32(self.object.to_stored(-1));
        w.u32(self.instance_id);
        w.i32(self.creation_code.to_stored(-1));
        w.f32(self.scale_x);
        w.f32(self.scale_y);
        if has_image_fields(w.version()) {
            let (speed, index) = self.image.unwrap_or((1.0, 0));
            w.f32(speed);
            w.i32(index);
        }
        w.u32(self.colour);
        w.f32(self.rotation);
        if has_pre_create(w.version()) {
            w.i32(self.pre_create_code.unwrap_or_default().to_stored(-1));
        }
        Ok(())
    }
}

/// The error for an instance's object id below -1.
#[cold]
#[inline(never)]
fn bad_object(r: &Reader, at: usize, object: i32) -> crate::error::Error {
    r.error_at(
        at,
        crate::error::invalid("instance object id", "an object index or -1", object),
    )
}

/// What a legacy tile's image is cut from: a background before GameMaker Studio 2, a sprite
/// from it on ([`TileSource::for_version`]). Stored as one `i32`, -1 for none.
///
/// In the serde form the variant is the key, flattened into the tile:
/// `"background": "bg_tiles"` or `"sprite": "spr_wall"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TileSource {
    /// A background (BGND), before GameMaker Studio 2.
    Background(AssetRef<Background>),
    /// A sprite (SPRT), GameMaker Studio 2 and later.
    Sprite(AssetRef<Sprite>),
}

impl Default for TileSource {
    fn default() -> Self {
        TileSource::Background(AssetRef::NONE)
    }
}

impl TileSource {
    /// Whether tiles of version `v` are cut from sprites (else from backgrounds).
    pub fn is_sprite(v: &Version) -> bool {
        v.is_gms2()
    }

    /// The source a stored value denotes in a file of version `v` (-1: none).
    pub fn for_version(v: &Version, stored: i32) -> Self {
        if Self::is_sprite(v) {
            TileSource::Sprite(AssetRef::from_stored(stored, -1))
        } else {
            TileSource::Background(AssetRef::from_stored(stored, -1))
        }
    }

    /// The stored value (-1: none).
    pub fn to_stored(self) -> i32 {
        match self {
            TileSource::Background(r) => r.to_stored(-1),
            TileSource::Sprite(r) => r.to_stored(-1),
        }
    }

    /// The index referred to (of a background or a sprite, see the variant), if any.
    pub fn index(self) -> Option<usize> {
        match self {
            TileSource::Background(r) => r.index(),
            TileSource::Sprite(r) => r.index(),
        }
    }
}

/// A legacy tile: a rectangle of a background (GMS1) or sprite (GMS2) placed in a room or an
/// asset layer.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tile {
    /// X position.
    pub x: i32,
    /// Y position.
    pub y: i32,
    /// The background (GMS1) or sprite (GMS2) the tile is cut from.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub source: TileSource,
    /// Source rectangle X.
    pub source_x: i32,
    /// Source rectangle Y.
    pub source_y: i32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Depth.
    pub depth: i32,
    /// Tile instance id.
    pub instance_id: u32,
    /// Horizontal scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_x: f32,
    /// Vertical scale.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale_y: f32,
    /// Blend colour.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub colour: u32,
}

impl Tile {
    /// Reads one tile.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let sprite = TileSource::is_sprite(r.version());
        let mut f = r.fields::<48>("tile")?;
        let pick = |v: i32| {
            if sprite {
                TileSource::Sprite(AssetRef::from_stored(v, -1))
            } else {
                TileSource::Background(AssetRef::from_stored(v, -1))
            }
        };
        Ok(Tile {
            x: f.i32(),
            y: f.i32(),
            source: pick(f.i32()),
            source_x: f.i32(),
            source_y: f.i32(),
            width: f.u32(),
            height: f.u32(),
            depth: f.i32(),
            instance_id: f.u32(),
            scale_x: f.f32(),
            scale_y: f.f32(),
            colour: f.u32(),
        })
    }

    /// Writes the tile.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        w.i32(self.x);
        w.i32(self.y);
        w.i32(self.source.to_stored());
        w.i32(self.source_x);
        w.i32(self.source_y);
        w.u32(self.width);
        w.u32(self.height);
        w.i32(self.depth);
        w.u32(self.instance_id);
        w.f32(self.scale_x);
        w.f32(self.scale_y);
        w.u32(self.colour);
        Ok(())
    }
}
