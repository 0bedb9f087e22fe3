//! `ROOM`: rooms, with their backgrounds, views, instances, legacy tiles, layers (GMS2) and
//! sequences (2.3).
//!
//! Room: name; caption; u32 width, height, speed; bool32 persistent; u32 background colour;
//! bool32 draw background colour; i32 creation code id; u32 flags; pointers to the backgrounds,
//! views, instances and legacy tiles lists; [2024.13] pointer to the instance creation order
//! list; bool32 world; u32 top, left, right, bottom; f32 gravity X, Y; f32 meters per pixel;
//! \[GMS2\] layers pointer; [2.3] sequences pointer; then the lists in that order.
//!
//! One asset kind per file: [`instance`] (instances and legacy tiles), [`layer`] (layer header
//! and simple layer kinds), [`assets`] (asset layers), [`tiles`] (tile layers and their RLE).

pub mod assets;
pub mod instance;
pub mod layer;
pub mod tiles;

pub use assets::{AssetLayer, ParticleSystemInstance, SequenceInstance, SpriteInstance, TextItem};
pub use instance::{Instance, Tile, TileSource};
pub use layer::{BackgroundLayer, EffectProperty, Layer, LayerData, LayerEffect};
pub use tiles::TileLayer;

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::chunks::background::Background;
use crate::chunks::code::CodeEntry;
use crate::chunks::object::Object;
use crate::chunks::sequence::Sequence;
use crate::refs::{AssetRef, StringRef};
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;
use std::cell::Cell;

/// A room.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Room {
    /// Asset name.
    pub name: StringRef,
    /// Window caption (GMS1; usually none in GMS2).
    pub caption: Option<StringRef>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Room speed (GMS1; 0 in GMS2).
    pub speed: u32,
    /// Whether the room is persistent.
    pub persistent: bool,
    /// Background colour (no alpha).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub background_colour: u32,
    /// Whether the background colour is drawn.
    pub draw_background_colour: bool,
    /// Creation code (stored CODE entry id, -1 = none).
    pub creation_code: AssetRef<CodeEntry>,
    /// Room flags (enable views, show colour, clear display buffer, ...).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::flags::room"))]
    pub flags: u32,
    /// Background slots (GMS1 backgrounds; kept in GMS2 files).
    pub backgrounds: Vec<RoomBackground>,
    /// View slots.
    pub views: Vec<View>,
    /// Object instances.
    pub instances: Vec<Instance>,
    /// Legacy tiles.
    pub tiles: Vec<Tile>,
    /// Instance creation order as instance ids (2024.13+).
    pub creation_order: Option<Vec<u32>>,
    /// Physics world enabled.
    pub world: bool,
    /// Physics world top.
    pub top: u32,
    /// Physics world left.
    pub left: u32,
    /// Physics world right.
    pub right: u32,
    /// Physics world bottom.
    pub bottom: u32,
    /// Gravity X.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub gravity_x: f32,
    /// Gravity Y.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub gravity_y: f32,
    /// Physics meters per pixel.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub meters_per_pixel: f32,
    /// Layers (GMS2+).
    pub layers: Option<Vec<Layer>>,
    /// Sequence ids placed in the room (2.3+).
    pub sequences: Option<Vec<AssetRef<Sequence>>>,
}

/// A room background slot.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RoomBackground {
    /// Whether the slot is used.
    pub enabled: bool,
    /// Drawn in front of instances.
    pub foreground: bool,
    /// Background (stored -1 = none).
    pub background: AssetRef<Background>,
    /// X position.
    pub x: i32,
    /// Y position.
    pub y: i32,
    /// Tiled horizontally.
    pub tiled_x: bool,
    /// Tiled vertically.
    pub tiled_y: bool,
    /// Horizontal scroll speed.
    pub speed_x: i32,
    /// Vertical scroll speed.
    pub speed_y: i32,
    /// Stretched to the room.
    pub stretch: bool,
}

