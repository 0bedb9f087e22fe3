//! `ACRV`: animation curves.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::raw::RawBody;
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `ACRV` chunk: animation curves. (Not typed yet: carried as its bytes.)
#[derive(Clone, Debug, Default)]
pub struct AnimCurves {
    /// The chunk body.
    pub raw: RawBody,
}

impl Chunk for AnimCurves {
    const NAME: ChunkName = ChunkName(*b"ACRV");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(AnimCurves {
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
