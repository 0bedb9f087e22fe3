//! `DAFL`: included data files. The chunk is always empty in known files (included files are
//! shipped next to the data file); any content would be kept verbatim by the container as an
//! unexplained tail.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `DAFL` chunk (empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DataFiles {}

impl Chunk for DataFiles {
    const NAME: ChunkName = ChunkName(*b"DAFL");

    fn read(_r: &mut Reader) -> Result<Self> {
        Ok(DataFiles {})
    }

    fn write(&self, _w: &mut Writer) -> Result<()> {
        Ok(())
    }
}

/// No layout checks in DAFL.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
