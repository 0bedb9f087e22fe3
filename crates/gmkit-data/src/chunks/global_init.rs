//! `GLOB`: global initialisation scripts (run once at game start).
//!
//! Layout: a simple list of i32 CODE entry ids.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `GLOB` chunk: global initialisation scripts (run once at game start).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GlobalInit {
    /// CODE entry ids, in execution order.
    pub code_ids: Vec<i32>,
}

impl Chunk for GlobalInit {
    const NAME: ChunkName = ChunkName(*b"GLOB");

    fn read(r: &mut Reader) -> Result<Self> {
        let n = r.count("code id", 4)?;
        let mut code_ids = Vec::with_capacity(n);
        for _ in 0..n {
            code_ids.push(r.i32()?);
        }
        Ok(GlobalInit { code_ids })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.u32(self.code_ids.len() as u32);
        for &id in &self.code_ids {
            w.i32(id);
        }
        Ok(())
    }
}

/// No layout checks in GLOB.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
