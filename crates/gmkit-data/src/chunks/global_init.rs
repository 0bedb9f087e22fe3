//! `GLOB`: global initialisation scripts (run once at game start).
//!
//! Layout: a simple list of i32 CODE entry ids.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::chunks::code::CodeEntry;
use crate::read::Reader;
use crate::refs::AssetRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `GLOB` chunk: global initialisation scripts (run once at game start).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GlobalInit {
    /// CODE entry ids, in execution order.
    pub code_ids: Vec<AssetRef<CodeEntry>>,
}

impl Chunk for GlobalInit {
    const NAME: ChunkName = ChunkName(*b"GLOB");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(GlobalInit {
            code_ids: read_code_ids(r)?,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        write_code_ids(w, &self.code_ids);
        Ok(())
    }
}

/// Reads a simple list of CODE entry ids (GLOB and GMEN).
pub(crate) fn read_code_ids(r: &mut Reader) -> Result<Vec<AssetRef<CodeEntry>>> {
    let n = r.count("code id", 4)?;
    super::read_n(r, n, |r| r.i32().map(AssetRef::from_listed))
}

/// Writes a simple list of CODE entry ids (GLOB and GMEN).
pub(crate) fn write_code_ids(w: &mut Writer, ids: &[AssetRef<CodeEntry>]) {
    w.u32(ids.len() as u32);
    for &id in ids {
        w.i32(id.to_stored(-1));
    }
}

/// No layout checks in GLOB.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
