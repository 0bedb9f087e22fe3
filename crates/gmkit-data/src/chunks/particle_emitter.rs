//! `PSEM` (2023.2+, non-LTS): particle emitters.
//!
//! Layout: zero padding to 4, `u32` chunk version (1), pointer list of emitters. The emitter record
//! grew three times: 0xB0 bytes (2023.2), 0xBC (2023.4: animate/stretch/random), 0xC0 (2023.6:
//! enabled), 0xEC (2023.8: timed emission, separate X/Y sizes).

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::{AssetRef, StringRef};
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// The `PSEM` chunk: particle emitters.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParticleEmitters {
    /// Chunk format version (1).
    pub chunk_version: u32,
    /// The emitters (`None`: null pointer of a stripped entry).
    pub emitters: Vec<Option<ParticleEmitter>>,
}

/// How many particles an emitter releases, and when.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Emission {
    /// Before 2023.8: an integer particle count per burst.
    Count(i32),
    /// 2023.8+: a float count with delay and interval timing.
    Timed {
        /// Particles per burst.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
        count: f32,
        /// Whether `count` is relative to the region size.
        relative: bool,
        /// Delay before the first burst: min, max.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
        delay: [f32; 2],
        /// Time unit of the delay.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::time_unit"))]
        delay_unit: i32,
        /// Interval between bursts: min, max.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
        interval: [f32; 2],
        /// Time unit of the interval.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::time_unit"))]
        interval_unit: i32,
    },
}

impl Default for Emission {
    fn default() -> Self {
        Emission::Count(0)
    }
}

/// One particle emitter. Colours are stored ABGR as in the file.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParticleEmitter {
    /// Asset name.
    pub name: StringRef,
    /// Whether the emitter is enabled (2023.6+).
    pub enabled: Option<bool>,
    /// Emission mode (stream / burst).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::emitter_mode"))]
    pub mode: i32,
    /// Emission count and timing.
    pub emission: Emission,
    /// Distribution of spawn points in the region.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::distribution"))]
    pub distribution: i32,
    /// Region shape.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::emitter_shape"))]
    pub shape: i32,
    /// Region: x, y, width, height.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub region: [f32; 4],
    /// Region rotation.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub rotation: f32,
    /// Particle sprite id (-1 = none; index into SPRT).
    pub sprite: AssetRef<crate::chunks::sprite::Sprite>,
    /// Built-in particle texture (`pt_shape_*`, -1 for none: the emitter draws its sprite; see
    /// [`crate::serde_values::kinds::particle_shape`]).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::particle_shape"))]
    pub texture: i32,
    /// Sprite frame index.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub frame_index: f32,
    /// 2023.4+: animate, stretch, random frame.
    pub sprite_flags: Option<[bool; 3]>,
    /// Start, middle, end colour.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub colours: [u32; 3],
    /// Additive blending.
    pub additive: bool,
    /// Lifetime min, max.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub lifetime: [f32; 2],
    /// Scale X, Y.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub scale: [f32; 2],
    /// Size: min, max, increase, wiggle before 2023.8; min X, max X, min Y, max Y, increase X,
    /// increase Y, wiggle X, wiggle Y from 2023.8 (4 or 8 values).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub size: Vec<f32>,
    /// Speed: min, max, increase, wiggle.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub speed: [f32; 4],
    /// Gravity force, direction.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub gravity: [f32; 2],
    /// Direction: min, max, increase, wiggle.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub direction: [f32; 4],
    /// Orientation: min, max, increase, wiggle.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub orientation: [f32; 4],
    /// Orientation relative to the direction.
    pub orientation_relative: bool,
    /// Emitter spawned when a particle dies (-1 = none), and how many.
    pub spawn_on_death: (AssetRef<ParticleEmitter>, i32),
    /// Emitter spawned on each update (-1 = none), and how many.
    pub spawn_on_update: (AssetRef<ParticleEmitter>, i32),
}

/// Layout switches of the emitter record, decided once from the version.
#[derive(Clone, Copy)]
struct EmitterLayout {
    enabled: bool,
    timed: bool,
    sprite_flags: bool,
}

impl EmitterLayout {
    fn of(v: &Version) -> Self {
        EmitterLayout {
            enabled: v.at_least(2023, 6),
            timed: v.at_least(2023, 8),
            sprite_flags: v.at_least(2023, 4),
        }
    }
}

fn f32s<const N: usize>(r: &mut Reader) -> Result<[f32; N]> {
    let mut a = [0f32; N];
    for v in &mut a {
        *v = r.f32()?;
    }
    Ok(a)
}

fn put_f32s(w: &mut Writer, v: &[f32]) {
    for &x in v {
        w.f32(x);
    }
}

fn read_emitter(r: &mut Reader, l: EmitterLayout) -> Result<ParticleEmitter> {
    let name = r.string()?;
    let enabled = if l.enabled { Some(r.bool32()?) } else { None };
    let mode = r.i32()?;
    let emission = if l.timed {
        Emission::Timed {
            count: r.f32()?,
            relative: r.bool32()?,
            delay: f32s(r)?,
            delay_unit: r.i32()?,
            interval: f32s(r)?,
            interval_unit: r.i32()?,
        }
    } else {
        Emission::Count(r.i32()?)
    };
    let mut e = ParticleEmitter {
        name,
        enabled,
        mode,
        emission,
        distribution: r.i32()?,
        shape: r.i32()?,
        region: f32s(r)?,
        rotation: r.f32()?,
        sprite: AssetRef::from_stored(r.i32()?, -1),
        texture: r.i32()?,
        frame_index: r.f32()?,
        ..Default::default()
    };
    if l.sprite_flags {
        e.sprite_flags = Some([r.bool32()?, r.bool32()?, r.bool32()?]);
    }
    e.colours = [r.u32()?, r.u32()?, r.u32()?];
    e.additive = r.bool32()?;
    e.lifetime = f32s(r)?;
    e.scale = f32s(r)?;
    let n = if l.timed { 8 } else { 4 };
    e.size = (0..n).map(|_| r.f32()).collect::<Result<_>>()?;
    e.speed = f32s(r)?;
    e.gravity = f32s(r)?;
    e.direction = f32s(r)?;
    e.orientation = f32s(r)?;
    e.orientation_relative = r.bool32()?;
    e.spawn_on_death = (AssetRef::from_stored(r.i32()?, -1), r.i32()?);
    e.spawn_on_update = (AssetRef::from_stored(r.i32()?, -1), r.i32()?);
    Ok(e)
}

