//! `DAFL`: included data files.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::raw::RawBody;
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `DAFL` chunk: included data files. (Not typed yet: carried as its bytes.)
#[derive(Clone, Debug, Default)]
pub struct DataFiles {
    /// The chunk body.
    pub raw: RawBody,
}

impl Chunk for DataFiles {
    const NAME: ChunkName = ChunkName(*b"DAFL");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(DataFiles {
            raw: RawBody::read(r)?,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        self.raw.write(w);
        Ok(())
    }

    fn is_opaque(&self) -> bool {
        true
    }
}

/// Layout checks for the version detection (none yet).
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