/// A room view slot (camera and viewport).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct View {
    /// Whether the view is enabled.
    pub enabled: bool,
    /// View rectangle in the room: x, y, width, height.
    pub view: [i32; 4],
    /// Port rectangle on screen: x, y, width, height.
    pub port: [i32; 4],
    /// Border kept around the followed object: x, y.
    pub border: [u32; 2],
    /// Scroll speed: x, y.
    pub speed: [i32; 2],
    /// Followed object (stored -1 = none).
    pub object: AssetRef<Object>,
}

/// The `ROOM` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rooms {
    /// The rooms (`None`: stripped asset, 2024.11+).
    pub rooms: Vec<Option<Room>>,
}

/// Whether rooms carry the instance creation order list (2024.13+).
pub(crate) fn has_creation_order(v: &Version) -> bool {
    v.at_least(2024, 13)
}
/// Whether rooms have layers (GMS2+).
pub(crate) fn has_layers(v: &Version) -> bool {
    v.is_gms2()
}
/// Whether rooms list sequences (2.3+).
pub(crate) fn has_sequences(v: &Version) -> bool {
    v.at_least(2, 3)
}

impl RoomBackground {
    fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<40>("room background")?;
        Ok(RoomBackground {
            enabled: f.bool32()?,
            foreground: f.bool32()?,
            background: AssetRef::from_stored(f.i32(), -1),
            x: f.i32(),
            y: f.i32(),
            tiled_x: f.bool32()?,
            tiled_y: f.bool32()?,
            speed_x: f.i32(),
            speed_y: f.i32(),
            stretch: f.bool32()?,
        })
    }
    fn write(&self, w: &mut Writer) -> Result<()> {
        w.bool32(self.enabled);
        w.bool32(self.foreground);
        w.i32(self.background.to_stored(-1));
        w.i32(self.x);
        w.i32(self.y);
        w.bool32(self.tiled_x);
        w.bool32(self.tiled_y);
        w.i32(self.speed_x);
        w.i32(self.speed_y);
        w.bool32(self.stretch);
        Ok(())
    }
}

impl View {
    fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<56>("view")?;
        Ok(View {
            enabled: f.bool32()?,
            view: [f.i32(), f.i32(), f.i32(), f.i32()],
            port: [f.i32(), f.i32(), f.i32(), f.i32()],
            border: [f.u32(), f.u32()],
            speed: [f.i32(), f.i32()],
            object: AssetRef::from_stored(f.i32(), -1),
        })
    }
    fn write(&self, w: &mut Writer) -> Result<()> {
        w.bool32(self.enabled);
        for &x in self.view.iter().chain(&self.port) {
            w.i32(x);
        }
        for &x in &self.border {
            w.u32(x);
        }
        for &x in &self.speed {
            w.i32(x);
        }
        w.i32(self.object.to_stored(-1));
        Ok(())
    }
}

fn read_u32_list(r: &mut Reader, what: &'static str) -> Result<Vec<u32>> {
    Ok(r.pointers(what)?.collect())
}

fn ptr_at(r: &mut Reader, p: u32, what: &'static str) -> Result<()> {
    if p == 0 {
        return Err(r.invalid(what, "a non-null list pointer", 0));
    }
    r.seek(p as usize)
}

