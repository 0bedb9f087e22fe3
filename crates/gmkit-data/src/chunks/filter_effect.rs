//! `FEDS` (2.3.6+): filter and effect definitions.
//!
//! Layout: zero padding to 4, `u32` chunk version (1), pointer list of (name, value) string pairs.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `FEDS` chunk: filter effects.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FilterEffects {
    /// Chunk format version (1).
    pub chunk_version: u32,
    /// The effects (`None`: null pointer of a stripped entry).
    pub effects: Vec<Option<FilterEffect>>,
}

/// One filter effect.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FilterEffect {
    /// Effect name.
    pub name: StringRef,
    /// Effect value (its definition).
    pub value: StringRef,
}

impl Chunk for FilterEffects {
    const NAME: ChunkName = ChunkName(*b"FEDS");

    fn read(r: &mut Reader) -> Result<Self> {
        r.align(4)?;
        let chunk_version = r.u32()?;
        let effects = r.pointer_list_elements("filter effect", |r| {
            Ok(FilterEffect {
                name: r.string()?,
                value: r.string()?,
            })
        })?;
        Ok(FilterEffects {
            chunk_version,
            effects,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.align(4);
        w.u32(self.chunk_version);
        w.pointer_list(
            &self.effects,
            |_| {},
            |w, e| {
                w.string(e.name);
                w.string(e.value);
                Ok(())
            },
        )
    }
}

/// No layout checks in FEDS.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
