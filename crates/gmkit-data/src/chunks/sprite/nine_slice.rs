//! Nine-slice settings of a sprite (special version 3): `i32` left, top, right, bottom, bool32
//! enabled, five `i32` tile modes.

use crate::error::Result;
use crate::read::Reader;
use crate::write::Writer;

/// How a sprite is stretched in nine slices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NineSlice {
    /// Slice left edge.
    pub left: i32,
    /// Slice top edge.
    pub top: i32,
    /// Slice right edge.
    pub right: i32,
    /// Slice bottom edge.
    pub bottom: i32,
    /// Whether nine-slicing is enabled.
    pub enabled: bool,
    /// Tile mode of each part (left, top, right, bottom, centre).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::tile_mode::list"))]
    pub tile_modes: [i32; 5],
}

impl NineSlice {
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let mut n = NineSlice {
            left: r.i32()?,
            top: r.i32()?,
            right: r.i32()?,
            bottom: r.i32()?,
            enabled: r.bool32()?,
            tile_modes: [0; 5],
        };
        for m in &mut n.tile_modes {
            *m = r.i32()?;
        }
        Ok(n)
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.i32(self.left);
        w.i32(self.top);
        w.i32(self.right);
        w.i32(self.bottom);
        w.bool32(self.enabled);
        for &m in &self.tile_modes {
            w.i32(m);
        }
    }
}