fn write_emitter(w: &mut Writer, e: &ParticleEmitter, l: EmitterLayout) -> Result<()> {
    w.string(e.name);
    if l.enabled {
        w.bool32(e.enabled.unwrap_or(true));
    }
    w.i32(e.mode);
    match (&e.emission, l.timed) {
        (
            Emission::Timed {
                count,
                relative,
                delay,
                delay_unit,
                interval,
                interval_unit,
            },
            true,
        ) => {
            w.f32(*count);
            w.bool32(*relative);
            put_f32s(w, delay);
            w.i32(*delay_unit);
            put_f32s(w, interval);
            w.i32(*interval_unit);
        }
        (Emission::Count(c), false) => w.i32(*c),
        _ => {
            return Err(w.unwritable(
                "particle emitter emission",
                "the emission kind does not match the file version (Count before 2023.8, Timed from 2023.8)",
            ));
        }
    }
    w.i32(e.distribution);
    w.i32(e.shape);
    put_f32s(w, &e.region);
    w.f32(e.rotation);
    w.i32(e.sprite.to_stored(-1));
    w.i32(e.texture);
    w.f32(e.frame_index);
    if l.sprite_flags {
        for b in e.sprite_flags.unwrap_or_default() {
            w.bool32(b);
        }
    }
    for c in e.colours {
        w.u32(c);
    }
    w.bool32(e.additive);
    put_f32s(w, &e.lifetime);
    put_f32s(w, &e.scale);
    let n = if l.timed { 8 } else { 4 };
    if e.size.len() != n {
        return Err(w.unwritable(
            "particle emitter size",
            format!("{n} values expected for this version, found {}", e.size.len()),
        ));
    }
    put_f32s(w, &e.size);
    put_f32s(w, &e.speed);
    put_f32s(w, &e.gravity);
    put_f32s(w, &e.direction);
    put_f32s(w, &e.orientation);
    w.bool32(e.orientation_relative);
    w.i32(e.spawn_on_death.0.to_stored(-1));
    w.i32(e.spawn_on_death.1);
    w.i32(e.spawn_on_update.0.to_stored(-1));
    w.i32(e.spawn_on_update.1);
    Ok(())
}

impl Chunk for ParticleEmitters {
    const NAME: ChunkName = ChunkName(*b"PSEM");

    fn read(r: &mut Reader) -> Result<Self> {
        r.align(4)?;
        let chunk_version = r.u32()?;
        let l = EmitterLayout::of(r.version());
        let emitters = r.pointer_list_elements("particle emitter", |r| read_emitter(r, l))?;
        Ok(ParticleEmitters {
            chunk_version,
            emitters,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.align(4);
        w.u32(self.chunk_version);
        let l = EmitterLayout::of(w.version());
        w.pointer_list(&self.emitters, |_| {}, |w, e| write_emitter(w, e, l))
    }
}

/// Emitter record sizes by layout, oldest first.
const EMITTER_SIZES: [(usize, FormatVersion); 4] = [
    (0xB0, FormatVersion::new(2023, 2, 0, 0)),
    (0xBC, FormatVersion::new(2023, 4, 0, 0)),
    (0xC0, FormatVersion::new(2023, 6, 0, 0)),
    (0xEC, FormatVersion::new(2023, 8, 0, 0)),
];

/// 2023.4 / 2023.6 / 2023.8 from the emitter record size (§1.3); PSEM also proves the
/// non-LTS branch.
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    let Some((start, end)) = d.chunk(b"PSEM") else {
        return;
    };
    v.lts = false;
    if !v.at_least(2023, 2) || v.at_least(2023, 8) {
        return;
    }
    let Some(evidence) = emitter_layout(d, start, end) else {
        return;
    };
    v.raise(evidence);
}

fn emitter_layout(d: &Detect, start: usize, end: usize) -> Option<FormatVersion> {
    let base = start.next_multiple_of(4) + 4;
    let n = d.u32(base)? as usize;
    // 2023.2 always writes its 11 default emitters.
    let floor = if n < 11 {
        FormatVersion::new(2023, 4, 0, 0)
    } else {
        FormatVersion::new(2023, 2, 0, 0)
    };
    let size = if n >= 2 {
        let (a, b) = (d.u32(base + 4)?, d.u32(base + 8)?);
        if a == 0 || b <= a {
            return Some(floor);
        }
        (b - a) as usize
    } else if n == 1 {
        // The single emitter runs to the end of the body (plus chunk padding < 16).
        end.checked_sub(base + 8)?
    } else {
        return Some(floor);
    };
    let by_size = EMITTER_SIZES
        .iter()
        .rev()
        .find(|(s, _)| *s <= size)
        .map(|(_, v)| *v)?;
    Some(by_size.max(floor))
}
