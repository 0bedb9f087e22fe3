//! `AUDO`: embedded audio.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::raw::RawBody;
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `AUDO` chunk: embedded audio. (Not typed yet: carried as its bytes.)
#[derive(Clone, Debug, Default)]
pub struct EmbeddedAudio {
    /// The chunk body.
    pub raw: RawBody,
}

impl Chunk for EmbeddedAudio {
    const NAME: ChunkName = ChunkName(*b"AUDO");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(EmbeddedAudio {
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
