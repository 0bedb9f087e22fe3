//! `OBJT`: objects (the blueprints of room instances) with their physics settings and events.
//!
//! Layout: a pointer list of objects (nullable 2024.11+). Object: name; i32 sprite id; bool32
//! visible; [2022.5] bool32 managed; bool32 solid; i32 depth; bool32 persistent; i32 parent id
//! (-100 = none); i32 mask sprite id; physics block (bool32 enabled, bool32 sensor, u32 shape, f32
//! density, restitution, u32 group, f32 linear/angular damping, i32 vertex count, f32 friction,
//! bool32 awake, bool32 kinematic, then the vertices); then a pointer list of event-type lists,
//! each a pointer list of events; event = u32 subtype + pointer list of [`Action`]s.

pub mod action;

pub use action::Action;

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::{AssetRef, StringRef};
use crate::chunks::sprite::Sprite;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// A sprite id as stored in membership lists (index into SPRT).
pub type SpriteId = i32;

/// Stored sprite id meaning "no sprite".
pub const NO_SPRITE: i32 = -1;

/// Stored parent id meaning "no parent".
pub const NO_PARENT: i32 = -100;

/// An object asset.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Object {
    /// Asset name.
    pub name: StringRef,
    /// Sprite (stored -1 = none).
    pub sprite: AssetRef<Sprite>,
    /// Whether instances are visible.
    pub visible: bool,
    /// Managed flag (2022.5+; `None` in older files).
    pub managed: Option<bool>,
    /// Whether instances are solid.
    pub solid: bool,
    /// Depth.
    pub depth: i32,
    /// Whether instances persist across rooms.
    pub persistent: bool,
    /// Parent object (stored -100 = none).
    pub parent: AssetRef<Object>,
    /// Collision mask sprite (stored -1 = none: the object's sprite).
    pub mask_sprite: AssetRef<Sprite>,
    /// Physics settings.
    pub physics: Physics,
    /// Events by event type (create, destroy, alarm, step, collision, keyboard, mouse, other,
    /// draw, key press, key release, trigger, clean up, gesture, pre-create). The number of
    /// types is stored in the file: 12 in bytecode 14/15 GMS1 files, 13 in bytecode 16 GMS1
    /// files, 14 or 15 in early GMS2 files (bytecode 15/16), 15 from bytecode 17.
    pub events: Vec<Vec<Event>>,
}

impl Object {
    /// The parent object's index, if any.
    pub fn parent_id(&self) -> Option<u32> {
        self.parent.index().map(|i| i as u32)
    }
}

/// An object's physics settings.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Physics {
    /// Whether the object uses physics.
    pub enabled: bool,
    /// Whether the fixture is a sensor.
    pub sensor: bool,
    /// Collision shape (0 circle, 1 box, 2 custom shape).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::physics_shape"))]
    pub shape: u32,
    /// Density.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub density: f32,
    /// Restitution.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub restitution: f32,
    /// Collision group.
    pub group: u32,
    /// Linear damping.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub linear_damping: f32,
    /// Angular damping.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub angular_damping: f32,
    /// Friction.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub friction: f32,
    /// Whether the body starts awake.
    pub awake: bool,
    /// Whether the body is kinematic.
    pub kinematic: bool,
    /// Shape vertices (x, y).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub vertices: Vec<(f32, f32)>,
}

/// One event of an object: a subtype (alarm number, key code, collision object, ...) and its
/// actions.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Event {
    /// Event subtype.
    pub subtype: u32,
    /// The actions run by the event.
    pub actions: Vec<Action>,
}

/// The `OBJT` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Objects {
    /// The objects (`None`: stripped asset, 2024.11+).
    pub objects: Vec<Option<Object>>,
}

/// Whether objects carry the Managed flag (2022.5+).
pub(crate) fn has_managed(v: &Version) -> bool {
    v.at_least(2022, 5)
}

