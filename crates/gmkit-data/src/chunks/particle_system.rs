//! `PSYS` (2023.2+, non-LTS): particle systems.
//!
//! Layout: zero padding to 4, `u32` chunk version (1), pointer list of systems. System: name;
//! `i32` origin X, Y; `i32` draw order; [2023.8] bool32 global space; simple list of emitter ids.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::particle_emitter::ParticleEmitter;
use crate::error::Result;
use crate::read::Reader;
use crate::refs::{Id, StringRef};
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `PSYS` chunk: particle systems.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParticleSystems {
    /// Chunk format version (1).
    pub chunk_version: u32,
    /// The systems (`None`: null pointer of a stripped entry).
    pub systems: Vec<Option<ParticleSystem>>,
}

/// One particle system.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParticleSystem {
    /// Asset name.
    pub name: StringRef,
    /// Origin X.
    pub origin_x: i32,
    /// Origin Y.
    pub origin_y: i32,
    /// Draw order of the emitters.
    pub draw_order: i32,
    /// Whether particles live in global space (2023.8+; `None` before).
    pub global_space: Option<bool>,
    /// The emitters (indices into PSEM; stored as `i32`).
    pub emitters: Vec<Id<ParticleEmitter>>,
}

/// Whether systems carry the global-space flag.
fn has_global_space(v: &Version) -> bool {
    v.at_least(2023, 8)
}

impl Chunk for ParticleSystems {
    const NAME: ChunkName = ChunkName(*b"PSYS");

    fn read(r: &mut Reader) -> Result<Self> {
        r.align(4)?;
        let chunk_version = r.u32()?;
        let systems = r.pointer_list_elements("particle system", |r| {
            let mut s = ParticleSystem {
                name: r.string()?,
                origin_x: r.i32()?,
                origin_y: r.i32()?,
                draw_order: r.i32()?,
                ..Default::default()
            };
            if has_global_space(r.version()) {
                s.global_space = Some(r.bool32()?);
            }
            let n = r.count("emitter id", 4)?;
            for _ in 0..n {
                let at = r.pos();
                let id = r.i32()?;
                if id < 0 {
                    return Err(r.error_at(
                        at,
                        crate::error::invalid("emitter id", "an index into PSEM", id),
                    ));
                }
                s.emitters.push(Id::new(id as u32));
            }
            Ok(s)
        })?;
        Ok(ParticleSystems {
            chunk_version,
            systems,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.align(4);
        w.u32(self.chunk_version);
        let gs = has_global_space(w.version());
        w.pointer_list(
            &self.systems,
            |_| {},
            |w, s| {
                w.string(s.name);
                w.i32(s.origin_x);
                w.i32(s.origin_y);
                w.i32(s.draw_order);
                if gs {
                    w.bool32(s.global_space.unwrap_or(false));
                }
                w.u32(s.emitters.len() as u32);
                for e in &s.emitters {
                    w.i32(e.0 as i32);
                }
                Ok(())
            },
        )
    }
}

/// No layout checks in PSYS (its presence is part of the floor, §1.2).
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