impl Room {
    fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let mut f = r.fields::<56>("room")?;
        let mut room = Room {
            name: f.string()?,
            caption: f.string_opt()?,
            width: f.u32(),
            height: f.u32(),
            speed: f.u32(),
            persistent: f.bool32()?,
            background_colour: f.u32(),
            draw_background_colour: f.bool32()?,
            creation_code: AssetRef::from_stored(f.i32(), -1),
            flags: f.u32(),
            ..Default::default()
        };
        let backgrounds = f.u32();
        let views = f.u32();
        let instances = f.u32();
        let tiles = f.u32();
        let creation_order = if has_creation_order(&v) {
            Some(r.u32()?)
        } else {
            None
        };
        let mut f = r.fields::<32>("room")?;
        room.world = f.bool32()?;
        room.top = f.u32();
        room.left = f.u32();
        room.right = f.u32();
        room.bottom = f.u32();
        room.gravity_x = f.f32();
        room.gravity_y = f.f32();
        room.meters_per_pixel = f.f32();
        let layers = if has_layers(&v) { Some(r.u32()?) } else { None };
        let sequences = if has_sequences(&v) {
            Some(r.u32()?)
        } else {
            None
        };
        ptr_at(r, backgrounds, "room backgrounds pointer")?;
        room.backgrounds = r.pointer_list_required("room background", RoomBackground::read)?;
        ptr_at(r, views, "room views pointer")?;
        room.views = r.pointer_list_required("view", View::read)?;
        ptr_at(r, instances, "room instances pointer")?;
        room.instances = r.pointer_list_required("instance", Instance::read)?;
        ptr_at(r, tiles, "room tiles pointer")?;
        room.tiles = r.pointer_list_required("tile", Tile::read)?;
        if let Some(p) = creation_order {
            ptr_at(r, p, "instance creation order pointer")?;
            room.creation_order = Some(read_u32_list(r, "instance creation order")?);
        }
        if let Some(p) = layers {
            ptr_at(r, p, "room layers pointer")?;
            room.layers = Some(r.pointer_list_required("layer", |r| {
                r.enter()?;
                let l = Layer::read(r);
                r.leave();
                l
            })?);
        }
        if let Some(p) = sequences {
            ptr_at(r, p, "room sequences pointer")?;
            let ids = r.pointers("room sequence")?;
            room.sequences = Some(ids.map(|id| AssetRef::from_listed(id as i32)).collect());
        }
        Ok(room)
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        w.string(self.name);
        w.string_opt(self.caption);
        w.u32(self.width);
        w.u32(self.height);
        w.u32(self.speed);
        w.bool32(self.persistent);
        w.u32(self.background_colour);
        w.bool32(self.draw_background_colour);
        w.i32(self.creation_code.to_stored(-1));
        w.u32(self.flags);
        let lists = w.pos();
        w.zeros(16);
        let creation_order = has_creation_order(&v).then(|| {
            let p = w.pos();
            w.u32(0);
            p
        });
        w.bool32(self.world);
        w.u32(self.top);
        w.u32(self.left);
        w.u32(self.right);
        w.u32(self.bottom);
        w.f32(self.gravity_x);
        w.f32(self.gravity_y);
        w.f32(self.meters_per_pixel);
        let layers = has_layers(&v).then(|| {
            let p = w.pos();
            w.u32(0);
            p
        });
        let sequences = has_sequences(&v).then(|| {
            let p = w.pos();
            w.u32(0);
            p
        });
        let here = |w: &mut Writer, slot: usize| {
            let p = w.pos32();
            w.patch_u32(slot, p);
        };
        here(w, lists);
        w.pointer_list_required(&self.backgrounds, |w, b| b.write(w))?;
        here(w, lists + 4);
        w.pointer_list_required(&self.views, |w, x| x.write(w))?;
        here(w, lists + 8);
        w.pointer_list_required(&self.instances, |w, x| x.write(w))?;
        here(w, lists + 12);
        w.pointer_list_required(&self.tiles, |w, x| x.write(w))?;
        if let Some(slot) = creation_order {
            here(w, slot);
            let order = self.creation_order.as_deref().unwrap_or(&[]);
            w.u32(order.len() as u32);
            for &id in order {
                w.u32(id);
            }
        }
        if let Some(slot) = layers {
            here(w, slot);
            let layers = self.layers.as_deref().unwrap_or(&[]);
            w.pointer_list_required(layers, |w, l| l.write(w))?;
        }
        if let Some(slot) = sequences {
            here(w, slot);
            let ids = self.sequences.as_deref().unwrap_or(&[]);
            w.u32(ids.len() as u32);
            for &id in ids {
                w.i32(id.to_stored(-1));
            }
        }
        Ok(())
    }
}

impl Chunk for Rooms {
    const NAME: ChunkName = ChunkName(*b"ROOM");