impl Object {
    fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<12>("object")?;
        let name = f.string()?;
        let sprite = AssetRef::from_stored(f.i32(), NO_SPRITE);
        let visible = f.bool32()?;
        let managed = if has_managed(r.version()) {
            Some(r.bool32()?)
        } else {
            None
        };
        let mut f = r.fields::<68>("object")?;
        let solid = f.bool32()?;
        let depth = f.i32();
        let persistent = f.bool32()?;
        let parent = AssetRef::from_stored(f.i32(), NO_PARENT);
        let mask_sprite = AssetRef::from_stored(f.i32(), NO_SPRITE);
        let enabled = f.bool32()?;
        let sensor = f.bool32()?;
        let shape = f.u32();
        let density = f.f32();
        let restitution = f.f32();
        let group = f.u32();
        let linear_damping = f.f32();
        let angular_damping = f.f32();
        let at = f.pos();
        let vertex_count = f.i32();
        let friction = f.f32();
        let awake = f.bool32()?;
        let kinematic = f.bool32()?;
        let n = usize::try_from(vertex_count)
            .map_err(|_| r.invalid("physics vertex count", "a non-negative count", vertex_count))?;
        r.check_count(at, "physics vertex", n, 8)?;
        let vertices = r
            .bytes_ref(n * 8, "physics vertex")?
            .chunks_exact(8)
            .map(|v| {
                (
                    f32::from_le_bytes([v[0], v[1], v[2], v[3]]),
                    f32::from_le_bytes([v[4], v[5], v[6], v[7]]),
                )
            })
            .collect();
        let events = r.pointer_list_required("event type", |r| {
            // Most event types of an object have no events: only their count is read.
            if r.peek_u32() == Some(0) {
                r.u32()?;
                return Ok(Vec::new());
            }
            r.pointer_list_required("event", |r| {
                Ok(Event {
                    subtype: r.u32()?,
                    actions: Action::read_list(r)?,
                })
            })
        })?;
        Ok(Object {
            name,
            sprite,
            visible,
            managed,
            solid,
            depth,
            persistent,
            parent,
            mask_sprite,
            physics: Physics {
                enabled,
                sensor,
                shape,
                density,
                restitution,
                group,
                linear_damping,
                angular_damping,
                friction,
                awake,
                kinematic,
                vertices,
            },
            events,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.name);
        w.i32(self.sprite.to_stored(NO_SPRITE));
        w.bool32(self.visible);
        if has_managed(w.version()) {
            w.bool32(self.managed.unwrap_or(false));
        }
        w.bool32(self.solid);
        w.i32(self.depth);
        w.bool32(self.persistent);
        w.i32(self.parent.to_stored(NO_PARENT));
        w.i32(self.mask_sprite.to_stored(NO_SPRITE));
        let p = &self.physics;
        w.bool32(p.enabled);
        w.bool32(p.sensor);
        w.u32(p.shape);
        w.f32(p.density);
        w.f32(p.restitution);
        w.u32(p.group);
        w.f32(p.linear_damping);
        w.f32(p.angular_damping);
        let n = i32::try_from(p.vertices.len())
            .map_err(|_| w.unwritable("physics vertices", "too many"))?;
        w.i32(n);
        w.f32(p.friction);
        w.bool32(p.awake);
        w.bool32(p.kinematic);
        for &(x, y) in &p.vertices {
            w.f32(x);
            w.f32(y);
        }
        w.pointer_list_required(&self.events, |w, list| {
            w.pointer_list_required(list, |w, e| {
                w.u32(e.subtype);
                Action::write_list(w, &e.actions)
            })
        })
    }
}

impl Chunk for Objects {
    const NAME: ChunkName = ChunkName(*b"OBJT");

    fn read(r: &mut Reader) -> Result<Self> {
        let objects = r.pointer_list_elements("object", Object::read)?;
        r.check_nulls("object pointer", &objects)?;
        Ok(Objects { objects })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.pointer_list(&self.objects, |_| {}, |w, o| o.write(w))
    }
}

/// Whether the top-level pointer list of a chunk has a null entry (stripped assets, 2024.11+).
pub(crate) fn has_null_entry(d: &Detect, chunk: &[u8; 4]) -> bool {
    let Some((start, end)) = d.chunk(chunk) else {
        return false;
    };
    let Some(n) = d.count(start, 4, end) else {
        return false;
    };
    (0..n).any(|i| d.u32(start + 4 + 4 * i) == Some(0))
}

/// Whether an event-type pointer list plausibly starts at `at`: a small count (12 to 15 event
/// types) and the first list right after the pointers.
fn event_types_at(d: &Detect, at: usize) -> bool {
    match d.u32(at) {
        Some(count @ 12..=15) => {
            d.u32(at + 4).map(|p| p as usize) == Some(at + 4 + 4 * count as usize)
        }
        _ => false,
    }
}

/// 2022.5: the first object's event-type list sits 4 bytes later than the old layout predicts
/// (the Managed flag was inserted after Visible). Also 2024.11: null object pointers.
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    if v.is_gms2() && has_null_entry(d, b"OBJT") {
        v.raise(FormatVersion::new(2024, 11, 0, 0));
    }
    if !v.at_least(2, 3) || v.at_least(2022, 5) {
        return;
    }
    let Some((start, end)) = d.chunk(b"OBJT") else {
        return;
    };
    let Some(n) = d.count(start, 4, end) else {
        return;
    };
    let first = (0..n)
        .map_while(|i| d.u32(start + 4 + 4 * i))
        .find(|&p| p != 0);
    let Some(p) = first.map(|p| p as usize) else {
        return;
    };
    let predicted = |vertex_count_at: usize, vertices_at: usize| -> Option<usize> {
        let nv = d.i32(p + vertex_count_at)?;
        let nv = usize::try_from(nv).ok()?;
        Some(p + vertices_at + nv.checked_mul(8)?)
    };
    let old_ok = predicted(64, 80).is_some_and(|at| event_types_at(d, at));
    let new_ok = predicted(68, 84).is_some_and(|at| event_types_at(d, at));
    if new_ok && !old_ok {
        v.raise(FormatVersion::new(2022, 5, 0, 0));
    }
}
