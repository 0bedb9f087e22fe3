//! `EXTN`: extensions.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::raw::RawBody;
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `EXTN` chunk: extensions. (Not typed yet: carried as its bytes.)
#[derive(Clone, Debug, Default)]
pub struct Extensions {
    /// The chunk body.
    pub raw: RawBody,
}

impl Chunk for Extensions {
    const NAME: ChunkName = ChunkName(*b"EXTN");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(Extensions {
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