    fn read(r: &mut Reader) -> Result<Self> {
        let rooms = r.pointer_list_elements("room", Room::read)?;
        r.check_nulls("room pointer", &rooms)?;
        Ok(Rooms { rooms })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.pointer_list(&self.rooms, |_| {}, |w, room| room.write(w))
    }
}

// ---------------------------------------------------------------------------------------------
// Version detection

/// At most this many list entries are examined by one detection walk, over all its lists
/// together (a hostile file can make every room share one huge list).
const DETECT_LIMIT: usize = 1 << 16;

/// The number of list entries a detection walk may still examine.
struct Budget(Cell<usize>);

impl Budget {
    fn new() -> Self {
        Budget(Cell::new(DETECT_LIMIT))
    }
    /// Takes one entry from the budget; false when it is spent.
    fn take(&self) -> bool {
        let left = self.0.get();
        self.0.set(left.saturating_sub(1));
        left > 0
    }
}

/// The non-null entries of a pointer list at `at`, lazily: the count is bounded by the bytes
/// that follow, and every entry examined is taken from `budget`.
fn detect_list<'a>(d: &'a Detect, at: usize, budget: &'a Budget) -> impl Iterator<Item = usize> + 'a {
    let n = d.u32(at).unwrap_or(0) as usize;
    let fits = d.data.len().saturating_sub(at.saturating_add(4)) / 4;
    (0..n.min(fits))
        .map_while(move |i| budget.take().then(|| d.u32(at + 4 + 4 * i)).flatten())
        .filter(|&p| p != 0)
        .map(|p| p as usize)
}

/// What the detection needs to know about one layer.
struct LayerInfo {
    kind: u32,
    /// Where the type-specific data starts.
    data: usize,
    /// Where the next layer (or the room's sequence list) starts, when known.
    bound: Option<usize>,
}

/// Walks the layers of the rooms, using the layout of version `v` (at most [`DETECT_LIMIT`]
/// list entries in all, so linear in the file size whatever the counts say).
fn detect_layers(d: &Detect, v: &Version) -> Vec<LayerInfo> {
    let mut out = Vec::new();
    if !has_layers(v) {
        return out;
    }
    let Some((start, _)) = d.chunk(b"ROOM") else {
        return out;
    };
    let co = has_creation_order(v) as usize;
    let budget = Budget::new();
    let mut ptrs = Vec::new();
    for room in detect_list(d, start, &budget) {
        let Some(layers) = d.u32(room + 4 * (22 + co)) else {
            continue;
        };
        let seq = if has_sequences(v) {
            d.u32(room + 4 * (23 + co)).map(|p| p as usize)
        } else {
            None
        };
        ptrs.clear();
        ptrs.extend(detect_list(d, layers as usize, &budget));
        for (k, &p) in ptrs.iter().enumerate() {
            let Some(kind) = d.u32(p + 8) else { continue };
            let mut data = p + 36;
            if layer::has_header_effect(v) {
                let Some(props) = d.u32(p + 44) else { continue };
                data = data.saturating_add(12 + 12 * (props as usize).min(DETECT_LIMIT));
            }
            let bound = ptrs.get(k + 1).copied().or(seq);
            out.push(LayerInfo { kind, data, bound });
        }
    }
    out
}

/// Size of a background (1) or instance (2) layer's data starting at `data`.
fn simple_layer_size(d: &Detect, kind: u32, data: usize) -> Option<usize> {
    match kind {
        1 => Some(40),
        2 => Some(4 + 4 * d.u32(data)? as usize),
        _ => None,
    }
}

