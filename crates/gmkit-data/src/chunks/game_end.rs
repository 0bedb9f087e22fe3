//! `GMEN`: game end scripts (run when the game ends).
//!
//! Layout: a simple list of i32 CODE entry ids.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `GMEN` chunk: game end scripts (run when the game ends).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameEnd {
    /// CODE entry ids, in execution order.
    pub code_ids: Vec<crate::refs::AssetRef<crate::chunks::code::CodeEntry>>,
}

impl Chunk for GameEnd {
    const NAME: ChunkName = ChunkName(*b"GMEN");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(GameEnd {
            code_ids: super::global_init::read_code_ids(r)?,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        super::global_init::write_code_ids(w, &self.code_ids);
        Ok(())
    }
}

/// No layout checks in GMEN.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
