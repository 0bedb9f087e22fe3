//! `OPTN`: game options.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::raw::RawBody;
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `OPTN` chunk: game options. (Not typed yet: carried as its bytes.)
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The chunk body.
    pub raw: RawBody,
}

impl Chunk for Options {
    const NAME: ChunkName = ChunkName(*b"OPTN");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(Options {
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