/// ROOM layout checks: 2.2.2.302 (instance size), 2022.1 (layer effect fields), 2.3.2 (asset
/// layers lose the nine-slice list), 2024.2 (RLE tiles), 2024.4 (aligned RLE), 2024.6 (asset
/// layer text items), 2024.11 (null room pointers).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    let Some((start, _)) = d.chunk(b"ROOM") else {
        return;
    };
    if v.is_gms2() && crate::chunks::object::has_null_entry(d, b"ROOM") {
        v.raise(FormatVersion::new(2024, 11, 0, 0));
    }
    // 2.2.2.302: instances grew from 40 to 48 bytes (image speed + index).
    if v.is_gms2() && !v.at_least_full(2, 2, 2, 302) {
        let budget = Budget::new();
        for room in detect_list(d, start, &budget) {
            let Some(list) = d.u32(room + 48) else {
                continue;
            };
            let mut insts = detect_list(d, list as usize, &budget);
            let Some(first) = insts.next() else {
                continue;
            };
            let next = match insts.next() {
                Some(p) => Some(p),
                None => d.u32(room + 52).map(|p| p as usize),
            };
            if next.and_then(|n| n.checked_sub(first)) == Some(48) {
                v.raise(FormatVersion::new(2, 2, 2, 302));
            }
            break;
        }
    }
    // 2022.1: every layer got effect fields; the first background/instance layer's data no
    // longer ends where the old layout predicts.
    if v.at_least(2, 3) && !v.at_least(2022, 1) {
        let old = detect_layers(d, v);
        if let Some(l) = old
            .iter()
            .find(|l| matches!(l.kind, 1 | 2) && l.bound.is_some())
        {
            let old_end = simple_layer_size(d, l.kind, l.data).map(|s| l.data + s);
            if old_end != l.bound {
                let mut newer = *v;
                newer.raise(FormatVersion::new(2022, 1, 0, 0));
                let new = detect_layers(d, &newer);
                if let Some(n) = new
                    .iter()
                    .find(|n| matches!(n.kind, 1 | 2) && n.bound.is_some())
                {
                    let new_end = simple_layer_size(d, n.kind, n.data).map(|s| n.data + s);
                    if new_end == n.bound {
                        v.raise(FormatVersion::new(2022, 1, 0, 0));
                    }
                }
            }
        }
    }
    // 2.3.2: asset layers lost the nine-slice list pointer (3 pointers instead of 4).
    if v.at_least(2, 3) && !v.at_least_full(2, 3, 2, 0)
        && let Some(l) = detect_layers(d, v).iter().find(|l| l.kind == 3)
            && d.u32(l.data).map(|p| p as usize) == Some(l.data + 12) {
                v.raise(FormatVersion::new(2, 3, 2, 0));
            }
    // 2024.2: tile data shorter than width × height × 4 (run-length encoded).
    if v.at_least(2023, 2) && !v.at_least(2024, 2) {
        let rle = detect_layers(d, v).iter().any(|l| {
            l.kind == 4
                && match (l.bound, d.u32(l.data + 4), d.u32(l.data + 8)) {
                    (Some(b), Some(w), Some(h)) => {
                        let raw = (w as u64).saturating_mul(h as u64).saturating_mul(4);
                        ((b.saturating_sub(l.data + 12)) as u64) < raw
                    }
                    _ => false,
                }
        });
        if rle {
            v.raise(FormatVersion::new(2024, 2, 0, 0));
        }
    }
    // 2024.4: RLE data became 4-aligned: assumed when no layer after a tile layer is unaligned.
    if v.at_least(2024, 2) && !v.at_least(2024, 4) {
        let unaligned = detect_layers(d, v)
            .iter()
            .any(|l| l.kind == 4 && l.bound.is_some_and(|b| b % 4 != 0));
        if !unaligned {
            v.raise(FormatVersion::new(2024, 4, 0, 0));
        }
    }
    // 2024.6: asset layers got a text-item list pointer; the first list starts one pointer
    // later than the older layout predicts.
    if v.non_lts_at_least(2023, 2) && !v.at_least(2024, 6)
        && let Some(l) = detect_layers(d, v).iter().find(|l| l.kind == 3) {
            let n = assets::pointer_count(v);
            if d.u32(l.data).map(|p| p as usize) == Some(l.data + 4 * (n + 1)) {
                v.raise(FormatVersion::new(2024, 6, 0, 0));
            }
        }
}
