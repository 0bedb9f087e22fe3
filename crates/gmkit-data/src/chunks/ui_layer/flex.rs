//! Flexbox settings of UI nodes: the container settings of layers and flex panels, the size and
//! position of flex panels, and the placement of the items (instances) inside them.
//!
//! Layouts (public notes, checked against the corpus): a value is `f32` value + `i32` unit.
//! Container settings (64 bytes): `i32` align items, flex direction, flex wrap, align content;
//! `f32` row gap, column gap; values padding left, right, top, bottom; `i32` justify content,
//! layout direction. Item settings (28 bytes): bool32 visible; `i32` anchor; bool32 stretch
//! width, stretch height, tile horizontally, tile vertically, keep aspect.

use crate::error::Result;
use crate::read::Reader;
use crate::write::Writer;

/// A flexbox length: a number and its unit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlexValue {
    /// The number.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub value: f32,
    /// Its unit (by the public notes: 0 undefined, 1 points, 2 percent, 3 auto; the corpus also
    /// has sizes in unit 3 with a value, so the number is kept whatever the unit).
    pub unit: i32,
}

/// How a layer or flex panel lays out its children.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlexContainer {
    /// Align items (0 auto, 1 flex start, 2 center, 3 flex end, 4 stretch, 5 baseline, 6 space
    /// between, 7 space around, 8 space evenly).
    pub align_items: i32,
    /// Flex direction (0 column, 1 column reverse, 2 row, 3 row reverse).
    pub flex_direction: i32,
    /// Flex wrap (0 no wrap, 1 wrap, 2 wrap reverse).
    pub flex_wrap: i32,
    /// Align content (as [`FlexContainer::align_items`]).
    pub align_content: i32,
    /// Gap between rows.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub gap_row: f32,
    /// Gap between columns.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub gap_column: f32,
    /// Padding: left.
    pub padding_left: FlexValue,
    /// Padding: right.
    pub padding_right: FlexValue,
    /// Padding: top.
    pub padding_top: FlexValue,
    /// Padding: bottom.
    pub padding_bottom: FlexValue,
    /// Justify content (0 flex start, 1 center, 2 flex end, 3 space between, 4 space around,
    /// 5 space evenly).
    pub justify_content: i32,
    /// Layout direction (0 inherit, 1 left to right, 2 right to left).
    pub layout_direction: i32,
}

/// How an item (object, sequence, sprite or text instance) sits in its flex panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlexItem {
    /// Whether the item is visible.
    pub visible: bool,
    /// Anchor point.
    pub anchor: i32,
    /// Stretched to the panel's width.
    pub stretch_width: bool,
    /// Stretched to the panel's height.
    pub stretch_height: bool,
    /// Tiled horizontally.
    pub tile_h: bool,
    /// Tiled vertically.
    pub tile_v: bool,
    /// Keeps its aspect ratio.
    pub keep_aspect: bool,
}

impl FlexValue {
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        Ok(FlexValue {
            value: r.f32()?,
            unit: r.i32()?,
        })
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.f32(self.value);
        w.i32(self.unit);
    }
}

impl FlexContainer {
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        Ok(FlexContainer {
            align_items: r.i32()?,
            flex_direction: r.i32()?,
            flex_wrap: r.i32()?,
            align_content: r.i32()?,
            gap_row: r.f32()?,
            gap_column: r.f32()?,
            padding_left: FlexValue::read(r)?,
            padding_right: FlexValue::read(r)?,
            padding_top: FlexValue::read(r)?,
            padding_bottom: FlexValue::read(r)?,
            justify_content: r.i32()?,
            layout_direction: r.i32()?,
        })
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.i32(self.align_items);
        w.i32(self.flex_direction);
        w.i32(self.flex_wrap);
        w.i32(self.align_content);
        w.f32(self.gap_row);
        w.f32(self.gap_column);
        for v in [
            self.padding_left,
            self.padding_right,
            self.padding_top,
            self.padding_bottom,
        ] {
            v.write(w);
        }
        w.i32(self.justify_content);
        w.i32(self.layout_direction);
    }
}

impl FlexItem {
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        Ok(FlexItem {
            visible: r.bool32()?,
            anchor: r.i32()?,
            stretch_width: r.bool32()?,
            stretch_height: r.bool32()?,
            tile_h: r.bool32()?,
            tile_v: r.bool32()?,
            keep_aspect: r.bool32()?,
        })
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.bool32(self.visible);
        w.i32(self.anchor);
        w.bool32(self.stretch_width);
        w.bool32(self.stretch_height);
        w.bool32(self.tile_h);
        w.bool32(self.tile_v);
        w.bool32(self.keep_aspect);
    }
}
