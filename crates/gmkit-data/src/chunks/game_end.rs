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
pub struct GameEnd {
    /// CODE entry ids, in execution order.
    pub code_ids: Vec<i32>,
}

impl Chunk for GameEnd {
    const NAME: ChunkName = ChunkName(*b"GMEN");

    fn read(r: &mut Reader) -> Result<Self> {
        let n = r.count("code id", 4)?;
        let mut code_ids = Vec::with_capacity(n);
        for _ in 0..n {
            code_ids.push(r.i32()?);
        }
        Ok(GameEnd { code_ids })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.u32(self.code_ids.len() as u32);
        for &id in &self.code_ids {
            w.i32(id);
        }
        Ok(())
    }
}

/// No layout checks in GMEN.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
